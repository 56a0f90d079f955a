//! Convex against convex by GJK on the cores, EPA when they overlap (the general path of
//! [`query_pair`](super::query_pair)).
//!
//! 0. a pair whose cores overlapped at its last query is first answered, where it can be, by a
//!    face normal beside last frame's and a point of one shape inside the other
//!    (`face_certificate.rs`: two support points and an interior depth bracket the distance);
//!    else it starts EPA from the polytope it kept
//!    ([`nphase_epa::penetration_warm`]): re-evaluated at this pose, that polytope still lies in
//!    the Minkowski difference, so when every face clears the origin it proves the overlap
//!    (no GJK) and EPA's certificate from it is as good as a cold one; otherwise the pair goes
//!    on cold;
//! 1. GJK runs on the cores with `max_dist = prediction`, warm-started from the pair's
//!    [`SimplexCache`]; a warm start whose answer did not converge — GJK's or its EPA's —
//!    gives way to a cold query, whose answer and cache are kept (as [`warm_or_cold`] does
//!    for GJK alone on the polytope pairs' path): a seed can leave f32 GJK circling the optimum
//!    on curved cores, and a warm simplex that already encloses the origin hands EPA a start a
//!    cold GJK would not (a 1 cm capsule at a 6 km hull's corner in f32, fuzzed: EPA from it
//!    stopped on its cap at 71 m deep, the cold query converged at 1 cm);
//! 2. cores apart: the signed distance is exact (rounded shapes included); a contact is
//!    reported when it is within the prediction distance (a small core beside a large
//!    cylinder's side or cone's slant takes that surface's normal where it certifies more,
//!    `lateral_azimuth.rs`);
//! 3. cores overlapping: EPA from GJK's simplex gives the depth, and a face normal of either
//!    core — or, for a small core against a large cylinder's side or cone's slant, the azimuth
//!    of its deepest point (`lateral_azimuth.rs`) — replaces EPA's normal when it certifies a
//!    larger signed distance;
//! 4. GJK stalled on cores apart: EPA settles the distance from GJK's simplex (the witness
//!    pair on the support planes aligned with its normal, [`align_stalled_witnesses`]; the
//!    bounds GJK's and the support gap's along its normal, EPA's bracket being no certificate
//!    on cores apart) or, failing that, a small core's lateral normal beside a large cylinder
//!    or cone; a cylinder's or cone's rim facing a polytope's edge (a valley of normals) is
//!    solved as a circle against a line (`rim_edge.rs`);
//! 5. a query that did not converge still returns its best estimate with a [`ContactQuality`]
//!    saying so — a pair is only reported apart when a certified lower bound says so (no silent
//!    drop).

use arrayvec::ArrayVec;
use nphase_epa::{EpaOptions, EpaStatus, EpaWorkspace, WarmPolytope};
use nphase_gjk::{
    GjkInput, GjkOutput, GjkStatus, MinkowskiDifference, Simplex, SimplexCache, SimplexVertex,
    closest_points, closest_points_with_simplex,
};
use nphase_math::{Point, Real, SMALL_ON_LARGE_RATIO, UnitVector, Vector, segment_distance2};
use nphase_shapes::{Core, FeatureId, FeatureMap, SupportFeature, SupportMap, VertexId};
use num_traits::Float;

use super::{ContactQuality, LocalContact, PairOutcome, SupportHints};

/// The cores of a pair as GJK sees them (`max_dist` is the prediction distance).
pub(crate) type CoreInput<'a, T> = GjkInput<'a, Core<'a, T>, Core<'a, T>, T>;

/// The contact of two cores (see the module doc). `kept` is the pair's slot for the polytope
/// its last EPA left (kept again when this query's EPA converges on overlapping cores, emptied
/// otherwise), `None` for a query that keeps nothing; `epa` and `feature` are scratch space.
pub(crate) fn convex_contact<T: Real>(
    input: &CoreInput<'_, T>,
    cache: &mut SimplexCache<T>,
    kept: Option<&mut Option<Box<WarmPolytope<T>>>>,
    epa: &mut EpaWorkspace<T>,
    feature: &mut SupportFeature<T>,
) -> PairOutcome<T> {
    let kept_polytope = kept.as_deref().and_then(Option::as_deref);
    // A pair that overlapped at its last query: a face and a point inside may certify it, else
    // EPA starts from the polytope it kept.
    let certified = kept_polytope
        .filter(|k| !k.is_empty())
        .and_then(|_| super::face_certificate::face_certificate(input, cache, feature));
    let warm = kept_polytope
        .filter(|_| certified.is_none())
        .and_then(|k| nphase_epa::penetration_warm(input, k, &epa_options(input), epa));
    let outcome = match (certified, warm) {
        (Some(outcome), _) => outcome,
        (None, Some(out)) => {
            // The kept polytope stays as it was unless it has gone stale (see
            // `STALE_AFTER_ITERATIONS`); the grown one is kept then.
            let stale = out.stats.max_faces > 0 && out.stats.iterations > STALE_AFTER_ITERATIONS;
            let mut outcome = PairOutcome {
                epa_ran: true,
                epa_warm: true,
                ..PairOutcome::default()
            };
            // Certified at least the faces' margin deep: never "broken" whatever the scale.
            let contact = overlap_contact(input, out.status, T::zero(), &mut outcome, feature);
            outcome.contact = Some(contact);
            outcome.lower_bound = contact.lower_bound;
            if stale && let Some(k) = kept.and_then(|k| k.as_deref_mut()) {
                epa.keep(input, k);
            }
            outcome
        }
        (None, None) => {
            let warm_start = *cache != SimplexCache::EMPTY;
            let mut query = |cache: &mut SimplexCache<T>| {
                let mut simplex = Simplex::default();
                let gjk = closest_points_with_simplex(input, cache, &mut simplex);
                contact_from_gjk(input, (gjk, &simplex), epa, feature)
            };
            let mut outcome = query(cache);
            if warm_start && outcome.quality != ContactQuality::Converged {
                // An estimate is not an answer while a cold query may certify one (GJK's own
                // cap included: what `warm_or_cold` does for the polytope pairs' GJK alone).
                *cache = SimplexCache::EMPTY;
                let warm_iterations = outcome.gjk_iterations;
                outcome = query(cache);
                outcome.gjk_iterations += warm_iterations;
            }
            // Only a converged penetration of overlapping cores leaves a polytope worth keeping.
            let overlapped = outcome.epa_ran
                && !outcome.gjk_stalled
                && outcome.quality == ContactQuality::Converged
                && outcome.contact.is_some();
            if let Some(slot) = kept {
                if overlapped {
                    let k = slot.get_or_insert_with(|| Box::new(WarmPolytope::with_room()));
                    epa.keep(input, k);
                } else if let Some(k) = slot {
                    k.clear();
                }
            }
            // An overlap EPA did not settle, from the other side: its answer where that one
            // converged (the polytope of the other side is not kept).
            let unsettled = outcome.epa_ran
                && !outcome.gjk_stalled
                && outcome.quality != ContactQuality::Converged;
            let bracket = outcome.contact.map(|c| (c.lower_bound, c.upper_bound));
            match bracket
                .filter(|_| unsettled)
                .map(|b| overlap_from_other_side(input, b, epa, feature))
            {
                Some(Some(other)) => PairOutcome {
                    gjk_iterations: outcome.gjk_iterations + other.gjk_iterations,
                    ..other
                },
                _ => outcome,
            }
        }
    };
    // GJK's axis of an overlap is a rounding residue (or no GJK ran); the penetration's normal
    // is where the next frame's cold start on curved cores (no vertex ids to rebuild a simplex
    // from) should search, and what the next certificate starts from: along `−normal`, the
    // direction GJK keeps for a separated pair (`a − b` at the closest points).
    if (outcome.epa_ran || outcome.face_certified)
        && let Some(c) = &outcome.contact
    {
        cache.store_axis(&-c.normal.into_inner());
    }
    outcome
}

/// GJK (`run`) from the pair's cache, and again from [`SimplexCache::EMPTY`] — as a one-shot
/// query starts — when a warm start (a cached simplex or search axis) ended on the iteration
/// cap: the cold query's answer and cache are kept, with both runs' work counted. A cached axis
/// is only a seed, but from some seeds f32 GJK circles the optimum without closing its gap (a
/// cone 1 cm from a box in rapier's mixed pile: 128 iterations from last frame's axis, 18 from
/// B's centre), and an estimate is not an answer while a certified one is a query away. The
/// polytope pairs' GJK (`collide/mod.rs`) runs through this; [`convex_contact`] retries its
/// whole answer instead (EPA's included), which covers GJK's cap as well.
pub(crate) fn warm_or_cold<T: Real>(
    cache: &mut SimplexCache<T>,
    mut run: impl FnMut(&mut SimplexCache<T>) -> GjkOutput<T>,
) -> GjkOutput<T> {
    let warm = *cache != SimplexCache::EMPTY;
    let out = run(cache);
    if !(warm && matches!(out.status, GjkStatus::IterationLimit(_))) {
        return out;
    }
    *cache = SimplexCache::EMPTY;
    let mut cold = run(cache);
    cold.stats.iterations += out.stats.iterations;
    cold.stats.support_calls += out.stats.support_calls;
    cold
}

/// How many iterations a warm EPA may take before its grown polytope replaces the kept one.
///
/// The kept polytope stays inscribed in the Minkowski difference whatever the motion, so an old
/// one is always valid; it only needs more iterations as the pose drifts from the one it was
/// kept at. Keeping the grown polytope after every expansion costs a copy now and a larger
/// restore every frame after (it gains the vertices of every frame's refinement); keeping it
/// only once EPA took more than this many iterations gave the fewest instructions on the
/// coherence bench's pile (f32 and f64; 0, 2, 4, 6 and 8 tried).
const STALE_AFTER_ITERATIONS: u32 = 6;

/// EPA's options for a pair: the curved tolerance when either core is curved.
fn epa_options<T: Real>(input: &CoreInput<'_, T>) -> EpaOptions {
    EpaOptions {
        curved: is_curved(input.shape1) || is_curved(input.shape2),
        ..EpaOptions::default()
    }
}

/// [`convex_contact`] from GJK's answer (steps 2–5 of the module doc) and, for EPA, its final
/// simplex ([`closest_points_with_simplex`]; read only when the status is `Intersecting` or
/// `Stalled`).
pub(crate) fn contact_from_gjk<T: Real>(
    input: &CoreInput<'_, T>,
    (gjk, simplex): (GjkOutput<T>, &Simplex<T>),
    epa: &mut EpaWorkspace<T>,
    feature: &mut SupportFeature<T>,
) -> PairOutcome<T> {
    let (radius1, radius2, prediction) = (input.radius1, input.radius2, input.max_dist);
    let epa_options = epa_options(input);
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
        lower_bound: c.lower_bound,
        upper_bound: c.upper_bound,
        quality,
    };
    // GJK's certified lower bound, for a pair that ends without a contact.
    let mut apart_bound = match &gjk.status {
        GjkStatus::BeyondMaxDist(axis) => axis.lower_bound,
        GjkStatus::Separated(c) | GjkStatus::IterationLimit(c) => c.lower_bound,
        GjkStatus::Stalled { estimate, .. } => estimate.lower_bound,
        GjkStatus::Intersecting => T::neg_infinity(),
    };
    outcome.contact = match gjk.status {
        GjkStatus::BeyondMaxDist(_) => None,
        GjkStatus::Separated(c) if c.distance <= prediction => {
            // A small core beside a large cylinder's side or cone's slant: that normal, whose
            // certified distance may prove the pair beyond the prediction after all.
            let mut contact = separated(&c, ContactQuality::Converged);
            super::lateral_azimuth::settle_separated(input, &mut contact);
            apart_bound = Float::max(apart_bound, contact.lower_bound);
            (contact.dist <= prediction).then_some(contact)
        }
        GjkStatus::Separated(_) => None,
        GjkStatus::IterationLimit(c) => {
            outcome.quality = ContactQuality::IterationLimit;
            (c.lower_bound <= prediction).then(|| separated(&c, ContactQuality::IterationLimit))
        }
        GjkStatus::Stalled { estimate } => {
            outcome.gjk_stalled = true;
            // Rounding stalled GJK on nearly parallel features: EPA, whose normals come from
            // explicit faces, settles the signed distance from the same simplex. Its answer is
            // kept when it converged within GJK's bounds (up to rounding).
            outcome.epa_ran = true;
            let settled_by_epa = nphase_epa::penetration(input, simplex, &epa_options, epa);
            // Rounding scales with the size of the Minkowski difference, not with the distance;
            // the accuracy with the smaller shape.
            let size = simplex
                .vertices()
                .iter()
                .fold(T::zero(), |m, v| Float::max(m, v.w.norm()));
            let small = Float::min(input.small_scale(), size + radius1 + radius2);
            let slack = T::TOLERANCES.length(T::TOLERANCES.gjk_relative_gap, small, size);
            let within =
                |d: T| d <= estimate.upper_bound + slack && d >= estimate.lower_bound - slack;
            // EPA's estimate is taken when it converged within GJK's bounds, or when it ran out
            // of iterations with a certified bracket still narrower than GJK's (a needle against
            // a thin cylinder in f32: GJK's bounds straddled zero, EPA's did not) — then as the
            // estimate it is.
            let gjk_width = estimate.upper_bound - estimate.lower_bound;
            let from_epa = match settled_by_epa.status {
                EpaStatus::Converged(p) if within(-p.depth) => Some((p, ContactQuality::Converged)),
                EpaStatus::IterationLimit(p) if within(-p.depth) && p.gap + p.gap < gjk_width => {
                    Some((p, ContactQuality::IterationLimit))
                }
                _ => None,
            };
            let mut contact = match from_epa {
                Some((p, quality)) => {
                    outcome.quality = quality;
                    let settled = {
                        let mut c = penetration_contact(&p, quality);
                        // EPA ran on cores GJK proved neither apart nor overlapping: its
                        // bracket is a certificate only where its polytope enclosed the
                        // origin. GJK's bounds are one, and so is the support gap along EPA's
                        // normal: the contact's bounds are those (a small cone by a large
                        // rounded cone's slant, f32: EPA's bracket lay 4.6e-4 above the truth).
                        c.lower_bound = Float::max(
                            estimate.lower_bound,
                            support_gap(input, &c.normal.into_inner()),
                        );
                        c.upper_bound = Float::max(estimate.upper_bound, c.lower_bound);
                        align_stalled_witnesses(input, &estimate, &mut c);
                        outcome.supports = snap_to_face_normal(input, &mut c, feature);
                        settle_witnesses(input, &mut c, feature);
                        promote_within_promise(input, size, &mut c, &mut outcome);
                        c
                    };
                    // The snapped normal can certify a slightly larger distance: the contact is
                    // reported only within the prediction (GJK did not prove an overlap here).
                    (settled.dist <= prediction).then_some(settled)
                }
                None => {
                    // EPA could not settle it (the cores are apart: its polytope does not
                    // enclose the origin). GJK's own certified bounds may already be within
                    // the accuracy docs/accuracy.md promises (`Tolerances::promise`) — rounding
                    // stalled it short of its much tighter internal gap (f32 on curved shapes
                    // far apart) — and then the estimate is a converged answer; otherwise it
                    // is a fallback — unless a small core beside a large cylinder's side or
                    // cone's slant gets that normal, whose closed-form bounds may certify what
                    // GJK's could not (f32).
                    let large = Float::min(input.large_scale(), size + radius1 + radius2);
                    let promise = T::TOLERANCES.promise(small, large, size);
                    let mut c = separated(&estimate, ContactQuality::Fallback);
                    super::lateral_azimuth::settle_separated(input, &mut c);
                    if c.upper_bound - c.lower_bound <= promise {
                        c.quality = ContactQuality::Converged;
                    } else if let Some(settled) = from_larger_side(input, &c, epa, feature) {
                        c = settled;
                    }
                    outcome.quality = c.quality;
                    (c.lower_bound <= prediction).then_some(c)
                }
            };
            // A rim facing an edge is a valley GJK stalls in: its minimum in closed form.
            if let Some(c) = &mut contact {
                super::rim_edge::settle_rim_against_edge(input, c, feature);
            }
            contact
        }
        GjkStatus::Intersecting => {
            outcome.epa_ran = true;
            let epa = nphase_epa::penetration(input, simplex, &epa_options, epa);
            let size = simplex
                .vertices()
                .iter()
                .fold(T::zero(), |m, v| Float::max(m, v.w.norm()));
            Some(overlap_contact(
                input,
                epa.status,
                size,
                &mut outcome,
                feature,
            ))
        }
    };
    outcome.lower_bound = outcome.contact.map_or(apart_bound, |c| c.lower_bound);
    outcome
}

/// The witness pair of a stalled pair's contact, whose normal and distance EPA settled: EPA's
/// own pair or GJK's estimate's, aligned with the normal.
///
/// EPA's pair comes from a face's barycentric point, which is off `dist · n` when the origin
/// lies outside the polytope near an edge; GJK's pair lies on the shapes but belongs to GJK's
/// stalled direction, and where it stalled far from the answer (f32, a 7.5 cm cylinder's rim
/// 3.4e-6 from a large cylinder's side: GJK's estimate 1.8e-4) its points are off the support
/// sets along `n` — A's on its cap, 9e-5 below the rim's support plane. Aligning moves the
/// points across `n` by the shapes' sizes (`share_of_a`: the large shape's point moves, along
/// its flatter surface) and along `n` by halves; a point off its support plane along `n` is not
/// on the support set, and no move along `n` brings it there while keeping it on its shape.
/// So each pair is scored by what aligning cannot mend: its points' distances from their
/// support planes (one support query), and the small shape's share of the mismatch across
/// `n`. The pair with the smaller score is aligned.
fn align_stalled_witnesses<T: Real>(
    input: &CoreInput<'_, T>,
    estimate: &nphase_gjk::ClosestPoints<T>,
    c: &mut LocalContact<T>,
) {
    let n = c.normal.into_inner();
    let w = MinkowskiDifference::new(input.shape1, input.shape2, &input.pos12).support(
        &n,
        VertexId::NONE,
        VertexId::NONE,
    );
    let share1 = share_of_a(input);
    let mismatch = |p1: &Point<T>, p2: &Point<T>| (p2 - p1) - n * c.dist;
    let score = |p1: &Point<T>, p2: &Point<T>| {
        let m = mismatch(p1, p2);
        let across = (m - n * m.dot(&n)).norm() * Float::min(share1, T::one() - share1);
        Float::max(across, off_support_planes(input, &w, &n, (p1, p2)))
    };
    let (p1, p2) = if score(&estimate.point1, &estimate.point2) < score(&c.point1, &c.point2) {
        (estimate.point1, estimate.point2)
    } else {
        (c.point1, c.point2)
    };
    let m = mismatch(&p1, &p2);
    let along = n * (m.dot(&n) * T::lit(0.5));
    let across = m - n * m.dot(&n);
    c.point1 = p1 + along + across * share1;
    c.point2 = p2 - along - across * (T::one() - share1);
}

/// The contact of cores proven to overlap (GJK's simplex, or a kept polytope enclosing the
/// origin), from EPA's answer; `size` is the Minkowski difference's scale for the touch
/// tolerance. Sets `outcome`'s quality and supporting-feature hints.
fn overlap_contact<T: Real>(
    input: &CoreInput<'_, T>,
    status: EpaStatus<T>,
    size: T,
    outcome: &mut PairOutcome<T>,
    feature: &mut SupportFeature<T>,
) -> LocalContact<T> {
    // The cores overlap or touch within GJK's touch tolerance; an EPA estimate on the separated
    // side beyond (four times) that tolerance is a polytope that broke down, not an answer —
    // found by fuzzing: f32, a zero-width box inside a cone 1 000 times wider than high, EPA's
    // cap reached with the origin outside its polytope and a "depth" of −0.0022 (the cone's
    // half-height on the wrong side).
    let touch = {
        let small = Float::min(input.small_scale(), size + input.radius1 + input.radius2);
        T::lit(4.0) * T::TOLERANCES.length(T::TOLERANCES.gjk_touch, small, size)
    };
    let broken = !(status.penetration().depth >= -touch);
    let quality = match status {
        _ if broken => ContactQuality::Fallback,
        EpaStatus::Converged(_) => ContactQuality::Converged,
        EpaStatus::IterationLimit(_) => ContactQuality::IterationLimit,
        EpaStatus::Degenerate(_) => ContactQuality::Fallback,
    };
    outcome.quality = quality;
    let mut contact = penetration_contact(status.penetration(), quality);
    if quality == ContactQuality::Fallback {
        best_sampled_axis(input, &mut contact);
    }
    outcome.supports = snap_to_face_normal(input, &mut contact, feature);
    settle_witnesses(input, &mut contact, feature);
    promote_within_promise(input, size, &mut contact, outcome);
    // A flat or touching start can leave EPA's signed depth a rounding error on the separated
    // side (a "distance" of ~ε·size). Clamp it, so that a contact never reports a distance
    // beyond the prediction it was asked for (the pipeline would drop all its points).
    contact.dist = Float::min(contact.dist, input.max_dist);
    contact
}

/// Makes an EPA estimate (`IterationLimit`) whose bracket a face's or a side's normal narrowed
/// to docs/accuracy.md's promise a converged contact, as EPA's own bracket would be; `size` is
/// the Minkowski difference's scale.
fn promote_within_promise<T: Real>(
    input: &CoreInput<'_, T>,
    size: T,
    contact: &mut LocalContact<T>,
    outcome: &mut PairOutcome<T>,
) {
    let radii = input.radius1 + input.radius2;
    let promise = T::TOLERANCES.promise(
        Float::min(input.small_scale(), size + radii),
        Float::min(input.large_scale(), size + radii),
        size,
    );
    if contact.quality == ContactQuality::IterationLimit
        && contact.upper_bound - contact.lower_bound <= promise
    {
        contact.quality = ContactQuality::Converged;
        outcome.quality = ContactQuality::Converged;
    }
}

/// Replaces EPA's normal by a face normal of either core, by a normal across a supporting edge
/// of two polytopes (or across both their edges), or by the normal of a small core in a
/// large cylinder's side or cone's slant ([`side_normal`](super::lateral_azimuth::side_normal)),
/// when that certifies a larger signed distance.
///
/// EPA's normals are planes through points of the Minkowski difference, each computed with a
/// rounding error of ~ε·size; on a sliver (a near-degenerate hull, a thin triangle) the plane
/// through them tilts by ~ε·length/width, and along the sliver's length that tilt is a support
/// gap far beyond the accuracy. The shapes' own face normals are exact, and so are an edge's
/// direction and two edges' cross product. Every direction `c` gives a certified lower bound
/// on the signed distance (the support gap along it), so a candidate whose gap exceeds the
/// reported distance is strictly closer to the truth: the contact takes it, and B's witness is
/// placed at A's along it (two edges' normal: the edges' closest points, `edge_pair_witnesses`;
/// a side's or slant's normal: the small core's deepest point along it is its witness, the
/// large core's the distance along it).
/// The side's deepest point also bounds the distance from above in closed form: an estimate
/// above that bound gives way to the side's normal or, where the normal stands, to its
/// certified gap; and the bounds are widened, by rounding at most, to hold the distance.
///
/// Returns what it learnt of the supporting features for the manifold ([`SupportHints`],
/// hull cores only): a vertex of each hull's support set along the reported normal's
/// neighbourhood (where the manifold's search starts), and the face whose normal became the
/// contact's — that hull's supporting feature along it.
fn snap_to_face_normal<T: Real>(
    input: &CoreInput<'_, T>,
    contact: &mut LocalContact<T>,
    feature: &mut SupportFeature<T>,
) -> SupportHints {
    let gap = |c: &Vector<T>| support_gap(input, c);
    let n = contact.normal.into_inner();
    let mut hints = SupportHints::default();
    let hulls = [input.shape1, input.shape2].map(|s| matches!(s, Core::Convex(_)));
    // A feature's face id (for hulls) and first vertex, as hints.
    let learn = |feature: &SupportFeature<T>, k: usize, hints: &mut SupportHints| {
        if hulls[k]
            && let Some(&v) = feature.vertex_ids.first()
        {
            hints.vertices[k] = VertexId(v);
        }
        match feature.id {
            FeatureId::Face(f) if hulls[k] => Some(f),
            _ => None,
        }
    };
    // A side's supporting face normal along `dir` (its frame), and for a hull what it learnt;
    // other shapes' faces are not built (a cap's 16-gon is the manifold's to build).
    let mut face = |k: usize, shape: &Core<'_, T>, dir: &Vector<T>, hints: &mut SupportHints| {
        if !hulls[k] {
            return (shape.local_support_face_normal(dir, feature), None);
        }
        shape.local_support_feature(dir, feature);
        let normal = (feature.vertices.len() >= 3).then_some(feature.normal);
        (normal, learn(feature, k, hints))
    };
    let (face1, id1) = face(0, input.shape1, &n, &mut hints);
    let face1 = face1.map(|f| f.into_inner());
    let n2 = input.pos12.rotation.inverse_transform_vector(&-n);
    let (face2, id2) = face(1, input.shape2, &n2, &mut hints);
    let face2 = face2.map(|f| -(input.pos12.rotation * f.into_inner()));
    // A large cylinder's side or cone's slant, where a small shape sunk into it: the azimuth
    // of the deepest point (`lateral_azimuth.rs`).
    let side = super::lateral_azimuth::side_normal(input, &n);
    let radii = input.radius1 + input.radius2;
    // Its deepest point's signed distance from the large core, in closed form, bounds the
    // pair's from above whichever normal stands (a point of the small shape that deep).
    let mut estimate_above_side = false;
    if let Some(s) = side {
        let upper = s.outside - radii;
        estimate_above_side = contact.dist > upper;
        contact.upper_bound =
            Float::max(Float::min(contact.upper_bound, upper), contact.lower_bound);
    }
    // The candidates and their certified gaps. A face's normal only beside the normal: its
    // plane is the contact's plane up to rounding (on touching shapes many directions' gaps
    // agree up to rounding). The side's normal, its gap in closed form (`Side::gap`, sharper
    // than the support query's), also where the estimate lies above the side's bound or where
    // the side's gap exceeds the normal's by more than docs/accuracy.md's promise: either proves
    // the normal's answer beyond the tolerance, however far it turned (f32, small shapes near a
    // large cone's or cylinder's axis, where every azimuth is nearly as deep: a needle's EPA
    // normal 1 rad off the deepest azimuth, its estimate 8e-5 above the side's bound and called
    // converged; a ball's 0.16 rad off, its gap 1.5e-5 short).
    let cos_flat = Float::cos(T::lit(nphase_shapes::FLAT_FEATURE_ANGLE));
    let beside = |c: &Vector<T>| c.dot(&n) > cos_flat;
    // The current normal's own certificate, computed once, and only when a candidate needs it.
    let mut own: Option<T> = None;
    // Each with whether its feature is A's (for the witnesses, `face_witnesses`).
    let mut candidates = ArrayVec::<(Vector<T>, T, bool), 6>::new();
    for (c, of_a) in [(face1, true), (face2, false)] {
        if let Some(c) = c.filter(beside) {
            candidates.push((c, gap(&c), of_a));
        }
    }
    // Two polytopes' edges across the normal, where their faces do not lie flat: the normal
    // with its component along an edge removed, and the two edges' cross product. EPA's
    // normal can lean along a long edge by the sliver's rounding, and that lean times the
    // edge's length is a gap far beyond the accuracy (f32, a 9 cm triangle 4.9e-4 from the
    // edge of a box 150 long: EPA's normal 4e-6 rad along the edge, its gap 2.5e-4 short,
    // `disparity_s108` pair 264). Only between polytopes, whose witnesses across an edge are
    // a vertex's or the edges' closest points: a curved core's witness carried across a hull's
    // edge can leave the hull (a cylinder sunk in a hull, `disparity_s109` pair 980).
    let polytopes = is_polytope(input.shape1) && is_polytope(input.shape2);
    let edge1 = match face1 {
        _ if !polytopes => None,
        Some(f) if beside(&f) => None,
        _ => supporting_edge(input.shape1, &n, feature),
    };
    let edge2 = match face2 {
        _ if !polytopes => None,
        Some(f) if beside(&f) => None,
        _ => supporting_edge(input.shape2, &n2, feature).map(|e| e.map(|p| input.pos12 * p)),
    };
    // The crossing goes first: where its gap ties a single edge's up to rounding, it is the
    // exact one (edge on edge), and a tie keeps the first.
    let crossing = match (edge1, edge2) {
        (Some([a1, b1]), Some([a2, b2])) => {
            nphase_math::normalize_robust(&(b1 - a1).cross(&(b2 - a2)))
                .map(|c| {
                    if c.dot(&n) < T::zero() {
                        -c.into_inner()
                    } else {
                        c.into_inner()
                    }
                })
                .filter(beside)
        }
        _ => None,
    };
    if let Some(c) = crossing {
        let [size1, size2] = input.shape_sizes;
        candidates.push((c, gap(&c), size1 >= size2));
    }
    for (edge, of_a) in [(edge1, true), (edge2, false)] {
        let across = edge
            .and_then(|[a, b]| nphase_math::normalize_robust(&(b - a)))
            .and_then(|e| nphase_math::normalize_robust(&(n - e.into_inner() * n.dot(&e))));
        if let Some(c) = across {
            let c = c.into_inner();
            candidates.push((c, gap(&c), of_a));
        }
    }
    if let Some(s) = side {
        let g = Float::max(gap(&s.normal), s.gap - radii);
        let promise = pair_promise(input);
        if beside(&s.normal)
            || estimate_above_side
            || g > *own.get_or_insert_with(|| gap(&n)) + promise
        {
            candidates.push((s.normal, g, false));
        }
    }
    let mut best: Option<(Vector<T>, T, bool)> = None;
    for (c, g, of_a) in candidates {
        let floor = match best {
            Some((_, b, _)) => b,
            None => *own.get_or_insert_with(|| gap(&n)),
        };
        if g > floor {
            best = Some((c, g, of_a));
        } else if best.is_none() {
            best = Some((n, floor, false));
        }
    }
    if let Some((c, g, owner_is_a)) = best.filter(|(c, _, _)| *c != n) {
        // The face that gave c supports its hull along c.
        if Some(c) == face1 {
            hints.faces[0] = id1;
        } else if Some(c) == face2 {
            hints.faces[1] = id2;
        }
        let from_side = side.filter(|s| s.normal == c);
        let c = UnitVector::new_normalize(c);
        let u = c.into_inner();
        match from_side {
            // The small shape's deepest point is its witness (`lateral_azimuth.rs`).
            Some(s) => {
                (contact.point1, contact.point2) =
                    s.witnesses(&u, g, (input.radius1, input.radius2));
            }
            // Crossed supporting edges touch edge on edge, whichever of their normals won
            // (their gaps differ by rounding): the witnesses are the edges' closest points.
            None => match (edge1, edge2) {
                (Some(e1), Some(e2)) if crossing.is_some() => {
                    (contact.point1, contact.point2) = edge_pair_witnesses(input, (e1, e2), &u, g);
                }
                _ => {
                    (contact.point1, contact.point2) =
                        face_witnesses(input, contact, (&u, owner_is_a), g);
                }
            },
        }
        contact.normal = c;
        contact.dist = g;
        // The gap along c is a certified lower bound; EPA's upper bound stays (rounding aside,
        // it is above g).
        contact.lower_bound = Float::max(contact.lower_bound, g);
        contact.upper_bound = Float::max(contact.upper_bound, g);
    } else if let (Some(_), Some(e1), Some(e2)) = (crossing, edge1, edge2) {
        // The normal stands, on two crossed supporting edges: the witnesses belong on them.
        witnesses_on_crossed_edges(input, contact, (e1, e2));
    } else if let Some((_, g, _)) = best.filter(|_| estimate_above_side) {
        // The normal stands (the side was a candidate, and lost), its estimate does not: the
        // distance becomes the normal's certified gap (`settle_witnesses` then places the
        // witnesses on it). A small cone near a large cylinder's axis, f32: EPA's normal right
        // to 2e-7, its estimate 1e-4 above the side's bound, the side's own normal a rounding
        // error worse by its gap.
        contact.lower_bound = Float::max(contact.lower_bound, g);
        contact.dist = Float::min(contact.lower_bound, contact.upper_bound);
    }
    // Every gap and bound above carries the rounding of the larger shape's coordinates (a few
    // `ε·size`); where the distance and a bound disagree by that much, the bound widens to the
    // distance, so that a contact's distance always lies within its bounds (a side's gap below
    // EPA's lower bound by 8 ε of a cone 46 long, f32).
    // (Compared, not `min`/`max`: a bound that is not a number stays one, and fails safe.)
    if contact.dist < contact.lower_bound {
        contact.lower_bound = contact.dist;
    }
    if contact.dist > contact.upper_bound {
        contact.upper_bound = contact.dist;
    }
    hints
}

/// The witness pair of a contact whose normal becomes the face normal `u` (unit, A's frame; A's
/// face if `owner_is_a`, else B's) at the certified distance `g`: `g · u` apart, each on its
/// shape.
///
/// EPA's witnesses are a face's barycentric points, off the shapes across the normal by the
/// rounding of the larger shape's coordinates; a small shape's is off its shape by as much
/// (f32, `disparity_s72` pair 551: a 1 cm cone 7e-4 into a rounded box of size 200, the cone's
/// witness 1.4e-4 outside it). Where the face is the large shape's (a size ratio of
/// [`SMALL_ON_LARGE_RATIO`] or more) and the small shape touches it at one point (a vertex,
/// a rim: [`single_support_point`]), that point is the small shape's witness — exact — and the
/// large shape's lies `g` along the normal from it. Otherwise (comparable sizes; the small
/// shape's face, under which a curved large shape's touching point is not the small one's
/// support point; or a small face or edge flat on the large one, whose support point may hang
/// past the large face's edge) A's witness is kept, moved onto its surface along the normal,
/// and B's placed `g` along it.
pub(super) fn face_witnesses<T: Real>(
    input: &CoreInput<'_, T>,
    contact: &LocalContact<T>,
    (u, owner_is_a): (&Vector<T>, bool),
    g: T,
) -> (Point<T>, Point<T>) {
    let [size1, size2] = input.shape_sizes;
    let ratio = T::lit(SMALL_ON_LARGE_RATIO);
    if !owner_is_a
        && size2 >= ratio * size1
        && let Some(a) = single_support_point(input.shape1, u, size1)
    {
        let point1 = a + u * input.radius1;
        return (point1, point1 + u * g);
    }
    let down = input.pos12.rotation.inverse_transform_vector(&-u);
    if owner_is_a
        && size1 >= ratio * size2
        && let Some(b) = single_support_point(input.shape2, &down, size2)
    {
        let point2 = input.pos12 * b - u * input.radius2;
        return (point2 - u * g, point2);
    }
    let n = contact.normal.into_inner();
    let point1 = contact.point1 + (u - n) * input.radius1;
    (point1, point1 + u * g)
}

/// The support point of `core` along `dir` (its frame) where its support set there is one
/// point up to a hundredth of `size`: the support points along `dir` tilted by 1e-4 rad four
/// ways stay that close (a vertex's stay put, a curved surface's move by its radius × 1e-4;
/// a face's or an edge's jump across it). `None` for a face or an edge.
fn single_support_point<T: Real>(core: &Core<'_, T>, dir: &Vector<T>, size: T) -> Option<Point<T>> {
    let d = nphase_math::normalize_robust(dir)?.into_inner();
    let p = core.local_support_point(&d);
    let helper = if Float::abs(d.x) < T::lit(0.5) {
        Vector::x()
    } else {
        Vector::y()
    };
    let t1 = nphase_math::normalize_robust(&d.cross(&helper))?.into_inner();
    let t2 = d.cross(&t1);
    let tilt = T::lit(1e-4);
    let reach = T::lit(1e-2) * size;
    [t1, -t1, t2, -t2]
        .iter()
        .all(|t| (core.local_support_point(&(d + t * tilt)) - p).norm() <= reach)
        .then_some(p)
}

/// Whether a core is a polytope: a box, a triangle or a convex hull.
fn is_polytope<T: Real>(core: &Core<'_, T>) -> bool {
    matches!(core, Core::Cuboid(_) | Core::Triangle(_) | Core::Convex(_))
}

/// The ends of a polytope core's edge that supports it along `dir` (its frame): of its
/// supporting face's edges through the support vertex, the one nearest perpendicular to `dir`,
/// where that is within the flat angle ([`FLAT_FEATURE_ANGLE`]) and the face itself leans
/// further than that from `dir` (else the face supports it). `None` for other cores, and where
/// no edge is that near perpendicular (a vertex supports the core).
///
/// [`FLAT_FEATURE_ANGLE`]: nphase_shapes::FLAT_FEATURE_ANGLE
fn supporting_edge<T: Real>(
    core: &Core<'_, T>,
    dir: &Vector<T>,
    feature: &mut SupportFeature<T>,
) -> Option<[Point<T>; 2]> {
    if !is_polytope(core) {
        return None;
    }
    let d = nphase_math::normalize_robust(dir)?.into_inner();
    core.local_support_feature(&d, feature);
    let flat = T::lit(nphase_shapes::FLAT_FEATURE_ANGLE);
    let count = feature.vertices.len();
    if count < 3 || feature.normal.dot(&d) > Float::cos(flat) {
        return None;
    }
    let height = |k: usize| feature.vertices[k].coords.dot(&d);
    let top = (0..count).map(height).fold(T::neg_infinity(), Float::max);
    let mut best: Option<(T, [Point<T>; 2])> = None;
    for k in 0..count {
        let ends = [feature.vertices[k], feature.vertices[(k + 1) % count]];
        if height(k) < top && height((k + 1) % count) < top {
            continue;
        }
        let Some(e) = nphase_math::normalize_robust(&(ends[1] - ends[0])) else {
            continue;
        };
        let lean = Float::abs(e.dot(&d));
        if lean < Float::sin(flat) && best.is_none_or(|(b, _)| lean < b) {
            best = Some((lean, ends));
        }
    }
    best.map(|(_, ends)| ends)
}

/// The witness pair of a contact on two crossed supporting edges (`e1` A's, `e2` B's, both in
/// A's frame) whose normal `u` (unit, A's frame) is their cross product or beside it (either
/// edge's normal across the contact normal, whose gap beat the cross product's by rounding), at
/// the certified distance `g`: the edges' closest points
/// ([`closest_parameters`](super::polytope_sat::closest_parameters)), the smaller shape's taken
/// as its witness and the larger one's placed `g` along `u` from it, as [`face_witnesses`]
/// places them.
fn edge_pair_witnesses<T: Real>(
    input: &CoreInput<'_, T>,
    ([a1, b1], [a2, b2]): ([Point<T>; 2], [Point<T>; 2]),
    u: &Vector<T>,
    g: T,
) -> (Point<T>, Point<T>) {
    let (d1, d2) = (b1 - a1, b2 - a2);
    let (s, t) = super::polytope_sat::closest_parameters(&a1.coords, &d1, &a2.coords, &d2);
    let [size1, size2] = input.shape_sizes;
    if size1 <= size2 {
        let point1 = a1 + d1 * s + u * input.radius1;
        (point1, point1 + u * g)
    } else {
        let point2 = a2 + d2 * t - u * input.radius2;
        (point2 - u * g, point2)
    }
}

/// The witnesses of a contact whose normal stands on two crossed supporting edges (`e1` A's,
/// `e2` B's, A's frame; their cross product beside the normal): where either point of the pair
/// in hand — its core point, less its radius along the normal — lies off its edge by more than
/// docs/accuracy.md's promise, the edges' closest points instead ([`edge_pair_witnesses`], at
/// the contact's distance along its normal). A pair aligned with the normal lies on the two
/// support planes, but a plane through an edge holds points beyond the shape: a stalled GJK's
/// pair slid along B's edge to its corner, and A's point, carried `dist · n` from it, left a
/// triangle 3.2e-3 beyond its edge (f32, a 2 cm box 2.7e-6 from the edge of a triangle 91
/// long, the edges 40° apart: `disparity_s136` pair 975). Where the pair is on its edges it
/// stays as it is.
fn witnesses_on_crossed_edges<T: Real>(
    input: &CoreInput<'_, T>,
    contact: &mut LocalContact<T>,
    (e1, e2): ([Point<T>; 2], [Point<T>; 2]),
) {
    let n = contact.normal.into_inner();
    let off = |p: &Point<T>, [a, b]: [Point<T>; 2]| segment_distance2(&a, &b, p);
    let core1 = contact.point1 - n * input.radius1;
    let core2 = contact.point2 + n * input.radius2;
    let promise = pair_promise(input);
    // NaN keeps the pair.
    if Float::max(off(&core1, e1), off(&core2, e2)) > promise * promise {
        (contact.point1, contact.point2) = edge_pair_witnesses(input, (e1, e2), &n, contact.dist);
    }
}

/// docs/accuracy.md's promise for the pair in A's frame ([`Tolerances::promise`]): relative to
/// its smaller and larger shapes, in coordinates up to the larger shape's size beyond B's
/// offset — what two certified answers of the pair may differ by and both be right.
///
/// [`Tolerances::promise`]: nphase_math::Tolerances::promise
pub(super) fn pair_promise<T: Real>(input: &CoreInput<'_, T>) -> T {
    let size = input.large_scale() + input.pos12.translation.vector.norm();
    T::TOLERANCES.promise(input.small_scale(), input.large_scale(), size)
}

/// The support gap of the pair along `c` (A's frame, from A toward B; radii included): how far
/// B's bottom lies beyond A's top along `c`, `−(A − B)'s support · c`. For a unit `c`, a
/// certified lower bound on the signed distance (up to rounding).
pub(super) fn support_gap<T: Real>(input: &CoreInput<'_, T>, c: &Vector<T>) -> T {
    support_gap_at(input, c).0
}

/// [`support_gap`] and the support point of the cores' difference that measured it (its `a`
/// and `b`: A's highest core point along `c` and B's lowest, A's frame, radii not added).
pub(super) fn support_gap_at<T: Real>(
    input: &CoreInput<'_, T>,
    c: &Vector<T>,
) -> (T, SimplexVertex<T>) {
    let w = MinkowskiDifference::new(input.shape1, input.shape2, &input.pos12).support(
        c,
        VertexId::NONE,
        VertexId::NONE,
    );
    (-w.w.dot(c) - input.radius1 - input.radius2, w)
}

/// How far a witness pair (A's frame) lies off the two support planes along the unit `n`: the
/// larger of A's point's distance from A's plane and B's from B's, `w` being the pair's
/// support point along `n` (its `a` and `b` the cores' supports, the radii added here).
fn off_support_planes<T: Real>(
    input: &CoreInput<'_, T>,
    w: &SimplexVertex<T>,
    n: &Vector<T>,
    (p1, p2): (&Point<T>, &Point<T>),
) -> T {
    let plane1 = Float::abs((p1 - w.a).dot(n) - input.radius1);
    let plane2 = Float::abs((p2 - w.b).dot(n) + input.radius2);
    Float::max(plane1, plane2)
}

/// Makes the witness pair of a contact describe its normal and distance: each point on its
/// shape's support plane along the normal, and `point2 − point1 = dist · normal`.
///
/// EPA's witnesses are barycentric combinations of the support points at a face of its
/// polytope. Where that face is a sliver — a small shape against a large cylinder: the face
/// spans the cylinder's height and a sliver of its azimuth — its barycentric weights are
/// ill-conditioned, and the pair can be off `dist · normal` (or off the support planes) by far
/// more than the accuracy, although the depth and normal are right.
///
/// When the pair is off by more than docs/accuracy.md promises (checked with one support
/// query), B is moved along the normal until the shapes are apart by the small scale `ε` (by
/// `ε − dist`), and GJK finds the closest points of that separated pair: moving B along the
/// minimising normal does not change which points of A and B support the two planes, and GJK's
/// closest points of separated shapes are well conditioned. B's point is moved back. The new
/// pair is kept when it is closer to consistent than the old one; the normal, distance and
/// bounds stay.
///
/// Where that GJK stalls too, its estimate's points are in their shapes but need not be on
/// the support planes, and moved onto them along the normal they can leave their shapes — a
/// convex hull 1 cm across touching a cylinder of radius 499 at one vertex, f32: the estimate's
/// point 1.1e-3 below the vertex's plane, moved up onto it and 9.9e-4 off the hull
/// (`disparity_s103` pair 606). Such a point can be off its shape by as much as it moved, so a
/// stalled estimate's pair counts the moves as part of its error, each weighted as the shares
/// of the tangential mismatch are ([`share_of_a`]): a small shape's point, at a vertex or a
/// rim, leaves it when moved, while the larger shape is the flatter at the contact and its
/// point, moved along the normal, stays on it to second order (a 14 cm shape in the slant of
/// a cone 286 across, f32: the cone's point moved by 6.5e-3 from a stalled estimate mends a
/// pair 1.5e-3 off `dist · n`, the small shape's point moved by 3e-6). A converged pair does
/// not: its points are the shifted pair's closest points, and what moves them is the share of
/// the tangential mismatch and the planes' rounding (two cones deep in each other at ~500,
/// f32: a move of 1e-3 that mends a pair 9.7e-4 off `dist · n`, `deep_s1` pair 6).
fn settle_witnesses<T: Real>(
    input: &CoreInput<'_, T>,
    contact: &mut LocalContact<T>,
    feature: &mut SupportFeature<T>,
) {
    let n = contact.normal.into_inner();
    let (radius1, radius2) = (input.radius1, input.radius2);
    let md = MinkowskiDifference::new(input.shape1, input.shape2, &input.pos12);
    let w = md.support(&n, VertexId::NONE, VertexId::NONE);
    // How far a pair is from describing the contact: its mismatch with `dist · n` and its
    // points' distances from the two support planes.
    let error = |p1: &Point<T>, p2: &Point<T>| {
        let mismatch = ((p2 - p1) - n * contact.dist).norm();
        Float::max(mismatch, off_support_planes(input, &w, &n, (p1, p2)))
    };
    let size = w.a.coords.norm() + w.b.coords.norm() + w.w.norm();
    let small = Float::min(input.small_scale(), size);
    let before = error(&contact.point1, &contact.point2);
    let large = Float::min(input.large_scale(), size);
    if !(before > T::TOLERANCES.promise(small, large, size)) {
        return;
    }
    let shift = n * (small - contact.dist);
    let mut separated = *input;
    separated.pos12.translation.vector += shift;
    separated.max_dist = T::infinity();
    let mut cold = SimplexCache::EMPTY;
    let gjk = closest_points(&separated, &mut cold);
    let (GjkStatus::Separated(c) | GjkStatus::Stalled { estimate: c, .. }) = gjk.status else {
        return;
    };
    let (p1, p2) = (c.point1, c.point2 - shift);
    // The rest of the mismatch is tangential and within GJK's accuracy; it is shared by the
    // shapes' sizes (`share_of_a`), except across the edge a larger polytope touches with
    // (`tangential_moves`).
    let share1 = share_of_a(input);
    let mismatch = (p2 - p1) - n * contact.dist;
    let tangential = mismatch - n * mismatch.dot(&n);
    let (move1, move2) = tangential_moves(input, (&n, tangential), share1, feature);
    let (p1, p2) = (p1 + move1, p2 - move2);
    // Along the normal each point goes onto its own support plane.
    let p1 = p1 + n * ((w.a - p1).dot(&n) + radius1);
    let p2 = p2 + n * ((w.b - p2).dot(&n) - radius2);
    // A stalled estimate's points lie in their shapes but not on the support planes: moved onto
    // a plane, a point can leave its shape by as much as it moved (below).
    let moved = if matches!(gjk.status, GjkStatus::Stalled { .. }) {
        let (c1, c2) = (c.point1, c.point2 - shift);
        Float::max(
            (p1 - c1).norm() * (T::one() - share1),
            (p2 - c2).norm() * share1,
        )
    } else {
        T::zero()
    };
    if Float::max(error(&p1, &p2), moved) < before {
        contact.point1 = p1;
        contact.point2 = p2;
    }
}

/// How far A's point and B's point move (A's by the first, B's by minus the second) to take up
/// the tangential mismatch `tangential` of a witness pair across the unit normal `n` (A's
/// frame): shared by the shapes' sizes (`share1`, [`share_of_a`]) — except where the larger
/// shape is a polytope touching with an edge ([`supporting_edge`] along `±n`): its point takes
/// its share of the mismatch's part along the edge alone, and the smaller shape's point the rest.
/// Moved across its edge, the larger shape's point leaves it: a triangle seen edge-on by a small
/// cone sunk 7.6 mm at that edge, f64, its share carried its point 3.9e-7 off the triangle
/// (`disparity_s113` pair 340, 12 times the tolerance).
fn tangential_moves<T: Real>(
    input: &CoreInput<'_, T>,
    (n, tangential): (&Vector<T>, Vector<T>),
    share1: T,
    feature: &mut SupportFeature<T>,
) -> (Vector<T>, Vector<T>) {
    let larger_is_a = share1 >= T::lit(0.5);
    let rotation = &input.pos12.rotation;
    let edge = if larger_is_a {
        supporting_edge(input.shape1, n, feature)
    } else {
        supporting_edge(
            input.shape2,
            &rotation.inverse_transform_vector(&-n),
            feature,
        )
        .map(|ends| ends.map(|p| rotation * p))
    };
    let across = edge
        .and_then(|[a, b]| nphase_math::normalize_robust(&(b - a)))
        .map_or(Vector::zeros(), |e| {
            tangential - e.into_inner() * tangential.dot(&e)
        });
    let shared = tangential - across;
    if larger_is_a {
        (shared * share1, shared * (T::one() - share1) + across)
    } else {
        (shared * share1 + across, shared * (T::one() - share1))
    }
}

/// The share of a tangential mismatch of a witness pair that A's point takes (B's takes the
/// rest): in proportion to the shapes' sizes. The larger shape's surface is the flatter one at
/// the contact, so its point stays on it to second order, while a point at a small shape's
/// vertex or edge moved sideways would leave it (a 10 cm triangle's vertex in a cylinder of
/// radius 7.4: moved by half a mismatch, 8e-5 off the triangle in f32).
fn share_of_a<T: Real>(input: &CoreInput<'_, T>) -> T {
    let [size1, size2] = input.shape_sizes;
    if size1 + size2 > T::zero() && Float::is_finite(size1 + size2) {
        size1 / (size1 + size2)
    } else {
        T::lit(0.5)
    }
}

/// An overlap whose EPA ended unsettled (on its iteration cap or a degenerate polytope), queried
/// again cold with the shapes swapped, its answer turned back into A's frame where it converged
/// within this side's certified `bracket` (up to docs/accuracy.md's promise; `None` otherwise:
/// an overlap proven here is never traded for an answer outside it). EPA's polytope lives
/// in the Minkowski difference of one side's frame, and on flat or thin shapes the rounding of
/// one frame can leave it no face to settle on where the other's does: a cone 1 mm across and
/// 2.6e-7 thick sunk 0.48 mm into a flat hull 680 long (the triangle parry's hull builder made of
/// a sliver), f32, in the hull's frame EPA capped with an estimate 5.1 deep (bracket [−11,
/// 0.86]), in the cone's it converged at 0.48 mm (found by fuzzing the rapier adapter, which
/// takes the larger shape as A). The supporting-feature hints are the other side's, and are
/// dropped (the manifold searches for its features).
fn overlap_from_other_side<T: Real>(
    input: &CoreInput<'_, T>,
    (lower, upper): (T, T),
    epa: &mut EpaWorkspace<T>,
    feature: &mut SupportFeature<T>,
) -> Option<PairOutcome<T>> {
    let other = queried_from_other_side(input, epa, feature);
    let promise = pair_promise(input);
    let contact = other
        .contact
        .filter(|c| {
            c.quality == ContactQuality::Converged
                && c.dist >= lower - promise
                && c.dist <= upper + promise
        })?
        .swapped_back(&input.pos12);
    Some(PairOutcome {
        contact: Some(contact),
        lower_bound: contact.lower_bound,
        supports: SupportHints::default(),
        ..other
    })
}

/// The pair queried cold from the other side: B as A, at the inverse pose (B's frame), its
/// outcome in that frame. Steps 2–5 of the module doc, which reach [`from_larger_side`] at
/// most once more: it swaps only toward the larger shape as A.
fn queried_from_other_side<T: Real>(
    input: &CoreInput<'_, T>,
    epa: &mut EpaWorkspace<T>,
    feature: &mut SupportFeature<T>,
) -> PairOutcome<T> {
    let [size1, size2] = input.shape_sizes;
    let swapped = CoreInput {
        shape1: input.shape2,
        radius1: input.radius2,
        shape2: input.shape1,
        radius2: input.radius1,
        pos12: input.pos12.inverse(),
        shape_sizes: [size2, size1],
        ..*input
    };
    let mut simplex = Simplex::default();
    let mut cold = SimplexCache::EMPTY;
    let gjk = closest_points_with_simplex(&swapped, &mut cold, &mut simplex);
    contact_from_gjk(&swapped, (gjk, &simplex), epa, feature)
}

/// A stalled pair that neither EPA nor GJK's own bounds settled, queried again (cold) with the
/// shapes swapped when B is the larger: in the larger shape's own frame its coordinates are
/// exact and only the smaller one's round, where in A's frame the larger shape's vertices carry
/// `ε` times its size — in f32 a box 455 long and 1.2e-4 thick turned into a small cone's frame
/// rounds by a quarter of its thickness (found by fuzzing: GJK stalled with `|v|` 0.63 and its
/// lower bound −1.5e-4, and the estimate reported the cores 0.63 apart; from the box's frame the
/// query converges, 1.1e-4 deep). The answer, turned back into A's frame, is taken where it
/// converged, or where its certified bracket is narrower than the `estimate`'s and its distance
/// within that (as the estimate it is: a needle cone 19 km long through a 2 cm cone, f32, from
/// the small cone's frame a `Fallback` 19.3 apart, bracket [−0.10, 19.3], from the needle's
/// 4.0e-3 deep on its iteration cap, bracket [−4.0e-3, 8.2e-4], f64 4.0e-3 deep: found by
/// fuzzing the rapier adapter's one-shot `distance`); `None` otherwise, or when A is the larger
/// (the swapped query cannot recurse).
fn from_larger_side<T: Real>(
    input: &CoreInput<'_, T>,
    estimate: &LocalContact<T>,
    epa: &mut EpaWorkspace<T>,
    feature: &mut SupportFeature<T>,
) -> Option<LocalContact<T>> {
    let [size1, size2] = input.shape_sizes;
    if !(size2 > size1) {
        return None;
    }
    let narrower = |c: &LocalContact<T>| {
        c.upper_bound - c.lower_bound < estimate.upper_bound - estimate.lower_bound
            && c.dist >= estimate.lower_bound
            && c.dist <= estimate.upper_bound
    };
    let c = queried_from_other_side(input, epa, feature)
        .contact
        .filter(|c| c.quality == ContactQuality::Converged || narrower(c))?;
    Some(c.swapped_back(&input.pos12))
}

/// The fallback when EPA's polytope broke down (a very thin or long Minkowski difference in
/// f32): its estimate is not certified and can be anything — found by fuzzing: a ball on the
/// axis of a cylinder 14 000 long came out 7 213 *apart* while GJK had proven the overlap.
///
/// Every direction `c` certifies a lower bound on the signed distance, the support gap along it;
/// the best of a few candidates — EPA's normal, the axes of both shapes, the line between their
/// origins — is taken. It may overstate the depth, never hide the overlap, and is reported as a
/// `Fallback` (and counted by the pipeline).
fn best_sampled_axis<T: Real>(input: &CoreInput<'_, T>, contact: &mut LocalContact<T>) {
    let md = MinkowskiDifference::new(input.shape1, input.shape2, &input.pos12);
    let gap = |c: &Vector<T>| {
        let w = md.support(c, VertexId::NONE, VertexId::NONE);
        (-w.w.dot(c) - input.radius1 - input.radius2, w)
    };
    let rotation = input.pos12.rotation;
    let mut candidates: ArrayVec<Vector<T>, 16> = ArrayVec::new();
    candidates.push(contact.normal.into_inner());
    for i in 0..3 {
        let axis = Vector::ith(i, T::one());
        candidates.push(axis);
        candidates.push(rotation * axis);
    }
    if let Some(centres) = nphase_math::normalize_robust(&input.pos12.translation.vector) {
        candidates.push(centres.into_inner());
    }
    let mut best: Option<(Vector<T>, T, SimplexVertex<T>)> = None;
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
        // g is certified below; GJK proved the cores overlap (up to its touch tolerance), so
        // the signed distance is at most minus the radii.
        contact.lower_bound = g;
        contact.upper_bound = Float::max(g, -(input.radius1 + input.radius2));
        contact.point1 = w.a + c * input.radius1;
        contact.point2 = w.b - c * input.radius2;
    }
}

/// The size of a shape given as its core and radius, for the tolerances: the largest half-extent
/// of its local bounding box (radius included). It is within a factor √3 below the half-diagonal
/// docs/accuracy.md measures sizes with (the oracle's `scale` and `small_scale`), so tolerances
/// relative to it are at least as tight, and it costs no square root on the hot path. See
/// [`GjkInput::shape_sizes`].
pub(crate) fn shape_size<T: Real>(core: &Core<'_, T>, radius: T) -> T {
    core.local_aabb().half_extents().amax() + radius
}

/// Whether a core has a curved support function (EPA converges on it only to a looser
/// tolerance). Balls and capsules are exact through their point and segment cores.
fn is_curved<T: Real>(core: &Core<'_, T>) -> bool {
    matches!(core, Core::Cylinder(_) | Core::Cone(_))
}

/// EPA's answer as a contact; its certified gap bounds the depth on both sides.
fn penetration_contact<T: Real>(
    p: &nphase_epa::Penetration<T>,
    quality: ContactQuality,
) -> LocalContact<T> {
    LocalContact {
        point1: p.point1,
        point2: p.point2,
        normal: p.normal,
        dist: -p.depth,
        lower_bound: -p.depth - p.gap,
        upper_bound: -p.depth + p.gap,
        quality,
    }
}

#[cfg(test)]
mod tests {
    use crate::PairWorkspace;
    use crate::collide::query_pair;
    use crate::collide::test_poses::random_turn;
    use nphase_gjk::SimplexCache;
    use nphase_math::nalgebra::convert_ref;
    use nphase_math::{Isometry, Point, Rotation, Vector};
    use nphase_shapes::{Cylinder, Shape, SupportMap};
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg64;

    /// The oracle's `disparity_s72` pair 551, f32: a 1 cm cone sunk 7e-4 into a rounded box of
    /// size 200 (placed as `nphase query` places it: `pos12` in f64, rounded to f32). GJK
    /// stalls on the cores (26 apart), EPA settles the distance and the box's face normal
    /// replaces EPA's; the cone's witness was EPA's barycentric point on the face carried
    /// along the normal, 1.38e-4 off the cone (tolerance 1.01e-4). It is the cone's support
    /// point now (`face_witnesses`): on the cone, within rounding.
    #[test]
    fn a_small_cone_sunk_into_a_large_face_keeps_its_witness_on_it_in_f32() {
        use crate::query::distance;
        use nphase_math::Real;
        use nphase_math::nalgebra::{Quaternion, Translation3};
        use nphase_shapes::{Ball, Cone, Cuboid};
        fn shapes<T: Real>() -> [Shape<T>; 2] {
            let l = |x: f64| T::lit(x);
            let core = Cuboid::new(Vector::new(l(63.87336), l(95.122753), l(100.935717)));
            let round_box = Shape::round(Shape::Cuboid(core.expect("valid")), l(26.446481));
            let cone = Cone::new(l(0.004994), l(0.006956)).expect("valid");
            [round_box.expect("valid"), Shape::Cone(cone)]
        }
        let pose_a = Isometry::from_parts(
            Translation3::new(-1.414100385, 2.216611619, -1.765057489),
            Rotation::from_scaled_axis(Vector::new(-1.856762007, 1.139560687, -2.011774772)),
        );
        let pose_b = Isometry::from_parts(
            Translation3::new(-36.090678387, -129.817662412, -30.224607245),
            Rotation::new_normalize(Quaternion::new(
                0.006399658,
                -0.364502345,
                -0.037466881,
                -0.930426417,
            )),
        );
        let pos12 = pose_a.inv_mul(&pose_b);
        let pos12_32: Isometry<f32> = convert_ref(&pos12);
        let [round_box, cone] = shapes::<f32>();
        let mut cache = SimplexCache::EMPTY;
        let outcome = query_pair(
            &round_box,
            &cone,
            &pos12_32,
            f32::MAX,
            &mut cache,
            &mut PairWorkspace::new(),
        );
        assert!(outcome.gjk_stalled, "{outcome:?}");
        let got = outcome.contact.expect("within the prediction");
        // The oracle's distance, and the cone's witness's distance from the cone (f64).
        assert!((f64::from(got.dist) + 7.177e-4).abs() < 1e-4, "{got:?}");
        let [_, cone64] = shapes::<f64>();
        let witness = Isometry::from_parts(got.point2.map(f64::from).into(), Rotation::identity());
        let point = Shape::Ball(Ball::new(0.0).expect("valid"));
        let pos12_64: Isometry<f64> = convert_ref(&pos12_32);
        let off = distance(&witness, &point, &pos12_64, &cone64).expect("in range");
        assert!(off < 1e-5, "the cone's witness {off:e} off it: {got:?}");
        // The box's witness on the box, within the rounding of its coordinates (200 ε).
        let [box64, _] = shapes::<f64>();
        let on_box = Isometry::from_parts(got.point1.map(f64::from).into(), Rotation::identity());
        let off = distance(&on_box, &point, &Isometry::identity(), &box64).expect("in range");
        assert!(
            off.abs() < 5e-5,
            "the box's witness {off:e} off it: {got:?}"
        );
    }

    /// The support set is one point along a direction for a vertex or a curved surface (a
    /// box's corner, a cone's apex, a cylinder's rim, a ball's centre), and not for a face or
    /// an edge (a box's face or edge, a cylinder's cap or side line): `face_witnesses` takes
    /// the small shape's support point as its witness only for the first.
    #[test]
    fn a_single_support_point_is_told_from_a_face_or_an_edge() {
        use nphase_shapes::{Cone, Core, Cuboid};
        let cuboid = Core::Cuboid(Cuboid::new(Vector::new(1.0, 0.5, 0.25)).expect("valid"));
        let cone = Core::Cone(Cone::new(1.0, 0.5).expect("valid"));
        let cylinder = Core::Cylinder(Cylinder::new(1.0, 0.5).expect("valid"));
        let v = Vector::new;
        let cases: [(Core<'_, f64>, Vector<f64>, bool); 9] = [
            (cuboid, v(0.3, 0.5, 0.8), true),
            (cuboid, v(0.0, 1.0, 0.0), false),
            (cuboid, v(0.0, 0.6, 0.8), false),
            (cone, v(0.1, 1.0, 0.05), true),
            (cone, v(0.0, -1.0, 0.0), false),
            (cylinder, v(0.6, 0.8, 0.0), true),
            (cylinder, v(0.0, 1.0, 0.0), false),
            (cylinder, v(1.0, 0.0, 0.0), false),
            (Core::Point, v(1.0, 2.0, 3.0), true),
        ];
        for (k, (core, dir, single)) in cases.into_iter().enumerate() {
            let p = super::single_support_point(&core, &dir, 1.0);
            assert_eq!(p.is_some(), single, "case {k}: {p:?}");
            if let Some(p) = p {
                assert_eq!(p, core.local_support_point(&dir.normalize()), "case {k}");
            }
        }
    }

    /// How far `p` (the cylinder's frame) lies outside a cylinder of half-height `h`, radius `r`.
    fn outside_cylinder(p: &Point<f64>, h: f64, r: f64) -> f64 {
        (p.x.hypot(p.z) - r).max(p.y.abs() - h)
    }

    /// A small cylinder (size 0.02–0.2) whose rim comes within 1e-6–1e-4 of its size of a large
    /// cylinder's side (radius 2–50), at random turns and places, in both orders, f32: GJK
    /// stalls on a third, and each witness lies on its own shape within docs/accuracy.md's
    /// small-on-large tolerance (all measured in f64). The oracle's `disparity_s82` pair 888
    /// found the small one's witness 8.8e-5 above its cap: GJK's stalled pair, aligned with
    /// EPA's normal (`align_stalled_witnesses`).
    #[test]
    fn a_small_cylinders_rim_near_a_large_side_keeps_its_witnesses_on_the_shapes_in_f32() {
        let mut rng = Pcg64::seed_from_u64(888);
        let mut workspace = PairWorkspace::<f32>::new();
        let mut stalled = 0;
        for trial in 0..600 {
            let swapped = trial % 2 == 1;
            let (hs, rs): (f64, f64) = (rng.random_range(0.02..0.2), rng.random_range(0.02..0.2));
            let radius: f64 = rng.random_range(2.0..50.0);
            let half_height = radius * rng.random_range(0.5..3.0);
            let small = Cylinder::new(hs, rs).expect("valid");
            // The small cylinder's pose in the large one's frame: turned at random, its support
            // point along the side's inward normal `gap` outside the side.
            let turn = random_turn(&mut rng);
            let phi: f64 = rng.random_range(0.0..6.3);
            let out = Vector::new(phi.cos(), 0.0, phi.sin());
            let y = rng.random_range(-0.8..0.8) * half_height;
            let gap = hs.max(rs) * 10f64.powf(rng.random_range(-6.0..-4.0));
            let lowest = turn * small.local_support_point(&(turn.inverse() * -out)).coords;
            let centre = out * (radius + gap) + Vector::new(0.0, y, 0.0) - lowest;
            let small_in_large = Isometry::from_parts(centre.into(), turn);
            let shapes32: [Shape<f32>; 2] = [
                Shape::Cylinder(Cylinder::new(hs as f32, rs as f32).expect("valid")),
                Shape::Cylinder(Cylinder::new(half_height as f32, radius as f32).expect("valid")),
            ];
            let (pos12, [a, b]) = if swapped {
                (small_in_large, [&shapes32[1], &shapes32[0]])
            } else {
                (small_in_large.inverse(), [&shapes32[0], &shapes32[1]])
            };
            let pos12_32: Isometry<f32> = convert_ref(&pos12);
            let mut cache = SimplexCache::EMPTY;
            let outcome = query_pair(a, b, &pos12_32, 1.0, &mut cache, &mut workspace);
            stalled += usize::from(outcome.gjk_stalled);
            let got = outcome.contact.expect("within the prediction");
            let (p1, p2) = (got.point1.map(f64::from), got.point2.map(f64::from));
            // Each witness in its cylinder's frame (the pose as f32 rounded it).
            let pos12_64: Isometry<f64> = convert_ref(&pos12_32);
            let (on_a, on_b) = (p1, pos12_64.inverse() * p2);
            let (on_small, on_large) = if swapped { (on_b, on_a) } else { (on_a, on_b) };
            let size = hs.max(rs);
            let tol = 1e-6 + 5e-7 * radius.max(half_height) * 1.2 + 1e-4 * size;
            let off = outside_cylinder(&on_small, hs, rs).max(outside_cylinder(
                &on_large,
                half_height,
                radius,
            ));
            assert!(
                off <= tol,
                "trial {trial}: a witness {off:e} outside its cylinder (tol {tol:e}): {got:?}"
            );
        }
        // The stalled path, where the witnesses were off, is exercised.
        assert!(stalled >= 100, "{stalled} of 600 stalled");
    }

    /// Small shapes (boxes, cones, balls, 1e-4–1e-2 of the large size) anywhere inside large
    /// cones and cylinders (half-height 1–50, radius 0.02–1 of that), at random turns, in both
    /// orders and precisions: every contact's distance lies within its own bounds. Each gap and
    /// bound carries the rounding of the large shape's coordinates, and a sweep found the
    /// distance (a side's gap) outside the bounds (EPA's) by up to 8 ε of the size in 3 % of
    /// such f32 pairs, 11 ε in f64 (`snap_to_face_normal` widens the bounds to it).
    #[test]
    fn a_small_shape_deep_in_a_large_one_has_its_distance_within_its_bounds() {
        use nphase_math::Real;
        use nphase_shapes::{Ball, Cone, Cuboid};
        fn shapes<T: Real>(kind: usize, [h, r, s]: [f64; 3]) -> [Shape<T>; 2] {
            let l = |x: f64| T::lit(x);
            let small = match kind % 3 {
                0 => Shape::Cuboid(
                    Cuboid::new(Vector::new(l(s), l(s * 0.6), l(s * 0.3))).expect("valid"),
                ),
                1 => Shape::Cone(Cone::new(l(s), l(s * 0.7)).expect("valid")),
                _ => Shape::Ball(Ball::new(l(s)).expect("valid")),
            };
            let large = if kind / 3 == 0 {
                Shape::Cone(Cone::new(l(h), l(r)).expect("valid"))
            } else {
                Shape::Cylinder(Cylinder::new(l(h), l(r)).expect("valid"))
            };
            [small, large]
        }
        fn check<T: Real>(
            kind: usize,
            sizes: [f64; 3],
            small_in_large: &Isometry<f64>,
            swapped: bool,
        ) {
            let [small, large] = shapes::<T>(kind, sizes);
            let pose: Isometry<T> = convert_ref(small_in_large);
            let (a, b, pos12) = if swapped {
                (&large, &small, pose)
            } else {
                (&small, &large, pose.inverse())
            };
            let mut cache = SimplexCache::EMPTY;
            let outcome = query_pair(
                a,
                b,
                &pos12,
                T::zero(),
                &mut cache,
                &mut PairWorkspace::new(),
            );
            let c = outcome.contact.expect("the small shape is inside");
            assert!(
                c.lower_bound <= c.dist && c.dist <= c.upper_bound,
                "kind {kind}, swapped {swapped}: {c:?}"
            );
        }
        let mut rng = Pcg64::seed_from_u64(2_04);
        for trial in 0..3_000 {
            let kind = trial % 6;
            let h: f64 = 10f64.powf(rng.random_range(0.0..1.7));
            let r = h * rng.random_range(0.02..1.0);
            let s = 10f64.powf(rng.random_range(-4.0..-2.0)) * h.max(r);
            // A centre inside the large shape (by rejection).
            let centre = loop {
                let p = Vector::new(
                    rng.random_range(-r..r),
                    rng.random_range(-h..h),
                    rng.random_range(-r..r),
                );
                let rho = p.x.hypot(p.z);
                let room = if kind / 3 == 0 {
                    r * (h - p.y) / (2.0 * h)
                } else {
                    r
                };
                if rho < room {
                    break p;
                }
            };
            let small_in_large = Isometry::from_parts(centre.into(), random_turn(&mut rng));
            let swapped = trial % 12 >= 6;
            check::<f32>(kind, [h, r, s], &small_in_large, swapped);
            check::<f64>(kind, [h, r, s], &small_in_large, swapped);
        }
    }
}
