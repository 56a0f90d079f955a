//! One convex pair through nphase, written into parry's `ContactManifold`.
//!
//! 1. nphase's per-pair unit ([`nphase_pipeline::update_manifold`]): the pair's contact in A's
//!    frame, warm-started from its [`PairState`], and its manifold — up to four points, each in
//!    its shape's local frame, with signed distances along the normal from A toward B, kept up
//!    to the prediction distance.
//! 2. Each point's `(fid1, fid2)`: nphase's contact id, the features of A and B that made it
//!    ([`crate::feature_ids`]).
//! 3. The engine's per-point data (`TrackedContact::data`: rapier's impulses, tangent impulses
//!    and warm-start fields) is carried over from last frame's point with the same
//!    `(fid1, fid2)`, as parry's `ContactManifold::match_contacts` does; a new point gets
//!    `Default::default()`. (nphase's own carry-over of `normal_impulse` by id is not used:
//!    rapier keeps its impulses in parry's points, and needs more than the normal impulse.)
//! 4. `local_n1` is nphase's normal (A's frame), `local_n2 = −normal` in B's frame. A pair
//!    beyond the prediction distance leaves no points and keeps last frame's normals.
//!
//! A pair nphase takes the other way round (a small shape against a large one, the large one as
//! nphase's A: `MIRRORED` in [`collide_into`]) is written mirrored: parry's `local_p1` and `fid1` are
//! nphase's B side, `local_p2` and `fid2` its A side, `local_n2` nphase's normal and `local_n1`
//! its opposite in parry's first shape's frame (nphase's B). The distances are the same.
//!
//! Where nphase's certified reuse kept its manifold as it was (`Unchanged`, `Still`: most pairs
//! at rest), parry's manifold already holds it, written on an earlier frame, with the engine's
//! data updated in place: steps 2–3 are skipped and only the normals and the distances are
//! written (`local_n2` and the distances follow the pose) — once the points are checked to be
//! the ones written (count, and in order `(fid1, fid2)` and local points, bit for bit; an
//! engine that cleared or changed them gets them written again).
//!
//! nphase's own manifold of the pair is kept with its state in the pair's workspace, since
//! `update_manifold` starts from last frame's (and returns it as it is when the pose did not
//! change, or moved too little to change it beyond the accuracy tolerance: nphase's certified
//! reuse).
//! Scratch space (EPA's polytope, clipping buffers) is per thread and reused, so a pair
//! allocates nothing once the buffers have grown.

use std::cell::RefCell;

use arrayvec::ArrayVec;
use nphase_math::Point;
use nphase_pipeline::{
    ContactManifold as NphaseManifold, ContactPoint as NphasePoint, ContactQuality,
    MAX_MANIFOLD_POINTS, PairInput, PairState, PairWorkspace, Reuse, update_manifold,
};
use parry3d_031::query::{ContactManifold, TrackedContact};
use parry3d_031::shape::PackedFeatureId;

use crate::feature_ids::parry_feature_ids;
use crate::glam_nalgebra::{point_from_na, vector_from_na};

/// How the pair query went, for the dispatcher's statistics.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PairReport {
    /// Whether the query did not converge and its best estimate was used.
    pub(crate) inexact: bool,
    /// Points in the new manifold.
    pub(crate) points: u8,
    /// Of those, the points whose data was carried over from last frame's.
    pub(crate) carried: u8,
    /// Which certified shortcut answered, if any.
    pub(crate) reuse: Reuse,
}

/// Per-thread scratch of pair queries.
#[derive(Debug, Default)]
struct Scratch {
    pair: PairWorkspace<f32>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// Runs the pair (see the module doc) and writes its manifold into `manifold`. `input` is in
/// nphase's order; `MIRRORED` says nphase takes the pair the other way round from parry (its A
/// parry's second shape, its B parry's first), and parry's manifold is written mirrored. A
/// parameter of the type rather than a flag, so that the common path carries no test of it.
pub(crate) fn collide_into<M, C: Copy + Default, const MIRRORED: bool>(
    input: &PairInput<'_, f32>,
    pair: Pair<'_>,
    manifold: &mut ContactManifold<M, C>,
) -> PairReport {
    SCRATCH.with(|scratch| match scratch.try_borrow_mut() {
        Ok(mut scratch) => collide_with::<M, C, MIRRORED>(input, pair, manifold, &mut scratch),
        // Only a re-entrant call (a dispatcher calling itself from inside a query) finds the
        // scratch taken; it gets its own.
        Err(_) => collide_with::<M, C, MIRRORED>(input, pair, manifold, &mut Scratch::default()),
    })
}

/// What nphase keeps of a pair: its state and last frame's nphase manifold (in nphase's order).
pub(crate) struct Pair<'a> {
    pub(crate) state: &'a mut PairState<f32>,
    pub(crate) manifold: &'a mut NphaseManifold<f32>,
}

fn collide_with<M, C: Copy + Default, const MIRRORED: bool>(
    input: &PairInput<'_, f32>,
    pair: Pair<'_>,
    manifold: &mut ContactManifold<M, C>,
    scratch: &mut Scratch,
) -> PairReport {
    let outcome = update_manifold(input, pair.state, pair.manifold, &mut scratch.pair);
    let mut report = PairReport {
        inexact: outcome.quality != ContactQuality::Converged,
        points: 0,
        carried: 0,
        reuse: outcome.reuse,
    };
    let points = &pair.manifold.points;
    if points.is_empty() {
        manifold.points.clear();
        return report;
    }
    let normal1 = pair.manifold.local_normal1;
    let write_normals = |manifold: &mut ContactManifold<M, C>| {
        let n1 = normal1.into_inner();
        let (n1, n2) = (
            vector_from_na(&n1),
            vector_from_na(&input.pos12.rotation.inverse_transform_vector(&-n1)),
        );
        (manifold.local_n1, manifold.local_n2) = if MIRRORED { (n2, n1) } else { (n1, n2) };
    };
    // A certified shortcut kept nphase's manifold as it was, and parry's still holds what was
    // written from it then (its points in the same order, the engine's data updated in place):
    // only the normals and the distances are written (B's normal and the distances follow the
    // pose). Unless the engine changed the points (a new manifold, points cleared or
    // rewritten): then they are written again.
    if matches!(outcome.reuse, Reuse::Unchanged | Reuse::Still)
        && rewrite_distances::<M, C, MIRRORED>(points, manifold)
    {
        write_normals(manifold);
        report.points = points.len() as u8;
        report.carried = report.points;
        return report;
    }
    let mut fresh: ArrayVec<TrackedContact<C>, MAX_MANIFOLD_POINTS> = ArrayVec::new();
    for p in points {
        let (fid1, fid2, p1, p2) = in_parrys_order::<MIRRORED>(p);
        let mut tracked =
            TrackedContact::new(point_from_na(p1), point_from_na(p2), fid1, fid2, p.dist);
        if let Some(old) = manifold
            .points
            .iter()
            .find(|old| old.fid1 == fid1 && old.fid2 == fid2)
        {
            tracked.data = old.data;
            report.carried += 1;
        }
        fresh.push(tracked);
    }
    report.points = fresh.len() as u8;
    manifold.points.clear();
    manifold.points.extend(fresh);
    write_normals(manifold);
    report
}

/// `fid1`, `fid2`, `local_p1` and `local_p2` of nphase's point `p` in parry's order: nphase's,
/// or mirrored where nphase takes the pair the other way round (`MIRRORED`, [`collide_into`]).
#[inline]
fn in_parrys_order<const MIRRORED: bool>(p: &NphasePoint<f32>) -> ParryPoint<'_> {
    let (fid1, fid2) = parry_feature_ids(p.id);
    if MIRRORED {
        (fid2, fid1, &p.local_point2, &p.local_point1)
    } else {
        (fid1, fid2, &p.local_point1, &p.local_point2)
    }
}

/// A point as parry holds it: `fid1`, `fid2`, `local_p1`, `local_p2`.
type ParryPoint<'a> = (
    PackedFeatureId,
    PackedFeatureId,
    &'a Point<f32>,
    &'a Point<f32>,
);

/// Whether parry's `manifold` holds `points` as this module writes them (in parry's order,
/// `MIRRORED`: [`in_parrys_order`]): the same count, and point by point the same `(fid1, fid2)`
/// and the same local points, bit for bit. Each point's distance is written on the way (a
/// standing manifold's distances follow the pose); where the answer is no, every point is
/// written again anyway. One pass, its comparisons folded into one word without a branch (every
/// standing pair runs it every frame).
fn rewrite_distances<M, C, const MIRRORED: bool>(
    points: &[NphasePoint<f32>],
    manifold: &mut ContactManifold<M, C>,
) -> bool {
    if points.len() != manifold.points.len() {
        return false;
    }
    let mut differ = 0;
    for (p, q) in points.iter().zip(&mut manifold.points) {
        let (fid1, fid2, a1, a2) = in_parrys_order::<MIRRORED>(p);
        let (b1, b2) = (&q.local_p1, &q.local_p2);
        differ |= (fid1.0 ^ q.fid1.0)
            | (fid2.0 ^ q.fid2.0)
            | (a1.x.to_bits() ^ b1.x.to_bits())
            | (a1.y.to_bits() ^ b1.y.to_bits())
            | (a1.z.to_bits() ^ b1.z.to_bits())
            | (a2.x.to_bits() ^ b2.x.to_bits())
            | (a2.y.to_bits() ^ b2.y.to_bits())
            | (a2.z.to_bits() ^ b2.z.to_bits());
        q.dist = p.dist;
    }
    differ == 0
}
