//! What one pair costs through rapier's per-pair hook: parry 0.31's `contact_manifolds` with
//! `nphase_parry::Dispatcher` against parry's own `DefaultQueryDispatcher`, on the same poses.
//!
//! Groups `adapter/<pair>/<motion>`, 64 pairs each (one manifold list and one workspace per
//! pair, kept across runs as rapier keeps them; caches warm: the fixed cost of the path, not
//! the memory traffic of a large scene): ball–ball, box–box, cone–box and cylinder–box, B
//! resting on A 1 mm deep (1 % of B's size), tilted by up to 0.5°. Each run is one frame:
//! * `still` — every pose as the last frame's, bit for bit (nphase's `Unchanged`);
//! * `creep` — B moves by 1e-7 a frame (in a cycle of 16 frames: a resting pile's motion is
//!   about 1e-6 a step, docs/engines.md; nphase's `Still` mostly holds);
//! * `moving` — B moves by 1e-4 a frame (in a cycle of 16 frames; nphase computes every frame,
//!   parry moves last frame's points along while within its 1e-3 and 1°).
//!
//! ```text
//! cargo bench -p nphase --bench adapter -- --fastest [--rounds 30] [filter]
//! benches/callgrind.sh adapter [filter]
//! ```

#[allow(dead_code)]
mod common;

use std::hint::black_box;

use common::harness::Harness;
use parry3d_031::math::{Pose, Vector};
use parry3d_031::query::{
    ContactManifold, ContactManifoldsWorkspace, DefaultQueryDispatcher, PersistentQueryDispatcher,
};
use parry3d_031::shape::{self as ps, SharedShape};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;

/// Pairs per group.
const PAIRS: usize = 64;
/// Frames in a motion's cycle.
const CYCLE: usize = 16;
/// The prediction distance (rapier's default is 2 mm for unit-sized shapes).
const PREDICTION: f32 = 0.002;

/// One pair's per-frame state, as rapier keeps it.
#[derive(Default)]
struct PairSlot {
    manifolds: Vec<ContactManifold<(), u64>>,
    workspace: Option<ContactManifoldsWorkspace>,
}

/// The poses of B in A's frame for each pair at each frame of the cycle.
fn poses(a: &SharedShape, b: &SharedShape, step: f32, rng: &mut Pcg64) -> Vec<Vec<Pose>> {
    let extent = |s: &SharedShape| s.compute_local_aabb().half_extents().y;
    let rest = extent(a) + extent(b) - 0.001;
    (0..PAIRS)
        .map(|_| {
            let tilt = Vector::new(
                rng.random_range(-1.0..1.0),
                0.0,
                rng.random_range(-1.0..1.0),
            ) * 0.0087
                / 2f32.sqrt();
            let offset = Vector::new(
                rng.random_range(-0.1..0.1),
                rest,
                rng.random_range(-0.1..0.1),
            );
            let direction = Vector::new(
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0),
            )
            .normalize();
            (0..CYCLE)
                .map(|k| {
                    // Out and back along the cycle, so that the pair stays where it rests.
                    let along = (k.min(CYCLE - k)) as f32 * step;
                    Pose::new(offset + direction * along, tilt)
                })
                .collect()
        })
        .collect()
}

fn frames(
    dispatcher: impl PersistentQueryDispatcher<(), u64> + 'static,
    a: SharedShape,
    b: SharedShape,
    poses: Vec<Vec<Pose>>,
) -> impl FnMut() {
    let mut slots: Vec<PairSlot> = (0..PAIRS).map(|_| PairSlot::default()).collect();
    let mut frame = 0;
    let mut run = move || {
        frame = (frame + 1) % CYCLE;
        for (slot, cycle) in slots.iter_mut().zip(&poses) {
            dispatcher
                .contact_manifolds(
                    black_box(&cycle[frame]),
                    &*a.0,
                    &*b.0,
                    PREDICTION,
                    &mut slot.manifolds,
                    &mut slot.workspace,
                )
                .expect("convex pairs");
            black_box(&slot.manifolds);
        }
    };
    // One cycle before any measurement: a pair's first frames (its workspace made, its first
    // full computations) are not what a resting pair costs, and callgrind's mode measures a
    // handful of frames only.
    for _ in 0..CYCLE {
        run();
    }
    run
}

fn main() {
    let pairs: [(&str, SharedShape, SharedShape); 4] = [
        ("ball-ball", SharedShape::ball(0.1), SharedShape::ball(0.1)),
        (
            "box-box",
            SharedShape::cuboid(0.5, 0.5, 0.5),
            SharedShape::cuboid(0.1, 0.1, 0.1),
        ),
        (
            "cone-box",
            SharedShape::cuboid(0.5, 0.5, 0.5),
            SharedShape::new(ps::Cone::new(0.1, 0.1)),
        ),
        (
            "cylinder-box",
            SharedShape::cuboid(0.5, 0.5, 0.5),
            SharedShape::cylinder(0.1, 0.1),
        ),
    ];
    let mut harness = Harness::new();
    for (name, a, b) in pairs {
        for (motion, step) in [("still", 0.0), ("creep", 1e-7), ("moving", 1e-4)] {
            let poses = poses(&a, &b, step, &mut Pcg64::seed_from_u64(7));
            let group = harness.group(&format!("adapter/{name}/{motion}"), PAIRS);
            group.case(
                "nphase",
                frames(
                    nphase_parry::Dispatcher::default(),
                    a.clone(),
                    b.clone(),
                    poses.clone(),
                ),
            );
            group.case(
                "parry031",
                frames(DefaultQueryDispatcher, a.clone(), b.clone(), poses),
            );
        }
    }
    harness.run();
}
