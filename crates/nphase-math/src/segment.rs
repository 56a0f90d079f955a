//! The point of a segment closest to a point, and the distance between them.

use crate::{Point, Real};
use num_traits::Float;

/// The point of segment `[a, b]` closest to `p` (`a` for a degenerate segment: the parameter
/// `0/0` is NaN, which the clamp turns into 0).
pub fn closest_on_segment<T: Real>(a: &Point<T>, b: &Point<T>, p: &Point<T>) -> Point<T> {
    let edge = b - a;
    let t = (p - a).dot(&edge) / edge.norm_squared();
    a + edge * Float::min(Float::max(t, T::zero()), T::one())
}

/// The squared distance from `p` to the segment `[a, b]`.
pub fn segment_distance2<T: Real>(a: &Point<T>, b: &Point<T>, p: &Point<T>) -> T {
    (closest_on_segment(a, b, p) - p).norm_squared()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check<T: Real>() {
        let p = |x: f64, y: f64, z: f64| Point::new(T::lit(x), T::lit(y), T::lit(z));
        let (a, b) = (p(0.0, 0.0, 0.0), p(2.0, 0.0, 0.0));
        assert_eq!(
            closest_on_segment(&a, &b, &p(1.0, 3.0, 0.0)),
            p(1.0, 0.0, 0.0)
        );
        assert_eq!(closest_on_segment(&a, &b, &p(-1.0, 1.0, 0.0)), a);
        assert_eq!(closest_on_segment(&a, &b, &p(5.0, 0.0, 4.0)), b);
        assert_eq!(segment_distance2(&a, &b, &p(5.0, 0.0, 4.0)), T::lit(25.0));
        // A degenerate segment is its point.
        assert_eq!(closest_on_segment(&a, &a, &p(1.0, 1.0, 1.0)), a);
        assert_eq!(segment_distance2(&a, &a, &p(1.0, 2.0, 2.0)), T::lit(9.0));
    }

    #[test]
    fn the_closest_point_is_clamped_to_the_ends() {
        check::<f32>();
        check::<f64>();
    }
}
