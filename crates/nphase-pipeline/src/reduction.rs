//! Reduction of a clipped contact polygon to at most four points that keep the manifold's
//! support area — the deepest point, the point furthest from it, the point making the largest
//! triangle with those two, and the point adding the most area outside that triangle (the
//! scheme of Box2D v3 and Jolt's `PruneContactPoints`, areas measured in the contact plane) —
//! and that do not swap from one frame to the next.
//!
//! Persistence (Box3D's reduction biases its scores the same way): a resting contact polygon
//! has many near-ties — equal depths up to the pose noise, the two diagonals of a square, the
//! alternate corners of an octagon — and a choice decided by noise changes the manifold's
//! points, and the solver loses their impulses. So
//!
//! * the first point is the deepest, unless points of last frame's manifold are within
//!   `depth_tie` of its depth: then the one of those chosen first last frame (the reduction
//!   outputs its points in the order it chose them, so the first point stays first);
//! * each later choice scores a point of last frame's manifold at its full score and any other
//!   point at [`NEW_POINT_BIAS`] of it, so a new point must be better by more than 5 % to take
//!   a persisted one's place; ties keep the earlier point (candidates come in the clipping's
//!   order, which follows the features' numbering and not the noise).

use nphase_math::{Real, Vector};
use num_traits::Float;

/// The fraction of its score a point that was not in last frame's manifold competes with.
pub(crate) const NEW_POINT_BIAS: f64 = 0.95;

/// A candidate contact point: where it is on the reference plane, its signed distance and
/// whether it was in last frame's manifold.
pub(crate) trait Candidate<T: Real> {
    /// Position used for the area measure.
    fn position(&self) -> Vector<T>;
    /// Signed distance (negative = penetrating); the smallest is kept first.
    fn distance(&self) -> T;
    /// Where a point with this id was in last frame's manifold (0 = first), if it was there.
    fn previous_rank(&self) -> Option<usize>;

    /// Whether a point with this id was in last frame's manifold.
    fn persisted(&self) -> bool {
        self.previous_rank().is_some()
    }
}

/// Keeps at most four of `points` (in place, in the order chosen), measuring areas about
/// `normal`; `depth_tie` is how much shallower than the deepest point a persisted first point
/// may be (see the module doc). Deterministic: ties keep the earlier point.
pub(crate) fn reduce_to_four<T: Real, C: Candidate<T> + Copy>(
    points: &mut Vec<C>,
    normal: &Vector<T>,
    depth_tie: T,
) {
    if points.len() <= 4 {
        return;
    }
    let first = first_point(points, depth_tie);
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
    if triangle_area != T::zero() && third != first && third != second {
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
        // The three chosen points add no area (two of their areas are 0, the third is the
        // triangle's own, inside): only the others are scored.
        let others = points
            .iter()
            .enumerate()
            .filter(|(i, _)| !chosen.contains(i));
        let (fourth, score) = best_with_score(others, outside);
        if score > T::zero() {
            chosen.push(fourth);
        }
    }
    // The chosen points to the front, in their order, in place: slot j takes the point chosen
    // j-th; one that an earlier slot displaced went to where that slot's point was, and so on.
    for (j, &chosen_j) in chosen.iter().enumerate() {
        let mut i = chosen_j;
        while i < j {
            i = chosen[i];
        }
        points.swap(j, i);
    }
    points.truncate(chosen.len());
}

/// The deepest point, or of the persisted points within `depth_tie` of it the one that came
/// first last frame.
fn first_point<T: Real, C: Candidate<T>>(points: &[C], depth_tie: T) -> usize {
    let deepest = index_of_best_by(points, |p| -p.distance());
    let floor = points[deepest].distance() + depth_tie;
    let persisted = points
        .iter()
        .enumerate()
        .filter(|(_, p)| p.distance() <= floor)
        .filter_map(|(i, p)| p.previous_rank().map(|r| (r, i)))
        .min();
    persisted.map_or(deepest, |(_, i)| i)
}

/// The point with the best score, a point new this frame competing with [`NEW_POINT_BIAS`] of
/// its score (scores are non-negative here: squared lengths and areas); the earlier on a tie.
fn index_of_best<T: Real, C: Candidate<T>>(points: &[C], score: impl Fn(&C) -> T) -> usize {
    best_with_score(points.iter().enumerate(), score).0
}

/// [`index_of_best`] of some of the points (with their places), with the winner's unbiased
/// score.
fn best_with_score<'a, T: Real, C: Candidate<T> + 'a>(
    points: impl Iterator<Item = (usize, &'a C)>,
    score: impl Fn(&C) -> T,
) -> (usize, T) {
    let bias = T::lit(NEW_POINT_BIAS);
    first_maximum(points, |p| {
        let s = score(p);
        (if p.persisted() { s } else { s * bias }, s)
    })
}

/// The point with the largest score; the earlier on a tie.
fn index_of_best_by<T: Real, C>(points: &[C], score: impl Fn(&C) -> T) -> usize {
    first_maximum(points.iter().enumerate(), |p| {
        let s = score(p);
        (s, s)
    })
    .0
}

/// Of `points` (with their places), the place of the first with the largest `rank(p).0`, with
/// its `rank(p).1` (what the caller wants back of the winner).
fn first_maximum<'a, T: Real, C: 'a>(
    points: impl Iterator<Item = (usize, &'a C)>,
    rank: impl Fn(&C) -> (T, T),
) -> (usize, T) {
    let (mut best, mut best_key, mut best_value) = (0, T::neg_infinity(), T::neg_infinity());
    for (i, p) in points {
        let (key, value) = rank(p);
        if key > best_key {
            (best, best_key, best_value) = (i, key, value);
        }
    }
    (best, best_value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Copy, Debug, PartialEq)]
    struct P(Vector<f64>, f64, Option<usize>);

    impl Candidate<f64> for P {
        fn position(&self) -> Vector<f64> {
            self.0
        }
        fn distance(&self) -> f64 {
            self.1
        }
        fn previous_rank(&self) -> Option<usize> {
            self.2
        }
    }

    fn octagon(depth: impl Fn(usize) -> f64, rank: impl Fn(usize) -> Option<usize>) -> Vec<P> {
        (0..8)
            .map(|k| {
                let a = std::f64::consts::TAU * k as f64 / 8.0;
                P(Vector::new(a.cos(), 0.0, a.sin()), depth(k), rank(k))
            })
            .collect()
    }

    #[test]
    fn an_octagon_keeps_the_deepest_point_and_a_large_quad() {
        let mut points = octagon(|k| if k == 3 { -0.2 } else { -0.1 }, |_| None);
        reduce_to_four(&mut points, &Vector::y(), 1e-3);
        assert_eq!(points.len(), 4);
        assert_eq!(points[0].1, -0.2, "deepest first");
        let area =
            |a: Vector<f64>, b: Vector<f64>, c: Vector<f64>| (b - a).cross(&(c - a)).norm() / 2.0;
        let quad = area(points[0].0, points[1].0, points[2].0)
            + area(points[0].0, points[2].0, points[3].0);
        // The largest quadrilateral inscribed in a regular octagon of radius 1 has area 2.
        assert!(quad > 1.9, "kept area {quad}");
    }

    /// The octagon of a box turned 45° on a box: its depths differ by noise, so the deepest
    /// point moves around it from frame to frame. With last frame's even corners persisted,
    /// the even corners are kept whichever corner is deepest by less than the tie, and last
    /// frame's first point stays first; without history the deepest point decides.
    #[test]
    fn persisted_points_survive_noise_in_the_depths() {
        let even = |k: usize| k.is_multiple_of(2).then(|| (k + 2) % 8 / 2);
        for deepest in 0..8 {
            let depth = |k: usize| if k == deepest { -0.1 - 1e-4 } else { -0.1 };
            let mut points = octagon(depth, even);
            reduce_to_four(&mut points, &Vector::y(), 1e-3);
            let mut kept: Vec<usize> = points
                .iter()
                .map(|p| (p.0.z.atan2(p.0.x) / (std::f64::consts::TAU / 8.0)).round() as i64)
                .map(|k| k.rem_euclid(8) as usize)
                .collect();
            assert_eq!(
                kept[0], 6,
                "last frame's first point (corner 6) stays first"
            );
            kept.sort_unstable();
            assert_eq!(kept, vec![0, 2, 4, 6], "deepest corner {deepest}");
        }
        // A persisted point deeper than the tie allows gives way to the deepest point.
        let mut points = octagon(|k| if k == 1 { -0.2 } else { -0.1 }, even);
        reduce_to_four(&mut points, &Vector::y(), 1e-3);
        assert_eq!(points[0].1, -0.2);
    }

    #[test]
    fn collinear_points_keep_the_extremes() {
        let mut points: Vec<P> = (0..6)
            .map(|k| P(Vector::new(k as f64, 0.0, 0.0), -0.1, None))
            .collect();
        reduce_to_four(&mut points, &Vector::y(), 1e-3);
        assert!(points.len() <= 4);
        let xs: Vec<f64> = points.iter().map(|p| p.0.x).collect();
        assert!(xs.contains(&0.0) && xs.contains(&5.0), "{xs:?}");
    }
}
