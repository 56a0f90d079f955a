//! The segment `[a, b]`.

use nphase_math::{Point, Real, Vector};
use num_traits::Float;

use crate::error::check_vertices;
use crate::feature::{FEATURE_HYSTERESIS, unit_or_y};
use crate::{
    FeatureId, FeatureMap, ShapeError, SupportFeature, SupportMap, SupportVertex, VertexId,
};

/// A line segment between two points of the local frame. Vertex 0 is `a`, vertex 1 is `b`.
/// A zero-length segment is allowed (it is a point).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Segment<T: Real> {
    a: Point<T>,
    b: Point<T>,
}

impl<T: Real> Segment<T> {
    /// The segment from `a` to `b` (both finite, within the precision's input range).
    pub fn new(a: Point<T>, b: Point<T>) -> Result<Self, ShapeError> {
        check_vertices("segment", |i| ["a", "b"][i].to_owned(), &[a, b])?;
        Ok(Segment { a, b })
    }

    /// Builds a segment from points already known to be finite (internal cores).
    pub(crate) fn new_unchecked(a: Point<T>, b: Point<T>) -> Self {
        Segment { a, b }
    }

    /// The first endpoint (vertex 0).
    pub fn a(&self) -> Point<T> {
        self.a
    }

    /// The second endpoint (vertex 1).
    pub fn b(&self) -> Point<T> {
        self.b
    }
}

impl<T: Real> SupportMap<T> for Segment<T> {
    /// The endpoint further along `dir`; `b` on a tie.
    fn local_support_point(&self, dir: &Vector<T>) -> Point<T> {
        self.local_support_vertex(dir, VertexId::NONE).point
    }

    fn local_support_vertex(&self, dir: &Vector<T>, _hint: VertexId) -> SupportVertex<T> {
        if self.a.coords.dot(dir) > self.b.coords.dot(dir) {
            SupportVertex {
                point: self.a,
                id: VertexId(0),
            }
        } else {
            SupportVertex {
                point: self.b,
                id: VertexId(1),
            }
        }
    }

    fn local_vertex(&self, id: VertexId) -> Option<Point<T>> {
        match id.0 {
            0 => Some(self.a),
            1 => Some(self.b),
            _ => None,
        }
    }
}

impl<T: Real> FeatureMap<T> for Segment<T> {
    /// `FeatureId::Edge(0)` (both endpoints) when `dir` is within 45° of perpendicular to the
    /// segment, else the support endpoint (`Vertex(0)` is `a`, `Vertex(1)` is `b`).
    fn local_support_feature(&self, dir: &Vector<T>, out: &mut SupportFeature<T>) {
        segment_feature(self.a, self.b, &unit_or_y(dir), 0.0, out);
    }

    /// The switch at 45° leans toward the side when `previous` was the edge, toward the end
    /// when it was an end.
    fn local_support_feature_near(
        &self,
        dir: &Vector<T>,
        previous: Option<FeatureId>,
        out: &mut SupportFeature<T>,
    ) {
        segment_feature(self.a, self.b, &unit_or_y(dir), side_lean(previous), out);
    }

    /// The ends (vertices 0 and 1) and the segment (edge 0).
    fn local_feature_distance(&self, id: FeatureId, p: &Point<T>) -> Option<T> {
        match id {
            FeatureId::Vertex(0) => Some((p - self.a).norm()),
            FeatureId::Vertex(1) => Some((p - self.b).norm()),
            FeatureId::Edge(0) => Some(Float::sqrt(nphase_math::segment_distance2(
                &self.a, &self.b, p,
            ))),
            _ => None,
        }
    }
}

/// The lean of the side/end switch of a segment (or a capsule's core) given last frame's
/// feature.
pub(crate) fn side_lean(previous: Option<FeatureId>) -> f64 {
    match previous {
        Some(FeatureId::Edge(_)) => 1.0,
        Some(FeatureId::Vertex(_)) => -1.0,
        _ => 0.0,
    }
}

/// The supporting feature of segment `[a, b]` along unit `dir`: the edge when `dir` is within
/// `45° + lean × FEATURE_HYSTERESIS` of perpendicular to it, else the endpoint (shared with the
/// capsule, whose core is a segment). The caller keeps the parts within its prediction
/// distance.
pub(crate) fn segment_feature<T: Real>(
    a: Point<T>,
    b: Point<T>,
    dir: &nphase_math::UnitVector<T>,
    lean: f64,
    out: &mut SupportFeature<T>,
) {
    let ab = b - a;
    let along = ab.dot(dir);
    let limit = (core::f64::consts::FRAC_PI_4 + lean * FEATURE_HYSTERESIS).sin();
    let side = Float::abs(along) <= T::lit(limit) * ab.norm();
    out.reset(FeatureId::Edge(0), *dir);
    if side {
        out.push_with_edge(a, 0, 0);
        out.push(b, 1);
    } else if along > T::zero() {
        out.id = FeatureId::Vertex(1);
        out.push(b, 1);
    } else {
        out.id = FeatureId::Vertex(0);
        out.push(a, 0);
    }
}
