//! # nphase-parry
//!
//! nphase as the convex narrowphase of parry3d 0.31 and rapier3d 0.36 (glam types, `f32`).
//!
//! * [`glam_nalgebra`] — vectors, rotations and poses between glam/glamx and nalgebra.
//! * [`to_nphase`] — every parry convex shape (ball, cuboid, capsule, cylinder, cone, segment,
//!   triangle, convex polyhedron and the round variants) as an nphase [`Shape`](nphase_shapes::Shape).
//! * [`AsParry`] — nphase shapes as parry 0.31 support maps, and an nphase
//!   [`Shape`](nphase_shapes::Shape) as a parry `Shape` (a rapier collider).
//! * [`Dispatcher`] — parry's `QueryDispatcher` and `PersistentQueryDispatcher` with nphase
//!   answering the convex pairs and parry's `DefaultQueryDispatcher` the rest; in rapier 0.36,
//!   `NarrowPhase::with_query_dispatcher(nphase_parry::Dispatcher::default())`.
//!
//! The parry3d 0.25 (nalgebra) adapters stay in `nphase-shapes` (features `parry`,
//! `parry-f64`).

mod dispatcher;
mod feature_ids;
pub mod glam_nalgebra;
mod hull_cache;
mod pair_counters;
mod pair_workspace;
mod parry_manifold;
mod parry_shape;
mod shape_conversion;
mod support_map;

pub use dispatcher::{DispatchStats, Dispatcher};
pub use shape_conversion::{ConversionError, to_nphase};
pub use support_map::AsParry;
