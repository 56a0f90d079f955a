//! Contact ids: the pair of features, one of each shape, that made a contact point.

use core::fmt;

use nphase_shapes::FeatureId;

/// The id of a contact point: the feature of shape A and the feature of shape B that made it
/// (a face, edge or vertex of each, numbered as each shape's doc says).
///
/// A point keeps its id while the same two features touch; where features coincide (a corner on
/// an edge, aligned edges) the manifold's rule names the lowest-dimensional features within a
/// small tolerance (see [`build_manifold`](crate::build_manifold)). Ids are what an engine
/// matches points by from one frame to the next. It is stored packed, 8 bytes
/// ([`ContactId::pack`]: A's [`FeatureId::code`] in the high half, B's in the low half), and
/// read with [`ContactId::a`] and [`ContactId::b`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ContactId(u64);

impl ContactId {
    /// The id of the point where feature `a` of A meets feature `b` of B.
    pub fn new(a: FeatureId, b: FeatureId) -> Self {
        ContactId(u64::from(a.code()) << 32 | u64::from(b.code()))
    }

    /// The feature of shape A.
    pub fn a(self) -> FeatureId {
        FeatureId::from_code((self.0 >> 32) as u32)
    }

    /// The feature of shape B.
    pub fn b(self) -> FeatureId {
        FeatureId::from_code(self.0 as u32)
    }

    /// A's code in the high 32 bits, B's in the low 32 bits.
    pub fn pack(self) -> u64 {
        self.0
    }

    /// The id [`ContactId::pack`] made.
    pub fn unpack(packed: u64) -> Self {
        ContactId(packed)
    }

    /// The same contact seen from the other shape (A and B swapped).
    pub fn flipped(self) -> Self {
        ContactId::new(self.b(), self.a())
    }
}

impl Default for ContactId {
    /// Vertex 0 of both shapes: the id of a point whose shapes are points (ball on ball).
    fn default() -> Self {
        ContactId::new(FeatureId::Vertex(0), FeatureId::Vertex(0))
    }
}

impl fmt::Display for ContactId {
    /// `A face 2 · B vertex 5`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "A {} · B {}", self.a(), self.b())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_pack_and_unpack_losslessly() {
        let ids = [
            ContactId::new(FeatureId::Face(2), FeatureId::Vertex(5)),
            ContactId::new(FeatureId::Edge(0x3fff_ffff), FeatureId::Edge(7)),
            ContactId::new(FeatureId::Vertex(0), FeatureId::Face(0)),
        ];
        for id in ids {
            assert_eq!(ContactId::unpack(id.pack()), id);
            assert_eq!(id.flipped().flipped(), id);
        }
        assert_eq!(ids[0].to_string(), "A face 2 · B vertex 5");
        // Distinct features give distinct codes (the tag separates equal indices).
        let v = ContactId::new(FeatureId::Vertex(3), FeatureId::Vertex(3));
        let e = ContactId::new(FeatureId::Edge(3), FeatureId::Vertex(3));
        assert_ne!(v.pack(), e.pack());
    }
}
