//! The triangle `abc`, a two-sided flat shape.

use nphase_math::{Point, Real, UnitVector, Vector};
use num_traits::Float;

use crate::error::check_vertices;
use crate::feature::unit_or_y;
use crate::{
    FeatureId, FeatureMap, ShapeError, SupportFeature, SupportMap, SupportVertex, VertexId,
};

/// A triangle in the local frame; vertices 0, 1, 2 are `a`, `b`, `c`. Face 0 has the normal
/// `(b − a) × (c − a)` (counter-clockwise `abc`), face 1 the opposite one; edge `k` joins
/// vertices `k` and `k + 1` (mod 3). Collinear or
/// coincident vertices are allowed: the triangle is then a segment or a point, and its
/// [`normal`](Triangle::normal) is some unit vector perpendicular to it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Triangle<T: Real> {
    vertices: [Point<T>; 3],
    normal: UnitVector<T>,
}

impl<T: Real> Triangle<T> {
    /// The triangle `abc` (all finite, within the precision's input range).
    pub fn new(a: Point<T>, b: Point<T>, c: Point<T>) -> Result<Self, ShapeError> {
        check_vertices("triangle", |i| ["a", "b", "c"][i].to_owned(), &[a, b, c])?;
        let edges = [b - a, c - b, a - c];
        let mut longest = edges[0];
        for e in &edges[1..] {
            if e.norm_squared() > longest.norm_squared() {
                longest = *e;
            }
        }
        // Edges scaled to a unit size: the products below would underflow or overflow (and
        // flip or lose the normal) for triangles smaller or larger than ~1e∓150 in f64, ~1e∓19
        // in f32.
        let size = longest.amax();
        let size = if size > T::zero() && Float::is_finite(size) {
            size
        } else {
            T::one()
        };
        let (ab, ac, longest_unit) = (edges[0] / size, (c - a) / size, longest / size);
        // The cross product carries a rounding error of up to ~ε·|ab|·|ac| in any direction. On
        // a sliver (vertices collinear up to rounding) that error is all there is, and the
        // normal could tilt far out of the triangle's plane, even along an edge. Removing its
        // component along the longest edge keeps it perpendicular to that edge, which leaves
        // every vertex within ~ε·size of the face's plane however it turned about the edge.
        let mut cross = ab.cross(&ac);
        let longest_squared = longest_unit.norm_squared();
        if longest_squared > T::zero() {
            cross -= longest_unit * (cross.dot(&longest_unit) / longest_squared);
        }
        // Degenerate: perpendicular to the longest edge (any direction for a point).
        let normal = nphase_math::normalize_robust(&cross)
            .unwrap_or_else(|| nphase_math::any_unit_perpendicular(&longest));
        Ok(Triangle {
            vertices: [a, b, c],
            normal,
        })
    }

    /// Vertex `a`.
    pub fn a(&self) -> Point<T> {
        self.vertices[0]
    }

    /// Vertex `b`.
    pub fn b(&self) -> Point<T> {
        self.vertices[1]
    }

    /// Vertex `c`.
    pub fn c(&self) -> Point<T> {
        self.vertices[2]
    }

    /// The three vertices.
    pub fn vertices(&self) -> &[Point<T>; 3] {
        &self.vertices
    }

    /// The unit normal of face 0 (counter-clockwise `abc`).
    pub fn normal(&self) -> UnitVector<T> {
        self.normal
    }
}

impl<T: Real> SupportMap<T> for Triangle<T> {
    /// The vertex furthest along `dir`; the later vertex on a tie.
    fn local_support_point(&self, dir: &Vector<T>) -> Point<T> {
        self.local_support_vertex(dir, VertexId::NONE).point
    }

    fn local_support_vertex(&self, dir: &Vector<T>, _hint: VertexId) -> SupportVertex<T> {
        let [a, b, c] = self.vertices.map(|v| v.coords.dot(dir));
        let id = if a > b {
            if a > c { 0 } else { 2 }
        } else if b > c {
            1
        } else {
            2
        };
        SupportVertex {
            point: self.vertices[id as usize],
            id: VertexId(id),
        }
    }

    fn local_vertex(&self, id: VertexId) -> Option<Point<T>> {
        self.vertices.get(id.0 as usize).copied()
    }
}

impl<T: Real> FeatureMap<T> for Triangle<T> {
    /// The side (face 0 or face 1) whose normal is closer to `dir`, as a full triangle.
    fn local_support_feature(&self, dir: &Vector<T>, out: &mut SupportFeature<T>) {
        let dir = unit_or_y(dir);
        // Edge k joins vertices k and k + 1 (mod 3); the back face walks the loop backwards.
        if self.normal.dot(&dir) >= T::zero() {
            out.reset(FeatureId::Face(0), self.normal);
            for (i, v) in self.vertices.iter().enumerate() {
                out.push_with_edge(*v, i as u32, i as u32);
            }
        } else {
            out.reset(FeatureId::Face(1), -self.normal);
            for (i, edge) in [(0usize, 2), (2, 1), (1, 0)] {
                out.push_with_edge(self.vertices[i], i as u32, edge);
            }
        }
    }

    /// Vertices, edges and the two faces (one triangle) where they are.
    fn local_feature_distance(&self, id: FeatureId, p: &Point<T>) -> Option<T> {
        let v = &self.vertices;
        match id {
            FeatureId::Vertex(k @ 0..3) => Some((p - v[k as usize]).norm()),
            FeatureId::Edge(k @ 0..3) => {
                let (a, b) = (&v[k as usize], &v[(k as usize + 1) % 3]);
                Some(Float::sqrt(nphase_math::segment_distance2(a, b, p)))
            }
            FeatureId::Face(0..2) => Some(crate::feature::polygon_distance(
                |k| v[k],
                3,
                &self.normal,
                p,
            )),
            _ => None,
        }
    }
}
