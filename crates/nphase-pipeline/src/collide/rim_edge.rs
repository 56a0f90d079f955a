//! A cylinder's or cone's rim apart from a polytope's edge: the closest points of a circle and
//! a line, for a contact GJK could not settle.
//!
//! Where a rim faces a long edge, the distance over normals is a valley: turning the normal
//! slides the rim's support point along the rim and the closest point along the edge while the
//! support gap changes only to second order. GJK stalls there, and EPA settles the distance,
//! but its normal may lie anywhere on the valley's floor; the witness pair aligned with that
//! normal then lies off the edge (the oracle's `disparity_s32` pair 387 in f64: a 5 cm cylinder
//! 6.2e-6 from a 600-unit hull, the normal 5e-5 rad along the valley, B's witness 8.3e-8
//! outside the hull, a hundred times the tolerance). The minimum itself is a problem in one
//! variable.
//!
//! # Derivation
//! In the round shape's frame (axis y) the rim is `x(θ) = c + R (cos θ, 0, sin θ)`, with
//! `c = (0, ±h, 0)` for a cylinder's caps and `(0, −h, 0)` for a cone's base, and the edge lies
//! on the line `o + s e` (`|e| = 1`); `P = I − e eᵀ` keeps what is across the line. With
//! `d(θ) = P (x(θ) − o)`, the rim point's squared distance from the line is `2 g(θ) = |d|²`, and
//! since `x'' = −(x − c)` and `d · P v = d · v`:
//!
//! `g'(θ) = d · x'`, `g''(θ) = |P x'|² − d · (x − c)`.
//!
//! Newton's step `θ ← θ − g'/g''` starts from the rim's support point along the contact
//! normal. At the minimum `d` points from the line to the rim, along `−u` (`u` the normal from
//! the rim toward the line), and `x − c` is `R` times the outward radius, along which `u` has
//! its part `u_r > 0` across the axis (the rim supports along `u`): `g'' ≥ R |d| u_r > 0` even
//! where the rim runs along the line (the valley's floor). From the valley's floor, where the
//! start lies, the steps converge quadratically, in two or three. The line's closest point is
//! `o + ((x − o) · e) e`, and the normal is `e × t` (`t` the rim's tangent at `x`, `(−x_z, 0,
//! x_x)`): the segment between closest points is perpendicular to both curves.
//!
//! # When it answers
//! On a contact of shapes apart (`dist > 0`, radii included: rounded shapes whose roundings
//! overlap are left as they are) whose GJK stalled (the caller's choice), with a rim supporting
//! the round shape along the normal (not a cap's face, a cylinder's side line or a cone's apex),
//! and a polytope or segment core whose supporting feature has exactly two vertices level along
//! the normal within the accuracy: an edge. The answer replaces the contact only when it is a
//! minimum of the whole pair: the line's closest point lies on the edge, the distance is within
//! the prediction, and the support gap of the two shapes along the new normal (a certified lower
//! bound) meets the new distance (the length between two realised surface points: an upper
//! bound) within the accuracy — any other part of either shape closer would open that gap.
//! Then the normal, the distance, the witnesses (each on its feature, `point2 − point1 =
//! dist · normal`) and the bounds are the new ones. The contact's old upper bound is not asked
//! to hold the new distance: EPA's, on cores apart, is not certified (pair 387's was 8.7e-11
//! below the oracle's distance, twice the rounding floor).

use nphase_math::{Isometry, Point, Real, UnitVector, Vector, norm_robust};
use nphase_shapes::{Core, FeatureMap, SupportFeature};
use num_traits::Float;

use super::LocalContact;
use super::convex_gjk::{CoreInput, support_gap};

/// Newton's steps at most; they converge in two or three from the valley's floor.
const MAX_STEPS: usize = 16;

/// Replaces `contact` (A's frame) by the exact closest points of a rim and an edge when the pair
/// is one and the answer is certified (see the module doc); otherwise leaves it as it is.
/// `feature` is scratch space.
pub(super) fn settle_rim_against_edge<T: Real>(
    input: &CoreInput<'_, T>,
    contact: &mut LocalContact<T>,
    feature: &mut SupportFeature<T>,
) {
    if !(contact.dist > T::zero()) {
        return;
    }
    let polytope = |core: &Core<'_, T>| {
        matches!(
            core,
            Core::Segment(_) | Core::Cuboid(_) | Core::Triangle(_) | Core::Convex(_)
        )
    };
    let round = |core: &Core<'_, T>| matches!(core, Core::Cylinder(_) | Core::Cone(_));
    // The round shape's frame: the polytope's pose in it, the direction toward the polytope and
    // the radii around the cores (round, polytope).
    let n = contact.normal.into_inner();
    let rim_is_a = round(input.shape1) && polytope(input.shape2);
    let (rim_core, edge_core, pose, dir, radii) = if rim_is_a {
        let radii = (input.radius1, input.radius2);
        (input.shape1, input.shape2, input.pos12, n, radii)
    } else if polytope(input.shape1) && round(input.shape2) {
        let dir = input.pos12.rotation.inverse_transform_vector(&-n);
        let radii = (input.radius2, input.radius1);
        (
            input.shape2,
            input.shape1,
            input.pos12.inverse(),
            dir,
            radii,
        )
    } else {
        return;
    };
    let Some(rim) = Rim::supporting(rim_core, &dir) else {
        return;
    };
    let Some((o, e, length)) = level_edge(edge_core, &pose, &dir, input.small_scale(), feature)
    else {
        return;
    };
    let size = rim.reach() + o.coords.norm() + length;
    let small = Float::min(input.small_scale(), size);
    let tolerance = T::TOLERANCES.length(T::TOLERANCES.accuracy, small, size);
    let Some(x) = rim.closest_to_line(&dir, &o, &e, tolerance) else {
        return;
    };
    let s = (x - o).dot(&e);
    if !(s >= T::zero() && s <= length) {
        return;
    }
    let q = o + e * s;
    // The normal is across the line and across the rim's tangent `t` at `x` (at closest points
    // the segment between them is perpendicular to both curves): `e × t`, from unit directions
    // alone, its error the rounding over `|e × t|`. The direction between `x` and `q` carries
    // their coordinates' rounding over their distance instead: in f32, points 1.5e-5 apart at
    // coordinates of 17 give it 0.07 rad (`disparity_s113` pair 267, whose certificate then
    // failed). So `e × t` is taken unless the rim's tangent runs so nearly along the line that
    // the part of `q − x` across the line is the better conditioned (`|across| < scale ·
    // |e × t|` fails); that part is never tilted along the line, where the edge's length
    // would make the tilt a gap far beyond the accuracy (pair 387: 600 units).
    let between = q - x;
    let across = between - e * between.dot(&e);
    let scale = Float::max(q.coords.norm(), x.coords.norm());
    let cross = nphase_math::normalize_robust(&Vector::new(-x.z, T::zero(), x.x))
        .map(|t| e.cross(&t))
        .filter(|c| norm_robust(&across) <= scale * norm_robust(c));
    let u = match cross.and_then(|c| nphase_math::normalize_robust(&c)) {
        Some(u) if u.dot(&across) < T::zero() => -u.into_inner(),
        Some(u) => u.into_inner(),
        None => match nphase_math::normalize_robust(&across) {
            Some(u) => u.into_inner(),
            None => return,
        },
    };
    let gap = between.dot(&u);
    let dist = gap - radii.0 - radii.1;
    if !(gap > T::zero() && dist > T::zero() && dist <= input.max_dist) {
        return;
    }
    let (round_point, edge_point) = (x + u * radii.0, q - u * radii.1);
    // Back to A's frame, the normal from A toward B.
    let (point1, point2, normal) = if rim_is_a {
        (round_point, edge_point, u)
    } else {
        (
            input.pos12 * edge_point,
            input.pos12 * round_point,
            input.pos12.rotation * -u,
        )
    };
    let lower = support_gap(input, &normal);
    if !(lower >= dist - tolerance) {
        return;
    }
    *contact = LocalContact {
        point1,
        point2,
        normal: UnitVector::new_unchecked(normal),
        dist,
        lower_bound: Float::min(Float::max(contact.lower_bound, lower), dist),
        upper_bound: dist,
        quality: contact.quality,
    };
}

/// A rim circle in its shape's frame: centre `(0, y, 0)`, radius `radius`, in the plane
/// `y = const`.
#[derive(Clone, Copy, Debug)]
struct Rim<T: Real> {
    y: T,
    radius: T,
}

impl<T: Real> Rim<T> {
    /// The rim that supports a cylinder or a cone along `dir` (its frame), if the support is a
    /// point of a rim: not where `dir` has no part across the axis (a cap's face), not along a
    /// cylinder's side line (`dir` across the axis) and not at a cone's apex.
    fn supporting(core: &Core<'_, T>, dir: &Vector<T>) -> Option<Self> {
        let across = Float::hypot(dir.x, dir.z);
        if !(across > T::zero()) {
            return None;
        }
        match core {
            Core::Cylinder(c) if dir.y != T::zero() => Some(Rim {
                y: Float::copysign(c.half_height(), dir.y),
                radius: c.radius(),
            }),
            Core::Cone(c) => {
                let (h, r) = (c.half_height(), c.radius());
                // The base rim's support value against the apex's.
                (r * across - h * dir.y > h * dir.y).then_some(Rim { y: -h, radius: r })
            }
            _ => None,
        }
    }

    /// How far the rim reaches from the frame's origin (a size for the rounding floor).
    fn reach(&self) -> T {
        Float::abs(self.y) + self.radius
    }

    /// The point of the rim at angle `theta` from +x toward +z.
    fn point(&self, theta: T) -> Point<T> {
        let (sin, cos) = Float::sin_cos(theta);
        Point::new(self.radius * cos, self.y, self.radius * sin)
    }

    /// The rim point closest to the line `o + s e` (`|e| = 1`) near the rim's support point along
    /// `dir`, by Newton's steps (module doc), once a step moves the point by at most
    /// `tolerance`; `None` when they do not get there.
    ///
    /// The line is anchored at the foot of the rim's centre first: an edge's end may lie far
    /// from the rim (600 units against 5 cm), and `P (x − o)` from there would cancel that
    /// length on every step, its rounding a noise in the slope far above the step's own.
    fn closest_to_line(
        &self,
        dir: &Vector<T>,
        o: &Point<T>,
        e: &Vector<T>,
        tolerance: T,
    ) -> Option<Point<T>> {
        let across = |v: Vector<T>| v - e * v.dot(e);
        let centre = Point::new(T::zero(), self.y, T::zero());
        let o = o + e * (centre - o).dot(e);
        let mut theta = Float::atan2(dir.z, dir.x);
        for _ in 0..MAX_STEPS {
            let x = self.point(theta);
            let (sin, cos) = Float::sin_cos(theta);
            let tangent = Vector::new(-self.radius * sin, T::zero(), self.radius * cos);
            let d = across(x - o);
            let slope = d.dot(&tangent);
            let curvature = across(tangent).norm_squared() - d.dot(&(x - centre));
            if !(curvature > T::zero()) {
                return None;
            }
            let step = slope / curvature;
            theta -= step;
            if self.radius * Float::abs(step) <= tolerance {
                return Some(self.point(theta));
            }
        }
        None
    }
}

/// The polytope's supporting edge toward the round shape: `(o, e, length)` of the line
/// `o + s e`, `s ∈ [0, length]` (round shape's frame, `|e| = 1`), when exactly two vertices of
/// its supporting feature along `−dir` are level along `dir` within the accuracy.
fn level_edge<T: Real>(
    core: &Core<'_, T>,
    pose: &Isometry<T>,
    dir: &Vector<T>,
    small: T,
    feature: &mut SupportFeature<T>,
) -> Option<(Point<T>, Vector<T>, T)> {
    core.local_support_feature(&pose.rotation.inverse_transform_vector(&-dir), feature);
    let height = |v: &Point<T>| (pose * v).coords.dot(dir);
    let lowest = feature
        .vertices
        .iter()
        .map(height)
        .fold(T::infinity(), Float::min);
    let size = feature
        .vertices
        .iter()
        .fold(T::zero(), |m, v| Float::max(m, (pose * v).coords.norm()));
    // The accuracy, and a few roundings of a direction turned between frames (f32: a normal
    // brought to B's frame and back tilts a 20-unit edge by a few 1e-6). Generous is safe: an
    // edge that is not level along the answer's normal fails its certificate.
    let tie = T::TOLERANCES.length(T::TOLERANCES.accuracy, Float::min(small, size), size)
        + T::lit(16.0) * T::epsilon() * size;
    let mut level = feature
        .vertices
        .iter()
        .filter(|v| height(v) <= lowest + tie);
    let (a, b) = (level.next()?, level.next()?);
    if level.next().is_some() {
        return None;
    }
    let (a, b) = (pose * a, pose * b);
    let length = norm_robust(&(b - a));
    (length > T::zero()).then(|| (a, (b - a) / length, length))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collide::ContactQuality;
    use crate::collide::convex_gjk::shape_size;
    use nphase_gjk::GjkInput;
    use nphase_math::Rotation;
    use nphase_shapes::{Capsule, Cone, Cuboid, Cylinder, Shape, SupportMap};
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg64;

    /// A round shape's rim point, a normal from it, and an edge shape whose edge runs across that
    /// normal: the shapes, the edge shape's pose in the round shape's frame, and the exact
    /// contact (round shape → edge shape).
    struct Case<T: Real> {
        round: Shape<T>,
        edge: Shape<T>,
        edge_pose: Isometry<T>,
        point: Point<T>,
        normal: Vector<T>,
        dist: T,
    }

    /// The rim point at azimuth `theta` of a cylinder's top rim or a cone's base rim (`kind` 0,
    /// 1; 2 a cylinder rounded by 0.05), a normal leaning `lean` from the rim's outward radius
    /// toward the rim's side of the axis (the rim point supports the shape along it), and an
    /// edge at azimuth `psi` about the normal, `dist` from the round shape's surface: a box of
    /// half-extents `(10, 1, 1)` whose two faces at the edge lean ±45° from the normal (`edge`
    /// 0; 1 the same box as a hull, 2 rounded by 0.05), or a capsule of half-height 10 and
    /// radius 0.1 (`edge` 3).
    fn case<T: Real>(kind: u8, edge: u8, theta: f64, lean: f64, psi: f64, dist: f64) -> Case<T> {
        let l = |x: f64| T::lit(x);
        let (h, r) = (0.4, 0.3);
        let (round, y, up, rounding) = match kind {
            0 => (
                Shape::Cylinder(Cylinder::new(l(h), l(r)).expect("valid")),
                h,
                1.0,
                0.0,
            ),
            1 => (
                Shape::Cone(Cone::new(l(h), l(r)).expect("valid")),
                -h,
                -1.0,
                0.0,
            ),
            _ => {
                let cylinder = Shape::Cylinder(Cylinder::new(l(h), l(r)).expect("valid"));
                (
                    Shape::round(cylinder, l(0.05)).expect("valid"),
                    h,
                    1.0,
                    0.05,
                )
            }
        };
        let radial = Vector::new(theta.cos(), 0.0, theta.sin());
        let point = Point::new(r * theta.cos(), y, r * theta.sin());
        let normal = radial * lean.cos() + Vector::y() * (up * lean.sin());
        let point = point + normal * rounding;
        let (v, w) = {
            let v = radial.cross(&normal).normalize();
            (v, normal.cross(&v))
        };
        let e = v * psi.cos() + w * psi.sin();
        let side = e.cross(&normal);
        let c = core::f64::consts::FRAC_1_SQRT_2;
        // The box's columns: x along the edge; the −y and −z faces' outward normals `f2`, `f1`.
        let (f1, f2) = (-(normal + side) * c, -(normal - side) * c);
        let rotation = Rotation::from_basis_unchecked(&[e, -f2, -f1]);
        let half = Vector::new(l(10.0), l(1.0), l(1.0));
        let boxed = Shape::Cuboid(Cuboid::new(half).expect("valid"));
        let (shape, centre) = match edge {
            0..=2 => {
                let (shape, rounding) = match edge {
                    0 => (boxed, 0.0),
                    1 => {
                        let corners: Vec<Point<T>> = (0..8)
                            .map(|k| {
                                let sign =
                                    |bit: usize| l(if k >> bit & 1 == 1 { 1.0 } else { -1.0 });
                                Point::new(sign(0) * half.x, sign(1) * half.y, sign(2) * half.z)
                            })
                            .collect();
                        (Shape::convex(&corners).expect("valid"), 0.0)
                    }
                    _ => (Shape::round(boxed, l(0.05)).expect("valid"), 0.05),
                };
                let corner = point + normal * (dist + rounding);
                (shape, corner - rotation * Vector::new(0.0, -1.0, -1.0))
            }
            _ => {
                let capsule = Shape::Capsule(Capsule::new(l(10.0), l(0.1)).expect("valid"));
                (capsule, point + normal * (dist + 0.1))
            }
        };
        let rotation = match edge {
            0..=2 => rotation,
            _ => Rotation::rotation_between(&Vector::y(), &e).expect("not opposite"),
        };
        let cast = |v: Vector<f64>| v.map(|x| T::lit(x));
        Case {
            round,
            edge: shape,
            edge_pose: Isometry::from_parts(
                cast(centre.coords).into(),
                Rotation::new_normalize(rotation.quaternion().cast()),
            ),
            point: cast(point.coords).into(),
            normal: cast(normal),
            dist: T::lit(dist),
        }
    }

    /// A contact as a stalled query may leave it: along `n`, each shape's support point, the
    /// edge shape's witness put `dist · n` from the round one's. Returns the contact after
    /// [`settle_rim_against_edge`].
    fn settled<T: Real>(
        a: &Shape<T>,
        b: &Shape<T>,
        pos12: &Isometry<T>,
        n: Vector<T>,
    ) -> LocalContact<T> {
        let (core1, radius1) = a.core();
        let (core2, radius2) = b.core();
        let input = GjkInput::new(&core1, &core2, *pos12)
            .with_radii(radius1, radius2)
            .with_shape_sizes(shape_size(&core1, radius1), shape_size(&core2, radius2));
        let p1 = a.local_support_point(&n);
        let p2 = b.support_point(pos12, &-n);
        let dist = (p2 - p1).dot(&n);
        let mut contact = LocalContact {
            point1: p1,
            point2: p1 + n * dist,
            normal: UnitVector::new_normalize(n),
            dist,
            lower_bound: dist,
            upper_bound: dist,
            quality: ContactQuality::Converged,
        };
        let mut feature = SupportFeature::default();
        settle_rim_against_edge(&input, &mut contact, &mut feature);
        contact
    }

    /// Random rims (cylinder, cone, rounded cylinder) against long edges (box, hull, rounded
    /// box, capsule), the normal turned along the valley (about the edge, which stays level) by
    /// up to 1e-3 rad, in both orders: the answer is the exact pair of closest points and the
    /// exact distance, and its normal's support gap is the distance — to `tol` of the unit
    /// sizes (f64 1e-12; f32 2e-5, twenty roundings of the box's 10-unit coordinates; before,
    /// the witnesses were off by up to 1e-5). Every fifth edge runs within 1e-3 rad of the rim's
    /// tangent (where `e × t` vanishes and the normal is the part of `q − x` across the line;
    /// with `e × t` alone, these failed).
    fn rims_against_edges<T: Real>(tol: f64) {
        let mut rng = Pcg64::seed_from_u64(387);
        for trial in 0..800 {
            let (kind, edge) = ((trial % 3) as u8, (trial / 3 % 4) as u8);
            let dist = rng.random_range(1e-4..1e-2);
            let (theta, lean) = (rng.random_range(0.0..6.3), rng.random_range(0.1..1.2));
            let psi = rng.random_range(0.0..6.3);
            let psi = if trial % 5 == 4 {
                std::f64::consts::PI * (trial % 2) as f64 + (psi - 3.15) * 3e-4
            } else {
                psi
            };
            let exact: Case<T> = case(kind, edge, theta, lean, psi, dist);
            let axis = UnitVector::new_normalize(
                exact.edge_pose.rotation
                    * match edge {
                        3 => Vector::y(),
                        _ => Vector::x(),
                    },
            );
            let turn = Rotation::from_axis_angle(&axis, T::lit(rng.random_range(-1e-3..1e-3)));
            let n = turn * exact.normal;
            let tol = T::lit(tol);
            let close = |got: Point<T>, want: Point<T>, what: &str| {
                let off = (got - want).norm();
                assert!(
                    off <= tol,
                    "trial {trial} ({kind}, {edge}) {what} off by {off:?}"
                );
            };
            let gap = |normal: &Vector<T>, pos12: &Isometry<T>, a: &Shape<T>, b: &Shape<T>| {
                b.support_point(pos12, &-normal).coords.dot(normal)
                    - a.local_support_point(normal).coords.dot(normal)
            };
            let edge_point = exact.point + exact.normal * exact.dist;
            for swapped in [false, true] {
                let (a, b, pos12) = if swapped {
                    (&exact.edge, &exact.round, exact.edge_pose.inverse())
                } else {
                    (&exact.round, &exact.edge, exact.edge_pose)
                };
                let (c, rim, edge_witness, normal) = if swapped {
                    let c = settled(a, b, &pos12, pos12.rotation * -n);
                    (
                        c,
                        pos12.inverse() * c.point2,
                        pos12.inverse() * c.point1,
                        -c.normal.into_inner(),
                    )
                } else {
                    let c = settled(a, b, &pos12, n);
                    (c, c.point1, c.point2, c.normal.into_inner())
                };
                close(rim, exact.point, "rim point");
                close(edge_witness, edge_point, "edge point");
                let dist_err = Float::abs(c.dist - exact.dist);
                assert!(
                    dist_err <= tol,
                    "trial {trial}: distance off by {dist_err:?}"
                );
                let n_err = Float::abs(gap(&c.normal.into_inner(), &pos12, a, b) - exact.dist);
                assert!(
                    n_err <= tol,
                    "trial {trial}: the normal's gap off by {n_err:?}"
                );
                let normal = if swapped {
                    pos12.rotation.inverse_transform_vector(&normal)
                } else {
                    normal
                };
                assert!(Float::abs(normal.norm() - T::one()) <= tol);
                assert!(c.lower_bound <= exact.dist + tol && exact.dist - tol <= c.upper_bound);
            }
        }
    }

    #[test]
    fn a_rim_against_an_edge_finds_the_exact_closest_points_in_f64() {
        rims_against_edges::<f64>(1e-12);
    }

    #[test]
    fn a_rim_against_an_edge_finds_the_exact_closest_points_in_f32() {
        rims_against_edges::<f32>(2e-5);
    }

    /// Where the rim's closest point to the edge's line is not the pair's minimum, the contact
    /// is left as it was: a triangle on the edge whose third vertex dips below the edge along
    /// the rim–line normal while it stays above it along the contact's normal (the support gap
    /// along the new normal refuses it), and a box moved along its edge until the line's
    /// closest point is past its end (a corner is closest).
    #[test]
    fn a_rim_that_is_not_closest_leaves_the_contact() {
        let exact: Case<f64> = case(0, 0, 0.7, 0.5, 1.1, 1e-3);
        let unchanged = |b: &Shape<f64>, pos12: &Isometry<f64>, n: Vector<f64>| {
            let c = settled(&exact.round, b, pos12, n);
            c.point1 == exact.round.local_support_point(&n)
                && c.normal.into_inner() == UnitVector::new_normalize(n).into_inner()
        };
        let e = exact.edge_pose.rotation * Vector::x();
        let across = e.cross(&exact.normal);
        let gamma = 1e-3;
        let n = Rotation::from_axis_angle(&UnitVector::new_normalize(e), gamma) * exact.normal;
        // The rim–line answer is taken for the box (the turned normal is mended)...
        assert!(!unchanged(&exact.edge, &exact.edge_pose, n));
        // ...but not for the triangle whose third vertex lies beside the edge, at β = π/2 + γ/2
        // from the normal about the edge: below the edge along it, above along the turned one.
        let q = exact.point + exact.normal * exact.dist;
        let beta = core::f64::consts::FRAC_PI_2 + gamma / 2.0;
        let third = q + (exact.normal * beta.cos() + across * beta.sin()) * 1.0;
        let triangle = Shape::Triangle(
            nphase_shapes::Triangle::new(q - e * 5.0, q + e * 5.0, third).expect("valid"),
        );
        assert!(n.dot(&(third - q)) > 1e-4 && exact.normal.dot(&(third - q)) < -1e-4);
        assert!(unchanged(&triangle, &Isometry::identity(), n));
        // The box moved along its edge by more than its half-length.
        let past = Isometry::translation(e.x * 10.5, e.y * 10.5, e.z * 10.5) * exact.edge_pose;
        assert!(unchanged(&exact.edge, &past, n));
    }
}
