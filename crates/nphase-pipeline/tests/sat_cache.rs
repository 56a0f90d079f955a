//! The separating-axis test's cached feature against cold recomputation.
//!
//! Coherent random sequences of every pairing of polytopes (box, rounded box, triangle, a
//! 20-point and a 64-point hull, a flat hull) in three motions — *moving* (B drifts 1e-3 units
//! and turns 1e-3 rad a frame), *resting* (B still, a jitter of 1e-4 on one frame in four),
//! *tumbling* (B turns 0.05 rad a frame about a random axis) — from placements near contact.
//! Every frame the pair's query starts from its kept caches (the separating-axis feature and
//! GJK's simplex), and a cold query of the same pose must agree, neither running EPA (but as
//! the fallback of a GJK that rounding stalled): a contact in both or neither
//! (unless the distance is within the tolerance of the prediction), the same signed distance,
//! and the warm normal a true minimiser (its support gap is the cold distance), all within
//! docs/accuracy.md's tolerance. A guard checks that the test ran on many frames (GJK alone
//! answers separated pairs) and its cached feature won on most of them. Every contact's
//! manifold is built twice, with the supporting features the query handed over
//! ([`SupportHints`]) and with none (every feature searched for): the same points, ids and
//! history, bit for bit.

mod common;

use common::{Iso, agrees_with_cold, polytopes, random_pair, random_unit, rng, scale};
use nphase_gjk::SimplexCache;
use nphase_math::nalgebra::UnitQuaternion;
use nphase_pipeline::{
    ContactPoint, ManifoldHistory, ManifoldInput, ManifoldWorkspace, PairWorkspace, SatCache,
    SupportHints, build_manifold, query_pair, query_pair_cached,
};
use nphase_shapes::Shape;
use proptest::prelude::*;
use rand::Rng;

const PREDICTION: f64 = 0.02;
const FRAMES: usize = 24;

/// Frames checked, those that ran the test, those on which its cached feature won again,
/// contacts, and contacts whose query handed supporting features over.
#[derive(Debug, Default)]
struct Counts {
    frames: usize,
    sat: usize,
    hits: usize,
    contacts: usize,
    handed: usize,
}

/// A pair's manifold across frames, built with the query's [`SupportHints`], and scratch
/// space.
#[derive(Default)]
struct Manifolds {
    points: arrayvec::ArrayVec<ContactPoint<f64>, 4>,
    history: ManifoldHistory,
    workspace: ManifoldWorkspace<f64>,
}

impl Manifolds {
    /// This frame's manifold with `supports`, and checked against one without them.
    fn check(
        &mut self,
        a: &Shape<f64>,
        b: &Shape<f64>,
        pos12: &Iso,
        contact: &nphase_pipeline::LocalContact<f64>,
        supports: SupportHints,
        frame: usize,
    ) -> Result<(), TestCaseError> {
        let previous = self.points.clone();
        let input = ManifoldInput {
            shape1: a,
            shape2: b,
            pos12,
            contact,
            prediction: PREDICTION,
            previous: &previous,
            history: self.history,
            supports,
            previous_directions: None,
        };
        self.history = build_manifold(&input, &mut self.workspace, &mut self.points);
        let same =
            common::same_without_hand_over(&input, &self.points, self.history, &mut self.workspace);
        if let Err(e) = same {
            return Err(TestCaseError::fail(format!("frame {frame}: {e}")));
        }
        Ok(())
    }
}

fn check_sequence(
    a: &Shape<f64>,
    b: &Shape<f64>,
    start: Iso,
    motion: u8,
    rng: &mut rand_pcg::Pcg64,
    counts: &mut Counts,
) -> Result<(), TestCaseError> {
    let mut workspace = PairWorkspace::new();
    let (mut simplex, mut sat) = (SimplexCache::EMPTY, SatCache::EMPTY);
    let tol = 1e-9 * scale(a, b);
    let axis = random_unit(rng);
    let drift = random_unit(rng) * 1e-3;
    let mut pos12 = start;
    let mut manifolds = Manifolds::default();
    for frame in 0..FRAMES {
        match motion {
            0 => {
                pos12.translation.vector += drift;
                pos12.rotation = UnitQuaternion::from_scaled_axis(axis * 1e-3) * pos12.rotation;
            }
            1 if frame % 4 == 3 => pos12.translation.vector += random_unit(rng) * 1e-4,
            1 => {}
            _ => pos12.rotation = UnitQuaternion::from_scaled_axis(axis * 0.05) * pos12.rotation,
        }
        let warm = query_pair_cached(
            a,
            b,
            &pos12,
            PREDICTION,
            &mut simplex,
            &mut sat,
            None,
            &mut workspace,
        );
        let cold = query_pair(
            a,
            b,
            &pos12,
            PREDICTION,
            &mut SimplexCache::EMPTY.clone(),
            &mut workspace,
        );
        counts.frames += 1;
        counts.sat += usize::from(warm.sat_ran);
        counts.hits += usize::from(warm.sat_cache_hit);
        // EPA runs only as the fallback of a GJK that rounding stalled (nearly parallel
        // features apart: it settles the distance from GJK's simplex, `convex_gjk.rs`).
        let epa_alone = |q: &nphase_pipeline::PairOutcome<f64>| q.epa_ran && !q.gjk_stalled;
        prop_assert!(
            !epa_alone(&warm) && !epa_alone(&cold),
            "frame {}: EPA ran",
            frame
        );
        if let (Some(w), Some(_)) = (warm.contact, cold.contact) {
            counts.contacts += 1;
            counts.handed += usize::from(warm.supports != SupportHints::default());
            manifolds.check(a, b, &pos12, &w, warm.supports, frame)?;
        }
        let agree = agrees_with_cold((a, b, &pos12), warm.contact, cold.contact, PREDICTION, tol);
        if let Err(e) = agree {
            return Err(TestCaseError::fail(format!("frame {frame}: {e}")));
        }
    }
    Ok(())
}

fn check_all(seed: u64, motion: u8) -> Result<Counts, TestCaseError> {
    let shapes = polytopes();
    let mut rng = rng(seed);
    let mut counts = Counts::default();
    for i in 0..shapes.len() {
        for j in 0..shapes.len() {
            let target = rng.random_range(-0.05..0.015);
            let (a, b) = random_pair(&shapes, (i, j), 0, target, rng.random_bool(0.5), &mut rng);
            let start = a.pose.inv_mul(&b.pose);
            check_sequence(&a.shape, &b.shape, start, motion, &mut rng, &mut counts)?;
        }
    }
    Ok(counts)
}

proptest! {
    #![proptest_config(common::fixed_config(16, 0x7361_745f_6361))]

    #[test]
    fn cached_feature_agrees_with_cold_recomputation(seed in any::<u64>(), motion in 0u8..3) {
        check_all(seed, motion)?;
    }
}

/// The sequences exercise what they test: many contacts, the separating-axis test on many
/// frames, and its cached feature winning on most of those (not on overlapping boxes, which
/// take the closed form; tumbling pairs change features and drift apart more often). Fixed
/// seeds, so that the guard is about the generator and not the luck of one draw: over 1 500
/// random seeds one draw went as low as 0.14 of its frames with the test run (tumbling) and
/// 0.29 (moving), well inside these sums over eight seeds.
#[test]
fn sequences_exercise_the_cached_feature() {
    for motion in 0u8..3 {
        let mut all = Counts::default();
        for seed in 0..8 {
            let counts = check_all(seed, motion).expect("agrees with the cold query");
            all.frames += counts.frames;
            all.sat += counts.sat;
            all.hits += counts.hits;
            all.contacts += counts.contacts;
            all.handed += counts.handed;
        }
        let (contacts, sat, hits) = if motion == 2 {
            (0.4, 0.2, 0.5)
        } else {
            (0.8, 0.3, 0.8)
        };
        let share = |n: usize, of: usize| n as f64 / of as f64;
        assert!(
            share(all.contacts, all.frames) > contacts,
            "motion {motion}: {all:?}"
        );
        assert!(share(all.sat, all.frames) > sat, "motion {motion}: {all:?}");
        assert!(share(all.hits, all.sat) > hits, "motion {motion}: {all:?}");
        // Hull pairs hand their features over (a quarter of all contacts here).
        assert!(
            share(all.handed, all.contacts) > 0.15,
            "motion {motion}: {all:?}"
        );
    }
}

/// Seeds on which the property once failed (kept from proptest's failure files, which the
/// fixed-seed configuration no longer writes or reads).
#[test]
fn cached_feature_agrees_on_past_failures() {
    for (seed, motion) in [
        (2780814384, 2),
        (14194954660861257372, 2),
        // Moving: a hull 6.4 mm from a box, nearly parallel faces; the warm GJK stalled on
        // rounding and EPA settled the distance (agreeing with the cold query to 1e-14) —
        // which the test had counted as EPA running on separated polytopes.
        (13465515786304771820, 0),
    ] {
        if let Err(e) = check_all(seed, motion) {
            panic!("seed {seed}, motion {motion}: {e}");
        }
    }
}
