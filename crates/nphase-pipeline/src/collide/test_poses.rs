//! Random poses shared by the collide tests.

use nphase_math::{Rotation, Vector};
use rand::Rng;
use rand_pcg::Pcg64;

/// A random turn: a scaled axis with components in [−3, 3) (drawn x, y, z).
pub(super) fn random_turn(rng: &mut Pcg64) -> Rotation<f64> {
    Rotation::from_scaled_axis(Vector::new(
        rng.random_range(-3.0..3.0),
        rng.random_range(-3.0..3.0),
        rng.random_range(-3.0..3.0),
    ))
}
