//! nphase shapes as parry3d 0.31 support maps.
//!
//! [`AsParry`] wraps any nphase [`SupportMap<f32>`](nphase_shapes::SupportMap) (a [`Shape`](nphase_shapes::Shape), a
//! [`Cuboid`](nphase_shapes::Cuboid), a [`Round`](nphase_shapes::Round) of anything, …) so that it
//! implements parry 0.31's `SupportMap` and runs through parry's GJK and EPA
//! (`parry3d::query::details::contact_support_map_support_map`, …). The wrapper is needed because
//! neither trait nor type belongs to this crate (Rust's orphan rule); it is `repr(transparent)`
//! and converts only the glam vectors at the boundary.
//!
//! Directions follow nphase's contract: parry may hand a zero or tiny direction, and the answer
//! is then some point of the shape, never NaN (parry's own ball returns NaN there).

use nphase_shapes::SupportMap;
use parry3d_031::math::Vector as GlamVector;

use crate::glam_nalgebra::{point_from_na, vector_to_na};

/// An nphase support map seen through parry 0.31's `SupportMap` (see the module doc).
///
/// ```
/// use nphase_math::Vector;
/// use nphase_parry::AsParry;
/// use nphase_shapes::{Cuboid, Shape};
/// use parry3d_031::shape::SupportMap as _;
///
/// let cube = AsParry(Shape::Cuboid(Cuboid::new(Vector::new(1.0, 2.0, 3.0)).expect("valid")));
/// let p = cube.local_support_point(parry3d_031::math::Vector::new(1.0, -1.0, 1.0));
/// assert_eq!(p, parry3d_031::math::Vector::new(1.0, -2.0, 3.0));
/// ```
#[derive(Clone, Debug, PartialEq)]
#[repr(transparent)]
pub struct AsParry<S>(pub S);

impl<S: SupportMap<f32>> parry3d_031::shape::SupportMap for AsParry<S> {
    fn local_support_point(&self, dir: GlamVector) -> GlamVector {
        point_from_na(&self.0.local_support_point(&vector_to_na(dir)))
    }
}
