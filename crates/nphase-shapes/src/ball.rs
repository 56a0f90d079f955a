//! The ball: all points within `radius` of the local origin.

use nphase_math::{Point, Real, UnitVector, Vector};

use crate::error::check_lengths;
use crate::feature::unit_or_y;
use crate::{FeatureId, FeatureMap, ShapeError, SupportFeature, SupportMap};

/// A ball of the given radius centred on the local origin. Its core is the origin (a point) and
/// its radius is the whole ball.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ball<T: Real> {
    radius: T,
}

impl<T: Real> Ball<T> {
    /// A ball of `radius` (finite, ≥ 0, within the precision's input range; a zero radius is a
    /// point).
    pub fn new(radius: T) -> Result<Self, ShapeError> {
        check_lengths("ball", &[("radius", radius)])?;
        Ok(Ball { radius })
    }

    /// The radius.
    pub fn radius(&self) -> T {
        self.radius
    }
}

impl<T: Real> SupportMap<T> for Ball<T> {
    /// `radius · dir/|dir|`; a zero direction gives the top point `(0, radius, 0)`.
    fn local_support_point(&self, dir: &Vector<T>) -> Point<T> {
        self.local_support_point_toward(&unit_or_y(dir))
    }

    fn local_support_point_toward(&self, dir: &UnitVector<T>) -> Point<T> {
        Point::from(dir.into_inner() * self.radius)
    }
}

impl<T: Real> FeatureMap<T> for Ball<T> {
    /// Always the support point, as `FeatureId::Vertex(0)`.
    fn local_support_feature(&self, dir: &Vector<T>, out: &mut SupportFeature<T>) {
        let n = unit_or_y(dir);
        out.reset(FeatureId::Vertex(0), n);
        out.push(self.local_support_point_toward(&n), 0);
    }
}
