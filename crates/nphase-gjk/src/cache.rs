//! The warm-start cache a pair keeps from one query to the next.

use nphase_math::{Real, Vector};
use nphase_shapes::{SupportMap, VertexId};

use crate::{MinkowskiDifference, Simplex};

/// What GJK remembers of a pair between frames (Box2D's `b2SimplexCache`, plus the axis).
///
/// A small `Copy` value stored inline in the pair's record: the vertex-index pairs of the last
/// simplex and the last separating axis. The next query rebuilds the simplex from the indices
/// *at the current poses* (so a stale cache only costs iterations, never accuracy); when a shape
/// has no vertex indices (curved surfaces) the cached axis seeds the first support direction
/// instead. Start a new pair with [`SimplexCache::EMPTY`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SimplexCache<T: Real> {
    count: u8,
    ids_a: [VertexId; 4],
    ids_b: [VertexId; 4],
    /// The last search axis, A's frame (the direction of `a − b` at the closest points), or
    /// zero when unknown.
    pub axis: Vector<T>,
}

impl<T: Real> SimplexCache<T> {
    /// A cache that knows nothing: the query starts cold.
    pub const EMPTY: SimplexCache<T> = SimplexCache {
        count: 0,
        ids_a: [VertexId::NONE; 4],
        ids_b: [VertexId::NONE; 4],
        axis: Vector::new(T::ZERO, T::ZERO, T::ZERO),
    };

    /// The number of cached vertex pairs.
    pub fn len(&self) -> usize {
        usize::from(self.count)
    }

    /// Whether no vertex pair is cached.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The cached vertex-index pairs.
    pub fn vertex_pairs(&self) -> impl Iterator<Item = (VertexId, VertexId)> + '_ {
        self.ids_a[..self.len()]
            .iter()
            .copied()
            .zip(self.ids_b[..self.len()].iter().copied())
    }

    /// Remembers `simplex`'s vertex pairs (only if every vertex has both ids) and `axis`.
    pub(crate) fn store(&mut self, simplex: &Simplex<T>, axis: Vector<T>) {
        self.axis = axis;
        self.count = 0;
        if simplex
            .vertices()
            .iter()
            .all(|v| v.id_a.is_some() && v.id_b.is_some())
        {
            for (i, v) in simplex.vertices().iter().enumerate() {
                self.ids_a[i] = v.id_a;
                self.ids_b[i] = v.id_b;
            }
            self.count = simplex.len() as u8;
        }
    }

    /// Rebuilds the cached simplex at the current poses; `None` if nothing is cached or a
    /// vertex no longer exists.
    pub(crate) fn rebuild<A, B>(&self, md: &MinkowskiDifference<'_, A, B, T>) -> Option<Simplex<T>>
    where
        A: SupportMap<T> + ?Sized,
        B: SupportMap<T> + ?Sized,
    {
        if self.is_empty() {
            return None;
        }
        let mut simplex = Simplex::default();
        for (id_a, id_b) in self.vertex_pairs() {
            simplex.push(md.vertex(id_a, id_b)?);
        }
        Some(simplex)
    }

    /// Hints for the next support queries: the ids of the first cached vertex pair.
    pub(crate) fn hints(&self) -> (VertexId, VertexId) {
        if self.is_empty() {
            (VertexId::NONE, VertexId::NONE)
        } else {
            (self.ids_a[0], self.ids_b[0])
        }
    }
}
