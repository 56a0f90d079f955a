//! The separating-axis certificate (a penetrating polytope pair tests only the features that
//! may still win while the motion since its last full test stays within a margin) against the
//! full test and a cold query.
//!
//! Coherent random sequences of every pairing of polytopes (box, rounded box, triangle, two
//! hulls, a polygon) placed overlapping, run through [`update_manifold`] (which keeps the
//! certificate) in four motions: *jitter* (B drifts and turns by 1e-5 a frame in random
//! directions, as a body at rest under a solver), *slow* (1e-4 a frame, steadily), *moving*
//! (1e-3) and *tumbling* (0.05 rad a frame). Every frame that ran the separating-axis test is
//! checked against the full test from the same cached feature (`query_pair_cached`, which keeps
//! no certificate) and a cold query:
//!
//! * the same winning feature as the full test (the certificate's claim), and
//! * the same signed distance as the cold query and a normal whose support gap is that
//!   distance, within docs/accuracy.md's tolerance.
//!
//! A guard checks that the certificate answered most frames of the slow motions, and that the
//! fast ones fell back to the full test.

mod common;

use common::{Iso, V, agrees_with_cold, polytopes, random_pair, random_unit, rng, scale};
use nphase_gjk::SimplexCache;
use nphase_math::nalgebra::UnitQuaternion;
use nphase_pipeline::{
    ContactManifold, PairInput, PairState, PairWorkspace, Reuse, query_pair, query_pair_cached,
    update_manifold,
};
use nphase_shapes::Shape;
use rand::Rng;

const PREDICTION: f64 = 0.02;
const FRAMES: usize = 40;

/// Frames that ran the general separating-axis test (not the closed form of two boxes), and
/// those the certificate answered.
#[derive(Debug, Default, Clone, Copy)]
struct Counts {
    sat: usize,
    certified: usize,
}

/// Runs one pair in `motion` (0 jitter, 1 slow, 2 moving, 3 tumbling) and checks every frame.
fn check_sequence(
    a: &Shape<f64>,
    b: &Shape<f64>,
    start: Iso,
    motion: u8,
    rng: &mut rand_pcg::Pcg64,
    counts: &mut Counts,
) {
    let tol = 1e-9 * scale(a, b);
    let boxes = [a, b]
        .iter()
        .all(|s| matches!(s.core().0, nphase_shapes::Core::Cuboid(_)));
    let (mut state, mut manifold) = (PairState::new(), ContactManifold::default());
    let (mut workspace, mut full_workspace) = (PairWorkspace::new(), PairWorkspace::new());
    let axis = random_unit(rng);
    let drift = random_unit(rng);
    let mut pos12 = start;
    for frame in 0..FRAMES {
        let (step, turn) = match motion {
            0 => (random_unit(rng) * 1e-5, random_unit(rng) * 1e-5),
            1 => (drift * 1e-4, axis * 1e-4),
            2 => (drift * 1e-3, axis * 1e-3),
            _ => (V::zeros(), axis * 0.05),
        };
        pos12.translation.vector += step;
        pos12.rotation = UnitQuaternion::from_scaled_axis(turn) * pos12.rotation;
        let (mut cache, mut sat) = (state.cache, state.sat);
        let input = PairInput {
            shape1: a,
            shape2: b,
            pos12,
            prediction: PREDICTION,
        };
        let outcome = update_manifold(&input, &mut state, &mut manifold, &mut workspace);
        if outcome.reuse != Reuse::Computed || !outcome.sat_ran {
            continue;
        }
        // Overlapping boxes take the closed form, which keeps no certificate.
        if !boxes {
            counts.sat += 1;
            counts.certified += usize::from(outcome.sat_certified);
        }
        let full = query_pair_cached(
            a,
            b,
            &pos12,
            PREDICTION,
            &mut cache,
            &mut sat,
            None,
            &mut full_workspace,
        );
        assert!(!full.sat_certified);
        assert_eq!(
            state.sat.feature, sat.feature,
            "frame {frame} (motion {motion}, certified {}): the winner differs from the full test's",
            outcome.sat_certified
        );
        let cold = query_pair(
            a,
            b,
            &pos12,
            PREDICTION,
            &mut SimplexCache::EMPTY.clone(),
            &mut full_workspace,
        );
        let agree = agrees_with_cold(
            (a, b, &pos12),
            outcome.contact,
            cold.contact,
            PREDICTION,
            tol,
        );
        if let Err(e) = agree {
            panic!("frame {frame} (motion {motion}): {e}");
        }
    }
}

/// Every pairing of the polytopes, overlapping by up to 0.05, in `motion`.
fn check_all(seed: u64, motion: u8) -> Counts {
    let shapes = polytopes();
    let mut rng = rng(seed);
    let mut counts = Counts::default();
    for i in 0..shapes.len() {
        for j in 0..shapes.len() {
            let target = rng.random_range(-0.05..-0.002);
            let (a, b) = random_pair(&shapes, (i, j), 0, target, rng.random_bool(0.5), &mut rng);
            let start = a.pose.inv_mul(&b.pose);
            check_sequence(&a.shape, &b.shape, start, motion, &mut rng, &mut counts);
        }
    }
    counts
}

#[test]
fn certified_winner_is_the_full_tests() {
    let mut all = [Counts::default(); 4];
    for seed in 0..6 {
        for (motion, total) in all.iter_mut().enumerate() {
            let counts = check_all(seed, motion as u8);
            total.sat += counts.sat;
            total.certified += counts.certified;
        }
    }
    let share = |c: &Counts| c.certified as f64 / c.sat as f64;
    // Jitter and slow motion stay within the margin for many frames (when written: 57 % and
    // 58 % of the frames; the rest are the full tests that make certificates, and pairs whose
    // hot features are too many to be worth keeping — flat shapes and 64-point hulls, whose
    // edges' bounds are loose); a tumbling pair leaves it at once (and backs off).
    assert!(share(&all[0]) > 0.5, "jitter: {all:?}");
    assert!(share(&all[1]) > 0.5, "slow: {all:?}");
    assert!(share(&all[3]) < 0.1, "tumbling: {all:?}");
    assert!(
        all.iter().all(|c| c.sat > 500),
        "too few test runs: {all:?}"
    );
}
