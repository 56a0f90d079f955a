//! A segment core against a cuboid core, exactly: capsule–box, capsule–rounded box and
//! segment–box, where the cores are apart.
//!
//! # Closest points
//! In the box's frame (half-extents `h`), with the segment `p(s) = p₀ + s·d`, `s ∈ [0, 1]`, the
//! squared distance from the box is
//!
//! ```text
//! f(s) = Σₘ eₘ(s)²,   eₘ(s) = pₘ(s) − clamp(pₘ(s), −hₘ, hₘ)   (the excess beyond the slab m),
//! ```
//!
//! a convex function of `s`, continuously differentiable, quadratic between the *breakpoints*
//! where the segment crosses a face plane (`pₘ(s) = ±hₘ`, at most six). Its half-derivative
//! `g(s) = Σₘ eₘ(s)·dₘ` is continuous, piecewise linear and non-decreasing, so the minimum is at
//! `s = 0` where `g(0) ≥ 0`, at `s = 1` where `g(1) ≤ 0`, and otherwise in the first interval
//! between consecutive breakpoints (or the ends) where `g` turns non-negative. On that interval
//! the faces each coordinate is beyond (`cₘ = ±hₘ`, or none) are fixed — read at its middle —
//! and the minimum of the quadratic is at
//!
//! ```text
//! s* = −Σ (p₀ₘ − cₘ)·dₘ / Σ dₘ²   (over the coordinates beyond a face),
//! ```
//!
//! clamped to the interval. `f` is flat to first order at an interior minimum, so an error in
//! `s*` (rounding over the interval's slope) moves the distance by its square only; at an end
//! of the segment `s*` is exactly 0 or 1.
//!
//! # Normal and accuracy
//! The closest box point is the clamped point `c = clamp(p(s*))`, and the excess `p(s*) − c`
//! runs along the normal. Each of its components is either exactly zero (the point within
//! that slab) or a difference of coordinates, right to the rounding of the coordinates,
//! `~ε·size`; over a face (one component) it is the face's axis exactly. Over an edge or a
//! corner its direction is right to `ε·size / core distance` — enough where the closest point
//! is an end of the segment (the support gap moves with the square of the tilt), not where it
//! is inside the segment: there the segment's support along the normal is all of it, and a
//! tilt along `d` moves the gap by the tilt times the segment's length (the oracle's f32
//! conformance caught it: four capsule–box and segment–box pairs, up to 1.5 × the tolerance). So
//! there the normal is taken across the segment ([`across_segment`]): beyond an edge along
//! axis `k`, `e_k × d` (right to `ε / sin θ`, `θ` the angle of the two), or the excess where
//! that is the more accurate; beyond a corner, the excess without its part along `d`.
//!
//! # Overlapping cores
//! Cores closer than GJK's touch tolerance (touching, or crossing: the excess, even its side, is
//! then rounding) are measured by separating axes instead ([`box_segment_overlap`]): the faces
//! of the Minkowski difference of a box and a segment have the box's three axes and the three
//! crossings `e_m × d` of the box's edges with the segment for normals, so the smallest overlap
//! over those six axes is the penetration depth (Ericson 5.2.1; as `cuboid_sat.rs` for two
//! boxes), exactly, and its axis the normal. A face axis is preferred to a crossing whose
//! overlap is smaller by less than the accuracy target, so rounding does not make the normal
//! flicker between them. The witnesses: over a face, the segment clipped to the face's prism
//! (`|xₖ| ≤ hₖ`, `k ≠ m`) and its deepest end, and that end's image on the face; across an
//! edge, the closest points of the box's edge and the segment's line. Where a witness comes
//! out off its feature by more than rounding (a tie of axes), or an axis shows the cores apart
//! after all (closer than the touch tolerance), the pair goes on to the general path (GJK,
//! then the separating-axis test).

use arrayvec::ArrayVec;
use nphase_math::{Point, Real, UnitVector, Vector};
use num_traits::Float;

use super::LocalContact;

/// The box core of half-extents `half` grown by `radius1` (at the origin, axis-aligned) against
/// the segment core `ends` (the box's frame) grown by `radius2`, exactly, the box first. Cores
/// within GJK's touch tolerance of `small` (the smaller shape's size) are measured by
/// [`box_segment_overlap`]; `None` where that does not answer (see the module doc).
pub(crate) fn box_segment<T: Real>(
    (half, radius1): (&Vector<T>, T),
    (ends, radius2): ([Point<T>; 2], T),
    small: T,
) -> Option<LocalContact<T>> {
    let [p0, p1] = ends;
    let d = p1 - p0;
    let s = closest_parameter(half, &p0.coords, &d);
    let on_segment = p0 + d * s;
    let on_box = on_segment
        .coords
        .zip_map(half, |x, h| Float::min(Float::max(x, -h), h));
    let excess = on_segment.coords - on_box;

    let size = [p0.coords.norm(), p1.coords.norm(), half.norm()]
        .into_iter()
        .fold(T::zero(), Float::max);
    let touch = T::TOLERANCES.length(T::TOLERANCES.gjk_touch, small, size);
    if !(excess.norm_squared() > touch * touch) {
        return box_segment_overlap((half, radius1), (ends, radius2), small, size);
    }
    let normal = if s > T::zero() && s < T::one() {
        across_segment(&excess, &d, size)
    } else {
        nphase_math::normalize_robust(&excess)
    }?;
    // `n · excess` is the length without the underflow of a squared norm (and, for a normal
    // from the cross product, the distance along it).
    let core_distance = normal.dot(&excess);
    Some(
        LocalContact::exact(Point::from(on_box), on_segment, normal, core_distance)
            .grown_by(radius1, radius2),
    )
}

/// The penetration of the segment core `ends` (the box's frame) into the box core of
/// half-extents `half`, by the six separating axes of the module doc, grown by the radii, the
/// box first; `None` where an axis separates the cores, or where the witnesses come out off
/// their features by more than the rounding of coordinates of magnitude `size` (the pair is
/// then the general path's).
fn box_segment_overlap<T: Real>(
    (half, radius1): (&Vector<T>, T),
    (ends, radius2): ([Point<T>; 2], T),
    small: T,
    size: T,
) -> Option<LocalContact<T>> {
    let [p0, p1] = ends;
    let d = p1 - p0;
    // How far the segment must move along `l` (unit) to clear the box, and the direction.
    let overlap = |l: &Vector<T>| {
        let reach = half.x * Float::abs(l.x) + half.y * Float::abs(l.y) + half.z * Float::abs(l.z);
        let (a, b) = (p0.coords.dot(l), p1.coords.dot(l));
        let (low, high) = (Float::min(a, b), Float::max(a, b));
        // Up along `l` by `reach − low`, or down by `high + reach`.
        if reach - low <= high + reach {
            (reach - low, *l)
        } else {
            (high + reach, -l)
        }
    };
    let tie = T::TOLERANCES.accuracy * small;
    // (depth, normal, the box's face axis or edge direction, whether a face)
    let mut best: Option<(T, Vector<T>, usize, bool)> = None;
    for m in 0..3 {
        let (depth, normal) = overlap(&Vector::ith(m, T::one()));
        if best.is_none_or(|(b, ..)| depth < b) {
            best = Some((depth, normal, m, true));
        }
    }
    let parallel = Float::sqrt(T::TOLERANCES.degenerate) * d.norm();
    for m in 0..3 {
        let cross = Vector::<T>::ith(m, T::one()).cross(&d);
        let length = cross.norm();
        if !(length > parallel) {
            continue;
        }
        let (depth, normal) = overlap(&(cross / length));
        if best.is_none_or(|(b, ..)| depth < b - tie) {
            best = Some((depth, normal, m, false));
        }
    }
    let (depth, normal, m, face) = best?;
    if depth < T::zero() {
        return None;
    }
    let rounding = T::lit(64.0) * T::TOLERANCES.epsilon * size;
    let (on_box, on_segment) = if face {
        // The segment clipped to the face's prism, its deepest end.
        let (mut low, mut high) = (T::zero(), T::one());
        for k in (0..3).filter(|&k| k != m) {
            if d[k] == T::zero() {
                if Float::abs(p0[k]) > half[k] {
                    return None;
                }
                continue;
            }
            let (a, b) = ((-half[k] - p0[k]) / d[k], (half[k] - p0[k]) / d[k]);
            low = Float::max(low, Float::min(a, b));
            high = Float::min(high, Float::max(a, b));
        }
        if !(low <= high) {
            return None;
        }
        let deepest = if d.dot(&normal) > T::zero() {
            low
        } else {
            high
        };
        let on_segment = p0 + d * deepest;
        let gap = half[m] - on_segment.coords.dot(&normal);
        (on_segment + normal * gap, on_segment)
    } else {
        // The box's edge along `m`, at the corner the normal points to, against the
        // segment's line: the two lines' closest points, within the edge and the segment
        // (clamped: the check below turns away a pair whose points were not).
        let axis = Vector::<T>::ith(m, T::one());
        let corner = Vector::from_fn(|i, _| {
            if i == m {
                T::zero()
            } else {
                Float::copysign(half[i], normal[i])
            }
        });
        let across = d.cross(&axis);
        let across2 = across.norm_squared();
        let offset = corner - p0.coords;
        let t = offset.cross(&axis).dot(&across) / across2;
        let u = offset.cross(&d).dot(&across) / across2;
        let t = Float::min(Float::max(t, T::zero()), T::one());
        let u = Float::min(Float::max(u, -half[m]), half[m]);
        (Point::from(corner + axis * u), p0 + d * t)
    };
    // The witnesses `depth` apart along the normal, on their features, within rounding.
    let mismatch = ((on_box - on_segment) - normal * depth).norm();
    if !(mismatch <= rounding) {
        return None;
    }
    let normal = nphase_math::normalize_robust(&normal)?;
    Some(LocalContact::exact(on_box, on_segment, normal, -depth).grown_by(radius1, radius2))
}

/// The normal where the closest point is inside the segment (the module doc): there the
/// excess is across the segment (`excess · d = 0`), and the segment's support along the normal
/// is all of it, so a normal tilted along `d` by the excess's rounding moves the support gap
/// by that tilt times the segment's length. Beyond two faces (an edge of the box, along axis
/// `k`, whose support is the whole edge too) the normal is across both: `e_k × d`, right to
/// `ε / sin θ` (`θ` the angle of the segment and the edge), or the excess where that is the
/// more accurate (`ε·size / |excess|`, as for two segments); beyond three (a corner) the
/// excess with its part along `d` removed; beyond one face, the face's axis (the excess is
/// that axis exactly).
fn across_segment<T: Real>(excess: &Vector<T>, d: &Vector<T>, size: T) -> Option<UnitVector<T>> {
    let inside: ArrayVec<usize, 3> = (0..3).filter(|&m| excess[m] == T::zero()).collect();
    let across = match inside[..] {
        [k] => {
            let cross = Vector::ith(k, T::one()).cross(d);
            let cross2 = cross.norm_squared();
            if excess.norm_squared() * d.norm_squared() < size * size * cross2 {
                if cross.dot(excess) < T::zero() {
                    -cross
                } else {
                    cross
                }
            } else {
                *excess
            }
        }
        [] => excess - d * (excess.dot(d) / d.norm_squared()),
        _ => *excess,
    };
    nphase_math::normalize_robust(&across)
}

/// The parameter `s ∈ [0, 1]` of the segment `p0 + s·d` closest to the box of half-extents
/// `half` (the module doc); 0 for a zero-length segment.
fn closest_parameter<T: Real>(half: &Vector<T>, p0: &Vector<T>, d: &Vector<T>) -> T {
    // Half the derivative of the squared distance at `s`.
    let slope = |s: T| {
        (0..3).fold(T::zero(), |g, m| {
            let x = p0[m] + s * d[m];
            let excess = x - Float::min(Float::max(x, -half[m]), half[m]);
            g + excess * d[m]
        })
    };
    if !(slope(T::zero()) < T::zero()) {
        return T::zero();
    }
    if !(slope(T::one()) > T::zero()) {
        return T::one();
    }
    // The interval: from the last breakpoint inside (0, 1) where the slope is negative to the
    // first where it is not. The slope is non-decreasing, so each breakpoint inside the
    // interval found so far narrows it, and no sorting is needed (where rounding breaks the
    // order by a hair, the interval found still has the slope negative at its lower end and not
    // at its upper one).
    let (mut low, mut high) = (T::zero(), T::one());
    for m in 0..3 {
        if d[m] != T::zero() {
            for face in [-half[m], half[m]] {
                let b = (face - p0[m]) / d[m];
                if b > low && b < high {
                    if slope(b) < T::zero() {
                        low = b;
                    } else {
                        high = b;
                    }
                }
            }
        }
    }
    // The faces the segment is beyond over the interval, read at its middle.
    let middle = (low + high) * T::lit(0.5);
    let (mut numerator, mut denominator) = (T::zero(), T::zero());
    for m in 0..3 {
        let x = p0[m] + middle * d[m];
        let face = if x > half[m] {
            half[m]
        } else if x < -half[m] {
            -half[m]
        } else {
            continue;
        };
        numerator += (p0[m] - face) * d[m];
        denominator += d[m] * d[m];
    }
    if !(denominator > T::zero()) {
        return low;
    }
    Float::min(Float::max(-numerator / denominator, low), high)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::PairWorkspace;
    use crate::collide::test_poses::{check_both_orders, random_turn, tiny_tilt};
    use core::f64::consts::PI;
    use nphase_math::{Isometry, Rotation};
    use nphase_shapes::{Capsule, Cuboid, Segment, Shape};
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg64;

    /// Capsules and segments against boxes, rounded boxes and flat boxes at random poses — a
    /// third turned parallel to the box's faces to within 1e-16 rad to 1e-2 rad, a tenth of
    /// those exactly —, beside faces, edges and corners, and crossing the box: the closed form
    /// answers where the cores are apart beyond the touch tolerance and agrees with GJK/EPA;
    /// its normal and witnesses are exact (`test_poses::assert_exact_contact`). Both orders.
    #[test]
    fn box_segment_closed_form_matches_gjk_and_epa() {
        let mut rng = Pcg64::seed_from_u64(29);
        let mut workspace = PairWorkspace::new();
        let (mut closed, mut parallel, trials) = (0, 0, 4000);
        for trial in 0..trials {
            let mut half = Vector::from_fn(|_, _| rng.random_range(0.05..1.0));
            if trial % 11 == 0 {
                half[trial % 3] = 0.0;
            }
            let cuboid = Shape::Cuboid(Cuboid::new(half).expect("valid"));
            let boxed = if trial % 4 == 0 {
                Shape::round(cuboid, rng.random_range(0.01..0.2)).expect("valid")
            } else {
                cuboid
            };
            let segment = if trial % 5 == 0 {
                let mut p = || Point::from(Vector::from_fn(|_, _| rng.random_range(-1.0..1.0)));
                Shape::Segment(Segment::new(p(), p()).expect("valid"))
            } else {
                let capsule = Capsule::new(rng.random_range(0.0..1.0), rng.random_range(0.02..0.5));
                Shape::Capsule(capsule.expect("valid"))
            };
            let rotation = if trial % 3 == 0 {
                parallel += 1;
                let tilt = tiny_tilt(trial, &mut rng);
                // The capsule's axis (y) along the box's x, tilted about z.
                Rotation::from_scaled_axis(Vector::new(0.0, 0.0, core::f64::consts::FRAC_PI_2))
                    * Rotation::from_scaled_axis(Vector::new(tilt, 0.0, tilt))
            } else {
                random_turn(&mut rng)
            };
            let offset = Vector::from_fn(|_, _| rng.random_range(-2.0..2.0));
            let pos12 = Isometry::from_parts(offset.into(), rotation);
            let scale = offset.norm() + 4.0;
            let tol = (1e-12 * scale, 1e-11 * scale);
            closed += check_both_orders(&boxed, &segment, &pos12, tol, &mut workspace);
        }
        assert!(parallel > trials / 4, "{parallel}");
        assert!(closed > trials * 2 * 4 / 5, "{closed} of {}", trials * 2);
    }

    /// Segments and capsules whose cores cross boxes and rounded boxes (their ends up to 1.3 ×
    /// the half-extents out, a third of them turned along a box axis to within 1e-16 rad to
    /// 1e-2 rad): the separating axes answer most of them, and agree with GJK/EPA on the depth;
    /// the normal is a minimiser and the witnesses are on their features
    /// (`test_poses::assert_exact_contact`). Both orders.
    #[test]
    fn overlapping_cores_take_the_six_axes() {
        let mut rng = Pcg64::seed_from_u64(41);
        let mut workspace = PairWorkspace::new();
        let (mut closed, mut crossing, trials) = (0, 0, 3000);
        for trial in 0..trials {
            let half = Vector::from_fn(|_, _| rng.random_range(0.1..1.0));
            let cuboid = Shape::Cuboid(Cuboid::new(half).expect("valid"));
            let boxed = if trial % 4 == 0 {
                Shape::round(cuboid, rng.random_range(0.01..0.2)).expect("valid")
            } else {
                cuboid
            };
            let mut end = || Point::from(half.map(|h| h * rng.random_range(-1.3..1.3)));
            let (a, mut b) = (end(), end());
            if trial % 3 == 0 {
                // Along an axis, nearly: b moved onto a's line along axis `k`, then tilted.
                let k = trial % 3;
                for i in (0..3).filter(|&i| i != k) {
                    b[i] = a[i] + tiny_tilt(trial, &mut rng);
                }
            }
            let radius = rng.random_range(0.0..0.3);
            let segment =
                Shape::Capsule(Capsule::new((b - a).norm() * 0.5, radius).expect("valid"));
            // The capsule's axis (y) from a to b.
            let direction = (b - a).normalize();
            let rotation = Rotation::rotation_between(&Vector::y(), &direction)
                .unwrap_or_else(|| Rotation::from_scaled_axis(Vector::new(PI, 0.0, 0.0)));
            let pos12 = Isometry::from_parts(nalgebra::center(&a, &b).coords.into(), rotation);
            let ends = [
                pos12 * Point::new(0.0, -(b - a).norm() * 0.5, 0.0),
                pos12 * Point::new(0.0, (b - a).norm() * 0.5, 0.0),
            ];
            let through = closest_parameter(&half, &ends[0].coords, &(ends[1] - ends[0]));
            let inside = (ends[0] + (ends[1] - ends[0]) * through)
                .iter()
                .zip(half.iter())
                .all(|(x, h)| x.abs() <= *h);
            crossing += usize::from(inside);
            let scale = half.norm() + 2.0;
            let tol = (1e-12 * scale, 1e-10 * scale);
            closed += check_both_orders(&boxed, &segment, &pos12, tol, &mut workspace);
        }
        assert!(crossing > trials / 3, "{crossing}");
        assert!(closed > trials * 2 * 9 / 10, "{closed} of {}", trials * 2);
    }

    /// Analytic cases in both precisions: a capsule lying over a face (the face's axis exactly,
    /// the witness on the segment's end), across an edge, beyond a corner, standing on its end,
    /// a zero-length segment, and crossing the box (left to the general path).
    fn analytic<T: Real>() {
        let lit = |x: f64| T::lit(x);
        let v = |x: f64, y: f64, z: f64| Vector::new(lit(x), lit(y), lit(z));
        let p = |x: f64, y: f64, z: f64| Point::from(v(x, y, z));
        let half = v(1.0, 0.5, 0.25);
        let tol = lit(1e-6);
        let cases = [
            // Lying over the top face (y), slightly tilted: the lower end is the closest.
            ([p(-0.5, 0.8, 0.0), p(0.5, 0.9, 0.1)], 0.3, [0.0, 1.0, 0.0]),
            // Across the edge x = 1, y = 0.5, parallel to z, beyond both faces.
            ([p(1.3, 0.9, -2.0), p(1.3, 0.9, 2.0)], 0.5, [0.6, 0.8, 0.0]),
            // Beyond the corner (1, 0.5, 0.25), pointing away from it.
            (
                [p(1.2, 0.7, 0.25 + 0.2), p(2.0, 1.5, 1.5)],
                0.2 * 3f64.sqrt(),
                [1.0, 1.0, 1.0],
            ),
            // Standing on its end below the bottom face.
            (
                [p(0.2, -0.75, 0.1), p(0.2, -3.0, 0.1)],
                0.25,
                [0.0, -1.0, 0.0],
            ),
            // A point beside the face x = −1.
            (
                [p(-1.4, 0.1, 0.0), p(-1.4, 0.1, 0.0)],
                0.4,
                [-1.0, 0.0, 0.0],
            ),
            // Across the top face diagonally at height 0.9: closest over the face, inside.
            ([p(-2.0, 0.9, -2.0), p(2.0, 0.9, 2.0)], 0.4, [0.0, 1.0, 0.0]),
        ];
        for (ends, core, normal) in cases {
            let c = box_segment((&half, lit(0.1)), (ends, lit(0.2)), lit(0.5)).expect("apart");
            assert!(Float::abs(c.dist - (lit(core) - lit(0.3))) <= tol, "{c:?}");
            let expected = v(normal[0], normal[1], normal[2]).normalize();
            assert!((c.normal.into_inner() - expected).norm() <= tol, "{c:?}");
            let gap = (c.point2 - c.point1) - c.normal.into_inner() * c.dist;
            assert!(gap.norm() <= tol, "{c:?}");
        }
        // Over the face, exactly: the normal is the axis to the last bit.
        let flat = box_segment(
            (&half, lit(0.0)),
            ([p(-0.5, 0.8, 0.0), p(0.5, 0.9, 0.1)], lit(0.0)),
            lit(0.5),
        )
        .expect("apart");
        assert_eq!(flat.normal.into_inner(), v(0.0, 1.0, 0.0));
        assert_eq!(flat.point2, p(-0.5, 0.8, 0.0));
        // Cores crossing or touching, by the six axes: through the box (out through its
        // thinnest face, z, 0.25 deep); lying on its top face (0 deep); along its edge x = 1,
        // y = 0.5, 0.1 inside the face x and 0.2 inside the face y (out through x); across
        // that edge diagonally, 0.1/√2 inside it (out across the edge, against 0.15 through
        // the face z).
        let crossing = [
            ([p(-2.0, 0.0, 0.0), p(2.0, 0.1, 0.0)], 0.25, [0.0, 0.0, 1.0]),
            ([p(0.0, 0.5, -1.0), p(0.0, 0.5, 1.0)], 0.0, [0.0, 1.0, 0.0]),
            ([p(0.9, 0.3, -2.0), p(0.9, 0.3, 2.0)], 0.1, [1.0, 0.0, 0.0]),
            (
                [p(1.9, -0.5, 0.1), p(-0.1, 1.5, 0.1)],
                0.1 / 2f64.sqrt(),
                [1.0, 1.0, 0.0],
            ),
        ];
        for (ends, depth, normal) in crossing {
            let c = box_segment((&half, lit(0.1)), (ends, lit(0.2)), lit(0.5)).expect("overlap");
            assert!(Float::abs(c.dist + lit(depth) + lit(0.3)) <= tol, "{c:?}");
            let expected = v(normal[0], normal[1], normal[2]).normalize();
            assert!((c.normal.into_inner() - expected).norm() <= tol, "{c:?}");
            let gap = (c.point2 - c.point1) - c.normal.into_inner() * c.dist;
            assert!(gap.norm() <= tol, "{c:?}");
        }
    }

    #[test]
    fn analytic_cases_f32() {
        analytic::<f32>();
    }

    #[test]
    fn analytic_cases_f64() {
        analytic::<f64>();
    }

    /// In f32, segments passing close by an edge or a corner of a box (0.1–1 across, the
    /// segment crossing the edge's line at a random angle, 1e-5 to 1e-2 beyond it) and capsules
    /// lying nearly flat over a face: the normal is a minimiser within f32's tolerance
    /// (`1e-4 × scale`, docs/accuracy.md), measured in f64 on the same f32 numbers against the
    /// f64 closed form — where the closest point is inside the segment, the segment's support
    /// along the normal is all of it, and the excess's rounding alone tilted it past that.
    #[test]
    fn f32_normals_are_minimisers_past_edges_and_corners() {
        let mut rng = Pcg64::seed_from_u64(37);
        let (mut checked, trials) = (0, 4000);
        for trial in 0..trials {
            let half = Vector::<f64>::from_fn(|_, _| rng.random_range(0.05..0.5));
            // A point just beyond an edge (two coordinates) or a corner (three).
            let gap = 10f64.powf(rng.random_range(-5.0..-2.0));
            let mut at = half.map(|h| h * rng.random_range(-0.9..0.9));
            let beyond = if trial % 3 == 0 { 3 } else { 2 };
            let outward = Vector::from_fn(|m, _| {
                if m < beyond {
                    rng.random_range(0.2..1.0) * if rng.random_bool(0.5) { 1.0 } else { -1.0 }
                } else {
                    0.0
                }
            })
            .normalize();
            for m in 0..beyond {
                at[m] = half[m].copysign(outward[m]);
            }
            let center = at + outward * gap;
            // The segment through it, across the outward direction.
            let direction = outward
                .cross(&Vector::from_fn(|_, _| rng.random_range(-1.0..1.0)))
                .normalize();
            let length = rng.random_range(0.1..1.0);
            let t = rng.random_range(0.1..0.9);
            let ends = [
                Point::from(center - direction * (length * t)),
                Point::from(center + direction * (length * (1.0 - t))),
            ];
            let half32 = half.map(|x| x as f32);
            let ends32 = ends.map(|p| p.map(|x| x as f32));
            let Some(c) = box_segment((&half32, 0.0f32), (ends32, 0.0f32), 0.05f32) else {
                continue;
            };
            // The same f32 numbers, in f64.
            let half = half32.map(f64::from);
            let ends = ends32.map(|p| p.map(f64::from));
            let exact = box_segment((&half, 0.0), (ends, 0.0), 0.05).expect("apart in f64");
            let n = c.normal.into_inner().map(f64::from).normalize();
            let segment_support = ends
                .iter()
                .map(|p| p.coords.dot(&n))
                .fold(f64::INFINITY, f64::min);
            let box_support = half.dot(&n.abs());
            let scale = half
                .norm()
                .max(ends[0].coords.norm())
                .max(ends[1].coords.norm());
            let error = (segment_support - box_support - exact.dist).abs();
            assert!(error <= 1e-4 * scale * 0.1, "{error:e} at {trial}: {c:?}");
            checked += 1;
        }
        assert!(checked > trials * 9 / 10, "{checked}");
    }

    /// The parameter search against a dense scan of the squared distance, on random segments
    /// around a box: never worse than the best sample.
    #[test]
    fn closest_parameter_is_no_worse_than_a_dense_scan() {
        let mut rng = Pcg64::seed_from_u64(31);
        let half = Vector::new(0.7, 0.3, 0.5);
        let distance2 = |p: &Vector<f64>| {
            (0..3)
                .map(|m| {
                    let e = p[m] - p[m].clamp(-half[m], half[m]);
                    e * e
                })
                .sum::<f64>()
        };
        for _ in 0..2000 {
            let p0 = Vector::from_fn(|_, _| rng.random_range(-2.0..2.0));
            let d = Vector::from_fn(|_, _| rng.random_range(-3.0..3.0));
            let s = closest_parameter(&half, &p0, &d);
            assert!((0.0..=1.0).contains(&s));
            let best = distance2(&(p0 + d * s));
            let scanned = (0..=4000)
                .map(|k| distance2(&(p0 + d * (f64::from(k) / 4000.0))))
                .fold(f64::INFINITY, f64::min);
            assert!(best <= scanned + 1e-12, "{best} > {scanned}");
        }
    }
}
