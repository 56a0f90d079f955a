//! The pair layer: the contact of two shapes in A's frame, one routine per pair of kinds.
//!
//! [`query_pair`] dispatches on the pair's kinds (shapes reduced to their *cores*: a ball is a
//! point core with a radius, a capsule a segment core, a rounded shape its inner shape):
//!
//! * ball–ball: the centre line (`ball_ball.rs`), exact;
//! * cylinder or cone cores against each other with parallel or meeting axes (coincident and
//!   nearly coincident shapes, whose minimum is a valley EPA cannot certify): the plane of the
//!   axes and the profiles' kinks (`revolution.rs`), exact;
//! * point core–cuboid core, either order (ball–box, ball–rounded box): the clamped point
//!   (`point_box.rs`), exact;
//! * point core–segment core, either order (ball–capsule): the clamped projection
//!   (`point_segment.rs`), exact;
//! * point core–cylinder or cone core, either order (ball–cylinder, ball–cone): the closest
//!   point of a rectangle or triangle in the point's radial half-plane (`point_cylinder.rs`,
//!   `point_cone.rs`), exact;
//! * segment core–segment core (capsule–capsule): the segments' closest points
//!   (`segment_segment.rs`), exact — unless the cores touch or cross within GJK's touch
//!   tolerance, which is left to the general path below;
//! * segment core–cuboid core, either order (capsule–box, capsule–rounded box): the minimum
//!   of the segment's convex, piecewise quadratic distance from the box (`segment_box.rs`),
//!   exact; cores within GJK's touch tolerance, or crossing, by the six separating axes of a
//!   box and a segment (a tie whose witnesses come out off their features, or cores apart
//!   by less than the touch tolerance, to the general path below);
//! * cuboid core–cuboid core overlapping: the fifteen axes of two boxes in closed form
//!   (`cuboid_sat.rs`, cheaper than the general test below on resting stacks); apart, the
//!   general test;
//! * polytope cores against each other (box, hull, triangle, in any pairing): GJK first (it
//!   measures a separated pair outright), unless the pair overlapped at its last query; when
//!   the cores overlap, the separating-axis test (`polytope_sat.rs`) from the pair's cached
//!   feature ([`SatCache`]): exact when they overlap or touch, "apart" when an axis separates
//!   them by more than the prediction; when they are apart by less, GJK's distance — no EPA.
//!   Per frame, while the pair's [`SatCertificate`] holds (the motion since its last full test
//!   within a certified margin), only the features it names are tested
//!   (`polytope_sat/certificate.rs`);
//! * everything else: GJK on the cores, EPA when they overlap
//!   (`convex_gjk.rs`), warm-started from the pair's
//!   [`SimplexCache`]; a pair that overlapped at its last query is first tried by a face
//!   normal and a point inside (`face_certificate.rs`), then starts with EPA from the polytope
//!   it kept ([`WarmPolytope`]), which proves the overlap without GJK when it still encloses
//!   the origin.
//!
//! Every routine answers in A's frame: A at the origin, B at `pos12`, the normal from A toward
//! B, the distance signed (negative when penetrating). A contact is reported when the signed
//! distance is at most the prediction distance; a query that did not converge still reports
//! its best estimate, with a [`ContactQuality`] saying so.

mod ball_ball;
mod contact;
mod convex_gjk;
mod cuboid_sat;
mod face_certificate;
mod lateral_azimuth;
mod point_box;
mod point_cone;
mod point_cylinder;
mod point_segment;
mod polytope_sat;
mod revolution;
mod rim_edge;
mod segment_box;
mod segment_segment;
#[cfg(test)]
mod test_poses;

pub(crate) use contact::Witnesses;
pub use contact::{ContactQuality, LocalContact, PairOutcome, Reuse, SupportHints, WinningFace};
pub(crate) use convex_gjk::shape_size;
pub use polytope_sat::{SatCache, SatCertificate, SatFeature};
pub(crate) use polytope_sat::{SatWorkspace, WitnessWorkspace, witness_over_face};

use nphase_epa::WarmPolytope;
use nphase_gjk::{GjkInput, GjkOptions, GjkStatus, Simplex, SimplexCache};
use nphase_math::{Isometry, Point, Real};
use nphase_shapes::{Core, Shape};
use num_traits::Float;

use crate::PairWorkspace;
use polytope_sat::{Polytope, SatInput, SatOutcome};

/// Queries shape A (at the origin) against shape B at `pos12`: the contact if their signed
/// distance is at most `prediction` (≥ 0). `cache` warm-starts GJK and is updated; see the
/// module doc for the branches. Polytope pairs start their separating-axis test cold (a pair
/// followed across frames keeps its feature with [`query_pair_cached`]).
pub fn query_pair<T: Real>(
    shape1: &Shape<T>,
    shape2: &Shape<T>,
    pos12: &Isometry<T>,
    prediction: T,
    cache: &mut SimplexCache<T>,
    workspace: &mut PairWorkspace<T>,
) -> PairOutcome<T> {
    let mut sat = SatCache::EMPTY;
    query_pair_cached(
        shape1, shape2, pos12, prediction, cache, &mut sat, None, workspace,
    )
}

/// [`query_pair`] with what the pair kept from its last query: the separating-axis feature
/// (`sat`) and EPA's polytope (`kept`, see [`WarmPolytope`]: the pair's slot, `None` inside
/// until a penetration on the general path keeps one, allocated then once for the pair), both
/// updated. `kept: None` keeps no polytope (a one-shot query: nothing to fill and drop).
#[allow(clippy::too_many_arguments)]
pub fn query_pair_cached<T: Real>(
    shape1: &Shape<T>,
    shape2: &Shape<T>,
    pos12: &Isometry<T>,
    prediction: T,
    cache: &mut SimplexCache<T>,
    sat: &mut SatCache,
    kept: Option<&mut Option<Box<WarmPolytope<T>>>>,
    workspace: &mut PairWorkspace<T>,
) -> PairOutcome<T> {
    query_pair_witnessed(
        shape1, shape2, pos12, prediction, cache, sat, kept, workspace, None,
    )
}

/// [`query_pair_cached`] as the per-frame pipeline runs it (`per_frame`: the pair's
/// [`SatCertificate`] slot), or as the public queries do (`None`). Per frame, a
/// separating-axis contact's witnesses are left to the manifold, which clips anyway
/// ([`Witnesses::ByManifold`]), and a penetrating polytope pair keeps a certificate that lets
/// the next frames test only the features that may still win (`polytope_sat/certificate.rs`).
#[allow(clippy::too_many_arguments)]
pub(crate) fn query_pair_witnessed<T: Real>(
    shape1: &Shape<T>,
    shape2: &Shape<T>,
    pos12: &Isometry<T>,
    prediction: T,
    cache: &mut SimplexCache<T>,
    sat: &mut SatCache,
    kept: Option<&mut Option<Box<WarmPolytope<T>>>>,
    workspace: &mut PairWorkspace<T>,
    per_frame: Option<&mut Option<Box<SatCertificate<T>>>>,
) -> PairOutcome<T> {
    let witnesses = if per_frame.is_some() {
        Witnesses::ByManifold
    } else {
        Witnesses::Exact
    };
    if let (Shape::Ball(b1), Shape::Ball(b2)) = (shape1, shape2) {
        let t = &pos12.translation.vector;
        let contact = ball_ball::ball_ball(b1.radius(), b2.radius(), t);
        return PairOutcome::closed_form(contact, prediction);
    }
    let (core1, radius1) = shape1.core();
    let (core2, radius2) = shape2.core();
    match (&core1, &core2) {
        (_, Core::Point) => {
            let center2 = Point::from(pos12.translation.vector);
            if let Some(contact) = against_point(&core1, radius1, &center2, radius2) {
                return PairOutcome::closed_form(contact, prediction);
            }
        }
        (Core::Point, _) => {
            // In B's frame, where B's core sits at the origin, then back with A and B swapped.
            let center1 = pos12.inverse_transform_point(&Point::origin());
            if let Some(contact) = against_point(&core2, radius2, &center1, radius1) {
                return PairOutcome::closed_form(contact.swapped_back(pos12), prediction);
            }
        }
        (Core::Segment(s1), Core::Segment(s2)) => {
            let small = smaller_size((&core1, radius1), (&core2, radius2));
            if let Some(contact) =
                segment_segment::segment_segment((s1, radius1), (s2, radius2), pos12, small)
            {
                return PairOutcome::closed_form(contact, prediction);
            }
        }
        (Core::Cuboid(c), Core::Segment(s)) | (Core::Segment(s), Core::Cuboid(c)) => {
            // In the box's frame, where it is axis-aligned; a box that is B's is answered in
            // B's frame, then turned back with A and B swapped.
            let small = smaller_size((&core1, radius1), (&core2, radius2));
            let half = c.half_extents();
            if matches!(core1, Core::Cuboid(_)) {
                let ends = [pos12 * s.a(), pos12 * s.b()];
                if let Some(contact) =
                    segment_box::box_segment((&half, radius1), (ends, radius2), small)
                {
                    return PairOutcome::closed_form(contact, prediction);
                }
            } else {
                let ends = [
                    pos12.inverse_transform_point(&s.a()),
                    pos12.inverse_transform_point(&s.b()),
                ];
                if let Some(contact) =
                    segment_box::box_segment((&half, radius2), (ends, radius1), small)
                {
                    return PairOutcome::closed_form(contact.swapped_back(pos12), prediction);
                }
            }
        }
        (Core::Cylinder(_) | Core::Cone(_), Core::Cylinder(_) | Core::Cone(_)) => {
            // With no prediction limit it answers whenever it applies: its distance is then
            // also the pair's lower bound when beyond the prediction.
            let pair = ((&core1, radius1), (&core2, radius2));
            if let Some(Some(contact)) =
                revolution::revolution_contact(pair.0, pair.1, pos12, T::infinity())
            {
                return PairOutcome::closed_form(contact, prediction);
            }
        }
        (Core::Cuboid(a), Core::Cuboid(b)) => {
            if let Some((contact, on_plane)) =
                cuboid_sat::cuboid_penetration(a, b, pos12, witnesses)
            {
                let contact = contact.grown_by(radius1, radius2);
                return PairOutcome {
                    sat_ran: true,
                    supports: SupportHints {
                        witness_on_plane: on_plane,
                        ..SupportHints::default()
                    },
                    ..PairOutcome::closed_form(contact, prediction)
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
        shape_sizes: [shape_size(&core1, radius1), shape_size(&core2, radius2)],
        options: GjkOptions::default(),
    };
    let (Some(a), Some(b)) = (Polytope::of(&core1), Polytope::of(&core2)) else {
        *sat = SatCache::EMPTY;
        return convex_gjk::convex_contact(
            &input,
            cache,
            kept,
            &mut workspace.epa,
            &mut workspace.feature,
        );
    };
    // Polytopes: GJK first unless the pair overlapped last time (it measures a separated pair
    // outright; measured cheaper on cold pairs, see polytope_sat.rs), the separating-axis test
    // when GJK finds the cores overlapping, or first for a pair that overlapped — except for
    // two lower-dimensional polytopes (`Polytope::lower_dimensional`), which the test alone
    // may not show apart.
    let mut gjk = None;
    let sat_first = sat.penetrating
        && sat.feature.is_some()
        && !(a.lower_dimensional() && b.lower_dimensional());
    if !sat_first {
        // (The simplex is not read: a stall on nearly touching features is settled by the
        // test too, not by EPA.)
        let out =
            convex_gjk::warm_or_cold(cache, |cache| nphase_gjk::closest_points(&input, cache));
        if !matches!(
            out.status,
            GjkStatus::Intersecting | GjkStatus::Stalled { .. }
        ) {
            return convex_gjk::contact_from_gjk(
                &input,
                (out, &Simplex::default()),
                &mut workspace.epa,
                &mut workspace.feature,
            );
        }
        gjk = Some(out);
    }
    let sat_input = SatInput {
        a,
        b,
        pos12,
        limit: prediction + radius1 + radius2,
        sizes: [shape_size(&core1, T::zero()), shape_size(&core2, T::zero())],
        witnesses,
    };
    let (outcome, hit, certified) =
        polytope_sat::polytope_contact(&sat_input, sat, per_frame, &mut workspace.sat);
    let (gjk_iterations, warm_started) = gjk
        .as_ref()
        .map_or((0, false), |g| (g.stats.iterations, g.stats.warm_started));
    let done = |o: PairOutcome<T>| PairOutcome {
        sat_ran: true,
        sat_cache_hit: hit,
        sat_certified: certified,
        gjk_iterations,
        warm_started,
        ..o
    };
    match (outcome, gjk) {
        (SatOutcome::Penetrating(contact, supports), _) => {
            let contact = contact.grown_by(radius1, radius2);
            done(PairOutcome {
                supports,
                ..PairOutcome::closed_form(contact, prediction)
            })
        }
        (SatOutcome::Apart { lower_bound }, _) => done(PairOutcome {
            lower_bound: lower_bound - radius1 - radius2,
            ..PairOutcome::default()
        }),
        // Apart by less than the prediction: GJK measures the distance (again, when it found
        // the cores touching within its tolerance and the test an axis just apart).
        (SatOutcome::Separated, _) => {
            let outcome = convex_gjk::convex_contact(
                &input,
                cache,
                kept,
                &mut workspace.epa,
                &mut workspace.feature,
            );
            PairOutcome {
                sat_ran: true,
                sat_cache_hit: hit,
                ..outcome
            }
        }
    }
}

/// The smaller of the two shapes' sizes (each core grown by its radius), the `small` of
/// docs/accuracy.md's small-on-large tolerance that the segment closed forms measure with.
fn smaller_size<T: Real>(
    (core1, radius1): (&Core<'_, T>, T),
    (core2, radius2): (&Core<'_, T>, T),
) -> T {
    Float::min(shape_size(core1, radius1), shape_size(core2, radius2))
}

/// A point core grown by `point_radius`, at `center` in `core`'s frame, against `core` grown
/// by `radius` (at the origin): the exact contact, `core` first (`point_box.rs`,
/// `point_cylinder.rs`, `point_cone.rs`, `point_segment.rs`); `None` for a core without a closed
/// form against a point.
fn against_point<T: Real>(
    core: &Core<'_, T>,
    radius: T,
    center: &Point<T>,
    point_radius: T,
) -> Option<LocalContact<T>> {
    Some(match core {
        Core::Cuboid(c) => {
            point_box::cuboid_point(&c.half_extents(), radius, &center.coords, point_radius)
        }
        Core::Cylinder(c) => point_cylinder::cylinder_point(c, radius, center, point_radius),
        Core::Cone(c) => point_cone::cone_point(c, radius, center, point_radius),
        Core::Segment(s) => point_segment::segment_point(s, radius, center, point_radius),
        Core::Point | Core::Triangle(_) | Core::Convex(_) => return None,
    })
}
