//! The dispatcher's cache of converted convex hulls: one nphase hull per parry hull, shared by
//! all the pairs (and threads) that meet it.
//!
//! Converting a parry `ConvexPolyhedron` re-hulls its vertices (microseconds to milliseconds);
//! a support query on it is nanoseconds. So the conversion is done once per distinct hull and
//! kept behind an `Arc`, which each pair's workspace holds on to.
//!
//! # Key
//! An entry is keyed by the hull's vertex count and a 64-bit hash of its vertices' bits, not
//! by its address: an address is reused once a collider is dropped, and the hull allocated
//! there next would silently get the old one's conversion. Hashing costs one pass over the
//! vertices, about what one support query on the parry hull costs, and is paid once per pair
//! (the pair workspace then keeps the `Arc`) and once per one-shot query. Two different hulls
//! share an entry only on a 64-bit hash collision with the same vertex count. Identical hulls
//! (rapier colliders cloned from one `SharedShape`) share a conversion.
//!
//! # Size
//! Entries no pair holds any more (`Arc::strong_count == 1`) are swept out whenever the cache
//! has doubled since the last sweep, so it stays within twice the hulls in use (and at least
//! [`SWEEP_MIN`] entries).

use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::{Arc, Mutex};

use nphase_shapes::ConvexPolyhedron;
use parry3d_031::shape as ps;

use crate::shape_conversion::{ConvertedHull, hull_points};

/// The cache is not swept below this many entries.
const SWEEP_MIN: usize = 64;

/// See the module doc.
#[derive(Debug, Default)]
pub(crate) struct HullCache {
    inner: Mutex<Entries>,
}

#[derive(Debug, Default)]
struct Entries {
    /// Converted hulls and refusals (kept too, so a refused hull is not re-hulled at every
    /// query).
    map: HashMap<(usize, u64), ConvertedHull>,
    /// Entry count after the last sweep.
    swept_at: usize,
}

impl HullCache {
    /// The nphase hull of `hull`, converted on first use.
    pub(crate) fn get(&self, hull: &ps::ConvexPolyhedron) -> ConvertedHull {
        let key = (hull.points().len(), content_hash(hull));
        if let Some(found) = self.lock().map.get(&key) {
            return found.clone();
        }
        // Built outside the lock, so other threads' lookups do not wait for a hull; two threads
        // meeting the same new hull both build it, and the first insertion is kept.
        let built = ConvexPolyhedron::from_points(&hull_points(hull)).map(Arc::new);
        let mut entries = self.lock();
        let converted = entries.map.entry(key).or_insert(built).clone();
        if entries.map.len() > (2 * entries.swept_at).max(SWEEP_MIN) {
            entries
                .map
                .retain(|_, c| c.as_ref().is_ok_and(|arc| Arc::strong_count(arc) > 1));
            entries.swept_at = entries.map.len();
        }
        converted
    }

    /// Entries held (converted hulls and refusals).
    pub(crate) fn len(&self) -> usize {
        self.lock().map.len()
    }

    /// A poisoned lock only means another thread panicked while holding it; the map is still
    /// consistent (every mutation is a single insertion or `retain`).
    fn lock(&self) -> std::sync::MutexGuard<'_, Entries> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// A hash of the hull's vertex coordinates (their bits, in order).
fn content_hash(hull: &ps::ConvexPolyhedron) -> u64 {
    let mut hasher = DefaultHasher::new();
    for p in hull.points() {
        p.to_array().map(f32::to_bits).hash(&mut hasher);
    }
    hasher.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use parry3d_031::math::Vector;

    fn tetrahedron(scale: f32) -> ps::ConvexPolyhedron {
        let points = [Vector::ZERO, Vector::X, Vector::Y, Vector::Z].map(|p| p * scale);
        ps::ConvexPolyhedron::from_convex_hull(&points).expect("a tetrahedron")
    }

    /// Equal hulls share one conversion; a different hull gets its own; a hull no pair holds
    /// is swept once the cache has doubled.
    #[test]
    fn one_conversion_per_distinct_hull() {
        let cache = HullCache::default();
        let a = cache.get(&tetrahedron(1.0)).expect("valid");
        let again = cache.get(&tetrahedron(1.0)).expect("valid");
        assert!(Arc::ptr_eq(&a, &again));
        let b = cache.get(&tetrahedron(2.0)).expect("valid");
        assert!(!Arc::ptr_eq(&a, &b));
        assert_eq!(cache.len(), 2);
        drop(b);
        // Fill past the sweep threshold with hulls nobody holds: only `a` survives the sweep
        // (and whatever was inserted after it).
        for k in 0..SWEEP_MIN {
            cache.get(&tetrahedron(3.0 + k as f32)).expect("valid");
        }
        assert!(cache.len() < SWEEP_MIN / 2, "{} entries", cache.len());
        let still = cache.get(&tetrahedron(1.0)).expect("valid");
        assert!(Arc::ptr_eq(&a, &still), "a held hull is never swept");
    }
}
