//! Supporting features (faces, edges, vertices) along a direction, for manifold clipping, and
//! the names of a shape's features ([`FeatureId`]) that contact ids are made of.

use nphase_math::{Isometry, Point, Real, UnitVector, Vector};

use crate::SupportMap;

/// Names a feature of a shape. Numbers are stable for a given shape value, so a pair of them
/// identifies a contact across frames. Each shape's doc lists its numbering (vertices, edges
/// and faces are numbered separately).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
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

    /// The feature a [`code`](FeatureId::code) names (tag `3` reads as a face).
    pub fn from_code(code: u32) -> Self {
        let index = code & 0x3fff_ffff;
        match code >> 30 {
            0 => FeatureId::Vertex(index),
            1 => FeatureId::Edge(index),
            _ => FeatureId::Face(index),
        }
    }

    /// How many dimensions the feature has: 0 for a vertex, 1 for an edge, 2 for a face.
    pub fn dimension(self) -> u8 {
        match self {
            FeatureId::Vertex(_) => 0,
            FeatureId::Edge(_) => 1,
            FeatureId::Face(_) => 2,
        }
    }
}

impl core::fmt::Display for FeatureId {
    /// `vertex 3`, `edge 5`, `face 1`.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            FeatureId::Vertex(i) => write!(f, "vertex {i}"),
            FeatureId::Edge(i) => write!(f, "edge {i}"),
            FeatureId::Face(i) => write!(f, "face {i}"),
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
/// * `edge_ids[i]` is the stable id of the edge from `vertices[i]` to the next vertex: a face
///   has as many edges as vertices (the last one closes the loop), an edge 1, a vertex none.
/// * `normal` is the unit outward normal of the face, or for an edge or vertex the (normalised)
///   query direction.
/// * `round_axis` is, for an edge of a round surface, the axis the surface turns about: the
///   surface near the edge is the edge turned about that axis — a cylinder's side line about
///   the cylinder's axis, a cone's slant about the cone's, an edge pushed out by a rounded
///   shape's radius ([`SupportFeature::push_out`]: a capsule's side, a rounded edge) about the
///   edge it was pushed from. `None` for a sharp edge (a polytope's), a face or a vertex.
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
    /// Stable ids of the edges (edge numbers of the shape): `edge_ids[i]` joins `vertices[i]`
    /// and `vertices[(i + 1) % len]`.
    pub edge_ids: Vec<u32>,
    /// For an edge of a round surface, the axis the surface turns about (see the type's doc).
    pub round_axis: Option<RoundAxis<T>>,
}

/// The axis a round surface turns about ([`SupportFeature::round_axis`]), in the feature's
/// frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RoundAxis<T: Real> {
    /// A point of the axis.
    pub point: Point<T>,
    /// Its direction.
    pub direction: UnitVector<T>,
}

impl<T: Real> RoundAxis<T> {
    /// The shape's own y axis, through its origin (cylinders' and cones' sides).
    pub fn y() -> Self {
        RoundAxis {
            point: Point::origin(),
            direction: Vector::y_axis(),
        }
    }

    /// How far `p` is from the axis.
    pub fn distance(&self, p: &Point<T>) -> T {
        let d = p - self.point;
        (d - self.direction.into_inner() * d.dot(&self.direction)).norm()
    }
}

impl<T: Real> Default for SupportFeature<T> {
    fn default() -> Self {
        SupportFeature {
            id: FeatureId::Vertex(0),
            normal: Vector::y_axis(),
            vertices: Vec::new(),
            vertex_ids: Vec::new(),
            edge_ids: Vec::new(),
            round_axis: None,
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
        self.edge_ids.clear();
        self.round_axis = None;
    }

    /// Sets the vertices of a face (after [`SupportFeature::reset`]): its loop's points, their
    /// ids, and the ids of the edges from each to the next.
    pub fn set_polygon<const N: usize>(
        &mut self,
        vertices: [Point<T>; N],
        vertex_ids: &[u32; N],
        edge_ids: &[u32; N],
    ) {
        self.vertices.extend_from_slice(&vertices);
        self.vertex_ids.extend_from_slice(vertex_ids);
        self.edge_ids.extend_from_slice(edge_ids);
    }

    /// Appends a vertex with its id (for a vertex feature, or an edge or face whose edge ids
    /// are pushed with [`SupportFeature::push_edge`]).
    pub fn push(&mut self, point: Point<T>, id: u32) {
        self.vertices.push(point);
        self.vertex_ids.push(id);
    }

    /// Appends a vertex with its id, and the id of the edge from it to the next vertex.
    pub fn push_with_edge(&mut self, point: Point<T>, id: u32, edge: u32) {
        self.push(point, id);
        self.edge_ids.push(edge);
    }

    /// Appends the id of the next edge.
    pub fn push_edge(&mut self, edge: u32) {
        self.edge_ids.push(edge);
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
    /// component across the edge): pushed along a `normal` tilted from perpendicular by θ, an
    /// edge's ends would be inside the rounded shape by up to `radius · (1 − cos θ)`. A sharp
    /// edge becomes round about itself ([`round_axis`](SupportFeature::round_axis)); a round
    /// one keeps its axis (the offset of a surface of revolution turns about the same axis).
    pub fn push_out(&mut self, radius: T) {
        let n = self.normal.into_inner();
        let direction = match self.vertices[..] {
            [a, b] => {
                let edge = b - a;
                if self.round_axis.is_none() {
                    self.round_axis =
                        UnitVector::try_new(edge, T::zero()).map(|direction| RoundAxis {
                            point: a,
                            direction,
                        });
                }
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
        if let Some(axis) = &mut self.round_axis {
            axis.point = pose * axis.point;
            axis.direction = pose * axis.direction;
        }
    }
}

/// Shapes that can report the feature supporting them along a direction.
pub trait FeatureMap<T: Real>: SupportMap<T> {
    /// Fills `out` with the feature of the shape (local frame) that supports it along `dir`.
    ///
    /// Polytopes return a face: among the faces through the support vertex, the one whose
    /// normal is closest to `dir`. Curved shapes return the flat or straight part of their
    /// surface whose normal is closest to `dir` (a cylinder's cap polygon or side line, a cone's
    /// base polygon or slant line, a capsule's side within 45° of perpendicular), else the
    /// support point alone — the caller keeps the parts that are within its prediction distance.
    /// `dir` need not be normalised; a zero `dir` gives some valid feature.
    fn local_support_feature(&self, dir: &Vector<T>, out: &mut SupportFeature<T>);

    /// The outward unit normal of the face that
    /// [`local_support_feature`](FeatureMap::local_support_feature) reports along `dir`, or
    /// `None` where it reports an edge or a vertex. Shapes whose faces take work to build (a
    /// cylinder's cap, a cone's base: 16-gons) answer without building them; others build the
    /// feature in `scratch`, whose contents are then unspecified.
    fn local_support_face_normal(
        &self,
        dir: &Vector<T>,
        scratch: &mut SupportFeature<T>,
    ) -> Option<UnitVector<T>> {
        built_face_normal(self, dir, scratch)
    }

    /// [`local_support_feature`](FeatureMap::local_support_feature) with hysteresis: where a
    /// curved shape switches between two parts of its surface (a cylinder's cap and side line,
    /// a cone's base and slant line, a capsule's side and end), the part `previous` names (the
    /// feature this shape reported for the same contact last frame) is kept up to
    /// [`FEATURE_HYSTERESIS`] past the switch, so a contact that rocks about the switch keeps
    /// its feature. A cuboid or hull keeps the face `previous` names up to [`FACE_TIE_HOLD`]
    /// past the tie with the closest (a box on its edge), and a hull starts its search on
    /// `previous`, near the answer; balls have no switch.
    fn local_support_feature_near(
        &self,
        dir: &Vector<T>,
        previous: Option<FeatureId>,
        out: &mut SupportFeature<T>,
    ) {
        let _ = previous;
        self.local_support_feature(dir, out);
    }

    /// How far `p` (local frame, the shape's units) is from the feature `id` of this shape —
    /// the feature's place on the surface, wherever the supporting feature along this frame's
    /// direction is: a contact point named last frame by one part of a surface is checked
    /// against that part when this frame's feature is another (a cylinder's cap polygon and its
    /// side line meet at the rim, and a point there is named by either). A side or slant line
    /// (in the query's azimuth) stands for the surface it sweeps, its rim end for the rim
    /// circle. For a rounded shape (a capsule, [`Round`](crate::Round)) the feature is its core's
    /// pushed out by the radius and the answer is signed: the core feature's distance less the
    /// radius, negative within the rounding (so nested roundings add up); callers compare its
    /// magnitude. Every shape but the ball places its features (a flat hull's two faces are its
    /// polygon); `None` for a ball and for an id the shape does not have — any `id`, never a
    /// panic.
    fn local_feature_distance(&self, id: FeatureId, p: &Point<T>) -> Option<T> {
        let _ = (id, p);
        None
    }
}

/// How far `p` is from the convex polygon of the `n` points `vertex(0..n)`, counter-clockwise
/// about `normal` (unit): its height over the plane where it is strictly inside every edge,
/// else the distance to the nearest edge — exact on the boundary too, and for a degenerate
/// polygon (a segment or a point, where no point is strictly inside).
pub(crate) fn polygon_distance<T: Real>(
    vertex: impl Fn(usize) -> Point<T>,
    n: usize,
    normal: &Vector<T>,
    p: &Point<T>,
) -> T {
    let inside = (0..n).all(|k| {
        let (a, b) = (vertex(k), vertex((k + 1) % n));
        (b - a).cross(&(p - a)).dot(normal) > T::zero()
    });
    if inside {
        return num_traits::Float::abs((p - vertex(0)).dot(normal));
    }
    let nearest2 = (0..n)
        .map(|k| nphase_math::segment_distance2(&vertex(k), &vertex((k + 1) % n), p))
        .fold(T::infinity(), num_traits::Float::min);
    num_traits::Float::sqrt(nearest2)
}

/// [`FeatureMap::local_support_face_normal`] the plain way: the feature built in `scratch`,
/// and its normal if it is a face.
pub(crate) fn built_face_normal<T: Real, S: FeatureMap<T> + ?Sized>(
    shape: &S,
    dir: &Vector<T>,
    scratch: &mut SupportFeature<T>,
) -> Option<UnitVector<T>> {
    shape.local_support_feature(dir, scratch);
    (scratch.vertices.len() >= 3).then_some(scratch.normal)
}

/// How far (radians, 10°) past the switch between two parts of a curved surface the part
/// reported last frame is kept ([`FeatureMap::local_support_feature_near`]): well above the
/// rocking of a resting contact, well below the 45° between the switch and either part.
pub const FEATURE_HYSTERESIS: f64 = 0.1745;

/// Which way the hysteresis of a switch between two parts leans: toward the first part, the
/// second one, or neither (no history): the switch angle moves by `lean × FEATURE_HYSTERESIS`.
pub(crate) fn lean(previous: Option<FeatureId>, first: FeatureId, second: FeatureId) -> f64 {
    match previous {
        Some(p) if p == first => 1.0,
        Some(p) if p == second => -1.0,
        _ => 0.0,
    }
}

/// Two features are treated as parallel when their directions are within this angle (radians,
/// 2°): edges of a manifold clipped against each other (a capsule lying on a capsule), and a
/// face normal taken for the contact normal ([`FeatureMap`] users that certify a normal).
///
/// Curved shapes do not use it for their features: a cylinder's cap or side line, a cone's base
/// or slant line and a capsule's side are reported whenever their normal is the closest to the
/// query direction (within 45° for the straight lines), and the manifold keeps their points
/// that lie within the prediction distance.
pub const FLAT_FEATURE_ANGLE: f64 = 0.035;

/// How far past the plane where two faces of a polytope tie (radians of the unit direction's
/// distance to that plane, about 1.4°: `sin(FLAT_FEATURE_ANGLE) / √2`) the face reported last
/// frame is kept ([`FeatureMap::local_support_feature_near`]): a box or hull resting on its edge,
/// where the two faces through the edge tie, keeps reporting one of them under pose noise. For
/// faces `p` (last frame's) and `b` (the closest to `dir`), `p` is kept while `n_p · dir > 0`
/// and `(n_b − n_p) · dir ≤ FACE_TIE_HOLD × |n_b − n_p| × |dir|` — an angle past the tie the same
/// for any angle between the faces (for a box's faces, 90° apart: `dir`'s component along `n_p`
/// short of the largest by at most `sin(FLAT_FEATURE_ANGLE) × |dir|`), and on a hull also only
/// if `p` is through the support vertex and holds the tied edge where `b` must; a hull's faces
/// under about 5.7° apart are held at most half-way to the other face's normal
/// (`ConvexPolyhedron::keeps_face_over`).
pub const FACE_TIE_HOLD: f64 = 0.024_743_684_783_801_026;

/// `dir` normalised, or the +y axis when `dir` is zero or not finite — the fallback every shape
/// uses so that a zero direction never produces NaN.
pub(crate) fn unit_or_y<T: Real>(dir: &Vector<T>) -> UnitVector<T> {
    nphase_math::normalize_robust(dir).unwrap_or_else(Vector::y_axis)
}
