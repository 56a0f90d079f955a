//! `NarrowPhase`: this frame's broadphase pairs in, one contact manifold per pair out —
//! parallel, warm-started from last frame, deterministic.
//!
//! Per pair, in parallel chunks and in input order: `pos12 = pose_a⁻¹ · pose_b`; the pair
//! query ([`query_pair`]) warm-started from the pair's [`SimplexCache`]; the manifold
//! ([`build_manifold`]); and the carry-over of the solver's impulses from last frame's points
//! with the same ids.
//!
//! # Persistent state
//! Each pair keeps its cache and last frame's point ids with their impulses, keyed by the
//! colliders' ids `(id_a, id_b)`. A pair absent from this frame's list loses its state.
//!
//! # Determinism
//! Every task writes only its own slots of the output, and a pair's result depends only on its
//! own inputs and state, so the output is bit-identical for any number of threads.
//!
//! # Allocation
//! The pair states, the key index and the output are double-buffered and reused; the
//! per-thread workspaces (EPA polytope, clipping buffers) keep their capacity. Once they have
//! grown to the scene, an update allocates nothing.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use arrayvec::ArrayVec;
use core::fmt;
use nphase_gjk::SimplexCache;
use nphase_math::{Isometry, Real};
use nphase_shapes::Shape;
use num_traits::Float;
use rayon::prelude::*;

use crate::manifold::{ContactManifold, MAX_MANIFOLD_POINTS, ManifoldWorkspace, build_manifold};
use crate::query::pose_is_finite;
use crate::{ContactQuality, PairWorkspace, query_pair};

/// A shape placed in the world, with the id its pairs are keyed by.
#[derive(Clone, Debug, PartialEq)]
pub struct Collider<T: Real> {
    /// Stable id (a body or collider handle of the engine).
    pub id: u64,
    /// The shape.
    pub shape: Shape<T>,
    /// Local → world pose.
    pub pose: Isometry<T>,
}

/// Settings of a [`NarrowPhase`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NarrowPhaseConfig<T: Real> {
    /// Contact prediction distance (≥ 0): points up to this far apart are kept, with positive
    /// distance.
    pub prediction: T,
    /// Worker threads: `0` uses rayon's global pool, `n ≥ 1` a pool of its own with `n` threads.
    pub threads: usize,
    /// Pairs per parallel task (at least 64).
    pub chunk_size: usize,
}

impl<T: Real> Default for NarrowPhaseConfig<T> {
    fn default() -> Self {
        NarrowPhaseConfig {
            prediction: T::zero(),
            threads: 0,
            chunk_size: 128,
        }
    }
}

/// Why an update refused its input.
#[derive(Clone, Debug, PartialEq)]
pub enum PipelineError {
    /// Pair `pair` names a collider index past the end of the collider slice.
    PairOutOfRange {
        /// Index of the pair in the input.
        pair: usize,
        /// The offending collider index.
        collider: usize,
    },
    /// Pair `pair` pairs a collider with itself.
    SelfPair {
        /// Index of the pair in the input.
        pair: usize,
    },
    /// A collider's pose has a NaN or infinite component.
    NonFinitePose {
        /// The collider's id.
        id: u64,
    },
    /// The prediction distance is negative or not finite.
    InvalidPrediction,
    /// The thread pool could not be built.
    ThreadPool(String),
}

impl fmt::Display for PipelineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PipelineError::PairOutOfRange { pair, collider } => {
                write!(
                    f,
                    "pairs[{pair}]: collider index {collider} is out of range"
                )
            }
            PipelineError::SelfPair { pair } => {
                write!(f, "pairs[{pair}]: a collider cannot pair with itself")
            }
            PipelineError::NonFinitePose { id } => {
                write!(f, "collider {id}: pose has a NaN or infinite component")
            }
            PipelineError::InvalidPrediction => {
                write!(f, "prediction must be finite and non-negative")
            }
            PipelineError::ThreadPool(e) => write!(f, "cannot build the thread pool: {e}"),
        }
    }
}

impl std::error::Error for PipelineError {}

/// What one update did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StepStats {
    /// Pairs processed.
    pub pairs: u64,
    /// Manifolds with at least one point.
    pub manifolds: u64,
    /// Contact points in all manifolds.
    pub points: u64,
    /// GJK iterations, summed over the pairs.
    pub gjk_iterations: u64,
    /// Pairs whose GJK started from the cached simplex.
    pub warm_starts: u64,
    /// Pairs that ran EPA.
    pub epa_runs: u64,
    /// Pair queries that stopped on an iteration cap (GJK's, EPA's, or EPA's local-refinement
    /// exit): the best estimate was used. Counted whether or not the pair ended with a contact.
    pub iteration_limits: u64,
    /// Pair queries that fell back to an estimate (GJK stalled and EPA could not settle the
    /// answer, or EPA met a degenerate polytope). Counted whether or not the pair ended with a
    /// contact.
    pub fallbacks: u64,
    /// Pair queries in which GJK stalled on rounding and EPA was run to settle the answer
    /// (those where EPA could not are also in `fallbacks`).
    pub gjk_stalls: u64,
    /// Wall time of the update.
    pub elapsed: Duration,
}

impl StepStats {
    fn add(mut self, other: StepStats) -> StepStats {
        self.pairs += other.pairs;
        self.manifolds += other.manifolds;
        self.points += other.points;
        self.gjk_iterations += other.gjk_iterations;
        self.warm_starts += other.warm_starts;
        self.epa_runs += other.epa_runs;
        self.iteration_limits += other.iteration_limits;
        self.fallbacks += other.fallbacks;
        self.gjk_stalls += other.gjk_stalls;
        self
    }
}

/// The state a pair keeps between frames.
#[derive(Clone, Copy, Debug)]
struct PairState<T: Real> {
    key: (u64, u64),
    cache: SimplexCache<T>,
    /// Last frame's point ids with their normal impulses.
    impulses: [(u32, T); MAX_MANIFOLD_POINTS],
    impulse_count: u8,
}

impl<T: Real> PairState<T> {
    fn new(key: (u64, u64)) -> Self {
        PairState {
            key,
            cache: SimplexCache::EMPTY,
            impulses: [(0, T::zero()); MAX_MANIFOLD_POINTS],
            impulse_count: 0,
        }
    }
}

/// Scratch space of one worker thread.
#[derive(Debug, Default)]
struct ThreadWorkspace<T: Real> {
    pair: PairWorkspace<T>,
    manifold: ManifoldWorkspace<T>,
}

/// The contact pipeline; see the module doc.
pub struct NarrowPhase<T: Real> {
    config: NarrowPhaseConfig<T>,
    pool: Option<rayon::ThreadPool>,
    workspaces: Vec<Mutex<ThreadWorkspace<T>>>,
    states: Vec<PairState<T>>,
    next_states: Vec<PairState<T>>,
    index: HashMap<(u64, u64), u32>,
    manifolds: Vec<ContactManifold<T>>,
    stats: StepStats,
}

impl<T: Real> fmt::Debug for NarrowPhase<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("NarrowPhase")
            .field("config", &self.config)
            .field("pairs", &self.states.len())
            .field("stats", &self.stats)
            .finish_non_exhaustive()
    }
}

impl<T: Real> NarrowPhase<T> {
    /// A pipeline with the given settings (its own thread pool when `config.threads ≥ 1`).
    pub fn new(config: NarrowPhaseConfig<T>) -> Result<Self, PipelineError> {
        if !(Float::is_finite(config.prediction) && config.prediction >= T::zero()) {
            return Err(PipelineError::InvalidPrediction);
        }
        let pool = match config.threads {
            0 => None,
            n => Some(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(n)
                    .build()
                    .map_err(|e| PipelineError::ThreadPool(e.to_string()))?,
            ),
        };
        let threads = pool
            .as_ref()
            .map_or_else(rayon::current_num_threads, |p| p.current_num_threads());
        Ok(NarrowPhase {
            config: NarrowPhaseConfig {
                chunk_size: config.chunk_size.max(64),
                ..config
            },
            pool,
            workspaces: (0..threads.max(1)).map(|_| Mutex::default()).collect(),
            states: Vec::new(),
            next_states: Vec::new(),
            index: HashMap::new(),
            manifolds: Vec::new(),
            stats: StepStats::default(),
        })
    }

    /// The manifolds of the last update, one per input pair, in input order.
    pub fn manifolds(&self) -> &[ContactManifold<T>] {
        &self.manifolds
    }

    /// Mutable access to the manifolds, for the engine to record the impulses it applied
    /// ([`ContactPoint::normal_impulse`](crate::ContactPoint::normal_impulse)); the next update
    /// carries them over to points with the same ids.
    pub fn manifolds_mut(&mut self) -> &mut [ContactManifold<T>] {
        &mut self.manifolds
    }

    /// Statistics of the last update.
    pub fn stats(&self) -> &StepStats {
        &self.stats
    }

    /// The settings.
    pub fn config(&self) -> &NarrowPhaseConfig<T> {
        &self.config
    }

    /// Computes this frame's manifolds: `pairs` are index pairs into `colliders`.
    pub fn update(
        &mut self,
        colliders: &[Collider<T>],
        pairs: &[(usize, usize)],
    ) -> Result<&[ContactManifold<T>], PipelineError> {
        let start = Instant::now();
        validate(colliders, pairs)?;
        self.carry_impulses_into_states();

        // Last frame's state of each pair: a broadphase usually lists the pairs in the same
        // order frame after frame, so the state at the same position is tried first, and the
        // key index (built lazily, at the first pair that moved) only serves the others.
        self.next_states.clear();
        let mut index_built = false;
        for (i, &(a, b)) in pairs.iter().enumerate() {
            let key = (colliders[a].id, colliders[b].id);
            let state = match self.states.get(i) {
                Some(s) if s.key == key => *s,
                _ => {
                    if !index_built {
                        self.index.clear();
                        for (k, s) in self.states.iter().enumerate() {
                            self.index.insert(s.key, k as u32);
                        }
                        index_built = true;
                    }
                    match self.index.get(&key) {
                        Some(&k) => self.states[k as usize],
                        None => PairState::new(key),
                    }
                }
            };
            self.next_states.push(state);
        }
        self.manifolds
            .resize_with(pairs.len(), ContactManifold::default);

        let chunk = self.config.chunk_size;
        let prediction = self.config.prediction;
        let workspaces = &self.workspaces;
        let manifolds = &mut self.manifolds;
        let states = &mut self.next_states;
        let run_chunk = move |out: &mut [ContactManifold<T>],
                              state: &mut [PairState<T>],
                              pairs: &[(usize, usize)],
                              slot: usize| {
            let mut ws = workspaces[slot % workspaces.len()]
                .lock()
                .unwrap_or_else(|e| e.into_inner());
            let mut stats = StepStats::default();
            for ((manifold, state), &(a, b)) in out.iter_mut().zip(state.iter_mut()).zip(pairs) {
                stats = stats.add(process_pair(
                    &colliders[a],
                    &colliders[b],
                    prediction,
                    state,
                    manifold,
                    &mut ws,
                ));
            }
            stats
        };
        let threads = self
            .pool
            .as_ref()
            .map_or_else(rayon::current_num_threads, |p| p.current_num_threads());
        // One thread, or one chunk: the chunks run in order on the calling thread. Handing
        // them to a pool would only add the hand-over (and rayon's injector queue allocates a
        // block every few dozen jobs). The chunks and their results are the same either way.
        let stats = if threads <= 1 || pairs.len() <= chunk {
            manifolds
                .chunks_mut(chunk)
                .zip(states.chunks_mut(chunk))
                .zip(pairs.chunks(chunk))
                .map(|((out, state), pairs)| run_chunk(out, state, pairs, 0))
                .fold(StepStats::default(), StepStats::add)
        } else {
            let mut work = move || {
                manifolds
                    .par_chunks_mut(chunk)
                    .zip(states.par_chunks_mut(chunk))
                    .zip(pairs.par_chunks(chunk))
                    .map(|((out, state), pairs)| {
                        run_chunk(
                            out,
                            state,
                            pairs,
                            rayon::current_thread_index().unwrap_or(0),
                        )
                    })
                    .reduce(StepStats::default, StepStats::add)
            };
            match &self.pool {
                Some(pool) => pool.install(work),
                None => work(),
            }
        };

        core::mem::swap(&mut self.states, &mut self.next_states);
        self.stats = StepStats {
            elapsed: start.elapsed(),
            ..stats
        };
        Ok(&self.manifolds)
    }

    /// Copies the impulses the engine wrote into last frame's manifolds into the pair states.
    fn carry_impulses_into_states(&mut self) {
        for (state, manifold) in self.states.iter_mut().zip(&self.manifolds) {
            state.impulse_count = manifold.points.len() as u8;
            for (slot, p) in state.impulses.iter_mut().zip(&manifold.points) {
                *slot = (p.id, p.normal_impulse);
            }
        }
    }
}

fn validate<T: Real>(
    colliders: &[Collider<T>],
    pairs: &[(usize, usize)],
) -> Result<(), PipelineError> {
    for c in colliders {
        if !pose_is_finite(&c.pose) {
            return Err(PipelineError::NonFinitePose { id: c.id });
        }
    }
    for (i, &(a, b)) in pairs.iter().enumerate() {
        for collider in [a, b] {
            if collider >= colliders.len() {
                return Err(PipelineError::PairOutOfRange { pair: i, collider });
            }
        }
        if a == b {
            return Err(PipelineError::SelfPair { pair: i });
        }
    }
    Ok(())
}

/// One pair: query, manifold, impulse carry-over; returns its statistics.
fn process_pair<T: Real>(
    a: &Collider<T>,
    b: &Collider<T>,
    prediction: T,
    state: &mut PairState<T>,
    manifold: &mut ContactManifold<T>,
    ws: &mut ThreadWorkspace<T>,
) -> StepStats {
    let pos12 = a.pose.inv_mul(&b.pose);
    let outcome = query_pair(
        &a.shape,
        &b.shape,
        &pos12,
        prediction,
        &mut state.cache,
        &mut ws.pair,
    );
    let mut stats = StepStats {
        pairs: 1,
        gjk_iterations: u64::from(outcome.gjk_iterations),
        warm_starts: u64::from(outcome.warm_started),
        epa_runs: u64::from(outcome.epa_ran),
        iteration_limits: u64::from(outcome.quality == ContactQuality::IterationLimit),
        fallbacks: u64::from(outcome.quality == ContactQuality::Fallback),
        gjk_stalls: u64::from(outcome.gjk_stalled),
        ..StepStats::default()
    };
    manifold.points.clear();
    let Some(contact) = outcome.contact else {
        return stats;
    };
    build_manifold(
        &a.shape,
        &b.shape,
        &pos12,
        &contact,
        prediction,
        &mut ws.manifold,
        &mut manifold.points,
    );
    manifold.local_normal1 = contact.normal;
    manifold.normal = a.pose.rotation * contact.normal;
    let previous: ArrayVec<(u32, T), MAX_MANIFOLD_POINTS> = state.impulses
        [..usize::from(state.impulse_count)]
        .iter()
        .copied()
        .collect();
    for p in &mut manifold.points {
        if let Some(&(_, impulse)) = previous.iter().find(|(id, _)| *id == p.id) {
            p.normal_impulse = impulse;
            p.persisted = true;
        }
    }
    stats.manifolds = u64::from(!manifold.points.is_empty());
    stats.points = manifold.points.len() as u64;
    stats
}
