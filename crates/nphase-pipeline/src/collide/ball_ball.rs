//! Ball against ball, exactly.

use nphase_math::{Point, Real, UnitVector, Vector};
use num_traits::Float;

use super::LocalContact;

/// Ball of `radius1` at the origin against ball of `radius2` at `center2`, exactly: the centre
/// line is the normal (for concentric balls any direction is a valid normal; +y is used).
pub(crate) fn ball_ball<T: Real>(radius1: T, radius2: T, center2: &Vector<T>) -> LocalContact<T> {
    // Where |c|² is a normal float, c / |c|; otherwise (it underflows below ~1e-19 in f32:
    // found by fuzzing the rapier adapter, a normal of length 0.81) `normalize_robust`
    // rescales first, and `n · c` is the offset's length without the underflow.
    let norm2 = center2.norm_squared();
    let (normal, center_distance) = if norm2 >= T::min_positive_value() && Float::is_finite(norm2) {
        let length = Float::sqrt(norm2);
        (UnitVector::new_unchecked(center2 / length), length)
    } else {
        match nphase_math::normalize_robust(center2) {
            Some(n) => (n, n.dot(center2)),
            None => (Vector::y_axis(), center2.norm()),
        }
    };
    let dist = center_distance - radius1 - radius2;
    LocalContact::exact(
        Point::from(normal.into_inner() * radius1),
        Point::from(center2 - normal.into_inner() * radius2),
        normal,
        dist,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Centres closer than the square root of the smallest normal float (|c|² underflows): the
    /// normal stays a unit vector along the centre line and the distance is exact; at ordinary
    /// offsets the same. Without the rescaling, a 3e-23 offset in f32 gave a normal of length
    /// 0.81 (found by fuzzing the rapier adapter).
    fn tiny_offsets_keep_a_unit_normal<T: Real>(offsets: &[f64]) {
        for &offset in offsets {
            for axis in 0..3 {
                let mut c = Vector::<T>::zeros();
                c[axis] = T::lit(-offset);
                c[(axis + 1) % 3] = T::lit(offset * 0.5);
                let contact = ball_ball(T::zero(), T::lit(2.5), &c);
                let n = contact.normal.into_inner();
                let unit = Float::abs(n.norm() - T::one());
                assert!(
                    unit <= T::lit(1e-6),
                    "offset {offset:e}: |n| = {:?}",
                    n.norm()
                );
                let along = n.dot(&c.map(|x| x / T::lit(offset)));
                assert!(
                    Float::abs(along - T::lit(1.25f64.sqrt())) <= T::lit(1e-6),
                    "offset {offset:e}: normal {n:?} off the centre line"
                );
                let expected = T::lit(offset * 1.25f64.sqrt() - 2.5);
                assert!(
                    Float::abs(contact.dist - expected) <= T::lit(1e-6),
                    "{contact:?}"
                );
            }
        }
    }

    #[test]
    fn tiny_offsets_keep_a_unit_normal_f32() {
        tiny_offsets_keep_a_unit_normal::<f32>(&[3e-23, 1e-30, 1e-40, 1e-3, 7.0]);
    }

    #[test]
    fn tiny_offsets_keep_a_unit_normal_f64() {
        tiny_offsets_keep_a_unit_normal::<f64>(&[3e-160, 1e-200, 1e-310, 1e-3, 7.0]);
    }
}
