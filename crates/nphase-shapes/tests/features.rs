//! Supporting features, the core + radius decomposition, bounding boxes and constructor errors,
//! in both precisions:
//!
//! * faces are planar, counter-clockwise about their unit `normal`, support the shape along it,
//!   and (polytopes) contain the support point; every feature's normal points along `dir`;
//! * the cuboid's face and vertex numbering agrees with `Cuboid::vertex`;
//! * cylinder caps, cone bases and the straight side lines of cylinders, cones and capsules
//!   appear exactly where their normals are the closest to the direction (45° switches);
//! * edge ids name the edge between consecutive feature vertices, as each shape's doc says;
//! * rounded shapes' features are the inner shape's pushed out by the radius;
//! * zero, tiny and huge directions give valid features; `transform_by` follows the pose;
//! * triangle normals stay in the triangle's plane for slivers and at extreme scales
//!   (regression);
//! * `Shape::core` is exact: the support of a shape is its core's plus radius × unit(dir);
//! * AABBs at random poses contain the shape and are tight;
//! * constructors reject NaN, infinities and negative sizes, naming the field.
//!
//! Tolerances are 64 ε × the shape's size (`common::tolerance`): every tested quantity is a few
//! roundings of numbers of that size.

mod common;

use common::{
    KINDS, Spec, V, precision, random_pose, random_unit, rng, strategies, to_f64, to_t, tolerance,
    unit,
};
use nphase_math::{Point, Real, Vector};
use nphase_shapes::{
    Ball, Capsule, Cone, ConvexPolyhedron, Cuboid, Cylinder, DISC_POLYGON_VERTICES, FeatureId,
    FeatureMap, Round, Segment, Shape, ShapeError, SupportFeature, SupportMap, Triangle, VertexId,
};
use rand::Rng;

/// The feature's vertices in f64.
fn vertices<T: Real>(f: &SupportFeature<T>) -> Vec<V> {
    f.vertices.iter().map(|p| to_f64(&p.coords)).collect()
}

/// Checks the contract every feature meets: a unit normal pointing along `d` (`n·d > 0`; `= 0`
/// only where a triangle or flat hull has `d` in its plane, when either side's face is as close
/// to `d`), ids matching vertices, and for faces a planar polygon counter-clockwise about the
/// normal.
fn check_feature<T: Real>(f: &SupportFeature<T>, d: &V, tol: f64, what: &str) {
    let n = to_f64(&f.normal.into_inner());
    assert!(
        (n.norm() - 1.0).abs() <= 1e2 * T::TOLERANCES.epsilon.as_f64(),
        "{what}: |n| = {}",
        n.norm()
    );
    let flat = matches!(f.id, FeatureId::Face(_)) && n.dot(&unit(d)) == 0.0;
    assert!(
        n.dot(&unit(d)) > 0.0 || flat,
        "{what}: normal {n:?} does not point along {d:?}"
    );
    assert_eq!(
        f.vertices.len(),
        f.vertex_ids.len(),
        "{what}: one id per vertex"
    );
    let edges = match f.vertices.len() {
        1 => 0,
        2 => 1,
        k => k,
    };
    assert_eq!(f.edge_ids.len(), edges, "{what}: one id per edge");
    let expected = match f.id {
        FeatureId::Vertex(_) => 1..=1,
        FeatureId::Edge(_) => 2..=2,
        FeatureId::Face(_) => 3..=usize::MAX,
    };
    assert!(
        expected.contains(&f.vertices.len()),
        "{what}: {:?} with {} vertices",
        f.id,
        f.vertices.len()
    );
    if let FeatureId::Face(_) = f.id {
        let vs = vertices(f);
        for v in &vs {
            assert!(
                (n.dot(&(v - vs[0]))).abs() <= tol,
                "{what}: face not planar: {vs:?}"
            );
        }
        let k = vs.len();
        let mut area = V::zeros();
        let mut perimeter = 0.0;
        for i in 0..k {
            let (a, b, c) = (vs[i], vs[(i + 1) % k], vs[(i + 2) % k]);
            area += a.cross(&b);
            perimeter += (b - a).norm();
            // A convex polygon turns left at every corner (collinear corners allowed).
            let turn = (b - a).cross(&(c - b)).dot(&n);
            assert!(
                turn >= -tol * (b - a).norm().max(tol),
                "{what}: clockwise turn {turn} at {b:?}"
            );
        }
        // A sliver's orientation is within rounding of both: allow that much.
        assert!(
            area.dot(&n) >= -tol * perimeter,
            "{what}: polygon clockwise about the normal"
        );
    }
}

/// Whether `p` lies in the face polygon (on its plane, inside every edge).
fn face_contains(vs: &[V], n: &V, p: &V, tol: f64) -> bool {
    let k = vs.len();
    (n.dot(&(p - vs[0]))).abs() <= tol
        && (0..k).all(|i| {
            let (a, b) = (vs[i], vs[(i + 1) % k]);
            (b - a).cross(&(p - a)).dot(n) >= -tol * (b - a).norm()
        })
}

/// Zero, tiny (down to the smallest subnormal) and huge directions give a valid feature of every
/// shape type: finite vertices, a unit normal, faces planar and counter-clockwise. The normal
/// points along the direction whenever the direction is not zero.
///
/// Hulls are the exception for directions so tiny that `x·d` underflows: their face choice
/// compares raw dot products (`FeatureMap` promises only "some valid feature" for a zero
/// direction), so only validity is checked for them there.
#[test]
fn zero_tiny_and_huge_directions_give_valid_features() {
    fn check<T: Real>() {
        let mut rng = rng(29);
        let mut out = SupportFeature::default();
        let min = <T as num_traits::Float>::min_positive_value();
        let max = <T as num_traits::Float>::max_value();
        let magnitudes = [
            T::zero(),
            min * T::TOLERANCES.epsilon,
            min,
            num_traits::Float::sqrt(min),
            max * T::lit(0.25),
        ];
        for kind in KINDS {
            for spec in strategies::sample(kind, 8) {
                let spec = spec.rounded::<T>();
                let shape = spec.build::<T>();
                let tol = tolerance::<T>(spec.scale());
                for _ in 0..10 {
                    let u = random_unit(&mut rng);
                    for m in magnitudes {
                        let d = to_t::<T>(&u) * m;
                        let d64 = to_f64(&d);
                        shape.local_support_feature(&d, &mut out);
                        let what = format!("{spec:?} along {d64:?} ({})", precision::<T>());
                        assert!(
                            vertices(&out)
                                .iter()
                                .all(|v| v.iter().all(|x| x.is_finite())),
                            "{what}: {out:?}"
                        );
                        let hull = matches!(&spec, Spec::Convex { .. })
                            || matches!(&spec, Spec::Round { inner, .. } if matches!(**inner, Spec::Convex { .. }));
                        let dots_underflow = d64.amax() * spec.scale()
                            < 1e3 * min.as_f64() / T::TOLERANCES.epsilon.as_f64();
                        let along = if d64 == V::zeros() || (hull && dots_underflow) {
                            to_f64(&out.normal.into_inner()) // any normal: check the rest
                        } else {
                            d64
                        };
                        check_feature(&out, &along, tol, &what);
                    }
                }
            }
        }
    }
    check::<f32>();
    check::<f64>();
}

/// Polytopes (cuboid, triangle, convex hull): the face supports the shape along its normal,
/// contains the support point along `dir`, and its ids are the shape's vertex numbers.
#[test]
fn polytope_faces_support_the_shape_and_contain_the_support_point() {
    fn check<T: Real>() {
        let mut rng = rng(21);
        let mut out = SupportFeature::default();
        let mut faces = 0;
        for kind in ["cuboid", "triangle", "convex"] {
            for spec in strategies::sample(kind, 24) {
                let spec = spec.rounded::<T>();
                let shape = spec.build::<T>();
                let tol = tolerance::<T>(spec.scale());
                for _ in 0..60 {
                    let d = to_t::<T>(&(random_unit(&mut rng) * rng.random_range(0.01..100.0)));
                    let d64 = to_f64(&d);
                    shape.local_support_feature(&d, &mut out);
                    let what = format!("{spec:?} along {d64:?} ({})", precision::<T>());
                    check_feature(&out, &d64, tol, &what);
                    for (v, id) in out.vertices.iter().zip(&out.vertex_ids) {
                        assert_eq!(
                            shape.local_vertex(VertexId(*id)),
                            Some(*v),
                            "{what}: id {id}"
                        );
                    }
                    let s = to_f64(&shape.local_support_point(&d).coords);
                    let vs = vertices(&out);
                    let n = to_f64(&out.normal.into_inner());
                    match out.id {
                        FeatureId::Face(_) => {
                            faces += 1;
                            let plane = n.dot(&vs[0]);
                            assert!(
                                (plane - spec.support_value(&n)).abs() <= tol,
                                "{what}: face not supporting"
                            );
                            assert!(
                                face_contains(&vs, &n, &s, tol),
                                "{what}: support {s:?} outside {vs:?}"
                            );
                        }
                        FeatureId::Edge(_) | FeatureId::Vertex(_) => {
                            // Only lower-dimensional hulls answer with edges and vertices.
                            assert!(kind == "convex", "{what}: {:?}", out.id);
                            let best = vs
                                .iter()
                                .map(|v| v.dot(&unit(&d64)))
                                .fold(f64::MIN, f64::max);
                            assert!(
                                (best - s.dot(&unit(&d64))).abs() <= tol,
                                "{what}: {vs:?} misses {s:?}"
                            );
                        }
                    }
                }
            }
        }
        assert!(faces > 3000, "only {faces} faces");
    }
    check::<f32>();
    check::<f64>();
}

/// Every face's edge ids name the edge between consecutive vertices: `Cuboid::edge_id` for
/// boxes (12 distinct edges over the 6 faces, each on two faces), `ConvexPolyhedron::edge_vertices`
/// for hulls, `k → k + 1` for triangles.
#[test]
fn edge_ids_name_the_edges_between_consecutive_vertices() {
    let mut out = SupportFeature::default();
    let cuboid = Cuboid::new(V::new(0.5, 0.7, 0.9)).expect("valid");
    let mut seen = std::collections::BTreeMap::new();
    for axis in 0..3 {
        for sign in [1.0, -1.0] {
            let d = V::ith(axis, sign);
            cuboid.local_support_feature(&d, &mut out);
            for k in 0..4 {
                let (a, b) = (out.vertex_ids[k], out.vertex_ids[(k + 1) % 4]);
                assert_eq!(out.edge_ids[k], Cuboid::<f64>::edge_id(a, b));
                *seen.entry(out.edge_ids[k]).or_insert(0) += 1;
            }
        }
    }
    assert_eq!(seen.len(), 12);
    assert!(seen.iter().all(|(&e, &n)| e < 12 && n == 2), "{seen:?}");

    let mut r = rng(31);
    let cloud: Vec<Point<f64>> = (0..40).map(|_| Point::from(random_unit(&mut r))).collect();
    let hull = ConvexPolyhedron::from_points(&cloud).expect("a hull");
    for f in 0..hull.face_count() {
        hull.local_support_feature(&hull.face(f).normal.into_inner(), &mut out);
        let n = out.vertex_ids.len();
        for k in 0..n {
            let (a, b) = (out.vertex_ids[k], out.vertex_ids[(k + 1) % n]);
            assert_eq!(
                hull.edge_vertices(out.edge_ids[k]),
                Some((a.min(b), a.max(b)))
            );
            assert_eq!(hull.edge_id(a, b), Some(out.edge_ids[k]));
        }
    }

    let triangle = Triangle::new(
        Point::new(0.0, 0.0, 0.0),
        Point::new(1.0, 0.0, 0.0),
        Point::new(0.0, 1.0, 0.0),
    )
    .expect("valid");
    for z in [1.0, -1.0] {
        triangle.local_support_feature(&V::new(0.0, 0.0, z), &mut out);
        for k in 0..3 {
            let (a, b) = (out.vertex_ids[k], out.vertex_ids[(k + 1) % 3]);
            let expected = if (a + 1) % 3 == b { a } else { b };
            assert_eq!(out.edge_ids[k], expected, "edge {a}–{b}");
        }
    }
}

#[test]
fn cuboid_face_ids_agree_with_cuboid_vertex() {
    fn check<T: Real>() {
        let h = V::new(1.0, 2.0, 3.0);
        let cuboid = Cuboid::new(to_t::<T>(&h)).expect("valid");
        let mut out = SupportFeature::default();
        for face in 0..6u32 {
            let (axis, negative) = ((face / 2) as usize, face % 2 == 1);
            let normal = V::ith(axis, if negative { -1.0 } else { 1.0 });
            let ids = Cuboid::<T>::face_vertex_ids(face);
            let mut sorted = ids;
            sorted.sort_unstable();
            assert!(
                sorted.windows(2).all(|w| w[0] < w[1]) && sorted[3] < 8,
                "face {face}: {ids:?}"
            );
            for id in ids {
                assert_eq!(
                    id >> axis & 1 == 1,
                    negative,
                    "face {face}: vertex {id} on the wrong side"
                );
            }
            // Tilted off the normal by less than 45°: still this face.
            let d = normal + V::new(0.2, -0.3, 0.1).component_mul(&(V::repeat(1.0) - normal.abs()));
            cuboid.local_support_feature(&to_t(&d), &mut out);
            assert_eq!(out.id, FeatureId::Face(face));
            assert_eq!(out.vertex_ids, ids.to_vec());
            for (v, id) in out.vertices.iter().zip(ids) {
                assert_eq!(*v, cuboid.vertex(id));
            }
            assert_eq!(to_f64(&out.normal.into_inner()), normal);
            check_feature(
                &out,
                &d,
                tolerance::<T>(4.0),
                &format!("cuboid face {face}"),
            );
        }
        // Ties between axes go to the lowest axis; a zero direction gives the +y face.
        cuboid.local_support_feature(&to_t(&V::new(1.0, 1.0, -1.0)), &mut out);
        assert_eq!(out.id, FeatureId::Face(0));
        cuboid.local_support_feature(&to_t(&V::new(0.0, -1.0, -1.0)), &mut out);
        assert_eq!(out.id, FeatureId::Face(3));
        cuboid.local_support_feature(&Vector::zeros(), &mut out);
        assert_eq!(out.id, FeatureId::Face(2));
    }
    check::<f32>();
    check::<f64>();
}

/// A unit direction at angle `theta` from `axis` (unit) in the plane of `axis` and `across`.
fn tilted(axis: &V, across: &V, theta: f64) -> V {
    axis * theta.cos() + across * theta.sin()
}

/// Angles around `centre` within 0.2 rad, a third of them within 1e-3 of it.
fn angles_around(rng: &mut rand_pcg::Pcg64, centre: f64) -> Vec<f64> {
    (0..200)
        .map(|i| {
            let offset = if i % 3 == 0 {
                rng.random_range(0.0..1e-3)
            } else {
                rng.random_range(0.0..0.2)
            };
            centre
                + if rng.random_bool(0.5) {
                    offset
                } else {
                    -offset
                }
        })
        .collect()
}

/// Classifies `x` against a switch at 0: `Some(true)` clearly positive, `Some(false)` clearly
/// negative, `None` within rounding of it (not asserted).
fn side_of(x: f64) -> Option<bool> {
    let margin = 1e-5;
    if x > margin {
        Some(true)
    } else if x < -margin {
        Some(false)
    } else {
        None
    }
}

const QUARTER: f64 = std::f64::consts::FRAC_PI_4;

/// `local_support_face_normal` is the normal of the face `local_support_feature` reports, bit
/// for bit, and `None` where it reports an edge or a vertex — for every kind of shape and its
/// core, along random directions (zero and tiny ones too) and along directions near a cylinder's
/// or cone's switch between its cap or base and its side (cylinders and cones answer without
/// building the polygon, so their answer is a decision of its own).
#[test]
fn face_normals_are_the_reported_faces_normals() {
    fn check<T: Real>() {
        let mut rng = rng(31);
        let (mut feature, mut scratch) = (SupportFeature::default(), SupportFeature::default());
        let mut directions: Vec<V> = (0..40).map(|_| random_unit(&mut rng)).collect();
        directions.push(V::zeros());
        directions.push(V::new(1e-30, -1e-30, 0.0));
        for centre in [QUARTER, 3.0 * QUARTER, 1.1, std::f64::consts::PI - 1.1] {
            let across = unit(&V::new(rng.random_range(-1.0..1.0), 0.0, 1.0));
            let angles = angles_around(&mut rng, centre);
            directions.extend(angles.iter().take(40).map(|&t| tilted(&V::y(), &across, t)));
        }
        for kind in KINDS {
            for spec in strategies::sample(kind, 6) {
                let shape = spec.rounded::<T>().build::<T>();
                let (core, _) = shape.core();
                for d in &directions {
                    let d = to_t::<T>(d);
                    let reported = |map: &dyn FeatureMap<T>, out: &mut SupportFeature<T>| {
                        map.local_support_feature(&d, out);
                        (out.vertices.len() >= 3).then_some(out.normal)
                    };
                    let what = format!("{spec:?} along {d:?} ({})", precision::<T>());
                    assert_eq!(
                        shape.local_support_face_normal(&d, &mut scratch),
                        reported(&shape, &mut feature),
                        "{what}"
                    );
                    assert_eq!(
                        core.local_support_face_normal(&d, &mut scratch),
                        reported(&core, &mut feature),
                        "{what}: core"
                    );
                }
            }
        }
    }
    check::<f32>();
    check::<f64>();
}

/// Cylinders: the cap polygon when the direction is within 45° of the axis, else the side line
/// in its azimuth; ids, edges and vertices as the type's doc says, vertices on the surface.
#[test]
fn cylinder_caps_and_side_lines_switch_at_45_degrees() {
    fn check<T: Real>() {
        let mut rng = rng(22);
        let spec = Spec::Cylinder {
            half_height: 1.5,
            radius: 0.75,
        }
        .rounded::<T>();
        let Spec::Cylinder {
            half_height: h,
            radius: r,
        } = spec
        else {
            unreachable!()
        };
        let cylinder = Cylinder::new(T::lit(h), T::lit(r)).expect("valid");
        let tol = tolerance::<T>(spec.scale());
        let mut out = SupportFeature::default();
        let n = DISC_POLYGON_VERTICES;
        let mut seen = [0; 2];
        for centre in [0.0, QUARTER, 3.0 * QUARTER, std::f64::consts::PI] {
            for theta in angles_around(&mut rng, centre) {
                let theta = theta.clamp(0.0, std::f64::consts::PI);
                let azimuth = rng.random_range(0.0..std::f64::consts::TAU);
                let across = V::new(azimuth.cos(), 0.0, azimuth.sin());
                let d = tilted(&V::y(), &across, theta);
                let d_t = to_t::<T>(&d);
                cylinder.local_support_feature(&d_t, &mut out);
                let what = format!("cylinder along {d:?} (θ = {theta}, {})", precision::<T>());
                check_feature(&out, &d, tol, &what);
                let vs = vertices(&out);
                for v in &vs {
                    let sdf = spec.sdf(v).expect("cylinder");
                    assert!(
                        sdf.abs() <= tol,
                        "{what}: feature vertex {v:?} off the surface"
                    );
                }
                // Positive: closer to the axis than to the side.
                let cap = side_of(d.y.abs() - d.xz().norm());
                match out.id {
                    FeatureId::Face(face) => {
                        assert_ne!(cap, Some(false), "{what}: cap beyond 45°");
                        let top = d.y > 0.0;
                        assert_eq!(face, u32::from(!top), "{what}");
                        let first = if top { 0 } else { n };
                        for (k, (&v, &e)) in out.vertex_ids.iter().zip(&out.edge_ids).enumerate() {
                            // Edge first + j joins rim vertices first + j and first + j + 1.
                            let next = out.vertex_ids[(k + 1) % out.vertex_ids.len()];
                            let (lo, hi) = (v.min(next) - first, v.max(next) - first);
                            let j = if hi - lo == 1 { lo } else { hi };
                            assert_eq!(e, first + j, "{what}: edge of {v}–{next}");
                        }
                        let mut ids = out.vertex_ids.clone();
                        ids.sort_unstable();
                        assert_eq!(ids, (first..first + n).collect::<Vec<_>>());
                        assert_eq!(
                            to_f64(&out.normal.into_inner()),
                            V::y() * if top { 1.0 } else { -1.0 }
                        );
                        seen[0] += 1;
                    }
                    FeatureId::Edge(e) => {
                        assert_eq!(e, 2 * n, "{what}");
                        assert_ne!(cap, Some(true), "{what}: side line within 45° of the axis");
                        assert_eq!(out.vertex_ids, vec![2 * n, 2 * n + 1], "{what}");
                        assert_eq!(out.edge_ids, vec![2 * n], "{what}");
                        assert!(
                            (vs[0].y + h).abs() <= tol && (vs[1].y - h).abs() <= tol,
                            "{what}: {vs:?}"
                        );
                        // In the azimuth of d: the support point is on the line.
                        let s = to_f64(&cylinder.local_support_point(&d_t).coords);
                        let line = common::distance_to_segment(&s, &vs[0], &vs[1]);
                        assert!(line <= tol, "{what}: support {s:?} not on the side line");
                        seen[1] += 1;
                    }
                    other => panic!("{what}: {other:?}"),
                }
            }
        }
        assert!(seen.iter().all(|&n| n > 100), "cap, side counts {seen:?}");
    }
    check::<f32>();
    check::<f64>();
}

/// A cuboid's faces with hysteresis: where two faces tie (a box on its edge), the face named by
/// `previous` is kept while its normal is within `FLAT_FEATURE_ANGLE` of being the closest to
/// the direction (its component along the unit direction short of the largest by at most
/// `sin(FLAT_FEATURE_ANGLE)`); beyond that, and for no history, the opposite face or an id
/// the box does not have, the closest face.
#[test]
fn cuboid_faces_keep_the_previous_face_near_a_tie() {
    fn check<T: Real>() {
        let cuboid =
            Cuboid::new(Vector::new(T::lit(0.5), T::lit(0.3), T::lit(0.2))).expect("valid");
        let slack = nphase_shapes::FLAT_FEATURE_ANGLE.sin();
        let mut out = SupportFeature::default();
        let mut kept = [0; 2];
        // Directions in the plane of +x (face 0) and +y (face 2), from 40° to 50° off +x.
        for step in 0..=200 {
            let phi = (40.0 + 0.05 * f64::from(step)).to_radians();
            let d = V::new(phi.cos(), phi.sin(), 0.0);
            let d_t = to_t::<T>(&(d * 3.0));
            let closest = if d.x >= d.y { 0 } else { 2 };
            for previous in [0u32, 2] {
                let along = if previous == 0 { d.x } else { d.y };
                let keep = along >= d.x.max(d.y) - slack;
                cuboid.local_support_feature_near(&d_t, Some(FeatureId::Face(previous)), &mut out);
                let expected = if keep { previous } else { closest };
                // Right at the bound rounding may decide either way.
                if (along - (d.x.max(d.y) - slack)).abs() > 1e-5 {
                    assert_eq!(
                        out.id,
                        FeatureId::Face(expected),
                        "φ = {}°, previous face {previous} ({})",
                        phi.to_degrees(),
                        precision::<T>()
                    );
                }
                if keep && previous != closest {
                    kept[usize::from(previous == 2)] += 1;
                }
                check_feature(&out, &d, tolerance::<T>(1.0), "cuboid near a tie");
            }
            for previous in [None, Some(FeatureId::Face(1)), Some(FeatureId::Face(9))] {
                cuboid.local_support_feature_near(&d_t, previous, &mut out);
                assert_eq!(out.id, FeatureId::Face(closest), "φ = {phi}, {previous:?}");
            }
        }
        // Past the tie by `sin(FLAT_FEATURE_ANGLE) / √2` rad, about 1.4°: 28 steps of 0.05°.
        assert!(kept.iter().all(|&k| (26..=30).contains(&k)), "{kept:?}");
    }
    check::<f32>();
    check::<f64>();
}

/// A hull's faces keep the same hysteresis as a box's: last frame's face is kept while the
/// direction is at most `FACE_TIE_HOLD` (about 1.4°) past the plane where it ties with the
/// closest face through the support vertex — for a box built as a hull (faces 90° apart) and a
/// hexagonal prism (side faces 60° apart), directions swept across the tie of two adjacent faces;
/// a face the direction is far from, or one not through the support vertex, is not kept.
#[test]
fn hull_faces_keep_the_previous_face_near_a_tie() {
    fn check<T: Real>() {
        let corners: Vec<V> = (0..8)
            .map(|i| {
                let s = |bit: u32| if i & (1 << bit) == 0 { 1.0 } else { -1.0 };
                V::new(0.5 * s(0), 0.3 * s(1), 0.2 * s(2))
            })
            .collect();
        let prism: Vec<V> = (0..12)
            .map(|k| {
                let a = std::f64::consts::TAU * f64::from(k % 6) / 6.0;
                V::new(0.4 * a.cos(), if k < 6 { -0.3 } else { 0.3 }, 0.4 * a.sin())
            })
            .collect();
        let hold = nphase_shapes::FACE_TIE_HOLD;
        // The two faces' normals and the directions swept between them (5° each side of the
        // bisector, in their plane, 0.05° steps).
        for (name, points, n0, n1) in [
            ("box", corners, V::x(), V::y()),
            (
                "prism",
                prism,
                V::new(0.75f64.sqrt(), 0.0, 0.5),
                V::new(0.75f64.sqrt(), 0.0, -0.5),
            ),
        ] {
            let points: Vec<Point<T>> = points.iter().map(|p| Point::from(to_t::<T>(p))).collect();
            let hull = ConvexPolyhedron::from_points(&points).expect("hull");
            let face_of = |n: &V| {
                let mut out = SupportFeature::default();
                hull.local_support_feature(&to_t::<T>(n), &mut out);
                assert!(out.vertices.len() >= 3, "{name}: a face along {n:?}");
                out.id
            };
            let (f0, f1) = (face_of(&n0), face_of(&n1));
            let bisector = (n0 + n1).normalize();
            let across = (n0 - n1).normalize();
            let gap = (n0 - n1).norm();
            let mut out = SupportFeature::default();
            let mut kept = [0; 2];
            for step in -100..=100 {
                let phi = (0.05 * f64::from(step)).to_radians();
                let d = bisector * phi.cos() + across * phi.sin();
                let (closest, dot0, dot1) =
                    (if phi >= 0.0 { f0 } else { f1 }, n0.dot(&d), n1.dot(&d));
                for (previous, along, other) in [(f0, dot0, dot1), (f1, dot1, dot0)] {
                    let past = (other - along) / gap;
                    hull.local_support_feature_near(
                        &to_t::<T>(&(d * 3.0)),
                        Some(previous),
                        &mut out,
                    );
                    if (past - hold).abs() > 1e-5 && phi != 0.0 {
                        let keep = past <= hold;
                        let expected = if keep { previous } else { closest };
                        assert_eq!(
                            out.id,
                            expected,
                            "{name}: φ = {}°, previous {previous:?} ({})",
                            phi.to_degrees(),
                            precision::<T>()
                        );
                        if keep && previous != closest {
                            kept[usize::from(previous == f1)] += 1;
                        }
                    }
                    check_feature(&out, &d, tolerance::<T>(1.0), "hull near a tie");
                }
                // A face far from the direction (the opposite one) is not kept.
                let opposite = face_of(&-bisector);
                hull.local_support_feature_near(&to_t::<T>(&d), Some(opposite), &mut out);
                if phi != 0.0 {
                    assert_eq!(
                        out.id,
                        closest,
                        "{name}: φ = {}°, previous the opposite face",
                        phi.to_degrees()
                    );
                }
            }
            // Past the tie by about 1.4°: 28 steps of 0.05° on each side.
            assert!(
                kept.iter().all(|&k| (26..=30).contains(&k)),
                "{name}: {kept:?}"
            );
        }
    }
    check::<f32>();
    check::<f64>();
}

/// On a hull whose adjacent faces are nearly parallel (a slab's roof of two faces 2° apart),
/// last frame's face is held at most half-way from the tie to the other face's normal (about
/// 0.5° here, not 1.4°), never up to it; and a face's turn allowance in a held state (the
/// direction past the tie, last frame's face kept) certifies that face for the search that has
/// it for last frame's, on the ball's boundary too.
#[test]
fn hull_faces_are_not_held_up_to_a_nearly_parallel_neighbour() {
    fn check<T: Real>() {
        let drop = 1f64.to_radians().tan();
        let points: Vec<Point<T>> = [
            [-1.0, -drop, 1.0],
            [-1.0, -drop, -1.0],
            [0.0, 0.0, 1.0],
            [0.0, 0.0, -1.0],
            [1.0, -drop, 1.0],
            [1.0, -drop, -1.0],
            [-1.0, -0.5, 1.0],
            [-1.0, -0.5, -1.0],
            [1.0, -0.5, 1.0],
            [1.0, -0.5, -1.0],
        ]
        .iter()
        .map(|p| Point::from(to_t::<T>(&V::new(p[0], p[1], p[2]))))
        .collect();
        let hull = ConvexPolyhedron::from_points(&points).expect("roof");
        let along = |deg: f64| {
            let a = deg.to_radians();
            V::new(a.sin(), a.cos(), 0.0)
        };
        let mut out = SupportFeature::default();
        hull.local_support_feature(&to_t::<T>(&along(-1.0)), &mut out);
        let left = out.id;
        hull.local_support_feature(&to_t::<T>(&along(1.0)), &mut out);
        let right = out.id;
        assert_ne!(left, right);
        // The tie is at 0°, the right face's normal 1° past it; the hold is a quarter of
        // |n_r − n_l| = 2 sin 1°: asin(sin(1°) / 2), about 0.5°.
        let hold = (1f64.to_radians().sin() / 2.0).asin().to_degrees();
        for step in 1..=100 {
            let deg = 0.01 * f64::from(step);
            if (deg - hold).abs() < 1e-3 {
                continue;
            }
            hull.local_support_feature_near(&to_t::<T>(&along(deg)), Some(left), &mut out);
            let expected = if deg < hold { left } else { right };
            assert_eq!(out.id, expected, "{deg}° ({})", precision::<T>());
        }
        // Held at 0.3°: its allowance certifies it, for the search with it for last frame's.
        let FeatureId::Face(face) = left else {
            panic!("{left:?}")
        };
        let d = along(0.3);
        let allowance = hull
            .face_support_allowance(face as usize, &to_t::<T>(&d))
            .as_f64();
        assert!(allowance > 1e-3, "{allowance} ({})", precision::<T>());
        let mut rng = rng(31);
        for k in 0..200 {
            let side = d.cross(&random_unit(&mut rng)).normalize();
            let r = if k % 2 == 0 {
                1.0
            } else {
                rng.random_range(0.0..1.0)
            };
            let angle = 2.0 * (r * allowance / 2.0).asin();
            let turned = d * angle.cos() + side * angle.sin();
            hull.support_feature_started(&to_t::<T>(&turned), VertexId::NONE, Some(left), &mut out);
            assert_eq!(
                out.id,
                left,
                "turned {r} of {allowance} ({})",
                precision::<T>()
            );
        }
    }
    check::<f32>();
    check::<f64>();
}

/// Cones: the base polygon when its normal is closer to the direction than the slant line's
/// normal in the direction's azimuth, else that slant line (apex to rim).
#[test]
fn cone_base_and_slant_lines_switch_where_their_normals_do() {
    fn check<T: Real>() {
        let mut rng = rng(23);
        let spec = Spec::Cone {
            half_height: 1.0,
            radius: 0.75,
        }
        .rounded::<T>();
        let Spec::Cone {
            half_height: h,
            radius: r,
        } = spec
        else {
            unreachable!()
        };
        let cone = Cone::new(T::lit(h), T::lit(r)).expect("valid");
        let tol = tolerance::<T>(spec.scale());
        let mut out = SupportFeature::default();
        let n = DISC_POLYGON_VERTICES;
        let mut seen = [0; 2];
        // The slant's outward normal is at angle atan2(2h, r) from +y; the base's is at π. The
        // switch is halfway between them.
        let slant = (2.0 * h).atan2(r);
        let switch = 0.5 * (slant + std::f64::consts::PI);
        for centre in [std::f64::consts::PI, switch, slant, 0.0] {
            for theta in angles_around(&mut rng, centre) {
                let theta = theta.clamp(0.0, std::f64::consts::PI);
                let azimuth = rng.random_range(0.0..std::f64::consts::TAU);
                let across = V::new(azimuth.cos(), 0.0, azimuth.sin());
                let d = tilted(&V::y(), &across, theta);
                let d_t = to_t::<T>(&d);
                cone.local_support_feature(&d_t, &mut out);
                let what = format!("cone along {d:?} (θ = {theta}, {})", precision::<T>());
                check_feature(&out, &d, tol, &what);
                let vs = vertices(&out);
                for v in &vs {
                    let sdf = spec.sdf(v).expect("cone");
                    assert!(
                        sdf.abs() <= tol,
                        "{what}: feature vertex {v:?} off the surface"
                    );
                }
                let base = side_of(theta - switch);
                match out.id {
                    FeatureId::Face(0) => {
                        assert_ne!(base, Some(false), "{what}: base on the slant's side");
                        let mut ids = out.vertex_ids.clone();
                        ids.sort_unstable();
                        assert_eq!(ids, (1..=n).collect::<Vec<_>>());
                        let mut edges = out.edge_ids.clone();
                        edges.sort_unstable();
                        assert_eq!(edges, (1..=n).collect::<Vec<_>>());
                        assert_eq!(to_f64(&out.normal.into_inner()), -V::y());
                        seen[0] += 1;
                    }
                    FeatureId::Edge(0) => {
                        assert_ne!(base, Some(true), "{what}: slant on the base's side");
                        assert_eq!(out.vertex_ids, vec![0, n + 1], "{what}");
                        assert_eq!(out.edge_ids, vec![0], "{what}");
                        assert!(
                            (vs[0] - V::y() * h).amax() <= tol,
                            "{what}: {vs:?} does not start at the apex"
                        );
                        // The rim end in d's azimuth (+x when d is along the axis).
                        let az = if d.xz().norm() > 1e-6 { azimuth } else { 0.0 };
                        let rim = V::new(r * az.cos(), -h, r * az.sin());
                        if d.xz().norm() > 1e-3 {
                            assert!(
                                (vs[1] - rim).amax() <= tol,
                                "{what}: rim point {:?}, want {rim:?}",
                                vs[1]
                            );
                        }
                        let s = to_f64(&cone.local_support_point(&d_t).coords);
                        let line = common::distance_to_segment(&s, &vs[0], &vs[1]);
                        assert!(line <= tol, "{what}: support {s:?} not on the slant line");
                        seen[1] += 1;
                    }
                    other => panic!("{what}: {other:?}"),
                }
            }
        }
        assert!(seen.iter().all(|&n| n > 100), "base, slant counts {seen:?}");
    }
    check::<f32>();
    check::<f64>();
}

/// Capsules and segments: the side line within 45° of perpendicular to the axis, else the
/// support point; the capsule's features are its core segment's pushed out by the radius along
/// `dir` (across the edge for the side line).
#[test]
fn capsule_and_segment_side_lines_switch_at_45_degrees() {
    fn check<T: Real>() {
        let mut rng = rng(24);
        let (h, r) = (T::lit(1.25).as_f64(), T::lit(0.4).as_f64());
        let capsule = Capsule::new(T::lit(h), T::lit(r)).expect("valid");
        let segment = capsule.segment();
        let spec = Spec::Capsule {
            half_height: h,
            radius: r,
        };
        let tol = tolerance::<T>(spec.scale());
        let (mut out, mut inner) = (SupportFeature::default(), SupportFeature::default());
        let mut seen = [0; 2];
        for theta in angles_around(&mut rng, std::f64::consts::FRAC_PI_2)
            .into_iter()
            .chain(angles_around(&mut rng, QUARTER))
            .chain(angles_around(&mut rng, 3.0 * QUARTER))
            .chain(angles_around(&mut rng, 0.2))
        {
            let azimuth = rng.random_range(0.0..std::f64::consts::TAU);
            let d = tilted(&V::y(), &V::new(azimuth.cos(), 0.0, azimuth.sin()), theta);
            let d_t = to_t::<T>(&d);
            capsule.local_support_feature(&d_t, &mut out);
            segment.local_support_feature(&d_t, &mut inner);
            let what = format!("capsule along {d:?} (θ = {theta}, {})", precision::<T>());
            check_feature(&out, &d, tol, &what);
            check_feature(&inner, &d, tol, &what);
            assert_eq!(
                (out.id, &out.vertex_ids, &out.edge_ids),
                (inner.id, &inner.vertex_ids, &inner.edge_ids),
                "{what}"
            );
            let offset = pushed_out(&vertices(&inner), &d) * r;
            for (v, w) in vertices(&out).iter().zip(vertices(&inner)) {
                assert!(
                    (v - (w + offset)).amax() <= tol,
                    "{what}: {v:?} is not {w:?} + r·(dir across the edge)"
                );
            }
            // Positive: closer to perpendicular than to the axis.
            let side = side_of(d.xz().norm() - d.y.abs());
            let s = to_f64(&capsule.local_support_point(&d_t).coords);
            let vs = vertices(&out);
            match out.id {
                FeatureId::Edge(0) => {
                    assert_ne!(side, Some(false), "{what}: side beyond 45°");
                    assert_eq!(out.vertex_ids, vec![0, 1]);
                    assert_eq!(out.edge_ids, vec![0]);
                    // The side line is on the capsule's cylindrical part (its ends a radius
                    // from the core), so the support point — on an end cap, r·dir from the
                    // core's end, when `dir` is tilted by α ≤ 45° — is r·|dir − across| =
                    // 2r·sin(α/2) from the line's end.
                    let (a, b) = (to_f64(&segment.a().coords), to_f64(&segment.b().coords));
                    for v in &vs {
                        let off = common::distance_to_segment(v, &a, &b) - r;
                        assert!(off.abs() <= tol, "{what}: {v:?} is {off:e} off the surface");
                    }
                    let tilt = (theta - std::f64::consts::FRAC_PI_2).abs();
                    let slack = 2.0 * r * (0.5 * tilt).sin();
                    assert!(
                        common::distance_to_segment(&s, &vs[0], &vs[1]) <= slack + tol,
                        "{what}"
                    );
                    seen[0] += 1;
                }
                FeatureId::Vertex(id) => {
                    assert_ne!(side, Some(true), "{what}: side expected");
                    assert_eq!(id, u32::from(d.y > 0.0), "{what}");
                    assert!((vs[0] - s).amax() <= tol, "{what}: {vs:?} vs support {s:?}");
                    seen[1] += 1;
                }
                other => panic!("{what}: {other:?}"),
            }
        }
        assert!(
            seen.iter().all(|&n| n > 100),
            "edge, vertex counts {seen:?}"
        );
    }
    check::<f32>();
    check::<f64>();
}

/// The direction a feature with `vertices` is pushed out in by a radius, for normal `n`: `n`,
/// or for an edge `n`'s component across the edge, normalised (so that the edge's ends land on
/// the rounded surface: pushed along an `n` not quite perpendicular to the edge they would be
/// inside it).
fn pushed_out(vertices: &[V], n: &V) -> V {
    match vertices {
        [a, b] => {
            let e = (b - a).normalize();
            (n - e * n.dot(&e)).normalize()
        }
        _ => *n,
    }
}

/// Every feature of every shape type (curved ones included) has a unit normal along `dir`, and
/// a rounded shape's feature is its inner shape's pushed out by the border radius along the
/// feature's normal (across the edge for an edge), with the same ids.
#[test]
fn round_features_are_inner_features_offset_by_the_radius() {
    fn check<T: Real>() {
        let mut rng = rng(25);
        let (mut out, mut inner) = (SupportFeature::default(), SupportFeature::default());
        for kind in KINDS {
            for spec in strategies::sample(kind, 12) {
                let spec = spec.rounded::<T>();
                let shape = spec.build::<T>();
                let tol = tolerance::<T>(spec.scale());
                for _ in 0..40 {
                    let d = random_unit(&mut rng);
                    let d_t = to_t::<T>(&d);
                    let d = to_f64(&d_t);
                    shape.local_support_feature(&d_t, &mut out);
                    let what = format!("{spec:?} along {d:?} ({})", precision::<T>());
                    check_feature(&out, &d, tol, &what);
                    let Shape::Round(round) = &shape else {
                        continue;
                    };
                    round.inner().local_support_feature(&d_t, &mut inner);
                    assert_eq!(
                        (out.id, out.normal, &out.vertex_ids),
                        (inner.id, inner.normal, &inner.vertex_ids),
                        "{what}"
                    );
                    let offset = pushed_out(&vertices(&inner), &to_f64(&out.normal.into_inner()))
                        * round.border_radius().as_f64();
                    for (v, w) in vertices(&out).iter().zip(vertices(&inner)) {
                        assert!(
                            (v - (w + offset)).amax() <= tol,
                            "{what}: {v:?} is not {w:?} + r·n (across the edge for an edge)"
                        );
                    }
                }
            }
        }
        // The generic `Round` struct too: a rounded box's top face is the box's, lifted.
        let round = Round::new(
            Cuboid::new(to_t::<T>(&V::new(1.0, 2.0, 3.0))).expect("valid"),
            T::lit(0.5),
        )
        .expect("valid");
        round.local_support_feature(&to_t(&V::new(0.1, 1.0, -0.2)), &mut out);
        assert_eq!(out.id, FeatureId::Face(2));
        for v in vertices(&out) {
            assert_eq!(v.y, 2.5);
        }
    }
    check::<f32>();
    check::<f64>();
}

/// `Shape::core` is exact: support(shape, d) = support(core, d) + radius · unit(d), for every
/// type, nested rounding included; shapes without rounding are their own core (radius 0).
#[test]
fn core_radius_decomposition_is_exact() {
    fn check<T: Real>() {
        let mut rng = rng(26);
        let mut specs: Vec<Spec> = KINDS
            .iter()
            .flat_map(|k| strategies::sample(k, 16))
            .collect();
        // Nested rounding (a rounded capsule rounded again): radii add up.
        specs.push(Spec::Round {
            inner: Box::new(Spec::Round {
                inner: Box::new(Spec::Capsule {
                    half_height: 1.0,
                    radius: 0.5,
                }),
                border_radius: 0.25,
            }),
            border_radius: 0.125,
        });
        for spec in specs {
            let spec = spec.rounded::<T>();
            let shape = spec.build::<T>();
            let (core, radius) = shape.core();
            let tol = tolerance::<T>(spec.scale());
            let want_radius = match &spec {
                Spec::Ball { radius } | Spec::Capsule { radius, .. } => *radius,
                Spec::Round { .. } => {
                    let mut total = 0.0;
                    let mut s = &spec;
                    while let Spec::Round {
                        inner,
                        border_radius,
                    } = s
                    {
                        total += border_radius;
                        s = inner;
                    }
                    total
                        + match s {
                            Spec::Ball { radius } | Spec::Capsule { radius, .. } => *radius,
                            _ => 0.0,
                        }
                }
                _ => 0.0,
            };
            assert!(
                (radius.as_f64() - want_radius).abs() <= tol,
                "{spec:?}: radius {radius}"
            );
            for _ in 0..50 {
                let d_t = to_t::<T>(&(random_unit(&mut rng) * rng.random_range(0.01..100.0)));
                let d = to_f64(&d_t);
                let full = to_f64(&shape.local_support_point(&d_t).coords);
                let from_core =
                    to_f64(&core.local_support_point(&d_t).coords) + unit(&d) * radius.as_f64();
                assert!(
                    (full - from_core).amax() <= tol,
                    "{spec:?} along {d:?} ({}): shape {full:?}, core + radius {from_core:?}",
                    precision::<T>()
                );
                if want_radius == 0.0 {
                    assert_eq!(
                        full,
                        to_f64(&core.local_support_point(&d_t).coords),
                        "{spec:?}"
                    );
                }
            }
        }
    }
    check::<f32>();
    check::<f64>();
}

/// `Shape::aabb(pose)`: contains dense samples of the posed shape, and every face of the box is
/// touched by the support point along that face's normal (tight); `local_aabb` is the analytic
/// box of the parameters.
#[test]
fn aabbs_contain_the_shape_and_are_tight() {
    fn check<T: Real>() {
        let mut rng = rng(27);
        let sphere = common::fibonacci_sphere(500);
        let mut contained = 0usize;
        for kind in KINDS {
            for spec in strategies::sample(kind, 16) {
                let spec = spec.rounded::<T>();
                let shape = spec.build::<T>();
                let local = shape.local_aabb();
                let (lo, hi) = spec.local_aabb();
                let tol = tolerance::<T>(spec.scale());
                let what = format!("{spec:?} ({})", precision::<T>());
                assert!(
                    (to_f64(&local.mins.coords) - lo).amax() <= tol
                        && (to_f64(&local.maxs.coords) - hi).amax() <= tol,
                    "{what}: local box {local:?}, want {lo:?} .. {hi:?}"
                );
                let samples = spec.samples(&mut rng);
                for _ in 0..8 {
                    let pose = random_pose::<T>(&mut rng, 20.0);
                    let aabb = shape.aabb(&pose);
                    assert!(aabb.is_finite(), "{what}");
                    let (mins, maxs) = (to_f64(&aabb.mins.coords), to_f64(&aabb.maxs.coords));
                    let t = to_f64(&pose.translation.vector);
                    let tol = tolerance::<T>(spec.scale() + t.norm());
                    for k in 0..3 {
                        for (sign, face) in [(1.0, maxs[k]), (-1.0, mins[k])] {
                            let e = to_t::<T>(&V::ith(k, sign));
                            let s = to_f64(&shape.support_point(&pose, &e).coords);
                            assert!(
                                (s[k] - face).abs() <= tol,
                                "{what} at {pose:?}: box face {face} along {}{k}, support reaches {}",
                                if sign > 0.0 { "+" } else { "−" },
                                s[k]
                            );
                        }
                    }
                    let rotation = pose.rotation.to_rotation_matrix().matrix().map(T::as_f64);
                    for p in samples.points(&sphere) {
                        let w = rotation * p + t;
                        assert!(
                            (0..3).all(|k| w[k] >= mins[k] - tol && w[k] <= maxs[k] + tol),
                            "{what} at {pose:?}: point {w:?} outside {mins:?} .. {maxs:?}"
                        );
                        contained += 1;
                    }
                }
            }
        }
        assert!(
            contained > 100_000,
            "only {contained} sample points checked"
        );
    }
    check::<f32>();
    check::<f64>();
}

/// Asserts `result` is an error whose Display names `shape` and the field in backticks.
#[track_caller]
fn assert_names<S: std::fmt::Debug>(
    result: Result<S, ShapeError>,
    shape: &str,
    field: &str,
    negative: bool,
) {
    let error = result.expect_err("invalid parameters must be rejected");
    let text = error.to_string();
    assert!(
        text.starts_with(&format!("{shape}: ")) && text.contains(&format!("`{field}`")),
        "{error:?} displays as {text:?}, which does not name {shape} and `{field}`"
    );
    match (&error, negative) {
        (ShapeError::Negative { field: f, .. }, true)
        | (ShapeError::NotFinite { field: f, .. }, false) => {
            assert_eq!(f, field);
        }
        _ => panic!("{error:?}: wrong variant (negative = {negative})"),
    }
}

#[test]
fn constructor_errors_name_the_field() {
    fn check<T: Real>() {
        let bad: [(T, bool); 4] = [
            (T::nan(), false),
            (T::infinity(), false),
            (T::neg_infinity(), false),
            (T::lit(-0.5), true),
        ];
        let one = T::one();
        for (x, negative) in bad {
            assert_names(Ball::new(x), "ball", "radius", negative);
            for k in 0..3 {
                let mut h = Vector::repeat(one);
                h[k] = x;
                assert_names(
                    Cuboid::new(h),
                    "cuboid",
                    ["half_extents.x", "half_extents.y", "half_extents.z"][k],
                    negative,
                );
            }
            assert_names(Capsule::new(x, one), "capsule", "half_height", negative);
            assert_names(Capsule::new(one, x), "capsule", "radius", negative);
            assert_names(Cylinder::new(x, one), "cylinder", "half_height", negative);
            assert_names(Cylinder::new(one, x), "cylinder", "radius", negative);
            assert_names(Cone::new(x, one), "cone", "half_height", negative);
            assert_names(Cone::new(one, x), "cone", "radius", negative);
            assert_names(
                Round::new(Ball::new(one).expect("valid"), x),
                "round",
                "border_radius",
                negative,
            );
            assert_names(
                Shape::round(Shape::Ball(Ball::new(one).expect("valid")), x),
                "round",
                "border_radius",
                negative,
            );
            if negative {
                continue; // points may have negative coordinates
            }
            for k in 0..3 {
                let mut p = Point::origin();
                p[k] = x;
                let axis = ["x", "y", "z"][k];
                let o = Point::origin();
                assert_names(Segment::new(p, o), "segment", &format!("a.{axis}"), false);
                assert_names(Segment::new(o, p), "segment", &format!("b.{axis}"), false);
                assert_names(
                    Triangle::new(p, o, o),
                    "triangle",
                    &format!("a.{axis}"),
                    false,
                );
                assert_names(
                    Triangle::new(o, p, o),
                    "triangle",
                    &format!("b.{axis}"),
                    false,
                );
                assert_names(
                    Triangle::new(o, o, p),
                    "triangle",
                    &format!("c.{axis}"),
                    false,
                );
                let cloud = [o, Point::new(one, one, one), o, p];
                assert_names(
                    ConvexPolyhedron::from_points(&cloud),
                    "convex",
                    &format!("points[3].{axis}"),
                    false,
                );
            }
        }
        let empty = ConvexPolyhedron::<T>::from_points(&[]).expect_err("no points");
        assert_eq!(empty, ShapeError::EmptyPointCloud);
        assert!(empty.to_string().contains("`points`"), "{empty}");
        // Zero sizes are valid (a point, a flat box, …), and so is −0.0, which is not below 0.
        assert!(Ball::new(T::zero()).is_ok() && Ball::new(-T::zero()).is_ok());
        assert!(Cuboid::<T>::new(Vector::zeros()).is_ok());
        // The first bad field is reported: capsule checks half_height before radius.
        assert_names(
            Capsule::new(T::nan(), T::lit(-1.0)),
            "capsule",
            "half_height",
            false,
        );
    }
    check::<f32>();
    check::<f64>();
}

/// Regression: `Triangle::new` took its normal as the normalised cross product of two edges.
///
/// * On a sliver whose vertices are collinear up to rounding the cross product is rounding noise
///   in an arbitrary direction. `a = (0.1, 0.3, 1)`, `b = (1, 2, 3)`, `c = (0.37, 0.81, 1.6)`
///   (`a + 0.3 (b − a)`, rounded) got the normal `−y`, 38° away from perpendicular to `ab`, so
///   its face polygon was far from planar about its normal — against the documented "some unit
///   vector perpendicular to it". A proptest of `local_support_feature` on random slivers found
///   it, in both precisions.
/// * On a proper triangle of size ~1e±160 (f64) or ~1e±20 (f32) the cross product under- or
///   overflowed, the degenerate fallback answered, and face 0's normal came out reversed
///   (`(0,0,0), (s,0,0), (0,s,0)` got `−z`).
///
/// The normal is now the cross product of the edges scaled to unit size, made perpendicular to
/// the longest edge: every vertex lies within ~ε·size of its plane, and the scale is irrelevant.
/// (Sizes of 1e±160 and 1e±20 are now beyond the input range and refused by the constructor;
/// the scales checked span the range.)
#[test]
fn triangle_normals_of_slivers_and_extreme_scales_are_right() {
    fn plane_error<T: Real>(t: &Triangle<T>) -> f64 {
        let n = to_f64(&t.normal().into_inner());
        let [a, b, c] = t.vertices().map(|p| to_f64(&p.coords));
        n.dot(&(b - a)).abs().max(n.dot(&(c - a)).abs())
    }
    fn check<T: Real>() {
        let p = |x: f64, y: f64, z: f64| Point::from(to_t::<T>(&V::new(x, y, z)));
        let sliver =
            Triangle::new(p(0.1, 0.3, 1.0), p(1.0, 2.0, 3.0), p(0.37, 0.81, 1.6)).expect("valid");
        let tol = tolerance::<T>(4.0);
        assert!(
            plane_error(&sliver) <= tol,
            "{sliver:?}: vertices {:e} off the face plane",
            plane_error(&sliver)
        );

        let mut rng = rng(28);
        for _ in 0..2000 {
            let (a, b) = (random_unit(&mut rng) * 3.0, random_unit(&mut rng) * 3.0);
            let c = a + (b - a) * rng.random_range(0.0..1.0);
            let t = Triangle::new(
                Point::from(to_t::<T>(&a)),
                Point::from(to_t(&b)),
                Point::from(to_t(&c)),
            )
            .expect("valid");
            assert!(
                plane_error(&t) <= tolerance::<T>(6.0),
                "{t:?}: {:e} off the plane",
                plane_error(&t)
            );
        }

        // Scales across the input range of docs/accuracy.md (f32: 1e-6 to 1e8; f64: 1e-60 to
        // 1e60; beyond it the constructor refuses), the smallest with its largest coordinate
        // above the smallest size.
        let exponents: &[i32] = if precision::<T>() == "f32" {
            &[-5, -3, 0, 3, 7]
        } else {
            &[-59, -40, -20, 0, 20, 40, 59]
        };
        for &e in exponents {
            let s = 10f64.powi(e);
            for _ in 0..50 {
                let [a, b, c] = [(); 3].map(|_| random_unit(&mut rng));
                let exact = (b - a).cross(&(c - a));
                if exact.norm() < 0.1 * (b - a).norm() * (c - a).norm() {
                    continue; // only well-shaped triangles have a normal known to ~ε
                }
                let q = |v: V| Point::from(to_t::<T>(&(v * s)));
                let t = Triangle::new(q(a), q(b), q(c)).expect("valid");
                // The exact normal of the rounded vertices, from coordinates rescaled to ~1.
                let [ra, rb, rc] = t.vertices().map(|v| to_f64(&v.coords) / s);
                let want = (rb - ra).cross(&(rc - ra)).normalize();
                let got = to_f64(&t.normal().into_inner());
                assert!(
                    got.dot(&want) > 1.0 - 1e-3,
                    "triangle at scale 1e{e} ({}): normal {got:?}, want {want:?}",
                    precision::<T>()
                );
            }
        }
    }
    check::<f32>();
    check::<f64>();
}

/// `SupportFeature::transform_by(pose)` of the feature along the local direction is the
/// feature of the posed shape: vertices and normal mapped by the pose, ids unchanged, and the
/// world support point along the world direction still on it (for polytope faces).
#[test]
fn transformed_features_follow_the_pose() {
    fn check<T: Real>() {
        let mut rng = rng(30);
        let mut out = SupportFeature::default();
        for kind in KINDS {
            for spec in strategies::sample(kind, 8) {
                let spec = spec.rounded::<T>();
                let shape = spec.build::<T>();
                for _ in 0..10 {
                    let pose = random_pose::<T>(&mut rng, 10.0);
                    let world_dir = to_t::<T>(&random_unit(&mut rng));
                    let local_dir = pose.inverse_transform_vector(&world_dir);
                    shape.local_support_feature(&local_dir, &mut out);
                    let local = out.clone();
                    out.transform_by(&pose);
                    let t = to_f64(&pose.translation.vector);
                    let tol = tolerance::<T>(spec.scale() + t.norm());
                    let what = format!("{spec:?} at {pose:?} ({})", precision::<T>());
                    assert_eq!((out.id, &out.vertex_ids), (local.id, &local.vertex_ids));
                    let rotation = pose.rotation.to_rotation_matrix().matrix().map(T::as_f64);
                    for (w, l) in vertices(&out).iter().zip(vertices(&local)) {
                        assert!(
                            (w - (rotation * l + t)).amax() <= tol,
                            "{what}: {w:?} vs {l:?}"
                        );
                    }
                    let n = to_f64(&out.normal.into_inner());
                    let want = rotation * to_f64(&local.normal.into_inner());
                    assert!(
                        (n - want).amax() <= tol,
                        "{what}: normal {n:?}, want {want:?}"
                    );
                    check_feature(&out, &to_f64(&world_dir), tol, &what);
                }
            }
        }
    }
    check::<f32>();
    check::<f64>();
}

/// `local_feature_distance` places every feature a shape reports where the feature is: each
/// vertex of a supporting feature is at distance 0 from its vertex id, each edge's midpoint
/// from its edge id, a face's centroid from its face id (rounded shapes' features pushed out by
/// the radius lie on the rounded surface over the core's, at distance 0 too) — for every shape
/// type but balls, which place none (hulls of every dimension among them). Then analytic
/// distances off the features (signed for rounded shapes, nested ones included), and ids a
/// shape does not have, up to `u32::MAX`, which give `None` without a panic.
#[test]
fn feature_distances_place_the_features_the_shapes_report() {
    fn check<T: Real>() {
        let mut rng = rng(41);
        let mut out = SupportFeature::default();
        for kind in KINDS {
            for spec in strategies::sample(kind, 12) {
                let spec = spec.rounded::<T>();
                let shape = spec.build::<T>();
                let tol = tolerance::<T>(spec.scale());
                // Balls place nothing.
                let places = match &shape {
                    Shape::Round(r) => !matches!(r.inner(), Shape::Ball(_)),
                    other => !matches!(other, Shape::Ball(_)),
                };
                for _ in 0..40 {
                    let d = to_t::<T>(&random_unit(&mut rng));
                    shape.local_support_feature(&d, &mut out);
                    let what = format!("{spec:?} along {d:?} ({})", precision::<T>());
                    let at = |id: FeatureId, p: V| {
                        let distance = shape.local_feature_distance(id, &Point::from(to_t(&p)));
                        match distance {
                            Some(d) if places => assert!(
                                d.as_f64().abs() <= tol,
                                "{what}: {id} is {d:?} from its own point {p:?}"
                            ),
                            None if !places => {}
                            other => panic!("{what}: {id} placed at {other:?}"),
                        }
                    };
                    let vs = vertices(&out);
                    for (v, &id) in vs.iter().zip(&out.vertex_ids) {
                        at(FeatureId::Vertex(id), *v);
                    }
                    for (k, &id) in out.edge_ids.iter().enumerate() {
                        at(FeatureId::Edge(id), (vs[k] + vs[(k + 1) % vs.len()]) / 2.0);
                    }
                    if vs.len() >= 3 {
                        at(out.id, vs.iter().sum::<V>() / vs.len() as f64);
                    }
                }
            }
        }

        // Off the features, with ids the shapes do not have.
        let n = DISC_POLYGON_VERTICES;
        let distance = |shape: &Shape<T>, id: FeatureId, p: [f64; 3]| {
            shape
                .local_feature_distance(id, &Point::from(to_t(&V::from(p))))
                .map(|d| d.as_f64())
        };
        let close = |got: Option<f64>, expected: f64| {
            got.is_some_and(|d| (d - expected).abs() <= tolerance::<T>(4.0))
        };
        let cylinder = Shape::Cylinder(Cylinder::new(T::lit(0.5), T::lit(0.4)).expect("valid"));
        let cases = [
            (FeatureId::Face(0), [0.0, 0.7, 0.0], 0.2),
            (FeatureId::Face(1), [0.1, 0.7, 0.0], 1.2),
            (FeatureId::Face(0), [0.7, 0.5, 0.0], 0.3),
            (FeatureId::Edge(2 * n), [0.6, 0.2, 0.0], 0.2),
            (FeatureId::Edge(2 * n), [0.0, 0.8, -0.6], 0.2f64.hypot(0.3)),
            (FeatureId::Vertex(2 * n + 1), [0.0, 0.5, 0.4], 0.0),
            (FeatureId::Vertex(2 * n + 2), [0.0, 0.5, 0.1], 0.3),
            (FeatureId::Vertex(2 * n), [0.0, 0.5, 0.4], 1.0),
            (FeatureId::Vertex(2 * n + 3), [-0.4, -0.5, 0.0], 0.0),
            (FeatureId::Vertex(0), [0.4, 0.6, 0.0], 0.1),
            (FeatureId::Vertex(n + 4), [0.0, -0.5, -0.4], 0.0),
            (FeatureId::Edge(n + 15), [0.4, -0.5, 0.0], 0.0),
        ];
        for (id, p, expected) in cases {
            let got = distance(&cylinder, id, p);
            assert!(
                close(got, expected),
                "cylinder {id} at {p:?}: {got:?}, not {expected}"
            );
        }
        for id in [
            FeatureId::Vertex(2 * n + 4),
            FeatureId::Edge(2 * n + 1),
            FeatureId::Face(2),
        ] {
            assert_eq!(distance(&cylinder, id, [0.0; 3]), None, "cylinder {id}");
        }

        let cone = Shape::Cone(Cone::new(T::lit(0.5), T::lit(0.5)).expect("valid"));
        let cases = [
            (FeatureId::Vertex(0), [0.0, 0.5, 0.0], 0.0),
            // The slant surface from (0, 0.5) to (0.5, −0.5) in every half-plane through y.
            (FeatureId::Edge(0), [0.5, 0.5, 0.0], 0.5 / 1.25f64.sqrt()),
            (FeatureId::Edge(0), [0.0, 0.5, -0.5], 0.5 / 1.25f64.sqrt()),
            (FeatureId::Edge(0), [0.0, 1.0, 0.0], 0.5),
            (FeatureId::Vertex(n + 1), [0.0, -0.5, 0.5], 0.0),
            (FeatureId::Vertex(n + 1), [0.0, -0.5, 0.0], 0.5),
            (FeatureId::Face(0), [0.1, -0.7, 0.0], 0.2),
            (FeatureId::Vertex(1), [0.5, -0.5, 0.0], 0.0),
            (FeatureId::Vertex(5), [0.0, -0.5, -0.5], 0.0),
            (FeatureId::Edge(n), [0.5, -0.5, 0.0], 0.0),
        ];
        for (id, p, expected) in cases {
            let got = distance(&cone, id, p);
            assert!(
                close(got, expected),
                "cone {id} at {p:?}: {got:?}, not {expected}"
            );
        }
        for id in [
            FeatureId::Vertex(n + 2),
            FeatureId::Edge(n + 1),
            FeatureId::Face(1),
        ] {
            assert_eq!(distance(&cone, id, [0.0; 3]), None, "cone {id}");
        }

        let cuboid = Shape::Cuboid(Cuboid::new(to_t(&V::new(0.5, 0.3, 0.4))).expect("valid"));
        let round = Shape::round(cuboid.clone(), T::lit(0.1)).expect("valid");
        let cases = [
            (FeatureId::Vertex(0), [0.6, 0.3, 0.4], 0.1),
            (FeatureId::Vertex(7), [-0.5, -0.3, -0.4], 0.0),
            // Edge 0 runs along x through vertex 0 (y and z positive).
            (FeatureId::Edge(0), [2.0, 0.3, 0.4], 1.5),
            (FeatureId::Edge(0), [0.0, 0.5, 0.4], 0.2),
            (FeatureId::Face(1), [-0.7, 0.0, 0.0], 0.2),
            (FeatureId::Face(1), [-0.5, 0.5, 0.0], 0.2),
        ];
        for (id, p, expected) in cases {
            let got = distance(&cuboid, id, p);
            assert!(
                close(got, expected),
                "cuboid {id} at {p:?}: {got:?}, not {expected}"
            );
            let got = distance(&round, id, p);
            let rounded = expected - 0.1;
            assert!(
                close(got, rounded),
                "round cuboid {id} at {p:?}: {got:?}, not {rounded}"
            );
        }
        for id in [
            FeatureId::Vertex(8),
            FeatureId::Edge(12),
            FeatureId::Face(6),
        ] {
            assert_eq!(distance(&cuboid, id, [0.0; 3]), None, "cuboid {id}");
        }

        let capsule = Shape::Capsule(Capsule::new(T::lit(0.4), T::lit(0.2)).expect("valid"));
        assert!(close(
            distance(&capsule, FeatureId::Edge(0), [0.2, 0.1, 0.0]),
            0.0
        ));
        assert!(close(
            distance(&capsule, FeatureId::Vertex(0), [0.0, -0.7, 0.0]),
            0.1
        ));
        assert!(close(
            distance(&capsule, FeatureId::Vertex(1), [0.0, -0.6, 0.0]),
            0.8
        ));
        assert_eq!(distance(&capsule, FeatureId::Vertex(2), [0.0; 3]), None);
        // A rounded capsule: both radii come off the segment's distance.
        let pill = Shape::round(capsule.clone(), T::lit(0.1)).expect("valid");
        assert!(close(
            distance(&pill, FeatureId::Edge(0), [0.3, 0.1, 0.0]),
            0.0
        ));
        assert!(close(
            distance(&pill, FeatureId::Edge(0), [0.1, 0.1, 0.0]),
            -0.2
        ));
        assert!(close(
            distance(&pill, FeatureId::Vertex(1), [0.0, 1.0, 0.0]),
            0.3
        ));

        let triangle = Shape::Triangle(
            Triangle::new(
                Point::origin(),
                Point::from(to_t(&V::x())),
                Point::from(to_t(&V::y())),
            )
            .expect("valid"),
        );
        let cases = [
            (FeatureId::Face(0), [0.2, 0.2, 0.5], 0.5),
            (FeatureId::Face(1), [0.2, 0.2, -0.5], 0.5),
            (FeatureId::Face(0), [2.0, 0.0, 0.0], 1.0),
            (FeatureId::Face(1), [0.5, 0.5, 0.0], 0.0),
            (FeatureId::Edge(1), [1.0, 1.0, 0.0], 0.5f64.sqrt()),
            (FeatureId::Vertex(2), [0.0, 1.0, 1.0], 1.0),
        ];
        for (id, p, expected) in cases {
            let got = distance(&triangle, id, p);
            assert!(
                close(got, expected),
                "triangle {id} at {p:?}: {got:?}, not {expected}"
            );
        }
        for id in [FeatureId::Vertex(3), FeatureId::Edge(3), FeatureId::Face(2)] {
            assert_eq!(distance(&triangle, id, [0.0; 3]), None, "triangle {id}");
        }

        // A hull of a unit cube: the face along +x, an edge, a vertex.
        let corners: Vec<Point<T>> = (0..8)
            .map(|i| {
                let c = |bit: u32| if i & (1 << bit) != 0 { -0.5 } else { 0.5 };
                Point::from(to_t(&V::new(c(0), c(1), c(2))))
            })
            .collect();
        let hull = ConvexPolyhedron::from_points(&corners).expect("a cube");
        let face = (0..hull.face_count())
            .find(|&f| hull.face(f).normal.x.as_f64() > 0.5)
            .expect("a +x face") as u32;
        let (a, b) = hull.edge_vertices(0).expect("edge 0");
        let corner = to_f64(&hull.vertex(a as usize).coords);
        let mid = (corner + to_f64(&hull.vertex(b as usize).coords)) / 2.0;
        let hull = Shape::Convex(std::sync::Arc::new(hull));
        let cases = [
            (FeatureId::Face(face), [1.5, 0.2, 0.1], 1.0),
            (FeatureId::Face(face), [0.5, 0.9, 0.0], 0.4),
            (FeatureId::Edge(0), (mid * 1.5).into(), mid.norm() * 0.5),
            (FeatureId::Vertex(a), (corner * 3.0).into(), 3f64.sqrt()),
        ];
        for (id, p, expected) in cases {
            let got = distance(&hull, id, p);
            assert!(
                close(got, expected),
                "hull {id} at {p:?}: {got:?}, not {expected}"
            );
        }
        for id in [FeatureId::Vertex(8), FeatureId::Face(6)] {
            assert_eq!(distance(&hull, id, [0.0; 3]), None, "hull {id}");
        }

        // Flat and one-dimensional hulls: a square's two faces are the square, a segment's
        // edge 0 is the segment.
        let square: Vec<Point<T>> = [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]]
            .map(|[x, z]| Point::from(to_t(&V::new(x, 0.0, z))))
            .to_vec();
        let square = Shape::Convex(std::sync::Arc::new(
            ConvexPolyhedron::from_points(&square).expect("a square"),
        ));
        for face in [0, 1] {
            let id = FeatureId::Face(face);
            assert!(
                close(distance(&square, id, [0.5, 0.3, 0.5]), 0.3),
                "square {id}"
            );
            assert!(close(
                distance(&square, id, [2.0, -0.1, 0.5]),
                1.0f64.hypot(0.1)
            ));
        }
        let rod: Vec<Point<T>> = [-1.0, 1.0]
            .map(|x| Point::from(to_t(&V::new(x, 0.0, 0.0))))
            .to_vec();
        let rod = Shape::Convex(std::sync::Arc::new(
            ConvexPolyhedron::from_points(&rod).expect("a segment"),
        ));
        assert!(close(
            distance(&rod, FeatureId::Edge(0), [0.5, 0.4, 0.0]),
            0.4
        ));
        assert!(
            close(distance(&rod, FeatureId::Vertex(1), [1.0, 0.0, 0.3]), 0.3)
                || close(distance(&rod, FeatureId::Vertex(0), [1.0, 0.0, 0.3]), 0.3)
        );

        // Any id: `None` or a number, never a panic.
        for (shape, name) in [
            (&cylinder, "cylinder"),
            (&cone, "cone"),
            (&cuboid, "cuboid"),
            (&round, "round cuboid"),
            (&capsule, "capsule"),
            (&pill, "rounded capsule"),
            (&triangle, "triangle"),
            (&hull, "hull"),
            (&square, "square"),
            (&rod, "rod"),
        ] {
            for id in [
                FeatureId::Vertex(u32::MAX),
                FeatureId::Edge(u32::MAX),
                FeatureId::Face(u32::MAX),
            ] {
                assert_eq!(distance(shape, id, [0.0; 3]), None, "{name} {id}");
            }
        }
    }
    check::<f32>();
    check::<f64>();
}

/// A merged face's loop can step between two vertices that the edge graph does not join (a
/// lattice cloud jittered by 1e-11: its faces merge triangles coplanar within the tolerance);
/// such a step has an edge id past the graph's, and `local_feature_distance` places it too:
/// the step's midpoint is on it, a point off it by its distance.
#[test]
fn merged_loop_steps_off_the_edge_graph_are_placed() {
    let mut steps = 0;
    for seed in 0..40u64 {
        let mut r = rng(seed);
        let cloud: Vec<Point<f64>> = (0..r.random_range(5..30))
            .map(|_| {
                let c =
                    |r: &mut rand_pcg::Pcg64| (r.random_range(-1.0f64..1.0) * 3.0).round() / 3.0;
                let (x, y, z) = (c(&mut r), c(&mut r), c(&mut r));
                Point::new(x, y, z + 1e-11 * r.random_range(-1.0..1.0))
            })
            .collect();
        let Ok(hull) = ConvexPolyhedron::from_points(&cloud) else {
            continue;
        };
        let mut out = SupportFeature::default();
        for f in 0..hull.face_count() {
            assert!(hull.face_feature(f, &mut out));
            let n = out.vertices.len();
            for k in 0..n {
                let e = out.edge_ids[k];
                if hull.edge_vertices(e).is_some() {
                    continue;
                }
                steps += 1;
                let (a, b) = (out.vertices[k], out.vertices[(k + 1) % n]);
                let shape = Shape::Convex(std::sync::Arc::new(hull.clone()));
                let at = |p: Point<f64>| shape.local_feature_distance(FeatureId::Edge(e), &p);
                let mid = a + (b - a) / 2.0;
                assert!(
                    at(mid).is_some_and(|d| d <= 1e-12),
                    "seed {seed}: step {e} at {mid:?}"
                );
                let off = mid + out.normal.into_inner() * 0.25;
                assert!(
                    at(off).is_some_and(|d| (d - 0.25).abs() <= 1e-12),
                    "seed {seed}: {e}"
                );
            }
        }
    }
    assert!(steps > 0, "no loop step off the edge graph in these clouds");
}
