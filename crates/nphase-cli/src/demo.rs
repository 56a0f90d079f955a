//! The built-in demo: a seeded pile of mixed shapes on a ground box, and the summary of a
//! multi-frame run over it.
//!
//! The pile is a jittered grid about as deep as it is half wide, with a grid step equal to a
//! typical shape's size, so neighbours touch, penetrate slightly or are slightly apart — the
//! mix a narrowphase meets in a resting stack. Every type of shape takes part (boxes, balls,
//! capsules, cylinders, cones, hulls, rounded boxes/cylinders/hulls, a few triangles and
//! segments), randomly rotated, with small random velocities (the motion formula of
//! [`crate::scene`]), so consecutive frames are coherent and warm starts pay off. The
//! generator is a SplitMix64 of its own: the same seed gives the same scene on every platform
//! and with every version of every dependency.

use core::fmt;
use std::time::Duration;

use nphase_pipeline::StepStats;

use crate::bench::add_stats;
use crate::run::FrameReport;
use crate::scene::{BodyDesc, RotationDesc, SceneDoc, ShapeDesc, VelocityDesc};

/// The default number of pile bodies of `nphase` without arguments.
pub const DEFAULT_BODIES: usize = 3000;
/// The default number of frames of `nphase` without arguments.
pub const DEFAULT_FRAMES: u64 = 300;
/// The default seed.
pub const DEFAULT_SEED: u64 = 20240601;

/// Grid step of the pile: about the size of a shape.
const SPACING: f64 = 0.9;

/// A pile of `bodies` shapes (ids `1..=bodies`) on a ground box (id 0), from `seed`. No
/// explicit pairs: runs use the broadphase.
pub fn demo_scene(bodies: usize, seed: u64) -> SceneDoc {
    let mut rng = SplitMix64(seed);
    let shapes = palette(&mut rng);
    let choices = weighted_names(&shapes);

    // Columns c × c and layers l with l ≈ c/2: c³/2 ≈ bodies.
    let cols = ((2.0 * bodies as f64).cbrt().ceil() as usize).max(1);
    let layer_size = cols * cols;
    let half_width = cols as f64 * SPACING * 0.5;

    let mut out = Vec::with_capacity(bodies + 1);
    out.push(BodyDesc {
        id: 0,
        shape: "ground".to_owned(),
        position: [0.0, -0.5, 0.0],
        rotation: None,
        velocity: None,
    });
    for k in 0..bodies {
        let (layer, cell) = (k / layer_size, k % layer_size);
        let (i, j) = (cell / cols, cell % cols);
        let jitter = |rng: &mut SplitMix64| rng.range(-0.1, 0.1);
        let position = [
            (i as f64 + 0.5) * SPACING - half_width + jitter(&mut rng),
            (layer as f64 + 0.5) * SPACING + jitter(&mut rng).abs() * 0.5,
            (j as f64 + 0.5) * SPACING - half_width + jitter(&mut rng),
        ];
        let shape = choices[(rng.next() % choices.len() as u64) as usize].to_owned();
        let rotation = if k % 2 == 0 {
            let q = rng.unit_quaternion();
            RotationDesc::Quaternion(q)
        } else {
            let axis = rng.unit_vector();
            let angle = rng.range(0.0, std::f64::consts::PI);
            RotationDesc::AxisAngle(axis.map(|a| quantise(a * angle)))
        };
        let velocity = VelocityDesc {
            linear: [
                rng.range(-1.5e-3, 1.5e-3),
                rng.range(-1.5e-3, 1.0e-3),
                rng.range(-1.5e-3, 1.5e-3),
            ]
            .map(quantise),
            angular: rng.unit_vector().map(|a| quantise(a * rng_angle(&mut rng))),
        };
        out.push(BodyDesc {
            id: k as u64 + 1,
            shape,
            position: position.map(quantise),
            rotation: Some(rotation),
            velocity: Some(velocity),
        });
    }

    let mut shapes = shapes
        .into_iter()
        .map(|(name, desc, _)| (name, desc))
        .collect::<Vec<_>>();
    shapes.push((
        "ground".to_owned(),
        ShapeDesc::Cuboid {
            half_extents: [half_width + 2.0, 0.5, half_width + 2.0],
        },
    ));
    SceneDoc {
        prediction: 0.01,
        shapes,
        bodies: out,
        pairs: None,
    }
}

fn rng_angle(rng: &mut SplitMix64) -> f64 {
    rng.range(0.0, 0.01)
}

/// Six decimals: short files, and the values a reader sees are exactly the ones written.
fn quantise(x: f64) -> f64 {
    (x * 1e6).round() / 1e6
}

/// The shapes of the pile with their weights (percent).
fn palette(rng: &mut SplitMix64) -> Vec<(String, ShapeDesc, u32)> {
    let hull = |rng: &mut SplitMix64, radii: [f64; 3], count: usize| ShapeDesc::Convex {
        points: (0..count)
            .map(|_| {
                let d = rng.unit_vector();
                let s = rng.range(0.85, 1.0);
                [0, 1, 2].map(|k| quantise(d[k] * radii[k] * s))
            })
            .collect(),
    };
    let cuboid = |x: f64, y: f64, z: f64| ShapeDesc::Cuboid {
        half_extents: [x, y, z],
    };
    let hulls = [
        hull(rng, [0.45, 0.4, 0.45], 16),
        hull(rng, [0.5, 0.3, 0.4], 24),
        hull(rng, [0.4, 0.45, 0.35], 12),
        hull(rng, [0.45, 0.45, 0.45], 32),
    ];
    let round_hull = hull(rng, [0.38, 0.34, 0.38], 20);
    let [h0, h1, h2, h3] = hulls;
    vec![
        ("box".to_owned(), cuboid(0.42, 0.42, 0.42), 10),
        ("brick".to_owned(), cuboid(0.55, 0.25, 0.35), 6),
        ("plank".to_owned(), cuboid(0.6, 0.12, 0.3), 4),
        ("ball".to_owned(), ShapeDesc::Ball { radius: 0.45 }, 8),
        ("pebble".to_owned(), ShapeDesc::Ball { radius: 0.3 }, 6),
        (
            "pill".to_owned(),
            ShapeDesc::Capsule {
                half_height: 0.25,
                radius: 0.22,
            },
            12,
        ),
        (
            "can".to_owned(),
            ShapeDesc::Cylinder {
                half_height: 0.4,
                radius: 0.35,
            },
            10,
        ),
        (
            "spike".to_owned(),
            ShapeDesc::Cone {
                half_height: 0.45,
                radius: 0.4,
            },
            8,
        ),
        ("rock0".to_owned(), h0, 4),
        ("rock1".to_owned(), h1, 4),
        ("rock2".to_owned(), h2, 4),
        ("rock3".to_owned(), h3, 3),
        (
            "rounded_box".to_owned(),
            ShapeDesc::Round {
                border_radius: 0.08,
                inner: Box::new(cuboid(0.34, 0.34, 0.34)),
            },
            7,
        ),
        (
            "rounded_can".to_owned(),
            ShapeDesc::Round {
                border_radius: 0.06,
                inner: Box::new(ShapeDesc::Cylinder {
                    half_height: 0.3,
                    radius: 0.3,
                }),
            },
            4,
        ),
        (
            "rounded_rock".to_owned(),
            ShapeDesc::Round {
                border_radius: 0.05,
                inner: Box::new(round_hull),
            },
            5,
        ),
        (
            "shard".to_owned(),
            ShapeDesc::Triangle {
                a: [-0.45, 0.0, -0.3],
                b: [0.45, 0.05, -0.25],
                c: [0.0, -0.05, 0.45],
            },
            3,
        ),
        (
            "stick".to_owned(),
            ShapeDesc::Segment {
                a: [-0.5, 0.0, 0.0],
                b: [0.5, 0.0, 0.0],
            },
            2,
        ),
    ]
}

/// Each name repeated by its weight: a uniform pick is a weighted pick.
fn weighted_names(shapes: &[(String, ShapeDesc, u32)]) -> Vec<&str> {
    shapes
        .iter()
        .flat_map(|(name, _, w)| core::iter::repeat_n(name.as_str(), *w as usize))
        .collect()
}

/// SplitMix64 (Steele, Lea, Flood 2014): tiny, fast, and fixed forever.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `[0, 1)`.
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit()
    }

    /// Uniform on the sphere (Marsaglia's method via z and an angle).
    fn unit_vector(&mut self) -> [f64; 3] {
        let z = self.range(-1.0, 1.0);
        let phi = self.range(0.0, std::f64::consts::TAU);
        let r = (1.0 - z * z).max(0.0).sqrt();
        [r * phi.cos(), r * phi.sin(), z]
    }

    /// Uniform rotation (Shoemake), `[x, y, z, w]`, not quite normalised once quantised — the
    /// reader normalises.
    fn unit_quaternion(&mut self) -> [f64; 4] {
        let (u1, u2, u3) = (self.unit(), self.unit(), self.unit());
        let (a, b) = ((1.0 - u1).sqrt(), u1.sqrt());
        let (t2, t3) = (std::f64::consts::TAU * u2, std::f64::consts::TAU * u3);
        [a * t2.sin(), a * t2.cos(), b * t3.sin(), b * t3.cos()].map(quantise)
    }
}

/// Totals of a multi-frame run, for the demo's summary.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RunSummary {
    /// Bodies in the scene.
    pub bodies: usize,
    /// Frames run.
    pub frames: u64,
    /// Pipeline threads.
    pub threads: usize,
    /// `"f32"` or `"f64"`.
    pub precision: &'static str,
    /// Statistics summed over the frames.
    pub totals: StepStats,
    /// Fewest pairs in a frame.
    pub min_pairs: u64,
    /// Most pairs in a frame.
    pub max_pairs: u64,
    /// Time spent posing bodies and in the broadphase.
    pub broadphase: Duration,
    /// Wall time of the whole run.
    pub wall: Duration,
}

impl RunSummary {
    /// An empty summary.
    pub fn new(bodies: usize, threads: usize, precision: &'static str) -> Self {
        RunSummary {
            bodies,
            threads,
            precision,
            min_pairs: u64::MAX,
            ..RunSummary::default()
        }
    }

    /// Adds one frame.
    pub fn add(&mut self, frame: &FrameReport) {
        self.frames += 1;
        self.totals = add_stats(self.totals, &frame.stats);
        self.min_pairs = self.min_pairs.min(frame.stats.pairs);
        self.max_pairs = self.max_pairs.max(frame.stats.pairs);
        self.broadphase += frame.broadphase;
    }
}

fn ratio(a: u64, b: u64) -> f64 {
    if b == 0 { 0.0 } else { a as f64 / b as f64 }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

impl fmt::Display for RunSummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let t = &self.totals;
        let frames = self.frames.max(1);
        let per_frame = |x: u64| ratio(x, frames);
        writeln!(
            f,
            "nphase demo: {} bodies, {} frames, {} thread(s), {}",
            self.bodies, self.frames, self.threads, self.precision
        )?;
        writeln!(
            f,
            "  pairs per frame        {:>10.1}   (min {}, max {})",
            per_frame(t.pairs),
            if self.frames == 0 { 0 } else { self.min_pairs },
            self.max_pairs
        )?;
        writeln!(
            f,
            "  manifolds per frame    {:>10.1}",
            per_frame(t.manifolds)
        )?;
        writeln!(f, "  contact points/frame   {:>10.1}", per_frame(t.points))?;
        writeln!(
            f,
            "  GJK iterations/pair    {:>10.2}",
            ratio(t.gjk_iterations, t.pairs)
        )?;
        writeln!(
            f,
            "  warm-start hit rate    {:>10.1} %",
            100.0 * ratio(t.warm_starts, t.pairs)
        )?;
        writeln!(
            f,
            "  EPA runs               {:>10}   ({:.1} per frame, {:.1} % from a kept polytope)",
            t.epa_runs,
            per_frame(t.epa_runs),
            100.0 * ratio(t.epa_warm, t.epa_runs)
        )?;
        writeln!(
            f,
            "  face-certified overlaps{:>10}   (no GJK, no EPA)",
            t.face_certified
        )?;
        writeln!(
            f,
            "  separating-axis tests  {:>10}   ({:.1} % from a certified margin)",
            t.sat_runs,
            100.0 * ratio(t.sat_certified, t.sat_runs)
        )?;
        writeln!(f, "  iteration limits       {:>10}", t.iteration_limits)?;
        writeln!(f, "  fallbacks              {:>10}", t.fallbacks)?;
        writeln!(f, "  GJK stalls (EPA)       {:>10}", t.gjk_stalls)?;
        writeln!(
            f,
            "  narrowphase            {:>10.3} ms/frame   {:.1} ns/pair",
            ms(t.elapsed) / frames as f64,
            if t.pairs == 0 {
                0.0
            } else {
                t.elapsed.as_nanos() as f64 / t.pairs as f64
            }
        )?;
        writeln!(
            f,
            "  poses + broadphase     {:>10.3} ms/frame",
            ms(self.broadphase) / frames as f64
        )?;
        write!(
            f,
            "  wall time              {:>10.3} s",
            self.wall.as_secs_f64()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::Scene;

    #[test]
    fn demo_scene_is_deterministic_valid_and_round_trips() {
        let doc = demo_scene(200, 7);
        assert_eq!(doc, demo_scene(200, 7));
        assert_ne!(doc, demo_scene(200, 8));
        assert_eq!(doc.bodies.len(), 201);
        let scene = Scene::<f64>::from_doc(&doc).expect("the demo scene is valid");
        // Every shape type takes part.
        let mut kinds: Vec<_> = scene
            .bodies
            .iter()
            .map(|b| scene.shape_of(b).kind())
            .collect();
        kinds.sort();
        kinds.dedup();
        assert_eq!(kinds.len(), 9, "{kinds:?}");
        let reread = SceneDoc::from_json(&doc.to_json()).expect("written scene reads back");
        assert_eq!(reread, doc);
        // A pile: most bodies have broadphase neighbours.
        let colliders = scene.colliders_at(0);
        let pairs = scene.pairs_for(&colliders);
        assert!(pairs.len() > 200, "{}", pairs.len());
    }
}
