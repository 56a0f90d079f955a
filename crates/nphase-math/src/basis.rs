//! Robust norms, normalisation, perpendiculars and orthonormal bases.
//!
//! [`orthonormal_basis`] is the branch-light construction of Duff, Burgess, Christensen, Hery,
//! Kensler, Liani and Villemin, *Building an Orthonormal Basis, Revisited* (JCGT 6(1), 2017): it
//! has no singularity except the one it avoids with `copysign`, and its error stays within a
//! few ulps for every unit input, including the poles where Frisvad's original fails.

use crate::{Real, UnitVector, Vector};
use num_traits::Float;

/// Two unit vectors `(t1, t2)` such that `(t1, t2, n)` is a right-handed orthonormal basis.
///
/// Precondition: `n` is unit length (up to rounding).
///
/// ```
/// use nphase_math::{orthonormal_basis, UnitVector, Vector};
/// let n = UnitVector::new_normalize(Vector::<f64>::new(0.3, -0.2, 0.9));
/// let (t1, t2) = orthonormal_basis(&n);
/// assert!(t1.dot(&n).abs() < 1e-15 && t2.dot(&n).abs() < 1e-15 && t1.dot(&t2).abs() < 1e-15);
/// assert!((t1.cross(&t2) - n.into_inner()).norm() < 1e-15);
/// ```
pub fn orthonormal_basis<T: Real>(n: &UnitVector<T>) -> (Vector<T>, Vector<T>) {
    let one = T::one();
    let sign = Float::copysign(one, n.z);
    let a = -one / (sign + n.z);
    let b = n.x * n.y * a;
    let t1 = Vector::new(one + sign * n.x * n.x * a, sign * b, -sign * n.x);
    let t2 = Vector::new(b, sign + n.y * n.y * a, -n.y);
    (t1, t2)
}

/// A unit vector perpendicular to `v`.
///
/// Works for any length of `v`: it is normalised first (with a rescale that keeps tiny and huge
/// inputs finite). For a zero or non-finite `v` there is no perpendicular direction to prefer,
/// and the x axis is returned.
///
/// ```
/// use nphase_math::{any_unit_perpendicular, Vector};
/// let v = Vector::<f64>::new(1e-300, 2e-300, 0.0);
/// let p = any_unit_perpendicular(&v);
/// assert!((p.norm() - 1.0).abs() < 1e-15 && p.dot(&Vector::new(1.0, 2.0, 0.0)).abs() < 1e-15);
/// ```
pub fn any_unit_perpendicular<T: Real>(v: &Vector<T>) -> UnitVector<T> {
    match normalize_robust(v) {
        Some(n) => UnitVector::new_unchecked(orthonormal_basis(&n).0),
        None => Vector::x_axis(),
    }
}

/// `|v|`, also where `|v|²` leaves the normal floats: components below about `1e-19` in f32
/// (`1e-154` in f64), whose squares underflow, or above the square root of the largest float.
/// Where `|v|²` is a normal float it is `v.norm()` bit for bit; otherwise `v` is rescaled by its
/// largest component first. Zero for a zero vector, NaN for a NaN component.
///
/// ```
/// use nphase_math::{Vector, norm_robust};
/// let v = Vector::<f32>::new(3e-23, 4e-23, 0.0);
/// assert!((norm_robust(&v) / 5e-23 - 1.0).abs() < 1e-6);
/// assert_ne!(v.norm(), norm_robust(&v)); // the squares underflowed
/// ```
pub fn norm_robust<T: Real>(v: &Vector<T>) -> T {
    let norm2 = v.norm_squared();
    if norm2 >= <T as Float>::min_positive_value() && Float::is_finite(norm2) {
        return Float::sqrt(norm2);
    }
    let m = v.amax();
    if !(m > T::zero()) || !Float::is_finite(m) {
        return Float::sqrt(norm2);
    }
    m * (v / m).norm()
}

/// `v / |v|`, or `None` when `v` is zero or not finite. Components as small as the smallest
/// subnormal or as large as the largest float work.
///
/// When `|v|²` is a normal float (the common case) no square overflowed, and the squares that
/// underflowed lost less than `ε·|v|²`, so `v · (1/√|v|²)` is accurate to a few ulps: one division
/// instead of the four of the rescaled path. Otherwise (tiny, huge, zero or NaN components)
/// `v` is rescaled by its largest component first.
pub fn normalize_robust<T: Real>(v: &Vector<T>) -> Option<UnitVector<T>> {
    let norm2 = v.norm_squared();
    // NaN fails the first test, an infinite |v|² the second (its inverse is zero); both take
    // the rescaled path. (Two plain comparisons: written as one range test, LLVM turns them
    // into a floating-point class test that costs a dozen integer instructions.)
    if norm2 >= <T as Float>::min_positive_value() {
        let inverse = T::one() / Float::sqrt(norm2);
        if inverse > T::zero() {
            return Some(UnitVector::new_unchecked(v * inverse));
        }
    }
    let m = v.amax();
    if !(m > T::zero()) || !Float::is_finite(m) {
        return None;
    }
    // (`amax` may pass over a NaN component: the rescaled vector shows it.)
    let scaled = v / m;
    scaled
        .iter()
        .all(|x| Float::is_finite(*x))
        .then(|| UnitVector::new_normalize(scaled))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    fn check_basis<T: Real>(n: Vector<T>, tol: T) {
        let n = UnitVector::new_normalize(n);
        let (t1, t2) = orthonormal_basis(&n);
        assert!(Float::abs(t1.norm() - T::one()) < tol, "{t1:?}");
        assert!(Float::abs(t2.norm() - T::one()) < tol);
        assert!(Float::abs(t1.dot(&n)) < tol);
        assert!(Float::abs(t2.dot(&n)) < tol);
        assert!(Float::abs(t1.dot(&t2)) < tol);
        assert!(
            (t1.cross(&t2) - n.into_inner()).norm() < tol,
            "not right-handed"
        );
    }

    #[test]
    fn basis_is_orthonormal_everywhere_including_the_poles() {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(7);
        let mut dirs = vec![
            Vector::new(0.0, 0.0, 1.0),
            Vector::new(0.0, 0.0, -1.0),
            Vector::new(1e-30, 0.0, -1.0),
            Vector::new(1.0, 0.0, 0.0),
            Vector::new(0.0, -1.0, 0.0),
        ];
        for _ in 0..10_000 {
            dirs.push(Vector::new(
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0),
            ));
        }
        for d in dirs {
            check_basis::<f64>(d, 1e-14);
            check_basis::<f32>(d.cast(), 1e-6);
        }
    }

    #[test]
    fn perpendicular_of_zero_and_extreme_vectors_is_finite() {
        assert_eq!(
            any_unit_perpendicular(&Vector::<f64>::zeros()),
            Vector::x_axis()
        );
        let nan = Vector::new(f32::NAN, 0.0, 0.0);
        assert_eq!(any_unit_perpendicular(&nan), Vector::x_axis());
        for v in [
            Vector::<f64>::new(1e300, 1e300, 1e300),
            Vector::new(5e-324, 0.0, 0.0),
        ] {
            let p = any_unit_perpendicular(&v);
            assert!((p.norm() - 1.0).abs() < 1e-15);
            let unit = normalize_robust(&v).expect("finite non-zero");
            assert!(p.dot(&unit).abs() < 1e-15);
        }
    }
}
