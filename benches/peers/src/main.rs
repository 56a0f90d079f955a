//! Cold one-shot query times of nphase against its peers (issue 13), in one run.
//!
//! Every engine answers, for every pair of a workload, the signed distance and the normal of
//! two posed shapes, cold (no cache, no state kept between calls), one thread:
//!
//! * `nphase f64` / `nphase f32` — `nphase::contact(pos1, shape1, pos2, shape2, prediction)`;
//! * `parry 0.25 f64` — `parry3d_f64::query::contact` (nalgebra, what nphase-shapes adapts);
//! * `parry 0.31 f32` / `parry 0.31 f64` — `parry3d::query::contact` /
//!   `parry3d_f64::query::contact` 0.31 (glam, what rapier 0.36 runs);
//! * `libccd GJK-EPA` / `libccd MPR` — `ccdGJKPenetration` / `ccdMPRPenetration`, double
//!   precision, our support callbacks (with `LIBCCD_SRC`, see README.md);
//! * `Bullet GJK-EPA` — `btGjkEpaSolver2::SignedDistance`, double precision (with
//!   `BULLET_SRC`).
//!
//! Two modes: `sd` asks every engine for the signed distance of every pair (prediction 10,
//! beyond every gap here; libccd cannot: it answers "separated" without a distance), `touch`
//! asks for contacts only (prediction 0: separated pairs end as soon as they are proven apart;
//! Bullet's call still computes the distance).
//!
//! The workloads are written to a text file once (`--file`, regenerated with `--regen`) and
//! every engine's input is built from that file. Rounds are interleaved (every engine once
//! over every workload per round, the engine order rotating), after one warm-up round whose
//! answers are checked against nphase f64's: a pair disagrees when its signed distance is off
//! by more than 1e-3 of the smaller shape's half-diagonal (a "separated" answer agrees when
//! nphase's distance is above −tol; a failure always disagrees). Timings are reported, never
//! asserted: the minimum over rounds (the least disturbed) and the median.

mod ffi;
mod workloads;

use std::hint::black_box;
use std::path::PathBuf;
use std::time::Instant;

use nalgebra::Isometry3;
use nphase::Shape;
use nphase_cli::scene::{Scene, SceneDoc, ShapeDesc};

use ffi::{FAILED, HIT, PeerOut, SEPARATED};
use workloads::{Iso, Workload};

// ---------------------------------------------------------------------------------------------
// Engines.
// ---------------------------------------------------------------------------------------------

/// One engine set up on one workload: `run` answers every pair into `out`.
trait Engine {
    fn run(&mut self, out: &mut [PeerOut]);
}

/// The nphase shapes of a workload in precision `T` (built by nphase-cli's scene code).
fn nphase_shapes<T: nphase::Real>(shapes: &[ShapeDesc]) -> Vec<Shape<T>> {
    let doc = SceneDoc {
        prediction: 0.0,
        shapes: shapes
            .iter()
            .enumerate()
            .map(|(i, d)| (format!("s{i}"), d.clone()))
            .collect(),
        bodies: Vec::new(),
        pairs: Some(Vec::new()),
    };
    Scene::<T>::from_doc(&doc)
        .expect("valid shapes")
        .shapes
        .into_iter()
        .map(|(_, s)| s)
        .collect()
}

struct Nphase<T: nphase::Real> {
    shapes: Vec<Shape<T>>,
    pairs: Vec<(usize, usize, Isometry3<T>, Isometry3<T>)>,
    prediction: T,
}

impl<T: nphase::Real> Nphase<T> {
    fn new(w: &Workload, prediction: f64) -> Self {
        Nphase {
            shapes: nphase_shapes(&w.shapes),
            pairs: w
                .pairs
                .iter()
                .map(|p| {
                    (
                        p.a,
                        p.b,
                        nalgebra::convert_ref(&p.pa),
                        nalgebra::convert_ref(&p.pb),
                    )
                })
                .collect(),
            prediction: T::lit(prediction),
        }
    }
}

impl<T: nphase::Real> Engine for Nphase<T> {
    fn run(&mut self, out: &mut [PeerOut]) {
        for (o, (a, b, pa, pb)) in out.iter_mut().zip(&self.pairs) {
            let c = nphase::contact(pa, &self.shapes[*a], pb, &self.shapes[*b], self.prediction);
            *o = match c {
                Ok(Some(c)) => PeerOut {
                    dist: c.dist.as_f64(),
                    normal: [c.normal1.x, c.normal1.y, c.normal1.z].map(|x| x.as_f64()),
                    status: HIT,
                    pad: 0,
                },
                Ok(None) => PeerOut {
                    dist: f64::INFINITY,
                    status: SEPARATED,
                    ..PeerOut::default()
                },
                Err(_) => PeerOut {
                    dist: f64::NAN,
                    status: FAILED,
                    ..PeerOut::default()
                },
            };
        }
    }
}

/// A parry-0.25-f64 shape from a description.
fn parry025(d: &ShapeDesc) -> parry3d_f64::shape::SharedShape {
    use parry3d_f64::math::Point;
    use parry3d_f64::shape::SharedShape as S;
    let p = |a: &[f64; 3]| Point::new(a[0], a[1], a[2]);
    let pts = |ps: &[[f64; 3]]| ps.iter().map(p).collect::<Vec<_>>();
    match d {
        ShapeDesc::Cuboid { half_extents: h } => S::cuboid(h[0], h[1], h[2]),
        ShapeDesc::Ball { radius } => S::ball(*radius),
        ShapeDesc::Capsule {
            half_height,
            radius,
        } => S::capsule_y(*half_height, *radius),
        ShapeDesc::Cylinder {
            half_height,
            radius,
        } => S::cylinder(*half_height, *radius),
        ShapeDesc::Cone {
            half_height,
            radius,
        } => S::cone(*half_height, *radius),
        ShapeDesc::Convex { points } => S::convex_hull(&pts(points)).expect("a hull"),
        ShapeDesc::Segment { a, b } => S::segment(p(a), p(b)),
        ShapeDesc::Triangle { a, b, c } => S::triangle(p(a), p(b), p(c)),
        ShapeDesc::Round {
            border_radius: r,
            inner,
        } => match inner.as_ref() {
            ShapeDesc::Cuboid { half_extents: h } => S::round_cuboid(h[0], h[1], h[2], *r),
            ShapeDesc::Cylinder {
                half_height,
                radius,
            } => S::round_cylinder(*half_height, *radius, *r),
            ShapeDesc::Convex { points } => S::round_convex_hull(&pts(points), *r).expect("a hull"),
            other => panic!("no parry round shape for {other:?}"),
        },
    }
}

struct Parry025 {
    shapes: Vec<parry3d_f64::shape::SharedShape>,
    pairs: Vec<(usize, usize, Iso, Iso)>,
    prediction: f64,
}

impl Parry025 {
    fn new(w: &Workload, prediction: f64) -> Self {
        Parry025 {
            shapes: w.shapes.iter().map(parry025).collect(),
            pairs: w.pairs.iter().map(|p| (p.a, p.b, p.pa, p.pb)).collect(),
            prediction,
        }
    }
}

impl Engine for Parry025 {
    fn run(&mut self, out: &mut [PeerOut]) {
        for (o, (a, b, pa, pb)) in out.iter_mut().zip(&self.pairs) {
            let c = parry3d_f64::query::contact(
                pa,
                &*self.shapes[*a].0,
                pb,
                &*self.shapes[*b].0,
                self.prediction,
            );
            *o = match c {
                Ok(Some(c)) => PeerOut {
                    dist: c.dist,
                    normal: [c.normal1.x, c.normal1.y, c.normal1.z],
                    status: HIT,
                    pad: 0,
                },
                Ok(None) => PeerOut {
                    dist: f64::INFINITY,
                    status: SEPARATED,
                    ..PeerOut::default()
                },
                Err(_) => PeerOut {
                    dist: f64::NAN,
                    status: FAILED,
                    ..PeerOut::default()
                },
            };
        }
    }
}

/// parry 0.31 (glam), in f32 (`parry3d`) and f64 (`parry3d-f64`): the same code twice.
macro_rules! parry031 {
    ($engine:ident, $krate:ident, $real:ty) => {
        struct $engine {
            shapes: Vec<$krate::shape::SharedShape>,
            pairs: Vec<(usize, usize, $krate::math::Pose, $krate::math::Pose)>,
            prediction: $real,
        }

        impl $engine {
            fn shape(d: &ShapeDesc) -> $krate::shape::SharedShape {
                use $krate::math::Vector as V;
                use $krate::shape::SharedShape as S;
                let f = |x: f64| x as $real;
                let p = |a: &[f64; 3]| V::new(f(a[0]), f(a[1]), f(a[2]));
                let pts = |ps: &[[f64; 3]]| ps.iter().map(p).collect::<Vec<_>>();
                match d {
                    ShapeDesc::Cuboid { half_extents: h } => S::cuboid(f(h[0]), f(h[1]), f(h[2])),
                    ShapeDesc::Ball { radius } => S::ball(f(*radius)),
                    ShapeDesc::Capsule {
                        half_height,
                        radius,
                    } => S::capsule_y(f(*half_height), f(*radius)),
                    ShapeDesc::Cylinder {
                        half_height,
                        radius,
                    } => S::cylinder(f(*half_height), f(*radius)),
                    ShapeDesc::Cone {
                        half_height,
                        radius,
                    } => S::cone(f(*half_height), f(*radius)),
                    ShapeDesc::Convex { points } => S::convex_hull(&pts(points)).expect("a hull"),
                    ShapeDesc::Segment { a, b } => S::segment(p(a), p(b)),
                    ShapeDesc::Triangle { a, b, c } => S::triangle(p(a), p(b), p(c)),
                    ShapeDesc::Round {
                        border_radius: r,
                        inner,
                    } => match inner.as_ref() {
                        ShapeDesc::Cuboid { half_extents: h } => {
                            S::round_cuboid(f(h[0]), f(h[1]), f(h[2]), f(*r))
                        }
                        ShapeDesc::Cylinder {
                            half_height,
                            radius,
                        } => S::round_cylinder(f(*half_height), f(*radius), f(*r)),
                        ShapeDesc::Convex { points } => {
                            S::round_convex_hull(&pts(points), f(*r)).expect("a hull")
                        }
                        other => panic!("no parry round shape for {other:?}"),
                    },
                }
            }

            fn pose(p: &Iso) -> $krate::math::Pose {
                let f = |x: f64| x as $real;
                let (t, q) = (p.translation.vector, p.rotation.quaternion());
                $krate::math::Pose::from_parts(
                    $krate::math::Vector::new(f(t.x), f(t.y), f(t.z)),
                    $krate::math::Rotation::from_xyzw(f(q.i), f(q.j), f(q.k), f(q.w)),
                )
            }

            fn new(w: &Workload, prediction: f64) -> Self {
                $engine {
                    shapes: w.shapes.iter().map(Self::shape).collect(),
                    pairs: w
                        .pairs
                        .iter()
                        .map(|p| (p.a, p.b, Self::pose(&p.pa), Self::pose(&p.pb)))
                        .collect(),
                    prediction: prediction as $real,
                }
            }
        }

        impl Engine for $engine {
            fn run(&mut self, out: &mut [PeerOut]) {
                for (o, (a, b, pa, pb)) in out.iter_mut().zip(&self.pairs) {
                    let c = $krate::query::contact(
                        pa,
                        &*self.shapes[*a].0,
                        pb,
                        &*self.shapes[*b].0,
                        self.prediction,
                    );
                    *o = match c {
                        Ok(Some(c)) => PeerOut {
                            dist: c.dist as f64,
                            normal: [c.normal1.x as f64, c.normal1.y as f64, c.normal1.z as f64],
                            status: HIT,
                            pad: 0,
                        },
                        Ok(None) => PeerOut {
                            dist: f64::INFINITY,
                            status: SEPARATED,
                            ..PeerOut::default()
                        },
                        Err(_) => PeerOut {
                            dist: f64::NAN,
                            status: FAILED,
                            ..PeerOut::default()
                        },
                    };
                }
            }
        }
    };
}

parry031!(Parry031F32, parry3d_031, f32);
parry031!(Parry031F64, parry3d_f64_031, f64);

#[cfg(peer_ccd)]
struct Ccd {
    _data: ffi::CData,
    handle: *mut core::ffi::c_void,
    method: i32,
    tolerance: f64,
}

#[cfg(peer_ccd)]
impl Ccd {
    fn new(w: &Workload, method: i32, tolerance: f64) -> Self {
        let data = ffi::CData::new(w);
        // SAFETY: the arrays (and the point lists they point to) live in `data`, kept with
        // the handle until drop.
        let handle = unsafe {
            ffi::peer_ccd_new(
                data.shapes.as_ptr(),
                data.shapes.len(),
                data.pairs.as_ptr(),
                data.pairs.len(),
            )
        };
        Ccd {
            _data: data,
            handle,
            method,
            tolerance,
        }
    }
}

#[cfg(peer_ccd)]
impl Engine for Ccd {
    fn run(&mut self, out: &mut [PeerOut]) {
        assert_eq!(out.len(), self._data.pairs.len());
        // SAFETY: `out` holds one answer per pair of the handle.
        unsafe { ffi::peer_ccd_run(self.handle, self.method, self.tolerance, out.as_mut_ptr()) }
    }
}

#[cfg(peer_ccd)]
impl Drop for Ccd {
    fn drop(&mut self) {
        // SAFETY: made by peer_ccd_new, freed once.
        unsafe { ffi::peer_ccd_free(self.handle) }
    }
}

#[cfg(peer_bullet)]
struct Bullet {
    _data: ffi::CData,
    handle: *mut core::ffi::c_void,
}

#[cfg(peer_bullet)]
impl Bullet {
    fn new(w: &Workload) -> Self {
        let data = ffi::CData::new(w);
        // SAFETY: as for Ccd::new (Bullet copies the points into its shapes).
        let handle = unsafe {
            ffi::peer_bullet_new(
                data.shapes.as_ptr(),
                data.shapes.len(),
                data.pairs.as_ptr(),
                data.pairs.len(),
            )
        };
        Bullet {
            _data: data,
            handle,
        }
    }
}

#[cfg(peer_bullet)]
impl Engine for Bullet {
    fn run(&mut self, out: &mut [PeerOut]) {
        assert_eq!(out.len(), self._data.pairs.len());
        // SAFETY: `out` holds one answer per pair of the handle.
        unsafe { ffi::peer_bullet_run(self.handle, out.as_mut_ptr()) }
    }
}

#[cfg(peer_bullet)]
impl Drop for Bullet {
    fn drop(&mut self) {
        // SAFETY: made by peer_bullet_new, freed once.
        unsafe { ffi::peer_bullet_free(self.handle) }
    }
}

/// The engines this build has, by name (the first is the reference).
fn engines(w: &Workload, prediction: f64) -> Vec<(&'static str, Box<dyn Engine>)> {
    #[allow(unused_mut)]
    let mut list: Vec<(&'static str, Box<dyn Engine>)> = vec![
        ("nphase f64", Box::new(Nphase::<f64>::new(w, prediction))),
        ("nphase f32", Box::new(Nphase::<f32>::new(w, prediction))),
        ("parry 0.25 f64", Box::new(Parry025::new(w, prediction))),
        ("parry 0.31 f64", Box::new(Parry031F64::new(w, prediction))),
        ("parry 0.31 f32", Box::new(Parry031F32::new(w, prediction))),
    ];
    #[cfg(peer_ccd)]
    {
        // libccd's default tolerances (1e-4), then a tight EPA tolerance: libccd compares it
        // with squared lengths (a support point within sqrt(tol) of the face ends EPA), so
        // 1e-4 lets depths be off by up to 1e-2.
        list.push(("libccd GJK-EPA", Box::new(Ccd::new(w, 0, 1e-4))));
        list.push(("libccd GJK-EPA tol 1e-10", Box::new(Ccd::new(w, 0, 1e-10))));
        list.push(("libccd MPR", Box::new(Ccd::new(w, 1, 1e-4))));
    }
    #[cfg(peer_bullet)]
    list.push(("Bullet GJK-EPA", Box::new(Bullet::new(w))));
    list
}

// ---------------------------------------------------------------------------------------------
// Checking and measuring.
// ---------------------------------------------------------------------------------------------

/// How an engine's answers compare with the reference's.
#[derive(Default)]
struct Agreement {
    /// Pairs whose distance is off by more than the tolerance (or failed).
    dist: usize,
    /// Pairs with agreeing distances whose normals differ by more than 1°, among `normals`.
    normal: usize,
    normals: usize,
    failed: usize,
    separated: usize,
    /// Up to a few disagreeing pairs: (index, reference, engine).
    examples: Vec<(usize, PeerOut, PeerOut)>,
}

fn agreement(reference: &[PeerOut], answers: &[PeerOut], tol: &[f64], keep: usize) -> Agreement {
    let mut a = Agreement::default();
    let cos_1deg = 1f64.to_radians().cos();
    for (i, ((r, e), tol)) in reference.iter().zip(answers).zip(tol).enumerate() {
        a.failed += usize::from(e.status == FAILED);
        a.separated += usize::from(e.status == SEPARATED);
        let agrees = match (r.status, e.status) {
            (_, FAILED) => false,
            (HIT, HIT) => (r.dist - e.dist).abs() <= *tol,
            // "Separated": apart (or beyond the prediction) for one, at least −tol for the other.
            (HIT, SEPARATED) => r.dist > -tol,
            (SEPARATED, HIT) => e.dist > -tol,
            (SEPARATED, SEPARATED) => true,
            _ => false,
        };
        if !agrees {
            a.dist += 1;
            if a.examples.len() < keep {
                a.examples.push((i, *r, *e));
            }
        } else if r.status == HIT && e.status == HIT {
            a.normals += 1;
            let dot: f64 = (0..3).map(|k| r.normal[k] * e.normal[k]).sum();
            a.normal += usize::from(!(dot >= cos_1deg));
        }
    }
    a
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        0.5 * (v[n / 2 - 1] + v[n / 2])
    }
}

struct Args {
    file: PathBuf,
    regen: bool,
    rounds: usize,
    workloads: Option<Vec<String>>,
    modes: Vec<String>,
    explain: usize,
    engines: Option<Vec<String>>,
    split: bool,
}

fn parse_args() -> Args {
    let mut args = Args {
        file: std::env::temp_dir().join("nphase-peers/workloads.txt"),
        regen: false,
        rounds: 9,
        workloads: None,
        modes: vec!["sd".into(), "touch".into()],
        explain: 0,
        engines: None,
        split: true,
    };
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        let mut value = || it.next().unwrap_or_else(|| panic!("{a} needs a value"));
        match a.as_str() {
            "--file" => args.file = value().into(),
            "--regen" => args.regen = true,
            "--rounds" => args.rounds = value().parse().expect("--rounds N"),
            "--workloads" => {
                args.workloads = Some(value().split(',').map(str::to_owned).collect());
            }
            "--modes" => args.modes = value().split(',').map(str::to_owned).collect(),
            "--explain" => args.explain = value().parse().expect("--explain N"),
            "--engines" => {
                args.engines = Some(value().split(',').map(str::to_owned).collect());
            }
            "--no-split" => args.split = false,
            "-h" | "--help" => {
                println!(
                    "nphase-peers [--file PATH] [--regen] [--rounds N] \
                     [--workloads boxes,hull64,pile] [--modes sd,touch] [--explain N] \
                     [--engines SUBSTRING,...] [--no-split]\n\n\
                     --engines keeps the engines whose name contains one of the substrings \
                     (nphase f64, the reference, always runs); --no-split drops the rows of \
                     hull64's two halves (hull64-pen: centres 0.85 apart, hull64-apart: 1.02)"
                );
                std::process::exit(0);
            }
            other => panic!("unknown argument {other} (try --help)"),
        }
    }
    args
}

/// The workloads from the file, written first if missing or `--regen`.
fn load(args: &Args) -> Vec<Workload> {
    if args.regen || !args.file.exists() {
        let text = workloads::to_text(&workloads::generate());
        if let Some(dir) = args.file.parent() {
            std::fs::create_dir_all(dir).expect("a writable directory for --file");
        }
        std::fs::write(&args.file, text).expect("a writable --file");
        eprintln!("wrote {}", args.file.display());
    }
    let text = std::fs::read_to_string(&args.file).expect("a readable --file");
    let mut all = workloads::from_text(&text).expect("a valid workload file");
    if let Some(names) = &args.workloads {
        all.retain(|w| names.contains(&w.name));
    }
    if args.split {
        // hull64's halves on their own rows: even pairs penetrate, odd ones are (mostly) apart.
        let halves: Vec<Workload> = all
            .iter()
            .filter(|w| w.name == "hull64")
            .flat_map(|w| {
                [("hull64-pen", 0), ("hull64-apart", 1)].map(|(name, parity)| Workload {
                    name: name.to_owned(),
                    shapes: w.shapes.clone(),
                    pairs: w.pairs.iter().skip(parity).step_by(2).cloned().collect(),
                })
            })
            .collect();
        all.extend(halves);
    }
    all
}

/// The smaller of the pair's shapes' half-diagonals, times 1e-3.
fn tolerances(w: &Workload) -> Vec<f64> {
    let sizes: Vec<f64> = nphase_shapes::<f64>(&w.shapes)
        .iter()
        .map(|s| s.local_aabb().half_diagonal())
        .collect();
    w.pairs
        .iter()
        .map(|p| 1e-3 * sizes[p.a].min(sizes[p.b]))
        .collect()
}

fn describe(w: &Workload) -> String {
    let mut kinds: Vec<(String, usize)> = Vec::new();
    for p in &w.pairs {
        for k in [
            workloads::kind(&w.shapes[p.a]),
            workloads::kind(&w.shapes[p.b]),
        ] {
            match kinds.iter_mut().find(|(n, _)| *n == k) {
                Some((_, c)) => *c += 1,
                None => kinds.push((k, 1)),
            }
        }
    }
    kinds.sort_by(|a, b| b.1.cmp(&a.1));
    kinds
        .iter()
        .map(|(k, c)| format!("{k} {c}"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn run_mode(args: &Args, all: &[Workload], mode: &str) {
    let prediction = match mode {
        "sd" => 10.0,
        "touch" => 0.0,
        other => panic!("unknown mode {other} (sd or touch)"),
    };
    struct Bench {
        engines: Vec<(&'static str, Box<dyn Engine>)>,
        out: Vec<PeerOut>,
        times: Vec<Vec<f64>>,
        agreement: Vec<Agreement>,
    }
    let mut benches: Vec<Bench> = all
        .iter()
        .map(|w| {
            let mut engines = engines(w, prediction);
            if let Some(keep) = &args.engines {
                let mut k = 0;
                engines.retain(|(name, _)| {
                    k += 1;
                    k == 1 || keep.iter().any(|s| name.contains(s.as_str()))
                });
            }
            let n = engines.len();
            Bench {
                engines,
                out: vec![PeerOut::default(); w.pairs.len()],
                times: vec![Vec::new(); n],
                agreement: Vec::new(),
            }
        })
        .collect();

    // Warm-up round: every engine once, answers checked against the first (nphase f64).
    for (w, b) in all.iter().zip(&mut benches) {
        let tol = tolerances(w);
        let mut reference = vec![PeerOut::default(); w.pairs.len()];
        for (k, (_, e)) in b.engines.iter_mut().enumerate() {
            e.run(&mut b.out);
            if k == 0 {
                reference.copy_from_slice(&b.out);
            }
            b.agreement
                .push(agreement(&reference, &b.out, &tol, args.explain));
        }
    }

    for round in 0..args.rounds {
        for b in &mut benches {
            let n = b.engines.len();
            for j in 0..n {
                let k = (j + round) % n;
                let start = Instant::now();
                b.engines[k].1.run(&mut b.out);
                let elapsed = start.elapsed().as_secs_f64();
                black_box(&b.out);
                b.times[k].push(elapsed * 1e9 / b.out.len() as f64);
            }
        }
    }

    let label = match mode {
        "sd" => "signed distance for every pair (prediction 10)",
        _ => "contacts only (prediction 0)",
    };
    println!("\n### Mode `{mode}`: {label}; {} rounds\n", args.rounds);
    println!(
        "| workload | engine | min ns/pair | median ns/pair | min / nphase f64 | \
         dist disagree | normal > 1° | separated w/o dist | failed |"
    );
    println!("|---|---|---:|---:|---:|---:|---:|---:|---:|");
    for (w, b) in all.iter().zip(&mut benches) {
        let n = w.pairs.len() as f64;
        let mins: Vec<f64> = b
            .times
            .iter()
            .map(|t| t.iter().copied().fold(f64::INFINITY, f64::min))
            .collect();
        for (k, (name, _)) in b.engines.iter().enumerate() {
            let a = &b.agreement[k];
            println!(
                "| {} ({}) | {} | {:.0} | {:.0} | {:.2} | {:.2}% | {:.2}% | {} | {} |",
                w.name,
                w.pairs.len(),
                name,
                mins[k],
                median(&mut b.times[k].clone()),
                mins[k] / mins[0],
                100.0 * a.dist as f64 / n,
                100.0 * a.normal as f64 / (a.normals.max(1)) as f64,
                a.separated,
                a.failed,
            );
        }
    }
    println!();
    for (w, b) in all.iter().zip(&benches) {
        println!(
            "* {}: {} pairs; shapes in pairs: {}",
            w.name,
            w.pairs.len(),
            describe(w)
        );
        for (k, (name, _)) in b.engines.iter().enumerate() {
            for (i, r, e) in &b.agreement[k].examples {
                let p = &w.pairs[*i];
                println!(
                    "  * {name} pair {i} ({} – {}): nphase {:?} {:.6} n {:.3?}; {name} {:?} {:.6} n {:.3?}",
                    workloads::kind(&w.shapes[p.a]),
                    workloads::kind(&w.shapes[p.b]),
                    status_name(r.status),
                    r.dist,
                    r.normal,
                    status_name(e.status),
                    e.dist,
                    e.normal,
                );
            }
        }
    }
}

fn status_name(s: i32) -> &'static str {
    match s {
        HIT => "hit",
        SEPARATED => "separated",
        _ => "failed",
    }
}

fn main() {
    let args = parse_args();
    let all = load(&args);
    let peers: Vec<&str> = [
        cfg!(peer_ccd).then_some("libccd"),
        cfg!(peer_bullet).then_some("Bullet"),
    ]
    .into_iter()
    .flatten()
    .collect();
    println!(
        "nphase peers benchmark: one thread, C/C++ peers built: {}",
        if peers.is_empty() {
            "none (set LIBCCD_SRC / BULLET_SRC)".to_owned()
        } else {
            peers.join(", ")
        }
    );
    for mode in &args.modes {
        run_mode(&args, &all, mode);
    }
}
