//! A sort-and-sweep broadphase over world AABBs, for scenes without explicit pairs.
//!
//! The boxes are sorted by their lower bound along the axis on which their centres spread
//! most; a sweep then tests each box against those starting before its upper bound ends
//! (Baraff's sweep and prune, one axis). The result does not depend on the input's sort
//! stability or the chosen axis: pairs are returned as `(a, b)` with `a < b`, sorted.

use nphase_math::Real;
use nphase_shapes::Aabb;

/// Every pair of overlapping (or touching) boxes, as index pairs `(a, b)` with `a < b`, in
/// lexicographic order. Boxes with a NaN coordinate overlap nothing.
///
/// ```
/// use nphase_cli::broadphase::sweep_and_prune;
/// use nphase::math::Point;
/// use nphase::shapes::Aabb;
///
/// let unit = |x: f64| Aabb::new(Point::new(x, 0.0, 0.0), Point::new(x + 1.0, 1.0, 1.0));
/// assert_eq!(sweep_and_prune(&[unit(2.0), unit(0.0), unit(0.5)]), vec![(1, 2)]);
/// ```
pub fn sweep_and_prune<T: Real>(aabbs: &[Aabb<T>]) -> Vec<(usize, usize)> {
    let axis = widest_axis(aabbs);
    let mut order: Vec<usize> = (0..aabbs.len()).collect();
    order.sort_by(|&i, &j| {
        // A total order (NaN after everything): `sort_by` may panic on an inconsistent one.
        aabbs[i].mins[axis]
            .as_f64()
            .total_cmp(&aabbs[j].mins[axis].as_f64())
            .then(i.cmp(&j))
    });
    let mut pairs = Vec::new();
    for (k, &i) in order.iter().enumerate() {
        let box_i = &aabbs[i];
        for &j in &order[k + 1..] {
            // `!(a <= b)` rather than `a > b`: a NaN bound ends the sweep for this box.
            if !(aabbs[j].mins[axis] <= box_i.maxs[axis]) {
                break;
            }
            if box_i.intersects(&aabbs[j]) {
                pairs.push((i.min(j), i.max(j)));
            }
        }
    }
    pairs.sort_unstable();
    pairs
}

/// The axis along which the box centres have the largest variance (x on ties).
fn widest_axis<T: Real>(aabbs: &[Aabb<T>]) -> usize {
    if aabbs.is_empty() {
        return 0;
    }
    let n = aabbs.len() as f64;
    let mut best = (0, f64::NEG_INFINITY);
    for axis in 0..3 {
        let centres = aabbs
            .iter()
            .map(|b| (b.mins[axis] + b.maxs[axis]).as_f64() * 0.5);
        let mean = centres.clone().sum::<f64>() / n;
        let variance = centres.map(|c| (c - mean) * (c - mean)).sum::<f64>() / n;
        if variance > best.1 {
            best = (axis, variance);
        }
    }
    best.0
}

#[cfg(test)]
mod tests {
    use nphase_math::Point;

    use super::*;

    /// Brute force over all pairs.
    fn all_pairs(aabbs: &[Aabb<f64>]) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for i in 0..aabbs.len() {
            for j in i + 1..aabbs.len() {
                if aabbs[i].intersects(&aabbs[j]) {
                    out.push((i, j));
                }
            }
        }
        out
    }

    #[test]
    fn agrees_with_brute_force_on_a_random_cloud() {
        // A fixed linear congruential sequence: enough to scatter boxes, no dependency.
        let mut state = 12345u64;
        let mut next = move || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 11) as f64 / (1u64 << 53) as f64
        };
        let aabbs: Vec<Aabb<f64>> = (0..300)
            .map(|_| {
                let c = Point::new(next() * 10.0, next() * 3.0, next() * 10.0);
                let h = nphase_math::Vector::new(next(), next(), next()) * 0.6;
                Aabb::new(c - h, c + h)
            })
            .collect();
        let expected = all_pairs(&aabbs);
        // Guard: the sample has both overlapping and separate boxes.
        assert!(
            expected.len() > 100 && expected.len() < 300 * 299 / 4,
            "{}",
            expected.len()
        );
        assert_eq!(sweep_and_prune(&aabbs), expected);
    }

    #[test]
    fn touching_boxes_pair_and_nan_boxes_do_not() {
        let b = |x: f64| Aabb::new(Point::new(x, 0.0, 0.0), Point::new(x + 1.0, 1.0, 1.0));
        let nan = Aabb::new(
            Point::new(f64::NAN, 0.0, 0.0),
            Point::new(f64::NAN, 1.0, 1.0),
        );
        assert_eq!(sweep_and_prune(&[b(1.0), nan, b(0.0)]), vec![(0, 2)]);
        assert!(sweep_and_prune::<f64>(&[]).is_empty());
    }
}
