//! # nphase-pipeline
//!
//! From posed shapes to contacts.
//!
//! * [`query`] — one-shot queries between two posed shapes with parry3d's meanings:
//!   [`query::contact`], [`query::distance`], [`query::closest_points`],
//!   [`query::intersection_test`].
//! * [`collide`] — the pair layer: [`query_pair`], the contact of one pair in A's frame
//!   (closed forms, the separating-axis test, GJK on the cores, EPA), warm-started from a
//!   [`nphase_gjk::SimplexCache`].
//! * [`update_manifold`] — one pair across frames, as an engine holds it: a [`PairState`], this
//!   frame's [`ContactManifold`] with the warm-start data carried over by id.
//! * [`build_manifold`] — up to four contact points from a pair's contact (supporting
//!   features, `clipping`, `reduction`), each named by the features that made it
//!   ([`ContactId`]), with hysteresis across frames.
//! * [`mirrored_pair`] — a small shape against a large one computed with the large one as A
//!   (certified reuse holds far longer), the caller's manifold its mirror: what
//!   [`NarrowPhase`] and the rapier adapter do, for an engine running [`update_manifold`].
//! * [`NarrowPhase`] — the whole step: broadphase pairs in, one [`ContactManifold`] per pair
//!   out, in parallel (rayon), warm-started, bit-identical for any thread count.
//!
//! ## Conventions
//! Normals point from A (the pair's first collider) toward B. Distances are signed (negative
//! when penetrating). Manifold points are stored in each shape's local frame.

mod clipping;
pub mod collide;
mod contact_id;
mod manifold;
pub mod mirrored_pair;
mod narrow_phase;
pub mod pair;
pub mod query;
mod reduction;

pub use collide::{
    ContactQuality, LocalContact, PairOutcome, Reuse, SatCache, SatCertificate, SatFeature,
    SupportHints, WinningFace, query_pair, query_pair_cached,
};
pub use contact_id::ContactId;
pub use manifold::{
    ContactManifold, ContactPoint, DEPTH_HYSTERESIS, EDGE_LEAN, FEATURE_SNAP, MAX_MANIFOLD_POINTS,
    ManifoldHistory, ManifoldInput, ManifoldWorkspace, REFERENCE_MARGIN, ReferenceSide, TURN_UNIT,
    build_manifold,
};
pub use mirrored_pair::{SWAP_REACH, carry_engine_data, computes_other_way_round, write_mirrored};
pub use narrow_phase::{Collider, NarrowPhase, NarrowPhaseConfig, PipelineError, StepStats};
pub use nphase_shapes::FeatureId;
pub use pair::{LastComputation, PairInput, PairState, PairWorkspace, Renewal, update_manifold};
