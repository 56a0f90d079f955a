//! A small shape sunk into a large cylinder's side: the normal as the azimuth of the deepest
//! point, exact to a few ε where EPA's is not.
//!
//! A support point of a cylinder of radius `R`, brought into the frame of a shape of size
//! `s ≪ R` sunk into its side, carries a rounding of `~R ε`; EPA's faces through such points,
//! `s` apart, tilt by `~R ε / s`. In f32 that is 3e-4 rad for a 0.43 cone sunk 0.36 into a
//! cylinder of radius 703 (the oracle's `disparity_s71` pair 884; pair 851 a 0.3 hull in a
//! cylinder of radius 286), and the support gap along that normal falls short of the depth by
//! 1.1–1.4 × docs/accuracy.md's small-on-large tolerance.
//!
//! # Derivation
//! In the cylinder's frame (axis y) the normal of a shape `S` sunk into the side, from the
//! cylinder toward `S`, is a horizontal direction `r(φ) = (cos φ, 0, sin φ)`, and the support
//! gap along it is `f(φ) − R`, with `f(φ) = min over s ∈ S of s · r(φ)` (how far in `S` reaches
//! along `r(φ)`); the largest gap over horizontal directions is the side's contact, where the
//! point that reaches furthest in lies within the side's height. Each
//! `s · r(φ) = ρ_s cos(φ − φ_s)` (`ρ_s`, `φ_s` the point's distance from the axis and azimuth)
//! is concave within a quarter turn of its peak, so `f`, their minimum, is concave across `S`'s
//! azimuthal extent, and its slope at `φ` is `ρ sin(φ_* − φ)` for the point `s_*` that reaches
//! furthest in (`S`'s support along `−r(φ)`): `f` increases toward the azimuth of `s_*`.
//! Bisection on the side of `s_*` converges to the maximiser — where one point reaches furthest
//! in, its azimuth; where two do (an edge or a face of `S` level along the normal), the kink
//! between them — from a bracket about the azimuth of the centre of `S`'s bounding box,
//! `±2 e / ρ` (`e` the box's half-diagonal, `ρ` its centre's distance from the axis): every
//! point of `S` lies within about `±e / ρ` of it; EPA's azimuth may not. The sign is read from
//! coordinates in the cylinder's frame, relative to themselves: the azimuth is exact to a few
//! ε, whatever `R`.
//!
//! # When it answers
//! For a size ratio of [`SMALL_ON_LARGE_RATIO`] or more (where EPA's tilt can matter and the
//! bracket is narrow), where EPA's normal is horizontal in the cylinder's frame within
//! [`FLAT_FEATURE_ANGLE`], where the small core's bounding box lies at least four times its
//! half-diagonal from the axis, where the deepest point lies within the side's height (above a
//! cap a rim or the cap touches), and in a precision whose promise has a floor of a few roundings
//! of the large shape's size (f32; f64's floor is 1 350 ε, far above EPA's tilt). The
//! direction is a candidate for [`snap_to_face_normal`](super::convex_gjk): taken only when the
//! support gap along it certifies a larger signed distance than EPA's normal does. The small
//! core's deepest point along it (on its surface) is then its witness, and the cylinder's
//! lies the distance along the normal from it — at the normal's azimuth, within the side's
//! height: on the side.

use nphase_math::{Point, Real, SMALL_ON_LARGE_RATIO, UnitVector, Vector};
use nphase_shapes::{Core, FLAT_FEATURE_ANGLE, SupportMap};
use num_traits::Float;

use super::LocalContact;
use super::convex_gjk::{CoreInput, support_gap};

/// Bisection steps at most: from the bracket (at most 1 rad wide) to a few ε in f32.
const MAX_STEPS: usize = 32;

/// The side's normal is sought where the promise's floor relative to the cylinder's size is
/// within this many roundings (f32: 1.3 ε; f64's is 1 350 ε, far above EPA's tilt `R ε / s`
/// at any ratio of sizes the input range allows).
const ROUNDINGS: f64 = 16.0;

/// A small core against a large cylinder core's side (module doc), in A's frame.
#[derive(Clone, Copy, Debug)]
pub(super) struct Side<T: Real> {
    /// The normal, from A toward B (unit up to rounding).
    pub normal: Vector<T>,
    /// The small core's point that reaches furthest in along it, at the normal's azimuth: a
    /// support point, or, where two tie (an edge or a face level along the normal), the point
    /// between them at that azimuth.
    pub small_point: Point<T>,
    /// Whether the cylinder is A (the small core is B).
    pub cylinder_is_a: bool,
    /// The signed distance of `small_point` from the cylinder core, in closed form (the point
    /// is within the side's height): `ρ − R` in the cylinder's frame where it lies outside,
    /// `max(ρ − R, |y| − h)` (minus the depth to the nearer of side and cap) where inside.
    pub outside: T,
}

impl<T: Real> Side<T> {
    /// The witness pair along the unit normal `u` (this side's) for the signed distance `g` and
    /// the shapes' radii: the small core's deepest point, moved out by its radius, is the small
    /// shape's witness, and the cylinder's lies `g` along `u` from it.
    pub(super) fn witnesses(
        &self,
        u: &Vector<T>,
        g: T,
        (radius1, radius2): (T, T),
    ) -> (Point<T>, Point<T>) {
        if self.cylinder_is_a {
            let point2 = self.small_point - u * radius2;
            (point2 - u * g, point2)
        } else {
            let point1 = self.small_point + u * radius1;
            (point1, point1 + u * g)
        }
    }
}

/// A contact given the side's normal and witnesses where that certifies a larger signed
/// distance than its normal does: GJK's answer on cores apart, or its estimate where it stalled
/// (`disparity_s72` pair 938, f32: a round triangle whose core is 0.015 from a cylinder of
/// radius 142; GJK's normal, from coordinates rounded to `R ε`, was 1.7e-4 rad off and its
/// witness pair 1.4e-4 off `dist · n`). Taken where the support gap along the side's normal
/// (a lower bound on the signed distance) is at least that along the contact's, up to the
/// promise; the small core's deepest point's signed distance from the cylinder core
/// ([`Side::outside`], radii subtracted) is an upper bound: the contact's bounds narrow to
/// them, and its distance is the lower one.
pub(super) fn settle_separated<T: Real>(input: &CoreInput<'_, T>, contact: &mut LocalContact<T>) {
    let n = contact.normal.into_inner();
    let Some(side) = side_normal(input, &n) else {
        return;
    };
    if !(side.normal.dot(&n) > Float::cos(T::lit(FLAT_FEATURE_ANGLE))) {
        return;
    }
    // Both support gaps carry the rounding of the cylinder's coordinates (`R ε`, 3e-5 at
    // R = 286 in f32); where they agree within docs/accuracy.md's promise both normals are
    // right, and the side's witnesses are the consistent ones.
    let size = input.large_scale() + input.pos12.translation.vector.norm();
    let slack = T::TOLERANCES.promise(input.small_scale(), input.large_scale(), size);
    let g = support_gap(input, &side.normal);
    if !(g >= support_gap(input, &n) - slack) {
        return;
    }
    let lower = Float::max(contact.lower_bound, g);
    let upper = side.outside - input.radius1 - input.radius2;
    let u = UnitVector::new_normalize(side.normal);
    (contact.point1, contact.point2) = side.witnesses(&u, lower, (input.radius1, input.radius2));
    contact.normal = u;
    contact.dist = lower;
    contact.lower_bound = lower;
    contact.upper_bound = Float::max(Float::min(contact.upper_bound, upper), lower);
}

/// The side contact of a small core sunk into a large cylinder core's side (or apart from
/// it), near EPA's or GJK's normal `n` (unit, A's frame): see the module doc; `None` when the
/// pair is not one or the maximiser is not bracketed.
pub(super) fn side_normal<T: Real>(input: &CoreInput<'_, T>, n: &Vector<T>) -> Option<Side<T>> {
    if !(T::TOLERANCES.promise_floor <= T::lit(ROUNDINGS) * T::epsilon()) {
        return None;
    }
    // The cylinder's frame (the larger core's, where both are cylinders): the small core's
    // pose in it, the direction from the cylinder toward it, the small core's size and the
    // cylinder's radius, rounding included.
    let [size1, size2] = input.shape_sizes;
    let (cylinder, small, pose, dir, size, a_is_cylinder) = match (input.shape1, input.shape2) {
        (Core::Cylinder(c), s) if size1 >= size2 || !matches!(s, Core::Cylinder(_)) => {
            (c, s, input.pos12, *n, size2, true)
        }
        (s, Core::Cylinder(c)) => {
            let dir = input.pos12.rotation.inverse_transform_vector(&-n);
            (c, s, input.pos12.inverse(), dir, size1, false)
        }
        _ => return None,
    };
    let radius = if a_is_cylinder {
        input.radius1
    } else {
        input.radius2
    };
    if !(cylinder.radius() + radius >= T::lit(SMALL_ON_LARGE_RATIO) * size) {
        return None;
    }
    let across = Float::hypot(dir.x, dir.z);
    if !(Float::abs(dir.y) <= Float::sin(T::lit(FLAT_FEATURE_ANGLE)) * across) {
        return None;
    }
    // The point of `small` that reaches furthest in along `r(φ)` (its frame and the
    // cylinder's), and how far it lies ahead of `φ` (toward +z from +x): the sine's numerator,
    // `r(φ) × s` along −y.
    let deepest_at = |phi: T| {
        let (sin, cos) = Float::sin_cos(phi);
        let r = Vector::new(cos, T::zero(), sin);
        let local = small.local_support_point(&pose.rotation.inverse_transform_vector(&-r));
        let s = pose * local;
        (local, s, cos * s.z - sin * s.x)
    };
    // The bracket: about the centre of the small core's bounding box, wide enough for all of
    // it (EPA's azimuth may lie outside: 9e-4 rad off for a 1.5 cm box in a cylinder of radius
    // 95, in f32).
    let aabb = small.local_aabb();
    let (centre, extent) = (pose * aabb.center(), aabb.half_extents().norm());
    let from_axis = Float::hypot(centre.x, centre.z);
    if !(from_axis >= T::lit(4.0) * extent) {
        return None;
    }
    let phi = Float::atan2(centre.z, centre.x);
    let half = T::lit(2.0) * extent / from_axis;
    let (mut lo, mut hi) = (phi - half, phi + half);
    let (mut below, mut above) = (deepest_at(lo), deepest_at(hi));
    if !(below.2 > T::zero() && above.2 <= T::zero()) {
        return None;
    }
    // Bisection, until one point reaches furthest in at both ends (its azimuth is the answer)
    // or the bracket is a few ε wide (a direction's own rounding).
    let mut phi = None;
    for _ in 0..MAX_STEPS {
        if below.0 == above.0 {
            phi = Some(Float::atan2(below.1.z, below.1.x));
            break;
        }
        let mid = (lo + hi) * T::lit(0.5);
        if !(hi - lo > T::lit(4.0) * T::epsilon() && mid > lo && mid < hi) {
            break;
        }
        let at = deepest_at(mid);
        if at.2 > T::zero() {
            (lo, below) = (mid, at);
        } else if at.2 <= T::zero() {
            (hi, above) = (mid, at);
        } else {
            return None;
        }
    }
    let (sin, cos) = Float::sin_cos(phi.unwrap_or((lo + hi) * T::lit(0.5)));
    let r = Vector::new(cos, T::zero(), sin);
    // The point between the last two deepest points at the normal's azimuth (the one point
    // where one reaches furthest in), interpolated in the small core's own frame.
    let ahead = |s: &Point<T>| cos * s.z - sin * s.x;
    let (a, b) = (ahead(&below.1), ahead(&above.1));
    let t = if a > b {
        Float::min(Float::max(a / (a - b), T::zero()), T::one())
    } else {
        T::zero()
    };
    let local = below.0 + (above.0 - below.0) * t;
    // Above a cap the side is not what touches (a rim is, or the cap): no side normal.
    let in_cylinder = pose * local;
    if !(Float::abs(in_cylinder.y) <= cylinder.half_height()) {
        return None;
    }
    let outside = Float::max(
        Float::hypot(in_cylinder.x, in_cylinder.z) - cylinder.radius(),
        Float::abs(in_cylinder.y) - cylinder.half_height(),
    );
    Some(if a_is_cylinder {
        Side {
            normal: r,
            small_point: input.pos12 * local,
            cylinder_is_a: true,
            outside,
        }
    } else {
        Side {
            normal: input.pos12.rotation * -r,
            small_point: local,
            cylinder_is_a: false,
            outside,
        }
    })
}

#[cfg(test)]
mod tests {
    use crate::collide::query_pair;
    use crate::collide::test_poses::random_turn;
    use crate::{ContactQuality, PairWorkspace};
    use nphase_gjk::SimplexCache;
    use nphase_math::nalgebra::convert_ref;
    use nphase_math::{Isometry, Point, Real, Vector};
    use nphase_shapes::{Cone, Cuboid, Cylinder, Shape, SupportMap};
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg64;

    /// A small shape (box, hull, cone or rounded box, of size `size`) and a cylinder of radius
    /// `radius` and half-height `radius / 2` (its edges rounded by `rounding`), in precision
    /// `T`.
    fn shapes<T: Real>(
        kind: usize,
        size: f64,
        [radius, rounding]: [f64; 2],
        rng: &mut Pcg64,
    ) -> [Shape<T>; 2] {
        let l = |x: f64| T::lit(x);
        let half = Vector::new(l(size), l(size * 0.7), l(size * 0.4));
        let small = match kind {
            0 => Shape::Cuboid(Cuboid::new(half).expect("valid")),
            1 => {
                let points: Vec<Point<T>> = (0..12)
                    .map(|_| {
                        Point::new(
                            l(rng.random_range(-size..size)),
                            l(rng.random_range(-size..size)),
                            l(rng.random_range(-size..size)),
                        )
                    })
                    .collect();
                Shape::convex(&points).expect("valid")
            }
            2 => Shape::Cone(Cone::new(l(size), l(size * 0.8)).expect("valid")),
            _ => {
                let inner = Shape::Cuboid(Cuboid::new(half * l(0.6)).expect("valid"));
                Shape::round(inner, l(size * 0.4)).expect("valid")
            }
        };
        let core = Cylinder::new(l(radius / 2.0 - rounding), l(radius - rounding)).expect("valid");
        let cylinder = Shape::round(Shape::Cylinder(core), l(rounding)).expect("valid");
        [small, cylinder]
    }

    /// Small shapes (boxes, hulls, cones, rounded boxes of size 0.005–0.2) sunk up to 0.6 of
    /// their size into the side of cylinders of radius 95–700 (one in five rounded), or apart
    /// from it, at random
    /// places and turns (one in four at a rim), in both orders: the f32 contact meets
    /// docs/accuracy.md's small-on-large tolerance against the f64 one (which takes EPA's
    /// normal): its distance, the support gap along its normal, its witnesses on the two
    /// support planes, `dist · n` apart, the cylinder's not outside it — all measured in f64.
    /// (EPA's f32 normal, off by ~R ε / s, fails it only now and then; the oracle's
    /// `disparity_s71` in tests/conformance.rs and the test below fail without the side.)
    #[test]
    fn small_shapes_in_a_large_cylinders_side_meet_the_tolerance_in_f32() {
        let mut rng = Pcg64::seed_from_u64(884);
        let mut workspace64 = PairWorkspace::<f64>::new();
        let mut workspace32 = PairWorkspace::<f32>::new();
        let mut compared = 0;
        for trial in 0..400 {
            let (kind, swapped) = (trial % 4, trial % 8 >= 4);
            let size = rng.random_range(0.005..0.2);
            let radius = [95.0, 286.0, 703.0][trial % 3];
            // One cylinder in five has its edges rounded by 2 (the same outer surface).
            let rounding = if trial % 5 == 4 { 2.0 } else { 0.0 };
            let seed = rng.random::<u64>();
            let [small64, cylinder64] = shapes::<f64>(
                kind,
                size,
                [radius, rounding],
                &mut Pcg64::seed_from_u64(seed),
            );
            let [small32, cylinder32] = shapes::<f32>(
                kind,
                size,
                [radius, rounding],
                &mut Pcg64::seed_from_u64(seed),
            );
            // The small shape's origin at azimuth `phi`, at a height on the side or (one trial in
            // four) at a rim, its distance from the axis putting it up to 0.6 of its size in,
            // or up to its size out (apart).
            let phi: f64 = rng.random_range(0.0..6.3);
            let rho = radius + size * rng.random_range(-0.6..1.0);
            let h = radius / 2.0;
            let y = if trial % 4 == 3 {
                (h + size * rng.random_range(-1.0..1.0)) * [1.0, -1.0][trial / 4 % 2]
            } else {
                rng.random_range(-h + 2.0 * size..h - 2.0 * size)
            };
            let turn = random_turn(&mut rng);
            let small_in_cylinder = Isometry::from_parts(
                Vector::new(rho * phi.cos(), y, rho * phi.sin()).into(),
                turn,
            );
            let (pos12, a64, b64, a32, b32) = if swapped {
                (
                    small_in_cylinder,
                    &cylinder64,
                    &small64,
                    &cylinder32,
                    &small32,
                )
            } else {
                (
                    small_in_cylinder.inverse(),
                    &small64,
                    &cylinder64,
                    &small32,
                    &cylinder32,
                )
            };
            let pos12_32: Isometry<f32> = convert_ref(&pos12);
            let (mut cache64, mut cache32) = (SimplexCache::EMPTY, SimplexCache::EMPTY);
            let exact = query_pair(a64, b64, &pos12, 1.0, &mut cache64, &mut workspace64)
                .contact
                .expect("within the prediction");
            let got = query_pair(a32, b32, &pos12_32, 1.0, &mut cache32, &mut workspace32)
                .contact
                .expect("within the prediction");
            if exact.quality != ContactQuality::Converged {
                continue;
            }
            compared += 1;
            let scale = radius * 1.2;
            let tol = 1e-6 + 5e-7 * scale + 1e-4 * size;
            let n: Vector<f64> = got.normal.into_inner().map(f64::from).normalize();
            let top_a = a64.local_support_point(&n).coords.dot(&n);
            let bottom_b = b64.support_point(&pos12, &-n).coords.dot(&n);
            let (p1, p2) = (got.point1.map(f64::from), got.point2.map(f64::from));
            // The cylinder's witness in its frame, and how far it lies outside the cylinder.
            let on_cylinder = if swapped { p1 } else { pos12.inverse() * p2 };
            let outside =
                (on_cylinder.x.hypot(on_cylinder.z) - radius).max(on_cylinder.y.abs() - h);
            let mismatch = ((p2 - p1) - n * f64::from(got.dist)).norm();
            let errors = [
                ("the cylinder's witness outside it", outside),
                ("the witnesses off dist · n", mismatch),
                ("distance", (f64::from(got.dist) - exact.dist).abs()),
                ("normal's gap", (bottom_b - top_a - exact.dist).abs()),
                (
                    "A's witness off its plane",
                    (p1.coords.dot(&n) - top_a).abs(),
                ),
                (
                    "B's witness off its plane",
                    (p2.coords.dot(&n) - bottom_b).abs(),
                ),
            ];
            for (what, error) in errors {
                assert!(
                    error <= tol,
                    "trial {trial} (kind {kind}, swapped {swapped}, size {size}, radius {radius}): \
                     {what} {error:e} beyond {tol:e}"
                );
            }
        }
        assert!(compared >= 380, "{compared} compared");
    }

    /// A rounded triangle (`corners`, `rounding`) and a cylinder (`h`, `radius`) in precision `T`.
    fn rounded_triangle_and_cylinder<T: Real>(
        corners: &[Point<f64>; 3],
        rounding: f64,
        h: f64,
        radius: f64,
    ) -> [Shape<T>; 2] {
        let [a, b, c] = corners.map(|p| p.map(T::lit));
        let core = nphase_shapes::Triangle::new(a, b, c).expect("valid");
        let small = Shape::round(Shape::Triangle(core), T::lit(rounding)).expect("valid");
        let cylinder = Cylinder::new(T::lit(h), T::lit(radius)).expect("valid");
        [small, Shape::Cylinder(cylinder)]
    }

    /// Rounded triangles (cores of size 0.02–0.1, radii 0.3–0.6 of that) whose cores lie from
    /// 0.2 of their size inside to 0.5 outside the side of a cylinder of radius 95–703 — mostly
    /// GJK's answer on cores apart, the rounded shapes touching or sunk; one in four near a cap
    /// — at random places and turns, in both orders: the f32 witness pair is `dist · n` apart,
    /// its distance that of f64 and its certified bounds around f64's, within docs/accuracy.md's
    /// small-on-large tolerance. The oracle's `disparity_s72` pair 938 found GJK's pair 1.4e-4
    /// off `dist · n` (its coordinates rounded to `R ε`); the side's normal, witnesses and
    /// closed-form upper bound (`settle_separated`) mend it, and certify stalled pairs GJK left
    /// 2e-3 wide.
    #[test]
    fn rounded_triangles_whose_cores_are_apart_from_a_large_side_agree_in_f32() {
        let mut rng = Pcg64::seed_from_u64(938);
        let mut workspace64 = PairWorkspace::<f64>::new();
        let mut workspace32 = PairWorkspace::<f32>::new();
        for trial in 0..400 {
            let swapped = trial % 2 == 1;
            let size: f64 = rng.random_range(0.02..0.1);
            let corners: [Point<f64>; 3] = std::array::from_fn(|_| {
                Point::from(Vector::from_fn(|_, _| rng.random_range(-size..size)))
            });
            let rounding = size * rng.random_range(0.3..0.6);
            let radius = [95.0, 142.0, 286.0, 703.0][trial % 4];
            let h = radius / 2.0;
            let [a, b, c] = corners;
            let core = nphase_shapes::Triangle::new(a, b, c).expect("valid");
            // The core's point nearest the side `gap` outside it, at azimuth `phi`.
            let turn = random_turn(&mut rng);
            let phi: f64 = rng.random_range(0.0..6.3);
            let out = Vector::new(phi.cos(), 0.0, phi.sin());
            let gap = size * rng.random_range(-0.2..0.5);
            let lowest = turn * core.local_support_point(&(turn.inverse() * -out)).coords;
            let y = if trial % 4 == 3 {
                (h - size * rng.random_range(0.0..2.0)) * [1.0, -1.0][trial / 4 % 2]
            } else {
                rng.random_range(-h + 4.0 * size..h - 4.0 * size)
            };
            let centre = out * (radius + gap) + Vector::new(0.0, y, 0.0) - lowest;
            let small_in_cylinder = Isometry::from_parts(centre.into(), turn);
            let [small64, cylinder64] =
                rounded_triangle_and_cylinder::<f64>(&corners, rounding, h, radius);
            let [small32, cylinder32] =
                rounded_triangle_and_cylinder::<f32>(&corners, rounding, h, radius);
            let (pos12, [a64, b64], [a32, b32]) = if swapped {
                (
                    small_in_cylinder,
                    [&cylinder64, &small64],
                    [&cylinder32, &small32],
                )
            } else {
                (
                    small_in_cylinder.inverse(),
                    [&small64, &cylinder64],
                    [&small32, &cylinder32],
                )
            };
            let pos12_32: Isometry<f32> = convert_ref(&pos12);
            let (mut cache64, mut cache32) = (SimplexCache::EMPTY, SimplexCache::EMPTY);
            let exact = query_pair(a64, b64, &pos12, 1.0, &mut cache64, &mut workspace64)
                .contact
                .expect("within the prediction");
            let outcome = query_pair(a32, b32, &pos12_32, 1.0, &mut cache32, &mut workspace32);
            let (stalled, epa) = (outcome.gjk_stalled, outcome.epa_ran);
            let got = outcome.contact.expect("within the prediction");
            let tol = 1e-6 + 5e-7 * radius * 1.2 + 1e-4 * (size + rounding);
            let n: Vector<f64> = got.normal.into_inner().map(f64::from).normalize();
            let (p1, p2) = (got.point1.map(f64::from), got.point2.map(f64::from));
            let mismatch = ((p2 - p1) - n * f64::from(got.dist)).norm();
            let distance = (f64::from(got.dist) - exact.dist).abs();
            let bracketed = f64::from(got.lower_bound) - tol <= exact.dist
                && exact.dist <= f64::from(got.upper_bound) + tol;
            assert!(
                mismatch <= tol && distance <= tol && bracketed,
                "trial {trial} (swapped {swapped}, size {size}, radius {radius}, stalled \
                 {stalled}, epa {epa}, gap {gap}): {got:?} witnesses \
                 {mismatch:e} off dist · n, distance {distance:e} off, beyond {tol:e}"
            );
        }
    }

    /// The side's normal in f32 for boxes of size 0.005–0.2 in the side of a cylinder of radius
    /// 703 (both orders, any turn, sunk or apart): its azimuth is the maximiser of
    /// `min over the corners of ρ cos(φ − φ_corner)`, found in f64 by ternary search on the
    /// corners themselves, within 1e-6 rad (the rounding of the f32 pose; EPA's azimuth is off
    /// by `R ε / s`, up to 1e-2 rad here); the deepest point lies on the box, at that azimuth.
    #[test]
    fn the_side_normal_is_the_azimuth_of_the_deepest_point() {
        use crate::collide::convex_gjk::{CoreInput, shape_size};
        use nphase_gjk::GjkInput;
        let mut rng = Pcg64::seed_from_u64(755);
        let radius = 703.0;
        let mut answered = 0;
        for trial in 0..200 {
            let half = Vector::new(
                rng.random_range(0.005..0.2),
                rng.random_range(0.005..0.2),
                rng.random_range(0.005..0.2),
            );
            let phi: f64 = rng.random_range(0.0..6.3);
            let rho = radius + half.norm() * rng.random_range(-0.6..1.0);
            let turn = random_turn(&mut rng);
            let pose = Isometry::from_parts(
                Vector::new(rho * phi.cos(), 1.0, rho * phi.sin()).into(),
                turn,
            );
            let pose32: Isometry<f32> = convert_ref(&pose);
            // The exact azimuth, from the f64 corners of the box as the f32 pose places it.
            let pose64: Isometry<f64> = convert_ref(&pose32);
            let half32: Vector<f32> = half.map(|x| x as f32);
            let corners: Vec<Point<f64>> = (0..8)
                .map(|k| {
                    let sign = |bit: usize| if k >> bit & 1 == 1 { 1.0 } else { -1.0 };
                    let h = half32.map(f64::from);
                    pose64 * Point::new(sign(0) * h.x, sign(1) * h.y, sign(2) * h.z)
                })
                .collect();
            let f = |a: f64| {
                corners
                    .iter()
                    .map(|c| c.x * a.cos() + c.z * a.sin())
                    .fold(f64::INFINITY, f64::min)
            };
            let (mut lo, mut hi) = (phi - 0.01, phi + 0.01);
            for _ in 0..200 {
                let (m1, m2) = (lo + (hi - lo) / 3.0, hi - (hi - lo) / 3.0);
                if f(m1) < f(m2) {
                    lo = m1;
                } else {
                    hi = m2;
                }
            }
            let exact = (lo + hi) / 2.0;
            let cylinder = Shape::Cylinder(Cylinder::new(351.5f32, radius as f32).expect("valid"));
            let cuboid = Shape::Cuboid(Cuboid::new(half32).expect("valid"));
            let ((core_c, radius_c), (core_b, radius_b)) = (cylinder.core(), cuboid.core());
            let sizes = [shape_size(&core_c, radius_c), shape_size(&core_b, radius_b)];
            // EPA's normal stands in as a horizontal direction 1e-3 off.
            let rough = Vector::new((phi + 1e-3).cos() as f32, 0.0, (phi + 1e-3).sin() as f32);
            let (side, azimuth) = if trial % 2 == 0 {
                let input: CoreInput<'_, f32> =
                    GjkInput::new(&core_c, &core_b, pose32).with_shape_sizes(sizes[0], sizes[1]);
                let side = super::side_normal(&input, &rough);
                let azimuth = side.map(|s| f64::from(s.normal.z).atan2(f64::from(s.normal.x)));
                (side.map(|s| pose32.inverse() * s.small_point), azimuth)
            } else {
                let pos12 = pose32.inverse();
                let input: CoreInput<'_, f32> =
                    GjkInput::new(&core_b, &core_c, pos12).with_shape_sizes(sizes[1], sizes[0]);
                let side = super::side_normal(&input, &(pos12.rotation * -rough));
                let azimuth = side.map(|s| {
                    let r = pose32.rotation * -s.normal;
                    f64::from(r.z).atan2(f64::from(r.x))
                });
                (side.map(|s| s.small_point), azimuth)
            };
            let (Some(point), Some(azimuth)) = (side, azimuth) else {
                panic!("trial {trial}: no side normal");
            };
            answered += 1;
            let off = (azimuth - exact).sin().abs();
            assert!(off <= 1e-6, "trial {trial}: azimuth off by {off:e}");
            // The deepest point, in the box's frame: on the box (to the rounding of the frame it
            // is reported in: the cylinder's, 703 units out, where the cylinder is A), at that
            // azimuth.
            let h = half32.map(f64::from);
            let p = point.map(f64::from);
            let outside = (p.x.abs() - h.x).max(p.y.abs() - h.y).max(p.z.abs() - h.z);
            let tol = if trial % 2 == 0 {
                4.0 * f64::from(f32::EPSILON) * radius
            } else {
                1e-6
            };
            assert!(
                outside.abs() <= tol,
                "trial {trial}: deepest point {outside:e} off the box"
            );
            let q = pose64 * p;
            assert!(
                (q.z * exact.cos() - q.x * exact.sin()).abs() <= 1e-3,
                "trial {trial}"
            );
        }
        assert_eq!(answered, 200);
    }
}
