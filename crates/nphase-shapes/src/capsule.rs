//! The capsule: a segment along the local y axis swept by a ball.

use nphase_math::{Point, Real, UnitVector, Vector};

use crate::error::check_lengths;
use crate::feature::unit_or_y;
use crate::segment::{segment_feature, side_lean};
use crate::{FeatureId, FeatureMap, Segment, ShapeError, SupportFeature, SupportMap};

/// All points within `radius` of the segment from `(0, −half_height, 0)` to
/// `(0, half_height, 0)` (parry3d's `Capsule::new_y`). Its core is that segment; vertex 0 is the
/// bottom end, vertex 1 the top end.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Capsule<T: Real> {
    half_height: T,
    radius: T,
}

impl<T: Real> Capsule<T> {
    /// A capsule of the given half-height of its core segment and radius (both finite, ≥ 0,
    /// within the precision's input range).
    pub fn new(half_height: T, radius: T) -> Result<Self, ShapeError> {
        check_lengths(
            "capsule",
            &[("half_height", half_height), ("radius", radius)],
        )?;
        Ok(Capsule {
            half_height,
            radius,
        })
    }

    /// Half the length of the core segment.
    pub fn half_height(&self) -> T {
        self.half_height
    }

    /// The radius.
    pub fn radius(&self) -> T {
        self.radius
    }

    /// The core segment, bottom (vertex 0) to top (vertex 1).
    pub fn segment(&self) -> Segment<T> {
        let top = Point::new(T::zero(), self.half_height, T::zero());
        Segment::new_unchecked(-top, top)
    }
}

impl<T: Real> SupportMap<T> for Capsule<T> {
    /// The core's support endpoint pushed out by `radius` along `dir`; a zero direction gives the
    /// top point.
    fn local_support_point(&self, dir: &Vector<T>) -> Point<T> {
        self.local_support_point_toward(&unit_or_y(dir))
    }

    fn local_support_point_toward(&self, dir: &UnitVector<T>) -> Point<T> {
        // The core segment's support endpoint (`Segment`'s rule: the top one unless it is
        // strictly lower along `dir`, i.e. unless `dir` points down).
        let end = if dir.y < T::zero() {
            -self.half_height
        } else {
            self.half_height
        };
        Point::new(T::zero(), end, T::zero()) + dir.into_inner() * self.radius
    }
}

impl<T: Real> FeatureMap<T> for Capsule<T> {
    /// The side line (`Edge(0)`) when `dir` is within 45° of perpendicular to the axis, else the
    /// support point (`Vertex(0)` bottom, `Vertex(1)` top): the core segment's feature pushed
    /// out by the radius.
    fn local_support_feature(&self, dir: &Vector<T>, out: &mut SupportFeature<T>) {
        self.local_support_feature_near(dir, None, out);
    }

    /// The core segment's switch with hysteresis, pushed out by the radius.
    fn local_support_feature_near(
        &self,
        dir: &Vector<T>,
        previous: Option<FeatureId>,
        out: &mut SupportFeature<T>,
    ) {
        let dir = unit_or_y(dir);
        let segment = self.segment();
        segment_feature(segment.a(), segment.b(), &dir, side_lean(previous), out);
        out.push_out(self.radius);
    }

    /// The core segment's features, less the radius (signed: negative within it).
    fn local_feature_distance(&self, id: FeatureId, p: &Point<T>) -> Option<T> {
        let core = self.segment().local_feature_distance(id, p)?;
        Some(core - self.radius)
    }
}
