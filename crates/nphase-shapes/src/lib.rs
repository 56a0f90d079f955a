//! # nphase-shapes
//!
//! Convex shapes known through their support functions.

mod error;
mod feature;
mod support_map;

pub use error::ShapeError;
pub use feature::{FLAT_FEATURE_ANGLE, FeatureId, FeatureMap, SupportFeature};
pub use support_map::{SupportMap, SupportVertex, VertexId};
