//! # nphase
//!
//! A narrowphase for rigid-body physics: GJK distances, EPA penetration depths and contact
//! manifolds over convex shapes, in `f32` or `f64`. This crate is the facade: it re-exports
//! the crates below and depends on nothing else (the command-line tool is `nphase-cli`).
//!
//! ## Map
//! * [`math`] — `Real` (f32/f64), vector and pose aliases, small exact geometry.
//! * [`shapes`] — the convex shapes ([`Shape`]), support functions, hulls, AABBs.
//! * [`gjk`], [`epa`] — the two algorithms, on support maps, in A's frame.
//! * [`pipeline`] — one-shot [`query`] functions and the warm-started, parallel
//!   [`NarrowPhase`].
//!
//! ## Conventions
//! Right-handed, lengths in the caller's units. Normals point from A (a pair's first shape)
//! toward B; distances are signed (negative = penetration depth). Poses map local to world;
//! capsules, cylinders and cones are aligned with their local y axis (as in parry3d).
//!
//! ```
//! use nphase::math::{Isometry, Vector};
//! use nphase::shapes::{Ball, Cuboid};
//! use nphase::{Shape, query};
//!
//! let ball = Shape::Ball(Ball::new(0.5).expect("valid radius"));
//! let cube = Shape::Cuboid(Cuboid::new(Vector::new(1.0, 1.0, 1.0)).expect("valid size"));
//! let at = |x: f64| Isometry::translation(x, 0.0, 0.0);
//! let d = query::distance(&at(0.0), &cube, &at(2.0), &ball).expect("finite poses");
//! assert!((d - 0.5).abs() < 1e-12);
//! ```

pub use nphase_epa as epa;
pub use nphase_gjk as gjk;
pub use nphase_math as math;
pub use nphase_pipeline as pipeline;
pub use nphase_shapes as shapes;

pub use nphase_math::Real;
pub use nphase_pipeline::query::{
    self, Contact, closest_points, contact, distance, intersection_test,
};
pub use nphase_pipeline::{
    Collider, ContactManifold, ContactPoint, NarrowPhase, NarrowPhaseConfig, PipelineError,
    StepStats,
};
pub use nphase_shapes::{Shape, ShapeError, ShapeKind};
