//! Certified reuse across frames against full recomputation.
//!
//! Coherent random sequences of every pair of shape kinds (the zoo) run through the per-pair
//! unit with one state and manifold kept across frames, in four motions — *moving* (B drifts
//! 1e-3 units and turns 1e-3 rad a frame), *resting* (B still, a jitter on one frame in four),
//! *tumbling* (B turns 0.05 rad a frame about a random axis), *creeping* (B drifts and turns by
//! a tenth to a fifth of the still allowance `accuracy × small` a frame, as a resting body
//! does in an engine) — from placements near contact and apart (up to 0.6 units). Every frame
//! that a shortcut answered is checked against a cold, full query of the same pose:
//!
//! * `Unchanged`: the pose is bitwise the last full computation's, so the cold query must have
//!   a contact exactly when the manifold has points, the normal's support gap within
//!   docs/accuracy.md's tolerance of it, and the deepest point's distance never deeper than it
//!   by more than that tolerance, nor shallower by more than `DEPTH_HYSTERESIS` × size (the
//!   manifold keeps last frame's points within that margin, the cold query has no history);
//! * `Apart`: the cold query must find no contact within the prediction (its certified lower
//!   bound beyond it, up to the tolerance), and the lower bound the shortcut reports must be
//!   at most the exact distance (a cold query without a prediction limit), up to the
//!   tolerance;
//! * `Still`: as `Unchanged`, with the cold query's distance allowed up to the tolerance past
//!   the prediction (B has moved), and the lower bound it reports at most the cold distance
//!   (up to the tolerance); and against the full computation the pair would have run
//!   with its history (its state and last manifold as they were): the same ids, each point as
//!   deep within the manifold's depth margin, on at least 95 % of a case's still frames (the
//!   others are where the full computation itself changes its points under motions below the
//!   accuracy: `Paths::still_unlike`);
//! * a full computation whose EPA started from the polytope the pair kept (`epa_warm`), or that
//!   a face normal and a point inside answered from last frame's normal (`face_certified`): the
//!   cold query (GJK, EPA from scratch) must find a contact with the same distance, and each
//!   normal's support gap must match the other's distance, within docs/accuracy.md's tolerance.
//!
//! Every full computation's manifold is built again without the supporting features its query
//! handed over ([`SupportHints`]): the same points, ids and history, bit for bit.
//!
//! A guard checks that both shortcuts were taken often, and full computations and hand-overs
//! too.

mod common;

use common::{Iso, V, random_pair, random_unit, rel_tol, rng, scale, support_gap, zoo};
use nphase_gjk::SimplexCache;
use nphase_math::Real;
use nphase_math::nalgebra::UnitQuaternion;
use nphase_pipeline::{
    ContactManifold, DEPTH_HYSTERESIS, ManifoldInput, ManifoldWorkspace, PairInput, PairState,
    PairWorkspace, Reuse, SupportHints, query_pair, update_manifold,
};
use nphase_shapes::{FeatureId, Shape};
use proptest::prelude::*;
use rand::Rng;

const PREDICTION: f64 = 0.02;
const FRAMES: usize = 24;

/// Counts of each path, over a run.
#[derive(Debug, Default)]
struct Paths {
    computed: usize,
    unchanged: usize,
    apart: usize,
    still: usize,
    /// Still frames whose full computation came out with other points (other ids, or a point
    /// with the same id elsewhere): where the full computation itself changes its points under
    /// a motion below the accuracy (a cylinder on
    /// a triangle at the switch between its cap and its side: one vertex, then four points of
    /// the cap, then the vertex again, as the pose creeps by 1e-12; a cone's slant line ending
    /// on a hull face's corner); the shortcut holds the last full computation's.
    still_unlike: usize,
    /// Computed frames whose query handed supporting features to the manifold.
    handed: usize,
    /// Computed frames of two hulls interpenetrating face to something: a supporting face
    /// whose normal is the contact normal (the separating-axis test that measures
    /// interpenetrating hulls found that face, and its query hands it over; an edge–edge
    /// contact has none to hand, and separated hulls are measured by GJK).
    face_contacts: usize,
    /// Computed frames whose EPA started from the kept polytope.
    warm_epa: usize,
    /// Computed frames answered by a face normal and a point inside, without GJK or EPA.
    face_certified: usize,
}

/// Runs one pair in `motion` (0 moving, 1 resting, 2 tumbling, 3 creeping) and checks every
/// shortcut.
fn check_sequence(
    a: &Shape<f64>,
    b: &Shape<f64>,
    start: Iso,
    motion: u8,
    rng: &mut rand_pcg::Pcg64,
    paths: &mut Paths,
) -> Result<(), TestCaseError> {
    let (mut state, mut manifold) = (PairState::new(), ContactManifold::default());
    let mut workspace = PairWorkspace::new();
    let mut manifold_workspace = ManifoldWorkspace::default();
    let tol = rel_tol(a, b) * scale(a, b);
    let axis = random_unit(rng);
    let drift = random_unit(rng) * 1e-3;
    // A creeping frame moves B by at most `creep` (its turn over a reach of at most 2 units):
    // a few frames in a row within the still allowance, and then a full computation.
    let small = |s: &Shape<f64>| s.local_aabb().half_diagonal();
    let creep = 0.2 * <f64 as Real>::TOLERANCES.accuracy * small(a).min(small(b));
    let mut pos12 = start;
    for frame in 0..FRAMES {
        if motion == 3 {
            pos12.translation.vector += drift.normalize() * (creep / 2.0);
            pos12.rotation =
                UnitQuaternion::from_scaled_axis(axis * (creep / 2.0)) * pos12.rotation;
        } else {
            common::move_one_frame(&mut pos12, motion, (axis, drift), |p| {
                if frame % 4 == 3 {
                    p.translation.vector += random_unit(rng) * 1e-4;
                }
            });
        }
        let input = PairInput {
            shape1: a,
            shape2: b,
            pos12,
            prediction: PREDICTION,
        };
        let (previous, history) = (manifold.points.clone(), state.history);
        let (state_before, manifold_before) = (state.clone(), manifold.clone());
        let outcome = update_manifold(&input, &mut state, &mut manifold, &mut workspace);
        if let (Reuse::Computed, Some(contact)) = (outcome.reuse, &outcome.contact) {
            // The features the query handed over give the manifold a search would.
            let manifold_input = ManifoldInput {
                shape1: a,
                shape2: b,
                pos12: &pos12,
                contact,
                prediction: PREDICTION,
                previous: &previous,
                history,
                supports: outcome.supports,
                previous_directions: None,
            };
            let same = common::same_without_hand_over(
                &manifold_input,
                &manifold.points,
                state.history,
                &mut manifold_workspace,
            );
            if let Err(e) = same {
                return Err(TestCaseError::fail(format!("frame {frame}: {e}")));
            }
            paths.handed += usize::from(outcome.supports != SupportHints::default());
            paths.face_contacts += usize::from(face_contact(a, b, &pos12, contact, &state));
        }
        let cold = query_pair(
            a,
            b,
            &pos12,
            PREDICTION,
            &mut SimplexCache::EMPTY.clone(),
            &mut workspace,
        );
        match outcome.reuse {
            Reuse::Computed if outcome.epa_warm || outcome.face_certified => {
                paths.computed += 1;
                paths.warm_epa += usize::from(outcome.epa_warm);
                paths.face_certified += usize::from(outcome.face_certified);
                let (Some(warm), Some(c)) = (outcome.contact, cold.contact) else {
                    return Err(TestCaseError::fail(format!(
                        "frame {frame}: warm EPA or face certificate {:?} vs cold {:?}",
                        outcome.contact, cold.contact
                    )));
                };
                prop_assert!(
                    (warm.dist - c.dist).abs() <= 2.0 * tol,
                    "frame {}: warm EPA or face certificate {} vs cold {}",
                    frame,
                    warm.dist,
                    c.dist
                );
                for (n, other) in [(warm.normal, c.dist), (c.normal, warm.dist)] {
                    let along = support_gap(a, b, &pos12, &n.into_inner());
                    prop_assert!(
                        (along - other).abs() <= 3.0 * tol,
                        "frame {}: a normal's gap {} vs the other's distance {}",
                        frame,
                        along,
                        other
                    );
                }
            }
            Reuse::Computed => paths.computed += 1,
            Reuse::Unchanged => {
                paths.unchanged += 1;
                prop_assert_eq!(
                    manifold.points.is_empty(),
                    cold.contact.is_none(),
                    "frame {}: unchanged manifold {:?} vs cold {:?}",
                    frame,
                    manifold,
                    cold.contact
                );
                if let Some(c) = cold.contact {
                    stands_beside_cold(&manifold, &c, (a, b, &pos12), tol, frame)?;
                }
            }
            Reuse::Still => {
                paths.still += 1;
                prop_assert!(
                    !manifold.points.is_empty(),
                    "frame {}: still, no points",
                    frame
                );
                let Some(c) = cold.contact else {
                    prop_assert!(
                        cold.lower_bound <= PREDICTION + tol,
                        "frame {}: still manifold {:?}, cold apart by {}",
                        frame,
                        manifold,
                        cold.lower_bound
                    );
                    continue;
                };
                stands_beside_cold(&manifold, &c, (a, b, &pos12), tol, frame)?;
                // The lower bound it reports (the last one less the motion) is one now.
                prop_assert!(
                    outcome.lower_bound <= c.dist + tol,
                    "frame {}: lower bound {} vs cold {}",
                    frame,
                    outcome.lower_bound,
                    c.dist
                );
                let margin = DEPTH_HYSTERESIS * 2.0 * scale(a, b);
                // The full computation with the pair's history (its last computation not
                // standing: no shortcut but this one applies to a contact that moved).
                let (mut full_state, mut full) = (state_before, manifold_before);
                if let Some(last) = &mut full_state.last {
                    last.stands = false;
                }
                let full_outcome =
                    update_manifold(&input, &mut full_state, &mut full, &mut workspace);
                prop_assert_eq!(full_outcome.reuse, Reuse::Computed);
                let ids = |m: &ContactManifold<f64>| {
                    let mut ids: Vec<_> = m.points.iter().map(|p| p.id).collect();
                    ids.sort();
                    ids
                };
                // Each point as deep as the full computation's with its id, up to the margin
                // within which a manifold prefers last frame's points (step 5 of `manifold`'s
                // doc): a clipped point away from the contact moves with the normal, which two
                // full computations give alike only within the tolerance of the contact (a cone
                // on a rounded box's edge: 4e-7 for a 1e-12 motion).
                let alike = ids(&manifold) == ids(&full)
                    && manifold.points.iter().all(|p| {
                        full.points
                            .iter()
                            .any(|q| q.id == p.id && (p.dist - q.dist).abs() <= margin + 2.0 * tol)
                    });
                paths.still_unlike += usize::from(!alike);
            }
            Reuse::Apart => {
                paths.apart += 1;
                prop_assert!(manifold.points.is_empty());
                // The lower bound reported is one: at most the exact distance (a cold query
                // with no prediction limit measures it, to the tolerance).
                let exact = query_pair(
                    a,
                    b,
                    &pos12,
                    f64::INFINITY,
                    &mut SimplexCache::EMPTY.clone(),
                    &mut workspace,
                );
                let Some(e) = exact.contact else {
                    return Err(TestCaseError::fail(format!("frame {frame}: no distance")));
                };
                prop_assert!(
                    outcome.lower_bound <= e.dist + tol,
                    "frame {}: apart with a lower bound {} past the distance {}",
                    frame,
                    outcome.lower_bound,
                    e.dist
                );
                prop_assert!(
                    cold.contact.is_none_or(|c| c.dist > PREDICTION - tol),
                    "frame {}: certified apart, cold {:?}",
                    frame,
                    cold.contact
                );
                prop_assert!(cold.lower_bound > PREDICTION - tol);
            }
        }
    }
    Ok(())
}

/// A manifold a shortcut returned against the cold query's contact `c` at the same pose:
/// never deeper than the exact contact, shallower by at most the margin within which the
/// manifold prefers last frame's points (module doc of `manifold`, step 5: the points are
/// history's, the cold query has none), and its normal a minimiser (its support gap the cold
/// distance).
fn stands_beside_cold(
    manifold: &ContactManifold<f64>,
    c: &nphase_pipeline::LocalContact<f64>,
    (a, b, pos12): (&Shape<f64>, &Shape<f64>, &Iso),
    tol: f64,
    frame: usize,
) -> Result<(), TestCaseError> {
    let Some(deepest) = manifold.deepest() else {
        return Ok(());
    };
    let margin = DEPTH_HYSTERESIS * 2.0 * scale(a, b);
    prop_assert!(
        deepest.dist >= c.dist - 2.0 * tol && deepest.dist <= c.dist + margin + 2.0 * tol,
        "frame {}: deepest {} vs cold {}",
        frame,
        deepest.dist,
        c.dist
    );
    let along = support_gap(a, b, pos12, &manifold.local_normal1.into_inner());
    prop_assert!(
        (along - c.dist).abs() <= 3.0 * tol,
        "frame {}: the kept normal's gap {} vs cold {}",
        frame,
        along,
        c.dist
    );
    Ok(())
}

/// Whether two hulls interpenetrate and their supporting features (as the manifold recorded
/// them) include a face whose normal is the contact normal, to 1e-9.
fn face_contact(
    a: &Shape<f64>,
    b: &Shape<f64>,
    pos12: &Iso,
    contact: &nphase_pipeline::LocalContact<f64>,
    state: &PairState<f64>,
) -> bool {
    let (Shape::Convex(h1), Shape::Convex(h2), Some((f1, f2))) = (a, b, state.history.features)
    else {
        return false;
    };
    if contact.dist >= 0.0 {
        return false;
    }
    let n = contact.normal.into_inner();
    let along = |h: &nphase_shapes::ConvexPolyhedron<f64>, f: FeatureId, n: V| match f {
        FeatureId::Face(i) if h.dimension() == 3 && (i as usize) < h.face_count() => {
            h.face_plane(i as usize).0.dot(&n) > 1.0 - 1e-9
        }
        _ => false,
    };
    along(h1, f1, n) || along(h2, f2, pos12.rotation.inverse_transform_vector(&-n))
}

fn check_all(seed: u64, motion: u8) -> Result<Paths, TestCaseError> {
    let zoo = zoo();
    let mut rng = rng(seed);
    let mut paths = Paths::default();
    for i in 0..zoo.len() {
        for j in 0..zoo.len() {
            // Near contact (half of them) or apart by up to 0.6.
            let target = if rng.random_bool(0.5) {
                rng.random_range(-0.03..0.01)
            } else {
                rng.random_range(0.03..0.6)
            };
            let (a, b) = random_pair(&zoo, (i, j), 0, target, rng.random_bool(0.5), &mut rng);
            let start = a.pose.inv_mul(&b.pose);
            check_sequence(&a.shape, &b.shape, start, motion, &mut rng, &mut paths)?;
        }
    }
    Ok(paths)
}

proptest! {
    #![proptest_config(common::fixed_config(16, 0x7265_7573_6500))]

    #[test]
    fn reuse_agrees_with_full_recomputation(seed in any::<u64>(), motion in 0u8..4) {
        check_representative(seed, motion)?;
    }
}

/// [`check_all`], and the guard: the paths a case took were representative.
fn check_representative(seed: u64, motion: u8) -> Result<(), TestCaseError> {
    let paths = check_all(seed, motion)?;
    // Representative: moving and tumbling pairs apart are certified apart on many frames
    // (1e-3 a frame is far below the gaps); resting ones are mostly answered by a shortcut
    // (unchanged, or apart once a jitter moved them off the last full computation).
    let frames = paths.computed + paths.unchanged + paths.apart + paths.still;
    prop_assert!(paths.computed > 0);
    // Hulls hand their features over (3–118 frames per case; hull against hull, and against
    // curved shapes after EPA) — where two hulls interpenetrated face to something at all (a
    // case can have its only such hulls edge to edge, or apart).
    prop_assert!(paths.handed > 0 || paths.face_contacts == 0, "{:?}", paths);
    // Penetrating pairs on the general path (curved cores, balls, capsules) start EPA from
    // their kept polytope, or are certified by a face and a point inside, on most frames after
    // the first when they move or rest.
    if motion < 2 {
        prop_assert!(paths.warm_epa + paths.face_certified > 0, "{:?}", paths);
    }
    match motion {
        1 => prop_assert!(
            paths.unchanged > 0 && (paths.unchanged + paths.apart) * 3 > frames * 2,
            "{:?}",
            paths
        ),
        // Creeping contacts stand for most frames (apart pairs are certified apart), and
        // their full computations have their points on all but a few (see `still_unlike`).
        3 => prop_assert!(
            paths.still * 2 > paths.computed
                && (paths.still + paths.apart) * 3 > frames * 2
                && paths.still_unlike * 20 <= paths.still,
            "{:?}",
            paths
        ),
        _ => prop_assert!(paths.apart * 5 > frames, "{:?}", paths),
    }
    Ok(())
}

/// Seeds on which the property once failed (kept from proptest's failure files, which the
/// fixed-seed configuration no longer writes or reads).
#[test]
fn reuse_agrees_on_past_failures() {
    for (seed, motion) in [
        (1601564675, 1),
        (4167136424, 2),
        (14246400031541608630, 1),
        // A resting pair whose reused manifold's deepest point is last frame's, 3.8e-7 above
        // the exact contact (the merge of equal ids keeps it over the exact witness).
        (1014726002723525344, 1),
        // Guards that asked every case for a hand-over: hulls only edge to edge (moving), and
        // only apart (resting).
        (1422129393985085792, 0),
        (13894779008709256689, 1),
    ] {
        if let Err(e) = check_representative(seed, motion) {
            panic!("seed {seed}, motion {motion}: {e}");
        }
    }
}
