//! Geometry of the pipeline's manifolds on random pairs of every type of shape, against the
//! exact one-shot query ([`query::contact`]) and point-to-shape distances:
//!
//! * a pair has a manifold exactly when its signed distance is within the prediction;
//! * the deepest manifold point agrees with the exact contact (docs/accuracy.md tolerance), and no
//!   point is deeper than it;
//! * every point pair lies on the two surfaces, `point2 − point1 = dist · normal`, and
//!   `dist ≤ prediction`;
//! * at most four points, no two closer than 1e-6 × scale.
//!
//! Plus the prediction distance on hand-made scenes: points up to `prediction` apart are kept
//! with a positive distance, points beyond are not.

mod common;

use common::*;
use nphase_math::nalgebra::UnitQuaternion;
use nphase_math::{Isometry, Point, Real, Vector};
use nphase_pipeline::query::{contact, distance};
use nphase_pipeline::{Collider, ContactManifold, NarrowPhase, NarrowPhaseConfig};
use nphase_shapes::{Ball, Cuboid, Cylinder, Shape};
use rand::Rng;

const PREDICTION: f64 = 0.05;

fn narrow_phase(prediction: f64) -> NarrowPhase<f64> {
    NarrowPhase::new(NarrowPhaseConfig {
        prediction,
        threads: 1,
        chunk_size: 64,
    })
    .expect("valid config")
}

/// Random pairs of every ordered combination of zoo shapes, `per_combo` each (half of them
/// aligned face to face as in a resting pile, half in random orientations), with signed
/// distances spread over [−0.1, 0.08] (some beyond the prediction distance).
fn random_scene(seed: u64, per_combo: usize) -> (Vec<Collider<f64>>, Vec<(usize, usize)>) {
    let zoo = zoo();
    let mut rng = rng(seed);
    let mut colliders = Vec::new();
    let mut pairs = Vec::new();
    for i in 0..zoo.len() {
        for j in 0..zoo.len() {
            for s in 0..per_combo {
                let target = rng.random_range(-0.1..0.08);
                let k = pairs.len() as u64;
                let (a, b) = random_pair(&zoo, (i, j), k, target, s % 2 == 0, &mut rng);
                pairs.push((colliders.len(), colliders.len() + 1));
                colliders.push(a);
                colliders.push(b);
            }
        }
    }
    (colliders, pairs)
}

/// The signed distance from world point `p` to the collider's surface (negative inside).
fn point_distance(p: &Point<f64>, c: &Collider<f64>) -> f64 {
    let point = Shape::Ball(Ball::new(0.0).expect("valid"));
    distance(&Iso::translation(p.x, p.y, p.z), &point, &c.pose, &c.shape).expect("finite input")
}

fn label(a: &Collider<f64>, b: &Collider<f64>) -> String {
    format!(
        "{:?} at {:?} vs {:?} at {:?}",
        a.shape.kind(),
        a.pose,
        b.shape.kind(),
        b.pose
    )
}

/// Every violated check, grouped by kind: all of them are reported, not just the first.
#[derive(Default)]
struct Failures(std::collections::BTreeMap<&'static str, Vec<String>>);

impl Failures {
    fn check(&mut self, ok: bool, kind: &'static str, message: impl FnOnce() -> String) {
        if !ok {
            self.0.entry(kind).or_default().push(message());
        }
    }

    fn assert_none(&self) {
        if self.0.is_empty() {
            return;
        }
        let mut report = String::new();
        for (kind, list) in &self.0 {
            report += &format!("\n{kind}: {} failure(s)\n", list.len());
            for m in list.iter().take(3) {
                report += &format!("  {m}\n");
            }
        }
        panic!("{report}");
    }
}

#[test]
fn manifolds_agree_with_the_exact_contact_and_lie_on_the_surfaces() {
    let (colliders, pairs) = random_scene(1, 10);
    let mut narrow = narrow_phase(PREDICTION);
    let manifolds: Vec<ContactManifold<f64>> = narrow
        .update(&colliders, &pairs)
        .expect("valid input")
        .to_vec();
    let (mut touching, mut penetrating, mut multi) = (0, 0, 0);
    let (mut points, mut strict_across) = (0, 0);
    let mut failures = Failures::default();
    for (&(ia, ib), m) in pairs.iter().zip(&manifolds) {
        let (a, b) = (&colliders[ia], &colliders[ib]);
        let what = || label(a, b);
        let scale = scale(&a.shape, &b.shape);
        let tol = rel_tol(&a.shape, &b.shape) * scale;
        let exact = contact(&a.pose, &a.shape, &b.pose, &b.shape, PREDICTION).expect("finite");
        let Some(exact) = exact else {
            failures.check(m.points.is_empty(), "points beyond the prediction", what);
            continue;
        };
        if m.points.is_empty() {
            failures.check(false, "no points", || format!("{}: {exact:?}", what()));
            continue;
        }
        touching += 1;
        penetrating += usize::from(exact.dist < 0.0);
        multi += usize::from(m.points.len() > 1);
        failures.check(m.points.len() <= 4, "more than 4 points", what);

        let deepest = m.deepest().expect("non-empty");
        failures.check(
            (deepest.dist - exact.dist).abs() <= tol,
            "deepest point differs from the exact contact",
            || {
                format!(
                    "{}: deepest {} vs exact {}",
                    what(),
                    deepest.dist,
                    exact.dist
                )
            },
        );
        let n = m.world_normal(&a.pose).into_inner();
        failures.check(
            (n - exact.normal1.into_inner()).norm() <= 1e-9,
            "normal differs from the exact contact",
            || format!("{}: normal {n:?} vs {:?}", what(), exact.normal1),
        );
        for (k, p) in m.points.iter().enumerate() {
            points += 1;
            let (p1, p2) = (a.pose * p.local_point1, b.pose * p.local_point2);
            failures.check(p.dist <= PREDICTION, "point beyond the prediction", || {
                format!("{}: point {k} at {}", what(), p.dist)
            });
            failures.check(
                p.dist >= exact.dist - tol,
                "point deeper than the exact contact",
                || {
                    format!(
                        "{}: point {k} at {} vs exact {}",
                        what(),
                        p.dist,
                        exact.dist
                    )
                },
            );
            // `dist` is the separation along the normal; across it the two points coincide,
            // except on (nearly) parallel edges — a capsule lying on a capsule — where they are
            // the closest points of edges up to FLAT_FEATURE_ANGLE (0.035 rad) out of parallel.
            let along = (p2 - p1).dot(&n);
            failures.check(
                (along - p.dist).abs() <= tol,
                "dist is not the separation along n",
                || {
                    format!(
                        "{}: point {k}: (p2 - p1)·n = {along}, dist {}",
                        what(),
                        p.dist
                    )
                },
            );
            let across = ((p2 - p1) - n * along).norm();
            failures.check(
                across <= 0.035 * scale,
                "p2 - p1 has a large part across n",
                || format!("{}: point {k}: {across:e} across n", what()),
            );
            strict_across += usize::from(across <= tol);
            // On the surfaces: the point-to-shape distance is zero (GJK/EPA on a point, an
            // independent path from the clipping that made the points).
            for (q, c) in [(p1, a), (p2, b)] {
                let d = point_distance(&q, c);
                failures.check(d.abs() <= tol, "point off its surface", || {
                    format!(
                        "{}: point {k} ({q:?}) {d:e} off {:?}",
                        what(),
                        c.shape.kind()
                    )
                });
            }
            for (l, other) in m.points.iter().enumerate().skip(k + 1) {
                let apart = (a.pose * other.local_point1 - p1).norm();
                failures.check(apart > 1e-6 * scale, "duplicate points", || {
                    format!("{}: points {k} and {l} {apart:e} apart", what())
                });
            }
        }
    }
    failures.assert_none();
    eprintln!(
        "{} pairs: {touching} touching, {penetrating} penetrating, {multi} with several points; \
         {points} points, {strict_across} with p2 - p1 = dist·n",
        pairs.len()
    );
    // Guard: the sample has separated and penetrating contacts, and full manifolds.
    let total = pairs.len();
    assert!(
        touching > total / 2 && touching < total,
        "{touching} of {total}"
    );
    assert!(
        penetrating > touching / 3 && penetrating < touching,
        "{penetrating} of {touching}"
    );
    assert!(multi > touching / 6, "{multi} of {touching}");
    // Points with a part across n (parallel edges) are the rare exception.
    assert!(
        strict_across * 100 >= points * 98,
        "{strict_across} of {points}"
    );
}

/// A unit cube above the ground by `gap`, tilted by `tilt` about z.
fn cube_above_ground(gap: f64, tilt: f64) -> Vec<Collider<f64>> {
    let ground = Collider {
        id: 0,
        shape: cuboid(2.0, 0.5, 2.0),
        pose: Iso::translation(0.0, -0.5, 0.0),
    };
    // The lowest corner of the tilted cube is 0.5(cos t + sin t) below its centre.
    let low = 0.5 * (tilt.cos() + tilt.sin());
    let cube = Collider {
        id: 1,
        shape: cuboid(0.5, 0.5, 0.5),
        pose: Iso::new(V::new(0.0, low + gap, 0.0), V::new(0.0, 0.0, tilt)),
    };
    vec![ground, cube]
}

#[test]
fn points_within_the_prediction_are_kept_with_a_positive_distance() {
    for (gap, expected) in [(0.0, 4), (0.03, 4), (0.0499, 4), (0.0501, 0), (0.2, 0)] {
        let colliders = cube_above_ground(gap, 0.0);
        let mut narrow = narrow_phase(PREDICTION);
        let m = &narrow.update(&colliders, &[(0, 1)]).expect("valid")[0];
        assert_eq!(m.points.len(), expected, "gap {gap}");
        for p in &m.points {
            assert!((p.dist - gap).abs() < 1e-12, "gap {gap}: dist {}", p.dist);
        }
    }
    // Tilted by 0.1 rad, lowest edge 0.01 above the ground: the far edge is
    // 0.01 + sin(0.1) ≈ 0.11 up, beyond the prediction; only the near edge's two corners stay.
    let colliders = cube_above_ground(0.01, 0.1);
    let mut narrow = narrow_phase(PREDICTION);
    let m = &narrow.update(&colliders, &[(0, 1)]).expect("valid")[0];
    assert_eq!(m.points.len(), 2, "{m:?}");
    for p in &m.points {
        assert!((p.dist - 0.01).abs() < 1e-12, "{}", p.dist);
    }
    // With a prediction of 0.2 all four corners are kept, the far ones at 0.01 + sin 0.1 (the
    // clipped corners are measured along the normal to the ground's top face).
    let mut narrow = narrow_phase(0.2);
    let m = &narrow.update(&colliders, &[(0, 1)]).expect("valid")[0];
    assert_eq!(m.points.len(), 4, "{m:?}");
    let mut dists: Vec<f64> = m.points.iter().map(|p| p.dist).collect();
    dists.sort_by(f64::total_cmp);
    let far = 0.01 + 0.1f64.sin();
    for (d, e) in dists.iter().zip([0.01, 0.01, far, far]) {
        assert!((d - e).abs() < 1e-12, "{dists:?}");
    }
    // A ball: kept at 0.049 with that distance, dropped at 0.051.
    for (gap, kept) in [(0.049, true), (0.051, false)] {
        let colliders = vec![
            cube_above_ground(0.0, 0.0).remove(0),
            Collider {
                id: 1,
                shape: Shape::Ball(Ball::new(0.3).expect("valid")),
                pose: Iso::translation(0.2, 0.3 + gap, -0.1),
            },
        ];
        let mut narrow = narrow_phase(PREDICTION);
        let m = &narrow.update(&colliders, &[(0, 1)]).expect("valid")[0];
        assert_eq!(!m.points.is_empty(), kept, "ball at {gap}");
        if kept {
            assert_eq!(m.points.len(), 1);
            assert!((m.points[0].dist - gap).abs() < 1e-12);
        }
    }
}

/// The manifold of the pair `(A, B)`: A is collider 0, B collider 1.
fn manifold_of(pair: &[Collider<f64>; 2]) -> ContactManifold<f64> {
    let mut narrow = narrow_phase(PREDICTION);
    narrow.update(pair, &[(0, 1)]).expect("valid")[0].clone()
}

/// A pair of colliders: `a` (id 0) and `b` (id 1), each a shape at a pose.
fn pair(a: (Shape<f64>, Iso), b: (Shape<f64>, Iso)) -> [Collider<f64>; 2] {
    [(0, a), (1, b)].map(|(id, (shape, pose))| Collider { id, shape, pose })
}

/// An edge lying along a face's side plane is not cut by it (a capsule perched over a box's
/// edge) only where it is parallel to it and beside the face by a small share of *both*
/// features: a capsule lying across a floor's edge (the floor 100 m wide, so that a share of
/// its size would be metres) is cut at the edge, both when it lies half over the floor and
/// when it is short enough to be within a share of the floor's size of the edge plane at
/// both ends; and near a cube's corner every point is on both surfaces.
#[test]
fn an_edge_is_cut_where_a_face_ends_unless_it_lies_along_the_face_edge() {
    use nphase_shapes::Capsule;
    let along_x = V::new(0.0, 0.0, std::f64::consts::FRAC_PI_2);
    for (half, centre) in [(0.5, 50.3), (0.003, 50.0)] {
        let pill = Shape::Capsule(Capsule::new(half, 0.1).expect("valid"));
        let pose = Iso::new(V::new(centre, 0.5 + 0.1 - 1e-3, 0.0), along_x);
        let floor = (cuboid(50.0, 0.5, 50.0), Iso::identity());
        let m = manifold_of(&pair(floor, (pill, pose)));
        assert!(!m.points.is_empty(), "half {half}");
        for p in &m.points {
            // The floor is at the origin: its frame is the world's.
            let (p1, p2) = (p.local_point1, pose * p.local_point2);
            assert!(
                p1.x <= 50.0 + 1e-9 && p2.x <= 50.0 + 1e-9,
                "half {half}: a point past the floor's edge: {m:?}"
            );
        }
    }
    // A short fat capsule over a cube's top face near a corner, turned 90° about z and 0.25°
    // about y: nearly along the edge.
    let pill = Shape::Capsule(Capsule::new(0.005, 0.5).expect("valid"));
    let turn = UnitQuaternion::from_axis_angle(&V::y_axis(), 0.25f64.to_radians())
        * UnitQuaternion::from_axis_angle(&V::z_axis(), std::f64::consts::FRAC_PI_2);
    let pose = Iso::from_parts(V::new(0.505, 1.001, 0.5).into(), turn);
    let colliders = pair((cuboid(0.5, 0.5, 0.5), Iso::identity()), (pill, pose));
    let m = manifold_of(&colliders);
    assert!(!m.points.is_empty());
    let [a, b] = &colliders;
    for p in &m.points {
        for (q, c) in [(a.pose * p.local_point1, a), (b.pose * p.local_point2, b)] {
            let d = point_distance(&q, c);
            assert!(
                d.abs() <= 1e-7,
                "{q:?} {d:e} off {:?}: {m:?}",
                c.shape.kind()
            );
        }
    }
}

/// A small shape resting on a large box, 1e-4 deep: a 2 cm box keeps its four corners and a
/// cylinder of radius 1 cm standing on its cap at least three points, on grounds from 1 m to 1 km
/// across, either shape as A, in f64 and f32. The merge radius of clipped twins was relative to
/// the larger feature: on a 200 m ground the box's corners came out as two points (one the
/// other way round), on a 1 km ground as one.
fn small_shapes_keep_their_points_on_large_ground<T: Real>() {
    let l = T::lit;
    let small = [
        (
            "box",
            Shape::Cuboid(Cuboid::new(Vector::new(l(0.01), l(0.01), l(0.01))).expect("valid")),
            0.01,
            4,
        ),
        (
            "cylinder",
            Shape::Cylinder(Cylinder::new(l(0.02), l(0.01)).expect("valid")),
            0.02,
            3,
        ),
    ];
    for ground_half in [1.0, 10.0, 100.0, 500.0] {
        for (name, shape, half_height, at_least) in &small {
            let ground = Collider {
                id: 0,
                shape: Shape::Cuboid(Cuboid::new(Vector::repeat(l(ground_half))).expect("valid")),
                pose: Isometry::translation(l(0.0), l(-ground_half), l(0.0)),
            };
            let resting = Collider {
                id: 1,
                shape: shape.clone(),
                pose: Isometry::translation(l(0.3), l(half_height - 1e-4), l(0.2)),
            };
            for pair in [(0, 1), (1, 0)] {
                let mut narrow = NarrowPhase::<T>::new(NarrowPhaseConfig {
                    prediction: T::zero(),
                    threads: 1,
                    chunk_size: 64,
                })
                .expect("valid config");
                let colliders = [ground.clone(), resting.clone()];
                let m = &narrow.update(&colliders, &[pair]).expect("valid")[0];
                assert!(
                    m.points.len() >= *at_least,
                    "{name} on a ground of half-size {ground_half}, pair {pair:?}: {m:?}"
                );
                for p in &m.points {
                    let tol = 1e-4 * 0.02 + T::TOLERANCES.rounding.as_f64() * 4.0 * ground_half;
                    assert!(
                        (p.dist.as_f64() + 1e-4).abs() <= tol,
                        "{name} on {ground_half}, {pair:?}: depth {}",
                        p.dist
                    );
                }
            }
        }
    }
}

#[test]
fn small_shapes_keep_their_points_on_large_ground_f64() {
    small_shapes_keep_their_points_on_large_ground::<f64>();
}

#[test]
fn small_shapes_keep_their_points_on_large_ground_f32() {
    small_shapes_keep_their_points_on_large_ground::<f32>();
}
