//! The three workloads, generated once from Rust and written to a plain text file that every
//! engine's input is read from.
//!
//! * `boxes` — 2 000 pairs of unit boxes face on face, 1e-3 deep, B offset by up to ±0.3 and
//!   turned about the normal by up to ±0.5 rad: `boxes()` of `benches/coherence.rs` (at rest,
//!   frame 0), rebuilt here from the same seed and the same draws.
//! * `hull64` — 2 000 pairs of hulls of 64 random points on a sphere of radius 0.5 (every body
//!   its own points), randomly turned; B's centre along a random direction from A's, 0.85
//!   away for even pairs (penetrating) and 1.02 for odd ones (mostly apart).
//! * `pile` — the demo's pile (`demo_scene(5000, 20240601)`, prediction 0.02, as in
//!   `pile()` of `benches/coherence.rs`): the broadphase pairs of frame 0, every shape type.
//!
//! File format (one record a line, `#` comments): `workload NAME NSHAPES NPAIRS`, then NSHAPES
//! lines `s JSON` (nphase-cli's scene shape description), then NPAIRS lines
//! `p A B  tx ty tz qw qx qy qz  tx ty tz qw qx qy qz` (shape indices, then the world poses
//! of A and B: translation and unit quaternion). Numbers are written in Rust's shortest
//! round-trip form, so reading gives back the same f64.

use std::fmt::Write as _;

use nalgebra::{Isometry3, Quaternion, Translation3, UnitQuaternion, Vector3};
use nphase_cli::demo::demo_scene;
use nphase_cli::scene::{BodyDesc, RotationDesc, Scene, SceneDoc, ShapeDesc};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;

/// A world pose in f64.
pub type Iso = Isometry3<f64>;

/// One pair: shape indices into [`Workload::shapes`] and the world poses.
#[derive(Clone, Debug)]
pub struct Pair {
    pub a: usize,
    pub b: usize,
    pub pa: Iso,
    pub pb: Iso,
}

/// A named list of shapes and the pairs that use them.
#[derive(Clone, Debug)]
pub struct Workload {
    pub name: String,
    pub shapes: Vec<ShapeDesc>,
    pub pairs: Vec<Pair>,
}

const PAIRS: usize = 2000;

/// Every workload, in table order.
pub fn generate() -> Vec<Workload> {
    vec![boxes(), hull64(), pile()]
}

/// The shapes and frame-0 pairs of a scene document.
fn from_scene(name: &str, doc: &SceneDoc) -> Workload {
    let scene = Scene::<f64>::from_doc(doc).expect("a valid scene");
    let colliders = scene.colliders_at(0);
    let pairs = scene
        .pairs_for(&colliders)
        .iter()
        .map(|&(i, j)| Pair {
            a: scene.bodies[i].shape,
            b: scene.bodies[j].shape,
            pa: colliders[i].pose,
            pb: colliders[j].pose,
        })
        .collect();
    Workload {
        name: name.to_owned(),
        shapes: doc.shapes.iter().map(|(_, d)| d.clone()).collect(),
        pairs,
    }
}

fn body(id: u64, shape: &str, position: [f64; 3], rotation: [f64; 3]) -> BodyDesc {
    BodyDesc {
        id,
        shape: shape.to_owned(),
        position,
        rotation: Some(RotationDesc::AxisAngle(rotation)),
        velocity: None,
    }
}

/// The position of the `i`-th pair on a grid 3 units apart (as in coherence.rs).
fn grid(i: usize) -> [f64; 3] {
    [(i % 50) as f64 * 3.0, 0.0, (i / 50) as f64 * 3.0]
}

/// `boxes(false)` of benches/coherence.rs: same seed, same draws in the same order.
fn boxes() -> Workload {
    let mut rng = Pcg64::seed_from_u64(1);
    let mut bodies = Vec::new();
    let mut pairs = Vec::new();
    for i in 0..PAIRS {
        let [x, _, z] = grid(i);
        let (a, b) = (2 * i as u64, 2 * i as u64 + 1);
        let mut r = |h: f64| rng.random_range(-h..h);
        bodies.push(body(a, "box", [x, 0.0, z], [0.0; 3]));
        bodies.push(body(
            b,
            "box",
            [x + r(0.3), 0.999, z + r(0.3)],
            [0.0, r(0.5), 0.0],
        ));
        pairs.push([a, b]);
    }
    let doc = SceneDoc {
        prediction: 0.02,
        shapes: vec![(
            "box".into(),
            ShapeDesc::Cuboid {
                half_extents: [0.5; 3],
            },
        )],
        bodies,
        pairs: Some(pairs),
    };
    from_scene("boxes", &doc)
}

/// The demo's pile, as `pile()` of benches/coherence.rs builds it (frame 0).
fn pile() -> Workload {
    let mut doc = demo_scene(5000, 20240601);
    doc.prediction = 0.02;
    from_scene("pile", &doc)
}

/// A uniformly distributed unit vector (benches/common: `random_unit`).
fn random_unit(rng: &mut Pcg64) -> Vector3<f64> {
    loop {
        let v = Vector3::from_fn(|_, _| rng.random_range(-1.0..1.0));
        let n = v.norm();
        if n > 0.1 && n <= 1.0 {
            break v / n;
        }
    }
}

/// A uniformly distributed rotation (benches/common: `random_rotation`).
fn random_rotation(rng: &mut Pcg64) -> UnitQuaternion<f64> {
    loop {
        let q = nalgebra::Vector4::from_fn(|_, _| rng.random_range(-1.0..1.0));
        let n = q.norm();
        if n > 0.1 && n <= 1.0 {
            break UnitQuaternion::from_quaternion(Quaternion::from(q / n));
        }
    }
}

fn hull64() -> Workload {
    let mut rng = Pcg64::seed_from_u64(64);
    let mut shapes = Vec::with_capacity(2 * PAIRS);
    let mut pairs = Vec::with_capacity(PAIRS);
    let mut hull = |rng: &mut Pcg64| {
        let points = (0..64)
            .map(|_| (random_unit(rng) * 0.5).into())
            .collect::<Vec<[f64; 3]>>();
        shapes.push(ShapeDesc::Convex { points });
        shapes.len() - 1
    };
    for i in 0..PAIRS {
        let (a, b) = (hull(&mut rng), hull(&mut rng));
        let centre = Vector3::from(grid(i));
        let gap = if i % 2 == 0 { 0.85 } else { 1.02 };
        let direction = random_unit(&mut rng);
        let pa = Iso::from_parts(Translation3::from(centre), random_rotation(&mut rng));
        let pb = Iso::from_parts(
            Translation3::from(centre + direction * gap),
            random_rotation(&mut rng),
        );
        pairs.push(Pair { a, b, pa, pb });
    }
    Workload {
        name: "hull64".to_owned(),
        shapes,
        pairs,
    }
}

// ---------------------------------------------------------------------------------------------
// The file.
// ---------------------------------------------------------------------------------------------

fn write_pose(out: &mut String, p: &Iso) {
    let t = p.translation.vector;
    let q = p.rotation.quaternion();
    for x in [t.x, t.y, t.z, q.w, q.i, q.j, q.k] {
        write!(out, " {x:?}").expect("writing to a String");
    }
}

/// The workloads as text.
pub fn to_text(workloads: &[Workload]) -> String {
    let mut out = String::from(
        "# nphase peers benchmark workloads (benches/peers): shapes as nphase-cli scene JSON,\n\
         # pairs as `p A B` + world poses of A and B (tx ty tz qw qx qy qz)\n",
    );
    for w in workloads {
        writeln!(
            out,
            "workload {} {} {}",
            w.name,
            w.shapes.len(),
            w.pairs.len()
        )
        .expect("writing to a String");
        for s in &w.shapes {
            let json = serde_json::to_string(s).expect("a shape serializes");
            writeln!(out, "s {json}").expect("writing to a String");
        }
        for p in &w.pairs {
            write!(out, "p {} {}", p.a, p.b).expect("writing to a String");
            write_pose(&mut out, &p.pa);
            write_pose(&mut out, &p.pb);
            out.push('\n');
        }
    }
    out
}

fn read_pose(x: &[f64]) -> Iso {
    let rotation = UnitQuaternion::new_unchecked(Quaternion::new(x[3], x[4], x[5], x[6]));
    Iso::from_parts(Translation3::new(x[0], x[1], x[2]), rotation)
}

/// The workloads back from [`to_text`]'s format.
pub fn from_text(text: &str) -> Result<Vec<Workload>, String> {
    let mut out: Vec<Workload> = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let err = |m: &str| format!("line {}: {m}", n + 1);
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (tag, rest) = line.split_once(' ').ok_or_else(|| err("no fields"))?;
        match tag {
            "workload" => {
                let name = rest
                    .split_whitespace()
                    .next()
                    .ok_or_else(|| err("no name"))?;
                out.push(Workload {
                    name: name.to_owned(),
                    shapes: Vec::new(),
                    pairs: Vec::new(),
                });
            }
            "s" => {
                let w = out.last_mut().ok_or_else(|| err("shape before workload"))?;
                w.shapes
                    .push(serde_json::from_str(rest).map_err(|e| err(&e.to_string()))?);
            }
            "p" => {
                let w = out.last_mut().ok_or_else(|| err("pair before workload"))?;
                let f: Vec<&str> = rest.split_whitespace().collect();
                if f.len() != 16 {
                    return Err(err("a pair has 16 fields"));
                }
                let idx = |s: &str| s.parse::<usize>().map_err(|e| err(&e.to_string()));
                let (a, b) = (idx(f[0])?, idx(f[1])?);
                if a >= w.shapes.len() || b >= w.shapes.len() {
                    return Err(err("shape index out of range"));
                }
                let x = f[2..]
                    .iter()
                    .map(|s| s.parse::<f64>().map_err(|e| err(&e.to_string())))
                    .collect::<Result<Vec<_>, _>>()?;
                w.pairs.push(Pair {
                    a,
                    b,
                    pa: read_pose(&x[..7]),
                    pb: read_pose(&x[7..]),
                });
            }
            _ => return Err(err("unknown record")),
        }
    }
    Ok(out)
}

/// A short name of a shape description's kind.
pub fn kind(d: &ShapeDesc) -> String {
    match d {
        ShapeDesc::Cuboid { .. } => "cuboid".into(),
        ShapeDesc::Ball { .. } => "ball".into(),
        ShapeDesc::Capsule { .. } => "capsule".into(),
        ShapeDesc::Cylinder { .. } => "cylinder".into(),
        ShapeDesc::Cone { .. } => "cone".into(),
        ShapeDesc::Convex { .. } => "hull".into(),
        ShapeDesc::Segment { .. } => "segment".into(),
        ShapeDesc::Triangle { .. } => "triangle".into(),
        ShapeDesc::Round { inner, .. } => format!("round-{}", kind(inner)),
    }
}
