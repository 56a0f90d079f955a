//! Property tests of the one-shot queries and the pipeline: "no panic, no NaN, nothing lost".
//!
//! Random shapes of every type (ball, cuboid, capsule, cylinder, cone, segment, triangle, convex
//! hull, rounded shape), sizes log-uniform in [1e-4, 1e4], placed at random world offsets up to
//! 1e6 (f64) / 1e4 (f32), in both precisions. Placements: random, flush faces (same orientation,
//! B pushed along a face normal of A to touch within ±1e-7·scale), flush with a 1e-7 rad tilt,
//! and coincident. Hulls include near-degenerate clouds (exactly or nearly coplanar, collinear,
//! duplicated points). The properties:
//!
//! 1. **finite**: every output of `contact`, `distance`, `closest_points`, `intersection_test`
//!    and the pipeline is finite;
//! 2. **symmetry**: swapping A and B gives the same `dist` and the opposite normal;
//! 3. **invariance**: moving both shapes by the same rigid motion moves the answer with them;
//! 4. **scale covariance**: scaling the whole scene by `k` scales `dist` by `k`;
//! 5. **sign agreement**: `intersection_test`, `distance`, `contact` and `closest_points` agree
//!    on whether the shapes touch;
//! 6. **pipeline**: the manifold of every pair agrees with the single-pair `contact` on the
//!    deepest point and the normal, cold and warm-started;
//! 7. **no silent caps**: every query converged (`ContactQuality::Converged`) and the pipeline's
//!    `iteration_limits` / `fallbacks` stay zero — except for the deliberately degenerate case of
//!    coincident identical curved shapes (a valley of equally good normals), which has its own
//!    test: it may end on `IterationLimit`, is counted, and still gives a valid answer.
//!
//! ## Tolerances and why
//! `tol = rel · scale` with docs/accuracy.md's accuracy: `rel` = 1e-9 (f64), 1e-7 (f64 with a cylinder
//! or cone), 1e-4 (f32); `scale` = the larger local half-diagonal of the two shapes. Two answers
//! that are each within `tol` of the truth are within `2·tol` of each other, which is what the
//! comparisons use. On top of that, each comparison accounts for what the library is *given*:
//! world poses are rounded to the precision (at 1e4 an f32 coordinate is only good to ~1e-3), so
//! a moved or scaled copy of a scene is a slightly different relative placement. The tests
//! compute that difference exactly (in f64, from the poses actually passed) and add its effect:
//! the signed distance is 1-Lipschitz in B's translation, and a rotation by `δθ` moves B's points
//! by at most `δθ·(|t₁₂| + r_B)`. Normals are compared through what they certify — the support
//! gap of the two shapes along a reported normal must equal the reported distance (docs/accuracy.md's
//! "true minimiser") — and directly, when the shapes are apart: the separating direction is then
//! unique, and a normal whose gap is within `δ` of the distance `d` is within `√(2δ/d)` of it.
//!
//! Budget: the whole file runs in a few seconds in the dev profile (6000 cases per precision
//! for the queries, 1500 scenes of 1–7 pairs per precision for the pipeline; seeded, so the
//! same cases every run). `PROPTEST_CASES=N` sets every property's case count for a longer
//! local run. With 20 000 every property passes; a run of 200 000 still finds rare cases
//! (about one in 10⁵), left open: a GJK stall on a separated pair with a curved shape that EPA
//! cannot settle and whose bounds are wider than the accuracy (reported honestly as
//! `Fallback`, and counted), and a manifold normal on a coincident sliver hull slightly beyond
//! the f64 tolerance.

mod common;

use std::sync::Arc;

use nphase_math::nalgebra::{Quaternion, Translation3};
use nphase_math::{Isometry, Point, Real, Rotation, Vector};
use nphase_pipeline::query::intersection_test;
use nphase_pipeline::query::{ClosestPoints, Contact, closest_points, contact, distance};
use nphase_pipeline::{Collider, ContactQuality, NarrowPhase, NarrowPhaseConfig};
use nphase_shapes::{Ball, Capsule, Cone, Cuboid, Cylinder, Segment, Shape, SupportMap, Triangle};
use proptest::prelude::*;

// ---------------------------------------------------------------------------------------------
// Shapes.
// ---------------------------------------------------------------------------------------------

/// A shape description in units of its size (all lengths are multiplied by `size` when built).
#[derive(Clone, Debug, PartialEq)]
enum Spec {
    Ball(f64),
    Cuboid([f64; 3]),
    Capsule(f64, f64),
    Cylinder(f64, f64),
    Cone(f64, f64),
    Segment([f64; 3], [f64; 3]),
    Triangle([[f64; 3]; 3]),
    Convex(Vec<[f64; 3]>),
    Round(Box<Spec>, f64),
}

impl Spec {
    /// Builds the shape scaled by `size`, every parameter rounded to `T`.
    fn build<T: Real>(&self, size: f64) -> Shape<T> {
        let l = |x: f64| T::lit(x * size);
        let p = |v: &[f64; 3]| Point::new(l(v[0]), l(v[1]), l(v[2]));
        let shape = match self {
            Spec::Ball(r) => Ball::new(l(*r)).map(Shape::Ball),
            Spec::Cuboid(h) => Cuboid::new(p(h).coords).map(Shape::Cuboid),
            Spec::Capsule(h, r) => Capsule::new(l(*h), l(*r)).map(Shape::Capsule),
            Spec::Cylinder(h, r) => Cylinder::new(l(*h), l(*r)).map(Shape::Cylinder),
            Spec::Cone(h, r) => Cone::new(l(*h), l(*r)).map(Shape::Cone),
            Spec::Segment(a, b) => Segment::new(p(a), p(b)).map(Shape::Segment),
            Spec::Triangle([a, b, c]) => Triangle::new(p(a), p(b), p(c)).map(Shape::Triangle),
            Spec::Convex(points) => Shape::convex(&points.iter().map(p).collect::<Vec<_>>()),
            Spec::Round(inner, r) => Shape::round(inner.build(size), l(*r)),
        };
        shape.expect("generated shapes are valid")
    }

    /// The same shape as [`Spec::build`] in `T`, widened exactly to f64 (for reference values).
    fn build_wide<T: Real>(&self, size: f64) -> Shape<f64> {
        let q = |x: f64| T::lit(x * size).as_f64();
        let p = |v: &[f64; 3]| Point::new(q(v[0]), q(v[1]), q(v[2]));
        let shape = match self {
            Spec::Ball(r) => Ball::new(q(*r)).map(Shape::Ball),
            Spec::Cuboid(h) => Cuboid::new(p(h).coords).map(Shape::Cuboid),
            Spec::Capsule(h, r) => Capsule::new(q(*h), q(*r)).map(Shape::Capsule),
            Spec::Cylinder(h, r) => Cylinder::new(q(*h), q(*r)).map(Shape::Cylinder),
            Spec::Cone(h, r) => Cone::new(q(*h), q(*r)).map(Shape::Cone),
            Spec::Segment(a, b) => Segment::new(p(a), p(b)).map(Shape::Segment),
            Spec::Triangle([a, b, c]) => Triangle::new(p(a), p(b), p(c)).map(Shape::Triangle),
            Spec::Convex(points) => Shape::convex(&points.iter().map(p).collect::<Vec<_>>()),
            Spec::Round(inner, r) => Shape::round(inner.build_wide::<T>(size), q(*r)),
        };
        shape.expect("generated shapes are valid")
    }

    /// Whether a cylinder or cone takes part (docs/accuracy.md's looser f64 accuracy).
    fn curved(&self) -> bool {
        match self {
            Spec::Cylinder(..) | Spec::Cone(..) => true,
            Spec::Round(inner, _) => inner.curved(),
            _ => false,
        }
    }

    /// Whether the shape is symmetric about its local y axis (ball, capsule, cylinder, cone, or
    /// one of them rounded). Two such shapes placed on a common axis have a whole circle of
    /// equally deep normals (a valley of minima), which EPA cannot certify.
    fn axisymmetric(&self) -> bool {
        match self {
            Spec::Ball(_) | Spec::Capsule(..) | Spec::Cylinder(..) | Spec::Cone(..) => true,
            Spec::Round(inner, _) => inner.axisymmetric(),
            _ => false,
        }
    }
}

/// A length factor in [0.2, 1] (shapes are within a factor 5 of their nominal size).
fn unit_length() -> impl Strategy<Value = f64> {
    0.2f64..1.0
}

fn unit_point() -> impl Strategy<Value = [f64; 3]> {
    [-1.0f64..1.0, -1.0f64..1.0, -1.0f64..1.0]
}

/// Point clouds, regular and near-degenerate.
fn cloud() -> BoxedStrategy<Vec<[f64; 3]>> {
    let blob = prop::collection::vec(unit_point(), 4..24).boxed();
    let box_corners = (unit_length(), unit_length(), unit_length())
        .prop_map(|(x, y, z)| {
            (0..8)
                .map(|i| {
                    let s = |bit: i32| if i & (1 << bit) != 0 { -1.0 } else { 1.0 };
                    [x * s(0), y * s(1), z * s(2)]
                })
                .collect()
        })
        .boxed();
    // Exactly coplanar (z = 0) or off the plane by 1e-9 of the size.
    let coplanar = (
        prop::collection::vec([-1.0f64..1.0, -1.0f64..1.0], 3..16),
        prop_oneof![Just(0.0), Just(1e-9)],
    )
        .prop_map(|(xy, noise)| {
            xy.iter()
                .enumerate()
                .map(|(i, [x, y])| [*x, *y, if i % 2 == 0 { noise } else { -noise }])
                .collect()
        })
        .boxed();
    // Collinear along a random direction, exactly or up to 1e-9.
    let collinear = (
        unit_point(),
        prop::collection::vec(-1.0f64..1.0, 2..10),
        prop_oneof![Just(0.0), Just(1e-9)],
    )
        .prop_map(|(d, ts, noise)| {
            ts.iter()
                .enumerate()
                .map(|(i, t)| {
                    let e = if i % 2 == 0 { noise } else { -noise };
                    [d[0] * t + e, d[1] * t - e, d[2] * t]
                })
                .collect()
        })
        .boxed();
    // A few distinct points, each repeated.
    let duplicated = (prop::collection::vec(unit_point(), 2..6), 2usize..4)
        .prop_map(|(points, copies)| {
            points
                .iter()
                .flat_map(|p| std::iter::repeat_n(*p, copies))
                .collect()
        })
        .boxed();
    prop_oneof![
        3 => blob,
        2 => box_corners,
        2 => coplanar,
        1 => collinear,
        2 => duplicated,
    ]
    .boxed()
}

/// A shape of any type, sizes relative to 1.
fn spec() -> BoxedStrategy<Spec> {
    let l = unit_length;
    let primitive = prop_oneof![
        l().prop_map(Spec::Ball),
        [l(), l(), l()].prop_map(Spec::Cuboid),
        (l(), l()).prop_map(|(h, r)| Spec::Capsule(h, r * 0.5)),
        (l(), l()).prop_map(|(h, r)| Spec::Cylinder(h, r)),
        (l(), l()).prop_map(|(h, r)| Spec::Cone(h, r)),
        (unit_point(), unit_point()).prop_map(|(a, b)| Spec::Segment(a, b)),
        [unit_point(), unit_point(), unit_point()].prop_map(Spec::Triangle),
        cloud().prop_map(Spec::Convex),
    ]
    .boxed();
    prop_oneof![
        8 => primitive.clone(),
        1 => (primitive, 0.02f64..0.3).prop_map(|(s, r)| Spec::Round(Box::new(s), r)),
    ]
    .boxed()
}

// ---------------------------------------------------------------------------------------------
// Placements.
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Debug)]
enum Relation {
    /// B at a random offset (in units of the size) and orientation.
    Random {
        offset: [f64; 3],
        rotation: [f64; 3],
    },
    /// Same orientation as A, pushed along A's local axis `axis` (0..6: ±x, ±y, ±z) until the
    /// support planes meet, then by `gap` (in units of the size), with a lateral shift; `tilt`
    /// rotates B by that many radians about a random axis (0 or 1e-7).
    Flush {
        axis: usize,
        gap: f64,
        lateral: [f64; 2],
        tilt: f64,
        tilt_axis: [f64; 3],
    },
    /// B at A's pose.
    Coincident,
}

fn relation() -> BoxedStrategy<Relation> {
    let random = (
        [-2.5f64..2.5, -2.5f64..2.5, -2.5f64..2.5],
        [-3.2f64..3.2, -3.2f64..3.2, -3.2f64..3.2],
    )
        .prop_map(|(offset, rotation)| Relation::Random { offset, rotation });
    let flush = (
        0usize..6,
        prop_oneof![Just(0.0), Just(1e-7), Just(-1e-7), -0.1f64..0.1],
        [-0.3f64..0.3, -0.3f64..0.3],
        prop_oneof![Just(0.0), Just(1e-7)],
        unit_point(),
    )
        .prop_map(|(axis, gap, lateral, tilt, tilt_axis)| Relation::Flush {
            axis,
            gap,
            lateral,
            tilt,
            tilt_axis,
        });
    prop_oneof![5 => random, 4 => flush, 1 => Just(Relation::Coincident)].boxed()
}

/// One pair: two shapes of a common size, A's world pose, and B's placement relative to A.
#[derive(Clone, Debug)]
struct Case {
    a: Spec,
    b: Spec,
    /// Shape size (log-uniform in [1e-4, 1e4]).
    size: f64,
    /// A's world position (up to 1e6 in f64, 1e4 in f32).
    origin: [f64; 3],
    rotation_a: [f64; 3],
    relation: Relation,
}

fn case(max_offset: f64) -> BoxedStrategy<Case> {
    let (a, b) = (spec(), spec());
    // Identical shapes are a case of their own (coincident identical shapes, flush twins).
    let pair = prop_oneof![4 => (a, b), 1 => spec().prop_map(|s| (s.clone(), s))];
    (
        pair,
        -4.0f64..4.0,
        prop_oneof![
            Just([0.0; 3]),
            [-1.0f64..1.0, -1.0f64..1.0, -1.0f64..1.0].prop_map(move |o| o.map(|x| x * max_offset)),
        ],
        [-3.2f64..3.2, -3.2f64..3.2, -3.2f64..3.2],
        relation(),
    )
        .prop_map(|((a, b), e, origin, rotation_a, relation)| Case {
            a,
            b,
            size: 10f64.powf(e),
            origin,
            rotation_a,
            relation,
        })
        .boxed()
}

/// A case realised in precision `T`: the shapes, the poses the library is given, and the same
/// shapes and poses widened exactly to f64 for reference values.
struct Posed<T: Real> {
    a: Shape<T>,
    b: Shape<T>,
    pose_a: Isometry<T>,
    pose_b: Isometry<T>,
    wide_a: Shape<f64>,
    wide_b: Shape<f64>,
    /// docs/accuracy.md's accuracy for the pair (`rel · scale`).
    tol: f64,
    scale: f64,
    /// Coincident (hence coaxial) axisymmetric shapes: may legitimately end on an iteration cap.
    degenerate: bool,
}

impl<T: Real> Posed<T> {
    /// The tolerance of the deliberately degenerate case when it ends on a cap: 1e-3 × scale
    /// (f32: 1e-2 × scale), far looser than docs/accuracy.md's, but still a valid answer.
    fn loose_tol<U: Real>(&self) -> f64 {
        let rel: f64 = if precision_is_f32::<U>() { 1e-2 } else { 1e-3 };
        rel * self.scale
    }

    /// The tolerance for comparisons in the pipeline test.
    fn pipeline_tol(&self) -> f64 {
        if self.degenerate {
            self.loose_tol::<T>()
        } else {
            self.tol
        }
    }
}

fn rotation<T: Real>(v: &[f64; 3]) -> Rotation<T> {
    Rotation::from_scaled_axis(Vector::new(T::lit(v[0]), T::lit(v[1]), T::lit(v[2])))
}

/// A pose in `T` widened exactly to f64 (the quaternion renormalised in f64).
fn widen<T: Real>(pose: &Isometry<T>) -> Isometry<f64> {
    let q = pose.rotation.coords.map(T::as_f64);
    Isometry::from_parts(
        Translation3::from(pose.translation.vector.map(T::as_f64)),
        Rotation::new_normalize(Quaternion::from(q)),
    )
}

/// Whether two axisymmetric shapes, as placed, share their axis (a ball has every axis through
/// its centre): the deliberately degenerate case, judged on the poses the library is given (in
/// f32 far from the origin a small offset can round to a coincident placement).
fn coaxial(pose_a: &Isometry<f64>, pose_b: &Isometry<f64>, a: &Spec, b: &Spec, scale: f64) -> bool {
    let is_ball = |s: &Spec| match s {
        Spec::Ball(_) => true,
        Spec::Round(inner, _) => matches!(**inner, Spec::Ball(_)),
        _ => false,
    };
    let axis_a = pose_a.rotation * Vector::y();
    let axis_b = pose_b.rotation * Vector::y();
    let d = pose_b.translation.vector - pose_a.translation.vector;
    let off_axis = |axis: &Vector<f64>| (d - axis * d.dot(axis)).norm() <= 1e-6 * scale;
    match (is_ball(a), is_ball(b)) {
        (true, true) => true,
        (true, false) => off_axis(&axis_b),
        (false, true) => off_axis(&axis_a),
        (false, false) => axis_a.cross(&axis_b).norm() <= 1e-6 && off_axis(&axis_a),
    }
}

fn precision_is_f32<T: Real>() -> bool {
    size_of::<T>() == 4
}

impl Case {
    fn pose<T: Real>(&self) -> Posed<T> {
        let (a, b) = (self.a.build::<T>(self.size), self.b.build::<T>(self.size));
        let (wide_a, wide_b) = (
            self.a.build_wide::<T>(self.size),
            self.b.build_wide::<T>(self.size),
        );
        let origin = Vector::from(self.origin.map(T::lit));
        let rot_a = rotation::<T>(&self.rotation_a);
        let pose_a = Isometry::from_parts(Translation3::from(origin), rot_a);
        let pose_b = match &self.relation {
            Relation::Random {
                offset,
                rotation: r,
            } => Isometry::from_parts(
                Translation3::from(origin + Vector::from(offset.map(|x| T::lit(x * self.size)))),
                rotation::<T>(r),
            ),
            Relation::Flush {
                axis,
                gap,
                lateral,
                tilt,
                tilt_axis,
            } => {
                // In A's frame: the support of A along the axis and of B against it, both in
                // the same orientation, so flat faces are parallel.
                let mut n = Vector::<f64>::zeros();
                n[axis / 2] = if axis % 2 == 0 { 1.0 } else { -1.0 };
                let reach = wide_a.local_support_point(&n).coords.dot(&n)
                    + wide_b.local_support_point(&-n).coords.dot(&-n);
                let (u, v) = ((axis / 2 + 1) % 3, (axis / 2 + 2) % 3);
                let mut local = n * (reach + gap * self.size);
                local[u] += lateral[0] * self.size;
                local[v] += lateral[1] * self.size;
                let local_t = local.map(T::lit);
                let tilt_rot = Rotation::from_scaled_axis(
                    Vector::from(tilt_axis.map(T::lit))
                        .try_normalize(T::lit(1e-3))
                        .unwrap_or_else(Vector::x)
                        * T::lit(*tilt),
                );
                Isometry::from_parts(
                    Translation3::from(origin + rot_a * local_t),
                    rot_a * tilt_rot,
                )
            }
            Relation::Coincident => pose_a,
        };
        let scale = common::half_diagonal(&wide_a).max(common::half_diagonal(&wide_b));
        let rel = if precision_is_f32::<T>() {
            1e-4
        } else if self.a.curved() || self.b.curved() {
            1e-7
        } else {
            1e-9
        };
        let degenerate = self.a.axisymmetric()
            && self.b.axisymmetric()
            && coaxial(&widen(&pose_a), &widen(&pose_b), &self.a, &self.b, scale);
        Posed {
            a,
            b,
            pose_a,
            pose_b,
            wide_a,
            wide_b,
            tol: rel * scale,
            scale,
            degenerate,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Reference quantities (f64, from the poses the library was given).
// ---------------------------------------------------------------------------------------------

/// The separation of the two shapes along the world unit direction `n` (A → B): a lower bound
/// on their signed distance, equal to it when `n` is the minimising normal.
fn gap_along(
    a: &Shape<f64>,
    pose_a: &Isometry<f64>,
    b: &Shape<f64>,
    pose_b: &Isometry<f64>,
    n: &Vector<f64>,
) -> f64 {
    let top_a = a.support_point(pose_a, n).coords.dot(n);
    let bottom_b = b.support_point(pose_b, &-n).coords.dot(n);
    bottom_b - top_a
}

/// How far B's placement relative to A differs between two realisations of the same scene
/// (the second scaled down by `k`), as a bound on the change of the signed distance: the
/// translation difference plus the rotation angle times B's reach.
fn placement_change(
    first: (&Isometry<f64>, &Isometry<f64>),
    second: (&Isometry<f64>, &Isometry<f64>),
    k: f64,
    reach_b: f64,
) -> f64 {
    let rel1 = first.0.inv_mul(first.1);
    let rel2 = second.0.inv_mul(second.1);
    let dt = (rel2.translation.vector / k - rel1.translation.vector).norm();
    let da = rel1.rotation.angle_to(&rel2.rotation);
    let da_a = first.0.rotation.angle_to(&second.0.rotation);
    dt + (da + da_a) * (rel1.translation.vector.norm() + reach_b)
}

fn finite<T: Real>(xs: impl IntoIterator<Item = T>) -> bool {
    xs.into_iter().all(num_traits::Float::is_finite)
}

fn contact_is_finite<T: Real>(c: &Contact<T>) -> bool {
    finite(c.point1.iter().copied())
        && finite(c.point2.iter().copied())
        && finite(c.normal1.iter().copied())
        && finite(c.normal2.iter().copied())
        && finite([c.dist])
}

fn world_normal<T: Real>(c: &Contact<T>) -> Vector<f64> {
    c.normal1.into_inner().map(T::as_f64)
}

/// The unbounded contact (always `Some` for finite input).
fn full_contact<T: Real>(
    pose_a: &Isometry<T>,
    a: &Shape<T>,
    pose_b: &Isometry<T>,
    b: &Shape<T>,
) -> Result<Contact<T>, TestCaseError> {
    let c = contact(pose_a, a, pose_b, b, num_traits::Float::max_value())
        .map_err(|e| TestCaseError::fail(format!("refused finite input: {e}")))?
        .ok_or_else(|| TestCaseError::fail("no contact with an unbounded prediction"))?;
    prop_assert!(contact_is_finite(&c), "non-finite contact: {c:?}");
    Ok(c)
}

// ---------------------------------------------------------------------------------------------
// The properties.
// ---------------------------------------------------------------------------------------------

/// Properties 1–5 and 7 for one case.
fn check_queries<T: Real>(case: &Case) -> Result<(), TestCaseError> {
    let p = case.pose::<T>();
    let (wa, wb) = (widen(&p.pose_a), widen(&p.pose_b));
    let tol = p.tol;
    let eps = T::TOLERANCES.epsilon.as_f64();
    let reach_b = common::half_diagonal(&p.wide_b) * 2.0;

    // 1. Finite, and 7. converged.
    let c = full_contact(&p.pose_a, &p.a, &p.pose_b, &p.b)?;
    let d = c.dist.as_f64();
    if !p.degenerate {
        prop_assert_eq!(c.quality, ContactQuality::Converged, "{:?}", c);
    }
    // The deliberately degenerate case (coaxial axisymmetric shapes) may end on EPA's cap with
    // an honest but looser answer: it is held to 1e-3 × scale (f32: 1e-2) instead.
    let tol = if p.degenerate && c.quality != ContactQuality::Converged {
        p.loose_tol::<T>()
    } else {
        tol
    };
    let n = world_normal(&c);
    // The reported normal certifies the distance (docs/accuracy.md: a true minimiser).
    let along = gap_along(&p.wide_a, &wa, &p.wide_b, &wb, &n);
    // Rounding of the world poses (|origin|·ε) enters the reference support values.
    let world_rounding = 8.0 * eps * (wa.translation.vector.norm() + 4.0 * p.scale);
    prop_assert!(
        (along - d).abs() <= 2.0 * tol + world_rounding,
        "normal {n:?} gives gap {along:e}, dist {d:e} (tol {tol:e})"
    );

    // 2. Symmetry.
    let s = full_contact(&p.pose_b, &p.b, &p.pose_a, &p.a)?;
    let ds = s.dist.as_f64();
    let swap_rounding = 16.0 * eps * (reach_b + p.scale);
    prop_assert!(
        (ds - d).abs() <= 2.0 * tol + swap_rounding,
        "swapped dist {ds:e} vs {d:e} (tol {tol:e})"
    );
    let ns = world_normal(&s);
    let along_swapped = gap_along(&p.wide_a, &wa, &p.wide_b, &wb, &-ns);
    prop_assert!(
        (along_swapped - d).abs() <= 3.0 * tol + world_rounding,
        "swapped normal {ns:?}: gap {along_swapped:e} along its opposite, dist {d:e}"
    );
    if d > 100.0 * tol {
        // Apart: the direction is unique, and both normals are within √(2δ/d) of it.
        let delta = 3.0 * tol + world_rounding;
        let bound = 2.0 * (2.0 * delta / d).sqrt() + 1e3 * eps;
        prop_assert!(
            (n + ns).norm() <= bound,
            "normals {n:?} and {ns:?} are not opposite (bound {bound:e})"
        );
    }

    // 5. Sign agreement.
    let dist_only = distance(&p.pose_a, &p.a, &p.pose_b, &p.b)
        .map_err(|e| TestCaseError::fail(e.to_string()))?
        .as_f64();
    prop_assert!(dist_only.is_finite());
    prop_assert!(
        (dist_only - d).abs() <= 2.0 * tol,
        "distance {dist_only:e} vs contact {d:e}"
    );
    let touching = intersection_test(&p.pose_a, &p.a, &p.pose_b, &p.b)
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    let at_zero = contact(&p.pose_a, &p.a, &p.pose_b, &p.b, T::zero())
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    if let Some(z) = &at_zero {
        prop_assert!(contact_is_finite(z) && z.dist <= T::zero(), "{z:?}");
    }
    let margin = T::lit(p.scale);
    let closest = closest_points(&p.pose_a, &p.a, &p.pose_b, &p.b, margin)
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    if let ClosestPoints::WithinMargin(x, y) = &closest {
        prop_assert!(finite(x.iter().copied()) && finite(y.iter().copied()));
    }
    if d.abs() > 2.0 * tol {
        let inside = d < 0.0;
        prop_assert_eq!(touching, inside, "intersection_test vs dist {:e}", d);
        prop_assert_eq!(at_zero.is_some(), inside, "contact(0) vs dist {:e}", d);
        let expected = if inside {
            "intersecting"
        } else if d <= p.scale - 2.0 * tol {
            "within"
        } else if d > p.scale + 2.0 * tol {
            "disjoint"
        } else {
            "either"
        };
        let got = match closest {
            ClosestPoints::Intersecting => "intersecting",
            ClosestPoints::WithinMargin(..) => "within",
            ClosestPoints::Disjoint => "disjoint",
        };
        prop_assert!(
            expected == "either" || expected == got,
            "closest_points {got}, dist {d:e}"
        );
    }

    // 3. Invariance under a rigid motion of both shapes.
    let motion = Isometry::from_parts(
        Translation3::from(Vector::new(
            T::lit(0.37 * p.scale),
            T::lit(-1.3 * p.scale),
            T::lit(2.1 * p.scale),
        )),
        rotation::<T>(&[0.3, -1.1, 2.0]),
    );
    let (ma, mb) = (motion * p.pose_a, motion * p.pose_b);
    let m = full_contact(&ma, &p.a, &mb, &p.b)?;
    let dm = m.dist.as_f64();
    let moved = placement_change((&wa, &wb), (&widen(&ma), &widen(&mb)), 1.0, reach_b);
    prop_assert!(
        (dm - d).abs() <= 2.0 * tol + moved,
        "moved dist {dm:e} vs {d:e} (tol {tol:e}, pose rounding {moved:e})"
    );
    let nm = world_normal(&m);
    let along_moved = gap_along(&p.wide_a, &widen(&ma), &p.wide_b, &widen(&mb), &nm);
    let moved_rounding = 8.0 * eps * (widen(&ma).translation.vector.norm() + 4.0 * p.scale) + moved;
    prop_assert!(
        (along_moved - dm).abs() <= 2.0 * tol + moved_rounding,
        "moved normal {nm:?}: gap {along_moved:e} vs dist {dm:e}"
    );
    if d > 100.0 * tol + moved {
        let delta = 3.0 * tol + world_rounding + moved_rounding;
        let bound = 2.0 * (2.0 * delta / d).sqrt() + 1e3 * eps;
        let expected = widen(&motion).rotation * n;
        prop_assert!(
            (nm - expected).norm() <= bound,
            "moved normal {nm:?} vs rotated {expected:?} (bound {bound:e})"
        );
    }
    // The witness points move with the shapes.
    if !p.degenerate && d.abs() > 100.0 * tol {
        let back = widen(&motion).inverse();
        let mp1 = back * m.point1.map(T::as_f64);
        let p1 = c.point1.map(T::as_f64);
        // The witness is unique only for a unique closest feature; allow the sliding that a
        // flat contact permits, measured along the normal only.
        prop_assert!(
            ((mp1 - p1).dot(&n)).abs() <= 4.0 * tol + moved_rounding + 1e3 * eps * p.scale,
            "witness {mp1:?} vs {p1:?} along {n:?}"
        );
    }

    // 4. Scale covariance: the whole scene scaled by k.
    for k in [0.125, 10.0] {
        let scaled = Case {
            size: case.size * k,
            origin: case.origin.map(|x| x * k),
            ..case.clone()
        };
        let q = scaled.pose::<T>();
        let sc = full_contact(&q.pose_a, &q.a, &q.pose_b, &q.b)?;
        let dk = sc.dist.as_f64();
        // Shape parameters are rounded again after scaling (relative ε each).
        let change = placement_change(
            (&wa, &wb),
            (&widen(&q.pose_a), &widen(&q.pose_b)),
            k,
            reach_b,
        ) + 8.0 * eps * p.scale;
        prop_assert!(
            (dk / k - d).abs() <= 2.0 * tol + change,
            "scaled by {k}: dist {dk:e} / k vs {d:e} (tol {tol:e}, rounding {change:e})"
        );
    }
    Ok(())
}

/// Property 6 (and 7): a scene of several pairs through the pipeline, cold and warm, against
/// the single-pair `contact` of each.
fn check_pipeline<T: Real>(cases: &[Case], prediction_factor: f64) -> Result<(), TestCaseError> {
    let posed: Vec<Posed<T>> = cases.iter().map(Case::pose::<T>).collect();
    let mut colliders = Vec::new();
    let mut pairs = Vec::new();
    for (i, p) in posed.iter().enumerate() {
        colliders.push(Collider {
            id: 2 * i as u64,
            shape: p.a.clone(),
            pose: p.pose_a,
        });
        colliders.push(Collider {
            id: 2 * i as u64 + 1,
            shape: p.b.clone(),
            pose: p.pose_b,
        });
        pairs.push((2 * i, 2 * i + 1));
    }
    // One prediction for the whole scene: a fraction of the smallest pair's scale.
    let smallest = posed.iter().map(|p| p.scale).fold(f64::INFINITY, f64::min);
    let prediction = T::lit(prediction_factor * smallest);
    let mut narrow = NarrowPhase::new(NarrowPhaseConfig {
        prediction,
        threads: 1,
        ..NarrowPhaseConfig::default()
    })
    .map_err(|e| TestCaseError::fail(e.to_string()))?;
    for frame in 0..2 {
        let manifolds = narrow
            .update(&colliders, &pairs)
            .map_err(|e| TestCaseError::fail(e.to_string()))?
            .to_vec();
        prop_assert_eq!(manifolds.len(), pairs.len());
        let mut expected_caps = 0u64;
        for (p, m) in posed.iter().zip(&manifolds) {
            let tol = p.pipeline_tol();
            let single = contact(&p.pose_a, &p.a, &p.pose_b, &p.b, prediction)
                .map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert!(finite(m.local_normal1.iter().copied()));
            for point in &m.points {
                prop_assert!(
                    finite(point.local_point1.iter().copied())
                        && finite(point.local_point2.iter().copied())
                        && finite([point.dist, point.normal_impulse]),
                    "{point:?}"
                );
                prop_assert!(
                    point.dist.as_f64() <= prediction.as_f64() + 2.0 * tol,
                    "frame {frame}: point beyond the prediction: {point:?}"
                );
            }
            if p.degenerate {
                expected_caps +=
                    u64::from(single.is_some_and(|c| c.quality != ContactQuality::Converged));
            }
            match (&single, m.deepest()) {
                (Some(c), Some(deepest)) => {
                    let (dc, dm) = (c.dist.as_f64(), deepest.dist.as_f64());
                    prop_assert!(
                        (dc - dm).abs() <= 2.0 * tol,
                        "frame {frame}: deepest point {dm:e} vs contact {dc:e} (tol {:e})",
                        tol
                    );
                    // Same normal up to the accuracy (the pipeline is warm-started on frame 1).
                    let along = gap_along(
                        &p.wide_a,
                        &widen(&p.pose_a),
                        &p.wide_b,
                        &widen(&p.pose_b),
                        &m.world_normal(&p.pose_a).into_inner().map(T::as_f64),
                    );
                    let eps = T::TOLERANCES.epsilon.as_f64();
                    let rounding =
                        8.0 * eps * (widen(&p.pose_a).translation.vector.norm() + 4.0 * p.scale);
                    prop_assert!(
                        (along - dc).abs() <= 3.0 * tol + rounding,
                        "frame {frame}: manifold normal gap {along:e} vs contact {dc:e}"
                    );
                }
                (None, None) => {}
                (Some(c), None) => prop_assert!(
                    c.dist.as_f64() >= prediction.as_f64() - 2.0 * tol,
                    "frame {frame}: contact {c:?} but an empty manifold"
                ),
                (None, Some(deepest)) => prop_assert!(
                    deepest.dist.as_f64() >= prediction.as_f64() - 2.0 * tol,
                    "frame {frame}: manifold point {deepest:?} but no contact"
                ),
            }
        }
        let stats = narrow.stats();
        prop_assert_eq!(stats.pairs, pairs.len() as u64);
        // Only the deliberately degenerate pairs may end on a cap (and then they are counted).
        let degenerate = posed.iter().filter(|p| p.degenerate).count() as u64;
        if degenerate == 0 {
            prop_assert_eq!(
                (stats.iteration_limits, stats.fallbacks),
                (0, 0),
                "frame {}: {:?}",
                frame,
                stats
            );
        } else {
            prop_assert!(
                stats.iteration_limits + stats.fallbacks <= degenerate
                    && (frame > 0 || stats.iteration_limits + stats.fallbacks >= expected_caps),
                "frame {frame}: {stats:?}, {degenerate} degenerate pairs, {expected_caps} capped"
            );
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Runners.
// ---------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(common::fixed_config(6000, 0x6e70_6861_7365))]

    #[test]
    fn queries_f64(c in case(1e6)) {
        check_queries::<f64>(&c)?;
    }
}

proptest! {
    #![proptest_config(common::fixed_config(6000, 0x0f32_0f32))]

    #[test]
    fn queries_f32(c in case(1e4)) {
        check_queries::<f32>(&c)?;
    }
}

proptest! {
    #![proptest_config(common::fixed_config(1500, 0x7069_7065))]

    #[test]
    fn pipeline_agrees_with_contact_f64(
        cases in prop::collection::vec(case(1e6), 1..8),
        prediction in prop_oneof![Just(0.0), 0.0f64..0.2],
    ) {
        check_pipeline::<f64>(&cases, prediction)?;
    }

    #[test]
    fn pipeline_agrees_with_contact_f32(
        cases in prop::collection::vec(case(1e4), 1..8),
        prediction in prop_oneof![Just(0.0), 0.0f64..0.2],
    ) {
        check_pipeline::<f32>(&cases, prediction)?;
    }
}

/// Shapes of size exactly zero (a point ball, a box of zero extent, a zero-length capsule core,
/// all-identical hull points): valid degenerate shapes, which must still give finite answers.
#[test]
fn zero_size_shapes_give_finite_answers() {
    fn check<T: Real>() {
        let zero = T::zero();
        let one = T::one();
        let o = Point::origin();
        let shapes: Vec<Shape<T>> = vec![
            Shape::Ball(Ball::new(zero).expect("valid")),
            Shape::Cuboid(Cuboid::new(Vector::zeros()).expect("valid")),
            Shape::Cuboid(Cuboid::new(Vector::new(one, zero, one)).expect("valid")),
            Shape::Capsule(Capsule::new(zero, zero).expect("valid")),
            Shape::Cylinder(Cylinder::new(zero, one).expect("valid")),
            Shape::Cone(Cone::new(one, zero).expect("valid")),
            Shape::Segment(Segment::new(o, o).expect("valid")),
            Shape::Triangle(Triangle::new(o, o, o).expect("valid")),
            Shape::convex(&[Point::new(one, one, one); 3]).expect("valid"),
            Shape::Round(Arc::new(
                nphase_shapes::Round::new(Shape::Ball(Ball::new(zero).expect("valid")), zero)
                    .expect("valid"),
            )),
        ];
        let poses = [
            Isometry::identity(),
            Isometry::translation(zero, T::lit(0.5), zero),
            Isometry::translation(T::lit(3.0), zero, zero),
        ];
        for a in &shapes {
            for b in &shapes {
                for pose in &poses {
                    let c = full_contact(&Isometry::identity(), a, pose, b)
                        .unwrap_or_else(|e| panic!("{a:?} vs {b:?} at {pose:?}: {e}"));
                    let d = distance(&Isometry::identity(), a, pose, b).expect("finite input");
                    assert!(num_traits::Float::is_finite(d), "{a:?} {b:?}");
                    assert!(num_traits::Float::abs(d - c.dist) <= T::lit(1e-3));
                }
            }
        }
    }
    check::<f32>();
    check::<f64>();
}

/// The deliberately degenerate case: coincident identical smooth shapes have a whole valley of
/// equally deep normals, and EPA may end on its iteration cap (the local-refinement exit). The
/// answer is still valid — finite, a unit normal that certifies the depth — and the pipeline
/// counts it in `iteration_limits` instead of hiding it.
#[test]
fn coincident_identical_curved_shapes_are_valid_and_counted() {
    fn check<T: Real>() {
        let h = T::lit(0.5);
        let r = T::lit(0.3);
        let shapes: Vec<(Shape<T>, Shape<f64>)> = vec![
            (
                Shape::Cylinder(Cylinder::new(h, r).expect("valid")),
                Shape::Cylinder(Cylinder::new(h.as_f64(), r.as_f64()).expect("valid")),
            ),
            (
                Shape::Cone(Cone::new(h, r).expect("valid")),
                Shape::Cone(Cone::new(h.as_f64(), r.as_f64()).expect("valid")),
            ),
            (
                Shape::Capsule(Capsule::new(h, r).expect("valid")),
                Shape::Capsule(Capsule::new(h.as_f64(), r.as_f64()).expect("valid")),
            ),
        ];
        for (shape, wide) in &shapes {
            let pose = Isometry::translation(T::lit(10.0), T::lit(-2.0), T::lit(3.0));
            let c = full_contact(&pose, shape, &pose, shape).expect("valid answer");
            let n = world_normal(&c);
            assert!((n.norm() - 1.0).abs() < 1e-5, "{c:?}");
            let scale = common::half_diagonal(wide);
            let rel = if precision_is_f32::<T>() { 1e-4 } else { 1e-7 };
            let along = gap_along(wide, &widen(&pose), wide, &widen(&pose), &n);
            assert!(
                (along - c.dist.as_f64()).abs() <= 2.0 * rel * scale,
                "{shape:?}: gap {along} vs dist {}",
                c.dist
            );
            let colliders = [
                Collider {
                    id: 1,
                    shape: shape.clone(),
                    pose,
                },
                Collider {
                    id: 2,
                    shape: shape.clone(),
                    pose,
                },
            ];
            let mut narrow = NarrowPhase::new(NarrowPhaseConfig::<T>::default()).expect("valid");
            narrow.update(&colliders, &[(0, 1)]).expect("valid input");
            let stats = narrow.stats();
            let expected = u64::from(c.quality == ContactQuality::IterationLimit);
            assert_eq!(stats.iteration_limits, expected, "{shape:?}: {stats:?}");
            assert_eq!(
                stats.fallbacks,
                u64::from(c.quality == ContactQuality::Fallback),
                "{shape:?}: {stats:?}"
            );
            assert!(!narrow.manifolds()[0].points.is_empty(), "{shape:?}");
        }
    }
    check::<f32>();
    check::<f64>();
}

// ---------------------------------------------------------------------------------------------
// Regressions: cases the properties found, each fixed.
// ---------------------------------------------------------------------------------------------

fn run_queries<T: Real>(case: &Case) {
    if let Err(e) = check_queries::<T>(case) {
        panic!("{e}\n{case:#?}");
    }
}

fn run_pipeline<T: Real>(cases: &[Case], prediction: f64) {
    if let Err(e) = check_pipeline::<T>(cases, prediction) {
        panic!("{e}\n{cases:#?}");
    }
}

/// Regression: two coincident identical segments (f32) touch; GJK exits "touching" and EPA's
/// flat start left the signed depth a rounding error on the separated side, so `contact` with a
/// prediction of 0 returned a contact with `dist = +1.8e-8` — beyond the prediction it was asked
/// for (and the pipeline dropped every point of it). The distance of a contact from the
/// overlapping path is now clamped to the prediction.
#[test]
fn regression_touching_contact_stays_within_the_prediction() {
    let segment = Spec::Segment(
        [
            -0.09090667067605289,
            0.3080548036537417,
            -0.08819636089968694,
        ],
        [0.0, 0.0, -0.60069106097394],
    );
    let case = Case {
        a: segment.clone(),
        b: segment,
        size: 1.0,
        origin: [0.0; 3],
        rotation_a: [0.0, 2.6431582448698903, -2.3629590281059882],
        relation: Relation::Coincident,
    };
    run_queries::<f32>(&case);
    run_queries::<f64>(&case);
}

/// Regression: a cone against a triangle touched on its edge. The triangle's face (its only
/// feature) became the manifold's reference face although its normal was far from the contact
/// normal, and the cone's clipped base points, measured along the normal to the triangle's
/// plane, came out 1.79 deep where the exact contact was 0.085. No surface pair can be deeper
/// along the normal than the exact contact; such clipped points are now dropped.
#[test]
fn regression_manifold_points_are_never_deeper_than_the_contact() {
    let case = Case {
        a: Spec::Cone(0.9333636533060764, 0.5173923345278214),
        b: Spec::Triangle([
            [0.8015718209071567, 0.650193132493709, -0.33506997945763667],
            [0.0, 0.0, -0.0772053384528462],
            [0.0, 0.0, 0.0],
        ]),
        size: 1.0,
        origin: [0.0; 3],
        rotation_a: [-2.0273134031267372, -1.8009646399473216, 0.0],
        relation: Relation::Random {
            offset: [0.0, 0.44072112464868796, 0.0],
            rotation: [0.0, 0.0, -2.8871150241921693],
        },
    };
    run_pipeline::<f32>(std::slice::from_ref(&case), 0.0);
    run_pipeline::<f64>(std::slice::from_ref(&case), 0.0);
}

/// Regression: two nearly parallel capsules (one rounded), flush with a 1e-7 rad tilt. The
/// manifold measured every clipped point's height from the reference edge's first vertex; the
/// edge is not perpendicular to the normal when the contact sits at its end, so the deepest
/// point came out at +7.2e-8 where the contact was −7.2e-8 (f64). Heights are now measured from
/// the point of the edge beside each clipped vertex, and the exact witness joins the manifold
/// whenever the clipped points are shallower than it by more than the accuracy.
#[test]
fn regression_manifold_depth_on_a_tilted_edge() {
    let case = Case {
        a: Spec::Round(
            Box::new(Spec::Capsule(0.7155612315979977, 0.29477508387868534)),
            0.2875513175985729,
        ),
        b: Spec::Capsule(0.9750713823753946, 0.49795341398520176),
        size: 1.0,
        origin: [0.0; 3],
        rotation_a: [0.0; 3],
        relation: Relation::Flush {
            axis: 0,
            gap: 0.0,
            lateral: [0.0, 0.0],
            tilt: 1e-7,
            tilt_axis: [0.0, 0.0, 0.16919439522706523],
        },
    };
    run_pipeline::<f64>(std::slice::from_ref(&case), 0.0883954711947641);
    run_pipeline::<f32>(std::slice::from_ref(&case), 0.0883954711947641);
}

/// Regression: a cone 2 apart from a triangle (f32). GJK's first step descended by less than
/// the rounding of |v|² (the descent is quadratic in the open gap), so it reported "no progress"
/// with its certified bounds 2.5e-4 apart, EPA could not settle a separated pair, and the
/// answer was a `Fallback`. A grown simplex whose |v|² is unchanged up to rounding now keeps
/// iterating, and GJK converges.
#[test]
fn regression_f32_gjk_does_not_stall_on_a_rounding_sized_step() {
    let case = Case {
        a: Spec::Cone(0.8002508889762766, 0.2),
        b: Spec::Triangle([
            [
                -0.08865672979901,
                -0.006009870919556207,
                -0.9608941213965582,
            ],
            [0.0, -0.5102082870010751, -0.2811289254739512],
            [
                0.46343371182077026,
                -0.23429816615524215,
                0.3957497711161294,
            ],
        ]),
        size: 1.0,
        origin: [0.0; 3],
        rotation_a: [2.8642740470749257, 2.698265693333556, 1.8551565886961157],
        relation: Relation::Random {
            offset: [2.37234923358893, -0.27048022513072056, -1.0074462443504528],
            rotation: [
                -0.13263662166317375,
                -0.22906695986662828,
                0.48634290642970684,
            ],
        },
    };
    run_queries::<f32>(&case);
    run_queries::<f64>(&case);
}

/// Regression: a box and a cylinder of size 2.5e-3 at 1e4 from the origin (f32). EPA's curved
/// tolerance for f32 (1e-6 of the size) was below what f32 EPA reaches on a curved support
/// function (~5e-6), so it ran into its local-refinement exit and the pipeline counted an
/// iteration limit on an ordinary pair. The f32 curved tolerance is now the f32 accuracy (1e-5).
#[test]
fn regression_f32_epa_on_a_cylinder_converges() {
    let h = [0.770902131951015, 0.33928787440181174, 0.5493319923903837];
    let case = Case {
        a: Spec::Cuboid(h),
        b: Spec::Cylinder(0.4175748428747163, 0.7927212737210941),
        size: 0.0024829839448819997,
        origin: [-8347.092498978109, -1750.9905005249923, -9511.934518617387],
        rotation_a: [0.8256217000718303, 2.8478170188914573, -2.8764421657740162],
        relation: Relation::Random {
            offset: [-1.4459059628762119, 0.6656188345930181, 0.4921348179440703],
            rotation: [-0.4599947356116426, 1.6647635175971813, -1.3486792666508156],
        },
    };
    run_pipeline::<f32>(std::slice::from_ref(&case), 0.0);
    run_queries::<f32>(&case);
}

/// Regression: a big ball touching the flat cap of a rounded cylinder (size 420, f32), second
/// (warm-started) frame. GJK's duality gap is relative to the *core* distance (308, the radii
/// are most of it), which tolerates a tilt of ~1e-3 rad in v; along the 220-wide cap that tilt
/// is a support gap of −0.18 where the shapes touch. GJK now falls back to its certified axis
/// (placing B's witness on it) when neither the chosen normal nor the witness pair is within
/// the accuracy and the radii dominate.
#[test]
fn regression_f32_warm_started_normal_on_a_wide_flat_cap() {
    let case = Case {
        a: Spec::Ball(0.5607524533023893),
        b: Spec::Round(
            Box::new(Spec::Cylinder(0.7432422928068569, 0.3628941252014796)),
            0.16976184735237784,
        ),
        size: 421.62130405634514,
        origin: [0.0; 3],
        rotation_a: [0.0, 0.007276787867130518, -2.1138067548132238],
        relation: Relation::Flush {
            axis: 3,
            gap: 0.0,
            lateral: [0.17892680541086886, -0.1813525055837637],
            tilt: 0.0,
            tilt_axis: [0.0; 3],
        },
    };
    run_pipeline::<f32>(std::slice::from_ref(&case), 0.16894182603024618);
    run_pipeline::<f64>(std::slice::from_ref(&case), 0.16894182603024618);
}

/// Regression: two coincident copies of a sliver hull (a triangle 5e-9 of its length wide).
/// The shapes touch along their plane: distance 0, normal the triangle's. EPA's normal is a
/// plane through points of the Minkowski difference, which for a sliver tilts by
/// ~ε·length/width (5e-9 rad here), a support gap of −7.3e-8 against a tolerance of 7e-9. A
/// contact from EPA now takes a face normal of either shape when that certifies a larger
/// signed distance.
#[test]
fn regression_sliver_hull_contact_takes_the_exact_face_normal() {
    let sliver = Spec::Convex(vec![
        [1e-9, -1e-9, -0.0],
        [-1e-9, 1e-9, -0.0],
        [0.2618686201982513, 0.3015269032430115, 0.47955073763993594],
    ]);
    let case = Case {
        a: sliver.clone(),
        b: sliver,
        size: 23.338752010608697,
        origin: [0.0; 3],
        rotation_a: [0.0; 3],
        relation: Relation::Coincident,
    };
    run_queries::<f64>(&case);
    run_pipeline::<f64>(std::slice::from_ref(&case), 0.0);
}
