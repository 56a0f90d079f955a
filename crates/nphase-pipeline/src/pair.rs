//! The narrowphase of one pair: cores → GJK → (EPA) → a contact in A's frame.
//!
//! This is the single place where the pieces meet, used by the one-shot queries of
//! [`crate::query`] and by the pipeline:
//!
//! 1. ball–ball has a closed form (exact and branch-free), and so do overlapping boxes (the
//!    separating-axis test, [`crate::cuboid_sat`]);
//! 2. otherwise GJK runs on the cores with `max_dist = prediction`, warm-started from the
//!    pair's [`SimplexCache`];
//! 3. cores apart: the signed distance is exact (rounded shapes included); a contact is
//!    reported when it is within the prediction distance;
//! 4. cores overlapping: EPA from GJK's simplex gives the depth;
//! 5. a query that did not converge still returns its best estimate with a
//!    [`ContactQuality`] saying so — a pair is only reported apart when a certified lower
//!    bound says so (no silent drop).

use nphase_epa::{EpaOptions, EpaStatus, EpaWorkspace};
use nphase_gjk::{GjkInput, GjkOptions, GjkStatus, SimplexCache, closest_points};
use nphase_math::{Isometry, Point, Real, UnitVector, Vector};
use nphase_shapes::{Core, Shape};

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
}

/// Reusable scratch space of pair queries (EPA's polytope). One per thread.
#[derive(Debug, Default)]
pub struct PairWorkspace<T: Real> {
    epa: EpaWorkspace<T>,
}

impl<T: Real> PairWorkspace<T> {
    /// An empty workspace.
    pub fn new() -> Self {
        PairWorkspace {
            epa: EpaWorkspace::new(),
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
    // Overlapping boxes (resting stacks) have a closed form: the separating-axis test gives the
    // exact depth without EPA. Separated boxes go on to GJK, which measures their distance.
    if let (Core::Cuboid(a), Core::Cuboid(b)) = (&core1, &core2)
        && let Some(mut contact) = cuboid_penetration(a, b, pos12)
    {
        let n = contact.normal.into_inner();
        contact.dist -= radius1 + radius2;
        contact.point1 += n * radius1;
        contact.point2 -= n * radius2;
        return PairOutcome {
            contact: (contact.dist <= prediction).then_some(contact),
            ..PairOutcome::default()
        };
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
    let separated = |c: &nphase_gjk::ClosestPoints<T>, quality| LocalContact {
        point1: c.point1,
        point2: c.point2,
        normal: c.normal,
        dist: c.distance,
        quality,
    };
    outcome.contact = match gjk.status {
        GjkStatus::BeyondMaxDist(_) => None,
        GjkStatus::Separated(c) => {
            (c.distance <= prediction).then(|| separated(&c, ContactQuality::Converged))
        }
        GjkStatus::IterationLimit(c) => {
            (c.lower_bound <= prediction).then(|| separated(&c, ContactQuality::IterationLimit))
        }
        GjkStatus::Stalled { estimate, simplex } => {
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
                    (-p.depth <= prediction).then(|| {
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
                        c
                    })
                }
                _ => (estimate.lower_bound <= prediction)
                    .then(|| separated(&estimate, ContactQuality::Fallback)),
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
            Some(penetration_contact(epa.status.penetration(), quality))
        }
    };
    outcome
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
