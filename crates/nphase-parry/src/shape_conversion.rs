//! parry3d 0.31 convex shapes → nphase [`Shape`]s.
//!
//! | parry 0.31 | nphase |
//! | --- | --- |
//! | `Ball` | [`Shape::Ball`] |
//! | `Cuboid` | [`Shape::Cuboid`] |
//! | `Capsule` (any segment `a`–`b`) | [`Shape::Capsule`] when the segment is `(0, −h, 0)`–`(0, h, 0)` exactly, else [`Shape::Round`] of a [`Shape::Segment`] `a`–`b` |
//! | `Cylinder`, `Cone` (along y, centred) | [`Shape::Cylinder`], [`Shape::Cone`] |
//! | `Segment`, `Triangle` | [`Shape::Segment`], [`Shape::Triangle`] |
//! | `ConvexPolyhedron` | [`Shape::Convex`]: nphase's hull of parry's vertices |
//! | `RoundCuboid`, `RoundCylinder`, `RoundCone`, `RoundTriangle`, `RoundConvexPolyhedron` | [`Shape::Round`] of the above |
//!
//! An nphase shape made a parry shape by [`AsParry`] comes back as itself. Every other shape
//! (half-space, trimesh, polyline, heightfield, compound, voxels, other custom shapes) is not
//! convex, or not bounded, or not known to nphase, and is refused with
//! [`ConversionError::NotConvex`].
//!
//! # Capsules, exactly
//! parry 0.31's capsule is a ball swept along an arbitrary segment of its local frame; nphase's
//! [`Capsule`](nphase_shapes::Capsule) is along local y and centred. Placing an nphase capsule
//! with an extra pose would build a rotation from the segment's direction, which reproduces the
//! endpoints only up to rounding (~ε·|a|) and adds a pose composition to every query. A segment
//! `a`–`b` rounded by the radius is, by definition, the same set of points, with the very same
//! endpoint coordinates: its core is the segment and its radius the capsule's, which is how the
//! pair query sees a capsule anyway. So the conversion is exact, and costs one `Arc` per
//! converted shape (the y-aligned centred case, rapier's `ColliderBuilder::capsule_y`, keeps
//! nphase's `Capsule`).

use core::fmt;
use std::sync::Arc;

use nphase_math::Point;
use nphase_shapes::{
    Ball, Capsule, Cone, ConvexPolyhedron, Cuboid, Cylinder, Segment, Shape, ShapeError, Triangle,
};
use parry3d_031::shape::{self as ps, ShapeType, TypedShape};

use crate::AsParry;
use crate::glam_nalgebra::{point_to_na, vector_to_na};

/// Why a parry shape could not become an nphase shape. Each variant names the parry shape type.
#[derive(Clone, Debug, PartialEq)]
pub enum ConversionError {
    /// The shape is not a bounded convex shape (half-space, trimesh, polyline, heightfield,
    /// compound, voxels, custom): parry's own dispatcher handles it.
    NotConvex {
        /// The parry shape type.
        shape_type: ShapeType,
    },
    /// nphase refused the shape's parameters (NaN, negative sizes, …).
    Invalid {
        /// The parry shape type.
        shape_type: ShapeType,
        /// What nphase refused, naming the field (boxed: a refusal is rare, and the result
        /// of a conversion is kept in every pair's workspace).
        error: Box<ShapeError>,
    },
}

impl fmt::Display for ConversionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConversionError::NotConvex { shape_type } => {
                write!(f, "parry {shape_type:?}: not a bounded convex shape")
            }
            ConversionError::Invalid { shape_type, error } => {
                write!(f, "parry {shape_type:?}: {error}")
            }
        }
    }
}

impl std::error::Error for ConversionError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ConversionError::NotConvex { .. } => None,
            ConversionError::Invalid { error, .. } => Some(error.as_ref()),
        }
    }
}

/// The nphase shape equal to a parry convex shape (see the module doc for the mapping).
///
/// Convex polyhedra are re-hulled by nphase (a few microseconds to a few milliseconds, with
/// the vertex count): convert once per shape, not per query — the
/// [`Dispatcher`](crate::Dispatcher) does, through its hull cache.
///
/// ```
/// use nphase_parry::{ConversionError, to_nphase};
/// use parry3d_031::math::Vector;
/// use parry3d_031::shape::{Ball, Capsule, HalfSpace};
///
/// let ball = to_nphase(&Ball::new(0.5)).expect("convex");
/// assert_eq!(ball.kind(), nphase_shapes::ShapeKind::Ball);
/// // A capsule along an arbitrary segment is a rounded segment, exactly.
/// let tilted = Capsule::new(Vector::ZERO, Vector::new(1.0, 1.0, 0.0), 0.2);
/// assert_eq!(to_nphase(&tilted).expect("convex").kind(), nphase_shapes::ShapeKind::Round);
/// // A half-space is not for nphase.
/// assert!(matches!(
///     to_nphase(&HalfSpace::new(Vector::Y)),
///     Err(ConversionError::NotConvex { .. })
/// ));
/// ```
pub fn to_nphase(shape: &dyn ps::Shape) -> Result<Shape<f32>, ConversionError> {
    convert_with(shape, &mut |hull| {
        ConvexPolyhedron::from_points(&hull_points(hull)).map(Arc::new)
    })
}

/// A converted hull, or why nphase refused it.
pub(crate) type ConvertedHull = Result<Arc<ConvexPolyhedron<f32>>, ShapeError>;

/// [`to_nphase`], with the convex polyhedra built by `hull` (the dispatcher's cache).
pub(crate) fn convert_with(
    shape: &dyn ps::Shape,
    hull: &mut dyn FnMut(&ps::ConvexPolyhedron) -> ConvertedHull,
) -> Result<Shape<f32>, ConversionError> {
    let shape_type = shape.shape_type();
    let invalid = |error| ConversionError::Invalid {
        shape_type,
        error: Box::new(error),
    };
    let rounded = |inner: Result<Shape<f32>, ShapeError>, radius: f32| {
        inner
            .and_then(|inner| Shape::round(inner, radius))
            .map_err(invalid)
    };
    match shape.as_typed_shape() {
        TypedShape::Ball(b) => ball(b).map_err(invalid),
        TypedShape::Cuboid(c) => cuboid(c).map_err(invalid),
        TypedShape::Capsule(c) => capsule(c).map_err(invalid),
        TypedShape::Cylinder(c) => cylinder(c).map_err(invalid),
        TypedShape::Cone(c) => cone(c).map_err(invalid),
        TypedShape::Segment(s) => segment(s).map_err(invalid),
        TypedShape::Triangle(t) => triangle(t).map_err(invalid),
        TypedShape::ConvexPolyhedron(c) => hull(c).map(Shape::Convex).map_err(invalid),
        TypedShape::RoundCuboid(r) => rounded(cuboid(&r.inner_shape), r.border_radius),
        TypedShape::RoundCylinder(r) => rounded(cylinder(&r.inner_shape), r.border_radius),
        TypedShape::RoundCone(r) => rounded(cone(&r.inner_shape), r.border_radius),
        TypedShape::RoundTriangle(r) => rounded(triangle(&r.inner_shape), r.border_radius),
        TypedShape::RoundConvexPolyhedron(r) => {
            rounded(hull(&r.inner_shape).map(Shape::Convex), r.border_radius)
        }
        TypedShape::Custom(_) => native(shape)
            .cloned()
            .ok_or(ConversionError::NotConvex { shape_type }),
        _ => Err(ConversionError::NotConvex { shape_type }),
    }
}

/// What a conversion was made from: the parry shape's type and the bits of its parameters, or
/// for a hull the address and length of its vertex buffer. A pair keeps its converted shapes
/// while the key of the parry shape it is handed stays the same (a parry shape edited in place
/// changes its key; a hull cannot be edited in place). `None` for shapes nphase does not take.
#[derive(Clone, Copy, Debug, Eq)]
pub(crate) struct SourceKey {
    shape_type: ShapeType,
    params: [u32; 10],
}

impl PartialEq for SourceKey {
    /// Word by word, without a branch or a call to `memcmp` (what the derived comparison of
    /// the array compiled to): every pair compares two keys every frame.
    fn eq(&self, other: &Self) -> bool {
        let differ = self
            .params
            .iter()
            .zip(&other.params)
            .fold(0, |d, (a, b)| d | (a ^ b));
        differ == 0 && self.shape_type == other.shape_type
    }
}

/// The [`SourceKey`] of `shape`; `None` when it is not one of the convex shapes of the module
/// doc.
pub(crate) fn source_key(shape: &dyn ps::Shape) -> Option<SourceKey> {
    // The type comes from the variant (one virtual call per key, not two: every pair takes two
    // keys every frame).
    let (shape_type, params) = match shape.as_typed_shape() {
        TypedShape::Ball(b) => (ShapeType::Ball, bits(&[b.radius])),
        TypedShape::Cuboid(c) => (ShapeType::Cuboid, bits(&c.half_extents.to_array())),
        TypedShape::Capsule(c) => {
            let (a, b) = (c.segment.a, c.segment.b);
            let params = bits(&[a.x, a.y, a.z, b.x, b.y, b.z, c.radius]);
            (ShapeType::Capsule, params)
        }
        TypedShape::Cylinder(c) => (ShapeType::Cylinder, bits(&[c.half_height, c.radius])),
        TypedShape::Cone(c) => (ShapeType::Cone, bits(&[c.half_height, c.radius])),
        TypedShape::Segment(s) => {
            let params = bits(&[s.a.x, s.a.y, s.a.z, s.b.x, s.b.y, s.b.z]);
            (ShapeType::Segment, params)
        }
        TypedShape::Triangle(t) => (ShapeType::Triangle, bits(&triangle_params(t, 0.0))),
        TypedShape::ConvexPolyhedron(h) => (ShapeType::ConvexPolyhedron, hull_params(h, 0.0)),
        TypedShape::RoundCuboid(r) => {
            let h = r.inner_shape.half_extents;
            (
                ShapeType::RoundCuboid,
                bits(&[h.x, h.y, h.z, r.border_radius]),
            )
        }
        TypedShape::RoundCylinder(r) => {
            let c = &r.inner_shape;
            let params = bits(&[c.half_height, c.radius, r.border_radius]);
            (ShapeType::RoundCylinder, params)
        }
        TypedShape::RoundCone(r) => {
            let c = &r.inner_shape;
            let params = bits(&[c.half_height, c.radius, r.border_radius]);
            (ShapeType::RoundCone, params)
        }
        TypedShape::RoundTriangle(r) => {
            let params = bits(&triangle_params(&r.inner_shape, r.border_radius));
            (ShapeType::RoundTriangle, params)
        }
        TypedShape::RoundConvexPolyhedron(r) => {
            let params = hull_params(&r.inner_shape, r.border_radius);
            (ShapeType::RoundConvexPolyhedron, params)
        }
        TypedShape::Custom(_) => {
            // An nphase shape behind `AsParry` is immutable there: its address names it.
            let address = native(shape)? as *const Shape<f32> as u64;
            let mut params = [0u32; 10];
            params[..2].copy_from_slice(&[address as u32, (address >> 32) as u32]);
            (ShapeType::Custom, params)
        }
        _ => return None,
    };
    Some(SourceKey { shape_type, params })
}

/// The bit patterns of up to ten parameters.
fn bits(values: &[f32]) -> [u32; 10] {
    let mut params = [0u32; 10];
    for (slot, v) in params.iter_mut().zip(values) {
        *slot = v.to_bits();
    }
    params
}

fn triangle_params(t: &ps::Triangle, radius: f32) -> [f32; 10] {
    let [a, b, c] = [t.a, t.b, t.c];
    [a.x, a.y, a.z, b.x, b.y, b.z, c.x, c.y, c.z, radius]
}

/// A hull's vertex buffer (address, length) and border radius.
fn hull_params(hull: &ps::ConvexPolyhedron, radius: f32) -> [u32; 10] {
    let address = hull.points().as_ptr() as u64;
    let mut params = [0u32; 10];
    params[..4].copy_from_slice(&[
        address as u32,
        (address >> 32) as u32,
        hull.points().len() as u32,
        radius.to_bits(),
    ]);
    params
}

/// The nphase shape behind a parry custom shape that is an [`AsParry`]`<Shape<f32>>`.
fn native(shape: &dyn ps::Shape) -> Option<&Shape<f32>> {
    shape.as_shape::<AsParry<Shape<f32>>>().map(|s| &s.0)
}

/// A parry hull's vertices as nalgebra points.
pub(crate) fn hull_points(hull: &ps::ConvexPolyhedron) -> Vec<Point<f32>> {
    hull.points().iter().map(|p| point_to_na(*p)).collect()
}

fn ball(b: &ps::Ball) -> Result<Shape<f32>, ShapeError> {
    Ball::new(b.radius).map(Shape::Ball)
}

fn cuboid(c: &ps::Cuboid) -> Result<Shape<f32>, ShapeError> {
    Cuboid::new(vector_to_na(c.half_extents)).map(Shape::Cuboid)
}

fn cylinder(c: &ps::Cylinder) -> Result<Shape<f32>, ShapeError> {
    Cylinder::new(c.half_height, c.radius).map(Shape::Cylinder)
}

fn cone(c: &ps::Cone) -> Result<Shape<f32>, ShapeError> {
    Cone::new(c.half_height, c.radius).map(Shape::Cone)
}

fn segment(s: &ps::Segment) -> Result<Shape<f32>, ShapeError> {
    Segment::new(point_to_na(s.a), point_to_na(s.b)).map(Shape::Segment)
}

fn triangle(t: &ps::Triangle) -> Result<Shape<f32>, ShapeError> {
    Triangle::new(point_to_na(t.a), point_to_na(t.b), point_to_na(t.c)).map(Shape::Triangle)
}

/// nphase's `Capsule` when parry's segment is `(0, −h, 0)`–`(0, h, 0)` exactly (so nothing is
/// rounded), else the segment rounded by the radius (see the module doc).
fn capsule(c: &ps::Capsule) -> Result<Shape<f32>, ShapeError> {
    let (a, b) = (c.segment.a, c.segment.b);
    let y_aligned = a.x == 0.0 && a.z == 0.0 && b.x == 0.0 && b.z == 0.0 && a.y == -b.y;
    if y_aligned && b.y >= 0.0 {
        Capsule::new(b.y, c.radius).map(Shape::Capsule)
    } else {
        let core = Segment::new(point_to_na(a), point_to_na(b))?;
        Shape::round(Shape::Segment(core), c.radius)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bad parameters are refused by name, never a panic.
    #[test]
    fn invalid_parameters_name_the_shape_and_field() {
        let e = to_nphase(&ps::Ball::new(f32::NAN)).expect_err("NaN radius");
        assert_eq!(
            e.to_string(),
            "parry Ball: ball: `radius` must be finite (got NaN or infinity)"
        );
        // parry's constructor asserts on a negative radius; its fields are public, though.
        let cylinder = ps::Cylinder {
            half_height: 1.0,
            radius: -0.5,
        };
        let e = to_nphase(&cylinder).expect_err("negative radius");
        assert!(matches!(
            e,
            ConversionError::Invalid {
                shape_type: ShapeType::Cylinder,
                ..
            }
        ));
        let mut round = ps::RoundCuboid {
            inner_shape: ps::Cuboid::new(parry3d_031::math::Vector::ONE),
            border_radius: 0.1,
        };
        round.border_radius = f32::INFINITY;
        let e = to_nphase(&round).expect_err("infinite border radius");
        assert!(
            e.to_string().starts_with("parry RoundCuboid: round:"),
            "{e}"
        );
    }

    /// An nphase shape behind `AsParry` comes back as itself; another custom shape is refused.
    #[test]
    fn nphase_shapes_come_back() {
        let cylinder = Shape::Cylinder(Cylinder::new(0.5, 0.2).expect("valid"));
        let wrapped = AsParry(cylinder.clone());
        assert_eq!(to_nphase(&wrapped), Ok(cylinder));
        let other = AsParry(Shape::Ball(Ball::new(1.0).expect("valid")));
        assert!(source_key(&wrapped).is_some());
        assert_ne!(source_key(&wrapped), source_key(&other));
    }

    /// The capsule along y keeps nphase's capsule; an off-centre one is a rounded segment.
    #[test]
    fn capsules_keep_their_segment() {
        let y = ps::Capsule::new_y(0.5, 0.1);
        assert_eq!(
            to_nphase(&y).expect("valid").kind(),
            nphase_shapes::ShapeKind::Capsule
        );
        let shifted = ps::Capsule::new(
            parry3d_031::math::Vector::new(0.0, 0.0, 0.0),
            parry3d_031::math::Vector::new(0.0, 1.0, 0.0),
            0.1,
        );
        let Shape::Round(r) = to_nphase(&shifted).expect("valid") else {
            panic!("an off-centre capsule is a rounded segment");
        };
        assert_eq!(r.border_radius(), 0.1);
        let Shape::Segment(s) = r.inner() else {
            panic!("its core is a segment");
        };
        assert_eq!((s.a(), s.b()), (Point::origin(), Point::new(0.0, 1.0, 0.0)));
    }
}
