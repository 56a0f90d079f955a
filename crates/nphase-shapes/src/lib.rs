//! # nphase-shapes
//!
//! Convex shapes known through their support functions.

mod aabb;
mod ball;
mod capsule;
mod cone;
mod cuboid;
mod cylinder;
mod error;
mod feature;
mod round;
mod segment;
mod support_map;
mod triangle;

pub use aabb::Aabb;
pub use ball::Ball;
pub use capsule::Capsule;
pub use cone::Cone;
pub use cuboid::Cuboid;
pub use cylinder::{Cylinder, DISC_POLYGON_VERTICES};
pub use error::ShapeError;
pub use feature::{FLAT_FEATURE_ANGLE, FeatureId, FeatureMap, SupportFeature};
pub use round::Round;
pub use segment::Segment;
pub use support_map::{SupportMap, SupportVertex, VertexId};
pub use triangle::Triangle;
