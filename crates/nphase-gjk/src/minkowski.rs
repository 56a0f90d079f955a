//! The support function of the Minkowski difference of two shapes, in A's frame.

use nalgebra::Matrix3;
use nphase_math::{Isometry, Point, Real, Vector};
use nphase_shapes::{SupportMap, VertexId};

use crate::SimplexVertex;

/// `D = A − B = {a − b}` for shape A at the origin of its frame and shape B at `pos12`.
///
/// Every GJK and EPA query runs on this: the support of `D` along `d` is
/// `s_A(d) − s_B(−d)`, with B's support computed in B's frame and mapped into A's. The rotation
/// of `pos12` is expanded to a matrix once per query, so each support call costs two
/// matrix-vector products.
#[derive(Clone, Copy, Debug)]
pub struct MinkowskiDifference<'a, A: ?Sized, B: ?Sized, T: Real> {
    /// Shape A, in its own frame.
    pub shape1: &'a A,
    /// Shape B, in its own frame.
    pub shape2: &'a B,
    rotation12: Matrix3<T>,
    translation12: Vector<T>,
}

impl<'a, A, B, T> MinkowskiDifference<'a, A, B, T>
where
    A: SupportMap<T> + ?Sized,
    B: SupportMap<T> + ?Sized,
    T: Real,
{
    /// The difference of `shape1` (at the origin) and `shape2` placed at `pos12` (B's pose in
    /// A's frame).
    pub fn new(shape1: &'a A, shape2: &'a B, pos12: &Isometry<T>) -> Self {
        MinkowskiDifference {
            shape1,
            shape2,
            rotation12: *pos12.rotation.to_rotation_matrix().matrix(),
            translation12: pos12.translation.vector,
        }
    }

    /// The support point of `D` along `dir` (A's frame, any length), with the vertex ids of the
    /// two supports; `hint_a`/`hint_b` are passed to the shapes' searches.
    #[inline]
    pub fn support(&self, dir: &Vector<T>, hint_a: VertexId, hint_b: VertexId) -> SimplexVertex<T> {
        let sa = self.shape1.local_support_vertex(dir, hint_a);
        let dir_b = -self.rotation12.tr_mul(dir);
        let sb = self.shape2.local_support_vertex(&dir_b, hint_b);
        let b = (self.rotation12 * sb.point.coords + self.translation12).into();
        SimplexVertex {
            w: sa.point - b,
            a: sa.point,
            b,
            id_a: sa.id,
            id_b: sb.id,
        }
    }

    /// The point of `D` made of vertex `id_a` of A and vertex `id_b` of B at the current pose, if
    /// both shapes know those vertices.
    pub fn vertex(&self, id_a: VertexId, id_b: VertexId) -> Option<SimplexVertex<T>> {
        let a = self.shape1.local_vertex(id_a)?;
        let b_local = self.shape2.local_vertex(id_b)?;
        let b = (self.rotation12 * b_local.coords + self.translation12).into();
        Some(SimplexVertex {
            w: a - b,
            a,
            b,
            id_a,
            id_b,
        })
    }

    /// The point of `D` made of the point `a` of A (A's frame) and the point `b_local` of B
    /// (B's frame) at the current pose, carrying the given vertex ids. A point of `D` whenever
    /// `a ∈ A` and `b_local ∈ B`, whatever the pose: what keeps a polytope of such pairs
    /// inscribed in `D` as B moves.
    pub fn point(
        &self,
        a: Point<T>,
        b_local: &Point<T>,
        id_a: VertexId,
        id_b: VertexId,
    ) -> SimplexVertex<T> {
        let b = (self.rotation12 * b_local.coords + self.translation12).into();
        SimplexVertex {
            w: a - b,
            a,
            b,
            id_a,
            id_b,
        }
    }
}
