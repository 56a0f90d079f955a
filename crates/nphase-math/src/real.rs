//! The scalar trait and its per-precision tolerances.

use core::fmt::{Debug, Display};

use nalgebra::RealField;
use num_traits::Float;

/// The scalar type of every nphase computation: `f32` or `f64`.
///
/// It combines nalgebra's [`RealField`] (so nalgebra vectors and isometries work) with
/// num-traits' [`Float`] (so generic numeric code written against num-traits works). The
/// tolerances that depend on the precision live in [`Real::TOLERANCES`]; nothing in nphase hard
/// codes an epsilon for one precision only.
pub trait Real:
    RealField + Float + Copy + Default + Send + Sync + Debug + Display + 'static
{
    /// The tolerances for this precision.
    const TOLERANCES: Tolerances<Self>;

    /// The range of lengths in which answers meet docs/accuracy.md in this precision; inputs
    /// outside it are refused by name.
    const RANGE: InputRange<Self>;

    /// Zero, usable in `const` items (`num_traits::Zero::zero()` is not a `const fn`).
    const ZERO: Self;

    /// Converts an `f64` literal or value to this precision (rounding to nearest for `f32`).
    fn lit(value: f64) -> Self;

    /// Widens (or keeps) this value as an `f64`; exact for both precisions.
    fn as_f64(self) -> f64;

    /// The value's bits (an `f32`'s in the low half): equal bits are the same value, sign
    /// included (`==` does not tell −0 from +0).
    fn bits(self) -> u64;

    /// The shortest decimal that rounds to this value in its own precision, as an `f64`: what
    /// a person wrote (an `f32` `1e-7` is `1e-7`, not `1.0000000116860974e-7`). For messages.
    fn as_decimal(self) -> f64 {
        self.to_string().parse().unwrap_or_else(|_| self.as_f64())
    }
}

/// Tolerances that depend on the floating-point precision.
///
/// All of them are *relative*: each algorithm multiplies them by a length taken from the problem
/// at hand, so that a 0.1 m pair and a 1 km pair behave the same. Two lengths matter
/// (docs/accuracy.md): the **small scale**, the size of the smaller of the two shapes, which the
/// accuracy is relative to (a pebble on a boulder is resolved to the pebble's precision); and the
/// **size** of the coordinates a computation works with (the Minkowski difference's extent,
/// offsets included), which rounding errors are relative to. A tolerance is
/// `rel · small + rounding · size` ([`Tolerances::length`]): the first term is what the
/// algorithm aims for, the second the floor below which no answer can be resolved.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tolerances<T> {
    /// Machine epsilon of the precision (the spacing of floats at 1.0).
    pub epsilon: T,
    /// The rounding floor, relative to the size of the coordinates: a few ulps. Every
    /// convergence tolerance relative to the small scale is floored at `rounding · size`. It is
    /// below what docs/accuracy.md allows relative to the larger shape on small-on-large pairs
    /// (1e-12 × scale in f64, 5e-7 × scale in f32, where `size` is at most about twice the
    /// scale).
    pub rounding: T,
    /// GJK stops when the duality gap `‖v‖ − (v·w)/‖v‖` falls below this fraction of the small
    /// scale (above the rounding floor).
    pub gjk_relative_gap: T,
    /// GJK treats the cores as touching (and hands over to EPA) when the distance falls below
    /// this fraction of the small scale (or the rounding floor): below it the direction of the
    /// closest-point vector is dominated by rounding.
    pub gjk_touch: T,
    /// EPA stops when the gap between the best support plane and the closest polytope face falls
    /// below this fraction of the small scale (above the rounding floor), however deep the
    /// shapes overlap.
    pub epa_relative_gap: T,
    /// [`epa_relative_gap`](Tolerances::epa_relative_gap) for pairs with a curved support
    /// function (cylinder, cone): EPA's facets approach a curved surface only quadratically, and
    /// docs/accuracy.md holds such pairs to 1e-7 × scale (f64) anyway.
    pub epa_curved_gap: T,
    /// The accuracy nphase aims for, relative to the small scale: a tenth of what docs/accuracy.md
    /// holds the tests to (1e-9 × small in f64, 1e-4 × small in f32). Choices between two
    /// answers that are both right to within this (e.g. which normal to report) use it, above
    /// the rounding floor.
    pub accuracy: T,
    /// Relative size below which a simplex or polytope feature counts as degenerate
    /// (zero length, area or volume), measured against the feature's own extent.
    pub degenerate: T,
    /// What docs/accuracy.md promises relative to the size of the coordinates on small-on-large
    /// pairs, with a margin: a third of 1e-12 × scale (f64) or 5e-7 × scale (f32), since the
    /// Minkowski difference's size is up to about three times the larger shape's scale. An
    /// answer whose certified bounds are within [`Tolerances::promise`] meets docs/accuracy.md,
    /// even where an algorithm's own, tighter target was out of reach (see its use in EPA).
    pub promise_floor: T,
    /// Two support values closer than this fraction of the shape's size count as a tie when
    /// picking a supporting feature (face, edge or vertex).
    pub feature_tie: T,
}

/// The lengths nphase accepts in one precision (docs/accuracy.md, "Input range").
///
/// The deepest products the algorithms form are fourth powers of lengths: the squared norm of a
/// cross product of two edge or offset vectors (the signed-volume projection of GJK, EPA's face
/// normals, the hull's exact predicates), in f32 also times ε in places. A length `L` is safe
/// where these neither overflow nor underflow. Measured (every shape type, scaled by `s`):
/// answers meet the tolerances from `1e-75` to `1e75` in f64 and break at `1e±77` (`L⁴` leaves
/// the exponent range); in f32 from `5e-8` to `1e9`, breaking at `3e-8` (`ε·L⁴` underflows) and
/// `2e9` (`L⁴` overflows). The range keeps a margin to those breaks: fifteen orders of
/// magnitude in f64, a factor of 30 (small) and 10 (large; offsets add up to `2√3`) in f32.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct InputRange<T> {
    /// The largest magnitude of any length: a radius, half-extent, half-height or border
    /// radius, a vertex coordinate, a pose's translation component, the prediction distance.
    pub max_length: T,
    /// The smallest non-zero size of a shape: its largest length (for a hull, segment or
    /// triangle, its largest vertex coordinate magnitude) is zero or at least this.
    pub min_length: T,
}

impl<T: Real> InputRange<T> {
    /// Whether `|x| ≤ max_length` (false for NaN).
    #[inline]
    pub fn within_max(&self, x: T) -> bool {
        Float::abs(x) <= self.max_length
    }

    /// The index of the first component of `v` whose magnitude is above `max_length` (or is
    /// NaN), if any.
    pub fn first_beyond(&self, v: &crate::Vector<T>) -> Option<usize> {
        v.iter().position(|x| !self.within_max(*x))
    }
}

/// The size ratio from which docs/accuracy.md holds a pair to its small-on-large accuracy (the
/// oracle's disparity family starts there).
pub const SMALL_ON_LARGE_RATIO: f64 = 20.0;

impl<T: Real> Tolerances<T> {
    /// `rel · small + rounding · size`: a tolerance of `rel` relative to the small scale,
    /// floored at the rounding of coordinates of magnitude `size` (see the type's doc).
    #[inline]
    pub fn length(&self, rel: T, small: T, size: T) -> T {
        rel * small + self.rounding * size
    }

    /// The accuracy docs/accuracy.md promises for a pair whose shapes have sizes `small ≤ large`,
    /// in coordinates of magnitude `size`: ten times [`Tolerances::accuracy`] relative to the
    /// larger shape for shapes of comparable size, and for a small shape on a large one (a size
    /// ratio of [`SMALL_ON_LARGE_RATIO`] or more) relative to the small one plus
    /// [`Tolerances::promise_floor`] of the size.
    #[inline]
    pub fn promise(&self, small: T, large: T, size: T) -> T {
        let ten = T::lit(10.0);
        if large < T::lit(SMALL_ON_LARGE_RATIO) * small {
            ten * self.accuracy * large
        } else {
            ten * self.accuracy * small + self.promise_floor * size
        }
    }
}

impl Real for f32 {
    const ZERO: f32 = 0.0;

    fn bits(self) -> u64 {
        u64::from(f32::to_bits(self))
    }
    const RANGE: InputRange<f32> = InputRange {
        max_length: 1.0e8,
        min_length: 1.0e-6,
    };
    const TOLERANCES: Tolerances<f32> = Tolerances {
        epsilon: f32::EPSILON,
        rounding: f32::EPSILON,
        gjk_relative_gap: 1.0e-6,
        gjk_touch: 1.0e-5,
        epa_relative_gap: 1.0e-6,
        // f32 EPA on a curved support function stalls near ~5e-6 of the size (facets meet
        // the surface only quadratically, and rounding floors the gap), short of 1e-6: with
        // 1e-6 it ended on its iteration cap on ordinary pairs. 1e-5 is the f32 accuracy.
        epa_curved_gap: 1.0e-5,
        accuracy: 1.0e-5,
        degenerate: 1.0e-6,
        promise_floor: 1.5e-7,
        feature_tie: 1.0e-4,
    };

    #[inline]
    fn lit(value: f64) -> f32 {
        value as f32
    }

    #[inline]
    fn as_f64(self) -> f64 {
        f64::from(self)
    }
}

impl Real for f64 {
    const ZERO: f64 = 0.0;

    fn bits(self) -> u64 {
        f64::to_bits(self)
    }
    const RANGE: InputRange<f64> = InputRange {
        max_length: 1.0e60,
        min_length: 1.0e-60,
    };
    const TOLERANCES: Tolerances<f64> = Tolerances {
        epsilon: f64::EPSILON,
        rounding: 5.0e-14,
        gjk_relative_gap: 1.0e-12,
        gjk_touch: 1.0e-10,
        epa_relative_gap: 1.0e-12,
        epa_curved_gap: 1.0e-10,
        accuracy: 1.0e-10,
        degenerate: 1.0e-12,
        promise_floor: 3.0e-13,
        feature_tie: 1.0e-6,
    };

    #[inline]
    fn lit(value: f64) -> f64 {
        value
    }

    #[inline]
    fn as_f64(self) -> f64 {
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hypot<T: Real>(a: T, b: T) -> T {
        Float::sqrt(a * a + b * b)
    }

    #[test]
    fn generic_code_runs_in_both_precisions() {
        assert_eq!(hypot(3.0f32, 4.0), 5.0);
        assert_eq!(hypot(3.0f64, 4.0), 5.0);
        assert_eq!(f32::lit(0.1), 0.1f32);
        assert_eq!(0.1f32.as_f64(), f64::from(0.1f32));
    }

    #[test]
    fn tolerances_are_ordered_sensibly() {
        fn check<T: Real>() {
            let t = T::TOLERANCES;
            assert!(t.epsilon < t.gjk_relative_gap);
            assert!(t.epsilon <= t.rounding && t.rounding < t.accuracy);
            assert!(t.rounding <= t.promise_floor);
            assert!(t.epsilon < t.degenerate);
            assert!(t.gjk_relative_gap < t.feature_tie);
        }
        check::<f32>();
        check::<f64>();
    }
}
