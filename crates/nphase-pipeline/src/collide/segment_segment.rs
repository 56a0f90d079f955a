//! Two segment cores, exactly: capsule–capsule, capsule–segment and segment–segment.
//!
//! # Closest points
//! With `p1(s) = a1 + s·d1`, `p2(t) = a2 + t·d2` (`s, t ∈ [0, 1]`, A's frame), `r = a1 − a2`,
//! `A = d1·d1`, `B = d1·d2`, `E = d2·d2`, `C = d1·r` and `F = d2·r`, `|p1 − p2|²` is a convex
//! quadratic in `(s, t)`. For a fixed `s` its best `t` is `(B·s + F)/E`, for a fixed `t` its
//! best `s` is `(B·t − C)/A`; the lines' closest points (crossing both equations with
//! `n = d1 × d2`, `D = n·n`, which is accurate where `A·E − B²` cancels) are at
//!
//! ```text
//! s* = ((a2 − a1) × d2)·n / D,   t* = ((a2 − a1) × d1)·n / D.
//! ```
//!
//! The minimum over the square (Ericson, *Real-Time Collision Detection*, §5.1.9): `s*`
//! clamped to [0, 1], its best `t`; where that leaves [0, 1], `t` clamped and its best `s`,
//! clamped. An error `δs` in `s*` (it is rounding over `sin θ`, `θ` the segments' angle) moves
//! the distance by about `δs·|d1|·sin θ` — rounding again, at every angle. Parallel segments
//! (`|n| ≤ 8ε·|d1||d2|`, where `n` itself is rounding) start instead from the middle of the
//! part of segment 1 that faces segment 2 (exactly parallel, every point of it is a closest
//! point; within that angle, off by at most `8ε·|d1|`), or its end nearer segment 2.
//!
//! # Normal
//! `d = p2 − p1` carries the rounding of the points, `~ε·size`, so its direction is right to
//! `ε·size/|d|`. Where both points are inside their segments `d` is along `n`, whose direction
//! is right to `ε/sin θ` (`θ` the angle of the segments): the more accurate of the two is used,
//! oriented along `d`, with the core distance `d·n̂`. Where `d` is used and a point is inside
//! its segment, `d` is across that segment and its part along it — rounding, and the whole of
//! the error for parallel segments a small gap apart — is removed first. Cores closer than
//! GJK's touch tolerance (crossing, or nearly: `d`'s direction, even its side, is then
//! rounding) are left to the general path (GJK, EPA), as GJK would hand them to EPA.

use nphase_math::{Isometry, Real, UnitVector};
use nphase_shapes::Segment;
use num_traits::Float;

use super::LocalContact;

/// The contact of segment core `seg1` grown by `radius1` (A, at the origin) and `seg2` grown
/// by `radius2` (B, at `pos12`), in A's frame, exactly; `None` where the cores touch within
/// GJK's touch tolerance of `small` (the smaller shape's size; see the module doc).
pub(crate) fn segment_segment<T: Real>(
    (seg1, radius1): (&Segment<T>, T),
    (seg2, radius2): (&Segment<T>, T),
    pos12: &Isometry<T>,
    small: T,
) -> Option<LocalContact<T>> {
    let (a1, b1) = (seg1.a(), seg1.b());
    let (a2, b2) = (pos12 * seg2.a(), pos12 * seg2.b());
    let (d1, d2, r) = (b1 - a1, b2 - a2, a1 - a2);
    let (a, b, e) = (d1.norm_squared(), d1.dot(&d2), d2.norm_squared());
    let (c, f) = (d1.dot(&r), d2.dot(&r));
    let clamp = |x: T| Float::min(Float::max(x, T::zero()), T::one());
    let n = d1.cross(&d2);
    let denominator = n.norm_squared();
    let eight_eps = T::lit(8.0) * T::TOLERANCES.epsilon;
    let parallel = !(denominator > eight_eps * eight_eps * a * e);

    let (s, t) = if !(a > T::zero()) {
        (
            T::zero(),
            if e > T::zero() {
                clamp(f / e)
            } else {
                T::zero()
            },
        )
    } else if !(e > T::zero()) {
        (clamp(-c / a), T::zero())
    } else {
        let start = if parallel {
            // Segment 2's ends projected onto segment 1's parameter.
            let (ends_a, ends_b) = (-c / a, (b - c) / a);
            let low = Float::max(Float::min(ends_a, ends_b), T::zero());
            let high = Float::min(Float::max(ends_a, ends_b), T::one());
            clamp((low + high) * T::lit(0.5))
        } else {
            clamp((-r).cross(&d2).dot(&n) / denominator)
        };
        let t = (b * start + f) / e;
        if t < T::zero() {
            (clamp(-c / a), T::zero())
        } else if t > T::one() {
            (clamp((b - c) / a), T::one())
        } else {
            (start, t)
        }
    };
    let (p1, p2) = (a1 + d1 * s, a2 + d2 * t);
    let d = p2 - p1;
    let d2_len = d.norm_squared();

    let size2 = [a1, b1, a2, b2]
        .iter()
        .fold(T::zero(), |m, p| Float::max(m, p.coords.norm_squared()));
    let touch = T::TOLERANCES.length(T::TOLERANCES.gjk_touch, small, Float::sqrt(size2));
    if !(d2_len > touch * touch) {
        return None;
    }
    let inside_1 = s > T::zero() && s < T::one();
    let inside_2 = t > T::zero() && t < T::one();
    let inside = inside_1 && inside_2;
    // The cross product's error `ε/sin θ` against `d`'s `ε·size/|d|`, compared squared.
    let (normal, core_distance) = if inside && !parallel && d2_len * a * e < size2 * denominator {
        let unit = n / Float::sqrt(denominator);
        let unit = if unit.dot(&d) < T::zero() {
            -unit
        } else {
            unit
        };
        (UnitVector::new_unchecked(unit), unit.dot(&d))
    } else {
        // A point inside its segment is the foot of the other: `d` is across that segment,
        // and its rounding along it (all of `d`'s error, for parallel segments) is removed.
        let across = if inside_2 {
            d - d2 * (d.dot(&d2) / e)
        } else if inside_1 {
            d - d1 * (d.dot(&d1) / a)
        } else {
            d
        };
        match nphase_math::normalize_robust(&across) {
            Some(unit) => (unit, unit.dot(&d)),
            None => {
                let length = Float::sqrt(d2_len);
                (UnitVector::new_unchecked(d / length), length)
            }
        }
    };
    Some(LocalContact::exact(p1, p2, normal, core_distance).grown_by(radius1, radius2))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::PairWorkspace;
    use crate::collide::test_poses::{check_both_orders, random_turn, tiny_tilt};
    use nphase_math::{Point, Rotation, Vector};
    use nphase_shapes::{Capsule, Shape};
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg64;

    fn capsule(half_height: f64, radius: f64) -> Shape<f64> {
        Shape::Capsule(Capsule::new(half_height, radius).expect("valid"))
    }

    /// Capsules and segments at random poses — a third turned parallel to within 1e-16 rad
    /// to 1e-2 rad, a tenth of those exactly — crossing, side by side and end to end: the
    /// closed form answers where the cores are apart beyond the touch tolerance, and agrees
    /// with GJK/EPA; its normal and witnesses are exact (`test_poses::assert_exact_contact`). The pair
    /// is queried in both orders.
    #[test]
    fn segment_segment_closed_form_matches_gjk_and_epa() {
        let mut rng = Pcg64::seed_from_u64(13);
        let mut workspace = PairWorkspace::new();
        let (mut closed, mut parallel, trials) = (0, 0, 3000);
        for trial in 0..trials {
            let mut shape = |k: usize| {
                if (trial + k).is_multiple_of(5) {
                    let mut p = || Point::from(Vector::from_fn(|_, _| rng.random_range(-1.0..1.0)));
                    Shape::Segment(Segment::new(p(), p()).expect("valid"))
                } else {
                    capsule(rng.random_range(0.0..1.0), rng.random_range(0.02..0.5))
                }
            };
            let (shape1, shape2) = (shape(0), shape(1));
            let rotation = if trial % 3 == 0 {
                parallel += 1;
                let tilt = tiny_tilt(trial, &mut rng);
                let flip = if trial % 2 == 0 {
                    0.0
                } else {
                    core::f64::consts::PI
                };
                Rotation::from_scaled_axis(Vector::new(tilt, 0.0, flip))
            } else {
                random_turn(&mut rng)
            };
            let offset = Vector::from_fn(|_, _| rng.random_range(-1.5..1.5));
            let pos12 = Isometry::from_parts(offset.into(), rotation);
            let scale = offset.norm() + 4.0;
            let tol = (1e-12 * scale, 1e-12 * scale);
            closed += check_both_orders(&shape1, &shape2, &pos12, tol, &mut workspace);
        }
        assert!(parallel > trials / 4, "{parallel}");
        assert!(closed > trials * 2 * 9 / 10, "{closed} of {}", trials * 2);
    }

    /// Analytic cases in both precisions: crossed at a distance, side by side (overlapping and
    /// not), end to end along one line, and crossing (left to the general path).
    fn analytic<T: Real>() {
        let lit = |x: f64| T::lit(x);
        let seg = |h: f64| Capsule::new(lit(h), lit(0.0)).expect("valid").segment();
        let tol = lit(1e-6);
        let turn_z = Rotation::from_scaled_axis(Vector::new(
            lit(0.0),
            lit(0.0),
            lit(core::f64::consts::FRAC_PI_2),
        ));
        let turn_x = Rotation::from_scaled_axis(Vector::new(
            lit(core::f64::consts::FRAC_PI_2),
            lit(0.0),
            lit(0.0),
        ));
        let cases = [
            // Crossed, 0.5 apart along z: the normal is z.
            (
                Isometry::from_parts(Vector::new(lit(0.0), lit(0.0), lit(0.5)).into(), turn_z),
                lit(0.5),
                [0.0, 0.0, 1.0],
            ),
            // Side by side, 0.3 apart along x, overlapping halves.
            (
                Isometry::translation(lit(0.3), lit(0.4), lit(0.0)),
                lit(0.3),
                [1.0, 0.0, 0.0],
            ),
            // End to end along y, 0.25 apart.
            (
                Isometry::translation(lit(0.0), lit(2.25), lit(0.0)),
                lit(0.25),
                [0.0, 1.0, 0.0],
            ),
            // Segment 2 along z beyond segment 1's top end.
            (
                Isometry::from_parts(Vector::new(lit(0.0), lit(1.5), lit(0.3)).into(), turn_x),
                lit(0.5),
                [0.0, 1.0, 0.0],
            ),
        ];
        for (pose, core, normal) in cases {
            let c = segment_segment(
                (&seg(1.0), lit(0.1)),
                (&seg(1.0), lit(0.2)),
                &pose,
                lit(1.0),
            )
            .expect("apart");
            assert!(Float::abs(c.dist - (core - lit(0.3))) <= tol, "{c:?}");
            let expected = Vector::new(lit(normal[0]), lit(normal[1]), lit(normal[2]));
            assert!((c.normal.into_inner() - expected).norm() <= tol, "{c:?}");
        }
        let crossing =
            Isometry::from_parts(Vector::new(lit(0.0), lit(0.2), lit(0.0)).into(), turn_x);
        assert!(
            segment_segment(
                (&seg(1.0), lit(0.1)),
                (&seg(1.0), lit(0.2)),
                &crossing,
                lit(1.0)
            )
            .is_none()
        );
    }

    #[test]
    fn analytic_cases_f32() {
        analytic::<f32>();
    }

    #[test]
    fn analytic_cases_f64() {
        analytic::<f64>();
    }
}
