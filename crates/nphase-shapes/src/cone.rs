//! The cone: apex on +y, base disc on −y.

use nphase_math::{Point, Real, UnitVector, Vector};
use num_traits::Float;

use crate::cylinder::{DISC_POLYGON_VERTICES, disc_polygon, radial_unit};
use crate::error::check_size;
use crate::feature::unit_or_y;
use crate::{
    FLAT_FEATURE_ANGLE, FeatureId, FeatureMap, ShapeError, SupportFeature, SupportMap,
    SupportVertex, VertexId,
};

/// The convex hull of the apex `(0, half_height, 0)` and the base disc of `radius` at
/// `y = −half_height` (parry3d's `Cone`).
///
/// Feature ids: vertex 0 is the apex; face 0 the base, whose polygon (see
/// [`DISC_POLYGON_VERTICES`]) has vertex ids `1..=16`; edge 0 is a slant line from the apex to
/// rim point id 17; a lone rim point is vertex 17.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cone<T: Real> {
    half_height: T,
    radius: T,
}

impl<T: Real> Cone<T> {
    /// A cone of the given half-height and base radius (both finite, ≥ 0).
    pub fn new(half_height: T, radius: T) -> Result<Self, ShapeError> {
        check_size("cone", "half_height", half_height)?;
        check_size("cone", "radius", radius)?;
        Ok(Cone {
            half_height,
            radius,
        })
    }

    /// Half the height along y.
    pub fn half_height(&self) -> T {
        self.half_height
    }

    /// The base radius.
    pub fn radius(&self) -> T {
        self.radius
    }

    fn apex(&self) -> Point<T> {
        Point::new(T::zero(), self.half_height, T::zero())
    }

    /// The base rim point in the azimuth of `dir` (the base centre when `dir` is along y).
    fn rim_point(&self, dir: &Vector<T>) -> Point<T> {
        let radial = radial_unit(dir).map_or_else(Vector::zeros, |u| u * self.radius);
        Point::new(radial.x, -self.half_height, radial.z)
    }
}

impl<T: Real> SupportMap<T> for Cone<T> {
    /// The apex or the rim point in the azimuth of `dir`, whichever is further; the apex on a
    /// tie (so a zero `dir` gives the apex).
    fn local_support_point(&self, dir: &Vector<T>) -> Point<T> {
        self.local_support_vertex(dir, VertexId::NONE).point
    }

    fn local_support_point_toward(&self, dir: &UnitVector<T>) -> Point<T> {
        self.local_support_point(dir.as_ref())
    }

    fn local_support_vertex(&self, dir: &Vector<T>, _hint: VertexId) -> SupportVertex<T> {
        let apex = self.apex();
        let rim = self.rim_point(dir);
        // `apex · dir` is `half_height · dir.y` (the zero terms change at most a zero's sign).
        if self.half_height * dir.y >= rim.coords.dot(dir) {
            SupportVertex {
                point: apex,
                id: VertexId(0),
            }
        } else {
            SupportVertex {
                point: rim,
                id: VertexId::NONE,
            }
        }
    }

    /// Only the apex (vertex 0) is a vertex.
    fn local_vertex(&self, id: VertexId) -> Option<Point<T>> {
        (id.0 == 0).then(|| self.apex())
    }
}

impl<T: Real> FeatureMap<T> for Cone<T> {
    /// The base polygon when `dir` is within [`FLAT_FEATURE_ANGLE`] of −y, a slant line when
    /// within it of the slant's normal, else the apex or the rim point.
    fn local_support_feature(&self, dir: &Vector<T>, out: &mut SupportFeature<T>) {
        let dir = unit_or_y(dir);
        let cos_flat = Float::cos(T::lit(FLAT_FEATURE_ANGLE));
        if -dir.y >= cos_flat {
            out.reset(FeatureId::Face(0), -Vector::y_axis());
            disc_polygon(self.radius, -self.half_height, false, 1, out);
            return;
        }
        let rim_id = DISC_POLYGON_VERTICES + 1;
        if let Some(u) = radial_unit(&dir) {
            // Outward normal of the slant line in the azimuth u: perpendicular to the line from
            // apex (0, h) to rim (r, −h) in (radial, y) coordinates, i.e. along (2h, r).
            let two_h = self.half_height + self.half_height;
            let slant_normal =
                nphase_math::normalize_robust(&(u * two_h + Vector::y() * self.radius));
            if slant_normal.is_some_and(|n| n.dot(&dir) >= cos_flat) {
                out.reset(FeatureId::Edge(0), dir);
                out.push(self.apex(), 0);
                out.push(self.rim_point(&dir), rim_id);
                return;
            }
        }
        let support = self.local_support_vertex(&dir, VertexId::NONE);
        if support.id.is_some() {
            out.reset(FeatureId::Vertex(0), dir);
            out.push(support.point, 0);
        } else {
            out.reset(FeatureId::Vertex(rim_id), dir);
            out.push(support.point, rim_id);
        }
    }
}
