//! A point core against a cuboid core, exactly: ball–box and ball–rounded box (the closest
//! point of a box is the clamped point).

use nphase_math::{Point, Real, UnitVector, Vector};
use num_traits::Float;

use super::LocalContact;

/// A cuboid core of half-extents `half` grown by `radius1`, at the origin, against the point
/// `center2` grown by `radius2`, exactly (the closest point of a box is the clamped point).
///
/// Outside the box the normal runs from the clamped point to `center2`; inside (or on the
/// surface) it is the outward normal of the face nearest to `center2` (the lowest axis on a
/// tie, the positive side for a zero coordinate) and the core distance is minus the depth below
/// that face.
pub(crate) fn cuboid_point<T: Real>(
    half: &Vector<T>,
    radius1: T,
    center2: &Vector<T>,
    radius2: T,
) -> LocalContact<T> {
    let clamped = center2.zip_map(half, |p, h| Float::min(Float::max(p, -h), h));
    let offset = center2 - clamped;
    let (normal, core_distance, on_core) = match nphase_math::normalize_robust(&offset) {
        // `normalize_robust` copes with a tiny offset; `n · offset` is its length without the
        // underflow of a squared norm.
        Some(n) => (n, n.dot(&offset), clamped),
        None => {
            let depth = half - center2.abs();
            let axis = (1..3).fold(0, |k, i| if depth[i] < depth[k] { i } else { k });
            let mut normal = Vector::zeros();
            normal[axis] = Float::copysign(T::one(), center2[axis]);
            let mut on_face = *center2;
            on_face[axis] = Float::copysign(half[axis], center2[axis]);
            (UnitVector::new_unchecked(normal), -depth[axis], on_face)
        }
    };
    let dist = core_distance - radius1 - radius2;
    let n = normal.into_inner();
    LocalContact::exact(
        Point::from(on_core + n * radius1),
        Point::from(center2 - n * radius2),
        normal,
        dist,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::PairWorkspace;
    use crate::collide::test_poses::check_both_orders;
    use nphase_math::{Isometry, Rotation};
    use nphase_shapes::{Ball, Cuboid, Shape};
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg64;

    /// Ball against box and rounded box, both orders, centres inside, on and around the box:
    /// the closed form agrees with GJK/EPA on the distance (1e-12 of the size), its normal is a
    /// minimiser (the support gap along it is the distance) and its witness pair is
    /// `dist · normal` apart, on the surfaces.
    #[test]
    fn cuboid_point_closed_form_matches_gjk_and_epa() {
        let mut rng = Pcg64::seed_from_u64(11);
        let mut workspace = PairWorkspace::new();
        let (mut inside, trials) = (0, 4000);
        for trial in 0..trials {
            let half = Vector::from_fn(|_, _| rng.random_range(0.1..1.0));
            let cuboid = Shape::Cuboid(Cuboid::new(half).expect("valid"));
            let boxy = if trial % 3 == 0 {
                Shape::round(cuboid, rng.random_range(0.01..0.2)).expect("valid")
            } else {
                cuboid
            };
            let ball = Shape::Ball(Ball::new(rng.random_range(0.0..0.5)).expect("valid"));
            // Centres up to 1.5 half-extents out; a tenth snapped onto a face, edge or corner.
            let mut center = half.map(|h| h * rng.random_range(-1.5..1.5));
            if trial % 10 == 0 {
                for k in 0..rng.random_range(1..=3) {
                    center[k] = half[k].copysign(center[k]);
                }
            }
            inside += usize::from(center.iter().zip(half.iter()).all(|(c, h)| c.abs() < *h));
            // The ball's pose in the box's frame, with a random orientation of its own.
            let ball_pose = Isometry::from_parts(
                center.into(),
                Rotation::new(Vector::from_fn(|_, _| rng.random_range(-3.0..3.0))),
            );
            let scale = half.norm() + 0.7;
            let tol = (1e-12 * scale, 1e-12 * scale);
            let closed = check_both_orders(&boxy, &ball, &ball_pose, tol, &mut workspace);
            assert_eq!(closed, 2, "the closed form answers");
        }
        // Representative: centres inside and outside the box alike.
        assert!(
            inside > trials / 5 && inside < trials * 4 / 5,
            "{inside} of {trials}"
        );
    }
}
