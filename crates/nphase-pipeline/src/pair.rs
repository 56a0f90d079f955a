//! The narrowphase of one pair: cores → GJK → (EPA) → a contact in A's frame.
//!
//! This is the single place where the pieces meet, used by the one-shot queries of
//! [`crate::query`] and by the pipeline:
//!
//! 1. ball–ball has a closed form (exact and branch-free), and so have a point core against a
//!    cuboid core (ball–box, ball–rounded box: the clamp of the point to the box) and
//!    overlapping boxes (the separating-axis test, [`crate::cuboid_sat`]);
//! 2. otherwise GJK runs on the cores with `max_dist = prediction`, warm-started from the
//!    pair's [`SimplexCache`];
//! 3. cores apart: the signed distance is exact (rounded shapes included); a contact is
//!    reported when it is within the prediction distance;
//! 4. cores overlapping: EPA from GJK's simplex gives the depth;
//! 5. a query that did not converge still returns its best estimate with a
//!    [`ContactQuality`] saying so — a pair is only reported apart when a certified lower
//!    bound says so (no silent drop).

use nphase_epa::{EpaOptions, EpaStatus, EpaWorkspace};
use nphase_gjk::{
    GjkInput, GjkOptions, GjkStatus, MinkowskiDifference, SimplexCache, closest_points,
};
use nphase_math::{Isometry, Point, Real, UnitVector, Vector};
use nphase_shapes::{Core, FeatureMap, Shape, SupportFeature, VertexId};

use crate::cuboid_sat::cuboid_penetration;
use num_traits::Float;

/// A contact between two shapes in A's frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LocalContact<T: Real> {
    /// Witness point on A's surface.
    pub point1: Point<T>,
    /// Witness point on B's surface; `point2 − point1 ≈ dist · normal`.
    pub point2: Point<T>,
    /// Unit normal from A toward B.
    pub normal: UnitVector<T>,
    /// Signed distance: positive gap, or minus the penetration depth.
    pub dist: T,
    /// How far to trust it.
    pub quality: ContactQuality,
}

/// How a contact was obtained.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ContactQuality {
    /// Exact to the tolerance of DESIGN.md (GJK or EPA converged, or a closed form).
    #[default]
    Converged,
    /// GJK or EPA stopped at its iteration cap; the best estimate.
    IterationLimit,
    /// GJK stalled or EPA met a degenerate polytope; the best estimate.
    Fallback,
}

/// The outcome of one pair query, with the work it took.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PairOutcome<T: Real> {
    /// The contact, if the shapes are within the prediction distance.
    pub contact: Option<LocalContact<T>>,
    /// GJK iterations.
    pub gjk_iterations: u32,
    /// Whether GJK started from the cached simplex.
    pub warm_started: bool,
    /// Whether EPA ran.
    pub epa_ran: bool,
    /// How the query ended, whether or not it produced a contact: a query that stopped on an
    /// iteration cap or fell back to an estimate is reported here even when that estimate put
    /// the pair beyond the prediction distance (then `contact` is `None`). When there is a
    /// contact, its `quality` is this.
    pub quality: ContactQuality,
    /// Whether GJK stalled (rounding on nearly parallel features) and EPA was asked to settle
    /// the answer. `quality` says whether it did (`Converged`) or the estimate was used
    /// (`Fallback`).
    pub gjk_stalled: bool,
}

/// Reusable scratch space of pair queries (EPA's polytope). One per thread.
#[derive(Debug, Default)]
pub struct PairWorkspace<T: Real> {
    epa: EpaWorkspace<T>,
    feature: SupportFeature<T>,
}

impl<T: Real> PairWorkspace<T> {
    /// An empty workspace.
    pub fn new() -> Self {
        PairWorkspace {
            epa: EpaWorkspace::new(),
            feature: SupportFeature::default(),
        }
    }
}

/// Queries shape A (at the origin) against shape B at `pos12`: the contact if their signed
/// distance is at most `prediction` (≥ 0). `cache` warm-starts GJK and is updated.
pub fn query_pair<T: Real>(
    shape1: &Shape<T>,
    shape2: &Shape<T>,
    pos12: &Isometry<T>,
    prediction: T,
    cache: &mut SimplexCache<T>,
    workspace: &mut PairWorkspace<T>,
) -> PairOutcome<T> {
    if let (Shape::Ball(b1), Shape::Ball(b2)) = (shape1, shape2) {
        return PairOutcome {
            contact: ball_ball(
                b1.radius(),
                b2.radius(),
                &pos12.translation.vector,
                prediction,
            ),
            ..PairOutcome::default()
        };
    }
    let (core1, radius1) = shape1.core();
    let (core2, radius2) = shape2.core();
    match (&core1, &core2) {
        (Core::Cuboid(c), Core::Point) => {
            let contact = cuboid_point(
                &c.half_extents(),
                radius1,
                &pos12.translation.vector,
                radius2,
                prediction,
            );
            return PairOutcome {
                contact,
                ..PairOutcome::default()
            };
        }
        (Core::Point, Core::Cuboid(c)) => {
            // In B's frame, where the cuboid sits at the origin, then back with A and B swapped.
            let center1 = pos12.inverse_transform_point(&Point::origin());
            let contact = cuboid_point(
                &c.half_extents(),
                radius2,
                &center1.coords,
                radius1,
                prediction,
            )
            .map(|c| LocalContact {
                point1: pos12 * c.point2,
                point2: pos12 * c.point1,
                normal: -(pos12.rotation * c.normal),
                ..c
            });
            return PairOutcome {
                contact,
                ..PairOutcome::default()
            };
        }
        (Core::Cuboid(a), Core::Cuboid(b)) => {
            // Overlapping boxes (resting stacks) have a closed form: the separating-axis test
            // gives the exact depth without EPA. Separated boxes go on to GJK, which measures
            // their distance.
            if let Some(mut contact) = cuboid_penetration(a, b, pos12) {
                let n = contact.normal.into_inner();
                contact.dist -= radius1 + radius2;
                contact.point1 += n * radius1;
                contact.point2 -= n * radius2;
                return PairOutcome {
                    contact: (contact.dist <= prediction).then_some(contact),
                    ..PairOutcome::default()
                };
            }
        }
        _ => {}
    }
    let input = GjkInput {
        shape1: &core1,
        radius1,
        shape2: &core2,
        radius2,
        pos12: *pos12,
        max_dist: prediction,
        options: GjkOptions::default(),
    };
    let gjk = closest_points(&input, cache);
    let curved = is_curved(&core1) || is_curved(&core2);
    let epa_options = EpaOptions {
        curved,
        ..EpaOptions::default()
    };
    let mut outcome = PairOutcome {
        gjk_iterations: gjk.stats.iterations,
        warm_started: gjk.stats.warm_started,
        ..PairOutcome::default()
    };
    // An estimate that did not converge is reported as a contact whenever its certified lower
    // bound is within the prediction (never a silent "apart"); its distance is then clamped to
    // the prediction, which lies within the certified bounds, so that a contact never reports a
    // distance beyond the prediction it was asked for (found by fuzzing: a stalled estimate of
    // 1e-4 returned for a prediction of 0).
    let separated = |c: &nphase_gjk::ClosestPoints<T>, quality| LocalContact {
        point1: c.point1,
        point2: c.point2,
        normal: c.normal,
        dist: Float::min(c.distance, prediction),
        quality,
    };
    outcome.contact = match gjk.status {
        GjkStatus::BeyondMaxDist(_) => None,
        GjkStatus::Separated(c) => {
            (c.distance <= prediction).then(|| separated(&c, ContactQuality::Converged))
        }
        GjkStatus::IterationLimit(c) => {
            outcome.quality = ContactQuality::IterationLimit;
            (c.lower_bound <= prediction).then(|| separated(&c, ContactQuality::IterationLimit))
        }
        GjkStatus::Stalled { estimate, simplex } => {
            outcome.gjk_stalled = true;
            // Rounding stalled GJK on nearly parallel features: EPA, whose normals come from
            // explicit faces, settles the signed distance from the same simplex. Its answer is
            // kept when it converged within GJK's bounds (up to rounding).
            outcome.epa_ran = true;
            let epa = nphase_epa::penetration(&input, &simplex, &epa_options, &mut workspace.epa);
            // Rounding scales with the size of the Minkowski difference, not with the distance.
            let size = simplex
                .vertices()
                .iter()
                .fold(T::zero(), |m, v| Float::max(m, v.w.norm()));
            let slack = T::TOLERANCES.gjk_relative_gap * (size + radius1 + radius2);
            let within =
                |d: T| d <= estimate.upper_bound + slack && d >= estimate.lower_bound - slack;
            match epa.status {
                EpaStatus::Converged(p) if within(-p.depth) => {
                    let settled = {
                        // EPA's normal and distance settle the answer. Its witness pair comes from
                        // a face's barycentric point, which is off `dist·n` when the origin lies
                        // outside the polytope near an edge, and GJK's pair may lean too. The pair
                        // with the smaller mismatch is aligned with EPA's normal: each point moves
                        // by half the (small, tangential) mismatch, which keeps it on its surface
                        // to second order.
                        let mut c = penetration_contact(&p, ContactQuality::Converged);
                        let n = c.normal.into_inner();
                        let mismatch = |p1: &Point<T>, p2: &Point<T>| (p2 - p1) - n * c.dist;
                        let m_gjk = mismatch(&estimate.point1, &estimate.point2);
                        let m_epa = mismatch(&c.point1, &c.point2);
                        let (p1, p2, m) = if m_gjk.norm() < m_epa.norm() {
                            (estimate.point1, estimate.point2, m_gjk)
                        } else {
                            (c.point1, c.point2, m_epa)
                        };
                        let half = m * T::lit(0.5);
                        c.point1 = p1 + half;
                        c.point2 = p2 - half;
                        snap_to_face_normal(&input, &mut c, &mut workspace.feature);
                        c
                    };
                    // The snapped normal can certify a slightly larger distance: the contact is
                    // reported only within the prediction (GJK did not prove an overlap here).
                    (settled.dist <= prediction).then_some(settled)
                }
                _ => {
                    // EPA could not settle it (the cores are apart: its polytope does not
                    // enclose the origin). GJK's own certified bounds may already be within
                    // the accuracy DESIGN.md promises (ten times `Tolerances::accuracy`) —
                    // rounding stalled it short of its much tighter internal gap (f32 on curved
                    // shapes far apart) — and then the estimate is a converged answer;
                    // otherwise it is a fallback.
                    let certified = estimate.upper_bound - estimate.lower_bound
                        <= T::lit(10.0) * T::TOLERANCES.accuracy * (size + radius1 + radius2);
                    let quality = if certified {
                        ContactQuality::Converged
                    } else {
                        ContactQuality::Fallback
                    };
                    outcome.quality = quality;
                    (estimate.lower_bound <= prediction).then(|| separated(&estimate, quality))
                }
            }
        }
        GjkStatus::Intersecting(simplex) => {
            outcome.epa_ran = true;
            let epa = nphase_epa::penetration(&input, &simplex, &epa_options, &mut workspace.epa);
            let quality = match epa.status {
                EpaStatus::Converged(_) => ContactQuality::Converged,
                EpaStatus::IterationLimit(_) => ContactQuality::IterationLimit,
                EpaStatus::Degenerate(_) => ContactQuality::Fallback,
            };
            outcome.quality = quality;
            let mut contact = penetration_contact(epa.status.penetration(), quality);
            if quality == ContactQuality::Fallback {
                best_sampled_axis(&input, &mut contact);
            }
            snap_to_face_normal(&input, &mut contact, &mut workspace.feature);
            // GJK found the cores overlapping or touching (within its touch tolerance), so the
            // shapes are within the prediction distance; a flat or touching start can leave
            // EPA's signed depth a rounding error on the separated side (a "distance" of
            // ~ε·size). Clamp it, so that a contact never reports a distance beyond the
            // prediction it was asked for (the pipeline would drop all its points).
            contact.dist = Float::min(contact.dist, prediction);
            Some(contact)
        }
    };
    outcome
}

/// Replaces EPA's normal by a face normal of either core when that certifies a larger signed
/// distance.
///
/// EPA's normals are planes through points of the Minkowski difference, each computed with a
/// rounding error of ~ε·size; on a sliver (a near-degenerate hull, a thin triangle) the plane
/// through them tilts by ~ε·length/width, and along the sliver's length that tilt is a support
/// gap far beyond the accuracy. The shapes' own face normals are exact. Every direction `c`
/// gives a certified lower bound on the signed distance (the support gap along it), so a face
/// normal whose gap exceeds the reported distance is strictly closer to the truth: the contact
/// takes it, and B's witness is placed at A's along it.
fn snap_to_face_normal<T: Real>(
    input: &GjkInput<'_, Core<'_, T>, Core<'_, T>, T>,
    contact: &mut LocalContact<T>,
    feature: &mut SupportFeature<T>,
) {
    // The support gap along c (A → B): D = A − B's support along c is the pair of A's top and
    // B's bottom along c, so −(D's support)·c is how far B's bottom lies beyond A's top.
    let gap = |c: &Vector<T>| {
        let w = MinkowskiDifference::new(input.shape1, input.shape2, &input.pos12).support(
            c,
            VertexId::NONE,
            VertexId::NONE,
        );
        -w.w.dot(c) - input.radius1 - input.radius2
    };
    let n = contact.normal.into_inner();
    input.shape1.local_support_feature(&n, feature);
    let face1 = (feature.vertices.len() >= 3).then_some(feature.normal.into_inner());
    let n2 = input.pos12.rotation.inverse_transform_vector(&-n);
    input.shape2.local_support_feature(&n2, feature);
    let face2 = (feature.vertices.len() >= 3)
        .then(|| -(input.pos12.rotation * feature.normal.into_inner()));
    let cos_flat = Float::cos(T::lit(nphase_shapes::FLAT_FEATURE_ANGLE));
    // Only a face beside the normal: its plane is the contact's plane up to rounding.
    let candidates = [face1, face2]
        .into_iter()
        .flatten()
        .filter(|c| c.dot(&n) > cos_flat);
    let mut best: Option<(Vector<T>, T)> = None;
    for c in candidates {
        // The current normal's own certificate is computed once, and only when a face is near.
        let floor = match best {
            Some((_, b)) => b,
            None => gap(&n),
        };
        let g = gap(&c);
        if g > floor {
            best = Some((c, g));
        } else if best.is_none() {
            best = Some((n, floor));
        }
    }
    if let Some((c, g)) = best.filter(|(c, _)| *c != n) {
        let c = UnitVector::new_normalize(c);
        contact.point1 += (c.into_inner() - n) * input.radius1;
        contact.point2 = contact.point1 + c.into_inner() * g;
        contact.normal = c;
        contact.dist = g;
    }
}

/// The fallback when EPA's polytope broke down (a very thin or long Minkowski difference in
/// f32): its estimate is not certified and can be anything — found by fuzzing: a ball on the
/// axis of a cylinder 14 000 long came out 7 213 *apart* while GJK had proven the overlap.
///
/// Every direction `c` certifies a lower bound on the signed distance, the support gap along it;
/// the best of a few candidates — EPA's normal, the axes of both shapes, the line between their
/// origins — is taken. It may overstate the depth, never hide the overlap, and is reported as a
/// `Fallback` (and counted by the pipeline).
fn best_sampled_axis<T: Real>(
    input: &GjkInput<'_, Core<'_, T>, Core<'_, T>, T>,
    contact: &mut LocalContact<T>,
) {
    let md = MinkowskiDifference::new(input.shape1, input.shape2, &input.pos12);
    let gap = |c: &Vector<T>| {
        let w = md.support(c, VertexId::NONE, VertexId::NONE);
        (-w.w.dot(c) - input.radius1 - input.radius2, w)
    };
    let rotation = input.pos12.rotation;
    let mut candidates: arrayvec::ArrayVec<Vector<T>, 16> = arrayvec::ArrayVec::new();
    candidates.push(contact.normal.into_inner());
    for i in 0..3 {
        let axis = Vector::ith(i, T::one());
        candidates.push(axis);
        candidates.push(rotation * axis);
    }
    if let Some(centres) = nphase_math::normalize_robust(&input.pos12.translation.vector) {
        candidates.push(centres.into_inner());
    }
    let mut best: Option<(Vector<T>, T, nphase_gjk::SimplexVertex<T>)> = None;
    for axis in candidates {
        for c in [axis, -axis] {
            let (g, w) = gap(&c);
            if best.as_ref().is_none_or(|(_, b, _)| g > *b) {
                best = Some((c, g, w));
            }
        }
    }
    if let Some((c, g, w)) = best {
        contact.normal = UnitVector::new_normalize(c);
        contact.dist = g;
        contact.point1 = w.a + c * input.radius1;
        contact.point2 = w.b - c * input.radius2;
    }
}

/// Whether a core has a curved support function (EPA converges on it only to a looser
/// tolerance). Balls and capsules are exact through their point and segment cores.
fn is_curved<T: Real>(core: &Core<'_, T>) -> bool {
    matches!(core, Core::Cylinder(_) | Core::Cone(_))
}

fn penetration_contact<T: Real>(
    p: &nphase_epa::Penetration<T>,
    quality: ContactQuality,
) -> LocalContact<T> {
    LocalContact {
        point1: p.point1,
        point2: p.point2,
        normal: p.normal,
        dist: -p.depth,
        quality,
    }
}

/// A cuboid core of half-extents `half` grown by `radius1`, at the origin, against the point
/// `center2` grown by `radius2`, exactly (the closest point of a box is the clamped point).
///
/// Outside the box the normal runs from the clamped point to `center2`; inside (or on the
/// surface) it is the outward normal of the face nearest to `center2` (the lowest axis on a
/// tie, the positive side for a zero coordinate) and the core distance is minus the depth below
/// that face.
fn cuboid_point<T: Real>(
    half: &Vector<T>,
    radius1: T,
    center2: &Vector<T>,
    radius2: T,
    prediction: T,
) -> Option<LocalContact<T>> {
    let clamped = center2.zip_map(half, |p, h| Float::min(Float::max(p, -h), h));
    let offset = center2 - clamped;
    let (normal, core_distance, on_core) = match nphase_math::normalize_robust(&offset) {
        // `normalize_robust` copes with a tiny offset; `n · offset` is its length without the
        // underflow of a squared norm.
        Some(n) => (n, n.dot(&offset), clamped),
        None => {
            let depth = half - center2.abs();
            let axis = (1..3).fold(0, |k, i| if depth[i] < depth[k] { i } else { k });
            let mut normal = Vector::zeros();
            normal[axis] = Float::copysign(T::one(), center2[axis]);
            let mut on_face = *center2;
            on_face[axis] = Float::copysign(half[axis], center2[axis]);
            (UnitVector::new_unchecked(normal), -depth[axis], on_face)
        }
    };
    let dist = core_distance - radius1 - radius2;
    if dist > prediction {
        return None;
    }
    let n = normal.into_inner();
    Some(LocalContact {
        point1: Point::from(on_core + n * radius1),
        point2: Point::from(center2 - n * radius2),
        normal,
        dist,
        quality: ContactQuality::Converged,
    })
}

/// Ball against ball, exactly: the centre line is the normal (for concentric balls any
/// direction is a valid normal; +y is used).
fn ball_ball<T: Real>(
    radius1: T,
    radius2: T,
    center2: &Vector<T>,
    prediction: T,
) -> Option<LocalContact<T>> {
    let center_distance = center2.norm();
    let dist = center_distance - radius1 - radius2;
    if dist > prediction {
        return None;
    }
    let normal = if center_distance > T::zero() && Float::is_finite(center_distance) {
        UnitVector::new_unchecked(center2 / center_distance)
    } else {
        Vector::y_axis()
    };
    Some(LocalContact {
        point1: Point::from(normal.into_inner() * radius1),
        point2: Point::from(center2 - normal.into_inner() * radius2),
        normal,
        dist,
        quality: ContactQuality::Converged,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use nphase_gjk::{GjkInput, GjkStatus, SimplexCache, closest_points};
    use nphase_math::Rotation;
    use nphase_shapes::{Ball, Cuboid, SupportMap};
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg64;

    /// The signed distance of the cores by GJK (and EPA when they overlap), an independent
    /// answer for the closed form.
    fn reference(
        shape1: &Shape<f64>,
        shape2: &Shape<f64>,
        pos12: &Isometry<f64>,
        workspace: &mut PairWorkspace<f64>,
    ) -> f64 {
        let ((core1, radius1), (core2, radius2)) = (shape1.core(), shape2.core());
        let input = GjkInput::new(&core1, &core2, *pos12).with_radii(radius1, radius2);
        match closest_points(&input, &mut SimplexCache::EMPTY.clone()).status {
            GjkStatus::Separated(c) => c.distance,
            GjkStatus::Intersecting(simplex) => {
                let options = EpaOptions::default();
                let epa = nphase_epa::penetration(&input, &simplex, &options, &mut workspace.epa);
                -epa.status.penetration().depth
            }
            other => panic!("reference query did not converge: {other:?}"),
        }
    }

    /// Ball against box and rounded box, both orders, centres inside, on and around the box:
    /// the closed form agrees with GJK/EPA on the distance (1e-12 of the size), its normal is a
    /// minimiser (the support gap along it is the distance) and its witness pair is
    /// `dist · normal` apart, on the surfaces.
    #[test]
    fn cuboid_point_closed_form_matches_gjk_and_epa() {
        let mut rng = Pcg64::seed_from_u64(11);
        let mut workspace = PairWorkspace::new();
        let (mut inside, trials) = (0, 4000);
        for trial in 0..trials {
            let half = Vector::from_fn(|_, _| rng.random_range(0.1..1.0));
            let cuboid = Shape::Cuboid(Cuboid::new(half).expect("valid"));
            let boxy = if trial % 3 == 0 {
                Shape::round(cuboid, rng.random_range(0.01..0.2)).expect("valid")
            } else {
                cuboid
            };
            let ball = Shape::Ball(Ball::new(rng.random_range(0.0..0.5)).expect("valid"));
            // Centres up to 1.5 half-extents out; a tenth snapped onto a face, edge or corner.
            let mut center = half.map(|h| h * rng.random_range(-1.5..1.5));
            if trial % 10 == 0 {
                for k in 0..rng.random_range(1..=3) {
                    center[k] = half[k].copysign(center[k]);
                }
            }
            inside += usize::from(center.iter().zip(half.iter()).all(|(c, h)| c.abs() < *h));
            // The ball's pose in the box's frame, with a random orientation of its own.
            let ball_pose = Isometry::from_parts(
                center.into(),
                Rotation::new(Vector::from_fn(|_, _| rng.random_range(-3.0..3.0))),
            );
            let scale = half.norm() + 0.7;
            for ball_first in [false, true] {
                let (shape1, shape2, pos12) = if ball_first {
                    (&ball, &boxy, ball_pose.inverse())
                } else {
                    (&boxy, &ball, ball_pose)
                };
                let outcome = query_pair(
                    shape1,
                    shape2,
                    &pos12,
                    f64::INFINITY,
                    &mut SimplexCache::EMPTY.clone(),
                    &mut workspace,
                );
                let c = outcome.contact.expect("within an infinite prediction");
                let truth = reference(shape1, shape2, &pos12, &mut workspace);
                let tol = 1e-12 * scale;
                assert!((c.dist - truth).abs() <= tol, "{} vs {truth}", c.dist);
                let n = c.normal.into_inner();
                let gap = -shape1.local_support_point(&n).coords.dot(&n)
                    - shape2.support_point(&pos12, &-n).coords.dot(&-n);
                assert!(
                    (gap - c.dist).abs() <= tol,
                    "normal gap {gap} vs {}",
                    c.dist
                );
                let mismatch = ((c.point2 - c.point1) - n * c.dist).norm();
                assert!(mismatch <= tol, "witnesses off dist·n by {mismatch}");
                let on1 = shape1.local_support_point(&n).coords.dot(&n) - c.point1.coords.dot(&n);
                let on2 =
                    shape2.support_point(&pos12, &-n).coords.dot(&n) - c.point2.coords.dot(&n);
                assert!(
                    on1.abs() <= tol && on2.abs() <= tol,
                    "witnesses off the surfaces"
                );
            }
        }
        // Representative: centres inside and outside the box alike.
        assert!(
            inside > trials / 5 && inside < trials * 4 / 5,
            "{inside} of {trials}"
        );
    }
}
