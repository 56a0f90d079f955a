//! The warm-start cache a pair keeps from one query to the next.

use nphase_math::{Real, Vector};
use nphase_shapes::{SupportMap, VertexId};

use crate::{MinkowskiDifference, Simplex};

/// What GJK remembers of a pair between frames (Box2D's `b2SimplexCache`, plus the axis).
///
/// A small `Copy` value stored inline in the pair's record (32 bytes in either precision):
/// the vertex-index pairs of the last simplex, as `u16`, and the direction of the last
/// separating axis, as a unit vector in `f32`. The next query rebuilds the simplex from the
/// indices *at the current poses* (so a stale cache only costs iterations, never accuracy);
/// when a shape has no vertex indices (curved surfaces) the cached axis seeds the first support
/// direction instead — a seed, for which `f32` is plenty in either precision. A simplex with a
/// vertex index beyond `u16` (hulls of more than 65 535 vertices) is not cached. Start a new
/// pair with [`SimplexCache::EMPTY`].
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(bound = "")
)]
pub struct SimplexCache<T: Real> {
    count: u8,
    ids_a: [u16; 4],
    ids_b: [u16; 4],
    /// The last search axis, A's frame (the direction of `a − b` at the closest points, or
    /// `−normal` of a penetration, see [`SimplexCache::store_axis`]), normalised, or zero when
    /// unknown.
    axis: [f32; 3],
    precision: core::marker::PhantomData<T>,
}

const _: () = assert!(size_of::<SimplexCache<f64>>() <= 32);
const _: () = assert!(size_of::<SimplexCache<f32>>() <= 32);

/// `VertexId::NONE` in a cache slot.
const NO_ID: u16 = u16::MAX;

impl<T: Real> SimplexCache<T> {
    /// A cache that knows nothing: the query starts cold.
    pub const EMPTY: SimplexCache<T> = SimplexCache {
        count: 0,
        ids_a: [NO_ID; 4],
        ids_b: [NO_ID; 4],
        axis: [0.0; 3],
        precision: core::marker::PhantomData,
    };

    /// The direction of the last search axis (unit, A's frame), or zero when unknown.
    pub fn axis(&self) -> Vector<T> {
        Vector::new(
            T::lit(f64::from(self.axis[0])),
            T::lit(f64::from(self.axis[1])),
            T::lit(f64::from(self.axis[2])),
        )
    }

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
        let id = |x: u16| VertexId(u32::from(x));
        self.ids_a[..self.len()]
            .iter()
            .zip(&self.ids_b[..self.len()])
            .map(move |(&a, &b)| (id(a), id(b)))
    }

    /// Replaces the cached axis by the direction of `axis` (the direction of `a − b`; zero
    /// forgets it), keeping the vertex pairs. A pipeline that ends a query with a penetration
    /// stores `−normal` here: GJK's own axis of an overlap is a rounding residue, and the next
    /// query on cores without vertex ids then starts its search along last frame's normal.
    pub fn store_axis(&mut self, axis: &Vector<T>) {
        self.axis = nphase_math::normalize_robust(axis)
            .map_or([0.0; 3], |u| [u.x, u.y, u.z].map(|c| c.as_f64() as f32));
    }

    /// Remembers `simplex`'s vertex pairs (only if every vertex has both ids, each below
    /// `u16::MAX`) and the direction of `axis`.
    pub(crate) fn store(&mut self, simplex: &Simplex<T>, axis: Vector<T>) {
        self.store_axis(&axis);
        self.count = 0;
        let small = |id: VertexId| id.is_some() && id.0 < u32::from(NO_ID);
        if simplex
            .vertices()
            .iter()
            .all(|v| small(v.id_a) && small(v.id_b))
        {
            for (i, v) in simplex.vertices().iter().enumerate() {
                self.ids_a[i] = v.id_a.0 as u16;
                self.ids_b[i] = v.id_b.0 as u16;
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
            (
                VertexId(u32::from(self.ids_a[0])),
                VertexId(u32::from(self.ids_b[0])),
            )
        }
    }
}
