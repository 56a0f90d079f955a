//! # nphase-math
//!
//! The numeric ground every other nphase crate stands on.
//!
//! * [`Real`] — the scalar trait (`nalgebra::RealField + num_traits::Float`), implemented for
//!   `f32` and `f64`, with the per-precision [`Tolerances`] every algorithm reads from
//!   [`Real::TOLERANCES`], and the [`InputRange`] of lengths it answers in ([`Real::RANGE`]).
//! * [`Vector`], [`Point`], [`Isometry`], [`UnitVector`], [`Rotation`] — nalgebra aliases, the
//!   same types parry3d 0.25 uses, so values pass between the two libraries unchanged.
//! * [`signed_volumes`] — the point of a simplex of 1–4 points closest to the origin, with
//!   barycentric weights and the reduced support set (Montanari, Petrinic, Barbieri, *Improving
//!   the GJK algorithm for faster and more reliable distance queries between convex objects*,
//!   ACM ToG 36(3), 2017). GJK's sub-algorithm.
//! * [`basis`] — robust perpendiculars and orthonormal bases (Duff et al., *Building an
//!   Orthonormal Basis, Revisited*, JCGT 2017).
//! * [`closest_on_segment`], [`segment_distance2`] — the point of a segment closest to a point.
//!
//! ## Conventions
//! Right-handed coordinates; lengths in the caller's units. Functions never divide by a
//! quantity they have not checked against zero; where a degenerate input has no unique answer
//! the doc comment says which answer is returned.
//!
//! ## A note on method names
//! `RealField` and `Float` both define `sqrt`, `abs`, `max`, … so in generic code over
//! `T: Real` the method-call form `x.sqrt()` is ambiguous. nphase writes `Float::sqrt(x)` (or
//! nalgebra's vector methods such as `norm`) in those places.

pub mod basis;
mod real;
mod segment;
pub mod signed_volumes;

pub use basis::{any_unit_perpendicular, norm_robust, normalize_robust, orthonormal_basis};
pub use real::{InputRange, Real, SMALL_ON_LARGE_RATIO, Tolerances};
pub use segment::{closest_on_segment, segment_distance2};
pub use signed_volumes::{SimplexProjection, closest_point_to_origin};

/// Re-export of the nalgebra version nphase is built on (0.34, as parry3d 0.25).
pub use nalgebra;

/// A 3-vector of scalars `T` (a direction or a displacement).
pub type Vector<T> = nalgebra::Vector3<T>;
/// A point in 3-space.
pub type Point<T> = nalgebra::Point3<T>;
/// A rigid motion (rotation then translation); `pos12` values are of this type.
pub type Isometry<T> = nalgebra::Isometry3<T>;
/// A vector of unit length.
pub type UnitVector<T> = nalgebra::Unit<Vector<T>>;
/// A rotation as a unit quaternion.
pub type Rotation<T> = nalgebra::UnitQuaternion<T>;
