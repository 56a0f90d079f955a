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

    #[test]
    fn the_closest_point_is_clamped_to_the_ends() {
        let (a, b) = (Point::new(0.0, 0.0, 0.0), Point::new(2.0, 0.0, 0.0));
        assert_eq!(
            closest_on_segment(&a, &b, &Point::new(1.0, 3.0, 0.0)),
            Point::new(1.0, 0.0, 0.0)
        );
        assert_eq!(closest_on_segment(&a, &b, &Point::new(-1.0, 1.0, 0.0)), a);
        assert_eq!(closest_on_segment(&a, &b, &Point::new(5.0, 0.0, 4.0)), b);
        assert_eq!(segment_distance2(&a, &b, &Point::new(5.0, 0.0, 4.0)), 25.0);
        // A degenerate segment is its point.
        assert_eq!(closest_on_segment(&a, &a, &Point::new(1.0, 1.0, 1.0)), a);
        assert_eq!(
            segment_distance2(&a, &a, &Point::new(1.0f32, 2.0, 2.0)),
            9.0
        );
    }
}
