//! The support-function trait every nphase algorithm runs on.

use nphase_math::{Isometry, Point, Real, UnitVector, Vector};

/// A convex shape known through its support function `s(d) = argmax_{x ∈ S} x·d`.
///
/// The four `*support_point*` methods have exactly the names and meanings of parry3d 0.25's
/// `SupportMap` (so code written against parry reads the same), made generic over the scalar:
///
/// * `local_*` methods take and return values in the shape's local frame;
/// * the others take the shape's pose `transform` (local → world) and a world direction, and
///   return a world point;
/// * `*_toward` methods take a direction already of unit length.
///
/// Beyond parry, [`local_support_vertex`](SupportMap::local_support_vertex) returns the index of
/// the vertex it picked (for warm-start caches, GJK's repeated-vertex termination and contact
/// ids) and accepts a hint where the search may start (hill climbing on large hulls).
///
/// # Contract
/// * The direction need not be normalised and may be zero or tiny: the result is then *some*
///   point of the shape, never NaN. (parry3d's ball returns NaN for a zero direction.)
/// * Among several maximisers (a face or edge facing `dir`) any one may be returned, but the
///   choice is deterministic.
pub trait SupportMap<T: Real> {
    /// The point of the shape, in its local frame, that maximises `x·dir`.
    fn local_support_point(&self, dir: &Vector<T>) -> Point<T>;

    /// [`local_support_point`](SupportMap::local_support_point) for a unit direction; shapes
    /// with curved surfaces skip a normalisation here.
    fn local_support_point_toward(&self, dir: &UnitVector<T>) -> Point<T> {
        self.local_support_point(dir.as_ref())
    }

    /// The world-space support point of the shape placed at `transform`, along world `dir`.
    fn support_point(&self, transform: &Isometry<T>, dir: &Vector<T>) -> Point<T> {
        let local_dir = transform.inverse_transform_vector(dir);
        transform * self.local_support_point(&local_dir)
    }

    /// [`support_point`](SupportMap::support_point) for a unit world direction.
    fn support_point_toward(&self, transform: &Isometry<T>, dir: &UnitVector<T>) -> Point<T> {
        let local_dir = UnitVector::new_unchecked(transform.inverse_transform_vector(dir));
        transform * self.local_support_point_toward(&local_dir)
    }

    /// The local support point along `dir` together with its vertex index.
    ///
    /// `hint` is the vertex index returned by a previous call (or [`VertexId::NONE`]); shapes
    /// that search (large convex hulls) start there. The index is the shape's vertex number
    /// for polytopal shapes (cuboid, segment, triangle, convex polyhedron, the cone's apex) and
    /// [`VertexId::NONE`] where the support point lies on a curved part of the surface.
    fn local_support_vertex(&self, dir: &Vector<T>, hint: VertexId) -> SupportVertex<T> {
        let _ = hint;
        SupportVertex {
            point: self.local_support_point(dir),
            id: VertexId::NONE,
        }
    }

    /// The vertex numbered `id` (as returned by
    /// [`local_support_vertex`](SupportMap::local_support_vertex)), local frame; `None` when the
    /// shape has no such vertex. GJK's warm start rebuilds its cached simplex with this.
    fn local_vertex(&self, id: VertexId) -> Option<Point<T>> {
        let _ = id;
        None
    }
}

/// The index of a shape's vertex, as returned by [`SupportMap::local_support_vertex`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VertexId(pub u32);

impl VertexId {
    /// No vertex: the support point lies on a curved surface, or no hint is available.
    pub const NONE: VertexId = VertexId(u32::MAX);

    /// Whether this names an actual vertex.
    pub fn is_some(self) -> bool {
        self != Self::NONE
    }
}

/// A support point with the index of the vertex it is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SupportVertex<T: Real> {
    /// The support point, local frame.
    pub point: Point<T>,
    /// Its vertex index, or [`VertexId::NONE`] on a curved surface.
    pub id: VertexId,
}

impl<T: Real, S: SupportMap<T> + ?Sized> SupportMap<T> for &S {
    fn local_support_point(&self, dir: &Vector<T>) -> Point<T> {
        (**self).local_support_point(dir)
    }
    fn local_support_point_toward(&self, dir: &UnitVector<T>) -> Point<T> {
        (**self).local_support_point_toward(dir)
    }
    fn local_support_vertex(&self, dir: &Vector<T>, hint: VertexId) -> SupportVertex<T> {
        (**self).local_support_vertex(dir, hint)
    }
    fn local_vertex(&self, id: VertexId) -> Option<Point<T>> {
        (**self).local_vertex(id)
    }
}
