//! The point of a simplex (1 to 4 points) closest to the origin — GJK's sub-algorithm.
//!
//! Follows the signed-volume method of Montanari, Petrinic and Barbieri (ACM ToG 36(3), 2017):
//! the barycentric coordinates of the origin's projection onto the simplex's affine hull are
//! ratios of signed volumes (lengths, areas, volumes); when they all share the sign of the whole
//! simplex's volume the projection is inside and is the answer, otherwise the answer lies on one
//! of the faces whose volume has the wrong sign, found by recursing into them and keeping the
//! closest.
//!
//! Departures from the paper, for accuracy and generality:
//! * Every signed volume is computed *relative to the first vertex* (edge vectors `e_i = s_i −
//!   s_0` and `o = −s_0`), so the rounding error of a barycentric weight is about
//!   `ε·|s_0|/size` instead of `ε·(|s_0|/size)^k` for a simplex far from the origin.
//! * The input need not be ordered as in GJK (the paper assumes the newest vertex is always kept);
//!   every face and vertex is a candidate, so the routine is a general closest-point query.
//! * A sub-simplex whose volume is zero or below [`Tolerances::degenerate`] of its extent is not
//!   trusted for an interior answer: all its faces are evaluated and the closest point kept.
//!   Every candidate is a point of the simplex, so keeping the closest one never makes the answer
//!   worse than the exact one by more than rounding.
//!
//! [`Tolerances::degenerate`]: crate::Tolerances::degenerate

use crate::{Real, Vector};
use num_traits::Float;

/// The result of [`closest_point_to_origin`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SimplexProjection<T> {
    /// The point of the simplex's convex hull closest to the origin (same frame as the input).
    pub point: Vector<T>,
    /// Barycentric weight of each input vertex (`weights[i]` belongs to `vertices[i]`): all in
    /// `[0, 1]`, zero outside the support set, summing to one.
    pub weights: [T; 4],
    /// The reduced support set: bit `i` is set when `vertices[i]` has a non-zero weight, i.e. the
    /// smallest face of the simplex that contains `point`. Four bits set means the origin lies
    /// inside the tetrahedron.
    pub support: u8,
}

impl<T: Real> SimplexProjection<T> {
    /// The number of vertices in the reduced support set.
    pub fn support_len(&self) -> usize {
        self.support.count_ones() as usize
    }

    /// Whether input vertex `i` belongs to the reduced support set.
    pub fn contains(&self, i: usize) -> bool {
        self.support & (1 << i) != 0
    }
}

/// Computes the point of the convex hull of `vertices` (1 to 4 points) closest to the origin,
/// with its barycentric weights and the smallest face that contains it.
///
/// Degenerate input is handled: coincident points, collinear triangles and flat tetrahedra give
/// the closest point of the lower-dimensional hull they span. The input must be finite.
///
/// # Panics
/// If `vertices` is empty or holds more than four points (a caller bug, not a data error).
///
/// ```
/// use nphase_math::{closest_point_to_origin, Vector};
/// let seg = [Vector::<f64>::new(-1.0, 1.0, 0.0), Vector::new(1.0, 1.0, 0.0)];
/// let p = closest_point_to_origin(&seg);
/// assert!((p.point - Vector::new(0.0, 1.0, 0.0)).norm() < 1e-15);
/// assert_eq!(p.support, 0b11);
/// assert!((p.weights[0] - 0.5).abs() < 1e-15);
/// ```
pub fn closest_point_to_origin<T: Real>(vertices: &[Vector<T>]) -> SimplexProjection<T> {
    match *vertices {
        [a] => vertex(a, 0),
        [a, b] => segment([a, b], [0, 1]),
        [a, b, c] => triangle([a, b, c], [0, 1, 2]),
        [a, b, c, d] => tetrahedron([a, b, c, d]),
        _ => panic!(
            "closest_point_to_origin takes 1 to 4 vertices, got {}",
            vertices.len()
        ),
    }
}

fn vertex<T: Real>(a: Vector<T>, index: usize) -> SimplexProjection<T> {
    let mut weights = [T::zero(); 4];
    weights[index] = T::one();
    SimplexProjection {
        point: a,
        weights,
        support: 1 << index,
    }
}

/// Closest point of segment `s` whose vertices are input vertices `ids`.
///
/// With `t = s1 − s0` and `o = −s0`, the projection of the origin onto the line has weight
/// `λ1 = (o·t)/(t·t)` on `s1` and `λ0 = 1 − λ1` on `s0`; outside `(0, 1)` the nearer endpoint wins.
fn segment<T: Real>(s: [Vector<T>; 2], ids: [usize; 2]) -> SimplexProjection<T> {
    let t = s[1] - s[0];
    let tt = t.norm_squared();
    let ot = -s[0].dot(&t);
    if !(tt > T::zero()) || ot <= T::zero() {
        return vertex(s[0], ids[0]);
    }
    if ot >= tt {
        return vertex(s[1], ids[1]);
    }
    let l1 = ot / tt;
    let mut weights = [T::zero(); 4];
    weights[ids[0]] = T::one() - l1;
    weights[ids[1]] = l1;
    SimplexProjection {
        point: s[0] + t * l1,
        weights,
        support: (1 << ids[0]) | (1 << ids[1]),
    }
}

/// Closest point of triangle `s` whose vertices are input vertices `ids`.
///
/// With `e1 = s1 − s0`, `e2 = s2 − s0`, `n = e1 × e2` and `o = −s0`, the projection `p` of the
/// origin onto the plane has barycentric weights (signed areas over `n·n`)
///
/// ```text
/// λ1 = (e2 × s0)·n / n·n,   λ2 = (s0 × e1)·n / n·n,   λ0 = 1 − λ1 − λ2,
/// ```
///
/// because `(s2 − p) × (s0 − p)·n = (s2 × s0)·n` for any `p` on the normal line through the
/// origin, and `s2 × s0 = e2 × s0`, `s0 × s1 = s0 × e1`. All positive: `p` is inside. Otherwise the edges opposite a
/// non-positive weight are the candidates.
fn triangle<T: Real>(s: [Vector<T>; 3], ids: [usize; 3]) -> SimplexProjection<T> {
    let e1 = s[1] - s[0];
    let e2 = s[2] - s[0];
    let n = e1.cross(&e2);
    let area2 = n.norm_squared();
    let extent2 = e1.norm_squared() * e2.norm_squared();
    let flat = !(area2 > T::TOLERANCES.degenerate * extent2);

    let a1 = e2.cross(&s[0]).dot(&n);
    let a2 = s[0].cross(&e1).dot(&n);
    let a0 = area2 - a1 - a2;
    let inside = area2 > T::zero() && a0 > T::zero() && a1 > T::zero() && a2 > T::zero();
    if inside && !flat {
        let (l1, l2) = (a1 / area2, a2 / area2);
        let mut weights = [T::zero(); 4];
        weights[ids[0]] = T::one() - l1 - l2;
        weights[ids[1]] = l1;
        weights[ids[2]] = l2;
        return SimplexProjection {
            point: s[0] + e1 * l1 + e2 * l2,
            weights,
            support: (1 << ids[0]) | (1 << ids[1]) | (1 << ids[2]),
        };
    }

    let mut best: Option<SimplexProjection<T>> = None;
    if inside {
        // Flat triangle whose interior test passed: a valid point of the triangle, kept as a
        // candidate next to the edges.
        let (l1, l2) = (a1 / area2, a2 / area2);
        let mut weights = [T::zero(); 4];
        weights[ids[0]] = T::one() - l1 - l2;
        weights[ids[1]] = l1;
        weights[ids[2]] = l2;
        best = Some(SimplexProjection {
            point: s[0] + e1 * l1 + e2 * l2,
            weights,
            support: (1 << ids[0]) | (1 << ids[1]) | (1 << ids[2]),
        });
    }
    let opposite = [(a0, 1, 2), (a1, 0, 2), (a2, 0, 1)];
    for (area, i, j) in opposite {
        if flat || !(area > T::zero()) {
            keep_closer(&mut best, segment([s[i], s[j]], [ids[i], ids[j]]));
        }
    }
    best.unwrap_or_else(|| vertex(s[0], ids[0]))
}

/// Closest point of tetrahedron `s` (input vertices 0..4).
///
/// With `e_i = s_i − s0` and `o = −s0`, the signed volumes with the origin substituted for vertex
/// `i` are `V1 = det(o, e2, e3)`, `V2 = det(e1, o, e3)`, `V3 = det(e1, e2, o)` and
/// `V0 = V − V1 − V2 − V3` where `V = det(e1, e2, e3)`; the origin is inside when all four share
/// the sign of `V`. Otherwise the faces opposite a vertex whose volume has the wrong sign are the
/// candidates.
fn tetrahedron<T: Real>(s: [Vector<T>; 4]) -> SimplexProjection<T> {
    let o = -s[0];
    let e1 = s[1] - s[0];
    let e2 = s[2] - s[0];
    let e3 = s[3] - s[0];
    let e2xe3 = e2.cross(&e3);
    let volume = e1.dot(&e2xe3);
    let v1 = o.dot(&e2xe3);
    let v2 = e1.dot(&o.cross(&e3));
    let v3 = e1.dot(&e2.cross(&o));
    let v0 = volume - v1 - v2 - v3;

    let extent = e1.norm() * e2.norm() * e3.norm();
    let flat = !(Float::abs(volume) > T::TOLERANCES.degenerate * extent);
    let same_sign =
        |v: T| (v > T::zero() && volume > T::zero()) || (v < T::zero() && volume < T::zero());
    let signs = [same_sign(v0), same_sign(v1), same_sign(v2), same_sign(v3)];

    if !flat && signs.iter().all(|&s| s) {
        let weights = [v0 / volume, v1 / volume, v2 / volume, v3 / volume];
        return SimplexProjection {
            point: Vector::zeros(),
            weights,
            support: 0b1111,
        };
    }

    let faces = [[1, 2, 3], [0, 2, 3], [0, 1, 3], [0, 1, 2]];
    let mut best: Option<SimplexProjection<T>> = None;
    for (opposite, face) in faces.iter().enumerate() {
        if flat || !signs[opposite] {
            let candidate = triangle([s[face[0]], s[face[1]], s[face[2]]], *face);
            keep_closer(&mut best, candidate);
        }
    }
    best.unwrap_or_else(|| vertex(s[0], 0))
}

fn keep_closer<T: Real>(best: &mut Option<SimplexProjection<T>>, candidate: SimplexProjection<T>) {
    match best {
        Some(b) if b.point.norm_squared() <= candidate.point.norm_squared() => {}
        _ => *best = Some(candidate),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::{DMatrix, DVector};
    use rand::{Rng, SeedableRng};

    /// Independent brute force: for every non-empty subset of the vertices, the least-squares
    /// projection of the origin onto its affine hull (by SVD, so rank-deficient subsets work);
    /// feasible projections (all weights ≥ 0) are candidates, and the closest wins.
    fn brute_force_distance(vertices: &[Vector<f64>]) -> f64 {
        let n = vertices.len();
        let mut best = f64::INFINITY;
        for mask in 1u32..(1 << n) {
            let ids: Vec<usize> = (0..n).filter(|i| mask & (1 << i) != 0).collect();
            let base = vertices[ids[0]];
            let k = ids.len() - 1;
            let weights: Vec<f64> = if k == 0 {
                vec![1.0]
            } else {
                let a = DMatrix::from_fn(3, k, |r, c| vertices[ids[c + 1]][r] - base[r]);
                let b = DVector::from_fn(3, |r, _| -base[r]);
                let norm = a.norm();
                let svd = a.svd(true, true);
                let x = svd.solve(&b, 1e-14 * norm).expect("svd solve");
                let mut w = vec![1.0 - x.sum()];
                w.extend(x.iter().copied());
                w
            };
            if weights.iter().all(|&w| w >= -1e-12) {
                let p: Vector<f64> = ids
                    .iter()
                    .zip(&weights)
                    .map(|(&i, &w)| vertices[i] * w)
                    .sum();
                best = best.min(p.norm());
            }
        }
        best
    }

    fn check(vertices: &[Vector<f64>], scale: f64) {
        let proj = closest_point_to_origin(vertices);
        let expected = brute_force_distance(vertices);
        let tol = 1e-10 * scale;
        assert!(
            (proj.point.norm() - expected).abs() <= tol,
            "distance {} vs brute force {} on {vertices:?}",
            proj.point.norm(),
            expected
        );
        let sum: f64 = proj.weights.iter().sum();
        assert!((sum - 1.0).abs() < 1e-9, "weights sum {sum}");
        let mut rebuilt = Vector::zeros();
        for (i, v) in vertices.iter().enumerate() {
            let w = proj.weights[i];
            assert!((0.0..=1.0).contains(&w), "weight {w}");
            assert_eq!(
                w != 0.0,
                proj.contains(i),
                "support mask {:b} vs weights {:?}",
                proj.support,
                proj.weights
            );
            rebuilt += v * w;
        }
        if proj.support != 0b1111 {
            assert!(
                (rebuilt - proj.point).norm() <= tol,
                "weights do not rebuild the point"
            );
        }
        for i in vertices.len()..4 {
            assert!(!proj.contains(i));
        }
    }

    fn random_vertex(rng: &mut impl Rng, scale: f64) -> Vector<f64> {
        Vector::new(
            rng.random_range(-1.0..1.0),
            rng.random_range(-1.0..1.0),
            rng.random_range(-1.0..1.0),
        ) * scale
    }

    #[test]
    fn random_simplices_match_brute_force_at_every_scale() {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(1);
        let mut inside = 0;
        let trials = 20_000;
        for trial in 0..trials {
            let scale = [1e-6, 1.0, 1e6][trial % 3];
            let n = 1 + trial % 4;
            let offset = random_vertex(&mut rng, scale * 0.5);
            let simplex: Vec<_> = (0..n)
                .map(|_| random_vertex(&mut rng, scale) + offset)
                .collect();
            check(&simplex, scale);
            if n == 4 && closest_point_to_origin(&simplex).support == 0b1111 {
                inside += 1;
            }
        }
        // The sample is representative: a fair share of tetrahedra contain the origin.
        let tetrahedra = trials / 4;
        assert!(
            inside > tetrahedra / 20 && inside < tetrahedra / 2,
            "{inside} of {tetrahedra}"
        );
    }

    #[test]
    fn degenerate_simplices_match_brute_force() {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(2);
        for trial in 0..6_000 {
            let scale = [1e-6, 1.0, 1e6][trial % 3];
            let a = random_vertex(&mut rng, scale);
            let b = random_vertex(&mut rng, scale);
            let c = random_vertex(&mut rng, scale);
            let t: f64 = rng.random_range(-0.5..1.5);
            let u: f64 = rng.random_range(-0.5..1.5);
            let on_line = a + (b - a) * t;
            let in_plane = a + (b - a) * t + (c - a) * u;
            let cases: [Vec<Vector<f64>>; 7] = [
                vec![a, a],
                vec![a, a, a],
                vec![a, b, on_line],
                vec![a, a, b],
                vec![a, b, c, in_plane],
                vec![a, b, on_line, a + (b - a) * u],
                vec![a, a, a, a],
            ];
            for simplex in cases {
                check(&simplex, scale);
            }
        }
    }

    #[test]
    fn origin_inside_tetrahedron_and_on_its_faces() {
        let tet = [
            Vector::new(-1.0, -1.0, -1.0),
            Vector::new(3.0, -1.0, -1.0),
            Vector::new(-1.0, 3.0, -1.0),
            Vector::new(-1.0, -1.0, 3.0),
        ];
        let p = closest_point_to_origin(&tet);
        assert_eq!(p.support, 0b1111);
        assert_eq!(p.point, Vector::zeros());
        let rebuilt: Vector<f64> = tet.iter().zip(p.weights).map(|(v, w)| v * w).sum();
        assert!(rebuilt.norm() < 1e-15);
        // Origin exactly on a face: distance zero, whatever the support set.
        let on_face = [
            Vector::new(-1.0, -1.0, 0.0),
            Vector::new(2.0, -1.0, 0.0),
            Vector::new(-1.0, 2.0, 0.0),
            Vector::new(0.0, 0.0, 3.0),
        ];
        assert!(closest_point_to_origin(&on_face).point.norm() < 1e-15);
    }

    #[test]
    fn f32_agrees_with_f64() {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(3);
        for trial in 0..5_000 {
            let n = 1 + trial % 4;
            let simplex: Vec<Vector<f64>> = (0..n)
                .map(|_| random_vertex(&mut rng, 1.0).cast::<f32>().cast())
                .collect();
            let single: Vec<Vector<f32>> = simplex.iter().map(|v| v.cast()).collect();
            let d64 = closest_point_to_origin(&simplex).point.norm();
            let d32 = f64::from(closest_point_to_origin(&single).point.norm());
            assert!((d64 - d32).abs() < 1e-5, "{d64} vs {d32}");
        }
    }

    #[test]
    #[should_panic(expected = "1 to 4 vertices")]
    fn empty_simplex_is_a_caller_bug() {
        closest_point_to_origin::<f64>(&[]);
    }
}
