//! [`Dispatcher`]: parry's query dispatcher with nphase answering the convex pairs.
//!
//! Every query is routed on the two shape types:
//!
//! * both are convex shapes nphase takes ([`to_nphase`](crate::to_nphase)'s list, nphase
//!   shapes behind [`AsParry`](crate::AsParry) included) and the input is finite: nphase
//!   answers — contact manifolds (persistent: the pair's converted
//!   shapes and nphase's `PairState` live in parry's per-pair workspace, see
//!   `pair_workspace`), one-shot `contact`, `distance`, `closest_points` and
//!   `intersection_test`;
//! * a convex shape nphase refused (a NaN radius, a hull nphase cannot build, a size outside
//!   f32's input range), a non-finite pose or one beyond the input range (docs/accuracy.md), a
//!   non-finite prediction: parry's [`DefaultQueryDispatcher`] answers, and the pair is counted
//!   as *refused* — never a panic;
//! * anything else (half-space, trimesh, polyline, heightfield, compound, voxels, custom
//!   shapes other than nphase's), shape casts, and convex pairs with normal constraints (the triangles of a mesh):
//!   parry's [`DefaultQueryDispatcher`] answers. Composite shapes therefore see parry's
//!   convex–convex code for their sub-shapes too.
//!
//! Both paths are counted ([`DispatchStats`]). The dispatcher is a handle: clones share the
//! hull cache and the counters, so a clone kept by the caller reads the statistics of the one
//! handed to rapier.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use nphase_math::Isometry;
use nphase_pipeline::{ContactManifold as NphaseManifold, PairInput, PairState, query as nq};
use nphase_shapes::Shape;
use parry3d_031::math::{Pose, Real, Vector};
use parry3d_031::query::details::ShapeCastOptions;
use parry3d_031::query::{
    ClosestPoints, Contact, ContactManifold, ContactManifoldsWorkspace, DefaultQueryDispatcher,
    NonlinearRigidMotion, PersistentQueryDispatcher, QueryDispatcher, ShapeCastHit, ShapeDistance,
    ShapeIntersection, Unsupported, details::NormalConstraints,
};
use parry3d_031::shape as ps;

use crate::glam_nalgebra::{point_from_na, pose_in_range, pose_to_na, vector_from_na};
use crate::hull_cache::HullCache;
use crate::pair_counters::PairCounters;
use crate::pair_workspace::{NphasePair, Ready};
use crate::parry_manifold::{Pair, PairReport, collide_into};
use crate::shape_conversion::{convert_with, source_key};

/// parry 0.31's query dispatcher with nphase on convex pairs (see the module doc).
///
/// In rapier 0.36, this is the whole switch (the README's "Use it in rapier"):
///
/// ```
/// use rapier3d::prelude::*;
///
/// let dispatcher = nphase_parry::Dispatcher::default();
/// let mut world = PhysicsWorld::new();
/// world.narrow_phase = NarrowPhase::with_query_dispatcher(dispatcher.clone());
/// // A ball dropped on a ground box.
/// world.insert_collider(ColliderBuilder::cuboid(5.0, 0.5, 5.0), None);
/// let ball = RigidBodyBuilder::dynamic().translation(Vector::new(0.0, 1.0, 0.0));
/// let (ball, _) = world.insert(ball, ColliderBuilder::ball(0.5));
/// for _ in 0..120 {
///     world.step();
/// }
/// // It rests on the ground (top at y = 0.5), and nphase answered the pair.
/// assert!((world.bodies[ball].translation().y - 1.0).abs() < 0.01);
/// let stats = dispatcher.stats();
/// assert!(stats.nphase_pairs > 0 && stats.parry_pairs == 0);
/// ```
#[derive(Clone, Debug, Default)]
pub struct Dispatcher {
    inner: Arc<Inner>,
}

#[derive(Debug, Default)]
struct Inner {
    hulls: HullCache,
    /// nphase's pairs, inexact ones, points and carried points: per thread (the hot path).
    pairs: PairCounters,
    parry_pairs: AtomicU64,
    refused_pairs: AtomicU64,
    nphase_queries: AtomicU64,
    parry_queries: AtomicU64,
}

/// What a [`Dispatcher`] (and its clones) answered since it was made or last
/// [reset](Dispatcher::reset_stats).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DispatchStats {
    /// Contact-manifold queries answered by nphase.
    pub nphase_pairs: u64,
    /// Contact-manifold queries handed to parry's `DefaultQueryDispatcher` (refused ones
    /// included).
    pub parry_pairs: u64,
    /// Of `parry_pairs`, the convex pairs nphase refused (a shape it could not take, a
    /// non-finite pose or prediction).
    pub refused_pairs: u64,
    /// Of `nphase_pairs`, those whose query stopped on an iteration cap or fell back to an
    /// estimate (nphase's `ContactQuality`).
    pub inexact_pairs: u64,
    /// Contact points in the manifolds nphase produced.
    pub points: u64,
    /// Of `points`, those that carried the engine's data (rapier's impulses) over from the
    /// previous frame's point with the same `(fid1, fid2)`: the warm-start hits.
    pub carried_points: u64,
    /// Of `nphase_pairs`, those answered by nphase's certified reuse
    /// ([`Reuse`](nphase_pipeline::Reuse)) without a query: a pose bitwise unchanged since the
    /// pair's last full computation (`Unchanged`), ...
    pub unchanged_pairs: u64,
    /// ... a pair proved beyond the prediction distance by how little it moved since
    /// (`Apart`), ...
    pub apart_pairs: u64,
    /// ... and a contact that moved too little to change its answer beyond the tolerances
    /// (`Still`). The rest were computed in full.
    pub still_pairs: u64,
    /// One-shot queries (`contact`, `distance`, `closest_points`, `intersection_test`)
    /// answered by nphase.
    pub nphase_queries: u64,
    /// One-shot queries and shape casts handed to parry.
    pub parry_queries: u64,
    /// Convex hulls in the conversion cache.
    pub cached_hulls: usize,
}

impl Dispatcher {
    /// The counters so far.
    pub fn stats(&self) -> DispatchStats {
        let load = |c: &AtomicU64| c.load(Ordering::Relaxed);
        let i = &self.inner;
        let pairs = i.pairs.totals();
        DispatchStats {
            nphase_pairs: pairs.pairs,
            parry_pairs: load(&i.parry_pairs),
            refused_pairs: load(&i.refused_pairs),
            inexact_pairs: pairs.inexact,
            points: pairs.points,
            carried_points: pairs.carried,
            unchanged_pairs: pairs.unchanged,
            apart_pairs: pairs.apart,
            still_pairs: pairs.still,
            nphase_queries: load(&i.nphase_queries),
            parry_queries: load(&i.parry_queries),
            cached_hulls: i.hulls.len(),
        }
    }

    /// Sets the counters to zero (the hull cache stays).
    pub fn reset_stats(&self) {
        let i = &self.inner;
        i.pairs.reset();
        for c in [
            &i.parry_pairs,
            &i.refused_pairs,
            &i.nphase_queries,
            &i.parry_queries,
        ] {
            c.store(0, Ordering::Relaxed);
        }
    }

    /// [`Dispatcher::convert`] for a one-shot query, counted.
    fn one_shot(&self, pos12: &Pose, g1: &dyn ps::Shape, g2: &dyn ps::Shape) -> Option<OneShot> {
        let q = self.convert(pos12, g1, g2)?;
        self.inner.nphase_queries.fetch_add(1, Ordering::Relaxed);
        Some(q)
    }

    /// Both shapes as nphase shapes (hulls through the cache), or `None` (parry answers): not
    /// both convex, refused by nphase, or a pose that is not finite or beyond the input range.
    fn convert(&self, pos12: &Pose, g1: &dyn ps::Shape, g2: &dyn ps::Shape) -> Option<OneShot> {
        if !pose_in_range(pos12) {
            return None;
        }
        let (Some(_), Some(_)) = (source_key(g1), source_key(g2)) else {
            return None;
        };
        let mut hull = |h: &ps::ConvexPolyhedron| self.inner.hulls.get(h);
        let shapes = (
            convert_with(g1, &mut hull).ok()?,
            convert_with(g2, &mut hull).ok()?,
        );
        Some(OneShot {
            shape1: shapes.0,
            shape2: shapes.1,
            pos12: pose_to_na(pos12),
        })
    }

    fn count_parry_query(&self) {
        self.inner.parry_queries.fetch_add(1, Ordering::Relaxed);
    }

    fn count_pair(&self, report: PairReport) {
        self.inner.pairs.count(report);
    }
}

/// A one-shot query's input in nphase's types (A at the origin, B at `pos12`).
struct OneShot {
    shape1: Shape<f32>,
    shape2: Shape<f32>,
    pos12: Isometry<f32>,
}

/// A resolved pair through nphase, in nphase's order: parry's (`MIRRORED` false), or — for a
/// pair nphase takes the other way round (`NphasePair::swapped`: parry's second shape the
/// larger by far) — parry's second shape as A, at the inverse pose, parry's manifold written
/// mirrored ([`collide_into`]).
#[inline(always)]
fn collide_ready<M, C: Copy + Default, const MIRRORED: bool>(
    ready: Ready<'_>,
    pos12: &Pose,
    prediction: Real,
    manifold: &mut ContactManifold<M, C>,
) -> PairReport {
    let pos12 = pose_to_na(pos12);
    let (shape1, shape2, pos12) = if MIRRORED {
        (ready.shape2, ready.shape1, pos12.inverse())
    } else {
        (ready.shape1, ready.shape2, pos12)
    };
    let input = PairInput {
        shape1,
        shape2,
        pos12,
        prediction,
    };
    let pair = Pair {
        state: ready.state,
        manifold: ready.manifold,
    };
    collide_into::<M, C, MIRRORED>(&input, pair, manifold)
}

/// [`collide_ready`] mirrored, out of line: the common path stays as it is.
#[inline(never)]
fn collide_mirrored<M, C: Copy + Default>(
    ready: Ready<'_>,
    pos12: &Pose,
    prediction: Real,
    manifold: &mut ContactManifold<M, C>,
) -> PairReport {
    collide_ready::<M, C, true>(ready, pos12, prediction, manifold)
}

fn prediction_is_valid(prediction: Real) -> bool {
    prediction.is_finite() && prediction >= 0.0
}

impl QueryDispatcher for Dispatcher {
    fn intersection_test(
        &self,
        pos12: &Pose,
        g1: &dyn ps::Shape,
        g2: &dyn ps::Shape,
    ) -> Result<ShapeIntersection, Unsupported> {
        if let Some(q) = self.one_shot(pos12, g1, g2)
            && let Ok(hit) =
                nq::intersection_test(&Isometry::identity(), &q.shape1, &q.pos12, &q.shape2)
        {
            return Ok(ShapeIntersection::new(hit));
        }
        self.count_parry_query();
        DefaultQueryDispatcher.intersection_test(pos12, g1, g2)
    }

    /// The distance, 0 when the shapes touch or overlap (parry's meaning).
    fn distance(
        &self,
        pos12: &Pose,
        g1: &dyn ps::Shape,
        g2: &dyn ps::Shape,
    ) -> Result<ShapeDistance, Unsupported> {
        if let Some(q) = self.one_shot(pos12, g1, g2)
            && let Ok(d) = nq::distance(&Isometry::identity(), &q.shape1, &q.pos12, &q.shape2)
        {
            return Ok(ShapeDistance::new(d.max(0.0)));
        }
        self.count_parry_query();
        DefaultQueryDispatcher.distance(pos12, g1, g2)
    }

    /// The contact with parry's meaning: `point1` and `normal1` in A's frame (`normal1` from A
    /// toward B), `point2` and `normal2 = −normal1` in B's frame, `dist` negative when
    /// penetrating.
    fn contact(
        &self,
        pos12: &Pose,
        g1: &dyn ps::Shape,
        g2: &dyn ps::Shape,
        prediction: Real,
    ) -> Result<Option<Contact>, Unsupported> {
        if prediction_is_valid(prediction)
            && let Some(q) = self.one_shot(pos12, g1, g2)
            && let Ok(c) = nq::contact(
                &Isometry::identity(),
                &q.shape1,
                &q.pos12,
                &q.shape2,
                prediction,
            )
        {
            return Ok(c.map(|c| {
                Contact::new(
                    point_from_na(&c.point1),
                    point_from_na(&q.pos12.inverse_transform_point(&c.point2)),
                    vector_from_na(&c.normal1.into_inner()),
                    pos12.rotation.inverse() * vector_from_na(&c.normal2.into_inner()),
                    c.dist,
                )
            }));
        }
        self.count_parry_query();
        DefaultQueryDispatcher.contact(pos12, g1, g2, prediction)
    }

    fn closest_points(
        &self,
        pos12: &Pose,
        g1: &dyn ps::Shape,
        g2: &dyn ps::Shape,
        max_dist: Real,
    ) -> Result<ClosestPoints, Unsupported> {
        if prediction_is_valid(max_dist)
            && let Some(q) = self.one_shot(pos12, g1, g2)
            && let Ok(c) = nq::closest_points(
                &Isometry::identity(),
                &q.shape1,
                &q.pos12,
                &q.shape2,
                max_dist,
            )
        {
            return Ok(match c {
                nq::ClosestPoints::Intersecting => ClosestPoints::Intersecting,
                nq::ClosestPoints::WithinMargin(p1, p2) => {
                    // parry's second point is in B's frame.
                    let p2 = q.pos12.inverse_transform_point(&p2);
                    ClosestPoints::WithinMargin(point_from_na(&p1), point_from_na(&p2))
                }
                nq::ClosestPoints::Disjoint => ClosestPoints::Disjoint,
            });
        }
        self.count_parry_query();
        DefaultQueryDispatcher.closest_points(pos12, g1, g2, max_dist)
    }

    /// parry's (nphase has no shape casts).
    fn cast_shapes(
        &self,
        pos12: &Pose,
        local_vel12: Vector,
        g1: &dyn ps::Shape,
        g2: &dyn ps::Shape,
        options: ShapeCastOptions,
    ) -> Result<Option<ShapeCastHit>, Unsupported> {
        self.count_parry_query();
        DefaultQueryDispatcher.cast_shapes(pos12, local_vel12, g1, g2, options)
    }

    /// parry's (nphase has no shape casts).
    fn cast_shapes_nonlinear(
        &self,
        motion1: &NonlinearRigidMotion,
        g1: &dyn ps::Shape,
        motion2: &NonlinearRigidMotion,
        g2: &dyn ps::Shape,
        start_time: Real,
        end_time: Real,
        stop_at_penetration: bool,
    ) -> Result<Option<ShapeCastHit>, Unsupported> {
        self.count_parry_query();
        DefaultQueryDispatcher.cast_shapes_nonlinear(
            motion1,
            g1,
            motion2,
            g2,
            start_time,
            end_time,
            stop_at_penetration,
        )
    }
}

impl<M, C> PersistentQueryDispatcher<M, C> for Dispatcher
where
    M: Default + Clone + Send + Sync,
    C: Default + Copy + Send + Sync,
{
    /// One manifold from nphase for a convex pair, parry's manifolds otherwise (see the module
    /// doc).
    fn contact_manifolds(
        &self,
        pos12: &Pose,
        g1: &dyn ps::Shape,
        g2: &dyn ps::Shape,
        prediction: Real,
        manifolds: &mut Vec<ContactManifold<M, C>>,
        workspace: &mut Option<ContactManifoldsWorkspace>,
    ) -> Result<(), Unsupported> {
        if let (Some(key1), Some(key2)) = (source_key(g1), source_key(g2)) {
            if pose_in_range(pos12)
                && prediction_is_valid(prediction)
                && let Some(pair) = NphasePair::in_workspace(workspace)
                && let Ok(ready) = pair.resolve([key1, key2], [g1, g2], &self.inner.hulls)
            {
                manifolds.truncate(1);
                if manifolds.is_empty() {
                    manifolds.push(ContactManifold::new());
                }
                let report = if ready.swapped {
                    collide_mirrored(ready, pos12, prediction, &mut manifolds[0])
                } else {
                    collide_ready::<M, C, false>(ready, pos12, prediction, &mut manifolds[0])
                };
                self.count_pair(report);
                return Ok(());
            }
            self.inner.refused_pairs.fetch_add(1, Ordering::Relaxed);
        }
        self.inner.parry_pairs.fetch_add(1, Ordering::Relaxed);
        DefaultQueryDispatcher.contact_manifolds(pos12, g1, g2, prediction, manifolds, workspace)
    }

    /// nphase's manifold, cold-started (there is no workspace here), unless a normal constraint
    /// is given (the triangles of a mesh): parry's.
    fn contact_manifold_convex_convex(
        &self,
        pos12: &Pose,
        g1: &dyn ps::Shape,
        g2: &dyn ps::Shape,
        normal_constraints1: Option<&dyn NormalConstraints>,
        normal_constraints2: Option<&dyn NormalConstraints>,
        prediction: Real,
        manifold: &mut ContactManifold<M, C>,
    ) -> Result<(), Unsupported> {
        let constrained = normal_constraints1.is_some() || normal_constraints2.is_some();
        if !constrained
            && prediction_is_valid(prediction)
            && let Some(q) = self.convert(pos12, g1, g2)
        {
            let input = PairInput {
                shape1: &q.shape1,
                shape2: &q.shape2,
                pos12: q.pos12,
                prediction,
            };
            let (mut state, mut last) = (PairState::new(), NphaseManifold::default());
            let pair = Pair {
                state: &mut state,
                manifold: &mut last,
            };
            let report = collide_into::<M, C, false>(&input, pair, manifold);
            self.count_pair(report);
            return Ok(());
        }
        self.inner.parry_pairs.fetch_add(1, Ordering::Relaxed);
        DefaultQueryDispatcher.contact_manifold_convex_convex(
            pos12,
            g1,
            g2,
            normal_constraints1,
            normal_constraints2,
            prediction,
            manifold,
        )
    }
}
