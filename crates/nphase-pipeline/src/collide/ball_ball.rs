//! Ball against ball, exactly.

use nphase_math::{Point, Real, UnitVector, Vector};
use num_traits::Float;

use super::LocalContact;

/// Ball of `radius1` at the origin against ball of `radius2` at `center2`, exactly: the centre
/// line is the normal (for concentric balls any direction is a valid normal; +y is used).
pub(crate) fn ball_ball<T: Real>(radius1: T, radius2: T, center2: &Vector<T>) -> LocalContact<T> {
    let center_distance = center2.norm();
    let dist = center_distance - radius1 - radius2;
    let normal = if center_distance > T::zero() && Float::is_finite(center_distance) {
        UnitVector::new_unchecked(center2 / center_distance)
    } else {
        Vector::y_axis()
    };
    LocalContact::exact(
        Point::from(normal.into_inner() * radius1),
        Point::from(center2 - normal.into_inner() * radius2),
        normal,
        dist,
    )
}
