//! # nphase-shapes
//!
//! Convex shapes known through their support functions.

mod convex_hull;
mod convex_polyhedron;
mod error;
mod feature;
mod support_map;

pub use convex_polyhedron::{
    ConvexPolyhedron, HILL_CLIMBING_MIN_VERTICES, HullFace, PLATEAU_CAPACITY,
};
pub use error::ShapeError;
pub use feature::{FLAT_FEATURE_ANGLE, FeatureId, FeatureMap, SupportFeature};
pub use support_map::{SupportMap, SupportVertex, VertexId};
