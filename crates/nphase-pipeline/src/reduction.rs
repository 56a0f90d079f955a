//! Reduction of a clipped contact polygon to at most four points that keep the manifold's
//! support area: the deepest point, the point furthest from it, the point making the largest
//! triangle with those two, and the point adding the most area outside that triangle (the
//! scheme of Box2D v3 and Jolt's `PruneContactPoints`, areas measured in the contact plane).

use nphase_math::{Real, Vector};
use num_traits::Float;

/// A candidate contact point: where it is on the reference plane and its signed distance.
pub(crate) trait Candidate<T: Real> {
    /// Position used for the area measure.
    fn position(&self) -> Vector<T>;
    /// Signed distance (negative = penetrating); the smallest is kept first.
    fn distance(&self) -> T;
}

/// Keeps at most four of `points` (in place, in the order chosen), measuring areas about
/// `normal`. Deterministic: ties keep the earlier point.
pub(crate) fn reduce_to_four<T: Real, C: Candidate<T> + Copy>(
    points: &mut Vec<C>,
    normal: &Vector<T>,
) {
    if points.len() <= 4 {
        return;
    }
    let first = index_of_best(points, |p| -p.distance());
    let p0 = points[first].position();
    let second = index_of_best(points, |p| (p.position() - p0).cross(normal).norm_squared());
    let p1 = points[second].position();
    let area = |a: &Vector<T>, b: &Vector<T>, c: &Vector<T>| (b - a).cross(&(c - a)).dot(normal);
    let third = index_of_best(points, |p| Float::abs(area(&p0, &p1, &p.position())));
    let p2 = points[third].position();
    let triangle_area = area(&p0, &p1, &p2);
    let mut chosen: arrayvec::ArrayVec<usize, 4> = arrayvec::ArrayVec::new();
    chosen.push(first);
    if second != first {
        chosen.push(second);
    }
    if triangle_area != T::zero() {
        chosen.push(third);
        let orientation = Float::signum(triangle_area);
        // How far outside the triangle each point lies: the largest area it adds on the outer
        // side of one of the triangle's edges.
        let outside = |p: &C| {
            let x = p.position();
            [area(&p0, &p1, &x), area(&p1, &p2, &x), area(&p2, &p0, &x)]
                .iter()
                .fold(T::neg_infinity(), |m, a| Float::max(m, -orientation * *a))
        };
        let fourth = index_of_best(points, outside);
        if outside(&points[fourth]) > T::zero() {
            chosen.push(fourth);
        }
    }
    let kept: arrayvec::ArrayVec<C, 4> = chosen.iter().map(|&i| points[i]).collect();
    points.clear();
    points.extend(kept);
}

fn index_of_best<T: Real, C: Candidate<T>>(points: &[C], score: impl Fn(&C) -> T) -> usize {
    let mut best = 0;
    let mut best_score = T::neg_infinity();
    for (i, p) in points.iter().enumerate() {
        let s = score(p);
        if s > best_score {
            best = i;
            best_score = s;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Copy, Debug, PartialEq)]
    struct P(Vector<f64>, f64);

    impl Candidate<f64> for P {
        fn position(&self) -> Vector<f64> {
            self.0
        }
        fn distance(&self) -> f64 {
            self.1
        }
    }

    #[test]
    fn an_octagon_keeps_the_deepest_point_and_a_large_quad() {
        let mut points: Vec<P> = (0..8)
            .map(|k| {
                let a = std::f64::consts::TAU * k as f64 / 8.0;
                P(
                    Vector::new(a.cos(), 0.0, a.sin()),
                    if k == 3 { -0.2 } else { -0.1 },
                )
            })
            .collect();
        reduce_to_four(&mut points, &Vector::y());
        assert_eq!(points.len(), 4);
        assert_eq!(points[0].1, -0.2, "deepest first");
        let area =
            |a: Vector<f64>, b: Vector<f64>, c: Vector<f64>| (b - a).cross(&(c - a)).norm() / 2.0;
        let quad = area(points[0].0, points[1].0, points[2].0)
            + area(points[0].0, points[2].0, points[3].0);
        // The largest quadrilateral inscribed in a regular octagon of radius 1 has area 2.
        assert!(quad > 1.9, "kept area {quad}");
    }

    #[test]
    fn collinear_points_keep_the_extremes() {
        let mut points: Vec<P> = (0..6)
            .map(|k| P(Vector::new(k as f64, 0.0, 0.0), -0.1))
            .collect();
        reduce_to_four(&mut points, &Vector::y());
        assert!(points.len() <= 4);
        let xs: Vec<f64> = points.iter().map(|p| p.0.x).collect();
        assert!(xs.contains(&0.0) && xs.contains(&5.0), "{xs:?}");
    }
}
