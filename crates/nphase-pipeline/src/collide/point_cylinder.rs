//! A point core against a cylinder core, exactly: ball–cylinder and ball–rounded cylinder.
//!
//! In the cylinder's frame (axis `y`, half-height `h`, radius `R`) a point `c` has the radial
//! distance `ρ = |(c.x, c.z)|` along the radial unit `u` and the height `y = c.y`. The
//! cylinder's closest point lies in the half-plane of `u`, and the problem is the 2D one of the
//! rectangle `[0, R] × [−h, h]`:
//!
//! * `ρ > R`, `|y| ≤ h` — beside the side: normal `u`, distance `ρ − R`;
//! * `ρ ≤ R`, `|y| > h` — over a cap: normal `±y`, distance `|y| − h`;
//! * `ρ > R`, `|y| > h` — beyond the rim: the normal runs from the rim point, `(ρ − R)·u +
//!   (|y| − h)·(±y)` normalised;
//! * inside: the nearer of the cap (depth `h − |y|`) and the side (depth `R − ρ`), the cap on a
//!   tie; minus that depth.
//!
//! Every distance is a difference of two numbers the size of the input, and every normal is
//! built from `u` and `y` — no difference of nearly equal points — so each is exact to the
//! rounding of the coordinates, `~ε·size`, at every distance. On the axis (`ρ` zero) where the
//! side is nearer (a cylinder longer than it is wide), every radial direction is a normal: `x`.

use nphase_math::{Point, Real, UnitVector, Vector};
use nphase_shapes::Cylinder;
use num_traits::Float;

use super::LocalContact;

/// A cylinder core grown by `radius1`, in its own frame at the origin, against the point
/// `center2` (same frame) grown by `radius2`, exactly (see the module doc).
pub(crate) fn cylinder_point<T: Real>(
    cylinder: &Cylinder<T>,
    radius1: T,
    center2: &Point<T>,
    radius2: T,
) -> LocalContact<T> {
    let (h, r) = (cylinder.half_height(), cylinder.radius());
    let (radial, u, rho) = radial_half_plane(center2);
    let y = center2.y;
    let up = Vector::new(T::zero(), Float::signum(y), T::zero());
    let (beside, over) = (rho - r, Float::abs(y) - h);
    // The point of the core's surface the normal leaves from, as radial and axial parts.
    let (normal, core_distance, on_core) = if beside > T::zero() && over > T::zero() {
        let n = u * beside + up * over;
        let length = nphase_math::norm_robust(&n);
        (n / length, length, u * r + up * h)
    } else if beside > over {
        // Beside the side (`over ≤ 0 < beside`), or inside and nearer the side.
        (u, beside, u * r + Vector::y() * y)
    } else {
        // Over a cap, or inside and nearer a cap (or as near).
        (up, over, radial + up * h)
    };
    let normal = UnitVector::new_unchecked(normal);
    LocalContact::exact(Point::from(on_core), *center2, normal, core_distance)
        .grown_by(radius1, radius2)
}

/// The radial half-plane of `p` about the y axis: its radial part `(p.x, 0, p.z)`, the radial
/// unit `u` (`x` on the axis, where every radial direction is the same) and the radial distance
/// `ρ` (`u` dotted with the radial part: no underflow of a squared norm).
pub(super) fn radial_half_plane<T: Real>(p: &Point<T>) -> (Vector<T>, Vector<T>, T) {
    let radial = Vector::new(p.x, T::zero(), p.z);
    match nphase_math::normalize_robust(&radial) {
        Some(u) => (radial, u.into_inner(), u.dot(&radial)),
        None => (radial, Vector::x(), T::zero()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::PairWorkspace;
    use crate::collide::test_poses::{check_both_orders, random_turn};
    use nphase_math::Isometry;
    use nphase_shapes::{Ball, Shape};
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg64;

    /// Ball against cylinder and rounded cylinder, both orders, centres inside, beside, over
    /// the caps, beyond the rims and on the axis: the closed form agrees with GJK/EPA and its
    /// normal and witnesses are exact (`test_poses::assert_exact_contact`).
    #[test]
    fn cylinder_point_closed_form_matches_gjk_and_epa() {
        let mut rng = Pcg64::seed_from_u64(14);
        let mut workspace = PairWorkspace::new();
        let mut regions = [0usize; 4];
        let trials = 4000;
        for trial in 0..trials {
            let (h, r): (f64, f64) = (rng.random_range(0.1..1.0), rng.random_range(0.1..1.0));
            let core = Shape::Cylinder(Cylinder::new(h, r).expect("valid"));
            let cylinder = if trial % 3 == 0 {
                Shape::round(core, rng.random_range(0.01..0.2)).expect("valid")
            } else {
                core
            };
            let ball = Shape::Ball(Ball::new(rng.random_range(0.0..0.5)).expect("valid"));
            let mut center = Vector::new(
                r * rng.random_range(-1.6..1.6),
                h * rng.random_range(-1.6..1.6),
                r * rng.random_range(-1.6..1.6),
            );
            if trial % 10 == 0 {
                // On the axis.
                center.x = 0.0;
                center.z = 0.0;
            }
            let (rho, over) = (center.x.hypot(center.z), center.y.abs() > h);
            regions[usize::from(rho > r) * 2 + usize::from(over)] += 1;
            let ball_pose = Isometry::from_parts(center.into(), random_turn(&mut rng));
            let scale = h + r + 1.0;
            let tol = (1e-12 * scale, 1e-10 * scale);
            let closed = check_both_orders(&cylinder, &ball, &ball_pose, tol, &mut workspace);
            assert_eq!(closed, 2, "the closed form answers");
        }
        // Every region well represented.
        assert!(regions.iter().all(|&n| n > trials / 10), "{regions:?}");
    }

    /// In f32, one centre per region: the distance and normal exact to the rounding of the size.
    #[test]
    fn cylinder_point_is_exact_in_f32() {
        let cylinder = Cylinder::new(0.5f32, 0.3).expect("valid");
        let s = 0.5f32.sqrt();
        for (center, core_distance, normal) in [
            ([0.5f32, 0.2, 0.0], 0.2, [1.0, 0.0, 0.0]),
            ([0.1, -0.9, 0.1], 0.4, [0.0, -1.0, 0.0]),
            ([0.0, 0.9, 0.7], 0.4 * 2f32.sqrt(), [0.0, s, s]),
            ([0.0, 0.45, 0.0], -0.05, [0.0, 1.0, 0.0]),
            ([0.0, 0.1, -0.25], -0.05, [0.0, 0.0, -1.0]),
        ] {
            let center = Point::new(center[0], center[1], center[2]);
            let c = cylinder_point(&cylinder, 0.0, &center, 0.0);
            assert!((c.dist - core_distance).abs() <= 1e-6, "{center:?}: {c:?}");
            let expected = Vector::new(normal[0], normal[1], normal[2]);
            assert!((c.normal.into_inner() - expected).norm() <= 1e-6, "{c:?}");
        }
    }
}
