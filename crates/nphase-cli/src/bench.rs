//! `nphase bench`: timing the library on a scene.
//!
//! Variants (each repeated `reps` times; the per-repetition figure is nanoseconds per pair, or
//! per pair per frame for the multi-frame ones):
//!
//! * `contact` — one cold [`query::contact`](nphase_pipeline::query::contact) per pair of
//!   frame 0 (the scene's prediction distance);
//! * `manifold-1t` — a fresh one-thread [`NarrowPhase`](nphase_pipeline::NarrowPhase): frame 0
//!   untimed (warm-up), frames `1..frames` timed, bodies moving by their velocity;
//! * `manifold-<T>t` — the same with `T` threads, when `T > 1`.
//!
//! Posing the bodies and the broadphase (scenes without explicit pairs) are done before the
//! clock starts; only the query loop or `NarrowPhase::update` is timed.

use std::hint::black_box;
use std::time::Instant;

use nphase_math::Real;
use nphase_pipeline::StepStats;
use nphase_pipeline::query::contact;

use crate::run::{RunError, new_narrow_phase};
use crate::scene::Scene;

/// What to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchConfig {
    /// Frames of the multi-frame variants (≥ 2: frame 0 is the untimed warm-up).
    pub frames: u64,
    /// Threads of the parallel variant (`manifold-<T>t`, only when > 1).
    pub threads: usize,
    /// Repetitions of each variant (≥ 1).
    pub reps: usize,
}

/// The timing of one variant.
#[derive(Clone, Debug, PartialEq)]
pub struct VariantResult {
    /// `contact`, `manifold-1t`, `manifold-<T>t`.
    pub variant: String,
    /// Pairs per timed frame (mean over the timed frames, rounded; constant for explicit pairs).
    pub pairs: usize,
    /// Repetitions.
    pub reps: usize,
    /// Median over the repetitions of the time per pair (per frame), ns.
    pub median_ns: f64,
    /// Fastest repetition, ns per pair.
    pub min_ns: f64,
    /// Slowest repetition, ns per pair.
    pub max_ns: f64,
    /// Pipeline statistics summed over the timed frames of the last repetition.
    pub stats: Option<StepStats>,
}

impl VariantResult {
    /// The `--machine` line: `RESULT workload=… runner=… variant=… pairs=… reps=… median_ns=…
    /// min_ns=… max_ns=…`.
    pub fn machine_line(&self, workload: &str, runner: &str) -> String {
        format!(
            "RESULT workload={workload} runner={runner} variant={} pairs={} reps={} median_ns={:.1} min_ns={:.1} max_ns={:.1}",
            self.variant, self.pairs, self.reps, self.median_ns, self.min_ns, self.max_ns
        )
    }
}

/// Runs every variant; `progress` is called after each repetition.
pub fn run_bench<T: Real>(
    scene: &Scene<T>,
    config: &BenchConfig,
    mut progress: impl FnMut(),
) -> Result<Vec<VariantResult>, RunError> {
    let frames = config.frames.max(2);
    let reps = config.reps.max(1);

    let mut colliders = scene.colliders_at(0);
    let pairs0 = scene.pairs_for(&colliders).into_owned();
    let mut results = Vec::new();

    // contact: cold one-shot queries on frame 0.
    let mut samples = Vec::with_capacity(reps);
    for _ in 0..reps {
        let start = Instant::now();
        for (i, &(a, b)) in pairs0.iter().enumerate() {
            let (ca, cb) = (&colliders[a], &colliders[b]);
            let c = contact(&ca.pose, &ca.shape, &cb.pose, &cb.shape, scene.prediction)
                .map_err(|error| RunError::Query { pair: i, error })?;
            black_box(c);
        }
        samples.push(per_pair(start.elapsed().as_nanos(), pairs0.len()));
        progress();
    }
    results.push(summarise("contact".to_owned(), pairs0.len(), samples, None));

    // manifold: warm-started pipeline over frames 1..frames; each frame's poses and pairs
    // (broadphase) are computed before its clock starts.
    let mut thread_counts = vec![1];
    if config.threads > 1 {
        thread_counts.push(config.threads);
    }
    let mut timed_pairs = 0;
    for threads in thread_counts {
        let mut samples = Vec::with_capacity(reps);
        let mut stats = StepStats::default();
        for _ in 0..reps {
            let mut narrow = new_narrow_phase(scene, threads, 0)?;
            scene.pose_colliders(0, &mut colliders);
            narrow
                .update(&colliders, &pairs0)
                .map_err(|error| RunError::Pipeline { frame: 0, error })?;
            let mut nanos = 0u128;
            stats = StepStats::default();
            timed_pairs = 0;
            for f in 1..frames {
                scene.pose_colliders(f, &mut colliders);
                let pairs = scene.pairs_for(&colliders);
                let start = Instant::now();
                narrow
                    .update(&colliders, &pairs)
                    .map_err(|error| RunError::Pipeline { frame: f, error })?;
                nanos += start.elapsed().as_nanos();
                stats = add_stats(stats, narrow.stats());
                timed_pairs += pairs.len();
            }
            samples.push(per_pair(nanos, timed_pairs));
            progress();
        }
        let mean_pairs = (timed_pairs as f64 / (frames - 1) as f64).round() as usize;
        results.push(summarise(
            format!("manifold-{threads}t"),
            mean_pairs,
            samples,
            Some(stats),
        ));
    }
    Ok(results)
}

fn per_pair(nanos: u128, pairs: usize) -> f64 {
    if pairs == 0 {
        0.0
    } else {
        nanos as f64 / pairs as f64
    }
}

fn summarise(
    variant: String,
    pairs: usize,
    mut samples: Vec<f64>,
    stats: Option<StepStats>,
) -> VariantResult {
    samples.sort_by(f64::total_cmp);
    VariantResult {
        variant,
        pairs,
        reps: samples.len(),
        median_ns: median(&samples),
        min_ns: samples.first().copied().unwrap_or(0.0),
        max_ns: samples.last().copied().unwrap_or(0.0),
        stats,
    }
}

/// The median of sorted samples (mean of the middle two for an even count; 0 for none).
fn median(sorted: &[f64]) -> f64 {
    match sorted.len() {
        0 => 0.0,
        n if n % 2 == 1 => sorted[n / 2],
        n => 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]),
    }
}

/// Sums two step statistics (elapsed times too).
pub fn add_stats(a: StepStats, b: &StepStats) -> StepStats {
    a + *b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_of_odd_and_even_counts() {
        assert_eq!(median(&[]), 0.0);
        assert_eq!(median(&[3.0]), 3.0);
        assert_eq!(median(&[1.0, 2.0, 10.0]), 2.0);
        assert_eq!(median(&[1.0, 2.0, 4.0, 10.0]), 3.0);
    }

    #[test]
    fn machine_line_has_the_documented_keys() {
        let r = VariantResult {
            variant: "manifold-2t".to_owned(),
            pairs: 12,
            reps: 3,
            median_ns: 101.3,
            min_ns: 99.0,
            max_ns: 130.0,
            stats: None,
        };
        assert_eq!(
            r.machine_line("pile", "nphase-f64"),
            "RESULT workload=pile runner=nphase-f64 variant=manifold-2t pairs=12 reps=3 \
             median_ns=101.3 min_ns=99.0 max_ns=130.0"
        );
    }
}
