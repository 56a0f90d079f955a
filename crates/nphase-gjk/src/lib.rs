//! # nphase-gjk
//!
//! The Gilbert–Johnson–Keerthi algorithm on nphase support maps.
//!
//! * [`closest_points`] — signed distance, unit normal (A → B), witness points and certified
//!   bounds for two shapes given as *cores* plus radii; or the simplex enclosing the origin
//!   when the cores overlap (for EPA). [`intersection_test`] — the boolean test, stopping at
//!   the first separating axis or overlap proof.
//! * [`SimplexCache`] — the small `Copy` warm-start cache a pair keeps between frames.
//! * [`MinkowskiDifference`] — the support function of `A − B` in A's frame, shared with EPA.
//! * [`Simplex`] / [`SimplexVertex`] — GJK's simplex with the witness pair of every vertex.
//! * Acceleration: Nesterov momentum on the direction ([`Acceleration::Nesterov`]).
//!
//! ## Conventions
//! Everything is in **A's frame**: shape A sits at the origin of its local frame, `pos12` is B's
//! pose in it. The normal points **from A toward B**; distances are **signed** (negative when
//! penetrating). Tolerances are relative (see [`nphase_math::Tolerances`]).

mod cache;
mod closest_points;
mod minkowski;
mod nesterov;
mod simplex;

pub use cache::SimplexCache;
pub use closest_points::{
    Acceleration, ClosestPoints, GjkExit, GjkInput, GjkOptions, GjkOutput, GjkStats, GjkStatus,
    IntersectionOutput, SeparatingAxis, closest_points, closest_points_with_simplex,
    intersection_test,
};
pub use minkowski::MinkowskiDifference;
pub use simplex::{Simplex, SimplexVertex};
