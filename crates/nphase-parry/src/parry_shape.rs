//! An nphase [`Shape`] as a parry 0.31 `Shape`, so that it can be a rapier collider.
//!
//! `AsParry<Shape<f32>>` implements parry's `Shape` (with `RayCast` and `PointQuery`), as a
//! custom shape (`ShapeType::Custom`):
//!
//! * with the [`Dispatcher`](crate::Dispatcher), its pairs go to nphase with the very same
//!   shape (no conversion at all); with parry's own dispatcher, through parry's GJK and EPA on
//!   its support map (parry has no contact manifolds for custom shapes: its
//!   `DefaultQueryDispatcher` answers `Unsupported` there);
//! * ray casts and point projections are parry's support-map algorithms on it;
//! * its mass properties, CCD thickness and bounding volumes are those of the equivalent parry
//!   shape, computed when asked (collider creation): a rounded shape's mass is its inner
//!   shape's, as parry does for its own round shapes, and its CCD thickness grows by the
//!   border radius.

use parry3d_031::bounding_volume::{Aabb, BoundingSphere};
use parry3d_031::mass_properties::MassProperties;
use parry3d_031::math::{Real, Vector};
use parry3d_031::query::details::{
    local_point_projection_on_support_map, local_ray_intersection_with_support_map_with_params,
};
use parry3d_031::query::gjk::VoronoiSimplex;
use parry3d_031::query::{PointProjection, PointQuery, Ray, RayCast, RayIntersection};
use parry3d_031::shape::{self as ps, FeatureId, ShapeType, SupportMap, TypedShape};

use nphase_shapes::Shape;

use crate::AsParry;
use crate::glam_nalgebra::{point_from_na, vector_from_na};

impl ps::Shape for AsParry<Shape<f32>> {
    fn compute_local_aabb(&self) -> Aabb {
        let aabb = self.0.local_aabb();
        Aabb::new(point_from_na(&aabb.mins), point_from_na(&aabb.maxs))
    }

    fn compute_local_bounding_sphere(&self) -> BoundingSphere {
        let aabb = self.compute_local_aabb();
        BoundingSphere::new(aabb.center(), aabb.half_extents().length())
    }

    fn clone_dyn(&self) -> Box<dyn ps::Shape> {
        Box::new(self.clone())
    }

    /// nphase shapes are not rescaled (`None`, as parry answers for shapes it cannot scale).
    fn scale_dyn(&self, _scale: Vector, _num_subdivisions: u32) -> Option<Box<dyn ps::Shape>> {
        None
    }

    fn mass_properties(&self, density: Real) -> MassProperties {
        equivalent(&self.0, |s| s.mass_properties(density))
            .unwrap_or_else(|| MassProperties::new(Vector::ZERO, 0.0, Vector::ZERO))
    }

    fn shape_type(&self) -> ShapeType {
        ShapeType::Custom
    }

    fn as_typed_shape(&self) -> TypedShape<'_> {
        TypedShape::Custom(self)
    }

    fn ccd_thickness(&self) -> Real {
        let (_, radius) = self.0.core();
        radius + equivalent(&self.0, |s| s.ccd_thickness()).unwrap_or(0.0)
    }

    fn ccd_angular_thickness(&self) -> Real {
        equivalent(&self.0, |s| s.ccd_angular_thickness()).unwrap_or(core::f32::consts::FRAC_PI_2)
    }

    fn is_convex(&self) -> bool {
        true
    }

    fn as_support_map(&self) -> Option<&dyn SupportMap> {
        Some(self as &dyn SupportMap)
    }
}

impl RayCast for AsParry<Shape<f32>> {
    fn cast_local_ray_and_get_normal(
        &self,
        ray: &Ray,
        max_time_of_impact: Real,
        solid: bool,
    ) -> Option<RayIntersection> {
        local_ray_intersection_with_support_map_with_params(
            self,
            &mut VoronoiSimplex::new(),
            ray,
            max_time_of_impact,
            solid,
        )
    }
}

impl PointQuery for AsParry<Shape<f32>> {
    fn project_local_point(&self, point: Vector, solid: bool) -> PointProjection {
        local_point_projection_on_support_map(self, &mut VoronoiSimplex::new(), point, solid)
    }

    /// The projection, with the feature unknown (nphase's feature ids are not parry's).
    fn project_local_point_and_get_feature(&self, point: Vector) -> (PointProjection, FeatureId) {
        (self.project_local_point(point, false), FeatureId::Unknown)
    }
}

/// `f` of the parry shape equal to `shape` without its border radius (see the module doc);
/// `None` for a hull parry cannot build.
fn equivalent<R>(shape: &Shape<f32>, f: impl FnOnce(&dyn ps::Shape) -> R) -> Option<R> {
    let v = |p: nphase_math::Point<f32>| point_from_na(&p);
    Some(match shape {
        Shape::Ball(b) => f(&ps::Ball::new(b.radius())),
        Shape::Cuboid(c) => f(&ps::Cuboid::new(vector_from_na(&c.half_extents()))),
        Shape::Capsule(c) => f(&ps::Capsule::new_y(c.half_height(), c.radius())),
        Shape::Cylinder(c) => f(&ps::Cylinder::new(c.half_height(), c.radius())),
        Shape::Cone(c) => f(&ps::Cone::new(c.half_height(), c.radius())),
        Shape::Segment(s) => f(&ps::Segment::new(v(s.a()), v(s.b()))),
        Shape::Triangle(t) => f(&ps::Triangle::new(v(t.a()), v(t.b()), v(t.c()))),
        Shape::Convex(c) => {
            let points: Vec<Vector> = c.vertices().iter().map(|p| v(*p)).collect();
            f(&ps::ConvexPolyhedron::from_convex_hull(&points)?)
        }
        Shape::Round(r) => return equivalent(r.inner(), f),
    })
}
