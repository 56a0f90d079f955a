//! # nphase-epa
//!
//! Penetration depth by the Expanding Polytope Algorithm, started from GJK's final simplex.
//!
//! * [`penetration`] — depth, unit normal (A → B), witness points and the certified gap for two
//!   shapes whose cores overlap (GJK's [`nphase_gjk::GjkStatus::Intersecting`]).
//! * [`penetration_warm`] — the same, started from the polytope a pair kept from its last
//!   query ([`WarmPolytope`], filled by [`EpaWorkspace::keep`]); certified exactly as a cold
//!   query (`warm_polytope` derives why).
//! * [`EpaWorkspace`] — reusable buffers: no allocation per query in steady state.
//! * `initial_polytope` grows a degenerate start (1–3 vertices) into a tetrahedron or recognises
//!   a flat Minkowski difference (touching); `polytope` holds the faces, their heap and the
//!   horizon computation.
//!
//! ## Conventions
//! A's frame throughout; the normal points from A toward B, and moving B by `depth · normal`
//! separates the shapes. Radii (rounded shapes) are added back to the core depth, so rounded
//! shapes are exact.

mod expanding_polytope;
mod initial_polytope;
mod polytope;
mod warm_polytope;

pub use expanding_polytope::{
    EpaExit, EpaOptions, EpaOutput, EpaStats, EpaStatus, EpaWorkspace, Penetration, penetration,
    penetration_warm,
};
pub use warm_polytope::{MAX_KEPT_VERTICES, WarmPolytope};
