//! GJK's simplex: up to four points of the Minkowski difference with the support points on
//! each shape that produced them.

use nphase_math::{Point, Real, SimplexProjection, Vector};
use nphase_shapes::VertexId;

/// A point of the Minkowski difference `D = A − B` (A's frame) with its witness pair.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SimplexVertex<T: Real> {
    /// `a − b`, a point of `D`.
    pub w: Vector<T>,
    /// The support point on core A (A's frame).
    pub a: Point<T>,
    /// The support point on core B (A's frame).
    pub b: Point<T>,
    /// The vertex index of `a` on A ([`VertexId::NONE`] on a curved surface).
    pub id_a: VertexId,
    /// The vertex index of `b` on B.
    pub id_b: VertexId,
}

impl<T: Real> SimplexVertex<T> {
    fn origin() -> Self {
        SimplexVertex {
            w: Vector::zeros(),
            a: Point::origin(),
            b: Point::origin(),
            id_a: VertexId::NONE,
            id_b: VertexId::NONE,
        }
    }

    /// Whether both ids are known and equal to `other`'s: the same vertex pair.
    pub fn same_vertex_pair(&self, other: &Self) -> bool {
        self.id_a.is_some()
            && self.id_b.is_some()
            && self.id_a == other.id_a
            && self.id_b == other.id_b
    }
}

/// Up to four [`SimplexVertex`]es; the simplex GJK maintains, and hands to EPA when the cores
/// overlap.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Simplex<T: Real> {
    vertices: [SimplexVertex<T>; 4],
    /// The direction each vertex was found along as a support point of `D` (A's frame), or
    /// zero where it is not known (a vertex pushed by [`Simplex::push`]): what
    /// [`SimplexCache`](crate::SimplexCache) keeps of vertices without ids (curved surfaces),
    /// to find them again at the next pose.
    directions: [Vector<T>; 4],
    len: usize,
}

// What EPA starts from and the pipeline keeps per query, pinned: four vertices (`w`, two
// support points, two ids: 80 bytes in f64, 44 in f32), their search directions and the length.
const _: () = assert!(size_of::<Simplex<f64>>() <= 424);
const _: () = assert!(size_of::<Simplex<f32>>() <= 232);

impl<T: Real> Default for Simplex<T> {
    fn default() -> Self {
        Simplex {
            vertices: [SimplexVertex::origin(); 4],
            directions: [Vector::zeros(); 4],
            len: 0,
        }
    }
}

impl<T: Real> Simplex<T> {
    /// The vertices.
    pub fn vertices(&self) -> &[SimplexVertex<T>] {
        &self.vertices[..self.len]
    }

    /// The number of vertices (0 to 4).
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the simplex has no vertex.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Appends a vertex. Precondition: fewer than four vertices.
    pub fn push(&mut self, vertex: SimplexVertex<T>) {
        self.push_found(vertex, Vector::zeros());
    }

    /// Appends a vertex found as the support point of `D` along `direction` (A's frame).
    /// Precondition: fewer than four vertices.
    pub fn push_found(&mut self, vertex: SimplexVertex<T>, direction: Vector<T>) {
        debug_assert!(self.len < 4, "a simplex has at most four vertices");
        self.vertices[self.len] = vertex;
        self.directions[self.len] = direction;
        self.len += 1;
    }

    /// The directions the vertices were found along ([`Simplex::push_found`]; zero where not
    /// known), in the vertices' order.
    pub fn directions(&self) -> &[Vector<T>] {
        &self.directions[..self.len]
    }

    /// Whether `vertex`'s id pair is already in the simplex.
    pub fn contains_pair(&self, vertex: &SimplexVertex<T>) -> bool {
        self.vertices().iter().any(|v| v.same_vertex_pair(vertex))
    }

    /// The points `w` as an array slice for the signed-volume projection.
    pub(crate) fn points(&self) -> ([Vector<T>; 4], usize) {
        (self.vertices.map(|v| v.w), self.len)
    }

    /// The closest point of the simplex to the origin; the simplex is reduced to its support set
    /// and the barycentric weights of the kept vertices are returned in order.
    pub(crate) fn project_and_reduce(&mut self) -> (Vector<T>, [T; 4]) {
        let (points, len) = self.points();
        let projection = nphase_math::closest_point_to_origin(&points[..len]);
        (projection.point, self.reduce(&projection))
    }

    /// The closest point to the origin of the simplex with `w` added (which must fit), leaving
    /// the simplex as it is: GJK commits the new vertex with [`Simplex::push_and_reduce`] only
    /// when it makes progress, so a rejected one costs no copy of the simplex.
    pub(crate) fn project_with(&self, w: &Vector<T>) -> SimplexProjection<T> {
        debug_assert!(self.len < 4, "a simplex has at most four vertices");
        let (mut points, len) = self.points();
        points[len] = *w;
        nphase_math::closest_point_to_origin(&points[..=len])
    }

    /// Adds `vertex` and reduces the simplex to the support set of `projection`, which
    /// [`Simplex::project_with`] computed for that vertex; returns the kept vertices' weights.
    pub(crate) fn push_and_reduce(
        &mut self,
        (vertex, direction): (SimplexVertex<T>, Vector<T>),
        projection: &SimplexProjection<T>,
    ) -> [T; 4] {
        self.push_found(vertex, direction);
        self.reduce(projection)
    }

    /// Keeps the vertices in `projection`'s support set, in order; returns their weights.
    fn reduce(&mut self, projection: &SimplexProjection<T>) -> [T; 4] {
        let mut weights = [T::zero(); 4];
        let mut kept = 0;
        for i in 0..self.len {
            if projection.contains(i) {
                if kept != i {
                    self.vertices[kept] = self.vertices[i];
                    self.directions[kept] = self.directions[i];
                }
                weights[kept] = projection.weights[i];
                kept += 1;
            }
        }
        self.len = kept;
        weights
    }

    /// The witness points `(Σ λ_i a_i, Σ λ_i b_i)` for barycentric weights `weights`.
    pub(crate) fn witnesses(&self, weights: &[T; 4]) -> (Point<T>, Point<T>) {
        let mut a = Vector::zeros();
        let mut b = Vector::zeros();
        for (v, &l) in self.vertices().iter().zip(weights) {
            a += v.a.coords * l;
            b += v.b.coords * l;
        }
        (Point::from(a), Point::from(b))
    }
}
