//! Running a [`Scene`] through the library: the exact query of every pair, the contact
//! pipeline on frame 0, and multi-frame runs with the bodies moving by their velocity.

use core::fmt;
use std::time::{Duration, Instant};

use nphase_math::nalgebra::convert_ref;
use nphase_math::{Isometry, Real, UnitVector};
use nphase_pipeline::query::{Contact, QueryError, contact};
use nphase_pipeline::{Collider, NarrowPhase, NarrowPhaseConfig, PipelineError, StepStats};
use num_traits::Float;

use crate::report::{ManifoldRecord, QueryRecord};
use crate::scene::Scene;

/// Why running a valid scene failed (a runtime failure, not bad input).
#[derive(Clone, Debug, PartialEq)]
pub enum RunError {
    /// A one-shot query refused its input.
    Query {
        /// Index of the pair.
        pair: usize,
        /// The query's reason.
        error: QueryError,
    },
    /// The exact query of a pair returned no contact, although it was asked with an unbounded
    /// prediction distance.
    NoResult {
        /// Index of the pair.
        pair: usize,
    },
    /// The pipeline refused its input (for example a pose that moved to infinity).
    Pipeline {
        /// The frame.
        frame: u64,
        /// The pipeline's reason.
        error: PipelineError,
    },
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::Query { pair, error } => write!(f, "pairs[{pair}]: {error}"),
            RunError::NoResult { pair } => write!(f, "pairs[{pair}]: the query returned no result"),
            RunError::Pipeline { frame, error } => write!(f, "frame {frame}: {error}"),
        }
    }
}

impl std::error::Error for RunError {}

/// One exact query per pair of frame 0 (explicit pairs, or the broadphase's), in pair order.
///
/// The query is [`contact`] with an unbounded prediction distance, so every pair gets its
/// signed distance, normal and witness points however far apart the shapes are. Each pair is
/// solved in A's frame, placed with the file's f64 poses (`pos12 = pose_a⁻¹ · pose_b` in f64,
/// then rounded to `T`), and the answer is mapped back to the world in f64: an f32 run is as
/// accurate 1e4 from the origin as next to it.
pub fn query_records<T: Real>(scene: &Scene<T>) -> Result<Vec<QueryRecord>, RunError> {
    let colliders = scene.colliders_at(0);
    let pairs = scene.pairs_for(&colliders);
    pairs
        .iter()
        .enumerate()
        .map(|(i, &(a, b))| {
            let (body_a, body_b) = (&scene.bodies[a], &scene.bodies[b]);
            let pose_a = body_a.exact_pose;
            let pos12: Isometry<T> = convert_ref(&pose_a.inv_mul(&body_b.exact_pose));
            let c = contact(
                &Isometry::identity(),
                scene.shape_of(body_a),
                &pos12,
                scene.shape_of(body_b),
                Float::max_value(),
            )
            .map_err(|error| RunError::Query { pair: i, error })?
            .ok_or(RunError::NoResult { pair: i })?;
            let world = |p: &nphase_math::Point<T>| pose_a * p.map(|x| x.as_f64());
            let normal = pose_a.rotation * c.normal1.into_inner().map(|x| x.as_f64());
            // Already unit in T; widened, it stays unit to T's rounding.
            let normal1 = UnitVector::new_unchecked(normal);
            let world_contact = Contact {
                point1: world(&c.point1),
                point2: world(&c.point2),
                normal1,
                normal2: -normal1,
                dist: c.dist.as_f64(),
                lower_bound: c.lower_bound.as_f64(),
                upper_bound: c.upper_bound.as_f64(),
                quality: c.quality,
            };
            Ok(QueryRecord::from_contact(
                body_a.id,
                body_b.id,
                &world_contact,
            ))
        })
        .collect()
}

/// The contact manifolds of frame 0 through a fresh [`NarrowPhase`] with `threads` threads:
/// one record per pair that has points, in pair order. The result does not depend on
/// `threads`.
pub fn contact_records<T: Real>(
    scene: &Scene<T>,
    threads: usize,
) -> Result<Vec<ManifoldRecord>, RunError> {
    let mut sim = Simulation::new(scene, threads)?;
    sim.step()?;
    Ok(sim.manifold_records())
}

/// What one frame of a [`Simulation`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FrameReport {
    /// The frame number.
    pub frame: u64,
    /// The narrowphase statistics (its `elapsed` is the narrowphase's own wall time).
    pub stats: StepStats,
    /// Time spent posing the bodies and finding the pairs.
    pub broadphase: Duration,
}

/// A multi-frame run: each [`step`](Simulation::step) poses the bodies at the next frame,
/// finds the pairs (unless the scene lists them) and updates a persistent [`NarrowPhase`], so
/// pairs stay warm-started from one frame to the next.
pub struct Simulation<'a, T: Real> {
    scene: &'a Scene<T>,
    narrow: NarrowPhase<T>,
    colliders: Vec<Collider<T>>,
    pairs: Vec<(usize, usize)>,
    next_frame: u64,
}

impl<T: Real> fmt::Debug for Simulation<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Simulation")
            .field("bodies", &self.colliders.len())
            .field("next_frame", &self.next_frame)
            .finish_non_exhaustive()
    }
}

impl<'a, T: Real> Simulation<'a, T> {
    /// A run starting at frame 0, with a pipeline of `threads` threads (`0`: rayon's pool).
    pub fn new(scene: &'a Scene<T>, threads: usize) -> Result<Self, RunError> {
        let narrow = new_narrow_phase(scene, threads, 0)?;
        Ok(Simulation {
            scene,
            narrow,
            colliders: scene.colliders_at(0),
            pairs: Vec::new(),
            next_frame: 0,
        })
    }

    /// Runs the next frame.
    pub fn step(&mut self) -> Result<FrameReport, RunError> {
        let frame = self.next_frame;
        let start = Instant::now();
        self.scene.pose_colliders(frame, &mut self.colliders);
        self.pairs = self.scene.pairs_for(&self.colliders).into_owned();
        let broadphase = start.elapsed();
        self.narrow
            .update(&self.colliders, &self.pairs)
            .map_err(|error| RunError::Pipeline { frame, error })?;
        self.next_frame += 1;
        Ok(FrameReport {
            frame,
            stats: *self.narrow.stats(),
            broadphase,
        })
    }

    /// The manifolds of the last frame as world-space records (pairs with points only), each
    /// with its pair's quality.
    pub fn manifold_records(&self) -> Vec<ManifoldRecord> {
        self.pairs
            .iter()
            .zip(self.narrow.manifolds())
            .zip(self.narrow.qualities())
            .filter_map(|((&(a, b), m), &quality)| {
                ManifoldRecord::from_manifold(&self.colliders[a], &self.colliders[b], m, quality)
            })
            .collect()
    }

    /// The colliders as posed for the last frame.
    pub fn colliders(&self) -> &[Collider<T>] {
        &self.colliders
    }

    /// The pairs of the last frame.
    pub fn pairs(&self) -> &[(usize, usize)] {
        &self.pairs
    }
}

/// A pipeline for `scene` with `threads` threads; `frame` only labels a refusal.
pub(crate) fn new_narrow_phase<T: Real>(
    scene: &Scene<T>,
    threads: usize,
    frame: u64,
) -> Result<NarrowPhase<T>, RunError> {
    debug_assert!(Float::is_finite(scene.prediction));
    NarrowPhase::new(NarrowPhaseConfig {
        prediction: scene.prediction,
        threads,
        ..NarrowPhaseConfig::default()
    })
    .map_err(|error| RunError::Pipeline { frame, error })
}
