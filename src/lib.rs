//! nphase: re-exports.
pub use nphase_math as math;
