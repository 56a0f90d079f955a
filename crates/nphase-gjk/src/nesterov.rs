//! Nesterov momentum on GJK's support direction (Montaut, Le Lidec, Petrik, Sivic,
//! Carpentier, *Collision Detection Accelerated: An Optimization Perspective*, RSS 2022).
//!
//! GJK is Frank–Wolfe on `min_{x∈D} |x|²`; the paper applies Nesterov's momentum to the
//! direction: with `δ_k = (k+1)/(k+3)`,
//!
//! ```text
//! y_k = δ_k·x_k + (1 − δ_k)·s_{k−1}      (x_k: current closest point, s_{k−1}: last support)
//! d_k = δ_k·d_{k−1} + (1 − δ_k)·y_k      (optionally normalised; d_{−1} = x_0)
//! ```
//!
//! and the support is taken along `−d_k`. The support along any direction still gives a valid
//! lower bound, but the duality-gap certificate is only conclusive along `−x_k`, so the caller
//! drops the momentum (plain GJK) when the gap closes, a vertex repeats or the momentum step
//! fails to descend — the paper's fallback.

use nphase_math::{Real, Vector};

use crate::Acceleration;

/// The momentum state of one query.
pub(crate) struct Momentum<T: Real> {
    direction: Vector<T>,
    normalize: bool,
}

impl<T: Real> Momentum<T> {
    /// The momentum for `acceleration` starting from `x0`, or `None` for plain GJK.
    pub(crate) fn new(acceleration: Acceleration, x0: Vector<T>) -> Option<Self> {
        match acceleration {
            Acceleration::None => None,
            Acceleration::Nesterov { normalize } => Some(Momentum {
                direction: x0,
                normalize,
            }),
        }
    }

    /// `d_k` for iteration `k`, current closest point `x` and last support point `s`.
    pub(crate) fn next_direction(&mut self, k: u32, x: &Vector<T>, s: &Vector<T>) -> Vector<T> {
        let delta = T::lit(f64::from(k + 1) / f64::from(k + 3));
        let rest = T::one() - delta;
        let y = x * delta + s * rest;
        self.direction = self.direction * delta + y * rest;
        if self.normalize
            && let Some(unit) = nphase_math::normalize_robust(&self.direction)
        {
            self.direction = unit.into_inner();
        }
        self.direction
    }
}
