//! Supporting features (faces, edges, vertices) along a direction, for manifold clipping.

use nphase_math::{Isometry, Point, Real, UnitVector, Vector};

use crate::SupportMap;

/// Names a feature of a shape. Numbers are stable for a given shape value, so a pair of them
/// identifies a contact across frames.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FeatureId {
    /// A vertex (for a polygonised curve, a sample on it).
    Vertex(u32),
    /// An edge.
    Edge(u32),
    /// A face (a cylinder cap, the cone's base and a hull face are faces).
    Face(u32),
}

impl FeatureId {
    /// A compact code: two tag bits above a 30-bit index, unique per feature of a shape.
    pub fn code(self) -> u32 {
        match self {
            FeatureId::Vertex(i) => i & 0x3fff_ffff,
            FeatureId::Edge(i) => (1 << 30) | (i & 0x3fff_ffff),
            FeatureId::Face(i) => (2 << 30) | (i & 0x3fff_ffff),
        }
    }
}

/// The feature of a shape that supports it along a direction: a face polygon, an edge or a
/// vertex, in the shape's local frame.
///
/// Filled by [`FeatureMap::local_support_feature`] into a caller-owned value, so its buffers are
/// reused across calls (no allocation once they have grown to the largest face).
///
/// * `vertices` are counter-clockwise seen from outside (looking along `−normal`), with
///   `vertex_ids[i]` the stable id of `vertices[i]`: a face has 3 or more, an edge 2, a vertex 1.
/// * `normal` is the unit outward normal of the face, or for an edge or vertex the (normalised)
///   query direction.
#[derive(Clone, Debug, PartialEq)]
pub struct SupportFeature<T: Real> {
    /// Which feature this is.
    pub id: FeatureId,
    /// Outward unit normal of the face, or the query direction for edges and vertices.
    pub normal: UnitVector<T>,
    /// The feature's vertices, local frame; counter-clockwise about `normal` for faces.
    pub vertices: Vec<Point<T>>,
    /// Stable ids of `vertices` (vertex numbers of the shape).
    pub vertex_ids: Vec<u32>,
}

impl<T: Real> Default for SupportFeature<T> {
    fn default() -> Self {
        SupportFeature {
            id: FeatureId::Vertex(0),
            normal: Vector::y_axis(),
            vertices: Vec::new(),
            vertex_ids: Vec::new(),
        }
    }
}

impl<T: Real> SupportFeature<T> {
    /// Empties the feature and sets its id and normal, keeping the buffers.
    pub fn reset(&mut self, id: FeatureId, normal: UnitVector<T>) {
        self.id = id;
        self.normal = normal;
        self.vertices.clear();
        self.vertex_ids.clear();
    }

    /// Appends a vertex with its id.
    pub fn push(&mut self, point: Point<T>, id: u32) {
        self.vertices.push(point);
        self.vertex_ids.push(id);
    }

    /// Moves every vertex by `offset` (used by rounded shapes: the inner feature pushed out by
    /// the border radius).
    pub fn translate(&mut self, offset: &Vector<T>) {
        for v in &mut self.vertices {
            *v += offset;
        }
    }

    /// Pushes the feature out by `radius` onto the surface of the rounded shape around it: a
    /// face or a vertex along `normal`, an edge perpendicularly to itself (along `normal`'s
    /// component across the edge). An edge pushed along a `normal` that is only within
    /// [`FLAT_FEATURE_ANGLE`] of perpendicular to it would have its ends inside the rounded
    /// shape, by up to `radius · (1 − cos FLAT_FEATURE_ANGLE)`.
    pub fn push_out(&mut self, radius: T) {
        let n = self.normal.into_inner();
        let direction = match self.vertices[..] {
            [a, b] => {
                let edge = b - a;
                let across = n - edge * (n.dot(&edge) / edge.norm_squared());
                nphase_math::normalize_robust(&across).map_or(n, |u| u.into_inner())
            }
            _ => n,
        };
        self.translate(&(direction * radius));
    }

    /// Maps the feature from the shape's frame to another frame with `pose`.
    pub fn transform_by(&mut self, pose: &Isometry<T>) {
        for v in &mut self.vertices {
            *v = pose * *v;
        }
        self.normal = pose * self.normal;
    }
}

/// Shapes that can report the feature supporting them along a direction.
pub trait FeatureMap<T: Real>: SupportMap<T> {
    /// Fills `out` with the feature of the shape (local frame) that supports it along `dir`.
    ///
    /// Polytopes return a face: among the faces through the support vertex, the one whose
    /// normal is closest to `dir`. Curved shapes return a flat or straight part of their surface
    /// when `dir` is within [`FLAT_FEATURE_ANGLE`] of that part's normal (a cylinder's cap or
    /// side line, a cone's base or slant line, a capsule's side), else the support point alone.
    /// `dir` need not be normalised; a zero `dir` gives some valid feature.
    fn local_support_feature(&self, dir: &Vector<T>, out: &mut SupportFeature<T>);
}

/// A curved shape's flat or straight surface part is reported as the supporting feature when the
/// query direction is within this angle (radians) of its normal: 2°, wide enough that a resting
/// cylinder keeps a full cap contact while it rocks, narrow enough that points lifted off the
/// support plane by more than `0.035 × size` are not mistaken for contact (the manifold stage
/// also drops points beyond the prediction distance).
pub const FLAT_FEATURE_ANGLE: f64 = 0.035;

/// `dir` normalised, or the +y axis when `dir` is zero or not finite — the fallback every shape
/// uses so that a zero direction never produces NaN.
pub(crate) fn unit_or_y<T: Real>(dir: &Vector<T>) -> UnitVector<T> {
    nphase_math::normalize_robust(dir).unwrap_or_else(Vector::y_axis)
}
