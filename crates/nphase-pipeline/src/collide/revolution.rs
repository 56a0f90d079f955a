//! Two bodies of revolution — cylinder and cone cores, with radii — whose axes are parallel or
//! meet: the exact contact, where GJK and EPA face a valley of minima.
//!
//! Coincident and nearly coincident cylinders and cones (identical, shifted, or turned about a
//! point of the axis) have a penetration depth attained along a whole circle of normals, or
//! nearly so. EPA then has to refine its polytope all around that circle before its lower bound
//! certifies anything, far beyond its budget. These configurations are solved exactly instead.
//!
//! # Derivation
//! With `D = A − B` (cores, A's frame) the signed core distance is `−min_{|n|=1} F(n)`, where
//! `F(n) = h_A(n) + h_B(−n)` is D's support function. A body of revolution about an axis `a`
//! through a point `p` of it has `h(n) = n·p + g(∠(n, a))`: its support value depends on the
//! angle to the axis only, through its meridian profile (cylinder `g(α) = r sin α + h |cos α|`,
//! cone `g(α) = max(h cos α, r sin α − h cos α)`, both about their centre). On `[0, π]`, `g` is
//! a few sinusoids with non-negative sine coefficients joined at **kinks** (the cylinder's at
//! `π/2`, the cone's where `tan α = 2h/r`), so adding `s cos α` (moving `p` along the axis) gives
//! no interior minimum but at a kink.
//!
//! * **Axes that meet** at a point `p` (`b` is B's axis, `b̃ = −b`): `F(n) = g_A(α) + s_A cos α +
//!   g_B(β) + s_B cos β` with `α = ∠(n, a)`, `β = ∠(n, b̃)` — separable, over the angle pairs
//!   that a unit `n` realises (`|α − β| ≤ γ ≤ α + β ≤ 2π − γ`, `γ = ∠(a, b̃)`). A minimum inside
//!   that region is a kink of both profiles; on its boundary `n` lies in the plane of the two
//!   axes.
//! * **Parallel axes**: for a given angle to the axis, the offset term `−n·c` (`c` B's centre) is
//!   smallest with `n` in the plane through both axes, so the minimum lies in that plane.
//!
//! In the plane (a great circle `n(ω) = cos ω e1 + sin ω e2` through the axes) each shape's
//! support point is fixed between breakpoints (the axis directions, their perpendiculars, the
//! kinks), so `F(ω) = w·n(ω)` piece by piece for a fixed point `w` of `D`: a sinusoid, concave
//! where positive. The minimum over the circle is at a breakpoint, or — where a piece is
//! negative (the cores apart) — at the piece's own minimum, along `−w`. `F` is evaluated exactly
//! (with the shapes' support functions) at this finite set of directions and at the inner kink
//! pairs; the smallest value is the depth.
//!
//! # Where it applies, and its certificate
//! The axes must be parallel (`sin∠(a, b) · |B| ≤ ε`) or meet (their distance `≤ ε`) within
//! `ε` = the accuracy of the pair ([`Tolerances::length`] of [`Tolerances::accuracy`]); B moved
//! by at most that makes the configuration exact, which changes every support value by at most
//! `ε`. The depth found is realised by its normal (a certified bound) and is within `2ε` of the
//! exact one on the other side: the contact's bounds say so. Elsewhere (skew axes, the general
//! case) the caller runs GJK and EPA.
//!
//! [`Tolerances::length`]: nphase_math::Tolerances::length
//! [`Tolerances::accuracy`]: nphase_math::Tolerances::accuracy

use arrayvec::ArrayVec;
use nphase_gjk::MinkowskiDifference;
use nphase_math::{Isometry, Point, Real, UnitVector, Vector};
use nphase_shapes::{Core, SupportMap, VertexId};
use num_traits::Float;

use super::LocalContact;

/// The contact of two cylinder or cone cores (`(core, radius)` each; A at the origin, B at
/// `pos12`) whose axes are parallel or meet (see the module doc): `Some(contact)` — `None`
/// inside when beyond `prediction` — or `None` when the configuration is not one of these.
pub(crate) fn revolution_contact<T: Real>(
    (core1, radius1): (&Core<'_, T>, T),
    (core2, radius2): (&Core<'_, T>, T),
    pos12: &Isometry<T>,
    prediction: T,
) -> Option<Option<LocalContact<T>>> {
    let (profile1, profile2) = (Profile::of(core1)?, Profile::of(core2)?);
    let a = Vector::y();
    let b = pos12.rotation * Vector::y();
    let c = pos12.translation.vector;
    let (extent1, extent2) = (profile1.extent(), profile2.extent());
    let small = Float::min(extent1 + radius1, extent2 + radius2);
    let size = c.norm() + extent1 + extent2;
    let eps = T::TOLERANCES.length(T::TOLERANCES.accuracy, small, size);
    let cross = a.cross(&b);
    let sin_ab = cross.norm();
    // The plane of the axes, B's reversed axis direction in the configuration made exact, and
    // how far from exact the real one is.
    let meeting = sin_ab * extent2 > eps;
    let (e2, b_rev, residual) = if !meeting {
        // Parallel: the plane through A's axis and B's centre (any plane when coaxial).
        let lateral = c - a * a.dot(&c);
        let e2 = nphase_math::normalize_robust(&lateral)
            .unwrap_or_else(|| nphase_math::any_unit_perpendicular(&a));
        let b_rev = if a.dot(&b) >= T::zero() { -a } else { a };
        (e2.into_inner(), b_rev, sin_ab * extent2)
    } else {
        // Meeting: the axes' distance is |c · (a × b)| / |a × b|.
        let skew = Float::abs(c.dot(&cross)) / sin_ab;
        if !(skew <= eps) {
            return None;
        }
        let e2 = nphase_math::normalize_robust(&(b - a * a.dot(&b)))?;
        (e2.into_inner(), -b, skew)
    };
    let md = MinkowskiDifference::new(core1, core2, pos12);
    let support = |n: &Vector<T>| md.support(n, VertexId::NONE, VertexId::NONE);
    let frame = Circle { e1: a, e2 };

    // Breakpoints on the circle, then the pieces' own minima (where a piece is negative).
    let mut breakpoints: ArrayVec<T, 12> = ArrayVec::new();
    for (axis, profile) in [(a, &profile1), (b_rev, &profile2)] {
        let at = frame.angle_of(&axis);
        let pi = T::pi();
        let half_pi = pi / T::lit(2.0);
        for offset in [T::zero(), pi, half_pi, -half_pi] {
            breakpoints.push(wrap(at + offset));
        }
        let kink = profile.kink();
        breakpoints.push(wrap(at + kink));
        breakpoints.push(wrap(at - kink));
    }
    breakpoints.sort_unstable_by(|x, y| x.partial_cmp(y).unwrap_or(core::cmp::Ordering::Equal));
    // Coinciding breakpoints (a cylinder's kink is its perpendicular; equal profiles) are one.
    let resolution = T::lit(8.0) * T::TOLERANCES.epsilon;
    let mut kept = 0;
    for k in 0..breakpoints.len() {
        if kept == 0 || breakpoints[k] - breakpoints[kept - 1] > resolution {
            breakpoints[kept] = breakpoints[k];
            kept += 1;
        }
    }
    breakpoints.truncate(kept);
    if kept > 1 && breakpoints[0] + T::two_pi() - breakpoints[kept - 1] <= resolution {
        breakpoints.pop();
    }
    let mut candidates: ArrayVec<(Vector<T>, Option<usize>), 28> = ArrayVec::new();
    let count = breakpoints.len();
    for k in 0..count {
        candidates.push((frame.at(breakpoints[k]), Some(k)));
        let (from, to) = piece(&breakpoints, k);
        if to > from {
            let w = support(&frame.at((from + to) / T::lit(2.0))).w;
            let lowest = wrap(frame.angle_of(&-w));
            let lowest = if lowest < from {
                lowest + T::two_pi()
            } else {
                lowest
            };
            if lowest > from && lowest < to {
                candidates.push((frame.at(lowest), None));
            }
        }
    }
    // Inner kink pairs, where the axes meet at an angle.
    if meeting {
        for n in inner_kink_directions(&a, &b_rev, profile1.kink(), profile2.kink()) {
            candidates.push((n, None));
        }
    }

    let mut best: Option<(T, Vector<T>, Option<usize>)> = None;
    for (n, breakpoint) in candidates {
        let value = support(&n).w.dot(&n);
        if best.as_ref().is_none_or(|(v, _, _)| value < *v) {
            best = Some((value, n, breakpoint));
        }
    }
    let (depth, n, breakpoint) = best?;
    let dist = -depth - radius1 - radius2;
    if dist > prediction {
        return Some(None);
    }
    let (core_point1, core_point2) = match breakpoint {
        Some(k) => {
            let middle = |(from, to): (T, T)| frame.at((from + to) / T::lit(2.0));
            let mid_left = middle(piece(&breakpoints, (k + count - 1) % count));
            let mid_right = middle(piece(&breakpoints, k));
            let (l, r) = (support(&mid_left), support(&mid_right));
            matched_pair(&n, (l.a, r.a), (l.b, r.b))
        }
        None => {
            // Off the plane (an inner kink pair), or inside a piece: each shape's support set is
            // the segment between its supports on either side of its own kink, found by tilting
            // the direction toward and away from its axis (which keeps the azimuth, hence the
            // rim points): a cylinder's side line, a cone's slant line, or a single point.
            let tilt = T::lit(1e-3);
            let b = pos12.rotation * Vector::y();
            let support1 = |d: &Vector<T>| core1.local_support_point(d);
            let support2 = |d: &Vector<T>| {
                pos12 * core2.local_support_point(&pos12.rotation.inverse_transform_vector(d))
            };
            matched_pair(
                &n,
                (support1(&(n + a * tilt)), support1(&(n - a * tilt))),
                (support2(&(-n + b * tilt)), support2(&(-n - b * tilt))),
            )
        }
    };
    let rounding = T::TOLERANCES.rounding * size;
    Some(Some(LocalContact {
        point1: core_point1 + n * radius1,
        point2: core_point2 - n * radius2,
        normal: UnitVector::new_unchecked(n),
        dist,
        // The normal realises the depth (a certified bound); making the configuration exact
        // moves every support value by at most the residual, the minimum by at most twice it.
        lower_bound: dist - rounding,
        upper_bound: dist + residual + residual + rounding,
        quality: super::ContactQuality::Converged,
    }))
}

/// A meridian profile: which body of revolution, and its half-height and radius.
#[derive(Clone, Copy, Debug)]
enum Profile<T> {
    Cylinder { half_height: T, radius: T },
    Cone { half_height: T, radius: T },
}

impl<T: Real> Profile<T> {
    fn of(core: &Core<'_, T>) -> Option<Self> {
        match core {
            Core::Cylinder(c) => Some(Profile::Cylinder {
                half_height: c.half_height(),
                radius: c.radius(),
            }),
            Core::Cone(c) => Some(Profile::Cone {
                half_height: c.half_height(),
                radius: c.radius(),
            }),
            _ => None,
        }
    }

    /// The angle from the axis (+y) at which the profile has its kink: `π/2` for the cylinder
    /// (top rim against bottom rim), `atan(2h/r)` for the cone (apex against rim).
    fn kink(&self) -> T {
        match *self {
            Profile::Cylinder { .. } => T::pi() / T::lit(2.0),
            Profile::Cone {
                half_height,
                radius,
            } => Float::atan2(half_height + half_height, radius),
        }
    }

    /// The distance from the centre to the farthest point.
    fn extent(&self) -> T {
        match *self {
            Profile::Cylinder {
                half_height,
                radius,
            }
            | Profile::Cone {
                half_height,
                radius,
            } => Float::hypot(half_height, radius),
        }
    }
}

/// A great circle of directions, `n(ω) = cos ω · e1 + sin ω · e2`.
struct Circle<T: Real> {
    e1: Vector<T>,
    e2: Vector<T>,
}

impl<T: Real> Circle<T> {
    fn at(&self, omega: T) -> Vector<T> {
        let (s, c) = Float::sin_cos(omega);
        self.e1 * c + self.e2 * s
    }

    /// The angle of `v`'s projection onto the circle's plane.
    fn angle_of(&self, v: &Vector<T>) -> T {
        Float::atan2(v.dot(&self.e2), v.dot(&self.e1))
    }
}

/// `omega` in `[0, 2π)`.
fn wrap<T: Real>(omega: T) -> T {
    let two_pi = T::two_pi();
    let w = omega % two_pi;
    if w < T::zero() { w + two_pi } else { w }
}

/// The piece from breakpoint `k` to the next one (across 2π after the last), as `(from, to)`
/// with `to ≥ from`.
fn piece<T: Real>(breakpoints: &[T], k: usize) -> (T, T) {
    let from = breakpoints[k];
    let to = match breakpoints.get(k + 1) {
        Some(&next) => next,
        None => breakpoints[0] + T::two_pi(),
    };
    (from, to)
}

/// The unit directions `n` with `∠(n, a) = α` and `∠(n, b̃) = β` (both mirror images), for the
/// two profiles' kinks; none when no unit direction has these angles.
///
/// In the orthonormal directions `û ∝ a + b̃`, `v̂ ∝ a − b̃` the conditions `n·a = cos α`,
/// `n·b̃ = cos β` read `n·û = (cos α + cos β)/|a + b̃|` and `n·v̂ = (cos α − cos β)/|a − b̃|`,
/// written with sums-to-products so that nearly parallel axes (a tiny `|a ± b̃|`) lose nothing
/// to cancellation; the rest of `n` is along `û × v̂`.
fn inner_kink_directions<T: Real>(
    a: &Vector<T>,
    b_rev: &Vector<T>,
    alpha: T,
    beta: T,
) -> ArrayVec<Vector<T>, 2> {
    let mut out = ArrayVec::new();
    let (sum, difference) = (a + b_rev, a - b_rev);
    let (sum_norm, difference_norm) = (sum.norm(), difference.norm());
    if !(sum_norm > T::zero()) || !(difference_norm > T::zero()) {
        return out;
    }
    let half = T::lit(0.5);
    let (mean, spread) = ((alpha + beta) * half, (alpha - beta) * half);
    let two = T::lit(2.0);
    let along_sum = two * Float::cos(mean) * Float::cos(spread) / sum_norm;
    let along_difference = -two * Float::sin(mean) * Float::sin(spread) / difference_norm;
    let rest = T::one() - along_sum * along_sum - along_difference * along_difference;
    if !(rest >= T::zero()) {
        return out;
    }
    let (u, v) = (sum / sum_norm, difference / difference_norm);
    let in_plane = u * along_sum + v * along_difference;
    let across = u.cross(&v) * Float::sqrt(rest);
    for n in [in_plane + across, in_plane - across] {
        if let Some(n) = nphase_math::normalize_robust(&n) {
            out.push(n.into_inner());
        }
    }
    out
}

/// The witness pair of a normal: A's support set along `n` is (contains) the segment `a0 a1`,
/// B's along `−n` the segment `b0 b1`; the pair is the closest pair of points of the two
/// segments seen along `n` (projected onto the plane across it) — where the projections cross,
/// a pair exactly `dist · n` apart. Parallel projections (side lines, caps) give the middle of
/// their overlap.
fn matched_pair<T: Real>(
    n: &Vector<T>,
    (a0, a1): (Point<T>, Point<T>),
    (b0, b1): (Point<T>, Point<T>),
) -> (Point<T>, Point<T>) {
    let across = |v: Vector<T>| v - n * v.dot(n);
    let (da, db) = (across(a1 - a0), across(b1 - b0));
    let r = across(a0 - b0);
    let (aa, bb, ab) = (da.norm_squared(), db.norm_squared(), da.dot(&db));
    let (ar, br) = (da.dot(&r), db.dot(&r));
    let clamp = |x: T| Float::min(Float::max(x, T::zero()), T::one());
    let scale = Float::max(aa, bb);
    let denominator = aa * bb - ab * ab;
    let (s, u) = if !(scale > T::zero()) {
        (T::zero(), T::zero())
    } else if denominator > T::lit(64.0) * T::TOLERANCES.epsilon * aa * bb {
        // Ericson 5.1.9, closest points of two segments (here in the plane across `n`).
        let s = clamp((ab * br - bb * ar) / denominator);
        let u = (ab * s + br) / bb;
        if u < T::zero() {
            (clamp(-ar / aa), T::zero())
        } else if u > T::one() {
            (clamp((ab - ar) / aa), T::one())
        } else {
            (s, u)
        }
    } else {
        // Parallel: the middle of the overlap along the longer one's direction.
        let t = if aa >= bb { da } else { db } / Float::sqrt(scale);
        let interval = |p: &Point<T>, q: &Point<T>| {
            let (x, y) = (p.coords.dot(&t), q.coords.dot(&t));
            (Float::min(x, y), Float::max(x, y))
        };
        let (lo_a, hi_a) = interval(&a0, &a1);
        let (lo_b, hi_b) = interval(&b0, &b1);
        let target = (Float::max(lo_a, lo_b) + Float::min(hi_a, hi_b)) * T::lit(0.5);
        let at = |p: &Point<T>, q: &Point<T>| {
            let (x, y) = (p.coords.dot(&t), q.coords.dot(&t));
            if Float::abs(y - x) > T::zero() {
                clamp((target - x) / (y - x))
            } else {
                T::zero()
            }
        };
        (at(&a0, &a1), at(&b0, &b1))
    };
    (a0 + (a1 - a0) * s, b0 + (b1 - b0) * u)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collide::convex_gjk::{convex_contact, shape_size};
    use crate::{ContactQuality, PairWorkspace};
    use nphase_gjk::{GjkInput, SimplexCache};
    use nphase_math::Rotation;
    use nphase_shapes::{Cone, Cylinder, Shape, SupportMap};
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg64;

    fn random_shape(rng: &mut Pcg64) -> Shape<f64> {
        let (h, r) = (rng.random_range(0.1..1.0), rng.random_range(0.1..1.0));
        let core = if rng.random_bool(0.5) {
            Shape::Cylinder(Cylinder::new(h, r).expect("valid"))
        } else {
            Shape::Cone(Cone::new(h, r).expect("valid"))
        };
        if rng.random_bool(0.25) {
            Shape::round(core, rng.random_range(0.01..0.2)).expect("valid")
        } else {
            core
        }
    }

    /// Cylinder and cone pairs (rounded a quarter of the time) with parallel axes (both
    /// orientations, random lateral and axial offsets) or meeting axes (random angles of
    /// 0.2–2.9 rad, meeting at random points of both axes), separated and overlapping: the exact
    /// solution agrees with GJK/EPA where those converge (within docs/accuracy.md's curved
    /// tolerance, 1e-7 × scale), its normal realises its distance (the support gap along it,
    /// to 1e-12 of the scale), its witness pair is `dist · normal` apart on the support planes,
    /// and its bounds bracket the reference.
    #[test]
    fn parallel_and_meeting_axes_match_gjk_and_epa() {
        let mut rng = Pcg64::seed_from_u64(14);
        let mut workspace = PairWorkspace::new();
        let (mut compared, mut overlapping, trials) = (0, 0, 3000);
        for trial in 0..trials {
            let (a, b) = (random_shape(&mut rng), random_shape(&mut rng));
            let pos12 = if trial % 2 == 0 {
                let flip = if rng.random_bool(0.5) {
                    0.0
                } else {
                    core::f64::consts::PI
                };
                let spin = rng.random_range(0.0..6.3);
                let rotation = Rotation::from_euler_angles(flip, spin, 0.0);
                let (angle, radial) = (rng.random_range(0.0..6.3), rng.random_range(0.0..2.5));
                let t = Vector::new(
                    radial * f64::cos(angle),
                    rng.random_range(-2.0..2.0),
                    radial * f64::sin(angle),
                );
                Isometry::from_parts(t.into(), rotation)
            } else {
                let tilt = rng.random_range(0.2..2.9);
                let heading = rng.random_range(0.0..6.3);
                let axis = UnitVector::new_normalize(Vector::new(
                    f64::cos(heading),
                    0.0,
                    f64::sin(heading),
                ));
                let rotation = Rotation::from_axis_angle(&axis, tilt)
                    * Rotation::from_euler_angles(0.0, rng.random_range(0.0..6.3), 0.0);
                // B's axis passes through the point `meet` of A's axis, `along` from B's centre.
                let meet = Vector::y() * rng.random_range(-1.0..1.0);
                let along = rng.random_range(-1.0..1.0);
                let t = meet - rotation * Vector::y() * along;
                Isometry::from_parts(t.into(), rotation)
            };
            let ((core1, radius1), (core2, radius2)) = (a.core(), b.core());
            let scale = shape_size(&core1, radius1).max(shape_size(&core2, radius2)) * 3f64.sqrt();
            let exact =
                revolution_contact((&core1, radius1), (&core2, radius2), &pos12, f64::INFINITY)
                    .expect("parallel or meeting axes")
                    .expect("within an infinite prediction");
            let n = exact.normal.into_inner();
            let gap = -a.local_support_point(&n).coords.dot(&n)
                - b.support_point(&pos12, &-n).coords.dot(&-n);
            assert!(
                (gap - exact.dist).abs() <= 1e-12 * scale,
                "gap {gap} vs {}",
                exact.dist
            );
            let mismatch = ((exact.point2 - exact.point1) - n * exact.dist).norm();
            assert!(
                mismatch <= 1e-9 * scale,
                "trial {trial}: witnesses off dist·n by {mismatch:e}: {a:?} {b:?} {pos12:?} {exact:?}"
            );
            let on1 = a.local_support_point(&n).coords.dot(&n) - exact.point1.coords.dot(&n);
            let on2 = b.support_point(&pos12, &-n).coords.dot(&n) - exact.point2.coords.dot(&n);
            assert!(
                on1.abs().max(on2.abs()) <= 1e-12 * scale,
                "witnesses off the planes"
            );
            overlapping += usize::from(exact.dist < 0.0);

            let input = GjkInput::new(&core1, &core2, pos12)
                .with_radii(radius1, radius2)
                .with_shape_sizes(shape_size(&core1, radius1), shape_size(&core2, radius2));
            let reference = convex_contact(
                &input,
                &mut SimplexCache::EMPTY.clone(),
                None,
                &mut workspace.epa,
                &mut workspace.feature,
            );
            let Some(r) = reference
                .contact
                .filter(|c| c.quality == ContactQuality::Converged)
            else {
                continue;
            };
            compared += 1;
            let tol = 1e-7 * scale;
            assert!(
                (r.dist - exact.dist).abs() <= tol,
                "trial {trial}: exact {} vs GJK/EPA {} ({pos12:?})",
                exact.dist,
                r.dist
            );
            assert!(
                exact.lower_bound <= r.upper_bound + tol
                    && r.lower_bound <= exact.upper_bound + tol
            );
        }
        // Representative: most pairs compared, overlapping and apart alike.
        assert!(
            compared > trials * 9 / 10,
            "{compared} of {trials} compared"
        );
        assert!(
            overlapping > trials / 5 && overlapping < trials * 4 / 5,
            "{overlapping}"
        );
    }
}
