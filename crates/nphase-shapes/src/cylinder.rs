//! The cylinder: a disc in the local xz plane swept along the local y axis.

use nphase_math::{Point, Real, UnitVector, Vector};
use num_traits::Float;

use crate::error::check_size;
use crate::feature::unit_or_y;
use crate::{FLAT_FEATURE_ANGLE, FeatureId, FeatureMap, ShapeError, SupportFeature, SupportMap};

/// Number of vertices of the regular polygon that stands for a cylinder cap or a cone base in a
/// supporting feature. Its vertices lie on the rim (an inscribed polygon), so every contact
/// point built from it is on the surface; the polygon's edges fall short of the rim by at most
/// `radius · (1 − cos(π/16)) ≈ 0.019 · radius`.
pub const DISC_POLYGON_VERTICES: u32 = 16;

/// All points with `x² + z² ≤ radius²` and `|y| ≤ half_height` (parry3d's `Cylinder`).
///
/// Feature ids: face 0 is the top cap (+y), face 1 the bottom cap; the cap polygons have vertex
/// ids `0..16` (top) and `16..32` (bottom), vertex `k` at angle `2πk/16` from +x towards −z; the
/// side line is edge 0 with vertex ids 32 (bottom) and 33 (top); a lone rim point is vertex 34
/// (top rim) or 35 (bottom rim).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cylinder<T: Real> {
    half_height: T,
    radius: T,
}

impl<T: Real> Cylinder<T> {
    /// A cylinder of the given half-height and radius (both finite, ≥ 0).
    pub fn new(half_height: T, radius: T) -> Result<Self, ShapeError> {
        check_size("cylinder", "half_height", half_height)?;
        check_size("cylinder", "radius", radius)?;
        Ok(Cylinder {
            half_height,
            radius,
        })
    }

    /// Half the height along y.
    pub fn half_height(&self) -> T {
        self.half_height
    }

    /// The radius.
    pub fn radius(&self) -> T {
        self.radius
    }
}

impl<T: Real> SupportMap<T> for Cylinder<T> {
    /// The rim point in the azimuth of `dir` at the cap `dir` points to; the cap centre when
    /// `dir` is along the axis. When `dir.y` is zero its sign bit picks the cap: a zero `dir`
    /// gives the top cap centre, `(0, −0.0, 0)` the bottom one.
    fn local_support_point(&self, dir: &Vector<T>) -> Point<T> {
        let radial = radial_unit(dir).map_or_else(Vector::zeros, |u| u * self.radius);
        Point::new(radial.x, Float::copysign(self.half_height, dir.y), radial.z)
    }

    fn local_support_point_toward(&self, dir: &UnitVector<T>) -> Point<T> {
        self.local_support_point(dir.as_ref())
    }
}

impl<T: Real> FeatureMap<T> for Cylinder<T> {
    /// A cap polygon when `dir` is within [`FLAT_FEATURE_ANGLE`] of the axis, the side line when
    /// within it of perpendicular, else the support point.
    fn local_support_feature(&self, dir: &Vector<T>, out: &mut SupportFeature<T>) {
        let dir = unit_or_y(dir);
        let (sin_flat, cos_flat) = Float::sin_cos(T::lit(FLAT_FEATURE_ANGLE));
        let top = dir.y >= T::zero();
        let h = Float::copysign(self.half_height, dir.y);
        if Float::abs(dir.y) >= cos_flat {
            let normal = if top {
                Vector::y_axis()
            } else {
                -Vector::y_axis()
            };
            out.reset(FeatureId::Face(u32::from(!top)), normal);
            disc_polygon(
                self.radius,
                h,
                top,
                if top { 0 } else { DISC_POLYGON_VERTICES },
                out,
            );
        } else {
            let radial = radial_unit(&dir).map_or_else(Vector::zeros, |u| u * self.radius);
            if Float::abs(dir.y) <= sin_flat {
                out.reset(FeatureId::Edge(0), dir);
                let id = 2 * DISC_POLYGON_VERTICES;
                out.push(Point::new(radial.x, -self.half_height, radial.z), id);
                out.push(Point::new(radial.x, self.half_height, radial.z), id + 1);
            } else {
                let id = 2 * DISC_POLYGON_VERTICES + 2 + u32::from(!top);
                out.reset(FeatureId::Vertex(id), dir);
                out.push(Point::new(radial.x, h, radial.z), id);
            }
        }
    }
}

/// The unit direction of `(dir.x, 0, dir.z)`, or `None` when `dir` is along the y axis.
pub(crate) fn radial_unit<T: Real>(dir: &Vector<T>) -> Option<Vector<T>> {
    nphase_math::normalize_robust(&Vector::new(dir.x, T::zero(), dir.z)).map(|u| u.into_inner())
}

/// Appends the regular [`DISC_POLYGON_VERTICES`]-gon of `radius` at height `y`, counter-clockwise
/// about +y when `up` (else about −y), vertex ids `first_id + k` for the vertex at angle
/// `2πk/N` (from +x towards −z).
pub(crate) fn disc_polygon<T: Real>(
    radius: T,
    y: T,
    up: bool,
    first_id: u32,
    out: &mut SupportFeature<T>,
) {
    let n = DISC_POLYGON_VERTICES;
    let vertex = |k: u32| {
        let angle = T::lit(core::f64::consts::TAU * f64::from(k) / f64::from(n));
        let (s, c) = Float::sin_cos(angle);
        Point::new(radius * c, y, -radius * s)
    };
    for i in 0..n {
        // Increasing angle turns counter-clockwise about +y; walk it backwards for −y.
        let k = if up { i } else { (n - i) % n };
        out.push(vertex(k), first_id + k);
    }
}
