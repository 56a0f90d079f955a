//! Crashes and wrong answers found by the fuzz targets (`fuzz/`, see its README), each fixed
//! and kept here in the normal test suite.

use nphase_math::nalgebra::Quaternion;
use nphase_math::{Isometry, Point, Real, Rotation, Vector};
use nphase_pipeline::query::{contact, distance, intersection_test};
use nphase_shapes::{Ball, Cone, ConvexPolyhedron, Shape, ShapeError};

/// Regression (fuzz target `shapes`): `Shape::convex` panicked with an index out of bounds in
/// the hull's second pass. The cloud mixed coordinates of 1e300 with ones of 1e-4 and 3e-7;
/// scaled to unit size the small ones are ~1e-304, rounding blurred every corner, no vertex
/// counted as extreme, and the second pass classified an empty set. The first pass's mesh is
/// now kept when too few extreme vertices remain. Coordinates of 1e300 are now beyond the
/// input range (docs/accuracy.md) and refused by name; the same cloud at the largest length,
/// 1e60, still spans 67 orders of magnitude and builds.
#[test]
fn hull_of_a_cloud_spanning_many_orders_of_magnitude_does_not_panic() {
    let cloud = |big: f64| {
        let p = Point::new;
        [
            p(-0.000611785888671875, -0.0, -0.0),
            p(0.0, -3.0517578125e-7, -3.0517578125e-7),
            p(-0.0, -0.0, -0.0),
            p(-0.0, big, big),
            p(big, big, big),
            p(big, big, big),
            p(big, big, big),
            p(-0.0, -0.0, -0.0),
        ]
    };
    let hull = Shape::<f64>::convex(&cloud(1e60)).expect("finite points in range make a hull");
    let aabb = hull.local_aabb();
    assert!(aabb.maxs.iter().all(|x| x.is_finite()), "{aabb:?}");
    assert!(matches!(
        Shape::<f64>::convex(&cloud(1e300)),
        Err(ShapeError::TooLarge { .. })
    ));
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

/// Regression (fuzz target `contact`): a tiny cone (5e-4) beside a segment a million long (a
/// two-point hull), f64. GJK stalled with certified bounds straddling 0, EPA could not settle
/// the pair, and the estimate — 1e-4 apart — was returned as a `Fallback` contact for a
/// prediction of 0: a contact beyond its own prediction. Estimates whose lower bound admits a
/// contact now report their distance clamped to the prediction (which lies within the bounds).
#[test]
fn fallback_contact_stays_within_the_prediction() {
    let a = Shape::Cone(Cone::new(0.000478424072265625, 0.00022308349609375002).expect("valid"));
    let b = Shape::Convex(std::sync::Arc::new(
        ConvexPolyhedron::from_points(&[
            Point::new(477783.203125, -766754.150390625, -288116.455078125),
            Point::new(1e-300, 4.08935546875e-7, 0.0),
        ])
        .expect("valid"),
    ));
    let id = Isometry::identity();
    if let Some(c) = contact(&id, &a, &id, &b, 0.0).expect("finite input") {
        assert!(c.dist <= 0.0, "{c:?}");
    }
    let d: f64 = distance(&id, &a, &id, &b).expect("finite input");
    assert!(d.is_finite());
}

/// Regression (fuzz target `contact`): a point (a ball of radius 0) 1e-10 from a sliver
/// triangle with one vertex 9e5 away, prediction 0, f64. GJK stalled on the sliver; EPA from
/// its simplex settled the distance within GJK's bounds, and then the snap to an exact face
/// normal certified a distance of +1.02e-10 — returned as a contact beyond its prediction of 0.
/// The settled answer is now checked against the prediction after the snap.
#[test]
fn snapped_stall_answer_stays_within_the_prediction() {
    let a = Shape::Triangle(
        nphase_shapes::Triangle::new(
            Point::new(-628082.275390625, -627471.923828125, -0.0924346923828125),
            Point::new(0.0006953125, 0.000307403564453125, 0.0),
            Point::new(0.000698028564453125, 0.046365356445312506, 0.0),
        )
        .expect("valid"),
    );
    let b = Shape::Ball(Ball::new(0.0).expect("valid"));
    let id = Isometry::identity();
    if let Some(c) = contact(&id, &a, &id, &b, 0.0).expect("finite input") {
        assert!(c.dist <= 0.0, "{c:?}");
    }
    let d: f64 = distance(&id, &a, &id, &b).expect("finite input");
    assert!(d.is_finite() && d.abs() < 1e-6, "distance {d}");
}

/// Regression (fuzz target `shapes`): a hull of the origin, (0, 1e-300, 0), a point 3e-7 along
/// the diagonal and two points 82 away, f64. The exact orientation predicates underflow on
/// differences of 1e-300, so the origin — really on the diagonal edge — stayed a vertex, and two
/// faces of exactly collinear vertices got a NaN normal (in the supporting feature). Coordinates
/// more than 1e150 times smaller than the cloud's extent are now flushed to zero before the hull
/// is built: here the cloud is then coplanar, a polygon with finite normals.
#[test]
fn hull_with_a_1e300_coordinate_has_finite_normals() {
    let points: Vec<Point<f64>> = [
        [-0.0, -0.0, -0.0],
        [-0.0, 1e-300, -0.0],
        [-3.0517578125e-7, -3.0517578125e-7, -3.0517578125e-7],
        [-3.0517578125e-7, 82.3516845703125, 82.3516845703125],
        [82.3516845703125, 82.3516845703125, 82.3516845703125],
    ]
    .iter()
    .map(|p| Point::new(p[0], p[1], p[2]))
    .collect();
    let hull = ConvexPolyhedron::from_points(&points).expect("valid");
    for i in 0..hull.face_count() {
        let n = hull.face(i).normal;
        assert!(n.iter().all(|x| x.is_finite()), "face {i}: {n:?}");
        assert!((n.norm() - 1.0).abs() < 1e-12);
    }
}

/// Regression (fuzz target `contact`): a point (a ball of radius 0) 4.3e-7 beside a hull that
/// spans 1.4e6 (its vertices near the point are 3e-7 apart), f64. GJK stopped on its touch
/// test (relative to that size), EPA converged on a face with the right distance, and then its
/// witness walk — allowed to cross to neighbours within the accuracy target times the size,
/// 1.4e-4 here — stepped to a face whose normal is far from the minimiser: the contact said
/// 3 296 deep, while `intersection_test` found a separating axis. A neighbour now replaces the
/// converged face only if it is converged itself.
#[test]
fn epa_witness_walk_keeps_a_converged_face() {
    let points: Vec<Point<f64>> = [
        [-27.4658203125, 4997.25341796875, 0.000494110107421875],
        [-627471.923828125, -627471.923828125, -627471.923828125],
        [-631347.65625, -0.0627471923828125, -627471.923828125],
        [-0.00627471923828125, -3.0517578125e-7, -3.0517578125e-7],
        [-3.0517578125e-7, -3.0517578125e-7, -3.0517578125e-7],
        [-627471.923828125, 8.331298828125e-6, 1.674009045837433e-260],
        [-627471.923828125, -630432.12890625, -627471.923828125],
        [-635284.423828125, -3.0517578125e-7, -627471.923828125],
        [-2.471923828125e-5, -3.0517578125e-7, -3.0517578125e-7],
        [-625030.517578125, -62.7471923828125, -0.0],
        [0.0, 759735.107421875, 0.0],
    ]
    .iter()
    .map(|p| Point::new(p[0], p[1], p[2]))
    .collect();
    let a = Shape::Convex(std::sync::Arc::new(
        ConvexPolyhedron::from_points(&points).expect("valid"),
    ));
    let b = Shape::Ball(Ball::new(0.0).expect("valid"));
    let id = Isometry::identity();
    // The oracle: separated by 4.3058e-7 (scale 1.4e6, so any answer within 1e-3 of zero is
    // within docs/accuracy.md's tolerance; the sign and magnitude of a deep answer are not).
    let d: f64 = distance(&id, &a, &id, &b).expect("finite input");
    assert!(d.abs() < 1e-3, "distance {d}");
    assert!(!intersection_test(&id, &a, &id, &b).expect("finite input") || d <= 0.0);
}

/// Regression (fuzz target `contact`): a ball (0.72) centred on the axis of a cylinder
/// 14 000 long and 0.22 thick, f32. GJK proved the overlap; EPA's polytope of that aspect ratio
/// broke down after one step (a bad horizon) and its uncertified estimate said the shapes were
/// 7 213 *apart*, which `distance` returned while `intersection_test` said they overlap. A
/// broken-down EPA now falls back to the best certified axis among a few candidates (EPA's
/// normal, both shapes' axes, the centre line): a depth of 0.94, reported as a `Fallback`.
#[test]
fn broken_epa_never_turns_an_overlap_into_a_separation() {
    use nphase_shapes::Cylinder;
    fn check<T: Real>() {
        let a = Shape::Ball(Ball::new(T::lit(0.7215576171875)).expect("valid"));
        let b = Shape::Cylinder(
            Cylinder::new(T::lit(7214.35546875), T::lit(0.2215576171875)).expect("valid"),
        );
        let pa = Isometry::from_parts(
            Vector::new(
                T::lit(-3.0517578125e-7),
                T::lit(-6.103515625e-7),
                T::lit(-3.0517578125e-7),
            )
            .into(),
            Rotation::new_normalize(Quaternion::new(
                T::lit(66.68701171875),
                T::lit(-9.256591796875),
                T::lit(-9.25506591796875),
                T::lit(-9.25506591796875),
            )),
        );
        let pb = Isometry::identity();
        let d = distance(&pa, &a, &pb, &b).expect("finite").as_f64();
        // The ball's centre is on the axis: the depth is the two radii, 0.9431.
        assert!((d + 0.9431146376818593).abs() < 1e-3, "distance {d}");
        assert!(intersection_test(&pa, &a, &pb, &b).expect("finite"));
        let c = contact(&pa, &a, &pb, &b, T::zero())
            .expect("finite")
            .expect("overlapping");
        // Coaxial: a deliberately degenerate valley, so the quality may be a cap or a fallback
        // (and is then counted), but the overlap is kept.
        assert!(c.dist <= T::zero(), "{c:?}");
    }
    check::<f32>();
    check::<f64>();
}

/// Fuzz target `contact`: a cylinder of radius 0 and length 5.6e-7 (nearly a point) inside a
/// cylinder 0.0028 thick, f32. `distance` and `contact` found the overlap (depth 2.6e-3, as in
/// f64) but the f32 `intersection_test` answered "apart": GJK stalled (no progress) with an
/// estimate of +1.3e-5 whose bounds [−5.5e-3, 1.3e-5] straddle zero, and the test trusted its
/// sign. A stalled or capped intersection test is now settled by the full query (EPA from the
/// stalled simplex), so all three agree. In f32 the small cylinder (5.6e-7 long) is now below
/// the smallest size of the input range (1e-6, docs/accuracy.md) and refused by name; the f32
/// case is kept with every length scaled by 4 (poses included).
#[test]

fn f32_intersection_test_sees_a_point_inside_a_thin_cylinder() {
    use nphase_shapes::Cylinder;
    fn check<T: Real>(k: f64) {
        let a = Shape::Cylinder(
            Cylinder::new(T::lit(2.8076171875e-7 * k), T::zero()).expect("in range"),
        );
        let b = Shape::Cylinder(
            Cylinder::new(T::lit(0.718963623046875 * k), T::lit(0.0028076171875 * k))
                .expect("valid"),
        );
        let q = |x: f64, y: f64, z: f64, w: f64| {
            Rotation::new_normalize(Quaternion::new(T::lit(w), T::lit(x), T::lit(y), T::lit(z)))
        };
        let pa = Isometry::from_parts(
            Vector::new(T::zero(), T::lit(-0.000823638916015625 * k), T::zero()).into(),
            q(
                -0.000266693115234375,
                -3.0517578125e-8,
                -0.000266693115234375,
                -0.000266693115234375,
            ),
        );
        let pb = Isometry::from_parts(
            Vector::new(
                T::lit(0.000381744384765625 * k),
                T::lit(-0.0027337646484375 * k),
                T::lit(-0.000265655517578125 * k),
            )
            .into(),
            q(
                -0.000266693115234375,
                -0.000266693115234375,
                -0.00027197265625,
                -0.00266693115234375,
            ),
        );
        let d = distance(&pa, &a, &pb, &b).expect("finite").as_f64();
        assert!(d < -2e-3 * k, "distance {d}");
        assert!(intersection_test(&pa, &a, &pb, &b).expect("finite"));
    }
    check::<f64>(1.0);
    check::<f32>(4.0);
    assert!(matches!(
        Cylinder::<f32>::new(2.807_617_2e-7, 0.0),
        Err(ShapeError::TooSmall { .. })
    ));
}

/// Fuzz target `contact` (this session's run): a box of half-extents (3.3e-5, 0, 0) — a tiny
/// segment — inside a cone 1 000 times wider than high (half-height 0.0022, radius 2.12), f32.
/// GJK proved the overlap (its simplex a flat triangle through the origin); EPA, in f32 on a
/// Minkowski difference that thin, reached its cap with the origin outside its polytope and a
/// "depth" of −0.0022, so `distance` said +0.0022 (the cone's half-height, on the wrong side)
/// with bounds that excluded the truth, while `intersection_test` said touching. An EPA answer
/// on the separated side of GJK's proven overlap is now a broken polytope: the pair takes the
/// fallback of the best certified axis (`Fallback`), −0.0022 as in f64.
#[test]
fn f32_segment_inside_a_flat_cone_is_not_reported_apart() {
    use nphase_math::nalgebra::Translation3;
    fn check<T: Real>() -> (f64, bool) {
        let a = Shape::Cuboid(
            nphase_shapes::Cuboid::new(Vector::new(
                T::lit(3.256_835_937_500_000_5e-5),
                T::zero(),
                T::zero(),
            ))
            .expect("in range"),
        );
        let b = Shape::Cone(
            Cone::new(
                T::lit(0.002_176_818_847_656_25),
                T::lit(2.117_614_746_093_75),
            )
            .expect("in range"),
        );
        let q = Quaternion::new(
            T::lit(3.490_600_585_937_500_5e-5),
            T::lit(1.281_738_281_25e-5),
            T::zero(),
            T::zero(),
        );
        let pa = Isometry::from_parts(Translation3::identity(), Rotation::new_normalize(q));
        let pb = Isometry::identity();
        let d = distance(&pa, &a, &pb, &b).expect("in range").as_f64();
        let touching = intersection_test(&pa, &a, &pb, &b).expect("in range");
        (d, touching)
    }
    let (d64, touching64) = check::<f64>();
    let (d32, touching32) = check::<f32>();
    assert!(touching64 && touching32);
    assert!((d64 + 0.002_176_814).abs() < 1e-8, "f64 distance {d64}");
    assert!(
        (d32 - d64).abs() < 1e-4 * 2.12,
        "f32 distance {d32} against f64 {d64}"
    );
}

/// Fuzz target `contact` (this session's run): a capsule 3.5e-5 long at the middle of one
/// 1 145 long and 572 thick, f32. `distance` found it 572.54 deep, `intersection_test` said
/// apart: its GJK proved the overlap on the first iteration (`|v|`, the huge core's end, within
/// the radii's sum — up to rounding, here equal to it), but the answer was then read off the
/// distance estimate built after the loop, a rounding error above zero. A proven overlap is now
/// the answer.
#[test]
fn f32_tiny_capsule_inside_a_huge_one_intersects() {
    use nphase_math::nalgebra::Translation3;
    use nphase_shapes::Capsule;
    fn check<T: Real>() {
        let a = Shape::Capsule(
            Capsule::new(T::lit(572.540_283_203_125), T::lit(572.540_283_203_125))
                .expect("in range"),
        );
        let b = Shape::Capsule(
            Capsule::new(T::lit(3.450_927_734_375e-5), T::lit(3.222_656_25e-5)).expect("in range"),
        );
        let q = |w: f64, x: f64, y: f64, z: f64| {
            Rotation::new_normalize(Quaternion::new(T::lit(w), T::lit(x), T::lit(y), T::lit(z)))
        };
        let pa = Isometry::from_parts(
            Translation3::identity(),
            q(
                3.211_364_746_093_75e-5,
                -0.050_808_715_820_312_5,
                8.181_762_695_312_5e-5,
                2.116_699_218_75,
            ),
        );
        let pb = Isometry::from_parts(
            Translation3::identity(),
            q(
                0.0,
                -5.080_871_582_031_25e-5,
                702.819_824_218_75,
                3.490_600_585_937_500_5e-5,
            ),
        );
        let d = distance(&pa, &a, &pb, &b).expect("in range").as_f64();
        assert!((d + 572.540_3).abs() < 1e-4 * 1145.0, "distance {d}");
        assert!(intersection_test(&pa, &a, &pb, &b).expect("in range"));
    }
    check::<f64>();
    check::<f32>();
}

/// Regression (fuzz target `adapter`): two copies of a capsule whose segment core is 4.5e-23
/// long (a small part of a valid shape, docs/accuracy.md) crossing at their centres, in f32. GJK's
/// closest-point vector `v` was ~1e-23 long, `|v|²` underflowed, and `v / |v|` made a normal of
/// length 0.974 (reported as converged). `|v|` is now `norm_robust`. Concentric balls, and
/// balls 3e-23 apart, likewise (`ball_ball`'s own test).
#[test]
fn capsules_with_tiny_cores_crossing_have_a_unit_normal() {
    use nphase_shapes::Capsule;
    fn check<T: Real>(half_height: f64) {
        let capsule = Shape::Capsule(
            Capsule::new(T::lit(half_height), T::lit(5.093_078_613_281_25e-5)).expect("in range"),
        );
        let s = -3.051_757_812_5e-7;
        let turn =
            Rotation::new_normalize(Quaternion::new(T::lit(s), T::zero(), T::lit(s), T::lit(s)));
        let pb = Isometry::from_parts(Vector::zeros().into(), turn);
        let c = contact(&Isometry::identity(), &capsule, &pb, &capsule, T::zero())
            .expect("in range")
            .expect("overlapping");
        let n = c.normal1.into_inner();
        assert!(
            num_traits::Float::abs(n.norm() - T::one()) < T::lit(1e-6),
            "half-height {half_height:e}: |n| = {:?}",
            n.norm()
        );
        let expected = -2.0 * 5.093_078_613_281_25e-5;
        assert!((c.dist.as_f64() - expected).abs() < 1e-9, "{c:?}");
    }
    check::<f32>(2.233_387_656_622_422_2e-23);
    check::<f64>(2.233_387_656_622_422_2e-160);
}

/// Regression (fuzz target `adapter`, against a full recomputation): two copies of one sliver
/// hull (71.9 long, 0.98 high, its corner near the origin cut by three vertices 3.6e-5 apart) at
/// one pose penetrate by the hull's least width, 0.42999 (an edge pair's axis). The separating-
/// axis test took an edge pair sharing a near-flat corner, whose arcs crossed by rounding, and
/// measured it between the edge lines: 3.6e-5 deep. A hot edge pair that would win is now
/// confirmed with the shapes' supports along its axis, in the full test, the cached feature
/// and the certificate's features; the pair kept across a tiny motion (the certificate's path)
/// agrees with a full recomputation.
#[test]
fn identical_sliver_hulls_at_one_pose_penetrate_by_their_least_width() {
    use nphase_pipeline::{NarrowPhase, NarrowPhaseConfig};
    fn check<T: Real>() {
        let p = |x: f64, y: f64, z: f64| Point::new(T::lit(x), T::lit(y), T::lit(z));
        let hull = Shape::convex(&[
            p(7.307_434, 0.976_898_2, 0.283_813_48),
            p(0.0, 0.0, -3.608_093e-5),
            p(0.0, -3.608_093e-5, 0.0),
            p(0.0, 0.004_470_52, 5.095_52e-5),
            p(0.004_470_52, 0.0, 0.496_521),
            p(71.871_95, 0.0, -2.344_055_2),
            p(-3.655_090_4e-5, 0.0, 0.0),
        ])
        .expect("a valid hull");
        let least_width = 0.429_985;
        let depth = |pose: &Isometry<T>| {
            contact(&Isometry::identity(), &hull, pose, &hull, T::zero())
                .expect("in range")
                .expect("overlapping")
                .dist
                .as_f64()
        };
        let at_one_pose = depth(&Isometry::identity());
        assert!(
            (at_one_pose + least_width).abs() < 1e-4,
            "depth {at_one_pose}"
        );
        // Kept across frames: B moves by 3.6e-5 a frame and turns by 3.6e-6 rad.
        let step = Vector::new(T::zero(), T::lit(-3.608_093e-5), T::lit(-3.608_093e-5));
        let turn = Rotation::from_scaled_axis(step * T::lit(0.1));
        let mut narrow = NarrowPhase::new(NarrowPhaseConfig::default()).expect("valid");
        let (mut pose, mut certified) = (Isometry::identity(), 0);
        for frame in 0..4 {
            let kept = narrow
                .update(&a_and_b(&hull, &hull, pose), &[(0, 1)])
                .expect("valid")[0]
                .points
                .iter()
                .map(|c| c.dist.as_f64())
                .fold(f64::INFINITY, f64::min);
            certified += narrow.stats().sat_certified;
            let full = depth(&pose);
            assert!(
                (kept - full).abs() < 1e-4,
                "frame {frame}: kept {kept}, full {full}"
            );
            pose = Isometry::from_parts(
                (pose.translation.vector + step).into(),
                turn * pose.rotation,
            );
        }
        assert!(certified > 0, "the certificate's path was not taken");
    }
    check::<f32>();
    check::<f64>();
}

/// Regression (fuzz target `adapter`, against a full recomputation): two point-like triangles
/// (all three vertices at the origin) that coincide, then part along z. A pair that overlapped
/// at its last query starts with the separating-axis test, whose axes (the triangles' face
/// normals; their edges have no length) all see the points level: "touching" 1.6e-6 apart, for
/// a prediction of 7.8e-7. Two lower-dimensional polytopes now start with GJK every frame.
#[test]
fn lower_dimensional_polytopes_that_touched_can_part() {
    use nphase_pipeline::{NarrowPhase, NarrowPhaseConfig};
    use nphase_shapes::Triangle;
    fn check<T: Real>(a: Shape<T>, b: Shape<T>, step: Vector<T>) {
        let config = NarrowPhaseConfig {
            prediction: T::lit(1e-6),
            ..NarrowPhaseConfig::default()
        };
        let mut narrow = NarrowPhase::new(config).expect("valid");
        let mut pose = Isometry::<T>::identity();
        for frame in 0..4 {
            let points = narrow
                .update(&a_and_b(&a, &b, pose), &[(0, 1)])
                .expect("valid")[0]
                .points
                .len();
            let apart = distance(&Isometry::identity(), &a, &pose, &b)
                .expect("in range")
                .as_f64();
            assert_eq!(
                points > 0,
                apart <= 1e-6,
                "frame {frame}: {points} points, {apart} apart"
            );
            pose.translation.vector += step;
        }
    }
    fn both<T: Real>() {
        let o = Point::origin();
        let point = || Shape::Triangle(Triangle::new(o, o, o).expect("a point is a triangle"));
        let z = Vector::new(T::zero(), T::zero(), T::lit(1e-3));
        check::<T>(point(), point(), z);
    }
    both::<f32>();
    both::<f64>();
}

/// Regression (fuzz target `adapter`): a box of half-extents (3.2e-4, 0, 0) — a segment —
/// 1 038 deep inside a cone of half-height 9 934 and radius 3 216, f32. EPA's closest face had
/// a vertex at the cone's apex less one end of the segment; its support point was the apex less
/// the other end, 6.4e-4 away (2 ulps of the coordinates), and above the face's plane by 0.04
/// of plane rounding. Fanned to it, the polytope turned inside out: "converged" 1 448 *apart*,
/// and the fallback's sampled axes made it 1 780 deep. EPA now stops on its bracket there.
#[test]
fn f32_segment_deep_in_a_large_cone_keeps_epas_bracket() {
    use nphase_math::nalgebra::Translation3;
    use nphase_pipeline::ContactQuality;
    fn check<T: Real>() -> nphase_pipeline::query::Contact<T> {
        let f = |bits: u32| T::lit(f64::from(f32::from_bits(bits)));
        let a = Shape::Cuboid(
            nphase_shapes::Cuboid::new(Vector::new(
                T::lit(0.000_321_563_720_703_125),
                T::zero(),
                T::zero(),
            ))
            .expect("in range"),
        );
        let b = Shape::Cone(
            Cone::new(T::lit(9_934.387_207_031_25), T::lit(3_215.637_207_031_25))
                .expect("in range"),
        );
        let q = Quaternion::new(
            f(0xbcee_da3d),
            f(0xbd89_dd90),
            f(0xbeed_3c86),
            f(0xbf62_14f7),
        );
        let pose = Isometry::from_parts(
            Translation3::new(f(0x440b_53f9), T::zero(), T::zero()),
            Rotation::new_normalize(q),
        );
        contact(&Isometry::identity(), &a, &pose, &b, T::zero())
            .expect("in range")
            .expect("the segment is inside the cone")
    }
    // f64 converges (its bracket 1.1e-7 wide) to 1 038.014 92, the segment's depth below the
    // cone's slant.
    let exact = check::<f64>();
    assert_eq!(exact.quality, ContactQuality::Converged, "f64 {exact:?}");
    assert!(
        (exact.dist.as_f64() + 1_038.014_92).abs() < 1e-5,
        "f64 {exact:?}"
    );
    let c = check::<f32>();
    assert_ne!(c.quality, ContactQuality::Fallback, "{c:?}");
    let truth = exact.dist.as_f64();
    let (low, high) = (c.lower_bound.as_f64(), c.upper_bound.as_f64());
    let slack = 1e-6 * 1_038.0;
    assert!(
        low - slack <= truth && truth <= high + slack && high - low < 0.1,
        "f32 {c:?}, truth {truth}"
    );
    assert!((c.dist.as_f64() - truth).abs() < 0.1, "f32 {c:?}");
}

/// Regression (fuzz target `adapter`, against a full recomputation): a needle (a cone of
/// half-height 9.9e-5 and radius 0) at the axis of a thin cone (half-height 9.94, radius 0.547)
/// turned half a turn, 0.27 below its slant, moved 3.6e-5 on the next frame. The kept pair's
/// GJK started from last frame's normal, stalled on a sliver simplex whose `|v|` carried 4e-6
/// of rounding (its plane 5e-7 from the origin), and the pair fell back to "touching" (0) where
/// a fresh one found −0.273. A stall within the touch distance by its refined distance is now
/// an overlap (nphase-gjk's regression tests).
#[test]
fn needle_deep_in_a_thin_cone_stays_deep_on_the_next_frame() {
    use nphase_math::nalgebra::{Translation3, UnitQuaternion};
    use nphase_pipeline::{ContactManifold, PairInput, PairState, PairWorkspace, update_manifold};
    fn check<T: Real>() {
        let lit = |x: f32| T::lit(f64::from(x));
        let needle = Shape::Cone(Cone::new(lit(9.898071e-5), T::zero()).expect("valid"));
        let cone = Shape::Cone(Cone::new(lit(9.938_66), lit(0.546875)).expect("valid"));
        let pose = |q: [f32; 4], t: [f32; 3]| {
            let q = Quaternion::new(lit(q[3]), lit(q[0]), lit(q[1]), lit(q[2]));
            Isometry::from_parts(
                Translation3::new(lit(t[0]), lit(t[1]), lit(t[2])),
                UnitQuaternion::new_normalize(q),
            )
        };
        let frames = [
            pose(
                [-0.5773406, -0.5773406, -0.5773406, -0.005773406],
                [4.619446e-5, 3.051758e-8, 0.0],
            ),
            pose(
                [-0.5773417, -0.57734066, -0.57733965, -0.005772364],
                [4.619446e-5, 3.6148074e-5, 0.0],
            ),
        ];
        let (mut state, mut manifold) = (PairState::new(), ContactManifold::default());
        let mut workspace = PairWorkspace::new();
        for (frame, pos12) in frames.into_iter().enumerate() {
            let input = PairInput {
                shape1: &needle,
                shape2: &cone,
                pos12,
                prediction: T::zero(),
            };
            update_manifold(&input, &mut state, &mut manifold, &mut workspace);
            let (mut fresh, mut fresh_state) = (ContactManifold::default(), PairState::new());
            update_manifold(&input, &mut fresh_state, &mut fresh, &mut workspace);
            let deepest = |m: &ContactManifold<T>| {
                m.points
                    .iter()
                    .map(|p| p.dist.as_f64())
                    .fold(f64::INFINITY, f64::min)
            };
            let (kept, full) = (deepest(&manifold), deepest(&fresh));
            // The needle's depth below the slant: 0.27330, within f32's small-on-large
            // accuracy of the cone's size.
            assert!(
                (kept + 0.2733).abs() < 2e-4 && (kept - full).abs() < 2e-4,
                "frame {frame}: kept pair {kept}, fresh {full}"
            );
        }
    }
    check::<f32>();
    check::<f64>();
}

/// Regression (fuzz target `contact`, the day the ball–cone closed form came): a ball of radius
/// 78 430 at 226 746 along z from a flat cone (half-height −0, radius 7.8e-5, a disc) was
/// reported −78 430 deep by `distance` while `intersection_test` (GJK) had them apart. The
/// point lay in the disc's plane beyond its rim, where the flat cone's slant line is the
/// base's and bounded nothing; a point beyond the rim along the slant now goes to the rim
/// whatever the cone's height.
#[test]
fn ball_beside_a_flat_cone_is_apart() {
    fn check<T: Real>() {
        let ball = Shape::Ball(Ball::new(T::lit(78_430.17578125)).expect("valid"));
        let disc = Shape::Cone(Cone::new(T::lit(-0.0), T::lit(7.8125e-5)).expect("valid"));
        let at = Isometry::translation(T::zero(), T::zero(), T::lit(226_745.60546875));
        let d = distance(&at, &ball, &Isometry::identity(), &disc).expect("finite poses");
        let expected = 226_745.60546875 - 78_430.17578125 - 7.8125e-5;
        assert!((d.as_f64() - expected).abs() < 0.05, "{d:?}");
        let touching = intersection_test(&at, &ball, &Isometry::identity(), &disc);
        assert!(!touching.expect("finite poses"));
    }
    check::<f32>();
    check::<f64>();
}

/// Regression (fuzz target `contact`, after the fix above): a ball of radius 509 796 at
/// 593 750 along y from a needle (a cone of half-height 2.3e-7 and radius −0) was reported
/// −509 796 deep: on a needle's axis the slant's distance is zero, and the point beyond the
/// apex was measured to the slant. The apex is now chosen by the point's place along the
/// slant alone. (In f64: f32 refuses a half-height below its smallest length, 1e-6.)
#[test]
fn ball_beyond_a_needles_apex_is_apart() {
    let ball = Shape::Ball(Ball::<f64>::new(509_796.142578125).expect("valid"));
    let needle = Shape::Cone(Cone::new(2.3193359375e-7, -0.0).expect("valid"));
    let at = Isometry::translation(0.0, 593_750.0, 0.0);
    let d: f64 = distance(&at, &ball, &Isometry::identity(), &needle).expect("finite poses");
    assert!((d - (593_750.0 - 509_796.142578125)).abs() < 1e-6, "{d:?}");
    let touching = intersection_test(&at, &ball, &Isometry::identity(), &needle);
    assert!(!touching.expect("finite poses"));
    assert!(Cone::<f32>::new(2.3e-7, 0.0).is_err());
}

/// Regression (fuzz target `contact`, older than the ball–cone closed form): f32, a small cone
/// (half-height 2.9e-7, radius 6.0e-5) against a box of half-extents (227, 6.0e-5, 6.0e-5),
/// both within 1e-4 of the origin. With the cone as A, GJK stalled (the box's vertices, turned
/// into the cone's frame, round by a quarter of its thickness), EPA could not settle it, and the
/// estimate reported the cores 0.63 apart while `intersection_test` had them touching. Such a
/// pair is now queried again from the larger shape's frame, where it converges.
#[test]
fn small_cone_on_a_long_thin_box_in_f32_is_not_reported_apart() {
    use nphase_math::nalgebra::Translation3;
    use nphase_shapes::Cuboid;
    let pose = |t: [f32; 3], q: [f32; 4]| {
        let q = Quaternion::new(q[3], q[0], q[1], q[2]);
        Isometry::from_parts(
            Translation3::new(t[0], t[1], t[2]),
            Rotation::new_normalize(q / q.coords.amax()),
        )
    };
    let cone = Shape::Cone(Cone::new(2.868_652_3e-7_f32, 6.039_123_5e-5).expect("valid"));
    let half = Vector::new(227.447_51_f32, 6.024_475e-5, 6.015_625e-5);
    let slab = Shape::Cuboid(Cuboid::new(half).expect("valid"));
    let pa = pose(
        [-5.462_646_5e-5, -3.051_757_8e-7, 6.035_156_3e-5],
        [6.039_123_5e-5, 6.020_508e-5, 6.039_123_5e-5, 2.349_853_5e-7],
    );
    let pb = Isometry::identity();
    let touching = intersection_test(&pa, &cone, &pb, &slab).expect("finite poses");
    for (d, order) in [
        (distance(&pa, &cone, &pb, &slab), "cone first"),
        (distance(&pb, &slab, &pa, &cone), "box first"),
    ] {
        let d = d.expect("finite poses");
        // The f64 answer is −4.49e-5; f32's promise at this scale is 5e-7 × 227 ≈ 1.1e-4.
        assert!(
            touching && (-1.7e-4..=0.0).contains(&d),
            "{order}: {d}, {touching}"
        );
    }
    let c = contact(&pa, &cone, &pb, &slab, 1.0)
        .expect("finite")
        .expect("touching");
    assert_eq!(
        c.quality,
        nphase_pipeline::ContactQuality::Converged,
        "{c:?}"
    );
}

/// Regression (fuzz target `pipeline`, stop 56): a capsule of 1.2 cm at a corner of a hull
/// 6.4 km across, in f32, the capsule turning by 4e-6 rad a frame and the hull moving by 4e-5:
/// on the second frame GJK warm-started from the pair's cached simplex found it already
/// enclosing the origin, and EPA from that tetrahedron stopped on its iteration cap with an
/// estimate 71 m deep (the cold query: 1.06 cm). A warm start whose answer did not converge
/// now gives way to a cold query, as one ending on GJK's cap did: every frame's deepest point
/// is the one-shot query's.
#[test]
fn capsule_at_a_huge_hulls_corner_warm_started_in_f32_is_the_cold_answer() {
    use nphase_math::nalgebra::UnitQuaternion;
    use nphase_pipeline::{ContactManifold, PairInput, PairState, PairWorkspace, update_manifold};
    use nphase_shapes::Capsule;
    let p = |x: f32, y: f32, z: f32| Point::new(x, y, z);
    let (big, far) = (6431.5796, -2980.6519);
    let hull = Shape::convex(&[
        p(0.0, 0.0, 0.0),
        p(0.0, 0.0, 3034.9731),
        p(-big, -big, 0.0),
        p(0.0, -0.023532104, 0.0),
        p(far, -big, -64.315796),
        p(-big, -big, -big),
        p(48.184204, 0.0, 0.0),
        p(-3.0517577e-7, -23.461914, -2.3532104),
        p(99.905396, 0.0, 0.0),
        p(0.0, 0.0, 38.757324),
    ])
    .expect("a hull");
    let size = 0.006195984;
    let capsule = Shape::Capsule(Capsule::new(size, size).expect("a capsule"));
    let mut hull_pose: Isometry<f32> = Isometry::identity();
    let mut capsule_pose = Isometry::translation(size, -6.197815e-5, 0.0);
    let shift = Vector::new(0.0, 0.0, -3.9367675e-5);
    let turn = UnitQuaternion::from_scaled_axis(shift * 0.1);
    let mut state = PairState::new();
    let (mut manifold, mut workspace) = (ContactManifold::default(), PairWorkspace::new());
    for frame in 0..3 {
        let pos12 = capsule_pose.inv_mul(&hull_pose);
        let input = PairInput {
            shape1: &capsule,
            shape2: &hull,
            pos12,
            prediction: 0.0,
        };
        update_manifold(&input, &mut state, &mut manifold, &mut workspace);
        let cold = contact(&Isometry::identity(), &capsule, &pos12, &hull, 0.0)
            .expect("valid input")
            .expect("overlapping");
        let deepest = manifold.deepest().expect("a contact").dist;
        assert!(
            (deepest - cold.dist).abs() <= 1e-5,
            "frame {frame}: kept {deepest}, one-shot {}",
            cold.dist
        );
        hull_pose = Isometry::from_parts(shift.into(), UnitQuaternion::identity()) * hull_pose;
        capsule_pose.rotation = turn * capsule_pose.rotation;
    }
}

/// Regression (fuzz target `adapter`, stop 56): a cylinder 0.14 mm across deep inside a stick
/// 7 mm wide and 17 cm long, in f32. EPA's closest face converged on the stick's z face (depth
/// 3.47e-3), but it was a sliver along the stick's edge and the origin's projection fell far
/// off it; the witness step took the sliver's closest point, on the edge, as a slightly
/// reflex edge between nearly coplanar faces and its direction, the diagonal, as the normal —
/// certified only as a point of the Minkowski difference's boundary, not as a minimiser: the
/// answer −4.91e-3 along (0.707, 0, 0.707), `Converged` with a bracket 2.9e-3 wide (f64:
/// −3.47e-3 along x). The edge's direction now stands in only where its support value is
/// within the walk's tolerance of the face's distance, the certified lower bound: a depth
/// along it is then certified as well.
#[test]
fn tiny_cylinder_deep_in_a_thin_stick_takes_a_face_normal_not_the_sticks_edge() {
    use nphase_math::nalgebra::{Translation3, UnitQuaternion};
    use nphase_shapes::{Cuboid, Cylinder, SupportMap};
    fn case<T: Real>() {
        let s = 6.901_855_468_75e-5;
        let half = [
            0.003_607_788_085_937_5,
            0.085_937_5,
            0.003_607_788_085_937_5,
        ];
        let stick = Shape::Cuboid(Cuboid::new(Vector::from(half.map(T::lit))).expect("valid"));
        let cylinder = Shape::Cylinder(Cylinder::new(T::lit(s), T::lit(s)).expect("valid"));
        let one = T::lit(1.0);
        let q0 = Rotation::new_normalize(Quaternion::new(one, one, one, one));
        let turn = UnitQuaternion::from_scaled_axis(Vector::repeat(T::lit(0.1 * s)));
        let at = T::lit(3.0 * s);
        let pose = Isometry::from_parts(Translation3::new(at, at, at), turn * turn * q0);
        let origin = Isometry::identity();
        let c = contact(&origin, &stick, &pose, &cylinder, T::lit(s))
            .expect("valid input")
            .expect("overlapping");
        // The cylinder's centre is 3s off the stick's axis along x and z; `q0` turns its axis
        // onto z, so it reaches s along x (its radius) and along z (its half-height): the
        // depth is the stick's half-width less the offset plus that reach, along x or z.
        let expected = -(half[0] - 3.0 * s + s);
        let n = c.normal1.into_inner();
        let h = |shape: &Shape<T>, p: &Isometry<T>, d: &Vector<T>| {
            shape.support_point(p, d).coords.dot(d).as_f64()
        };
        let gap = h(&stick, &origin, &n) + h(&cylinder, &pose, &-n);
        let tol = 1e-4 * 0.086;
        assert!(
            (c.dist.as_f64() - expected).abs() <= tol && (gap + expected).abs() <= tol,
            "{c:?}: expected {expected}, support gap along the normal {gap}"
        );
        assert!(
            c.lower_bound.as_f64() <= expected + tol && c.upper_bound.as_f64() >= expected - tol,
            "{c:?}"
        );
        assert_eq!(c.quality, nphase_pipeline::ContactQuality::Converged);
    }
    case::<f32>();
    case::<f64>();
}

/// Colliders 0 (`a`, at the origin) and 1 (`b`, at `pose`), for a narrow phase's one pair.
fn a_and_b<T: Real>(
    a: &Shape<T>,
    b: &Shape<T>,
    pose: Isometry<T>,
) -> [nphase_pipeline::Collider<T>; 2] {
    [
        nphase_pipeline::Collider {
            id: 0,
            shape: a.clone(),
            pose: Isometry::identity(),
        },
        nphase_pipeline::Collider {
            id: 1,
            shape: b.clone(),
            pose,
        },
    ]
}
