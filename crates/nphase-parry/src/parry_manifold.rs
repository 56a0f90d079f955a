//! One convex pair through nphase, written into parry's `ContactManifold`.
//!
//! 1. nphase's pair query in A's frame, warm-started from the pair's cache
//!    ([`nphase_pipeline::query_pair`]), then its manifold ([`nphase_pipeline::build_manifold`]):
//!    up to four points, each in its shape's local frame, with signed distances along the
//!    normal from A toward B; points are kept up to the prediction distance.
//! 2. Each point's `(fid1, fid2)` from the features it lies on ([`crate::feature_ids`]).
//! 3. The engine's per-point data (`TrackedContact::data`: rapier's impulses, tangent impulses
//!    and warm-start fields) is carried over from last frame's point with the same
//!    `(fid1, fid2)`, as parry's `ContactManifold::match_contacts` does; a new point gets
//!    `Default::default()`.
//! 4. `local_n1` is nphase's normal (A's frame), `local_n2 = −normal` in B's frame. A pair
//!    beyond the prediction distance leaves no points and keeps last frame's normals.
//!
//! Scratch space (EPA's polytope, clipping buffers, supporting features) is per thread and
//! reused, so a pair allocates nothing once the buffers have grown.

use std::cell::RefCell;

use arrayvec::ArrayVec;
use nphase_gjk::SimplexCache;
use nphase_math::Isometry;
use nphase_pipeline::{
    ContactPoint, ContactQuality, MAX_MANIFOLD_POINTS, ManifoldWorkspace, PairWorkspace,
    build_manifold, query_pair,
};
use nphase_shapes::Shape;
use parry3d_031::math::{Pose, Real};
use parry3d_031::query::{ContactManifold, TrackedContact};
use parry3d_031::shape::PackedFeatureId;

use crate::feature_ids::SupportingFeatures;
use crate::glam_nalgebra::{point_from_na, pose_to_na, vector_from_na};

/// A convex pair's input: both shapes converted, B's pose in A's frame, the prediction.
pub(crate) struct PairInput<'a> {
    pub(crate) shape1: &'a Shape<f32>,
    pub(crate) shape2: &'a Shape<f32>,
    /// B's pose in A's frame, parry's form.
    pub(crate) pos12: &'a Pose,
    /// Points up to this far apart are kept (≥ 0).
    pub(crate) prediction: Real,
}

/// How the pair query went, for the dispatcher's statistics.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PairReport {
    /// Whether the query did not converge and its best estimate was used.
    pub(crate) inexact: bool,
    /// Points in the new manifold.
    pub(crate) points: u8,
    /// Of those, the points whose data was carried over from last frame's.
    pub(crate) carried: u8,
}

/// Per-thread scratch of pair queries.
#[derive(Debug, Default)]
struct Scratch {
    pair: PairWorkspace<f32>,
    manifold: ManifoldWorkspace<f32>,
    features: SupportingFeatures,
    points: ArrayVec<ContactPoint<f32>, MAX_MANIFOLD_POINTS>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// Runs the pair (see the module doc) and writes its manifold into `manifold`.
pub(crate) fn collide_into<M, C: Copy + Default>(
    input: &PairInput<'_>,
    cache: &mut SimplexCache<f32>,
    manifold: &mut ContactManifold<M, C>,
) -> PairReport {
    SCRATCH.with(|scratch| match scratch.try_borrow_mut() {
        Ok(mut scratch) => collide_with(input, cache, manifold, &mut scratch),
        // Only a re-entrant call (a dispatcher calling itself from inside a query) finds the
        // scratch taken; it gets its own.
        Err(_) => collide_with(input, cache, manifold, &mut Scratch::default()),
    })
}

fn collide_with<M, C: Copy + Default>(
    input: &PairInput<'_>,
    cache: &mut SimplexCache<f32>,
    manifold: &mut ContactManifold<M, C>,
    scratch: &mut Scratch,
) -> PairReport {
    let pos12: Isometry<f32> = pose_to_na(input.pos12);
    let outcome = query_pair(
        input.shape1,
        input.shape2,
        &pos12,
        input.prediction,
        cache,
        &mut scratch.pair,
    );
    let mut report = PairReport {
        inexact: outcome.quality != ContactQuality::Converged,
        points: 0,
        carried: 0,
    };
    scratch.points.clear();
    let Some(contact) = outcome.contact else {
        manifold.points.clear();
        return report;
    };
    build_manifold(
        input.shape1,
        input.shape2,
        &pos12,
        &contact,
        input.prediction,
        &mut scratch.manifold,
        &mut scratch.points,
    );
    scratch
        .features
        .find(input.shape1, input.shape2, &pos12, &contact.normal);
    let mut ids = [(PackedFeatureId::UNKNOWN, PackedFeatureId::UNKNOWN); MAX_MANIFOLD_POINTS];
    let ids = &mut ids[..scratch.points.len()];
    scratch.features.ids(&scratch.points, ids);

    let mut fresh: ArrayVec<TrackedContact<C>, MAX_MANIFOLD_POINTS> = ArrayVec::new();
    for (p, &(fid1, fid2)) in scratch.points.iter().zip(ids.iter()) {
        let mut tracked = TrackedContact::new(
            point_from_na(&p.local_point1),
            point_from_na(&p.local_point2),
            fid1,
            fid2,
            p.dist,
        );
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
    let n1 = vector_from_na(&contact.normal.into_inner());
    manifold.local_n1 = n1;
    manifold.local_n2 = input.pos12.rotation.inverse() * -n1;
    report
}
