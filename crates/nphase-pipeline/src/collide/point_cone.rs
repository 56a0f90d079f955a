//! A point core against a cone core, exactly: ball–cone and ball–rounded cone.
//!
//! In the cone's frame (apex `(0, h, 0)`, base disc of radius `R` at `y = −h`) a point `c` has
//! the radial distance `ρ = |(c.x, c.z)|` along the radial unit `u` and the height `y = c.y`.
//! The cone's closest point lies in the half-plane of `u`, where the cone is the triangle of
//! the base centre `(0, −h)`, the rim `(R, −h)` and the apex `(0, h)` in `(ρ, y)`. Its slant,
//! from the rim to the apex, has length `L = √(4h² + R²)`, outward unit normal
//! `s = (2h, R)/L` and unit direction `(−R, 2h)/L`; a point's signed distance from the slant's
//! line is `σ = (ρ − R)·2h/L + (y + h)·R/L` and its parameter along it, from the rim,
//! `τ = −(ρ − R)·R/L + (y + h)·2h/L` (`0 ≤ τ ≤ L` for every point of the triangle).
//!
//! * `y < −h`, `ρ ≤ R` — under the base: normal `−y`, distance `−h − y`;
//! * `y < −h`, `ρ > R`, or `τ < 0` — beyond the rim: the normal runs from the rim point,
//!   `(ρ − R)·u + (y + h)·y` normalised;
//! * `τ > L` — beyond the apex: from the apex, `ρ·u + (y − h)·y` normalised;
//! * `σ > 0` otherwise — beside the slant: normal `2h/L·u + R/L·y`, distance `σ`;
//! * inside: the nearer of the base (depth `y + h`) and the slant (depth `−σ`), the base on a
//!   tie; minus that depth.
//!
//! Above the base, `τ < 0` and `τ > L` lie outside the slant (`σ > 0`) for a proper cone; the
//! rim and apex are chosen by `τ` alone so that a flat triangle is bounded too — a disc (`h`
//! zero: the slant's line is the base's) or a needle (`R` zero: on its axis `σ` is zero), both
//! found by fuzzing.
//!
//! As for the cylinder (`point_cylinder.rs`), distances are differences of input-sized numbers
//! and normals are built from `u` and `y`, so each is exact to the rounding of the coordinates
//! at every distance. On the axis (`ρ` zero) `u` is `x` (every radial direction is the same).
//! A cone of zero size (`L` zero) is its apex point.

use nphase_math::{Point, Real, UnitVector, Vector};
use nphase_shapes::Cone;
use num_traits::Float;

use super::LocalContact;

/// A cone core grown by `radius1`, in its own frame at the origin, against the point `center2`
/// (same frame) grown by `radius2`, exactly (see the module doc).
pub(crate) fn cone_point<T: Real>(
    cone: &Cone<T>,
    radius1: T,
    center2: &Point<T>,
    radius2: T,
) -> LocalContact<T> {
    let (h, r) = (cone.half_height(), cone.radius());
    let (radial, u, rho) = super::point_cylinder::radial_half_plane(center2);
    let y = center2.y;
    let two_h = h + h;
    let length = Float::hypot(two_h, r);
    // From a surface point `(ρ', y')` of the half-plane toward `(ρ, y)`: normal and distance.
    let from = |rho_at: T, y_at: T| {
        let n = u * (rho - rho_at) + Vector::y() * (y - y_at);
        let distance = nphase_math::norm_robust(&n);
        let normal = if distance > T::zero() {
            n / distance
        } else {
            Vector::y()
        };
        (normal, distance, u * rho_at + Vector::y() * y_at)
    };
    let (normal, core_distance, on_core) = if !(length > T::zero()) {
        from(T::zero(), h)
    } else {
        let (along_rho, along_y) = (rho - r, y + h);
        let sigma = (along_rho * two_h + along_y * r) / length;
        let tau = (along_y * two_h - along_rho * r) / length;
        let slant = u * (two_h / length) + Vector::y() * (r / length);
        let below = y < -h;
        if below && rho <= r {
            (-Vector::y(), -h - y, radial - Vector::y() * h)
        } else if below || tau < T::zero() {
            from(r, -h)
        } else if tau > length {
            from(T::zero(), h)
        } else if sigma > T::zero() || -sigma < along_y {
            (slant, sigma, center2.coords - slant * sigma)
        } else {
            (-Vector::y(), -along_y, radial - Vector::y() * h)
        }
    };
    let normal = UnitVector::new_unchecked(normal);
    LocalContact::exact(Point::from(on_core), *center2, normal, core_distance)
        .grown_by(radius1, radius2)
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

    /// Ball against cone and rounded cone, both orders, centres inside and in every outside
    /// region, and on the axis: the closed form agrees with GJK/EPA and its normal and
    /// witnesses are exact (`test_poses::assert_exact_contact`).
    #[test]
    fn cone_point_closed_form_matches_gjk_and_epa() {
        let mut rng = Pcg64::seed_from_u64(15);
        let mut workspace = PairWorkspace::new();
        let trials = 4000;
        let (mut inside, mut below, mut above) = (0, 0, 0);
        for trial in 0..trials {
            let (h, r): (f64, f64) = (rng.random_range(0.1..1.0), rng.random_range(0.1..1.0));
            let core = Shape::Cone(Cone::new(h, r).expect("valid"));
            let cone = if trial % 3 == 0 {
                Shape::round(core, rng.random_range(0.01..0.2)).expect("valid")
            } else {
                core
            };
            let ball = Shape::Ball(Ball::new(rng.random_range(0.0..0.5)).expect("valid"));
            let mut center = Vector::new(
                r * rng.random_range(-1.6..1.6),
                h * rng.random_range(-1.8..1.8),
                r * rng.random_range(-1.6..1.6),
            );
            if trial % 10 == 0 {
                center.x = 0.0;
                center.z = 0.0;
            }
            let rho = center.x.hypot(center.z);
            inside += usize::from(center.y > -h && rho < r * (h - center.y) / (2.0 * h));
            below += usize::from(center.y < -h);
            above += usize::from(center.y > h);
            let ball_pose = Isometry::from_parts(center.into(), random_turn(&mut rng));
            let scale = h + r + 1.0;
            let tol = (1e-12 * scale, 1e-10 * scale);
            let closed = check_both_orders(&cone, &ball, &ball_pose, tol, &mut workspace);
            assert_eq!(closed, 2, "the closed form answers");
        }
        for count in [inside, below, above] {
            assert!(count > trials / 10, "{inside} {below} {above} of {trials}");
        }
    }

    /// Degenerate cones: a flat disc (`h` zero, also `−0`, found by fuzzing: a point beside
    /// the disc in its plane came out on it) and a needle (`R` zero; also found by fuzzing: a
    /// point on its axis beyond the apex came out on the slant), in f32 and f64.
    fn degenerate_cones<T: Real>() {
        let lit = |x: f64| T::lit(x);
        let s = 0.5f64.sqrt();
        let cases = [
            // (h, R, centre, core distance, normal)
            (-0.0, 1e-4, [0.0, 0.0, 3.0], 3.0 - 1e-4, [0.0, 0.0, 1.0]),
            (0.0, 0.5, [1.5, 0.0, 0.0], 1.0, [1.0, 0.0, 0.0]),
            // On the disc: the base's normal (the base on a tie).
            (0.0, 0.5, [0.2, 0.0, 0.0], 0.0, [0.0, -1.0, 0.0]),
            (0.0, 0.5, [0.2, -0.3, 0.0], 0.3, [0.0, -1.0, 0.0]),
            (0.0, 0.5, [0.2, 0.3, 0.0], 0.3, [0.0, 1.0, 0.0]),
            (0.0, 0.5, [1.5, 1.0, 0.0], 2f64.sqrt(), [s, s, 0.0]),
            (0.5, 0.0, [0.0, 0.2, 0.7], 0.7, [0.0, 0.0, 1.0]),
            (0.5, 0.0, [0.0, -0.9, 0.0], 0.4, [0.0, -1.0, 0.0]),
            (0.5, 0.0, [0.3, 0.9, 0.0], 0.5, [0.6, 0.8, 0.0]),
            // A needle's axis beyond its apex (its slant's distance is zero all along the axis).
            (0.5, -0.0, [0.0, 3.0, 0.0], 2.5, [0.0, 1.0, 0.0]),
            (1e-5, -0.0, [0.0, 5.0, 0.0], 5.0 - 1e-5, [0.0, 1.0, 0.0]),
        ];
        for (h, r, center, core_distance, normal) in cases {
            let cone = Cone::new(lit(h), lit(r)).expect("valid");
            let center = Point::new(lit(center[0]), lit(center[1]), lit(center[2]));
            let c = cone_point(&cone, T::zero(), &center, T::zero());
            let tol = lit(1e-6);
            assert!(
                Float::abs(c.dist - lit(core_distance)) <= tol,
                "{center:?}: {c:?}"
            );
            let expected = Vector::new(lit(normal[0]), lit(normal[1]), lit(normal[2]));
            assert!((c.normal.into_inner() - expected).norm() <= tol, "{c:?}");
        }
    }

    #[test]
    fn degenerate_cones_f32() {
        degenerate_cones::<f32>();
    }

    #[test]
    fn degenerate_cones_f64() {
        degenerate_cones::<f64>();
    }

    /// In f32, one centre per region: the distance and normal exact to the rounding.
    #[test]
    fn cone_point_is_exact_in_f32() {
        // Half-height 0.5, radius 1: the slant's normal is (1, 1)/√2 in (ρ, y).
        let cone = Cone::new(0.5f32, 1.0).expect("valid");
        let s = 0.5f32.sqrt();
        for (center, core_distance, normal) in [
            ([0.5f32, -0.8, 0.0], 0.3, [0.0, -1.0, 0.0]),
            ([0.0, -0.8, -1.4], 0.5, [0.0, -0.6, -0.8]),
            ([0.0, 0.9, 0.0], 0.4, [0.0, 1.0, 0.0]),
            ([0.5, 0.5, 0.0], 0.5 * s, [s, s, 0.0]),
            ([0.0, -0.4, 0.0], -0.1, [0.0, -1.0, 0.0]),
            ([0.0, 0.3, 0.0], -0.2 * s, [1.0 * s, s, 0.0]),
        ] {
            let center = Point::new(center[0], center[1], center[2]);
            let c = cone_point(&cone, 0.0, &center, 0.0);
            assert!((c.dist - core_distance).abs() <= 1e-6, "{center:?}: {c:?}");
            let expected = Vector::new(normal[0], normal[1], normal[2]);
            assert!((c.normal.into_inner() - expected).norm() <= 1e-6, "{c:?}");
        }
    }
}
