//! # nphase-shapes
//!
//! Convex shapes known through their support functions.

mod aabb;
mod ball;
mod capsule;
mod cone;
mod convex_hull;
mod convex_polyhedron;
mod cuboid;
mod cylinder;
mod error;
mod feature;
mod interior_depth;
#[cfg(any(feature = "parry", feature = "parry-f64"))]
mod parry_interop;
mod round;
mod segment;
#[cfg(feature = "serde")]
mod serde_impls;
mod shape;
mod support_map;
mod triangle;

pub use aabb::Aabb;
pub use ball::Ball;
pub use capsule::Capsule;
pub use cone::Cone;
pub use convex_polyhedron::{
    ConvexPolyhedron, FacePlane, HILL_CLIMBING_MIN_VERTICES, HullEdge, HullFace, PLATEAU_CAPACITY,
    SCAN_UNHINTED_MAX_VERTICES,
};
pub use cuboid::Cuboid;
pub use cylinder::{Cylinder, DISC_POLYGON_VERTICES};
pub use error::ShapeError;
pub use feature::{
    FACE_TIE_HOLD, FEATURE_HYSTERESIS, FLAT_FEATURE_ANGLE, FeatureId, FeatureMap, RoundAxis,
    SupportFeature,
};
pub use round::Round;
pub use segment::Segment;
#[cfg(feature = "serde")]
pub use serde_impls::SerdeReal;
pub use shape::{Core, Shape, ShapeKind};
pub use support_map::{SupportMap, SupportVertex, VertexId};
pub use triangle::Triangle;
