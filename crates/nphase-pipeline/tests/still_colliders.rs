//! `NarrowPhase`'s shortcut for colliders that did not move, against the per-pair unit.
//!
//! Random pairs of every zoo shape kind, near contact (penetrating, touching, within and beyond
//! the prediction), run through `NarrowPhase::update` on one and two threads while, each
//! frame, a random half of the colliders moves a little and a quarter creeps (by 1e-13, within
//! the allowance of the `Still` shortcut: some pairs then move, some stand, some do not move,
//! some have one side moved), whole frames stand still (single ones, and a run of five in
//! which the pipeline settles), and some frames drop, add back or reorder pairs. Beside it
//! every pair runs through `update_manifold` with its own state and manifold, from `pos12`
//! computed as the pipeline does. Every frame, every pair's manifold and quality must be the
//! unit's bit for bit, the step's shortcut, pair and point counts the unit's, and the engine's
//! impulses (and cleared `persisted` marks) written into both are carried the same way; on
//! two frames the engine empties some manifolds in both (a reset).

mod common;

use common::{random_pair, rng, zoo};
use nphase_pipeline::{
    Collider, ContactManifold, NarrowPhase, NarrowPhaseConfig, PairInput, PairState, PairWorkspace,
    Reuse, update_manifold,
};
use rand::Rng;
use rand::seq::SliceRandom;

const PREDICTION: f64 = 0.02;
const FRAMES: usize = 20;

#[test]
fn still_colliders_repeat_the_pair_units_answer() {
    let zoo = zoo();
    let mut rng = rng(0x5711);
    let mut world: Vec<Collider<f64>> = Vec::new();
    let mut all_pairs = Vec::new();
    for k in 0..120u64 {
        let (i, j) = (
            rng.random_range(0..zoo.len()),
            rng.random_range(0..zoo.len()),
        );
        let target = [-0.05, -1e-3, 0.0, 0.01, 0.05][rng.random_range(0..5usize)];
        let (a, b) = random_pair(&zoo, (i, j), k, target, rng.random_bool(0.5), &mut rng);
        all_pairs.push((world.len(), world.len() + 1));
        world.push(a);
        world.push(b);
    }
    let mut pipelines: Vec<NarrowPhase<f64>> = [1, 2]
        .map(|threads| {
            NarrowPhase::new(NarrowPhaseConfig {
                prediction: PREDICTION,
                threads,
                chunk_size: 64,
            })
            .expect("valid configuration")
        })
        .into();
    // The unit's state and manifold per pair, keyed by the pair's colliders.
    let mut reference: Vec<(PairState<f64>, ContactManifold<f64>)> = all_pairs
        .iter()
        .map(|_| (PairState::new(), ContactManifold::default()))
        .collect();
    let mut ws = PairWorkspace::new();
    let (mut shortcuts, mut computed, mut stood, mut emptied) = (0u64, 0u64, 0u64, 0u64);
    let mut stood_emptied = 0u64;
    let mut last_reuse = vec![Reuse::Computed; all_pairs.len()];
    for frame in 0..FRAMES {
        // Frames 3, 7, 11 and 15 to 19 stand still (frame 15 leaves the pipeline settled,
        // frames 16 to 19 repeat it); the others move a random half of the colliders.
        if frame % 4 != 3 && (1..16).contains(&frame) {
            for c in &mut world {
                let t = &mut c.pose.translation.vector;
                if rng.random_bool(0.5) {
                    t.x += rng.random_range(-1e-3..1e-3);
                    t.y += rng.random_range(-1e-3..1e-3);
                } else if rng.random_bool(0.5) {
                    t.x += 1e-13;
                }
            }
        }
        // Pairs listed this frame: all of them, or a subset (frame 5 and 6: the first half
        // dropped and added back), shuffled on frame 9 and 10.
        let mut listed: Vec<usize> = (0..all_pairs.len()).collect();
        if frame == 5 {
            listed.truncate(all_pairs.len() / 2);
        }
        if frame == 9 || frame == 10 {
            listed.shuffle(&mut rng);
        }
        // A pair dropped for a frame starts again from a fresh state (the pipeline forgets it).
        if frame == 6 {
            for entry in &mut reference[all_pairs.len() / 2..] {
                *entry = (PairState::new(), ContactManifold::default());
            }
        }
        let pairs: Vec<(usize, usize)> = listed.iter().map(|&k| all_pairs[k]).collect();
        let mut counts = (0, 0, 0);
        let mut qualities = vec![None; all_pairs.len()];
        for &k in &listed {
            let (a, b) = all_pairs[k];
            let (state, manifold) = &mut reference[k];
            let input = PairInput {
                shape1: &world[a].shape,
                shape2: &world[b].shape,
                pos12: world[a].pose.inv_mul(&world[b].pose),
                prediction: PREDICTION,
            };
            let outcome = update_manifold(&input, state, manifold, &mut ws);
            counts.0 += u64::from(outcome.reuse == Reuse::Unchanged);
            counts.1 += u64::from(outcome.reuse == Reuse::Apart);
            counts.2 += u64::from(outcome.reuse == Reuse::Still);
            last_reuse[k] = outcome.reuse;
            computed += u64::from(outcome.reuse == Reuse::Computed);
            qualities[k] = Some(outcome.quality);
        }
        for narrow in &mut pipelines {
            let manifolds = narrow.update(&world, &pairs).expect("valid input").to_vec();
            let stats = *narrow.stats();
            assert_eq!(
                (
                    stats.reused_unchanged,
                    stats.reused_apart,
                    stats.reused_still
                ),
                counts,
                "frame {frame}: shortcut counts"
            );
            let points = listed.iter().map(|&k| reference[k].1.points.len() as u64);
            assert_eq!(
                (stats.pairs, stats.points),
                (listed.len() as u64, points.sum()),
                "frame {frame}: pair and point counts"
            );
            for (slot, &k) in listed.iter().enumerate() {
                assert_eq!(
                    manifolds[slot], reference[k].1,
                    "frame {frame}, pair {k}: manifold"
                );
                assert_eq!(
                    Some(narrow.qualities()[slot]),
                    qualities[k],
                    "frame {frame}, pair {k}: quality"
                );
            }
        }
        shortcuts += counts.0 + counts.1 + counts.2;
        stood += counts.2;
        // The engine writes its impulses, the same into both (and on odd frames clears the
        // points' `persisted` marks, which a shortcut sets again).
        for (slot, &k) in listed.iter().enumerate() {
            let impulse = (frame * 1000 + k) as f64;
            let keep = frame % 2 == 0;
            for p in &mut reference[k].1.points {
                p.normal_impulse = impulse;
                p.persisted &= keep;
            }
            for narrow in &mut pipelines {
                for p in &mut narrow.manifolds_mut()[slot].points {
                    p.normal_impulse = impulse;
                    p.persisted &= keep;
                }
            }
            // On frames 12 and 17 (the second in a settled run) the engine empties the manifolds
            // that stood and every fifth other, in both: a reset, which a manifold that stood
            // must not survive.
            if (frame == 12 || frame == 17) && (last_reuse[k] == Reuse::Still || k % 5 == 0) {
                stood_emptied += u64::from(last_reuse[k] == Reuse::Still);
                emptied += u64::from(reference[k].1.points.len() as u64 > 0);
                reference[k].1.points.clear();
                for narrow in &mut pipelines {
                    narrow.manifolds_mut()[slot].points.clear();
                }
            }
        }
    }
    assert!(shortcuts > 200, "shortcuts taken: {shortcuts}");
    assert!(computed > 200, "full computations: {computed}");
    assert!(stood > 50, "manifolds that stood: {stood}");
    assert!(emptied > 10, "manifolds emptied: {emptied}");
    assert!(
        stood_emptied > 3,
        "manifolds that stood, emptied: {stood_emptied}"
    );
}
