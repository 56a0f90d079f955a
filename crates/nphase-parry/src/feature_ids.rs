//! parry's per-point feature ids (`fid1`, `fid2`) for nphase's manifold points.
//!
//! parry and rapier tell a contact point from its predecessor by the pair of features that made
//! it (`ContactManifold::match_contacts` carries the solver's warm-start data over by
//! `(fid1, fid2)`), so the ids must be stable while the same features touch and distinct within a
//! manifold. nphase's point ids have these properties but are, today, an opaque mix of
//! feature codes; until they become decodable feature pairs, each point is located on the
//! features that support the two shapes along the manifold normal — the same features nphase
//! clipped —, which gives parry-style pairs: an incident vertex on a reference face is
//! `(face, vertex)`, a clipped edge crossing is `(edge, edge)`, a curved witness `(…, vertex)`.
//!
//! # Locating a point on a feature
//! The smallest part of the supporting feature within `LOCATE_TOLERANCE × size` of the point
//! (`size` = the feature's largest coordinate): one of its vertices (`vertex(id)`), one of its
//! polygon edges (`edge(code)`), else the feature itself (`face(i)`, or for a line feature
//! its one edge). parry packs a code into 30 bits; an edge is named by its two vertex ids,
//! `min << 15 | max`, when both are below 2¹⁵ (hulls and the polygonised caps have far fewer
//! vertices), else by a 30-bit hash of the pair.
//!
//! Two points of one manifold that land on the same pair of features (possible only in
//! degenerate geometry: two clipped points inside the same face and the same line) are told
//! apart by nphase's own id: the later one takes `vertex(id mod 2³⁰)` as its `fid2`.

use nphase_math::{Isometry, Point, UnitVector};
use nphase_pipeline::ContactPoint;
use nphase_shapes::{FeatureId, FeatureMap, Shape, SupportFeature};
use parry3d_031::shape::PackedFeatureId;

/// A point within this fraction of the feature's size of a vertex or edge lies on it: clipping
/// places points on the reference polygon's edges up to rounding (~ε·size), and nphase merges
/// points closer than `1e-4 × size`.
const LOCATE_TOLERANCE: f32 = 1e-4;

/// The 30 code bits of a parry feature id.
const CODE_MASK: u32 = 0x3fff_ffff;

/// The features of both shapes that support a manifold, in each shape's local frame.
#[derive(Debug, Default)]
pub(crate) struct SupportingFeatures {
    feature1: SupportFeature<f32>,
    feature2: SupportFeature<f32>,
}

impl SupportingFeatures {
    /// Finds the features of A along `normal1` (A's frame) and of B along `−normal1`.
    pub(crate) fn find(
        &mut self,
        shape1: &Shape<f32>,
        shape2: &Shape<f32>,
        pos12: &Isometry<f32>,
        normal1: &UnitVector<f32>,
    ) {
        shape1.local_support_feature(normal1, &mut self.feature1);
        let normal2 = pos12
            .rotation
            .inverse_transform_vector(&-normal1.into_inner());
        shape2.local_support_feature(&normal2, &mut self.feature2);
    }

    /// `(fid1, fid2)` of each point into `out` (as long as `points`), in order; see the module
    /// doc.
    pub(crate) fn ids(
        &self,
        points: &[ContactPoint<f32>],
        out: &mut [(PackedFeatureId, PackedFeatureId)],
    ) {
        for (k, p) in points.iter().enumerate() {
            let mut ids = (
                locate(&self.feature1, &p.local_point1),
                locate(&self.feature2, &p.local_point2),
            );
            if out[..k].contains(&ids) {
                ids.1 = PackedFeatureId::vertex(p.id & CODE_MASK);
            }
            out[k] = ids;
        }
    }
}

/// The parry id of the smallest part of `feature` holding `point` (see the module doc).
fn locate(feature: &SupportFeature<f32>, point: &Point<f32>) -> PackedFeatureId {
    let vs = &feature.vertices;
    let ids = &feature.vertex_ids;
    let size = vs.iter().fold(0.0f32, |m, v| m.max(v.coords.amax()));
    let radius = LOCATE_TOLERANCE * size;
    if vs.len() >= 2 {
        if let Some(k) = vs.iter().position(|v| (v - point).norm() <= radius) {
            return PackedFeatureId::vertex(ids[k] & CODE_MASK);
        }
        let edges = if vs.len() == 2 { 1 } else { vs.len() };
        for k in 0..edges {
            let (a, b) = (vs[k], vs[(k + 1) % vs.len()]);
            let ab = b - a;
            let t = ((point - a).dot(&ab) / ab.norm_squared()).clamp(0.0, 1.0);
            if (a + ab * t - point).norm() <= radius {
                return PackedFeatureId::edge(edge_code(ids[k], ids[(k + 1) % vs.len()]));
            }
        }
    }
    match feature.id {
        FeatureId::Face(i) => PackedFeatureId::face(i & CODE_MASK),
        FeatureId::Edge(_) if ids.len() == 2 => PackedFeatureId::edge(edge_code(ids[0], ids[1])),
        FeatureId::Edge(i) => PackedFeatureId::edge(i & CODE_MASK),
        FeatureId::Vertex(i) => PackedFeatureId::vertex(i & CODE_MASK),
    }
}

/// An edge's 30-bit code from its two vertex ids, in either order (see the module doc).
fn edge_code(i: u32, j: u32) -> u32 {
    let (lo, hi) = (i.min(j), i.max(j));
    if hi < 1 << 15 {
        lo << 15 | hi
    } else {
        // splitmix-style mixing of the pair: any 30 bits of it are well spread.
        let mut x = (u64::from(lo) << 32 | u64::from(hi)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        x ^= x >> 31;
        (x as u32) & CODE_MASK
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nphase_math::Vector;
    use nphase_shapes::Cuboid;

    /// The top face of a unit box (face 2, vertices 2, 3, 6, 7 in nphase's numbering).
    fn top_face() -> SupportFeature<f32> {
        let mut f = SupportFeature::default();
        let cube = Shape::Cuboid(Cuboid::new(Vector::new(0.5, 0.5, 0.5)).expect("valid"));
        cube.local_support_feature(&Vector::y(), &mut f);
        f
    }

    /// A corner is its vertex, a point on an edge that edge (the same code from either end),
    /// a point inside the face the face; within the tolerance, not beyond.
    #[test]
    fn points_land_on_the_smallest_feature() {
        let f = top_face();
        let corner = f.vertices[0];
        let next = f.vertices[1];
        assert_eq!(
            locate(&f, &corner),
            PackedFeatureId::vertex(f.vertex_ids[0])
        );
        let nudge = Vector::new(2e-5, 0.0, 2e-5);
        assert!(
            locate(&f, &(corner + nudge)).is_vertex(),
            "within 1e-4 × size"
        );
        let mid = Point::from((corner.coords + next.coords) / 2.0);
        let edge = locate(&f, &mid);
        assert_eq!(
            edge,
            PackedFeatureId::edge(edge_code(f.vertex_ids[1], f.vertex_ids[0]))
        );
        let centre = Point::new(0.1, 0.5, -0.2);
        assert_eq!(locate(&f, &centre), PackedFeatureId::face(2));
    }

    /// Large vertex ids still give valid 30-bit codes (parry asserts on the header bits), the
    /// same for both orders.
    #[test]
    fn edge_codes_fit_parrys_30_bits() {
        for (i, j) in [(0, 1), (5, 32_767), (40_000, 3), (u32::MAX, u32::MAX - 1)] {
            let code = edge_code(i, j);
            assert_eq!(code, edge_code(j, i));
            assert_eq!(code & !CODE_MASK, 0);
        }
        assert_ne!(edge_code(0, 1), edge_code(0, 2));
    }

    /// Two points on the same pair of features get distinct ids (the later one takes nphase's).
    #[test]
    fn duplicates_are_told_apart() {
        let mut features = SupportingFeatures::default();
        let cube = Shape::Cuboid(Cuboid::new(Vector::new(0.5, 0.5, 0.5)).expect("valid"));
        let pos12 = Isometry::translation(0.0, 0.99, 0.0);
        features.find(&cube, &cube, &pos12, &Vector::y_axis());
        let point = |x: f32, id: u32| ContactPoint {
            local_point1: Point::new(x, 0.5, 0.0),
            local_point2: Point::new(x, -0.49, 0.1),
            dist: -0.01,
            id,
            normal_impulse: 0.0,
            persisted: false,
        };
        let points = [point(0.1, 7), point(0.2, 9)];
        let mut ids = [(PackedFeatureId::UNKNOWN, PackedFeatureId::UNKNOWN); 2];
        features.ids(&points, &mut ids);
        assert_eq!(ids[0], (PackedFeatureId::face(2), PackedFeatureId::face(3)));
        assert_eq!(
            ids[1],
            (PackedFeatureId::face(2), PackedFeatureId::vertex(9))
        );
    }
}
