//! rapier3d 0.36's trajectories replayed through both narrowphases: the scenes of
//! `docs/engines.md` are stepped once by rapier — with its own narrowphase (*stock*) and with
//! nphase's (*nphase*): two trajectories —, every step's broadphase pairs and their relative
//! poses are recorded, and the recording is then handed, pair by pair and step by step, to
//! parry 0.31's `DefaultQueryDispatcher` (what rapier runs) and to `nphase_parry::Dispatcher`,
//! each keeping its pairs' manifolds and workspaces across steps as rapier's narrowphase does.
//! Both see the same input, so the ratio of their times is the cost of the narrowphases alone,
//! without rapier's own work around them — the `engines` example's runs diverge (rapier's
//! solver acts on each narrowphase's answers, and a pile settles differently), and its
//! per-step times mix the code's speed with where the pile went. A trajectory at rest jitters
//! as much as the engine that made it let it (stock rapier's piles more than nphase's: see
//! docs/engines.md), and nphase's certified reuse skips work only while a pair moves less than
//! its allowance, so both trajectories are replayed.
//!
//! ```sh
//! cargo run --release -p nphase-parry --example replay                 # 600 steps, 3 rounds
//! cargo run --release -p nphase-parry --example replay -- 300 5 mixed  # steps, rounds, scenes
//! cargo run --release -p nphase-parry --example replay -- 600 1 pyramid swapped
//! ```
//!
//! With `swapped` after the scene filter (`""` for every scene), every pair is recorded with its
//! two colliders the other way round (collider 1's pose in collider 2's frame): what a scene
//! whose bodies were created in another order hands the narrowphase — a box on the ground with
//! the ground second.
//!
//! Each round replays the recording once with each dispatcher, from fresh pair slots, the two
//! in turn; the times are each dispatcher's fastest round (the machine is shared). The last
//! column is the share of nphase's pair-steps computed in full: neither `Unchanged`, `Still`
//! nor certified apart (`nphase_parry::DispatchStats`). Nothing the
//! solver would write into the manifolds (impulses) is written: both dispatchers see empty
//! warm-start data.

#[path = "../tests/common/scenes.rs"]
#[allow(dead_code)]
mod scenes;

use std::collections::HashMap;
use std::time::{Duration, Instant};

use rapier3d::geometry::{ContactData, ContactManifoldData};
use rapier3d::parry::query::{
    ContactManifold, ContactManifoldsWorkspace, DefaultQueryDispatcher, PersistentQueryDispatcher,
};
use rapier3d::prelude::*;
use scenes::{Engine, RESTING_STEPS, SEEDS, Scene, build, command_line};

/// One pair at one step: its slot (the pair's place in [`Recording::slots`]), its two shapes
/// (places in [`Recording::shapes`]) and collider 2's pose in collider 1's frame.
struct PairStep {
    slot: usize,
    shapes: [usize; 2],
    pos12: Pose,
}

/// A scene's steps as stock rapier's narrowphase saw them.
struct Recording {
    shapes: Vec<SharedShape>,
    steps: Vec<Vec<PairStep>>,
    slots: usize,
    prediction: f32,
}

/// What a pair keeps across steps in rapier's narrowphase.
#[derive(Default)]
struct Slot {
    manifolds: Vec<ContactManifold<ContactManifoldData, ContactData>>,
    workspace: Option<ContactManifoldsWorkspace>,
}

fn main() {
    let (steps, rounds, scenes) = command_line();
    let swapped = std::env::args().nth(4).as_deref() == Some("swapped");
    println!(
        "{steps} steps of rapier replayed, seeds {SEEDS:?}; times: fastest of {rounds} \
         rounds, the dispatchers in turn; at rest: the last {RESTING_STEPS} steps.\n"
    );
    println!(
        "| scene | seed | trajectory | pair-steps | parry 0.31 ms / step | nphase ms / step | \
         nphase / parry | at rest: parry | nphase | nphase / parry | ns / pair-step: parry | \
         nphase | nphase: computed in full |"
    );
    println!(
        "| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
    );
    let runs = scenes.into_iter().flat_map(|scene| {
        SEEDS
            .into_iter()
            .flat_map(move |seed| [Engine::Rapier, Engine::Nphase].map(|e| (scene, seed, e)))
    });
    for (scene, seed, engine) in runs {
        let recording = record(scene, seed, engine, steps, swapped);
        let pair_steps: usize = recording.steps.iter().map(Vec::len).sum();
        let mut best = [(Duration::MAX, Duration::MAX); 2];
        let mut full = 0.0;
        for _ in 0..rounds {
            let parry = replay(&DefaultQueryDispatcher, &recording);
            let dispatcher = nphase_parry::Dispatcher::default();
            let nphase = replay(&dispatcher, &recording);
            let stats = dispatcher.stats();
            let reused = stats.unchanged_pairs + stats.apart_pairs + stats.still_pairs;
            full = 1.0 - reused as f64 / stats.nphase_pairs.max(1) as f64;
            for (b, t) in best.iter_mut().zip([parry, nphase]) {
                *b = (b.0.min(t.0), b.1.min(t.1));
            }
        }
        let [(parry, parry_rest), (nphase, nphase_rest)] = best;
        let per_step = |d: Duration, n: usize| d.as_secs_f64() * 1e3 / n as f64;
        let resting = RESTING_STEPS.min(steps);
        let per_pair = |d: Duration| d.as_secs_f64() * 1e9 / pair_steps as f64;
        let trajectory = match engine {
            Engine::Rapier => "stock",
            Engine::Nphase => "nphase",
            Engine::RapierMerged => unreachable!("the replay records stock and nphase only"),
        };
        println!(
            "| {} | {seed} | {trajectory} | {pair_steps} | {:.3} | {:.3} | {:.2} | {:.3} | \
             {:.3} | {:.2} | {:.0} | {:.0} | {:.1} % |",
            scene.name(),
            per_step(parry, steps),
            per_step(nphase, steps),
            nphase.as_secs_f64() / parry.as_secs_f64(),
            per_step(parry_rest, resting),
            per_step(nphase_rest, resting),
            nphase_rest.as_secs_f64() / parry_rest.as_secs_f64(),
            per_pair(parry),
            per_pair(nphase),
            full * 100.0,
        );
    }
}

/// Steps `scene` with rapier and `engine`'s narrowphase and records, after each step, every
/// pair rapier's narrowphase holds (the broadphase's pairs, touching or not) with its relative
/// pose: the input of the next step's narrowphase — with its colliders the other way round
/// where `swapped`.
fn record(scene: Scene, seed: u64, engine: Engine, steps: usize, swapped: bool) -> Recording {
    let mut world = build(scene, engine, seed).world;
    let prediction = world.integration_parameters.prediction_distance();
    let mut shapes = Vec::new();
    let mut shape_of: HashMap<ColliderHandle, usize> = HashMap::new();
    for (handle, collider) in world.colliders.iter() {
        shape_of.insert(handle, shapes.len());
        shapes.push(collider.shared_shape().clone());
    }
    let mut slot_of: HashMap<(ColliderHandle, ColliderHandle), usize> = HashMap::new();
    let mut recorded = Vec::with_capacity(steps);
    for _ in 0..steps {
        world.step();
        let mut pairs = Vec::new();
        for pair in world.narrow_phase.contact_pairs() {
            let (h1, h2) = if swapped {
                (pair.collider2, pair.collider1)
            } else {
                (pair.collider1, pair.collider2)
            };
            let (Some(c1), Some(c2)) = (world.colliders.get(h1), world.colliders.get(h2)) else {
                continue;
            };
            let next = slot_of.len();
            let slot = *slot_of.entry((h1, h2)).or_insert(next);
            pairs.push(PairStep {
                slot,
                shapes: [shape_of[&h1], shape_of[&h2]],
                pos12: c1.position().inv_mul(c2.position()),
            });
        }
        recorded.push(pairs);
    }
    Recording {
        shapes,
        steps: recorded,
        slots: slot_of.len(),
        prediction,
    }
}

/// Replays `recording` through `dispatcher` from fresh slots: the time of all its steps and of
/// the last [`RESTING_STEPS`] of them.
fn replay(
    dispatcher: &impl PersistentQueryDispatcher<ContactManifoldData, ContactData>,
    recording: &Recording,
) -> (Duration, Duration) {
    let mut slots: Vec<Slot> = (0..recording.slots).map(|_| Slot::default()).collect();
    let (mut total, mut resting) = (Duration::ZERO, Duration::ZERO);
    let rest_from = recording.steps.len().saturating_sub(RESTING_STEPS);
    for (k, step) in recording.steps.iter().enumerate() {
        let start = Instant::now();
        for pair in step {
            let slot = &mut slots[pair.slot];
            // Shapes neither dispatcher takes are an error for both alike; the scenes have none.
            let _ = dispatcher.contact_manifolds(
                &pair.pos12,
                &*recording.shapes[pair.shapes[0]].0,
                &*recording.shapes[pair.shapes[1]].0,
                recording.prediction,
                &mut slot.manifolds,
                &mut slot.workspace,
            );
        }
        let elapsed = start.elapsed();
        total += elapsed;
        if k >= rest_from {
            resting += elapsed;
        }
    }
    std::hint::black_box(&slots);
    (total, resting)
}
