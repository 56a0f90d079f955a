//! # nphase-parry
//!
//! nphase as the convex narrowphase of parry3d 0.31 and rapier3d 0.36 (glam types, `f32`).
//!
//! * [`glam_nalgebra`] — vectors, rotations and poses between glam/glamx and nalgebra.
//! * [`to_nphase`] — every parry convex shape (ball, cuboid, capsule, cylinder, cone, segment,
//!   triangle, convex polyhedron and the round variants) as an nphase [`Shape`](nphase_shapes::Shape).
//! * [`AsParry`] — nphase shapes as parry 0.31 support maps.
//!
//! The parry3d 0.25 (nalgebra) adapters stay in `nphase-shapes` (features `parry`,
//! `parry-f64`).

pub mod glam_nalgebra;
mod shape_conversion;
mod support_map;

pub use shape_conversion::{ConversionError, to_nphase};
pub use support_map::AsParry;
