//! Crashes and wrong answers found by the fuzz targets (`fuzz/`, see its README), each fixed
//! and kept here in the normal test suite.

use nphase_math::nalgebra::Quaternion;
use nphase_math::{Isometry, Point, Real, Rotation, Vector};
use nphase_pipeline::query::{contact, distance, intersection_test};
use nphase_shapes::{Ball, Cone, Shape};

/// Regression (fuzz target `shapes`): `Shape::convex` panicked with an index out of bounds in
/// the hull's second pass. The cloud mixed coordinates of 1e300 with ones of 1e-4 and 3e-7;
/// scaled to unit size the small ones are ~1e-304, rounding blurred every corner, no vertex
/// counted as extreme, and the second pass classified an empty set. The first pass's mesh is
/// now kept when too few extreme vertices remain.
#[test]
fn hull_of_a_cloud_spanning_600_orders_of_magnitude_does_not_panic() {
    let p = Point::new;
    let cloud = [
        p(-0.000611785888671875, -0.0, -0.0),
        p(0.0, -3.0517578125e-7, -3.0517578125e-7),
        p(-0.0, -0.0, -0.0),
        p(-0.0, 1e300, 1e300),
        p(1e300, 1e300, 1e300),
        p(1e300, 1e300, 1e300),
        p(1e300, 1e300, 1e300),
        p(-0.0, -0.0, -0.0),
    ];
    let hull = Shape::<f64>::convex(&cloud).expect("finite points make a hull");
    let aabb = hull.local_aabb();
    assert!(aabb.maxs.iter().all(|x| x.is_finite()), "{aabb:?}");
}

/// Regression (fuzz target `contact`): a point (a ball of radius 0) 1.4e-4 beside a cone of
/// radius 0 (a segment 96 long), f32. GJK saw the pair as touching (1.4e-4 is below its touch
/// tolerance of 1e-5 of the size); EPA's flat start took the normal from the segment's closest
/// point to the origin, whose rounding error along the 96-long segment tilted the normal by
/// 0.026 rad, and `distance` said −1.22 (a depth!) while `intersection_test` said apart. The
/// normal of a segment-shaped Minkowski difference is now made perpendicular to it.
#[test]
fn point_beside_a_long_segment_is_not_a_deep_penetration() {
    fn check<T: Real>() {
        let a = Shape::Ball(Ball::new(T::zero()).expect("valid"));
        let b = Shape::Cone(Cone::new(T::lit(47.894287109375), T::zero()).expect("valid"));
        let pa = Isometry::from_parts(
            Vector::zeros().into(),
            Rotation::new_normalize(Quaternion::new(
                T::lit(47.8424072265625),
                T::zero(),
                T::zero(),
                T::lit(0.98822021484375),
            )),
        );
        let pb = Isometry::translation(
            T::lit(9.8822021484375e-5),
            T::lit(1e-300),
            T::lit(9.8822021484375e-5),
        );
        let d = distance(&pa, &a, &pb, &b).expect("finite poses").as_f64();
        assert!((d - 1.3975544304433143e-4).abs() < 1e-6, "distance {d}");
        assert!(!intersection_test(&pa, &a, &pb, &b).expect("finite poses"));
        assert!(
            contact(&pa, &a, &pb, &b, T::zero())
                .expect("finite")
                .is_none()
        );
    }
    check::<f32>();
    check::<f64>();
}
