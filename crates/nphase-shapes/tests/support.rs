//! Support functions of the nphase-shapes primitives against analytic answers, in both
//! precisions:
//!
//! * per shape: axis directions, diagonals and the documented tie rules;
//! * zero, tiny (down to the smallest subnormal) and huge directions give finite points on the
//!   surface;
//! * support values at random directions equal the analytic `h(d) = max x·d`;
//! * `local_support_vertex` ids agree with `local_vertex`;
//! * `support_point` / `support_point_toward` at random poses are the pose applied to the local
//!   support of the rotated direction.

mod common;

use common::{KINDS, V, random_pose, random_unit, rng, strategies, to_f64, to_t, tolerance, unit};
use nphase_math::{Point, Real, UnitVector, Vector};
use nphase_shapes::{
    Ball, Capsule, Cone, ConvexPolyhedron, Core, Cuboid, Cylinder, Round, Segment, Shape,
    SupportMap, Triangle, VertexId,
};
use num_traits::Float;

/// Asserts `got` equals `want` within `tol` (max norm).
#[track_caller]
fn assert_point<T: Real>(got: Point<T>, want: V, tol: f64, what: &str) {
    let got = to_f64(&got.coords);
    assert!(
        (got - want).amax() <= tol,
        "{what} ({}): got {got:?}, want {want:?} (tolerance {tol:e})",
        common::precision::<T>(),
    );
}

fn v<T: Real>(x: f64, y: f64, z: f64) -> Vector<T> {
    Vector::new(T::lit(x), T::lit(y), T::lit(z))
}

/// The support point of `shape` along `(x, y, z)` given in f64.
fn support<T: Real, S: SupportMap<T>>(shape: &S, x: f64, y: f64, z: f64) -> Point<T> {
    shape.local_support_point(&v(x, y, z))
}

// Tolerance of the hand-written cases: the answers are a handful of roundings of numbers ≤ 4.
fn small_tol<T: Real>() -> f64 {
    tolerance::<T>(4.0)
}

#[test]
fn ball_support_is_radius_times_unit_direction() {
    fn check<T: Real>() {
        let ball = Ball::new(T::lit(2.0)).expect("valid");
        let tol = small_tol::<T>();
        for k in 0..3 {
            for sign in [1.0, -1.0] {
                let e = V::ith(k, sign);
                assert_point(support(&ball, e.x, e.y, e.z), e * 2.0, tol, "ball axis");
            }
        }
        let diag = V::new(1.0, -1.0, 1.0) / 3f64.sqrt() * 2.0;
        assert_point(support(&ball, 5.0, -5.0, 5.0), diag, tol, "ball diagonal");
        // Documented: a zero direction gives the top point (parry's ball gives NaN there).
        assert_point(
            support(&ball, 0.0, 0.0, 0.0),
            V::y() * 2.0,
            0.0,
            "ball zero",
        );
        let toward = ball.local_support_point_toward(&Vector::z_axis());
        assert_point(toward, V::z() * 2.0, tol, "ball toward");
    }
    check::<f32>();
    check::<f64>();
}

#[test]
fn cuboid_support_is_the_vertex_of_the_direction_octant_with_sign_bit_ties() {
    fn check<T: Real>() {
        let cuboid = Cuboid::new(v::<T>(1.0, 2.0, 3.0)).expect("valid");
        let h = V::new(1.0, 2.0, 3.0);
        // Every octant: the vertex with the direction's signs, id = the sign bits.
        for id in 0..8u32 {
            let sign = V::from_fn(|k, _| if id >> k & 1 == 0 { 1.0 } else { -1.0 });
            let d = sign.component_mul(&V::new(0.3, 0.5, 0.7));
            let sv = cuboid.local_support_vertex(&to_t(&d), VertexId::NONE);
            assert_eq!(sv.id, VertexId(id), "octant {sign:?}");
            assert_point(sv.point, h.component_mul(&sign), 0.0, "cuboid octant");
            assert_eq!(sv.point, cuboid.vertex(id));
        }
        // Ties: a +0.0 component picks the positive side, a −0.0 component the negative one
        // (the sign bit decides), so s(−d) = −s(d) holds for axis directions too.
        assert_point(support(&cuboid, 1.0, 0.0, 0.0), h, 0.0, "+x");
        assert_point(
            support(&cuboid, -1.0, 0.0, 0.0),
            V::new(-1.0, 2.0, 3.0),
            0.0,
            "−x with +0 components",
        );
        assert_point(support(&cuboid, -1.0, -0.0, -0.0), -h, 0.0, "−(+x)");
        assert_point(support(&cuboid, 0.0, 0.0, 0.0), h, 0.0, "zero");
        assert_point(support(&cuboid, -0.0, -0.0, -0.0), -h, 0.0, "−zero");
    }
    check::<f32>();
    check::<f64>();
}

#[test]
fn capsule_support_is_the_end_cap_point_with_top_on_ties() {
    fn check<T: Real>() {
        let capsule = Capsule::new(T::lit(1.5), T::lit(0.5)).expect("valid");
        let tol = small_tol::<T>();
        assert_point(support(&capsule, 0.0, 3.0, 0.0), V::y() * 2.0, tol, "+y");
        assert_point(support(&capsule, 0.0, -3.0, 0.0), -V::y() * 2.0, tol, "−y");
        // Perpendicular to the axis: a tie between the two ends; the top end is documented.
        assert_point(
            support(&capsule, 4.0, 0.0, 0.0),
            V::new(0.5, 1.5, 0.0),
            tol,
            "+x",
        );
        let d = V::new(1.0, -1.0, 1.0);
        assert_point(
            support(&capsule, d.x, d.y, d.z),
            V::new(0.0, -1.5, 0.0) + d / 3f64.sqrt() * 0.5,
            tol,
            "diagonal",
        );
        assert_point(support(&capsule, 0.0, 0.0, 0.0), V::y() * 2.0, tol, "zero");
    }
    check::<f32>();
    check::<f64>();
}

#[test]
fn cylinder_support_is_a_rim_point_or_a_cap_centre() {
    fn check<T: Real>() {
        let cylinder = Cylinder::new(T::lit(2.0), T::lit(0.5)).expect("valid");
        let tol = small_tol::<T>();
        assert_point(support(&cylinder, 0.0, 1.0, 0.0), V::y() * 2.0, 0.0, "+y");
        assert_point(support(&cylinder, 0.0, -1.0, 0.0), -V::y() * 2.0, 0.0, "−y");
        // Perpendicular to the axis, ties go by the sign bit of `dir.y`.
        assert_point(
            support(&cylinder, 3.0, 0.0, 0.0),
            V::new(0.5, 2.0, 0.0),
            tol,
            "+x",
        );
        assert_point(
            support(&cylinder, 3.0, -0.0, 0.0),
            V::new(0.5, -2.0, 0.0),
            tol,
            "+x, −0 y",
        );
        let s = 0.5 / 2f64.sqrt();
        assert_point(
            support(&cylinder, 1.0, -1.0, -1.0),
            V::new(s, -2.0, -s),
            tol,
            "diagonal",
        );
        // A zero direction gives the top cap centre, a −0.0 y component the bottom one.
        assert_point(support(&cylinder, 0.0, 0.0, 0.0), V::y() * 2.0, 0.0, "zero");
        assert_point(
            support(&cylinder, 0.0, -0.0, 0.0),
            -V::y() * 2.0,
            0.0,
            "−0 y",
        );
    }
    check::<f32>();
    check::<f64>();
}

#[test]
fn cone_support_is_the_apex_or_a_rim_point_with_apex_on_ties() {
    fn check<T: Real>() {
        let (h, r) = (1.0, 0.5);
        let cone = Cone::new(T::lit(h), T::lit(r)).expect("valid");
        let tol = small_tol::<T>();
        let apex = V::y() * h;
        assert_point(support(&cone, 0.0, 1.0, 0.0), apex, 0.0, "+y");
        assert_point(
            support(&cone, 0.0, -1.0, 0.0),
            -apex,
            0.0,
            "−y: base centre",
        );
        assert_point(
            support(&cone, 1.0, 0.0, 0.0),
            V::new(r, -h, 0.0),
            tol,
            "+x: rim",
        );
        assert_point(
            support(&cone, 0.0, 0.2, -1.0),
            V::new(0.0, -h, -r),
            tol,
            "mostly −z: rim",
        );
        assert_point(support(&cone, 0.1, 1.0, 0.0), apex, 0.0, "mostly +y: apex");
        // Along the slant's outward normal (2h, r) every point of the slant line is a
        // maximiser; the apex is documented. 2h = 2 and r = 0.5 are exact in both precisions,
        // but the two dot products round differently, so only the value is pinned down here.
        let slant = V::new(2.0 * h, r, 0.0);
        let s = support(&cone, slant.x, slant.y, slant.z);
        let value = to_f64(&s.coords).dot(&slant);
        assert!((value - h * r).abs() <= tol, "slant tie value {value}");
        assert_point(support(&cone, 0.0, 0.0, 0.0), apex, 0.0, "zero: apex");
        let sv = cone.local_support_vertex(&v(0.0, 1.0, 0.0), VertexId::NONE);
        assert_eq!(sv.id, VertexId(0), "the apex is vertex 0");
        let rim = cone.local_support_vertex(&v(1.0, -1.0, 0.0), VertexId::NONE);
        assert_eq!(rim.id, VertexId::NONE, "rim points are on a curve");
    }
    check::<f32>();
    check::<f64>();
}

#[test]
fn segment_and_triangle_support_are_vertices_with_later_vertex_ties() {
    fn check<T: Real>() {
        let (a, b, c) = (v::<T>(1.0, 0.0, 0.0), v(0.0, 2.0, 0.0), v(0.0, 0.0, 3.0));
        let segment = Segment::new(a.into(), b.into()).expect("valid");
        assert_eq!(support(&segment, 1.0, 0.0, 0.0), Point::from(a));
        assert_eq!(support(&segment, 0.0, 1.0, 0.0), Point::from(b));
        // Perpendicular: a tie, `b` (vertex 1) documented.
        let tie = segment.local_support_vertex(&v(0.0, 0.0, 1.0), VertexId::NONE);
        assert_eq!((tie.point, tie.id), (Point::from(b), VertexId(1)));
        let zero = segment.local_support_vertex(&Vector::zeros(), VertexId::NONE);
        assert_eq!(zero.id, VertexId(1), "zero direction: a tie");

        let triangle = Triangle::new(a.into(), b.into(), c.into()).expect("valid");
        for (d, id) in [
            (v::<T>(1.0, 0.0, 0.0), 0),
            (v(0.0, 1.0, 0.0), 1),
            (v(0.0, 0.0, 1.0), 2),
            (v(-1.0, 0.0, 0.0), 2), // b and c tie at 0 (a is −1): the later one, c
            (v(0.0, 0.0, -1.0), 1), // a and b tie: b
            (v(0.0, -1.0, 0.0), 2), // a and c tie: c
        ] {
            let sv = triangle.local_support_vertex(&d, VertexId::NONE);
            assert_eq!(sv.id, VertexId(id), "direction {d:?}");
            assert_eq!(Some(sv.point), triangle.local_vertex(sv.id));
        }
        // Along the normal of a triangle every vertex ties: the last, c.
        let flat = Triangle::new(
            v::<T>(0.0, 0.0, 0.0).into(),
            v(1.0, 0.0, 0.0).into(),
            v(0.0, 1.0, 0.0).into(),
        )
        .expect("valid");
        let sv = flat.local_support_vertex(&v(0.0, 0.0, 1.0), VertexId::NONE);
        assert_eq!(sv.id, VertexId(2));
    }
    check::<f32>();
    check::<f64>();
}

#[test]
fn round_support_is_the_inner_support_pushed_out_along_the_direction() {
    fn check<T: Real>() {
        let tol = small_tol::<T>();
        let cuboid = Cuboid::new(v::<T>(1.0, 2.0, 3.0)).expect("valid");
        let round = Round::new(cuboid, T::lit(0.5)).expect("valid");
        let d = V::new(1.0, -2.0, 2.0);
        assert_point(
            support(&round, d.x, d.y, d.z),
            V::new(1.0, -2.0, 3.0) + d / 3.0 * 0.5,
            tol,
            "round cuboid",
        );
        // Zero direction: the inner shape's answer for +y, pushed up.
        assert_point(
            support(&round, 0.0, 0.0, 0.0),
            V::new(1.0, 2.5, 3.0),
            tol,
            "round cuboid, zero direction",
        );
        let cone = Cone::new(T::lit(1.0), T::lit(1.0)).expect("valid");
        let round = Round::new(cone, T::lit(0.25)).expect("valid");
        assert_point(
            support(&round, 0.0, -7.0, 0.0),
            V::new(0.0, -1.25, 0.0),
            tol,
            "round cone −y",
        );
        assert_point(
            support(&round, 0.0, 0.0, -7.0),
            V::new(0.0, -1.0, -1.25),
            tol,
            "round cone −z",
        );
    }
    check::<f32>();
    check::<f64>();
}

#[test]
fn convex_polyhedron_support_is_the_extreme_input_point() {
    fn check<T: Real>() {
        let mut cloud: Vec<Point<T>> = (0..8u32)
            .map(|i| {
                let s = |k: u32| if i >> k & 1 == 0 { 1.0 } else { -1.0 };
                v::<T>(s(0), 2.0 * s(1), 3.0 * s(2)).into()
            })
            .collect();
        cloud.push(v::<T>(0.0, 0.0, 3.0).into()); // on a face: not a vertex
        cloud.push(v::<T>(0.1, 0.2, -0.3).into()); // inside
        let hull = ConvexPolyhedron::from_points(&cloud).expect("valid");
        for (i, corner) in cloud.iter().take(8).enumerate() {
            let d = to_f64(&corner.coords).component_mul(&V::new(0.7, 0.2, 0.1));
            assert_eq!(support(&hull, d.x, d.y, d.z), *corner, "corner {i}");
        }
    }
    check::<f32>();
    check::<f64>();
}

/// Directions whose length is far from 1: tiny ones down to the smallest subnormal, and huge
/// ones whose squared length overflows.
fn extreme_magnitudes<T: Real>() -> Vec<T> {
    let min = <T as Float>::min_positive_value();
    let mut m = vec![
        Float::sqrt(min),            // the squared length underflows
        min,                         // the smallest normal number
        min * T::lit(0.25),          // subnormal
        min * T::TOLERANCES.epsilon, // the smallest subnormal
        Float::sqrt(<T as Float>::max_value()) * T::lit(4.0), // the squared length overflows
        <T as Float>::max_value() * T::lit(0.25),
    ];
    if common::precision::<T>() == "f64" {
        m.push(T::lit(1e-300));
    } else {
        m.push(T::lit(1e-30));
    }
    m
}

/// Unit directions: the axes, the diagonals and random ones.
fn test_directions(rng: &mut rand_pcg::Pcg64, random: usize) -> Vec<V> {
    let mut dirs = Vec::new();
    for k in 0..3 {
        dirs.push(V::ith(k, 1.0));
        dirs.push(V::ith(k, -1.0));
    }
    for i in 0..8u32 {
        dirs.push(unit(&V::from_fn(
            |k, _| {
                if i >> k & 1 == 0 { 1.0 } else { -1.0 }
            },
        )));
    }
    dirs.extend((0..random).map(|_| random_unit(rng)));
    dirs
}

/// Zero, tiny and huge directions: the support point is finite and on the surface, and it
/// maximises `x·d` (tiny and huge directions are not special for a support function: only the
/// direction counts).
///
/// Shapes that compare raw dot products (segment, triangle, cone, convex hull) cannot tell
/// vertices apart once `x·d` underflows to zero: for them the maximisation is checked only for
/// directions whose dot products with the shape stay normal numbers. The trait's contract only
/// promises "some point of the shape" for tiny directions.
#[test]
fn zero_tiny_and_huge_directions_give_finite_points_on_the_surface() {
    fn check<T: Real>() {
        let mut rng = rng(11);
        let mut exact_checked = 0;
        for kind in KINDS {
            for spec in strategies::sample(kind, 12) {
                let spec = spec.rounded::<T>();
                let shape = spec.build::<T>();
                let scale = spec.scale();
                let tol = tolerance::<T>(scale);
                let zero = shape.local_support_point(&Vector::zeros());
                let zero = to_f64(&zero.coords);
                assert!(
                    spec.surface_error(&zero, &V::y()) <= tol,
                    "{spec:?}: zero direction gives {zero:?}, off the surface"
                );
                for u in test_directions(&mut rng, 8) {
                    for m in extreme_magnitudes::<T>() {
                        let d = to_t::<T>(&u) * m;
                        let d64 = to_f64(&d);
                        let s = to_f64(&shape.local_support_point(&d).coords);
                        assert!(
                            s.iter().all(|x| x.is_finite()),
                            "{spec:?} along {d:?}: {s:?}"
                        );
                        let err = spec.surface_error(&s, &d64);
                        assert!(err <= tol, "{spec:?} along {d:?}: {s:?} is {err:e} off");
                        if d64 == V::zeros() {
                            continue; // the direction underflowed: any point is right
                        }
                        // Rounded shapes normalise `d` before asking their inner shape.
                        let dot_based =
                            matches!(spec.kind(), "segment" | "triangle" | "cone" | "convex");
                        // x·d with |x| ≥ 1e-3·scale stays a normal number with full precision.
                        let normal = d64.amax() * scale * 1e-3
                            > <T as Float>::min_positive_value().as_f64()
                                / T::TOLERANCES.epsilon.as_f64()
                            && d64.amax() * scale * 1e3 < <T as Float>::max_value().as_f64();
                        if dot_based && !normal {
                            continue;
                        }
                        exact_checked += 1;
                        let du = unit(&d64);
                        let value = s.dot(&du);
                        let want = spec.support_value(&du);
                        assert!(
                            value >= want - tol,
                            "{spec:?} along {d:?} ({}): support {s:?} has x·d = {value}, \
                             the shape reaches {want}",
                            common::precision::<T>()
                        );
                    }
                }
            }
        }
        assert!(
            exact_checked > 5000,
            "only {exact_checked} maximisation checks"
        );
    }
    check::<f32>();
    check::<f64>();
}

/// At random directions and random shapes of every type, the support value equals the
/// analytic `h(d)` and the point is on the surface.
#[test]
fn support_values_equal_the_analytic_support_function() {
    fn check<T: Real>() {
        let mut rng = rng(12);
        for kind in KINDS {
            for spec in strategies::sample(kind, 24) {
                let spec = spec.rounded::<T>();
                let shape = spec.build::<T>();
                let tol = tolerance::<T>(spec.scale());
                for _ in 0..100 {
                    let mag = 10f64.powf(rand::Rng::random_range(&mut rng, -3.0..3.0));
                    let d = to_t::<T>(&(random_unit(&mut rng) * mag));
                    let du = unit(&to_f64(&d));
                    let s = to_f64(&shape.local_support_point(&d).coords);
                    let want = spec.support_value(&du);
                    assert!(
                        (s.dot(&du) - want).abs() <= tol,
                        "{spec:?} along {d:?} ({}): x·d = {}, h(d) = {want}",
                        common::precision::<T>(),
                        s.dot(&du)
                    );
                    let toward = shape.local_support_point_toward(&UnitVector::new_normalize(d));
                    let toward = to_f64(&toward.coords);
                    assert!(
                        (toward.dot(&du) - want).abs() <= tol,
                        "{spec:?} toward {d:?}: x·d = {}, h(d) = {want}",
                        toward.dot(&du)
                    );
                    assert!(spec.surface_error(&s, &du) <= tol, "{spec:?}: {s:?} off");
                }
            }
        }
    }
    check::<f32>();
    check::<f64>();
}

/// `local_support_vertex` returns the support point with an id that `local_vertex` maps back to
/// the same point; shapes without vertices there say `NONE`. Checked on the shapes themselves,
/// through the `Shape` enum and through their cores.
#[test]
fn support_vertex_ids_agree_with_local_vertex() {
    fn check_one<T: Real, S: SupportMap<T>>(shape: &S, d: &Vector<T>, what: &str) -> bool {
        let sv = shape.local_support_vertex(d, VertexId::NONE);
        assert_eq!(
            sv.point,
            shape.local_support_point(d),
            "{what}: the vertex query and the point query disagree along {d:?}"
        );
        if sv.id.is_some() {
            assert_eq!(
                shape.local_vertex(sv.id),
                Some(sv.point),
                "{what}: id {:?} along {d:?}",
                sv.id
            );
        }
        sv.id.is_some()
    }
    fn check<T: Real>() {
        let mut rng = rng(13);
        let mut with_id = 0;
        for kind in KINDS {
            for spec in strategies::sample(kind, 12) {
                let spec = spec.rounded::<T>();
                let shape = spec.build::<T>();
                let (core, _) = shape.core();
                for u in test_directions(&mut rng, 40) {
                    let d = to_t::<T>(&u);
                    let what = format!("{spec:?}");
                    if check_one(&shape, &d, &what) {
                        with_id += 1;
                    }
                    check_one(&core, &d, &format!("core of {what}"));
                    if let Shape::Cuboid(c) = &shape {
                        let sv = c.local_support_vertex(&d, VertexId::NONE);
                        let bits = d.iter().enumerate().fold(0, |id, (k, x)| {
                            id | (u32::from(Float::is_sign_negative(*x)) << k)
                        });
                        assert_eq!(sv.id, VertexId(bits), "cuboid id = sign bits of {d:?}");
                        assert_eq!(sv.point, c.vertex(bits));
                    }
                }
                // Ids past the last vertex name nothing.
                let past = match &shape {
                    Shape::Cuboid(_) => Some(8),
                    Shape::Segment(_) => Some(2),
                    Shape::Triangle(_) => Some(3),
                    Shape::Cone(_) => Some(1),
                    Shape::Convex(c) => Some(c.vertices().len() as u32),
                    _ => None,
                };
                if let Some(past) = past {
                    assert_eq!(shape.local_vertex(VertexId(past)), None, "{spec:?}");
                }
                assert_eq!(shape.local_vertex(VertexId::NONE), None);
                if matches!(core, Core::Point) {
                    assert_eq!(core.local_vertex(VertexId(0)), Some(Point::origin()));
                }
            }
        }
        assert!(with_id > 1000, "too few vertex ids seen: {with_id}");
    }
    check::<f32>();
    check::<f64>();
}

/// Hill-climbing hulls (≥ 32 vertices) answer the same support value from any hint.
#[test]
fn hints_do_not_change_the_support_value() {
    fn check<T: Real>() {
        let mut rng = rng(14);
        let mut climbing = 0;
        for spec in strategies::sample("convex", 40) {
            let spec = spec.rounded::<T>();
            let Shape::Convex(hull) = spec.build::<T>() else {
                unreachable!("a convex spec builds a hull")
            };
            let n = hull.vertices().len() as u32;
            if n as usize >= nphase_shapes::HILL_CLIMBING_MIN_VERTICES {
                climbing += 1;
            }
            let tol = tolerance::<T>(spec.scale());
            for _ in 0..50 {
                let d = to_t::<T>(&random_unit(&mut rng));
                let du = to_f64(&d);
                let want = spec.support_value(&du);
                for hint in [
                    VertexId::NONE,
                    VertexId(0),
                    VertexId(n - 1),
                    VertexId(n + 5),
                ] {
                    let sv = hull.local_support_vertex(&d, hint);
                    let got = to_f64(&sv.point.coords).dot(&du);
                    assert!(
                        (got - want).abs() <= tol,
                        "{spec:?} along {d:?} from hint {hint:?}: {got} vs {want}"
                    );
                }
            }
        }
        assert!(climbing >= 5, "only {climbing} hill-climbing hulls sampled");
    }
    check::<f32>();
    check::<f64>();
}

/// `support_point(pose, d)` is `pose · local_support_point(R⁻¹ d)`; checked against an
/// independent computation (rotation matrix transpose in f64, analytic support value), for
/// both `support_point` and `support_point_toward`. Points are compared up to ties (a face or
/// edge facing `d`, where the two computations may round to different maximisers): then the
/// support values must agree, and ties must stay rare for random directions.
#[test]
fn posed_support_is_the_pose_of_the_local_support() {
    fn check<T: Real>() {
        let mut rng = rng(15);
        let (mut compared, mut ties) = (0, 0);
        for kind in KINDS {
            for spec in strategies::sample(kind, 16) {
                let spec = spec.rounded::<T>();
                let shape = spec.build::<T>();
                for _ in 0..40 {
                    let pose = random_pose::<T>(&mut rng, 10.0);
                    let rotation = pose.rotation.to_rotation_matrix().matrix().map(T::as_f64);
                    let translation = to_f64(&pose.translation.vector);
                    let tol = tolerance::<T>(spec.scale() + translation.norm());
                    let d = to_t::<T>(&(random_unit(&mut rng) * 3.0));
                    let d64 = to_f64(&d);
                    let local_dir = rotation.transpose() * d64;
                    let local = to_f64(&shape.local_support_point(&to_t(&local_dir)).coords);
                    let want = rotation * local + translation;
                    let want_value =
                        spec.support_value(&unit(&local_dir)) + translation.dot(&unit(&d64));
                    let unit_d = UnitVector::new_normalize(d);
                    for (how, got) in [
                        ("support_point", shape.support_point(&pose, &d)),
                        (
                            "support_point_toward",
                            shape.support_point_toward(&pose, &unit_d),
                        ),
                    ] {
                        let got = to_f64(&got.coords);
                        let value = got.dot(&unit(&d64));
                        assert!(
                            (value - want_value).abs() <= tol,
                            "{how} of {spec:?} at {pose:?} along {d:?}: x·d = {value}, \
                             want {want_value}"
                        );
                        compared += 1;
                        if (got - want).amax() > tol {
                            ties += 1;
                        }
                    }
                }
            }
        }
        // Ties need a face or edge within rounding of facing a random direction: rare.
        assert!(
            ties * 100 < compared,
            "{ties} of {compared} posed support points differ from the local computation"
        );
    }
    check::<f32>();
    check::<f64>();
}
