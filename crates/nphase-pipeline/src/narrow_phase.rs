//! `NarrowPhase`: this frame's broadphase pairs in, one contact manifold per pair out —
//! parallel, warm-started from last frame, deterministic.
//!
//! Per pair, in parallel chunks and in input order: `pos12 = pose_a⁻¹ · pose_b`, then the
//! per-pair unit [`update_manifold`] (the pair query warm-started from the pair's
//! [`PairState`], the manifold, and the carry-over of the solver's impulses from last frame's
//! points with the same ids).
//!
//! **A small shape listed before a large one** (B reaching more than
//! [`SWAP_REACH`](crate::SWAP_REACH) × as far as A: a box, then the floor) is computed the other
//! way round, with the large one as nphase's A, where certified reuse holds as the small one
//! jitters (`mirrored_pair.rs`): its record keeps the manifold in that order, and the caller's
//! manifold is its mirror — the caller's order, ids and normal from the caller's A, the
//! impulses it writes carried back by id. Decided from the shapes when the pair's record is
//! made.
//!
//! **Colliders that did not move.** Before the pairs, one pass over the colliders marks those
//! whose id and pose are, bit for bit, the last update's at the same index. A pair of two such
//! colliders was brought up to date at these very poses by the last update, so its `pos12` and
//! everything [`update_manifold`] would answer are the same as then: it repeats the last
//! update's certified shortcut (an `Unchanged` or `Still` manifold, or `Apart` again) without
//! computing `pos12`, and is counted as that shortcut — except a `Still` manifold the engine
//! emptied, which is computed again as [`update_manifold`] does. Only a record the last update
//! computed takes it (a new pair has none), and the pass runs after the input is validated, so
//! a refused update leaves the last one's colliders in place. When the colliders keep their ids
//! and the pairs are the last update's, the records are matched without looking at their keys;
//! when, besides, no collider moved, every pair repeats its shortcut, and the pairs run on the
//! calling thread (a few dozen nanoseconds a pair, less than handing chunks to a second thread
//! costs). Which thread runs a pair never changes its answer.
//!
//! **Nothing moved, again.** Repeating a shortcut is idempotent: after one update in which
//! nothing moved and every pair repeated its shortcut, each record's shortcut (`Unchanged`,
//! `Still` or `Apart`), each quality and each manifold's points are what repeating it gives
//! again. The pipeline remembers that it is at this fixed point (`settled`); a next update in which
//! nothing moved either leaves the records and qualities as they are and only walks the
//! manifolds — marking their points persisted again and counting them, which is all the
//! per-pair shortcut would change (an engine may have written into them) — so its cost is the
//! colliders' pass and a read of each manifold, not a pair's record.
//!
//! # Persistent state
//! Each pair keeps its [`PairState`] and last frame's manifold (whose points carry the impulses
//! the engine wrote into them through [`NarrowPhase::manifolds_mut`]) — and, computed the
//! other way round, its manifold in that order — keyed by the colliders' ids `(id_a, id_b)`. A
//! pair absent from this frame's list loses its state.
//!
//! # Determinism
//! Every task writes only its own slots of the output, and a pair's result depends only on its
//! own inputs and state, so the output is bit-identical for any number of threads.
//!
//! # Allocation
//! The pair records, the key index and the output are double-buffered and reused; the
//! per-thread workspaces (EPA polytope, clipping buffers) keep their capacity. Once they have
//! grown to the scene, an update allocates nothing.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use core::fmt;
use nphase_math::{Isometry, Real};
use nphase_shapes::Shape;
use num_traits::Float;
use rayon::prelude::*;

use crate::manifold::ContactManifold;
use crate::mirrored_pair::{carry_engine_data, computes_other_way_round, write_mirrored};
use crate::pair::{bitwise_equal, keep_last_manifold};
use crate::query::{pose_is_finite, translation_beyond_range};
use crate::{ContactQuality, PairInput, PairState, PairWorkspace, Reuse, update_manifold};

/// A shape placed in the world, with the id its pairs are keyed by.
#[derive(Clone, Debug, PartialEq)]
pub struct Collider<T: Real> {
    /// Stable id (a body or collider handle of the engine). A collider keeps its shape while it
    /// keeps its id: a pair's state — certified reuse, EPA's kept polytope, feature ids —
    /// describes the shapes it was computed with, so a changed shape takes a new id.
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
    /// Worker threads: `0` uses rayon's global pool, `n ≥ 1` a pool of its own with `n` threads,
    /// at most [`MAX_THREADS`](Self::MAX_THREADS).
    pub threads: usize,
    /// Pairs per parallel task (at least 64).
    pub chunk_size: usize,
}

impl<T: Real> NarrowPhaseConfig<T> {
    /// The most `threads` a pipeline accepts; more is refused with
    /// [`PipelineError::TooManyThreads`] before any thread is spawned. A fixed maximum, not a
    /// multiple of the machine's cores, so that a configuration valid on one machine is valid on
    /// every machine; it is above the hardware threads of any current machine (two-socket
    /// servers reach 768), and each thread of the pool costs a stack and a workspace, so a count
    /// beyond it can only be a mistake (`threads: 100000` would spawn them).
    pub const MAX_THREADS: usize = 1024;
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
    /// A collider's pose has a translation component beyond the precision's largest length
    /// ([`InputRange::max_length`](nphase_math::InputRange::max_length), docs/accuracy.md).
    PoseOutOfRange {
        /// The collider's id.
        id: u64,
        /// The offending component.
        value: f64,
        /// The largest length of the precision.
        max: f64,
    },
    /// The prediction distance is negative or not finite.
    InvalidPrediction,
    /// `threads` is above [`NarrowPhaseConfig::MAX_THREADS`].
    TooManyThreads {
        /// The count asked for.
        requested: usize,
        /// The maximum.
        max: usize,
    },
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
            PipelineError::PoseOutOfRange { id, value, max } => write!(
                f,
                "collider {id}: translation component {value:e} is beyond the largest length of \
                 this precision ({max:e}; docs/accuracy.md, \"Input range\")"
            ),
            PipelineError::InvalidPrediction => {
                write!(f, "prediction must be finite and non-negative")
            }
            PipelineError::TooManyThreads { requested, max } => {
                write!(f, "thread count {requested} is above the maximum of {max}")
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
    /// Of those, the ones whose EPA started from the polytope the pair kept and answered from
    /// it, without GJK.
    pub epa_warm: u64,
    /// Pairs overlapping at their last query too that a face normal and a point inside the
    /// other shape answered, without GJK or EPA
    /// ([`PairOutcome::face_certified`](crate::PairOutcome::face_certified)).
    pub face_certified: u64,
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
    /// Pairs whose `pos12` was bitwise unchanged since their last full computation: the
    /// manifold stood as it was ([`Reuse::Unchanged`](crate::Reuse::Unchanged)).
    pub reused_unchanged: u64,
    /// Pairs certified apart by the motion bound, without a query
    /// ([`Reuse::Apart`](crate::Reuse::Apart)).
    pub reused_apart: u64,
    /// Contacts whose pose moved too little since their last full computation to change the
    /// answer beyond the accuracy: the manifold stood ([`Reuse::Still`](crate::Reuse::Still)).
    pub reused_still: u64,
    /// Polytope pairs that ran the separating-axis test.
    pub sat_runs: u64,
    /// Of those, the ones whose cached feature (last frame's) won again.
    pub sat_cache_hits: u64,
    /// Of those, the ones answered by the hot features of the pair's certificate, without the
    /// full test ([`PairOutcome::sat_certified`](crate::PairOutcome::sat_certified)).
    pub sat_certified: u64,
    /// Wall time of the update.
    pub elapsed: Duration,
}

impl core::ops::Add for StepStats {
    type Output = StepStats;

    /// The sums of two statistics, field by field (the elapsed times too).
    fn add(mut self, other: StepStats) -> StepStats {
        self.pairs += other.pairs;
        self.manifolds += other.manifolds;
        self.points += other.points;
        self.gjk_iterations += other.gjk_iterations;
        self.warm_starts += other.warm_starts;
        self.epa_runs += other.epa_runs;
        self.epa_warm += other.epa_warm;
        self.face_certified += other.face_certified;
        self.iteration_limits += other.iteration_limits;
        self.fallbacks += other.fallbacks;
        self.gjk_stalls += other.gjk_stalls;
        self.reused_unchanged += other.reused_unchanged;
        self.reused_apart += other.reused_apart;
        self.reused_still += other.reused_still;
        self.sat_runs += other.sat_runs;
        self.sat_cache_hits += other.sat_cache_hits;
        self.sat_certified += other.sat_certified;
        self.elapsed += other.elapsed;
        self
    }
}

/// A pair's record: its key, its state, and which shortcut its last update took.
#[derive(Clone, Debug)]
struct PairRecord<T: Real> {
    key: (u64, u64),
    state: PairState<T>,
    /// How the pair's last update ended (`Computed` for a new pair).
    reuse: Reuse,
    /// Whether the pair is computed the other way round, its second collider as A: decided
    /// from the shapes when the record is made ([`computes_other_way_round`]).
    swapped: bool,
    /// For a pair computed the other way round, its manifold in that order, which `state`
    /// describes; the caller's is its mirror (`mirrored_pair.rs`). A pair listed twice in one
    /// update has its second entry's own, empty (a reset). `None` for the others.
    kept: Option<Box<ContactManifold<T>>>,
}

impl<T: Real> PairRecord<T> {
    /// The record of a pair met for the first time: a fresh state, and a kept manifold of its
    /// own where it is computed the other way round.
    fn new(key: (u64, u64), (a, b): (&Collider<T>, &Collider<T>)) -> Self {
        let swapped = computes_other_way_round(&a.shape, &b.shape);
        PairRecord {
            key,
            state: PairState::new(),
            reuse: Reuse::Computed,
            swapped,
            kept: swapped.then(Box::default),
        }
    }
}

/// The contact pipeline; see the module doc.
pub struct NarrowPhase<T: Real> {
    config: NarrowPhaseConfig<T>,
    pool: Option<rayon::ThreadPool>,
    workspaces: Vec<Mutex<PairWorkspace<T>>>,
    /// Each pair's record and manifold, in the order of the last update's pairs.
    records: Vec<PairRecord<T>>,
    manifolds: Vec<ContactManifold<T>>,
    /// How each pair's query of the last update ended, in the order of its pairs.
    qualities: Vec<ContactQuality>,
    /// Buffers for reordering when this frame's pairs come in another order.
    next_records: Vec<PairRecord<T>>,
    next_manifolds: Vec<ContactManifold<T>>,
    index: HashMap<(u64, u64), u32>,
    /// Each collider's id and pose at the last update, by index.
    last_colliders: Vec<(u64, Isometry<T>)>,
    /// Whether each collider of this update has the last update's id and, bit for bit, pose.
    still: Vec<bool>,
    /// The last update's pairs (the order of `records`).
    last_pairs: Vec<(usize, usize)>,
    /// The last update found every collider still and the pairs the same as the update
    /// before, and every pair repeated its shortcut: the records and qualities are a fixed
    /// point of the shortcut (see the module doc, "Nothing moved, again").
    settled: bool,
    stats: StepStats,
}

impl<T: Real> fmt::Debug for NarrowPhase<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("NarrowPhase")
            .field("config", &self.config)
            .field("pairs", &self.records.len())
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
        let max = NarrowPhaseConfig::<T>::MAX_THREADS;
        if config.threads > max {
            return Err(PipelineError::TooManyThreads {
                requested: config.threads,
                max,
            });
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
            records: Vec::new(),
            manifolds: Vec::new(),
            qualities: Vec::new(),
            next_records: Vec::new(),
            next_manifolds: Vec::new(),
            index: HashMap::new(),
            last_colliders: Vec::new(),
            still: Vec::new(),
            last_pairs: Vec::new(),
            settled: false,
            stats: StepStats::default(),
        })
    }

    /// The manifolds of the last update, one per input pair, in input order.
    pub fn manifolds(&self) -> &[ContactManifold<T>] {
        &self.manifolds
    }

    /// How the query of each pair of the last update ended, one per input pair, in input order
    /// (the [`PairOutcome::quality`](crate::PairOutcome::quality) of its [`update_manifold`]):
    /// whether its manifold comes from a converged answer or from the best estimate of a query
    /// that stopped on an iteration cap or fell back. A pair without points is apart by a
    /// certified bound whatever its quality. [`StepStats`] counts the same per update.
    pub fn qualities(&self) -> &[ContactQuality] {
        &self.qualities
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
        let (same_ids, all_still) = self.check_colliders(colliders)?;
        let same_pairs = same_ids && self.last_pairs == pairs;
        // The last update's pairs were checked against as many colliders.
        if !same_pairs {
            validate_pairs(colliders.len(), pairs)?;
        }
        // Only now that nothing can fail: the last update's colliders and pairs are replaced
        // by this one's, which the records are about to describe.
        self.keep_colliders(colliders, all_still);
        self.match_pairs(colliders, pairs, same_pairs);
        // Nothing moved and the pairs are the last update's (each of which it computed or
        // reused): every pair repeats its shortcut, a hundred-odd instructions, which is less
        // than waking a second thread costs.
        let inline = all_still && same_pairs;
        if inline && self.settled && !self.emptied_standing() {
            self.stats = self.repeat_settled(start);
            return Ok(&self.manifolds);
        }

        let chunk = self.config.chunk_size;
        let prediction = self.config.prediction;
        let workspaces = &self.workspaces;
        let still = &self.still;
        self.qualities.clear();
        self.qualities
            .resize(pairs.len(), ContactQuality::Converged);
        let manifolds = &mut self.manifolds;
        let states = &mut self.records;
        let qualities = &mut self.qualities;
        let run_chunk = move |out: &mut [ContactManifold<T>],
                              quality: &mut [ContactQuality],
                              state: &mut [PairRecord<T>],
                              pairs: &[(usize, usize)],
                              slot: usize| {
            let mut ws = workspaces[slot % workspaces.len()]
                .lock()
                .unwrap_or_else(|e| e.into_inner());
            let mut stats = StepStats::default();
            for (((manifold, quality), state), &(a, b)) in out
                .iter_mut()
                .zip(quality.iter_mut())
                .zip(state.iter_mut())
                .zip(pairs)
            {
                process_pair(
                    (&colliders[a], &colliders[b]),
                    prediction,
                    still[a] & still[b],
                    state,
                    (manifold, quality),
                    &mut ws,
                    &mut stats,
                );
            }
            stats
        };
        let threads = self
            .pool
            .as_ref()
            .map_or_else(rayon::current_num_threads, |p| p.current_num_threads());
        // One thread, one chunk, or nothing to compute: the chunks run in order on the calling
        // thread. Handing them to a pool would only add the hand-over (and rayon's injector
        // queue allocates a block every few dozen jobs). The chunks and their results are the
        // same either way.
        let stats = if threads <= 1 || pairs.len() <= chunk || inline {
            manifolds
                .chunks_mut(chunk)
                .zip(qualities.chunks_mut(chunk))
                .zip(states.chunks_mut(chunk))
                .zip(pairs.chunks(chunk))
                .map(|(((out, quality), state), pairs)| run_chunk(out, quality, state, pairs, 0))
                .fold(StepStats::default(), core::ops::Add::add)
        } else {
            let mut work = move || {
                manifolds
                    .par_chunks_mut(chunk)
                    .zip(qualities.par_chunks_mut(chunk))
                    .zip(states.par_chunks_mut(chunk))
                    .zip(pairs.par_chunks(chunk))
                    .map(|(((out, quality), state), pairs)| {
                        run_chunk(
                            out,
                            quality,
                            state,
                            pairs,
                            rayon::current_thread_index().unwrap_or(0),
                        )
                    })
                    .reduce(StepStats::default, core::ops::Add::add)
            };
            match &self.pool {
                Some(pool) => pool.install(work),
                None => work(),
            }
        };

        // Every pair of an update with nothing moved took its shortcut (a record always has
        // a last computation once updated; the count says so rather than assuming it).
        self.settled = inline
            && stats.reused_unchanged + stats.reused_apart + stats.reused_still == stats.pairs;
        self.stats = StepStats {
            elapsed: start.elapsed(),
            ..stats
        };
        Ok(&self.manifolds)
    }

    /// An update in which nothing moved, after one that left the pipeline `settled`: each
    /// record's shortcut and each quality are what repeating the shortcut gives again, and so
    /// are the statistics counted from them (pairs, shortcuts, iteration limits, fallbacks:
    /// the last update's; nothing ran). The manifolds stand as they are, except that their
    /// points are marked persisted again and counted, as the per-pair shortcut does
    /// ([`keep_last_manifold`]; an `Apart` pair's manifold is empty already, unless an engine
    /// wrote points into it: then the record is read and they are cleared). Not taken when the
    /// engine emptied a manifold that stood (`emptied_standing`): that pair is computed again.
    fn repeat_settled(&mut self, start: Instant) -> StepStats {
        let last = self.stats;
        let mut stats = StepStats {
            pairs: last.pairs,
            iteration_limits: last.iteration_limits,
            fallbacks: last.fallbacks,
            reused_unchanged: last.reused_unchanged,
            reused_apart: last.reused_apart,
            reused_still: last.reused_still,
            ..StepStats::default()
        };
        for (manifold, record) in self.manifolds.iter_mut().zip(&self.records) {
            if !manifold.points.is_empty() {
                keep_last_manifold(record.reuse, manifold);
                count_points(&mut stats, manifold);
            }
        }
        StepStats {
            elapsed: start.elapsed(),
            ..stats
        }
    }

    /// Whether the engine emptied a manifold that stood (`Still`) in the last update: that pair
    /// is computed again ([`update_manifold`] takes an emptied manifold for a reset), so this
    /// update is no plain repeat. Records are read only when some manifold stood.
    fn emptied_standing(&self) -> bool {
        self.stats.reused_still > 0
            && self
                .manifolds
                .iter()
                .zip(&self.records)
                .any(|(m, r)| emptied_after_still(r.reuse, m))
    }

    /// Checks every collider's pose (a NaN or infinite component, a translation beyond the
    /// input range: the error names the collider) and marks the colliders whose id and pose
    /// are, bit for bit, the last update's at the same index (`still`), in one pass. Returns
    /// whether every collider has the last update's id at the same index (and their number is
    /// the same), and whether, besides, every collider is still.
    fn check_colliders(
        &mut self,
        colliders: &[Collider<T>],
    ) -> Result<(bool, bool), PipelineError> {
        // Every component checked without branching first (most poses pass); a pose that fails
        // is looked at again for the error that names it.
        let plausible = |c: &Collider<T>| {
            let (t, q) = (&c.pose.translation.vector, &c.pose.rotation.coords);
            t.iter().fold(true, |ok, x| ok & T::RANGE.within_max(*x))
                & q.iter().fold(true, |ok, x| ok & Float::is_finite(*x))
        };
        let mut same_ids = self.last_colliders.len() == colliders.len();
        let mut all_still = true;
        let mut all_plausible = true;
        // The colliders at an index the last update had, then the new ones (never still).
        // (`extend` from a zip of two slices: one pass without per-element bounds or capacity
        // checks; ~6 instructions a pair-frame less on resting boxes.)
        let known = self.last_colliders.len().min(colliders.len());
        self.still.clear();
        self.still
            .extend(colliders.iter().zip(&self.last_colliders).map(|(c, last)| {
                let same_id = last.0 == c.id;
                let still = same_id & bitwise_equal(&last.1, &c.pose);
                same_ids &= same_id;
                all_still &= still;
                // A still pose is the one checked when it was kept.
                all_plausible &= still || plausible(c);
                still
            }));
        for c in &colliders[known..] {
            all_plausible &= plausible(c);
            all_still = false;
        }
        self.still.resize(colliders.len(), false);
        if !all_plausible {
            for c in colliders.iter().filter(|c| !plausible(c)) {
                if !pose_is_finite(&c.pose) {
                    return Err(PipelineError::NonFinitePose { id: c.id });
                }
                if let Some(value) = translation_beyond_range(&c.pose) {
                    return Err(PipelineError::PoseOutOfRange {
                        id: c.id,
                        value: value.as_decimal(),
                        max: T::RANGE.max_length.as_decimal(),
                    });
                }
            }
        }
        Ok((same_ids, all_still && same_ids))
    }

    /// Keeps this update's colliders' ids and poses for the next update's `still` marks
    /// (only those that changed: nothing to write when all are still).
    fn keep_colliders(&mut self, colliders: &[Collider<T>], all_still: bool) {
        if all_still {
            return;
        }
        self.last_colliders.truncate(colliders.len());
        let known = self.last_colliders.len();
        for ((c, last), &still) in colliders
            .iter()
            .zip(&mut self.last_colliders)
            .zip(&self.still)
        {
            if !still {
                *last = (c.id, c.pose);
            }
        }
        self.last_colliders
            .extend(colliders[known..].iter().map(|c| (c.id, c.pose)));
    }

    /// Brings each pair's record and last manifold to the pair's position in this frame's
    /// list. A broadphase usually lists the pairs in the same order frame after frame: then
    /// nothing moves. Otherwise the records are looked up by key (a pair absent from the list
    /// loses its record; a new pair starts with a fresh state and an empty manifold).
    /// `same_pairs`: the pairs are the last update's and every collider has the last update's
    /// id at the same index, so the records are in order as they are.
    fn match_pairs(
        &mut self,
        colliders: &[Collider<T>],
        pairs: &[(usize, usize)],
        same_pairs: bool,
    ) {
        if same_pairs {
            return;
        }
        self.last_pairs.clear();
        self.last_pairs.extend_from_slice(pairs);
        let key = |&(a, b): &(usize, usize)| (colliders[a].id, colliders[b].id);
        let same_order = self.records.len() == pairs.len()
            && self.records.iter().zip(pairs).all(|(r, p)| r.key == key(p));
        if same_order {
            return;
        }
        self.index.clear();
        for (k, r) in self.records.iter().enumerate() {
            self.index.insert(r.key, k as u32);
        }
        self.next_records.clear();
        self.next_manifolds.clear();
        for p @ &(a, b) in pairs {
            let key = key(p);
            match self.index.get(&key) {
                Some(&k) => {
                    // The kept EPA polytope, separating-axis certificate and (for a pair
                    // computed the other way round) manifold move with the record; a pair
                    // listed twice shares the rest, and its second entry starts the first two
                    // cold and its manifold empty.
                    let old = &mut self.records[k as usize];
                    let state = PairState {
                        epa: old.state.epa.take(),
                        sat_certificate: old.state.sat_certificate.take(),
                        ..old.state
                    };
                    let kept = old.swapped.then(|| old.kept.take().unwrap_or_default());
                    self.next_records.push(PairRecord {
                        key,
                        state,
                        reuse: old.reuse,
                        swapped: old.swapped,
                        kept,
                    });
                    self.next_manifolds.push(self.manifolds[k as usize].clone());
                }
                None => {
                    let pair = PairRecord::new(key, (&colliders[a], &colliders[b]));
                    self.next_records.push(pair);
                    self.next_manifolds.push(ContactManifold::default());
                }
            }
        }
        core::mem::swap(&mut self.records, &mut self.next_records);
        core::mem::swap(&mut self.manifolds, &mut self.next_manifolds);
    }
}

/// Checks that every pair names two different colliders of the `colliders` given.
fn validate_pairs(colliders: usize, pairs: &[(usize, usize)]) -> Result<(), PipelineError> {
    for (i, &(a, b)) in pairs.iter().enumerate() {
        for collider in [a, b] {
            if collider >= colliders {
                return Err(PipelineError::PairOutOfRange { pair: i, collider });
            }
        }
        if a == b {
            return Err(PipelineError::SelfPair { pair: i });
        }
    }
    Ok(())
}

/// One pair: [`update_manifold`] in A's frame, into the pair's manifold and quality slots;
/// counted into `stats` (in place: a pair whose manifold stands costs a few hundred
/// instructions, and summing whole records per pair was a tenth of that).
///
/// `still`: neither collider moved since the last update, which brought this pair (a record
/// with a last computation was updated then) up to date at these very poses. Its `pos12` is
/// then the last one bit for bit, and so is what [`update_manifold`] would answer, without
/// computing it: `Unchanged` after a computation or an `Unchanged` (`pos12` is the last full
/// computation's), `Apart` again after an `Apart` and `Still` after a `Still` (the same test
/// on the same input) — unless the engine emptied a manifold that stood
/// ([`emptied_after_still`]), which is computed again.
fn process_pair<T: Real>(
    (a, b): (&Collider<T>, &Collider<T>),
    prediction: T,
    still: bool,
    record: &mut PairRecord<T>,
    (manifold, quality): (&mut ContactManifold<T>, &mut ContactQuality),
    ws: &mut PairWorkspace<T>,
    stats: &mut StepStats,
) {
    let emptied = emptied_after_still(record.reuse, manifold);
    if let (Some(last), true, false) = (record.state.last, still, emptied) {
        let reuse = match record.reuse {
            Reuse::Apart => Reuse::Apart,
            Reuse::Still => Reuse::Still,
            Reuse::Computed | Reuse::Unchanged => Reuse::Unchanged,
        };
        keep_last_manifold(reuse, manifold);
        if let Some(kept) = &mut record.kept {
            keep_last_manifold(reuse, kept);
        }
        // The answer is the last computation's, and so is its quality; nothing ran.
        record.reuse = reuse;
        *quality = last.quality;
        count_answer(stats, last.quality, reuse, manifold);
        return;
    }
    // Each arm builds its own input: one input for either order, its colliders chosen first,
    // cost about 20 instructions a pair-frame more (`boxes/creep`, `pile/slow`).
    let outcome = match &mut record.kept {
        None => {
            let input = PairInput {
                shape1: &a.shape,
                shape2: &b.shape,
                pos12: a.pose.inv_mul(&b.pose),
                prediction,
            };
            update_manifold(&input, &mut record.state, manifold, ws)
        }
        // The pair the other way round (`mirrored_pair.rs`): B as nphase's A.
        Some(kept) => {
            let input = PairInput {
                shape1: &b.shape,
                shape2: &a.shape,
                pos12: b.pose.inv_mul(&a.pose),
                prediction,
            };
            carry_engine_data(manifold, kept);
            let outcome = update_manifold(&input, &mut record.state, kept, ws);
            write_mirrored(kept, &input.pos12.rotation, manifold);
            outcome
        }
    };
    record.reuse = outcome.reuse;
    *quality = outcome.quality;
    count_answer(stats, outcome.quality, outcome.reuse, manifold);
    stats.gjk_iterations += u64::from(outcome.gjk_iterations);
    stats.warm_starts += u64::from(outcome.warm_started);
    stats.epa_runs += u64::from(outcome.epa_ran);
    stats.epa_warm += u64::from(outcome.epa_warm);
    stats.face_certified += u64::from(outcome.face_certified);
    stats.gjk_stalls += u64::from(outcome.gjk_stalled);
    stats.sat_runs += u64::from(outcome.sat_ran);
    stats.sat_cache_hits += u64::from(outcome.sat_cache_hit);
    stats.sat_certified += u64::from(outcome.sat_certified);
}

/// Whether a pair's manifold stood (`Still`) and the engine has emptied it since: a reset, which
/// [`update_manifold`] computes again (its shortcuts need the points), so the pipeline's
/// repetition of the shortcut must not stand in for it. The manifold is read first: a record
/// only for an empty one.
fn emptied_after_still<T: Real>(reuse: Reuse, manifold: &ContactManifold<T>) -> bool {
    manifold.points.is_empty() && reuse == Reuse::Still
}

/// Counts one pair's answer into `stats`: its quality, its shortcut and its manifold.
fn count_answer<T: Real>(
    stats: &mut StepStats,
    quality: ContactQuality,
    reuse: Reuse,
    manifold: &ContactManifold<T>,
) {
    stats.pairs += 1;
    stats.iteration_limits += u64::from(quality == ContactQuality::IterationLimit);
    stats.fallbacks += u64::from(quality == ContactQuality::Fallback);
    stats.reused_unchanged += u64::from(reuse == Reuse::Unchanged);
    stats.reused_apart += u64::from(reuse == Reuse::Apart);
    stats.reused_still += u64::from(reuse == Reuse::Still);
    count_points(stats, manifold);
}

/// Counts one pair's manifold into `stats`: whether it has points, and how many.
fn count_points<T: Real>(stats: &mut StepStats, manifold: &ContactManifold<T>) {
    stats.manifolds += u64::from(!manifold.points.is_empty());
    stats.points += manifold.points.len() as u64;
}

#[cfg(test)]
mod tests {
    use nphase_math::Vector;
    use nphase_shapes::{Ball, Cuboid, Cylinder};

    use super::*;

    /// Boxes resting on each other, balls apart, and coincident cylinders (a whole valley of
    /// equally deep normals: EPA may end on its cap), repeated past one parallel chunk.
    fn colliders() -> Vec<Collider<f64>> {
        let cube = Shape::Cuboid(Cuboid::new(Vector::new(0.5, 0.5, 0.5)).expect("valid"));
        let ball = Shape::Ball(Ball::new(0.5).expect("valid"));
        let can = Shape::Cylinder(Cylinder::new(0.5, 0.3).expect("valid"));
        let mut out = Vec::new();
        for k in 0..100 {
            let x = 10.0 * k as f64;
            for (shape, y) in [(&cube, 0.0), (&cube, 0.99), (&ball, 5.0), (&ball, 7.0)] {
                out.push((shape.clone(), Isometry::translation(x, y, 0.0)));
            }
            for _ in 0..2 {
                out.push((can.clone(), Isometry::translation(x, -5.0, 0.0)));
            }
        }
        out.into_iter()
            .enumerate()
            .map(|(id, (shape, pose))| Collider {
                id: id as u64,
                shape,
                pose,
            })
            .collect()
    }

    #[test]
    fn qualities_are_per_pair_in_input_order_and_agree_with_the_stats() {
        let colliders = colliders();
        let pairs: Vec<_> = (0..colliders.len() / 2)
            .map(|k| (2 * k, 2 * k + 1))
            .collect();
        let mut reference: Option<Vec<ContactQuality>> = None;
        for threads in [1, 3] {
            let mut narrow = NarrowPhase::new(NarrowPhaseConfig {
                threads,
                chunk_size: 64,
                ..NarrowPhaseConfig::default()
            })
            .expect("valid");
            narrow.update(&colliders, &pairs).expect("valid input");
            let qualities = narrow.qualities().to_vec();
            assert_eq!(qualities.len(), pairs.len());
            let count = |q| qualities.iter().filter(|&&x| x == q).count() as u64;
            let stats = narrow.stats();
            assert_eq!(
                count(ContactQuality::IterationLimit),
                stats.iteration_limits
            );
            assert_eq!(count(ContactQuality::Fallback), stats.fallbacks);
            // Each slot is its own pair's: a cold query of the pair ends the same way.
            let mut ws = PairWorkspace::new();
            for (&q, &(a, b)) in qualities.iter().zip(&pairs) {
                let (a, b) = (&colliders[a], &colliders[b]);
                let mut cache = nphase_gjk::SimplexCache::EMPTY;
                let pos12 = a.pose.inv_mul(&b.pose);
                let cold = crate::query_pair(&a.shape, &b.shape, &pos12, 0.0, &mut cache, &mut ws);
                assert_eq!(q, cold.quality, "pair ({}, {})", a.id, b.id);
            }
            // A shorter list shrinks the slice with it.
            narrow.update(&colliders, &pairs[..5]).expect("valid input");
            assert_eq!(narrow.qualities(), &qualities[..5]);
            match &reference {
                None => reference = Some(qualities),
                Some(r) => assert_eq!(r, &qualities, "the same for any thread count"),
            }
        }
    }

    /// Colliders that did not move since the last update take the shortcut: every manifold,
    /// quality and reuse count is what [`update_manifold`] gives each pair on its own, over
    /// frames where nothing moves, some colliders move, and the list is reordered.
    #[test]
    fn still_colliders_answer_as_the_pair_unit_does() {
        let base = colliders();
        let pairs: Vec<_> = (0..base.len() / 2).map(|k| (2 * k, 2 * k + 1)).collect();
        // Per frame: which colliders move by 1e-4 along x (by index parity), and whether the
        // list is reversed (the pairs' indices follow).
        let schedule = [
            (None, false),
            (None, false),
            (Some(1), false),
            (None, false),
            (None, true),
            (None, true),
            (Some(0), false),
            (None, false),
            (Some(1), false),
            (Some(1), false),
            (None, false),
            // Nothing moves for three updates (the last two repeat a settled pipeline), then
            // one side moves and the scene settles again.
            (None, false),
            (None, false),
            (Some(0), false),
            (None, false),
            (None, false),
            (None, false),
        ];
        let mut narrow = NarrowPhase::new(NarrowPhaseConfig {
            threads: 2,
            chunk_size: 64,
            ..NarrowPhaseConfig::default()
        })
        .expect("valid");
        let mut reference: Vec<(PairState<f64>, ContactManifold<f64>)> = pairs
            .iter()
            .map(|_| (PairState::new(), ContactManifold::default()))
            .collect();
        let mut ws = PairWorkspace::new();
        let mut world = base.clone();
        let (mut shortcuts, mut settled) = (0, 0);
        for (frame, &(moving, reversed)) in schedule.iter().enumerate() {
            if let Some(parity) = moving {
                for (i, c) in world.iter_mut().enumerate() {
                    if i % 2 == parity {
                        c.pose.translation.vector.x += 1e-4;
                    }
                }
            }
            let (mut list, listed): (Vec<_>, Vec<_>) = if reversed {
                let n = world.len();
                let list = world.iter().rev().cloned().collect();
                (
                    list,
                    pairs.iter().map(|&(a, b)| (n - 1 - a, n - 1 - b)).collect(),
                )
            } else {
                (world.clone(), pairs.clone())
            };
            // Frames 7 and 8 list three more colliders (in no pair) after the others.
            if frame == 7 || frame == 8 {
                let extra: Vec<_> = list[..3]
                    .iter()
                    .map(|c| Collider {
                        id: c.id + 1000,
                        ..c.clone()
                    })
                    .collect();
                list.extend(extra);
            }
            // A refused update (a NaN pose after the moved ones; a pair out of range) leaves
            // the last one's colliders and pairs in place.
            let mut broken = list.clone();
            if let Some(last) = broken.last_mut() {
                last.pose.translation.vector.y = f64::NAN;
            }
            assert!(narrow.update(&broken, &listed).is_err());
            let mut out_of_range = listed.clone();
            out_of_range.push((0, list.len()));
            assert!(narrow.update(&list, &out_of_range).is_err());
            settled += usize::from(narrow.settled);
            narrow.update(&list, &listed).expect("valid input");
            shortcuts += narrow.still.iter().filter(|&&s| s).count();
            let mut counts = (0, 0, 0);
            for (k, &(a, b)) in pairs.iter().enumerate() {
                let (state, manifold) = &mut reference[k];
                let input = PairInput {
                    shape1: &world[a].shape,
                    shape2: &world[b].shape,
                    pos12: world[a].pose.inv_mul(&world[b].pose),
                    prediction: 0.0,
                };
                let outcome = update_manifold(&input, state, manifold, &mut ws);
                counts.0 += u64::from(outcome.reuse == Reuse::Unchanged);
                counts.1 += u64::from(outcome.reuse == Reuse::Apart);
                counts.2 += u64::from(outcome.reuse == Reuse::Still);
                assert_eq!(
                    narrow.qualities()[k],
                    outcome.quality,
                    "frame {frame} pair {k}"
                );
                assert_eq!(&narrow.manifolds()[k], manifold, "frame {frame} pair {k}");
                // The engine writes its impulses into both (and, from frame 11 on, clears the
                // points' `persisted` marks, which the shortcut sets again).
                for (p, q) in manifold
                    .points
                    .iter_mut()
                    .zip(narrow.manifolds_mut()[k].points.iter_mut())
                {
                    p.normal_impulse = frame as f64;
                    q.normal_impulse = frame as f64;
                    p.persisted &= frame < 11;
                    q.persisted &= frame < 11;
                }
            }
            let stats = narrow.stats();
            assert_eq!(
                (
                    stats.reused_unchanged,
                    stats.reused_apart,
                    stats.reused_still
                ),
                counts,
                "frame {frame}"
            );
        }
        assert!(shortcuts > 0);
        assert!(settled >= 4, "updates from a settled pipeline: {settled}");
    }

    #[test]
    fn absurd_thread_counts_are_refused_before_spawning() {
        let config = |threads| NarrowPhaseConfig::<f32> {
            threads,
            ..NarrowPhaseConfig::default()
        };
        let max = NarrowPhaseConfig::<f32>::MAX_THREADS;
        assert_eq!(
            NarrowPhase::new(config(100_000)).map(|_| ()),
            Err(PipelineError::TooManyThreads {
                requested: 100_000,
                max
            })
        );
        assert!(NarrowPhase::new(config(max + 1)).is_err());
        assert!(NarrowPhase::new(config(2)).is_ok());
    }
}
