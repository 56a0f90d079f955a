//! The contact pipeline against parry3d's persistent contact manifolds, run the same way.
//!
//! Both sides get the same pairs, the same motion and the same thread count. Each frame, every
//! pair's manifold is brought up to date from its state of the previous frame:
//!
//! * nphase — `NarrowPhase::<f32>::update(&colliders, &pairs)` (warm-started per pair);
//! * parry3d — `DefaultQueryDispatcher.contact_manifolds(pos12, shape1, shape2, prediction,
//!   &mut manifolds, &mut workspace)` with `pos12 = pose1⁻¹ · pose2`, the pair's
//!   `Vec<ContactManifold<(), ()>>` and workspace kept between frames; the pairs in chunks of
//!   the same size as nphase's, in parallel with rayon on a pool of the same size;
//! * parry3d, recomputing — the same with every manifold emptied first: parry otherwise moves
//!   last frame's points along (`ContactManifold::try_update_contacts`: while the normal turns
//!   by less than 1° and no point slides more than 1e-3, nothing is recomputed), which is
//!   nearly free on slow scenes but is not an exact contact.
//!
//! Workloads (f32, both sides):
//!
//! * `resting_boxes` — 16 × 16 stacks of three unit boxes on a ground box, 0.01 deep, drifting
//!   and turning slowly (768 pairs: ground–box and box–box);
//! * `mixed_pile` — the demo pile (`nphase_cli::demo::demo_scene(3000, …)`: every type of shape),
//!   the broadphase pairs of frame 0, the demo's velocities;
//! * `hull64` — 2 000 pairs of hulls of 64 points on a sphere of radius 0.5, half of them
//!   penetrating (centres 0.85 apart), half apart (1.02), each B tumbling by 0.01 rad and
//!   drifting by 1e-3 per frame.
//!
//! The frames are precomputed and run forwards and backwards (0, 1, …, 15, 14, …), so every
//! frame is coherent with the one before. Criterion's time is per frame; divide by the pairs
//! (printed before each group) for ns per pair per frame.
//!
//! ```text
//! cargo bench --bench pipeline -- --warm-up-time 1 --measurement-time 3
//! # the thread-scaling table (1..N threads, N = cores, plus 4 and 8) → docs/pipeline_scaling.csv
//! PIPELINE_SCALING_CSV=docs/pipeline_scaling.csv cargo bench --bench pipeline
//! # warm against cold starts (GJK iterations, EPA and SAT runs, ns per pair), one thread
//! PIPELINE_WARM_COLD=1 cargo bench --bench pipeline
//! # instructions per pair-frame (nphase, one thread) under callgrind
//! benches/callgrind.sh pipeline [workload] [reps]
//! ```

#[allow(dead_code)]
mod common;

use std::hint::black_box;
use std::time::Instant;

use common::scenes::{frame_at, parry025};
use criterion::{BenchmarkId, Criterion, Throughput};
use nphase::{Collider, NarrowPhase, NarrowPhaseConfig};
use nphase_cli::demo::demo_scene;
use nphase_cli::scene::{BodyDesc, RotationDesc, Scene, SceneDoc, ShapeDesc, VelocityDesc};
use parry3d::math::Isometry;
use parry3d::query::{
    ContactManifold, ContactManifoldsWorkspace, DefaultQueryDispatcher, PersistentQueryDispatcher,
};
use parry3d::shape::SharedShape;
use rayon::prelude::*;

const FRAMES: u64 = 16;
const CHUNK: usize = 128;

/// A workload: per-frame colliders for nphase, the same poses for parry, the pairs.
struct Workload {
    name: &'static str,
    prediction: f32,
    frames: Vec<Vec<Collider<f32>>>,
    parry_shapes: Vec<SharedShape>,
    pairs: Vec<(usize, usize)>,
}

fn workload(name: &'static str, doc: &SceneDoc) -> Workload {
    let scene = Scene::<f32>::from_doc(doc).expect("a valid scene");
    let frames: Vec<Vec<Collider<f32>>> = (0..FRAMES).map(|f| scene.colliders_at(f)).collect();
    let pairs = scene.pairs_for(&frames[0]).into_owned();
    let parry_shapes = scene
        .bodies
        .iter()
        .map(|b| parry025(&doc.shapes[b.shape].1))
        .collect();
    Workload {
        name,
        prediction: scene.prediction,
        frames,
        parry_shapes,
        pairs,
    }
}

/// 16 × 16 stacks of three unit boxes on a ground box.
fn resting_boxes() -> Workload {
    let k = 16;
    let mut bodies = vec![BodyDesc {
        id: 0,
        shape: "ground".to_owned(),
        position: [0.0, -0.5, 0.0],
        rotation: None,
        velocity: None,
    }];
    let mut pairs = Vec::new();
    let mut seed = 1u64;
    let mut jitter = move || {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
        ((seed >> 11) as f64 / (1u64 << 53) as f64 - 0.5) * 4e-4
    };
    for i in 0..k {
        for j in 0..k {
            let (x, z) = ((i as f64 - 8.0) * 1.1, (j as f64 - 8.0) * 1.1);
            for level in 0..3u64 {
                let id = bodies.len() as u64;
                bodies.push(BodyDesc {
                    id,
                    shape: "box".to_owned(),
                    position: [x, 0.49 + 0.99 * level as f64, z],
                    rotation: None,
                    velocity: Some(VelocityDesc {
                        linear: [jitter(), 0.0, jitter()],
                        angular: [0.0, jitter(), 0.0],
                    }),
                });
                pairs.push([if level == 0 { 0 } else { id - 1 }, id]);
            }
        }
    }
    let doc = SceneDoc {
        prediction: 0.01,
        shapes: vec![
            (
                "ground".to_owned(),
                ShapeDesc::Cuboid {
                    half_extents: [10.0, 0.5, 10.0],
                },
            ),
            (
                "box".to_owned(),
                ShapeDesc::Cuboid {
                    half_extents: [0.5, 0.5, 0.5],
                },
            ),
        ],
        bodies,
        pairs: Some(pairs),
    };
    workload("resting_boxes", &doc)
}

fn mixed_pile() -> Workload {
    workload("mixed_pile", &demo_scene(3000, 20240601))
}

/// 2 000 pairs of 64-point hulls, half penetrating, tumbling.
fn hull64() -> Workload {
    let points = common::ellipsoid_points(64, nalgebra::Vector3::repeat(0.5), 64);
    let mut rng = common::rng(6464);
    let mut bodies = Vec::new();
    let mut pairs = Vec::new();
    for i in 0..2000u64 {
        let a = [(i % 50) as f64 * 3.0, (i / 50) as f64 * 3.0, 0.0];
        let u = common::random_unit(&mut rng);
        let gap = if i % 2 == 0 { 0.85 } else { 1.02 };
        let rotation = |rng: &mut rand_pcg::Pcg64| {
            let q = common::random_rotation(rng);
            Some(RotationDesc::Quaternion([q.i, q.j, q.k, q.w]))
        };
        let spin = common::random_unit(&mut rng) * 0.01;
        let drift = u.cross(&common::random_unit(&mut rng)).normalize() * 1e-3;
        bodies.push(BodyDesc {
            id: 2 * i,
            shape: "hull64".to_owned(),
            position: a,
            rotation: rotation(&mut rng),
            velocity: None,
        });
        bodies.push(BodyDesc {
            id: 2 * i + 1,
            shape: "hull64".to_owned(),
            position: [a[0] + u.x * gap, a[1] + u.y * gap, a[2] + u.z * gap],
            rotation: rotation(&mut rng),
            velocity: Some(VelocityDesc {
                linear: drift.into(),
                angular: spin.into(),
            }),
        });
        pairs.push([2 * i, 2 * i + 1]);
    }
    let doc = SceneDoc {
        prediction: 0.02,
        shapes: vec![(
            "hull64".to_owned(),
            ShapeDesc::Convex {
                points: points.iter().map(|p| [p.x, p.y, p.z]).collect(),
            },
        )],
        bodies,
        pairs: Some(pairs),
    };
    workload("hull64", &doc)
}

/// nphase's pipeline over a workload with `threads` threads.
struct NphaseRunner<'a> {
    w: &'a Workload,
    narrow: NarrowPhase<f32>,
    step: u64,
}

impl<'a> NphaseRunner<'a> {
    fn new(w: &'a Workload, threads: usize) -> Self {
        let mut r = NphaseRunner {
            w,
            narrow: NarrowPhase::new(NarrowPhaseConfig {
                prediction: w.prediction,
                threads,
                chunk_size: CHUNK,
            })
            .expect("valid config"),
            step: 0,
        };
        r.frame();
        r
    }

    fn frame(&mut self) -> usize {
        let colliders = &self.w.frames[frame_at(self.step, FRAMES)];
        self.step += 1;
        let m = self.narrow.update(colliders, &self.w.pairs).expect("valid");
        m.len()
    }
}

/// What parry keeps per pair between frames.
type ParryPairState = (
    Vec<ContactManifold<(), ()>>,
    Option<ContactManifoldsWorkspace>,
);

/// parry3d's persistent manifolds over a workload with `threads` threads.
struct ParryRunner<'a> {
    w: &'a Workload,
    pool: rayon::ThreadPool,
    state: Vec<ParryPairState>,
    step: u64,
    /// Empty every manifold before its update, so parry recomputes it instead of moving last
    /// frame's points along (its `try_update_contacts` shortcut).
    recompute: bool,
}

impl<'a> ParryRunner<'a> {
    fn new(w: &'a Workload, threads: usize, recompute: bool) -> Self {
        let mut r = ParryRunner {
            recompute,
            w,
            pool: rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .expect("a thread pool"),
            state: (0..w.pairs.len()).map(|_| (Vec::new(), None)).collect(),
            step: 0,
        };
        r.frame();
        r
    }

    fn frame(&mut self) -> usize {
        let colliders = &self.w.frames[frame_at(self.step, FRAMES)];
        self.step += 1;
        let (w, state, recompute) = (self.w, &mut self.state, self.recompute);
        let run_chunk = |states: &mut [(Vec<ContactManifold<(), ()>>, _)],
                         pairs: &[(usize, usize)]| {
            let mut points = 0;
            for ((manifolds, workspace), &(a, b)) in states.iter_mut().zip(pairs) {
                let pos12: Isometry<f32> = colliders[a].pose.inv_mul(&colliders[b].pose);
                if recompute {
                    manifolds.iter_mut().for_each(ContactManifold::clear);
                }
                // Pairs parry does not support (none in these workloads) keep no manifold.
                let _ = DefaultQueryDispatcher.contact_manifolds(
                    &pos12,
                    w.parry_shapes[a].as_ref(),
                    w.parry_shapes[b].as_ref(),
                    w.prediction,
                    manifolds,
                    workspace,
                );
                points += manifolds.iter().map(|m| m.points.len()).sum::<usize>();
            }
            points
        };
        if self.pool.current_num_threads() == 1 {
            // The same sequential path as nphase's single-thread run.
            state
                .chunks_mut(CHUNK)
                .zip(w.pairs.chunks(CHUNK))
                .map(|(s, p)| run_chunk(s, p))
                .sum()
        } else {
            self.pool.install(|| {
                state
                    .par_chunks_mut(CHUNK)
                    .zip(w.pairs.par_chunks(CHUNK))
                    .map(|(s, p)| run_chunk(s, p))
                    .sum()
            })
        }
    }
}

fn bench_workload(c: &mut Criterion, w: &Workload) {
    eprintln!("{}: {} pairs per frame", w.name, w.pairs.len());
    let mut group = c.benchmark_group(format!("pipeline/{}", w.name));
    group.throughput(Throughput::Elements(w.pairs.len() as u64));
    let mut nphase = NphaseRunner::new(w, 1);
    group.bench_function(BenchmarkId::new("nphase_f32", "1t"), |b| {
        b.iter(|| black_box(nphase.frame()))
    });
    let mut parry = ParryRunner::new(w, 1, false);
    group.bench_function(BenchmarkId::new("parry3d_f32", "1t"), |b| {
        b.iter(|| black_box(parry.frame()))
    });
    let mut parry = ParryRunner::new(w, 1, true);
    group.bench_function(BenchmarkId::new("parry3d_f32_recompute", "1t"), |b| {
        b.iter(|| black_box(parry.frame()))
    });
    group.finish();
}

fn pipeline(c: &mut Criterion) {
    for w in [resting_boxes(), mixed_pile(), hull64()] {
        bench_workload(c, &w);
    }
}

/// Nanoseconds per pair per frame: the best of 7 runs of 32 frames (after 16 warm-up frames).
fn ns_per_pair(pairs: usize, mut frame: impl FnMut() -> usize) -> f64 {
    for _ in 0..16 {
        black_box(frame());
    }
    let mut best = f64::INFINITY;
    for _ in 0..7 {
        let start = Instant::now();
        for _ in 0..32 {
            black_box(frame());
        }
        best = best.min(start.elapsed().as_nanos() as f64 / (32 * pairs) as f64);
    }
    best
}

/// The thread-scaling table: both sides, both workloads, 1..N threads plus 4 and 8.
fn scaling(path: &str) {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut counts: Vec<usize> = (1..=cores).chain([4, 8]).collect();
    counts.sort_unstable();
    counts.dedup();
    let mut csv = String::from(
        "workload,pairs,threads,cores,nphase_ns_per_pair,parry3d_ns_per_pair,parry3d_recompute_ns_per_pair,parry_over_nphase,parry_recompute_over_nphase\n",
    );
    for w in [resting_boxes(), mixed_pile()] {
        for &threads in &counts {
            let mut n = NphaseRunner::new(&w, threads);
            let ns_n = ns_per_pair(w.pairs.len(), || n.frame());
            let mut p = ParryRunner::new(&w, threads, false);
            let ns_p = ns_per_pair(w.pairs.len(), || p.frame());
            let mut p = ParryRunner::new(&w, threads, true);
            let ns_r = ns_per_pair(w.pairs.len(), || p.frame());
            let line = format!(
                "{},{},{threads},{cores},{ns_n:.1},{ns_p:.1},{ns_r:.1},{:.2},{:.2}\n",
                w.name,
                w.pairs.len(),
                ns_p / ns_n,
                ns_r / ns_n
            );
            eprint!("{line}");
            csv += &line;
        }
    }
    std::fs::write(path, csv).expect("the CSV is written");
    eprintln!("wrote {path}");
}

/// Warm against cold starts on one thread: the same frames, with every pair's state kept
/// (warm) or dropped before each frame (cold: an update with no pairs forgets them all, and only
/// the real update is timed). Mean GJK iterations per pair and ns per pair per frame.
fn warm_vs_cold() {
    println!(
        "workload,start,gjk_iterations_per_pair,epa_runs_per_frame,ns_per_pair,sat_runs_per_frame,sat_cache_hits_per_frame"
    );
    for w in [resting_boxes(), mixed_pile(), hull64()] {
        for cold in [false, true] {
            let mut r = NphaseRunner::new(&w, 1);
            let (mut iterations, mut pairs, mut epa, mut frames) = (0, 0, 0, 0);
            let (mut sat, mut hits) = (0, 0);
            let mut frame = || {
                if cold {
                    r.narrow.update(&w.frames[0], &[]).expect("valid");
                }
                let start = Instant::now();
                let n = r.frame();
                let elapsed = start.elapsed();
                let s = r.narrow.stats();
                iterations += s.gjk_iterations;
                pairs += s.pairs;
                epa += s.epa_runs;
                sat += s.sat_runs;
                hits += s.sat_cache_hits;
                frames += 1;
                black_box(n);
                elapsed
            };
            for _ in 0..16 {
                frame();
            }
            let mut best = f64::INFINITY;
            for _ in 0..7 {
                let mut total = 0.0;
                for _ in 0..32 {
                    total += frame().as_nanos() as f64;
                }
                best = best.min(total / (32 * w.pairs.len()) as f64);
            }
            println!(
                "{},{},{:.3},{:.1},{best:.1},{:.1},{:.1}",
                w.name,
                if cold { "cold" } else { "warm" },
                iterations as f64 / pairs as f64,
                epa as f64 / frames as f64,
                sat as f64 / frames as f64,
                hits as f64 / frames as f64
            );
        }
    }
}

/// `--callgrind`: one group per workload, nphase on one thread, one coherent frame per run, for
/// `benches/callgrind.sh pipeline` (instructions per pair-frame).
fn callgrind() {
    let workloads = [resting_boxes(), mixed_pile(), hull64()];
    let mut harness = common::harness::Harness::new();
    for w in &workloads {
        let mut runner = NphaseRunner::new(w, 1);
        harness
            .group(&format!("frames/{}", w.name), w.pairs.len())
            .case("nphase_f32", move || {
                black_box(runner.frame());
            });
    }
    harness.run();
}

fn main() {
    if std::env::args().any(|a| a == "--callgrind") {
        callgrind();
        return;
    }
    if let Ok(path) = std::env::var("PIPELINE_SCALING_CSV") {
        scaling(&path);
        return;
    }
    if std::env::var_os("PIPELINE_WARM_COLD").is_some() {
        warm_vs_cold();
        return;
    }
    let mut c = Criterion::default().configure_from_args();
    pipeline(&mut c);
    c.final_summary();
}
