//! parry's per-point feature ids (`fid1`, `fid2`) from nphase's contact ids.
//!
//! parry and rapier tell a contact point from its predecessor by the pair of features that made
//! it (`ContactManifold::match_contacts` carries the solver's warm-start data over by
//! `(fid1, fid2)`). nphase's [`ContactId`] is exactly that pair — the feature of A and the
//! feature of B, stable while they touch, distinct within a manifold — so the mapping is a
//! repacking: a vertex, edge or face of nphase is `PackedFeatureId::vertex`, `edge` or `face`
//! with the same 30-bit index. Both codes have two tag bits above a 30-bit index: nphase's
//! ([`FeatureId::code`]) tags a vertex, edge and face 0, 1 and 2 (3 reads as a face), parry's 1,
//! 2 and 3 — so the repacking is one add to the tag, without a branch (the adapter repacks every
//! point of a standing manifold every frame, to check that parry still holds what it wrote).

use nphase_pipeline::ContactId;
use parry3d_031::shape::PackedFeatureId;

/// The 30 index bits of a feature code (nphase's and parry's alike).
const CODE_MASK: u32 = 0x3fff_ffff;

/// `(fid1, fid2)` of a point with nphase id `id`.
pub(crate) fn parry_feature_ids(id: ContactId) -> (PackedFeatureId, PackedFeatureId) {
    let codes = id.pack();
    (packed((codes >> 32) as u32), packed(codes as u32))
}

/// parry's id of the feature with nphase code `code`: nphase's tag `t` (`3` a face, as
/// [`FeatureId::from_code`](nphase_pipeline::FeatureId::from_code) reads it) becomes
/// `min(t, 2) + 1`.
fn packed(code: u32) -> PackedFeatureId {
    let tag = (code >> 30).min(2) + 1;
    PackedFeatureId((tag << 30) | (code & CODE_MASK))
}

#[cfg(test)]
mod tests {
    use super::*;
    use nphase_pipeline::FeatureId;

    /// Each kind keeps its kind and index; indices beyond 30 bits (which nphase does not make)
    /// still give a valid parry id instead of parry's assertion.
    #[test]
    fn kinds_and_indices_survive() {
        let id = ContactId::new(FeatureId::Face(2), FeatureId::Vertex(5));
        assert_eq!(
            parry_feature_ids(id),
            (PackedFeatureId::face(2), PackedFeatureId::vertex(5))
        );
        let (edge, _) = parry_feature_ids(ContactId::new(FeatureId::Edge(7), FeatureId::Edge(0)));
        assert!(edge.is_edge() && edge.0 & CODE_MASK == 7);
        let (big, _) = parry_feature_ids(ContactId::new(
            FeatureId::Vertex(u32::MAX),
            FeatureId::Face(0),
        ));
        assert!(big.is_vertex());
    }

    /// The add to the tag is parry's constructors on every feature kind, and an id whose code
    /// carries tag 3 (`ContactId::unpack` of any word) reads as a face, as nphase reads it.
    #[test]
    fn repacking_is_parrys_constructors() {
        for index in [0, 1, 5, 0x1234_5678 & CODE_MASK, CODE_MASK] {
            for (feature, parry) in [
                (FeatureId::Vertex(index), PackedFeatureId::vertex(index)),
                (FeatureId::Edge(index), PackedFeatureId::edge(index)),
                (FeatureId::Face(index), PackedFeatureId::face(index)),
            ] {
                let id = ContactId::new(feature, FeatureId::Vertex(index));
                assert_eq!(
                    parry_feature_ids(id),
                    (parry, PackedFeatureId::vertex(index))
                );
            }
        }
        let tag3 = ContactId::unpack(u64::from(u32::MAX) << 32 | u64::from(3u32 << 30 | 9));
        assert_eq!(tag3.a(), FeatureId::Face(CODE_MASK));
        assert_eq!(
            parry_feature_ids(tag3),
            (PackedFeatureId::face(CODE_MASK), PackedFeatureId::face(9))
        );
    }
}
