//! The warm-start cache a pair keeps from one query to the next.

use nphase_math::{Real, Vector};
use nphase_shapes::{SupportMap, VertexId};

use crate::{MinkowskiDifference, Simplex};

/// What GJK remembers of a pair between frames (Box2D's `b2SimplexCache`, plus the axis).
///
/// A small `Copy` value stored inline in the pair's record (32 bytes in either precision):
/// the vertex-index pairs of the last simplex, as `u16`, and the direction of the last
/// separating axis, as a unit vector in `f32`. The next query rebuilds the simplex from the
/// indices *at the current poses* (so a stale cache only costs iterations, never accuracy).
/// A simplex with a vertex that has no index (a point of a curved surface: a cylinder's rim or
/// side, a cone's) is kept instead as the directions its vertices were found along, each in
/// two `u16` (octahedral: within 1e-4 rad), and rebuilt as the support points of the
/// Minkowski difference along them at the current poses — points of it whatever the pose, so
/// again only a start: near last frame's simplex when the pair moved little, where the cached
/// axis alone (the seed when nothing else is kept) leaves GJK to find the rest of the simplex
/// on a curved surface again, iteration by iteration. A simplex with a vertex index beyond
/// `u16` (hulls of more than 65 535 vertices) keeps its directions too. Start a new pair with
/// [`SimplexCache::EMPTY`].
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(bound = "")
)]
pub struct SimplexCache<T: Real> {
    count: u8,
    /// Whether `ids_a[i]` and `ids_b[i]` hold the two halves of the octahedral code of the
    /// direction vertex `i` was found along, rather than its vertex-index pair. (A state
    /// serialized before the directions existed reads as index pairs, as it was.)
    #[cfg_attr(feature = "serde", serde(default))]
    found_along: bool,
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
        found_along: false,
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

    /// The number of cached simplex vertices (as vertex pairs or as directions).
    pub fn len(&self) -> usize {
        usize::from(self.count)
    }

    /// Whether no simplex vertex is cached.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The cached vertex-index pairs; none where the simplex is kept as directions.
    pub fn vertex_pairs(&self) -> impl Iterator<Item = (VertexId, VertexId)> + '_ {
        let id = |x: u16| VertexId(u32::from(x));
        let len = if self.found_along { 0 } else { self.len() };
        self.ids_a[..len]
            .iter()
            .zip(&self.ids_b[..len])
            .map(move |(&a, &b)| (id(a), id(b)))
    }

    /// The directions the cached simplex's vertices were found along (A's frame, not
    /// normalised); none where it is kept as vertex pairs.
    pub fn directions(&self) -> impl Iterator<Item = Vector<T>> + '_ {
        let len = if self.found_along { self.len() } else { 0 };
        self.ids_a[..len]
            .iter()
            .zip(&self.ids_b[..len])
            .map(|(&u, &v)| octahedral::decode([u, v]))
    }

    /// Whether the cached simplex is kept as the directions its vertices were found along
    /// (a simplex with a vertex of a curved surface), not as vertex pairs.
    pub(crate) fn found_along(&self) -> bool {
        self.found_along && self.count > 0
    }

    /// Forgets the cached simplex, keeping the axis: the next query starts from the axis alone.
    pub(crate) fn forget_simplex(&mut self) {
        self.count = 0;
        self.found_along = false;
    }

    /// Replaces the cached axis by the direction of `axis` (the direction of `a − b`; zero
    /// forgets it), keeping the vertex pairs. A pipeline that ends a query with a penetration
    /// stores `−normal` here: GJK's own axis of an overlap is a rounding residue, and the next
    /// query on cores without vertex ids then starts its search along last frame's normal.
    pub fn store_axis(&mut self, axis: &Vector<T>) {
        self.axis = nphase_math::normalize_robust(axis)
            .map_or([0.0; 3], |u| [u.x, u.y, u.z].map(|c| c.as_f64() as f32));
    }

    /// Remembers `simplex` — its vertex pairs if every vertex has both ids, each below
    /// `u16::MAX`, else the directions its vertices were found along if all are known and
    /// finite — and the direction of `axis`.
    pub(crate) fn store(&mut self, simplex: &Simplex<T>, axis: Vector<T>) {
        self.store_axis(&axis);
        self.count = 0;
        self.found_along = false;
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
            return;
        }
        let codes = simplex.directions().iter().map(octahedral::encode);
        for (i, code) in codes.enumerate() {
            let Some([u, v]) = code else {
                return;
            };
            self.ids_a[i] = u;
            self.ids_b[i] = v;
        }
        self.found_along = true;
        self.count = simplex.len() as u8;
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
        if self.found_along {
            for direction in self.directions() {
                let found = md.support(&direction, VertexId::NONE, VertexId::NONE);
                simplex.push_found(found, direction);
            }
            return Some(simplex);
        }
        for (id_a, id_b) in self.vertex_pairs() {
            simplex.push(md.vertex(id_a, id_b)?);
        }
        Some(simplex)
    }

    /// Hints for the next support queries: the ids of the first cached vertex pair.
    pub(crate) fn hints(&self) -> (VertexId, VertexId) {
        if self.is_empty() || self.found_along {
            (VertexId::NONE, VertexId::NONE)
        } else {
            (
                VertexId(u32::from(self.ids_a[0])),
                VertexId(u32::from(self.ids_b[0])),
            )
        }
    }
}

/// Unit directions in two `u16` (the octahedral map: the direction scaled to `|x| + |y| + |z|
/// = 1`, its lower half folded over the upper one, `x` and `y` quantised over `[−1, 1]`), the
/// form [`SimplexCache`] keeps a curved simplex's search directions in. A decoded direction is
/// within 1e-4 rad of the encoded one (a quantisation step is 3e-5 of the folded square), and
/// not normalised (a support direction need not be).
mod octahedral {
    use nphase_math::{Real, Vector};

    const STEPS: f64 = u16::MAX as f64;

    /// The code of `direction`; `None` for a zero or non-finite one.
    pub(super) fn encode<T: Real>(direction: &Vector<T>) -> Option<[u16; 2]> {
        let [x, y, z] = [direction.x, direction.y, direction.z].map(|c| c.as_f64());
        let l1 = x.abs() + y.abs() + z.abs();
        if !(l1 > 0.0 && l1.is_finite()) {
            return None;
        }
        let (x, y, z) = (x / l1, y / l1, z / l1);
        let (x, y) = if z < 0.0 { fold(x, y) } else { (x, y) };
        let quantise = |c: f64| ((c.clamp(-1.0, 1.0) + 1.0) * 0.5 * STEPS).round() as u16;
        Some([quantise(x), quantise(y)])
    }

    /// The map between the lower half's `(x, y)` and their place in the folded square (its own
    /// inverse).
    fn fold(x: f64, y: f64) -> (f64, f64) {
        ((1.0 - y.abs()).copysign(x), (1.0 - x.abs()).copysign(y))
    }

    /// The direction of `code`.
    pub(super) fn decode<T: Real>([u, v]: [u16; 2]) -> Vector<T> {
        let (x, y) = (
            f64::from(u) / STEPS * 2.0 - 1.0,
            f64::from(v) / STEPS * 2.0 - 1.0,
        );
        let z = 1.0 - x.abs() - y.abs();
        let (x, y) = if z < 0.0 { fold(x, y) } else { (x, y) };
        Vector::new(T::lit(x), T::lit(y), T::lit(z))
    }

    #[cfg(test)]
    mod tests {
        use super::*;
        use rand::{Rng, SeedableRng};

        /// Random directions (and the axes, where the fold meets itself) come back within
        /// 1e-4 rad; a zero or NaN direction has no code.
        #[test]
        fn directions_come_back_within_the_quantisation() {
            let mut rng = rand_pcg::Pcg64::seed_from_u64(7);
            let axes = (0..6).map(|k| {
                let mut v = Vector::<f64>::zeros();
                v[k / 2] = if k % 2 == 0 { 1.0 } else { -1.0 };
                v
            });
            let random =
                (0..10_000).map(|_| Vector::<f64>::from_fn(|_, _| rng.random_range(-1.0..1.0)));
            for d in axes.chain(random).collect::<Vec<_>>() {
                let code = encode(&d).expect("a finite non-zero direction");
                let back: Vector<f64> = decode(code);
                let angle = back.normalize().dot(&d.normalize()).clamp(-1.0, 1.0).acos();
                assert!(angle < 1e-4, "{d:?} came back {back:?}: {angle} rad");
            }
            assert_eq!(encode(&Vector::<f32>::zeros()), None);
            assert_eq!(encode(&Vector::new(f32::NAN, 0.0, 1.0)), None);
        }
    }
}
