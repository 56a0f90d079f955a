//! A point core against a segment core, exactly: ball–capsule and ball–segment (the closest
//! point of a segment is the projection onto its line, clamped to its ends).

use nphase_math::{Point, Real};
use nphase_shapes::Segment;
use num_traits::Float;

use super::LocalContact;

/// A segment core grown by `radius1`, in its own frame at the origin, against the point
/// `center2` (same frame) grown by `radius2`, exactly.
///
/// The normal runs from the segment's point closest to `center2` to `center2`, and the core
/// distance is their distance. A centre on the segment itself, within the rounding of the
/// coordinates (8ε of the largest), is `r1 + r2` deep along every direction across the segment
/// (the ball's centre on the capsule's axis): the normal is then
/// [`any_unit_perpendicular`](nphase_math::any_unit_perpendicular) of the segment (the x axis
/// for a zero-length one).
///
/// Accuracy: the closest point carries the rounding of one projection, `~ε·size`, so the
/// distance is exact to that. Beside the segment the offset's part along the segment is
/// removed, so the normal is across it and its direction right to `ε·size / core distance`
/// across — GJK's own accuracy on a segment (its touch tolerance hands smaller core distances
/// to EPA, which has nothing to add here: every direction across the segment is a minimiser to
/// within the core distance).
pub(crate) fn segment_point<T: Real>(
    segment: &Segment<T>,
    radius1: T,
    center2: &Point<T>,
    radius2: T,
) -> LocalContact<T> {
    let (a, b) = (segment.a(), segment.b());
    let (edge, to_center) = (b - a, center2 - a);
    let length2 = edge.norm_squared();
    // (NaN for a zero-length segment: not inside, so its point `a`.)
    let t = to_center.dot(&edge) / length2;
    let (closest, offset) = if t > T::zero() && t < T::one() {
        // Beside the segment the offset is across it: the rounding along it is removed (a
        // centre on the axis would otherwise take that rounding for its normal).
        let offset = to_center - edge * t;
        (a + edge * t, offset - edge * (offset.dot(&edge) / length2))
    } else {
        let end = if t >= T::one() { b } else { a };
        (end, center2 - end)
    };
    // An offset within the rounding of the coordinates (8ε of the largest) is a centre on the
    // segment. Otherwise `n · offset` is the offset's length without the underflow of a squared
    // norm.
    let size = [a, b, *center2]
        .iter()
        .fold(T::zero(), |m, p| Float::max(m, p.coords.amax()));
    let floor = T::lit(8.0) * T::TOLERANCES.epsilon * size;
    let unit = (offset.amax() > floor)
        .then(|| nphase_math::normalize_robust(&offset))
        .flatten();
    let (normal, core_distance) = match unit {
        Some(n) => (n, n.dot(&offset)),
        None => (nphase_math::any_unit_perpendicular(&edge), T::zero()),
    };
    LocalContact::exact(closest, *center2, normal, core_distance).grown_by(radius1, radius2)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::PairWorkspace;
    use crate::collide::test_poses::{check_both_orders, random_turn};
    use nphase_math::{Isometry, Vector};
    use nphase_shapes::{Ball, Capsule, Shape};
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg64;

    /// Ball against capsule and segment, both orders, centres beside the core, beyond its ends
    /// and on its axis: the closed form agrees with GJK/EPA and its normal and witnesses are
    /// exact (`test_poses::assert_exact_contact`).
    #[test]
    fn segment_point_closed_form_matches_gjk_and_epa() {
        let mut rng = Pcg64::seed_from_u64(12);
        let mut workspace = PairWorkspace::new();
        let (mut beyond_ends, trials) = (0, 3000);
        for trial in 0..trials {
            let half_height: f64 = rng.random_range(0.0..1.0);
            let radius = rng.random_range(0.05..0.5);
            let line = if trial % 4 == 0 {
                let a = Point::from(Vector::from_fn(|_, _| rng.random_range(-1.0..1.0)));
                let b = Point::from(Vector::from_fn(|_, _| rng.random_range(-1.0..1.0)));
                Shape::Segment(Segment::new(a, b).expect("valid"))
            } else {
                Shape::Capsule(Capsule::new(half_height, radius).expect("valid"))
            };
            let ball = Shape::Ball(Ball::new(rng.random_range(0.0..0.5)).expect("valid"));
            let mut center: Vector<f64> = Vector::from_fn(|_, _| rng.random_range(-1.6..1.6));
            if trial % 10 == 0 {
                // A centre right on the axis, off the axis by rounding's order, or at an end.
                center.x = [0.0, 1e-13, 0.0][trial % 3];
                center.z = 0.0;
            }
            beyond_ends += usize::from(center.y.abs() > half_height);
            let ball_pose = Isometry::from_parts(center.into(), random_turn(&mut rng));
            let scale = center.norm() + 2.5;
            let tol = (1e-12 * scale, 1e-12 * scale);
            let closed = check_both_orders(&line, &ball, &ball_pose, tol, &mut workspace);
            assert_eq!(closed, 2, "the closed form answers");
        }
        assert!(
            beyond_ends > trials / 5 && beyond_ends < trials * 4 / 5,
            "{beyond_ends} of {trials}"
        );
    }

    /// In f32 on a capsule, beside the core, beyond an end and on the axis: the distance exact
    /// to the rounding of the size, the normal a unit vector.
    #[test]
    fn segment_point_is_exact_in_f32() {
        let capsule = Capsule::new(0.6f32, 0.25).expect("valid");
        for (center, core_distance) in [
            (Point::new(0.7f32, 0.3, 0.0), 0.7),
            (Point::new(0.0f32, 1.6, 0.0), 1.0),
            (Point::new(0.0f32, 0.2, 0.0), 0.0),
        ] {
            let c = segment_point(&capsule.segment(), 0.25, &center, 0.0);
            assert!((c.dist - (core_distance - 0.25)).abs() <= 1e-6, "{c:?}");
            assert!((c.normal.norm() - 1.0).abs() <= 1e-6);
        }
    }
}
