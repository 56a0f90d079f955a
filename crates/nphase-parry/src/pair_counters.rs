//! The counters of the contact-manifold queries nphase answers, one slot per thread.
//!
//! Every pair a [`Dispatcher`](crate::Dispatcher) answers adds to its counters (pairs, inexact
//! pairs, points, points that carried the engine's data, and the pairs each certified shortcut
//! answered). As shared atomics that was three locked (now up to seven)
//! read-modify-writes per pair, about 17 ns of a 58 ns pair that did not move (measured on one
//! ball pair in a loop, caches warm). Here each thread owns a slot that it alone writes, with a
//! plain load and store (no lock); a reader sums the slots. A thread takes its slot index once,
//! from a process-wide counter, and keeps it for its life (an index is never handed out twice),
//! so no slot has two writers; threads past the last slot share one more slot, written with
//! atomic adds.
//!
//! A reset does not write the slots (a thread's store could undo it): it records the totals so
//! far as a baseline, which later readings subtract.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use nphase_pipeline::Reuse;

use crate::parry_manifold::PairReport;

/// Slots owned by one thread each; the dispatcher holds this many (64 bytes each).
const SLOTS: usize = 16;

/// The next thread's slot index.
static NEXT_SLOT: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    /// This thread's slot index (past the slots: the shared one).
    static SLOT: usize = NEXT_SLOT.fetch_add(1, Ordering::Relaxed);
}

/// What the counters hold: pairs answered, of those inexact ones, points, carried points, and
/// the pairs answered by each certified shortcut (nphase's [`Reuse`]: `Unchanged`, `Apart`,
/// `Still`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct PairCounts {
    pub(crate) pairs: u64,
    pub(crate) inexact: u64,
    pub(crate) points: u64,
    pub(crate) carried: u64,
    pub(crate) unchanged: u64,
    pub(crate) apart: u64,
    pub(crate) still: u64,
}

impl PairCounts {
    fn from_array([pairs, inexact, points, carried, unchanged, apart, still]: [u64; 7]) -> Self {
        PairCounts {
            pairs,
            inexact,
            points,
            carried,
            unchanged,
            apart,
            still,
        }
    }

    fn to_array(self) -> [u64; 7] {
        [
            self.pairs,
            self.inexact,
            self.points,
            self.carried,
            self.unchanged,
            self.apart,
            self.still,
        ]
    }

    /// One report's additions.
    fn of(report: PairReport) -> Self {
        PairCounts {
            pairs: 1,
            inexact: u64::from(report.inexact),
            points: u64::from(report.points),
            carried: u64::from(report.carried),
            unchanged: u64::from(report.reuse == Reuse::Unchanged),
            apart: u64::from(report.reuse == Reuse::Apart),
            still: u64::from(report.reuse == Reuse::Still),
        }
    }
}

/// One thread's counters, on a cache line of their own.
#[derive(Debug, Default)]
#[repr(align(64))]
struct Slot {
    counters: [AtomicU64; 7],
}

const _: () = assert!(size_of::<Slot>() == 64);

impl Slot {
    fn counts(&self) -> PairCounts {
        PairCounts::from_array(self.counters.each_ref().map(|c| c.load(Ordering::Relaxed)))
    }
}

/// The per-thread counters of one dispatcher (and its clones); see the module doc.
#[derive(Debug, Default)]
pub(crate) struct PairCounters {
    slots: [Slot; SLOTS],
    shared: Slot,
    /// The totals at the last reset.
    baseline: Slot,
}

impl PairCounters {
    /// Counts one pair.
    pub(crate) fn count(&self, report: PairReport) {
        let add = PairCounts::of(report).to_array();
        match SLOT.try_with(|&i| i) {
            Ok(i) if i < SLOTS => {
                // This thread is the slot's only writer: load and store, no lock.
                for (c, n) in self.slots[i].counters.iter().zip(add) {
                    c.store(c.load(Ordering::Relaxed) + n, Ordering::Relaxed);
                }
            }
            // Past the slots, or while the thread's locals are torn down.
            _ => {
                for (c, n) in self.shared.counters.iter().zip(add) {
                    if n > 0 {
                        c.fetch_add(n, Ordering::Relaxed);
                    }
                }
            }
        }
    }

    /// The counts since the last reset.
    pub(crate) fn totals(&self) -> PairCounts {
        let (sum, base) = (self.sum().to_array(), self.baseline.counts().to_array());
        PairCounts::from_array(std::array::from_fn(|k| sum[k].saturating_sub(base[k])))
    }

    /// Makes the counts start from zero again.
    pub(crate) fn reset(&self) {
        for (c, v) in self.baseline.counters.iter().zip(self.sum().to_array()) {
            c.store(v, Ordering::Relaxed);
        }
    }

    /// Every slot's counts, summed.
    fn sum(&self) -> PairCounts {
        let sum = self
            .slots
            .iter()
            .chain([&self.shared])
            .map(|slot| slot.counts().to_array())
            .fold([0; 7], |a, c| std::array::from_fn(|k| a[k] + c[k]));
        PairCounts::from_array(sum)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(points: u8, carried: u8, inexact: bool, reuse: Reuse) -> PairReport {
        PairReport {
            inexact,
            points,
            carried,
            reuse,
        }
    }

    const REUSES: [Reuse; 4] = [
        Reuse::Computed,
        Reuse::Unchanged,
        Reuse::Apart,
        Reuse::Still,
    ];

    /// More threads than slots (some write the shared slot, the others their own): every
    /// count arrives; a reset starts from zero, and counting goes on from there.
    #[test]
    fn counts_from_many_threads_add_up_and_reset() {
        let counters = PairCounters::default();
        let threads = SLOTS as u64 + 8;
        std::thread::scope(|s| {
            for t in 0..threads {
                let counters = &counters;
                s.spawn(move || {
                    for _ in 0..1000 {
                        let reuse = REUSES[(t % 4) as usize];
                        counters.count(report((t % 5) as u8, (t % 3) as u8, t % 2 == 0, reuse));
                    }
                });
            }
        });
        let expected = PairCounts {
            pairs: 1000 * threads,
            inexact: 1000 * (0..threads).filter(|t| t % 2 == 0).count() as u64,
            points: 1000 * (0..threads).map(|t| t % 5).sum::<u64>(),
            carried: 1000 * (0..threads).map(|t| t % 3).sum::<u64>(),
            unchanged: 1000 * (0..threads).filter(|t| t % 4 == 1).count() as u64,
            apart: 1000 * (0..threads).filter(|t| t % 4 == 2).count() as u64,
            still: 1000 * (0..threads).filter(|t| t % 4 == 3).count() as u64,
        };
        assert_eq!(counters.totals(), expected);
        counters.reset();
        assert_eq!(counters.totals(), PairCounts::default());
        counters.count(report(4, 2, false, Reuse::Still));
        let one = PairCounts {
            pairs: 1,
            inexact: 0,
            points: 4,
            carried: 2,
            unchanged: 0,
            apart: 0,
            still: 1,
        };
        assert_eq!(counters.totals(), one);
    }
}
