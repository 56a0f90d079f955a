//! parry's per-point feature ids (`fid1`, `fid2`) from nphase's contact ids.
//!
//! parry and rapier tell a contact point from its predecessor by the pair of features that made
//! it (`ContactManifold::match_contacts` carries the solver's warm-start data over by
//! `(fid1, fid2)`). nphase's [`ContactId`] is exactly that pair — the feature of A and the
//! feature of B, stable while they touch, distinct within a manifold — so the mapping is a
//! repacking: a vertex, edge or face of nphase is `PackedFeatureId::vertex`, `edge` or `face`
//! with the same 30-bit index (parry's code has two tag bits above a 30-bit index, as nphase's
//! [`FeatureId::code`] has).

use nphase_pipeline::{ContactId, FeatureId};
use parry3d_031::shape::PackedFeatureId;

/// The 30 index bits of a parry feature id (parry asserts that the tag bits are clear).
const CODE_MASK: u32 = 0x3fff_ffff;

/// `(fid1, fid2)` of a point with nphase id `id`.
pub(crate) fn parry_feature_ids(id: ContactId) -> (PackedFeatureId, PackedFeatureId) {
    (packed(id.a()), packed(id.b()))
}

fn packed(feature: FeatureId) -> PackedFeatureId {
    match feature {
        FeatureId::Vertex(i) => PackedFeatureId::vertex(i & CODE_MASK),
        FeatureId::Edge(i) => PackedFeatureId::edge(i & CODE_MASK),
        FeatureId::Face(i) => PackedFeatureId::face(i & CODE_MASK),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
