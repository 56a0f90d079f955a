//! A pair computed the other way round: its second shape as A.
//!
//! nphase's certified reuse ([`update_manifold`](crate::update_manifold), the module doc of
//! `pair.rs`) bounds how far B's points move in A's frame. A turn of a small A by θ swings a
//! large B's far points through `θ ρ_B` there, and f32's rounding term grows with `ρ_B` too: a
//! box resting on a 40-wide floor handed with the floor second moves the floor's corners past
//! the allowance at every step, so its contact never stands and is computed in full at every
//! step; with the floor as A the box's own reach bounds it (docs/performance.md, stop 56). So
//! where the second shape reaches more than [`SWAP_REACH`] times as far as the first
//! ([`computes_other_way_round`]), the rapier adapter and [`NarrowPhase`](crate::NarrowPhase)
//! keep the pair's state and manifold in that order and hand the caller its manifold mirrored:
//!
//! * **Caller → kept** ([`carry_engine_data`]), before the frame: what the engine wrote into
//!   the manifold it was handed — each point's impulses and `persisted` mark, the twist
//!   impulse — goes to the kept manifold's point with the same (flipped) id; a point the
//!   engine removed is removed, and a manifold it emptied is emptied (a reset, as
//!   [`update_manifold`](crate::update_manifold) reads it).
//! * **Kept → caller** ([`write_mirrored`]), after it: each point's two local points and the
//!   two halves of its id exchanged; the normal `−n` and the first tangent `−t₁` turned into
//!   the caller's A frame. The second tangent `n × t₁` is then the same world direction: the
//!   impulses the engine applies to its second body are minus those on the kept pair's second
//!   body, `λₙ n' + λ₁ t₁' + λ₂ t₂' = −(λₙ n + λ₁ t₁ + λ₂ t₂)` with `n' = −n`, `t₁' = −t₁`,
//!   `t₂' = t₂`, so the normal and first tangent impulses keep their values and the second's
//!   changes sign; the twist about `n' = −n` on the other body keeps its value.
//!
//! The kept manifold's normal and tangent are never read back from the caller's (a turn there
//! and back would round them), so the mirrored pair goes on bit for bit as a pair handed in
//! that order. An engine that runs [`update_manifold`](crate::update_manifold) itself can do
//! the same with these three functions: a [`PairState`](crate::PairState) and a kept manifold
//! in nphase's order, `pos12` the first shape's pose in the second's frame.
//!
//! ```
//! use nphase_math::{Isometry, Vector};
//! use nphase_pipeline::{
//!     ContactManifold, PairInput, PairState, PairWorkspace, carry_engine_data,
//!     computes_other_way_round, update_manifold, write_mirrored,
//! };
//! use nphase_shapes::{Cuboid, Shape};
//!
//! // The engine's order: a cube first, the ground second.
//! let cube = Shape::Cuboid(Cuboid::new(Vector::new(0.5_f64, 0.5, 0.5))?);
//! let ground = Shape::Cuboid(Cuboid::new(Vector::new(20.0, 0.5, 20.0))?);
//! assert!(computes_other_way_round(&cube, &ground));
//! let (mut state, mut kept, mut manifold) =
//!     (PairState::new(), ContactManifold::default(), ContactManifold::default());
//! let mut workspace = PairWorkspace::new();
//! let (pose_cube, pose_ground) = (Isometry::translation(3.0, 0.999, 1.0), Isometry::identity());
//! carry_engine_data(&manifold, &mut kept);
//! let input = PairInput {
//!     shape1: &ground,
//!     shape2: &cube,
//!     pos12: pose_ground.inv_mul(&pose_cube),
//!     prediction: 0.01,
//! };
//! update_manifold(&input, &mut state, &mut kept, &mut workspace);
//! write_mirrored(&kept, &input.pos12.rotation, &mut manifold);
//! // The engine's manifold: the cube's points first, its normal from the cube to the ground.
//! assert_eq!(manifold.points.len(), 4);
//! assert!((manifold.local_normal1.y + 1.0).abs() < 1e-12);
//! # Ok::<(), nphase_shapes::ShapeError>(())
//! ```

use nphase_math::{Real, Rotation};
use nphase_shapes::Shape;

use crate::manifold::{ContactManifold, ContactPoint};

/// A pair is computed the other way round when its second shape reaches more than this many
/// times as far from its origin as the first ([`Shape::bounding_radius`]): a floor, a wall, a
/// large body under a small one; between shapes of a size the order stays the caller's.
pub const SWAP_REACH: f64 = 4.0;

/// Whether a pair of `shape1` (A) and `shape2` (B) is computed with B as A (see the module
/// doc): B reaches more than [`SWAP_REACH`] × as far as A.
pub fn computes_other_way_round<T: Real>(shape1: &Shape<T>, shape2: &Shape<T>) -> bool {
    shape2.bounding_radius() > T::lit(SWAP_REACH) * shape1.bounding_radius()
}

/// Brings what the engine wrote into `caller` (the mirror [`write_mirrored`] handed it) into
/// `kept`, point by point by id: impulses (the second tangent's sign changed back) and
/// `persisted` marks, and the twist impulse. Points the engine removed are removed; an emptied
/// manifold empties `kept`.
pub fn carry_engine_data<T: Real>(caller: &ContactManifold<T>, kept: &mut ContactManifold<T>) {
    kept.twist_impulse = caller.twist_impulse;
    kept.points.retain(|k| {
        let id = k.id.flipped();
        let Some(c) = caller.points.iter().find(|c| c.id == id) else {
            return false;
        };
        k.normal_impulse = c.normal_impulse;
        k.tangent_impulse = [c.tangent_impulse[0], -c.tangent_impulse[1]];
        k.persisted = c.persisted;
        true
    });
}

/// Writes `kept` (the pair in nphase's order: A the caller's second shape) into `caller`
/// mirrored (see the module doc); `rotation` is the caller's first shape's orientation in
/// nphase's A frame (the rotation of the `pos12` nphase computed with).
pub fn write_mirrored<T: Real>(
    kept: &ContactManifold<T>,
    rotation: &Rotation<T>,
    caller: &mut ContactManifold<T>,
) {
    caller.local_normal1 = rotation.inverse_transform_unit_vector(&-kept.local_normal1);
    caller.local_tangent1 = rotation.inverse_transform_unit_vector(&-kept.local_tangent1);
    caller.twist_impulse = kept.twist_impulse;
    caller.points.clear();
    caller
        .points
        .extend(kept.points.iter().map(|p| ContactPoint {
            local_point1: p.local_point2,
            local_point2: p.local_point1,
            id: p.id.flipped(),
            tangent_impulse: [p.tangent_impulse[0], -p.tangent_impulse[1]],
            ..*p
        }));
}
