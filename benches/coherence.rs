//! Coherent frames, side by side: nphase's pipeline against parry3d 0.31.1 (what rapier 0.36
//! runs) and parry3d 0.25, the same pairs and the same motion in one run.
//!
//! Each frame brings every pair's manifold up to date from the pair's state of the previous
//! frame, the way an engine's narrowphase does:
//!
//! * nphase — `NarrowPhase::<T>::update(&colliders, &pairs)` (certified reuse, warm starts),
//!   f32 and f64;
//! * parry3d 0.31 and 0.25 — `DefaultQueryDispatcher.contact_manifolds(pos12, shape1, shape2,
//!   prediction, &mut manifolds, &mut workspace)`, each pair's manifolds and workspace kept
//!   between frames (parry's own shortcut, `try_update_contacts`, moves last frame's points
//!   along while the pose changed by less than 1e-3 and 1°, as in rapier); f32 (parry 0.31 has
//!   no f64 build here).
//!
//! All sides run the pairs in chunks of 128, sequentially on one thread or with rayon on a pool
//! of two. Workloads (prediction 0.02; "moving": every body turns by 1e-3 rad and moves by
//! 1e-3 per frame along seeded random directions; "slow": the same by 1e-5, as bodies at rest
//! under a solver's jitter; "creep": by 1e-6, a resting rapier pile's per-step motion
//! (docs/engines.md); "rest": nothing moves):
//!
//! * `boxes` — 2 000 pairs of unit boxes face on face, 1e-3 deep, offset and turned about the
//!   normal at random;
//! * `pile` — the demo's pile of 5 000 bodies (`demo_scene(5000, 20240601)`: every shape type),
//!   the broadphase pairs of frame 0;
//! * `hulls` — 2 000 pairs of 64-point hulls (points on ellipsoids of semi-axes 0.4–0.6), half
//!   0.05 deep, half 0.01 apart;
//! * `apart` — 2 000 pairs whose shapes are 0.1 apart (beyond the prediction, as a broadphase
//!   with fat AABBs hands over): hull–hull, box–box and hull–box.
//!
//! Frames: 10 precomputed, run forwards and backwards (0, 1, …, 9, 8, …), so every frame is
//! coherent with the one before; measurements start in the steady state.
//!
//! ```text
//! cargo bench --bench coherence -- --warm-up-time 1 --measurement-time 3   # criterion
//! COHERENCE_TABLE=1 cargo bench --bench coherence     # interleaved rounds → markdown table
//! benches/coherence_callgrind.sh                      # instructions per pair-frame
//! ```
//!
//! The table mode runs every configuration for one period (18 frames) per round, rounds
//! interleaved, and keeps each configuration's fastest round (the machine is shared: the
//! minimum is the least disturbed); it prints ns per pair-frame, parry 0.31 over nphase, and
//! nphase's reuse and warm-start rates. The callgrind mode
//! (`COHERENCE_CALLGRIND=workload/variant/engine`, one thread) warms one configuration up and
//! then runs one period inside `measured_period`, which the script counts alone. The digest
//! mode (`COHERENCE_DIGEST=1`) prints a hash of nphase's manifolds over two periods of every
//! workload, f32 and f64: two builds that print the same digests gave the same answers bit
//! for bit.

use std::hint::black_box;
use std::time::Instant;

use criterion::{BenchmarkId, Criterion, Throughput};
use nphase::math::Real;
use nphase::shapes::Shape;
use nphase::{Collider, NarrowPhase, NarrowPhaseConfig, StepStats};
use nphase_cli::demo::demo_scene;
use nphase_cli::scene::{BodyDesc, RotationDesc, Scene, SceneDoc, ShapeDesc};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;
use rayon::prelude::*;

#[allow(dead_code)]
mod common;

use common::scenes::{frame_at, motion, parry025, parry031};

const FRAMES: u64 = 10;
const PERIOD: u64 = 2 * (FRAMES - 1);
const CHUNK: usize = 128;
const PREDICTION: f64 = 0.02;
const STEP: f64 = 1e-3;
const SLOW_STEP: f64 = 1e-5;
const CREEP_STEP: f64 = 1e-6;
const PAIRS: usize = 2000;

// ---------------------------------------------------------------------------------------------
// Workloads.
// ---------------------------------------------------------------------------------------------

/// A workload's precomputed frames in every engine's form.
struct Workload {
    name: String,
    pairs: Vec<(usize, usize)>,
    nphase32: Vec<Vec<Collider<f32>>>,
    nphase64: Vec<Vec<Collider<f64>>>,
    shapes031: Vec<parry3d_031::shape::SharedShape>,
    poses031: Vec<Vec<parry3d_031::math::Pose>>,
    shapes025: Vec<parry3d::shape::SharedShape>,
    poses025: Vec<Vec<parry3d::math::Isometry<f32>>>,
}

impl Workload {
    fn new(name: String, doc: &SceneDoc) -> Self {
        let scene32 = Scene::<f32>::from_doc(doc).expect("a valid scene");
        let scene64 = Scene::<f64>::from_doc(doc).expect("a valid scene");
        let nphase32: Vec<_> = (0..FRAMES).map(|f| scene32.colliders_at(f)).collect();
        let nphase64: Vec<_> = (0..FRAMES).map(|f| scene64.colliders_at(f)).collect();
        let pairs = scene32.pairs_for(&nphase32[0]).into_owned();
        let shape_of = |b: &nphase_cli::scene::Body<f32>| &doc.shapes[b.shape].1;
        let poses031 = nphase32
            .iter()
            .map(|frame| {
                frame
                    .iter()
                    .map(|c| nphase_parry::glam_nalgebra::pose_from_na(&c.pose))
                    .collect()
            })
            .collect();
        let poses025 = nphase32
            .iter()
            .map(|frame| frame.iter().map(|c| c.pose).collect())
            .collect();
        Workload {
            name,
            pairs,
            shapes031: scene32
                .bodies
                .iter()
                .map(|b| parry031(shape_of(b)))
                .collect(),
            shapes025: scene32
                .bodies
                .iter()
                .map(|b| parry025(shape_of(b)))
                .collect(),
            nphase32,
            nphase64,
            poses031,
            poses025,
        }
    }
}

/// The variants of a workload built from `doc_of(step)`: moving, slow, creeping, at rest.
fn variants(name: &str, doc_of: impl Fn(f64) -> SceneDoc) -> [Workload; 4] {
    [
        ("moving", STEP),
        ("slow", SLOW_STEP),
        ("creep", CREEP_STEP),
        ("rest", 0.0),
    ]
    .map(|(label, step)| Workload::new(format!("{name}/{label}"), &doc_of(step)))
}

fn cuboid(h: f64) -> ShapeDesc {
    ShapeDesc::Cuboid {
        half_extents: [h; 3],
    }
}

fn body(id: u64, shape: String, position: [f64; 3], rotation: [f64; 3]) -> BodyDesc {
    BodyDesc {
        id,
        shape,
        position,
        rotation: Some(RotationDesc::AxisAngle(rotation)),
        velocity: None,
    }
}

/// Seeded motion by `step` a frame for every body but the ground (id 0 when `keep_ground`),
/// or none (`step` 0).
fn set_motion(doc: &mut SceneDoc, step: f64, keep_ground: bool, seed: u64) {
    let mut rng = Pcg64::seed_from_u64(seed);
    for b in &mut doc.bodies {
        b.velocity = (step > 0.0 && !(keep_ground && b.id == 0))
            .then(|| motion(step, || rng.random_range(-1.0..1.0)));
    }
}

/// The position of the `i`-th pair on a grid 3 units apart.
fn grid(i: usize) -> [f64; 3] {
    [(i % 50) as f64 * 3.0, 0.0, (i / 50) as f64 * 3.0]
}

fn boxes(step: f64) -> SceneDoc {
    let mut rng = Pcg64::seed_from_u64(1);
    let mut bodies = Vec::new();
    let mut pairs = Vec::new();
    for i in 0..PAIRS {
        let [x, _, z] = grid(i);
        let (a, b) = (2 * i as u64, 2 * i as u64 + 1);
        let mut r = |h: f64| rng.random_range(-h..h);
        bodies.push(body(a, "box".into(), [x, 0.0, z], [0.0; 3]));
        bodies.push(body(
            b,
            "box".into(),
            [x + r(0.3), 0.999, z + r(0.3)],
            [0.0, r(0.5), 0.0],
        ));
        pairs.push([a, b]);
    }
    let mut doc = SceneDoc {
        prediction: PREDICTION,
        shapes: vec![("box".into(), cuboid(0.5))],
        bodies,
        pairs: Some(pairs),
    };
    set_motion(&mut doc, step, false, 2);
    doc
}

fn pile(step: f64) -> SceneDoc {
    let mut doc = demo_scene(5000, 20240601);
    doc.prediction = PREDICTION;
    set_motion(&mut doc, step, true, 3);
    doc
}

/// 64 points on an ellipsoid of semi-axes 0.4–0.6.
fn hull(rng: &mut Pcg64) -> ShapeDesc {
    let radii = nalgebra::Vector3::from_fn(|_, _| rng.random_range(0.4..0.6));
    let points = common::ellipsoid_points(64, radii, rng.random())
        .iter()
        .map(|p| [p.x, p.y, p.z])
        .collect();
    ShapeDesc::Convex { points }
}

/// Pairs of shapes from `kinds(i)` with B along a random direction from A at the signed
/// distance `gap(i)` (bisection on nphase's f64 distance), randomly turned.
fn placed_pairs(
    seed: u64,
    kinds: impl Fn(usize, &mut Pcg64) -> (ShapeDesc, ShapeDesc),
    gap: impl Fn(usize) -> f64,
) -> SceneDoc {
    let mut rng = Pcg64::seed_from_u64(seed);
    let (mut shapes, mut bodies, mut pairs) = (Vec::new(), Vec::new(), Vec::new());
    for i in 0..PAIRS {
        let (da, db) = kinds(i, &mut rng);
        let build = |d: &ShapeDesc| -> Shape<f64> {
            let doc = SceneDoc {
                prediction: 0.0,
                shapes: vec![("s".into(), d.clone())],
                bodies: vec![body(0, "s".into(), [0.0; 3], [0.0; 3])],
                pairs: Some(Vec::new()),
            };
            Scene::<f64>::from_doc(&doc).expect("valid").shapes[0]
                .1
                .clone()
        };
        let (sa, sb) = (build(&da), build(&db));
        let direction = common::random_unit(&mut rng);
        let turn = common::random_rotation(&mut rng).scaled_axis();
        let rotation = nalgebra::UnitQuaternion::from_scaled_axis(turn);
        let dist_at = |t: f64| {
            let pose = nalgebra::Isometry3::from_parts((direction * t).into(), rotation);
            nphase::distance(&nalgebra::Isometry3::identity(), &sa, &pose, &sb).expect("valid")
        };
        let (mut lo, mut hi) = (0.0, 4.0);
        for _ in 0..60 {
            let mid = 0.5 * (lo + hi);
            if dist_at(mid) < gap(i) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        let [x, y, z] = grid(i);
        let offset = direction * hi;
        let (a, b) = (2 * i as u64, 2 * i as u64 + 1);
        shapes.push((format!("a{i}"), da));
        shapes.push((format!("b{i}"), db));
        bodies.push(body(a, format!("a{i}"), [x, y, z], [0.0; 3]));
        bodies.push(body(
            b,
            format!("b{i}"),
            [x + offset.x, y + offset.y, z + offset.z],
            [turn.x, turn.y, turn.z],
        ));
        pairs.push([a, b]);
    }
    SceneDoc {
        prediction: PREDICTION,
        shapes,
        bodies,
        pairs: Some(pairs),
    }
}

fn hulls(step: f64) -> SceneDoc {
    let mut doc = placed_pairs(
        4,
        |_, rng| (hull(rng), hull(rng)),
        |i| if i % 2 == 0 { -0.05 } else { 0.01 },
    );
    set_motion(&mut doc, step, false, 5);
    doc
}

fn apart(step: f64) -> SceneDoc {
    let mut doc = placed_pairs(
        6,
        |i, rng| match i % 3 {
            0 => (hull(rng), hull(rng)),
            1 => (cuboid(0.5), cuboid(0.4)),
            _ => (hull(rng), cuboid(0.45)),
        },
        |_| 0.1,
    );
    set_motion(&mut doc, step, false, 7);
    doc
}

/// A workload's scene, moving by a step a frame (0: at rest).
type DocOf = fn(f64) -> SceneDoc;

/// The workloads named in `COHERENCE_WORKLOADS` (comma-separated; all when unset), in its three
/// variants.
fn workloads() -> Vec<Workload> {
    let filter = std::env::var("COHERENCE_WORKLOADS").unwrap_or_default();
    let all: [(&str, DocOf); 4] = [
        ("boxes", boxes),
        ("pile", pile),
        ("hulls", hulls),
        ("apart", apart),
    ];
    all.iter()
        .filter(|(name, _)| filter.is_empty() || filter.split(',').any(|f| f == *name))
        .flat_map(|(name, doc)| variants(name, doc))
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Engines.
// ---------------------------------------------------------------------------------------------

/// One engine on one workload: `frame` brings every manifold up to date (the next frame) and
/// returns the number of contact points.
trait Runner {
    fn frame(&mut self) -> usize;
    /// nphase's statistics of the last frame.
    fn stats(&self) -> Option<StepStats> {
        None
    }
    /// nphase only: runs the next frame and returns a hash of every manifold's bits (normal,
    /// tangent, each point's geometry, id and impulses), to compare two builds' answers.
    fn digest_frame(&mut self) -> Option<u64> {
        None
    }
}

struct NphaseRunner<'a, T: Real> {
    frames: &'a [Vec<Collider<T>>],
    pairs: &'a [(usize, usize)],
    narrow: NarrowPhase<T>,
    step: u64,
}

impl<'a, T: Real> NphaseRunner<'a, T> {
    fn new(frames: &'a [Vec<Collider<T>>], pairs: &'a [(usize, usize)], threads: usize) -> Self {
        let narrow = NarrowPhase::new(NarrowPhaseConfig {
            prediction: T::lit(PREDICTION),
            threads,
            chunk_size: CHUNK,
        })
        .expect("a valid configuration");
        NphaseRunner {
            frames,
            pairs,
            narrow,
            step: 0,
        }
    }
}

impl<T: Real> Runner for NphaseRunner<'_, T> {
    fn frame(&mut self) -> usize {
        let colliders = &self.frames[frame_at(self.step, FRAMES)];
        self.step += 1;
        let manifolds = self.narrow.update(colliders, self.pairs).expect("valid");
        manifolds.iter().map(|m| m.points.len()).sum()
    }

    fn stats(&self) -> Option<StepStats> {
        Some(*self.narrow.stats())
    }

    fn digest_frame(&mut self) -> Option<u64> {
        use std::hash::{DefaultHasher, Hasher};
        let colliders = &self.frames[frame_at(self.step, FRAMES)];
        self.step += 1;
        let manifolds = self.narrow.update(colliders, self.pairs).expect("valid");
        let mut h = DefaultHasher::new();
        let put = |h: &mut DefaultHasher, xs: &[T]| xs.iter().for_each(|x| h.write_u64(x.bits()));
        for m in manifolds {
            put(&mut h, m.local_normal1.as_slice());
            put(&mut h, m.local_tangent1.as_slice());
            put(&mut h, &[m.twist_impulse]);
            for p in &m.points {
                put(&mut h, p.local_point1.coords.as_slice());
                put(&mut h, p.local_point2.coords.as_slice());
                let impulses = [p.normal_impulse, p.tangent_impulse[0], p.tangent_impulse[1]];
                put(&mut h, &[p.dist]);
                put(&mut h, &impulses);
                h.write_u64(p.id.pack());
                h.write_u8(u8::from(p.persisted));
            }
            h.write_usize(m.points.len());
        }
        Some(h.finish())
    }
}

/// parry's persistent manifolds, either version: `update(frame, pair, state)` brings one
/// pair's state up to date and returns its points.
struct ParryRunner<St, F> {
    pool: Option<rayon::ThreadPool>,
    states: Vec<St>,
    update: F,
    step: u64,
}

impl<St: Send, F: Fn(usize, usize, &mut St) -> usize + Sync> ParryRunner<St, F> {
    fn new(pairs: usize, threads: usize, update: F) -> Self
    where
        St: Default,
    {
        let pool = (threads > 1).then(|| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .expect("a thread pool")
        });
        ParryRunner {
            pool,
            states: (0..pairs).map(|_| St::default()).collect(),
            update,
            step: 0,
        }
    }
}

impl<St: Send, F: Fn(usize, usize, &mut St) -> usize + Sync> Runner for ParryRunner<St, F> {
    fn frame(&mut self) -> usize {
        let frame = frame_at(self.step, FRAMES);
        self.step += 1;
        let update = &self.update;
        let chunk = |(k, states): (usize, &mut [St])| -> usize {
            states
                .iter_mut()
                .enumerate()
                .map(|(j, s)| update(frame, k * CHUNK + j, s))
                .sum()
        };
        match &self.pool {
            None => self.states.chunks_mut(CHUNK).enumerate().map(chunk).sum(),
            Some(pool) => {
                let states = &mut self.states;
                pool.install(|| states.par_chunks_mut(CHUNK).enumerate().map(chunk).sum())
            }
        }
    }
}

type State031 = (
    Vec<parry3d_031::query::ContactManifold<(), ()>>,
    Option<parry3d_031::query::ContactManifoldsWorkspace>,
);
type State025 = (
    Vec<parry3d::query::ContactManifold<(), ()>>,
    Option<parry3d::query::ContactManifoldsWorkspace>,
);

/// `fn $name(w, threads)`: a runner of one parry version (`$krate`), whose per-pair state,
/// poses and shapes are `$state`, `w.$poses` and `w.$shapes`.
macro_rules! parry_runner {
    ($name:ident, $krate:ident, $state:ty, $poses:ident, $shapes:ident) => {
        fn $name(w: &Workload, threads: usize) -> Box<dyn Runner + '_> {
            use $krate::query::{DefaultQueryDispatcher, PersistentQueryDispatcher};
            let update = move |frame: usize, pair: usize, (manifolds, workspace): &mut $state| {
                let (a, b) = w.pairs[pair];
                let poses = &w.$poses[frame];
                let pos12 = poses[a].inv_mul(&poses[b]);
                let _ = DefaultQueryDispatcher.contact_manifolds(
                    &pos12,
                    w.$shapes[a].as_ref(),
                    w.$shapes[b].as_ref(),
                    PREDICTION as f32,
                    manifolds,
                    workspace,
                );
                manifolds.iter().map(|m| m.points.len()).sum()
            };
            Box::new(ParryRunner::new(w.pairs.len(), threads, update))
        }
    };
}

parry_runner!(parry031_runner, parry3d_031, State031, poses031, shapes031);
parry_runner!(parry025_runner, parry3d, State025, poses025, shapes025);

/// The configurations measured: engine, precision, threads.
const ENGINES: [(&str, usize); 8] = [
    ("nphase_f32", 1),
    ("nphase_f64", 1),
    ("parry031_f32", 1),
    ("parry025_f32", 1),
    ("nphase_f32", 2),
    ("nphase_f64", 2),
    ("parry031_f32", 2),
    ("parry025_f32", 2),
];

fn runner<'a>(w: &'a Workload, engine: &str, threads: usize) -> Box<dyn Runner + 'a> {
    match engine {
        "nphase_f32" => Box::new(NphaseRunner::new(&w.nphase32, &w.pairs, threads)),
        "nphase_f64" => Box::new(NphaseRunner::new(&w.nphase64, &w.pairs, threads)),
        "parry031_f32" => parry031_runner(w, threads),
        "parry025_f32" => parry025_runner(w, threads),
        other => panic!("unknown engine {other}"),
    }
}

/// Runs one period of frames; what the callgrind script counts.
#[inline(never)]
fn measured_period(r: &mut dyn Runner) -> usize {
    (0..PERIOD).map(|_| r.frame()).sum()
}

/// Runs two periods of frames (the first frame cold, the rest into the steady state); not
/// counted by the callgrind script.
#[inline(never)]
fn warm_up(r: &mut dyn Runner) {
    for _ in 0..2 * PERIOD {
        black_box(r.frame());
    }
}

// ---------------------------------------------------------------------------------------------
// Modes.
// ---------------------------------------------------------------------------------------------

fn criterion_groups(c: &mut Criterion, w: &Workload) {
    eprintln!("{}: {} pairs per frame", w.name, w.pairs.len());
    let mut group = c.benchmark_group(format!("coherence/{}", w.name));
    group.throughput(Throughput::Elements(w.pairs.len() as u64));
    for (engine, threads) in ENGINES {
        let mut r = runner(w, engine, threads);
        warm_up(r.as_mut());
        group.bench_function(BenchmarkId::new(engine, format!("{threads}t")), |b| {
            b.iter(|| black_box(r.frame()))
        });
    }
    group.finish();
}

/// Per-pair rates of nphase's statistics over one period.
#[derive(Default)]
struct Rates {
    unchanged: f64,
    apart: f64,
    still: f64,
    warm: f64,
    epa: f64,
    epa_warm: f64,
    certified: f64,
    points: f64,
}

fn rates(r: &mut dyn Runner) -> Rates {
    let mut sum = StepStats::default();
    for _ in 0..PERIOD {
        r.frame();
        if let Some(s) = r.stats() {
            sum = sum + s;
        }
    }
    let pairs = sum.pairs.max(1) as f64;
    Rates {
        unchanged: sum.reused_unchanged as f64 / pairs,
        apart: sum.reused_apart as f64 / pairs,
        still: sum.reused_still as f64 / pairs,
        warm: sum.warm_starts as f64 / pairs,
        epa: sum.epa_runs as f64 / pairs,
        epa_warm: sum.epa_warm as f64 / pairs,
        certified: sum.sat_certified as f64 / pairs,
        points: sum.points as f64 / pairs,
    }
}

/// The interleaved table: fastest of `rounds` rounds, ns per pair-frame.
fn table(rounds: usize) {
    println!(
        "| workload | pairs | threads | nphase f32 | nphase f64 | parry 0.31 | parry 0.25 | \
         parry 0.31 / nphase f32 | unchanged | apart | still | warm | EPA | of which warm | \
         certified | points/pair |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for w in workloads() {
        for threads in [1, 2] {
            let engines: Vec<&str> = ENGINES
                .iter()
                .filter(|(_, t)| *t == threads)
                .map(|(e, _)| *e)
                .collect();
            let mut runners: Vec<_> = engines.iter().map(|e| runner(&w, e, threads)).collect();
            for r in &mut runners {
                warm_up(r.as_mut());
            }
            let mut best = vec![f64::INFINITY; runners.len()];
            for _ in 0..rounds {
                for (k, r) in runners.iter_mut().enumerate() {
                    let start = Instant::now();
                    black_box(measured_period(r.as_mut()));
                    let ns = start.elapsed().as_nanos() as f64;
                    best[k] = best[k].min(ns / (PERIOD as f64 * w.pairs.len() as f64));
                }
            }
            let rate = rates(runners[0].as_mut());
            println!(
                "| {} | {} | {threads} | {:.0} | {:.0} | {:.0} | {:.0} | {:.2} | {:.1} % | {:.1} % | \
                 {:.1} % | {:.1} % | {:.1} % | {:.1} % | {:.1} % | {:.2} |",
                w.name,
                w.pairs.len(),
                best[0],
                best[1],
                best[2],
                best[3],
                best[2] / best[0],
                100.0 * rate.unchanged,
                100.0 * rate.apart,
                100.0 * rate.still,
                100.0 * rate.warm,
                100.0 * rate.epa,
                100.0 * rate.epa_warm,
                100.0 * rate.certified,
                rate.points,
            );
        }
    }
}

/// One configuration under callgrind: warm-up, then one period in [`measured_period`].
fn callgrind(spec: &str) {
    let (name, engine) = spec.split_once('/').expect("workload/variant/engine");
    let (variant, engine) = engine.split_once('/').expect("workload/variant/engine");
    let w = workloads()
        .into_iter()
        .find(|w| w.name == format!("{name}/{variant}"))
        .expect("a known workload");
    let mut r = runner(&w, engine, 1);
    warm_up(r.as_mut());
    let points = measured_period(r.as_mut());
    println!(
        "pair_frames={} points={points}",
        PERIOD as usize * w.pairs.len()
    );
}

/// Every workload and variant, nphase f32 and f64 on one thread: a hash of the manifolds of
/// each frame of two periods (from new pairs on), combined, to compare two builds bit for bit.
fn digests() {
    for w in workloads() {
        for engine in ["nphase_f32", "nphase_f64"] {
            let mut r = runner(&w, engine, 1);
            let digest = (0..2 * PERIOD).fold(0u64, |d, _| {
                d.rotate_left(7) ^ r.digest_frame().expect("an nphase runner")
            });
            println!("{}/{engine}: {digest:016x}", w.name);
        }
    }
}

fn main() {
    if std::env::var_os("COHERENCE_DIGEST").is_some() {
        digests();
        return;
    }
    if let Ok(spec) = std::env::var("COHERENCE_CALLGRIND") {
        callgrind(&spec);
        return;
    }
    if std::env::var_os("COHERENCE_TABLE").is_some() {
        let rounds = std::env::var("COHERENCE_ROUNDS")
            .ok()
            .and_then(|r| r.parse().ok())
            .unwrap_or(7);
        table(rounds);
        return;
    }
    let mut c = Criterion::default().configure_from_args();
    for w in workloads() {
        criterion_groups(&mut c, &w);
    }
    c.final_summary();
}
