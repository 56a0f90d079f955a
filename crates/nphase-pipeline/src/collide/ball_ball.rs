//! Ball against ball, exactly.

use nphase_math::{Point, Real, UnitVector, Vector};
use num_traits::Float;

use super::LocalContact;

/// Ball of `radius1` at the origin against ball of `radius2` at `center2`: the centre line is
/// the normal (for concentric balls any direction is a valid normal; +y is used). `None` beyond
/// `prediction`.
pub(crate) fn ball_ball<T: Real>(
    radius1: T,
    radius2: T,
    center2: &Vector<T>,
    prediction: T,
) -> Option<LocalContact<T>> {
    let center_distance = center2.norm();
    let dist = center_distance - radius1 - radius2;
    if dist > prediction {
        return None;
    }
    let normal = if center_distance > T::zero() && Float::is_finite(center_distance) {
        UnitVector::new_unchecked(center2 / center_distance)
    } else {
        Vector::y_axis()
    };
    Some(LocalContact::exact(
        Point::from(normal.into_inner() * radius1),
        Point::from(center2 - normal.into_inner() * radius2),
        normal,
        dist,
    ))
}
