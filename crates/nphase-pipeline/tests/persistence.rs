//! The pipeline's state across frames: contact ids persist while the same features touch, the
//! engine's impulses come back on the points with the same ids, pairs that leave the
//! broadphase start cold when they return, warm starts change nothing but the work, and bad
//! input is refused with the culprit named (and without touching the state).

mod common;

use common::*;
use nphase_gjk::SimplexCache;
use nphase_math::nalgebra::{Quaternion, UnitQuaternion};
use nphase_pipeline::{
    Collider, ContactId, ContactManifold, DEPTH_HYSTERESIS, NarrowPhase, NarrowPhaseConfig,
    PairInput, PairState, PairWorkspace, PipelineError, update_manifold,
};
use rand::Rng;

/// Pairs that started from their cached state: GJK's simplex, or a polytope pair's
/// separating-axis feature that won again.
fn warm(narrow: &NarrowPhase<f64>) -> u64 {
    narrow.stats().warm_starts + narrow.stats().sat_cache_hits
}

fn narrow_phase(threads: usize) -> NarrowPhase<f64> {
    NarrowPhase::new(NarrowPhaseConfig {
        prediction: 0.02,
        threads,
        chunk_size: 64,
    })
    .expect("valid config")
}

fn ground() -> Collider<f64> {
    Collider {
        id: 100,
        shape: cuboid(3.0, 0.5, 3.0),
        pose: Iso::translation(0.0, -0.5, 0.0),
    }
}

/// A unit cube resting 0.01 deep at `x`, turned by `turn` about the vertical, given as the hull
/// of its corners. These tests are about the state a pair carries across frames: for this
/// polytope pair, the separating-axis feature (a warm start is a cached feature that won
/// again, see [`warm`]).
fn cube(id: u64, x: f64, turn: f64) -> Collider<f64> {
    let corners: Vec<nphase_math::Point<f64>> = (0..8)
        .map(|i| {
            let s = |bit: u32| if i & (1 << bit) == 0 { 0.5 } else { -0.5 };
            nphase_math::Point::new(s(0), s(1), s(2))
        })
        .collect();
    Collider {
        id,
        shape: nphase_shapes::Shape::convex(&corners).expect("a cube"),
        pose: Iso::new(V::new(x, 0.49, 0.1 * x), V::new(0.0, turn, 0.0)),
    }
}

fn ids(m: &ContactManifold<f64>) -> Vec<ContactId> {
    let mut ids: Vec<ContactId> = m.points.iter().map(|p| p.id).collect();
    ids.sort_unstable();
    ids
}

/// The engine's side: writes an impulse derived from the id and the frame into every point.
fn write_impulses(narrow: &mut NarrowPhase<f64>, frame: u32) {
    for m in narrow.manifolds_mut() {
        for p in &mut m.points {
            p.normal_impulse = impulse(p.id, frame);
        }
    }
}

fn impulse(id: ContactId, frame: u32) -> f64 {
    (id.pack() % 1000) as f64 + f64::from(frame) * 1e-3
}

/// A cube sliding slowly over the ground (2 mm per frame, 100 frames) keeps its four ids,
/// every point after the first frame is `persisted` and carries the impulse the engine wrote
/// for its id the frame before.
#[test]
fn ids_and_impulses_persist_while_a_box_slides_on_a_box() {
    let mut narrow = narrow_phase(1);
    let mut first_ids = Vec::new();
    for frame in 0..100u32 {
        let colliders = [ground(), cube(1, -0.5 + 0.002 * f64::from(frame), 0.0)];
        let m = &narrow.update(&colliders, &[(0, 1)]).expect("valid")[0];
        assert_eq!(m.points.len(), 4, "frame {frame}");
        if frame == 0 {
            first_ids = ids(m);
            assert!(
                m.points
                    .iter()
                    .all(|p| !p.persisted && p.normal_impulse == 0.0)
            );
        } else {
            assert_eq!(ids(m), first_ids, "frame {frame}: ids changed");
            for p in &m.points {
                assert!(p.persisted, "frame {frame}: id {} not persisted", p.id);
                // Copied, not computed: exact.
                assert_eq!(p.normal_impulse, impulse(p.id, frame - 1), "frame {frame}");
            }
        }
        assert_eq!(warm(&narrow), u64::from(frame > 0));
        write_impulses(&mut narrow, frame);
    }
    let mut distinct = first_ids.clone();
    distinct.dedup();
    assert_eq!(distinct.len(), 4, "four distinct ids");
}

/// A turned cube on another cube: the overlap of the two squares is an octagon of clipped
/// points, reduced to four. While the top cube slides slowly (and keeps its orientation) the
/// same four octagon vertices are kept, with the same ids: the reduction must not flicker
/// between equally deep points from one frame's rounding to the next.
#[test]
fn ids_persist_on_a_reduced_manifold_while_a_turned_box_slides() {
    let mut narrow = narrow_phase(1);
    let base = Collider {
        id: 7,
        shape: cuboid(0.5, 0.5, 0.5),
        pose: Iso::translation(0.0, -0.5, 0.0),
    };
    let mut first_ids = Vec::new();
    let mut changes = 0;
    for frame in 0..60u32 {
        let x = 0.0005 * f64::from(frame);
        let top = Collider {
            id: 8,
            shape: cuboid(0.5, 0.5, 0.5),
            pose: Iso::new(V::new(x, 0.49, -0.5 * x), V::new(0.0, 0.3, 0.0)),
        };
        let m = &narrow
            .update(&[base.clone(), top], &[(0, 1)])
            .expect("valid")[0];
        assert_eq!(m.points.len(), 4, "frame {frame}");
        if frame == 0 {
            first_ids = ids(m);
        } else if ids(m) != first_ids {
            changes += 1;
        }
        write_impulses(&mut narrow, frame);
    }
    assert_eq!(
        changes, 0,
        "the kept points changed in {changes} of 59 frames"
    );
}

/// A pair absent from one frame's list loses its state: when it returns, its points are new
/// (not persisted, no impulse) and its GJK starts cold; the pair that stayed is unaffected.
/// Pairs are matched by their colliders' ids, not by their position in the list.
#[test]
fn a_pair_that_leaves_the_broadphase_starts_cold_when_it_returns() {
    // The cubes drift by 0.1 mm a frame, so that every pair is queried (a pose that did not
    // change would reuse its manifold without a query).
    let at = |frame: u32| {
        let drift = 1e-4 * f64::from(frame);
        [
            ground(),
            cube(1, -1.5 + drift, 0.0),
            cube(2, 1.5 + drift, 0.2),
        ]
    };
    let colliders = at(0);
    let mut narrow = narrow_phase(1);
    narrow.update(&colliders, &[(0, 1), (0, 2)]).expect("valid");
    write_impulses(&mut narrow, 0);

    // Frame 1: only (0, 2), now first in the list.
    let colliders = at(1);
    let m = narrow.update(&colliders, &[(0, 2)]).expect("valid")[0].clone();
    assert!(
        m.points
            .iter()
            .all(|p| p.persisted && p.normal_impulse != 0.0)
    );
    assert_eq!(warm(&narrow), 1);
    write_impulses(&mut narrow, 1);

    // Frame 2: (0, 1) is back, after (0, 2).
    let colliders = at(2);
    let ms = narrow
        .update(&colliders, &[(0, 2), (0, 1)])
        .expect("valid")
        .to_vec();
    assert_eq!(warm(&narrow), 1, "only the pair that stayed is warm");
    assert!(
        ms[0]
            .points
            .iter()
            .all(|p| p.persisted && p.normal_impulse == impulse(p.id, 1))
    );
    assert_eq!(ms[1].points.len(), 4);
    assert!(
        ms[1]
            .points
            .iter()
            .all(|p| !p.persisted && p.normal_impulse == 0.0),
        "{:?}",
        ms[1]
    );

    // The same pair listed the other way round is another pair (its normal is reversed).
    write_impulses(&mut narrow, 2);
    let colliders = at(3);
    let ms = narrow
        .update(&colliders, &[(2, 0), (1, 0)])
        .expect("valid")
        .to_vec();
    assert_eq!(warm(&narrow), 0);
    assert!(ms.iter().flat_map(|m| &m.points).all(|p| !p.persisted));
    let n = ms[0].world_normal(&colliders[2].pose);
    assert!(n.y < -0.99, "{n:?}");
}

/// Bad input is refused with the culprit named, before anything changes: the next valid
/// update still carries the impulses of the last good one.
#[test]
fn input_errors_name_the_culprit_and_leave_the_state_alone() {
    let mut colliders = vec![ground(), cube(1, 0.0, 0.0), cube(2, 1.5, 0.0)];
    let mut narrow = narrow_phase(1);
    narrow.update(&colliders, &[(0, 1)]).expect("valid");
    write_impulses(&mut narrow, 0);

    let err = narrow
        .update(&colliders, &[(0, 1), (2, 5)])
        .expect_err("out of range");
    assert_eq!(
        err,
        PipelineError::PairOutOfRange {
            pair: 1,
            collider: 5
        }
    );
    assert_eq!(
        err.to_string(),
        "pairs[1]: collider index 5 is out of range"
    );

    let err = narrow
        .update(&colliders, &[(0, 1), (0, 2), (2, 2)])
        .expect_err("self pair");
    assert_eq!(err, PipelineError::SelfPair { pair: 2 });
    assert!(err.to_string().starts_with("pairs[2]:"), "{err}");

    colliders[2].pose.translation.vector.y = f64::NAN;
    let err = narrow.update(&colliders, &[(0, 1)]).expect_err("NaN pose");
    assert_eq!(err, PipelineError::NonFinitePose { id: 2 });
    assert!(err.to_string().starts_with("collider 2:"), "{err}");
    colliders[2].pose.rotation =
        UnitQuaternion::new_unchecked(Quaternion::new(f64::INFINITY, 0.0, 0.0, 0.0));
    colliders[2].pose.translation.vector.y = 0.0;
    assert_eq!(
        narrow.update(&colliders, &[(0, 1)]),
        Err(PipelineError::NonFinitePose { id: 2 })
    );
    colliders[2] = cube(2, 1.5, 0.0);

    for prediction in [-0.1, f64::NAN, f64::INFINITY] {
        let err = NarrowPhase::new(NarrowPhaseConfig {
            prediction,
            ..NarrowPhaseConfig::default()
        })
        .expect_err("bad prediction");
        assert_eq!(err, PipelineError::InvalidPrediction);
    }

    let m = &narrow.update(&colliders, &[(0, 1)]).expect("valid")[0];
    assert!(
        m.points
            .iter()
            .all(|p| p.persisted && p.normal_impulse == impulse(p.id, 0)),
        "the refused updates changed the state: {m:?}"
    );
}

/// The whole warm-start record of a resting cube tumbling slowly on the ground (1e-3 rad per
/// frame about a fixed tilted axis, 100 frames): every point keeps the normal and tangent
/// impulses the engine wrote for its id, the twist impulse stays while points persist, and the
/// tangent basis turns with the normal by at most the normal's own turn (no re-derivation that
/// flips it), perpendicular to the normal.
#[test]
fn tangent_basis_and_every_impulse_carry_over() {
    let (ground, cube) = (cuboid(3.0, 0.5, 3.0), cuboid(0.5, 0.5, 0.5));
    let (mut state, mut manifold) = (PairState::new(), ContactManifold::default());
    let mut workspace = PairWorkspace::new();
    let axis = V::new(0.3, 1.0, -0.2).normalize();
    let mut last: Option<ContactManifold<f64>> = None;
    for frame in 0..100u32 {
        let turn = UnitQuaternion::from_scaled_axis(axis * (1e-3 * f64::from(frame)));
        let input = PairInput {
            shape1: &ground,
            shape2: &cube,
            pos12: Iso::from_parts(V::new(0.2, 0.998, 0.1).into(), turn),
            prediction: 0.02,
        };
        update_manifold(&input, &mut state, &mut manifold, &mut workspace);
        assert!(!manifold.points.is_empty(), "frame {frame}");
        let (n, t) = (manifold.local_normal1, manifold.local_tangent1);
        assert!(
            n.dot(&t).abs() < 1e-12,
            "frame {frame}: tangent not in the plane"
        );
        if let Some(last) = &last {
            let normal_turn = (n.into_inner() - last.local_normal1.into_inner()).norm();
            let tangent_turn = (t.into_inner() - last.local_tangent1.into_inner()).norm();
            assert!(
                tangent_turn <= normal_turn + 1e-12,
                "frame {frame}: tangent turned {tangent_turn:e}, normal {normal_turn:e}"
            );
            assert_eq!(manifold.twist_impulse, 7.0, "frame {frame}");
            for p in &manifold.points {
                let q = last.points.iter().find(|q| q.id == p.id);
                let q = q.unwrap_or_else(|| panic!("frame {frame}: {} is new", p.id));
                assert!(p.persisted);
                assert_eq!(p.normal_impulse, q.normal_impulse);
                assert_eq!(p.tangent_impulse, q.tangent_impulse);
            }
        }
        // The engine's solver writes what it applied.
        for p in &mut manifold.points {
            let seed = (p.id.pack() % 1000) as f64 + f64::from(frame);
            p.normal_impulse = seed;
            p.tangent_impulse = [-seed, 0.5 * seed];
        }
        manifold.twist_impulse = 7.0;
        last = Some(manifold.clone());
    }
}

/// Random pairs of every type of shape in slow motion, run twice: warm (one pipeline for all
/// frames) and cold (each pair through the per-pair unit with GJK's cache emptied before every
/// frame, keeping only the manifold's memory — last frame's points and reference side, which
/// decide ids and reduction by design). Warm starting changes the work, not the answer: in
/// every manifold the normals agree (within the angle their support gaps allow) and so do the
/// deepest points' distances (within twice the tolerance and the manifold's depth hysteresis,
/// by which a kept point may be shallower); and the manifolds are the same — the same points
/// with the same ids, distances and positions within docs/accuracy.md's tolerance — except
/// where one of the manifold's decisions lies within the normals' difference of its threshold
/// (a curved shape's part, an incident edge along a side plane, a name within `τ`): two
/// normals that differ within the tolerance then take it either way, and the other points with
/// it. Those manifolds are counted over eight seeds and must stay rare: at most one in 500 of
/// those compared (36 of 25 234; with GJK's warm start from the cached axis alone, before
/// curved simplices were kept as directions, 42 — seed 5, once this test's only seed, had
/// none).
#[test]
fn warm_and_cold_pipelines_give_the_same_manifolds() {
    let (mut compared, mut differing) = (0, 0);
    for seed in 5..13 {
        let (c, d) = warm_and_cold(seed);
        compared += c;
        differing += d;
    }
    eprintln!("{differing} of {compared} manifolds differ between the warm and the cold pipeline");
    assert!(
        differing * 500 <= compared,
        "{differing} of {compared} manifolds differ"
    );
}

/// One seed of [`warm_and_cold_pipelines_give_the_same_manifolds`]: how many manifolds were
/// compared, and how many of them differ (in their ids, or a point's distance or position
/// beyond the tolerance). Asserts the normals and the deepest distances of every manifold.
fn warm_and_cold(seed: u64) -> (usize, usize) {
    let zoo = zoo();
    let mut rng = rng(seed);
    let mut colliders = Vec::new();
    let mut pairs = Vec::new();
    let mut velocities = Vec::new();
    for i in 0..zoo.len() {
        for j in 0..zoo.len() {
            for s in 0..4 {
                let target = rng.random_range(-0.06..0.0);
                let k = pairs.len() as u64;
                let (a, b) = random_pair(&zoo, (i, j), k, target, s % 2 == 0, &mut rng);
                pairs.push((colliders.len(), colliders.len() + 1));
                colliders.push(a);
                colliders.push(b);
                // B drifts and turns slowly relative to A.
                velocities.push((random_unit(&mut rng) * 1e-3, random_unit(&mut rng) * 2e-3));
            }
        }
    }
    let mut warm = narrow_phase(1);
    let prediction = warm.config().prediction;
    let mut cold: Vec<(PairState<f64>, ContactManifold<f64>)> =
        vec![(PairState::new(), ContactManifold::default()); pairs.len()];
    let mut workspace = PairWorkspace::new();
    let mut warm_iterations = 0;
    let mut cold_iterations = 0;
    let (mut compared, mut differing) = (0, 0);
    let (mut worst_normal, mut worst_dist, mut worst_point) = (0.0f64, 0.0f64, 0.0f64);
    for frame in 0..8 {
        let w = warm.update(&colliders, &pairs).expect("valid").to_vec();
        warm_iterations += warm.stats().gjk_iterations;
        for ((state, manifold), &(ia, ib)) in cold.iter_mut().zip(&pairs) {
            let (a, b) = (&colliders[ia], &colliders[ib]);
            state.cache = SimplexCache::EMPTY;
            let input = PairInput {
                shape1: &a.shape,
                shape2: &b.shape,
                pos12: a.pose.inv_mul(&b.pose),
                prediction,
            };
            let outcome = update_manifold(&input, state, manifold, &mut workspace);
            assert!(!outcome.warm_started);
            cold_iterations += u64::from(outcome.gjk_iterations);
        }
        let c: Vec<ContactManifold<f64>> = cold.iter().map(|(_, m)| m.clone()).collect();
        for (k, ((mw, mc), &(ia, ib))) in w.iter().zip(&c).zip(&pairs).enumerate() {
            let (a, b) = (&colliders[ia], &colliders[ib]);
            let what = format!(
                "frame {frame}, pair {k} ({:?} vs {:?})",
                a.shape.kind(),
                b.shape.kind()
            );
            let tol = rel_tol(&a.shape, &b.shape) * scale(&a.shape, &b.shape);
            assert_eq!(mw.points.is_empty(), mc.points.is_empty(), "{what}");
            if mw.points.is_empty() {
                continue;
            }
            compared += 1;
            // Each distance is within docs/accuracy.md's tolerance of the exact one, so the two are
            // within twice that of each other. The normal is held to its support gap (docs/accuracy.md:
            // the gap along it is the true distance within the tolerance), which is second
            // order in its angle on curved surfaces: an angle δ costs about δ²·scale, so
            // normals may differ by √(tol/scale) and the points they place by √(tol·scale).
            let scale = scale(&a.shape, &b.shape);
            let angle_tol = (tol / scale).sqrt();
            let dn = (mw.local_normal1.into_inner() - mc.local_normal1.into_inner()).norm();
            worst_normal = worst_normal.max(dn / angle_tol);
            assert!(dn <= angle_tol, "{what}: normals {dn:e} apart");
            // Each deepest point is the exact contact's depth, or up to the depth hysteresis
            // shallower where last frame's point is kept (the manifold's design).
            let deepest_dist = |m: &ContactManifold<f64>| m.deepest().map(|p| p.dist);
            let (dw, dc) = (deepest_dist(mw), deepest_dist(mc));
            let dd = (dw.unwrap_or(f64::NAN) - dc.unwrap_or(f64::NAN)).abs();
            let hysteresis = DEPTH_HYSTERESIS * scale;
            assert!(
                dd <= 2.0 * tol + hysteresis,
                "{what}: deepest {dw:?} vs {dc:?}"
            );
            if mw.points.len() != mc.points.len() || ids(mw) != ids(mc) {
                differing += 1;
                eprintln!("{what}: {:?} vs {:?}", mw.points, mc.points);
                continue;
            }
            // The deepest point is the exact contact's depth in both, so within twice the
            // tolerance; every other point is a feature point measured along the normal (and a
            // rounded feature is pushed out along it), which moves at first order with the
            // normal: by up to the normals' difference times the features' size.
            let deepest = mw.deepest().map(|p| p.id);
            let mut same = true;
            for pw in &mw.points {
                let pc = mc.points.iter().find(|p| p.id == pw.id).expect("same ids");
                let dd = (pw.dist - pc.dist).abs();
                let dist_tol = if Some(pw.id) == deepest {
                    2.0 * tol
                } else {
                    2.0 * tol + dn * scale
                };
                let dp = (pw.local_point1 - pc.local_point1).norm();
                if dd <= dist_tol && dp <= angle_tol * scale {
                    worst_dist = worst_dist.max(dd / dist_tol);
                    worst_point = worst_point.max(dp / (angle_tol * scale));
                } else {
                    same = false;
                    eprintln!(
                        "{what}: dist {} vs {}, points {dp:e} apart",
                        pw.dist, pc.dist
                    );
                }
            }
            differing += usize::from(!same);
        }
        for ((a, b), (v, w)) in pairs.iter().zip(&velocities) {
            let _ = a;
            let pose = &mut colliders[*b].pose;
            pose.translation.vector += v;
            pose.rotation = UnitQuaternion::from_scaled_axis(*w) * pose.rotation;
        }
    }
    eprintln!(
        "seed {seed}: {compared} manifolds compared, {differing} differ; worst differences / \
         tolerance where the same: normal {worst_normal:.3}, dist {worst_dist:.3}, point \
         {worst_point:.3}; GJK iterations warm {warm_iterations}, cold {cold_iterations}"
    );
    // Guard: most pairs touch, and warm starting did save work.
    assert!(compared > 8 * pairs.len() / 2, "{compared}");
    // (Ids are named by features, not by how GJK got there: before the witness took over the
    // id of a clipped point at its place, 25 of seed 5's 3147 manifolds had other ids — a hull
    // vertex on a rounded cylinder's side, whose clipped twin's id depended on which of the
    // two side planes at the vertex it crossed first.)
    assert!(
        warm_iterations < cold_iterations,
        "{warm_iterations} vs {cold_iterations}"
    );
    (compared, differing)
}
