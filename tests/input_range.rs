//! The input range of docs/accuracy.md ("Input range"), at its limits and beyond, in f64 and
//! f32: inside it answers meet the tolerances, outside it the input is refused with a typed
//! error naming the culprit — never a wrong sign, a false contact or a null distance.
//!
//! What failed before the range was enforced: shapes 1e155 apart (f64; 1e20 in f32) were
//! reported touching, because the squared offset overflowed; a tetrahedron inside a cube of
//! half-extent 1e90 (f64; 3e9 in f32) was reported separated; shapes of size 1e308 gave null
//! distances. The algorithms' deepest products are fourth powers of lengths (the squared norm of
//! a cross product), which overflow past about `1e77` (f64) and `1e9.5` (f32) and underflow
//! below their inverses (in f32 `ε·L⁴` already below `3e-8`). Measured on the pairs of `pairs`
//! below, scaled: answers break at `1e±77` (f64), `3e-8` and `2e9` (f32), and meet the
//! tolerances in between; `Real::RANGE` keeps a margin to those breaks and every entry point
//! refuses what lies outside.

use nphase::math::nalgebra::{Translation3, UnitQuaternion};
use nphase::math::{Isometry, Point, Real, Vector};
use nphase::pipeline::query::{QueryError, contact, distance, intersection_test};
use nphase::pipeline::{Collider, NarrowPhase, NarrowPhaseConfig, PipelineError};
use nphase::shapes::{
    Ball, Capsule, Cone, ConvexPolyhedron, Cuboid, Cylinder, Segment, Shape, ShapeError,
    SupportMap, Triangle,
};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;

fn max<T: Real>() -> f64 {
    T::RANGE.max_length.as_f64()
}

fn min<T: Real>() -> f64 {
    T::RANGE.min_length.as_f64()
}

fn is_f32<T: Real>() -> bool {
    size_of::<T>() == 4
}

/// docs/accuracy.md's relative tolerance (the curved one in f64, since cylinders and cones are
/// among the pairs).
fn relative_tolerance<T: Real>() -> f64 {
    if is_f32::<T>() { 1e-4 } else { 1e-7 }
}

/// A pose from f64 parts, its translation scaled by `s`.
fn pose<T: Real>(t: [f64; 3], euler: [f64; 3], s: f64) -> Isometry<T> {
    let [x, y, z] = t.map(|v| T::lit(v * s));
    let [r, p, w] = euler.map(T::lit);
    Isometry::from_parts(
        Translation3::new(x, y, z),
        UnitQuaternion::from_euler_angles(r, p, w),
    )
}

/// One of each shape type (a rounded box too), sizes 0.2–1 times `s`, drawn from `rng`.
fn shapes<T: Real>(s: f64, rng: &mut Pcg64) -> Vec<Shape<T>> {
    let mut r = |lo: f64, hi: f64| T::lit(s * rng.random_range(lo..hi));
    let point = |p: [f64; 3]| Point::from(p.map(|x| T::lit(x * s)));
    let hull: Vec<Point<T>> = [
        [1.0, 0.1, 0.2],
        [-0.3, 0.9, 0.1],
        [-0.4, -0.5, 0.7],
        [0.1, -0.2, -0.9],
        [0.5, 0.5, 0.5],
    ]
    .map(point)
    .to_vec();
    let cuboid = Shape::Cuboid(
        Cuboid::new(Vector::new(r(0.2, 1.0), r(0.2, 1.0), r(0.2, 1.0))).expect("in range"),
    );
    vec![
        cuboid.clone(),
        Shape::Ball(Ball::new(r(0.2, 1.0)).expect("in range")),
        Shape::Capsule(Capsule::new(r(0.2, 1.0), r(0.2, 0.5)).expect("in range")),
        Shape::Cylinder(Cylinder::new(r(0.2, 1.0), r(0.2, 1.0)).expect("in range")),
        Shape::Cone(Cone::new(r(0.2, 1.0), r(0.2, 1.0)).expect("in range")),
        Shape::convex(&hull).expect("in range"),
        Shape::Triangle(
            Triangle::new(
                point([0.2, 0.0, 0.0]),
                point([1.0, 0.1, 0.0]),
                point([0.2, 0.9, 0.3]),
            )
            .expect("in range"),
        ),
        Shape::Segment(
            Segment::new(point([-0.5, 0.2, 0.0]), point([0.5, -0.3, 0.4])).expect("in range"),
        ),
        Shape::round(cuboid, r(0.2, 0.3)).expect("in range"),
    ]
}

/// Every ordered pair of `shapes`, posed by `rng` (offsets up to 1.5 in each axis: separated,
/// touching and deep), at scale `s`: `(A, B, B's pose)`.
fn pairs<T: Real>(seed: u64, s: f64) -> Vec<(Shape<T>, Shape<T>, Isometry<T>)> {
    let list = shapes::<T>(s, &mut Pcg64::seed_from_u64(seed));
    let mut rng = Pcg64::seed_from_u64(seed + 1000);
    let mut out = Vec::new();
    for a in &list {
        for b in &list {
            let mut coord = |h: f64| rng.random_range(-h..h);
            let t = [coord(1.5), coord(1.5), coord(1.5)];
            let e = [coord(3.0), coord(3.0), coord(3.0)];
            out.push((a.clone(), b.clone(), pose(t, e, s)));
        }
    }
    out
}

/// `h_A(n) + h_B(−n)` in f64 for A at the origin and B at `pos12`: minus the separation along
/// `n`.
fn support_gap(a: &Shape<f64>, b: &Shape<f64>, pos12: &Isometry<f64>, n: &Vector<f64>) -> f64 {
    let id = Isometry::identity();
    a.support_point(&id, n).coords.dot(n) - b.support_point(pos12, &-n).coords.dot(n)
}

/// Scaling every length by `s` scales every answer by `s`: the pairs at scale `s` in precision
/// `T` against the same pairs at scale 1 in f64 (the conformance suite holds those to the
/// oracle), within docs/accuracy.md's tolerance times `s`. The normal must be a minimiser of the
/// unscaled pair (its support gap equals the signed distance).
fn scaled_pairs_agree<T: Real>(s: f64) {
    let mut checked = 0;
    for seed in 0..6 {
        let unit = pairs::<f64>(seed, 1.0);
        let scaled = pairs::<T>(seed, s);
        for ((a1, b1, p1), (a, b, p)) in unit.iter().zip(&scaled) {
            let reference = distance(&Isometry::identity(), a1, p1, b1).expect("in range");
            let scale = a1
                .local_aabb()
                .half_diagonal()
                .max(b1.local_aabb().half_diagonal());
            let tol = relative_tolerance::<T>() * scale;
            let what = format!(
                "{:?}–{:?} at scale {s:e} ({}), seed {seed}",
                a.kind(),
                b.kind(),
                if is_f32::<T>() { "f32" } else { "f64" }
            );
            // Offsets are at most 1.5·√3·s < 4·s: every pair is within the prediction.
            let c = contact(&Isometry::identity(), a, p, b, T::lit(4.0 * s))
                .expect("in range")
                .unwrap_or_else(|| panic!("{what}: no contact within 4 sizes"));
            let dist = c.dist.as_f64() / s;
            assert!(
                (dist - reference).abs() <= tol,
                "{what}: dist {dist} vs {reference} (tol {tol:e})"
            );
            let n = c.normal1.into_inner().map(|x| x.as_f64());
            let gap = support_gap(a1, b1, p1, &n);
            assert!(
                (gap + reference).abs() <= tol,
                "{what}: normal {n:?} is not a minimiser: support gap {gap} vs {}",
                -reference
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 6 * 81);
}

#[test]
fn answers_scale_with_the_input_up_to_the_limits_of_the_range() {
    // The smallest shapes have sizes 0.2 · s: at 5 · min they are at the smallest size. At
    // max/4 the prediction (4 · s) is the largest length.
    scaled_pairs_agree::<f64>(5.0 * min::<f64>());
    scaled_pairs_agree::<f64>(max::<f64>() / 4.0);
    scaled_pairs_agree::<f32>(5.0 * min::<f32>());
    scaled_pairs_agree::<f32>(max::<f32>() / 4.0);
}

/// Shapes whose sizes and offsets are the limits themselves: two balls of radius max/4 whose
/// centres are max apart (distance max/2), a box of half-extent max touching a ball at
/// max, and two balls of radius min 3·min apart (distance min).
fn exact_limits<T: Real>() {
    let (hi, lo) = (max::<T>(), min::<T>());
    let ball = |r: f64| Shape::Ball(Ball::<T>::new(T::lit(r)).expect("in range"));
    let at = |x: f64| Isometry::translation(T::lit(x), T::zero(), T::zero());
    let id = Isometry::identity();
    let d = distance(&id, &ball(hi / 4.0), &at(hi), &ball(hi / 4.0)).expect("in range");
    assert!(
        (d.as_f64() - hi / 2.0).abs() <= relative_tolerance::<T>() * hi / 4.0,
        "{d}"
    );
    let cube = Shape::Cuboid(Cuboid::new(Vector::repeat(T::lit(hi))).expect("in range"));
    let d = distance(&id, &cube, &at(hi), &ball(hi / 4.0)).expect("in range");
    assert!(
        (d.as_f64() + hi / 4.0).abs() <= relative_tolerance::<T>() * hi,
        "{d}"
    );
    let d = distance(&id, &ball(lo), &at(3.0 * lo), &ball(lo)).expect("in range");
    assert!(
        (d.as_f64() - lo).abs() <= relative_tolerance::<T>() * lo,
        "{d}"
    );
}

#[test]
fn shapes_and_offsets_at_the_limits_are_answered() {
    exact_limits::<f64>();
    exact_limits::<f32>();
}

/// The distance of a point from a shape at the origin.
type ClosedForm = fn(&Vector<f64>) -> f64;

/// Far apart: unit shapes (a box, a cylinder, a capsule) and a ball centred at offsets up to
/// max/2 along a skew direction, against their closed-form distances from the offset as the
/// precision holds it. The error is docs/accuracy.md's tolerance plus the rounding of the
/// offset, `2ε · |offset|` (the offset itself is no better known); the sign is always right.
fn far_apart<T: Real>() {
    let ball = Shape::Ball(Ball::<T>::new(T::lit(0.5)).expect("in range"));
    let targets: [(Shape<T>, ClosedForm); 3] = [
        (
            Shape::Cuboid(
                Cuboid::new(Vector::new(T::lit(0.5), T::lit(0.7), T::lit(0.3))).expect("in range"),
            ),
            |c| {
                let h = Vector::new(0.5, 0.7, 0.3);
                (c - c.zip_map(&h, |x, e| x.clamp(-e, e))).norm()
            },
        ),
        (
            Shape::Cylinder(Cylinder::new(T::lit(0.7), T::lit(0.5)).expect("in range")),
            |c| {
                let radial = ((c.x * c.x + c.z * c.z).sqrt() - 0.5).max(0.0);
                let axial = (c.y.abs() - 0.7).max(0.0);
                (radial * radial + axial * axial).sqrt()
            },
        ),
        (
            Shape::Capsule(Capsule::new(T::lit(0.7), T::lit(0.2)).expect("in range")),
            |c| Vector::new(c.x, (c.y.abs() - 0.7).max(0.0), c.z).norm() - 0.2,
        ),
    ];
    let direction = Vector::new(0.6, 0.48, 0.64).normalize();
    let eps = T::TOLERANCES.epsilon.as_f64();
    let largest = max::<T>() / 2.0;
    let mut offset = 1.0;
    while offset <= largest {
        for (shape, closed_form) in &targets {
            let c = direction * offset;
            let pos = Isometry::translation(T::lit(c.x), T::lit(c.y), T::lit(c.z));
            let held = pos.translation.vector.map(|x| x.as_f64());
            let exact = closed_form(&held) - 0.5;
            let id = Isometry::identity();
            let d = distance(&id, shape, &pos, &ball)
                .expect("in range")
                .as_f64();
            let tol = relative_tolerance::<T>() * 1.0 + 2.0 * eps * held.norm();
            let what = format!("{:?} at {offset:e}", shape.kind());
            assert!((d - exact).abs() <= tol, "{what}: {d} vs {exact}");
            if exact > tol {
                assert!(
                    !intersection_test(&id, shape, &pos, &ball).expect("in range"),
                    "{what}: reported intersecting"
                );
                assert!(
                    contact(&id, shape, &pos, &ball, T::zero())
                        .expect("in range")
                        .is_none(),
                    "{what}: a contact"
                );
            }
        }
        offset *= 10.0;
    }
}

#[test]
fn far_apart_pairs_are_right_up_to_the_largest_offset() {
    far_apart::<f64>();
    far_apart::<f32>();
}

/// A small tetrahedron inside a cube of half-extent max/2 (the case, at the limit):
/// penetrating, with the exact depth — the least push along a face normal that takes every
/// vertex out, `min over faces of (h − min_i σ·v_i)` — within the small-on-large tolerance.
fn tetrahedron_in_a_large_cube<T: Real>() {
    let h = max::<T>() / 2.0;
    let cube = Shape::Cuboid(Cuboid::new(Vector::repeat(T::lit(h))).expect("in range"));
    let corners = [
        [1.0, 0.1, 0.2],
        [-0.3, 0.9, 0.1],
        [-0.4, -0.5, 0.7],
        [0.1, -0.2, -0.9],
    ];
    let tetra = Shape::convex(&corners.map(|p| Point::from(p.map(T::lit)))).expect("in range");
    let centre = [0.3 * h, -0.2 * h, 0.1 * h];
    let pos = pose::<T>(centre, [0.4, -0.3, 1.1], 1.0);
    let world: Vec<Vector<f64>> = corners
        .iter()
        .map(|p| {
            let q = pos * Point::from(p.map(T::lit));
            q.coords.map(|x| x.as_f64())
        })
        .collect();
    let mut depth = f64::INFINITY;
    for k in 0..3 {
        for sign in [1.0, -1.0] {
            let lowest = world
                .iter()
                .map(|v| sign * v[k])
                .fold(f64::INFINITY, f64::min);
            depth = depth.min(h - lowest);
        }
    }
    let (small, scale) = (
        tetra.local_aabb().half_diagonal().as_f64(),
        cube.local_aabb().half_diagonal().as_f64(),
    );
    let tol = if is_f32::<T>() {
        1e-4 * small + 5e-7 * scale
    } else {
        1e-9 * small + 1e-12 * scale
    };
    let id = Isometry::identity();
    let c = contact(&id, &cube, &pos, &tetra, T::zero())
        .expect("in range")
        .expect("the tetrahedron is inside the cube");
    assert!(
        (c.dist.as_f64() + depth).abs() <= tol,
        "dist {} vs {}",
        c.dist,
        -depth
    );
    assert!(intersection_test(&id, &cube, &pos, &tetra).expect("in range"));
}

#[test]
fn a_small_shape_deep_in_a_shape_at_the_largest_size_is_penetrating() {
    tetrahedron_in_a_large_cube::<f64>();
    tetrahedron_in_a_large_cube::<f32>();
}

/// Past either limit every entry point refuses, naming the culprit: each constructor (a
/// parameter or coordinate beyond the largest length, a size below the smallest), the queries
/// (a translation beyond), the pipeline (a collider's translation). The cases: shapes 1e155 (f64) or 1e20 (f32) apart, a cube of
/// half-extent 1e90 (f64) or 3e9 (f32), sizes of 1e308.
fn refused_beyond<T: Real>() {
    let (hi, lo) = (max::<T>(), min::<T>());
    let over = T::lit(2.0 * hi);
    let under = T::lit(lo / 2.0);
    let one = T::one();
    let too_large = |e: Result<_, ShapeError>, shape: &str, field: &str| match e {
        Err(ShapeError::TooLarge {
            shape: s, field: f, ..
        }) => assert!(s == shape && f == field, "{s} {f}"),
        other => panic!("{shape}.{field}: {other:?}"),
    };
    too_large(Ball::new(over).map(|_| ()), "ball", "radius");
    too_large(
        Cuboid::new(Vector::new(one, over, one)).map(|_| ()),
        "cuboid",
        "half_extents.y",
    );
    too_large(Capsule::new(one, over).map(|_| ()), "capsule", "radius");
    too_large(
        Cylinder::new(over, one).map(|_| ()),
        "cylinder",
        "half_height",
    );
    too_large(Cone::new(over, one).map(|_| ()), "cone", "half_height");
    let p = Point::new(one, one, one);
    too_large(
        Segment::new(p, Point::new(one, one, -over)).map(|_| ()),
        "segment",
        "b.z",
    );
    too_large(
        Triangle::new(p, Point::new(over, one, one), p).map(|_| ()),
        "triangle",
        "b.x",
    );
    too_large(
        ConvexPolyhedron::from_points(&[p, p, Point::new(one, over, one)]).map(|_| ()),
        "convex",
        "points[2].y",
    );
    let ball = Shape::Ball(Ball::new(one).expect("in range"));
    too_large(
        Shape::round(ball.clone(), over).map(|_| ()),
        "round",
        "border_radius",
    );

    let too_small = |e: Result<_, ShapeError>, shape: &str, field: &str| match e {
        Err(ShapeError::TooSmall {
            shape: s, field: f, ..
        }) => assert!(s == shape && f == field, "{s} {f}"),
        other => panic!("{shape}.{field}: {other:?}"),
    };
    too_small(Ball::new(under).map(|_| ()), "ball", "radius");
    too_small(
        Cuboid::new(Vector::new(under, T::zero(), under / T::lit(2.0))).map(|_| ()),
        "cuboid",
        "half_extents.x",
    );
    let tiny = Point::new(under, T::zero(), T::zero());
    too_small(
        Segment::new(Point::origin(), tiny).map(|_| ()),
        "segment",
        "b.x",
    );
    too_small(
        ConvexPolyhedron::from_points(&[Point::origin(), tiny]).map(|_| ()),
        "convex",
        "points[1].x",
    );
    too_small(
        Shape::round(Shape::Ball(Ball::new(T::zero()).expect("a point")), under).map(|_| ()),
        "round",
        "border_radius",
    );
    // Zero sizes stay valid (points, flat shapes); small parts of a shape of ordinary size too.
    Shape::round(ball.clone(), under).expect("a thin border on a unit ball");
    Ball::new(T::zero()).expect("a point");
    Cuboid::new(Vector::new(one, under, T::zero())).expect("a thin box of ordinary size");
    Segment::new(Point::new(one, under, T::zero()), Point::origin()).expect("a unit segment");

    // The cases.
    let apart = T::lit(if is_f32::<T>() { 1e20 } else { 1e155 });
    let far = Isometry::translation(apart, T::zero(), T::zero());
    let id = Isometry::identity();
    let refused = |r: Result<(), QueryError>, which: &str| match r {
        Err(QueryError::PoseOutOfRange { pose, .. }) => assert_eq!(pose, which),
        other => panic!("{which}: {other:?}"),
    };
    refused(
        contact(&id, &ball, &far, &ball, T::zero()).map(|_| ()),
        "pos2",
    );
    refused(distance(&far, &ball, &id, &ball).map(|_| ()), "pos1");
    refused(
        intersection_test(&id, &ball, &far, &ball).map(|_| ()),
        "pos2",
    );
    let huge = T::lit(if is_f32::<T>() { 3e9 } else { 1e90 });
    too_large(
        Cuboid::new(Vector::repeat(huge)).map(|_| ()),
        "cuboid",
        "half_extents.x",
    );
    if !is_f32::<T>() {
        too_large(Ball::new(T::lit(1e308)).map(|_| ()), "ball", "radius");
    }
    // A prediction is a threshold: beyond every distance it means "unbounded".
    let unbounded = T::lit(if is_f32::<T>() {
        f64::from(f32::MAX)
    } else {
        f64::MAX
    });
    let c = contact(&id, &ball, &far_in_range::<T>(), &ball, unbounded)
        .expect("in range")
        .expect("every pair is within an unbounded prediction");
    assert!(c.dist > T::zero());

    let colliders = [
        Collider {
            id: 3,
            shape: ball.clone(),
            pose: id,
        },
        Collider {
            id: 9,
            shape: ball,
            pose: Isometry::translation(T::zero(), -over, T::zero()),
        },
    ];
    let mut narrow = NarrowPhase::<T>::new(NarrowPhaseConfig {
        threads: 1,
        ..NarrowPhaseConfig::default()
    })
    .expect("valid");
    match narrow.update(&colliders, &[(0, 1)]) {
        Err(PipelineError::PoseOutOfRange { id: 9, .. }) => {}
        other => panic!("{:?}", other.map(|_| ())),
    }
}

/// A translation of half the largest length along x.
fn far_in_range<T: Real>() -> Isometry<T> {
    Isometry::translation(T::lit(max::<T>() / 2.0), T::zero(), T::zero())
}

#[test]
fn beyond_the_range_every_entry_point_refuses_by_name() {
    refused_beyond::<f64>();
    refused_beyond::<f32>();
}
