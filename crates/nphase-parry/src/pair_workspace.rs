//! What an nphase pair keeps across frames inside parry's per-pair workspace.
//!
//! parry hands a contact-manifold query a `&mut Option<ContactManifoldsWorkspace>` that lives
//! as long as the pair (rapier keeps one per contact pair, and drops it when a collider's shape
//! changes). parry's convex pairs leave it empty; nphase stores [`NphasePair`] there: the two
//! converted shapes (each with the [`SourceKey`] it was made from, so hulls are converted once,
//! and a round shape's `Arc` is not rebuilt every frame) and nphase's `PairState` and
//! last manifold (what `update_manifold` starts from), and which way round nphase takes the
//! pair ([`NphasePair::swapped`]).
//!
//! This is one small heap allocation per pair, made when the pair first reaches the
//! narrowphase; parry's workspace type (`Box<dyn WorkspaceData>`) leaves no other choice.

use nphase_pipeline::{ContactManifold, PairState, computes_other_way_round};
use nphase_shapes::Shape;
use parry3d_031::query::{ContactManifoldsWorkspace, TypedWorkspaceData, WorkspaceData};
use parry3d_031::shape as ps;

use crate::hull_cache::HullCache;
use crate::shape_conversion::{ConversionError, SourceKey, convert_with};

/// An nphase pair's state in parry's workspace (see the module doc).
#[derive(Clone, Debug)]
pub(crate) struct NphasePair {
    shapes: [Option<Resolved>; 2],
    /// nphase's per-pair state (GJK's warm start, the manifold's history, the last full
    /// computation for certified reuse), valid for the shapes in `shapes`.
    state: PairState<f32>,
    /// nphase's manifold of last frame, which `update_manifold` starts from (and returns as it
    /// is when its reuse is certified).
    manifold: ContactManifold<f32>,
    /// Whether nphase takes the pair the other way round — parry's second shape as its A —
    /// because that shape reaches more than [`SWAP_REACH`](nphase_pipeline::SWAP_REACH) × as
    /// far from its origin as the first ([`computes_other_way_round`], as nphase's
    /// `NarrowPhase` decides): decided from the two shapes when they are converted, so for
    /// the pair's life
    /// (nphase's contract: the same shapes in the same order). nphase's certified reuse bounds
    /// how far B's points move in A's frame, and a turn of a small A swings a large B's far
    /// points through `θ ρ_B` there: a box resting on a 40-wide floor given as B moves the
    /// floor's corners by more than the allowance at every step, so its contact never stands
    /// and is computed again at every step; taken with the floor as A, the box's own reach
    /// bounds it, as when rapier hands the floor first (docs/performance.md, stop 56). `state`
    /// and `manifold` are nphase's, in its order; the adapter writes parry's manifold in
    /// parry's.
    swapped: bool,
}

// The heap block each pair adds is two of these (a 56-byte shape and its 44-byte key),
// nphase's PairState and ContactManifold (sized by nphase-pipeline). Pinned so that the
// adapter's part does not grow unnoticed.
const _: () = assert!(size_of::<Option<Resolved>>() <= 112);

/// A converted shape (or nphase's refusal) and what it was converted from.
#[derive(Clone, Debug)]
struct Resolved {
    key: SourceKey,
    shape: Result<Shape<f32>, ConversionError>,
}

impl Default for NphasePair {
    fn default() -> Self {
        NphasePair {
            shapes: [None, None],
            state: PairState::new(),
            manifold: ContactManifold::default(),
            swapped: false,
        }
    }
}

impl WorkspaceData for NphasePair {
    fn as_typed_workspace_data(&self) -> TypedWorkspaceData<'_> {
        TypedWorkspaceData::Custom
    }

    fn clone_dyn(&self) -> Box<dyn WorkspaceData> {
        Box::new(self.clone())
    }
}

impl NphasePair {
    /// The pair's state in `workspace`, created (or replacing another query's workspace) on
    /// first use. (`None` cannot happen: the workspace is an `NphasePair` by then; the caller
    /// hands the pair to parry if it did.)
    pub(crate) fn in_workspace(
        workspace: &mut Option<ContactManifoldsWorkspace>,
    ) -> Option<&mut Self> {
        if !workspace.as_ref().is_some_and(|w| w.0.is::<NphasePair>()) {
            *workspace = Some(ContactManifoldsWorkspace(Box::new(NphasePair::default())));
        }
        workspace.as_mut()?.0.downcast_mut::<NphasePair>()
    }

    /// The two shapes as nphase shapes, with the pair's state, for parry shapes whose
    /// [`SourceKey`]s are `keys`: converted when the pair first meets them or when a parry
    /// shape changed; a change also resets the pair's state, whose warm-start vertex ids name
    /// the old shape's vertices. `Err` names a shape nphase refused.
    pub(crate) fn resolve(
        &mut self,
        keys: [SourceKey; 2],
        shapes: [&dyn ps::Shape; 2],
        hulls: &HullCache,
    ) -> Result<Ready<'_>, &ConversionError> {
        let current =
            |slot: &Option<Resolved>, key: &SourceKey| slot.as_ref().is_some_and(|r| r.key == *key);
        // Most frames: both shapes as last frame.
        if !(current(&self.shapes[0], &keys[0]) && current(&self.shapes[1], &keys[1])) {
            self.convert(keys, shapes, hulls);
        }
        match &self.shapes {
            [Some(a), Some(b)] => Ok(Ready {
                shape1: a.shape.as_ref()?,
                shape2: b.shape.as_ref()?,
                state: &mut self.state,
                manifold: &mut self.manifold,
                swapped: self.swapped,
            }),
            // `convert` filled both slots.
            _ => Err(&UNRESOLVED),
        }
    }

    /// Converts the shapes whose keys changed (or that the pair has not met), and starts the
    /// pair's state and manifold again: its warm-start vertex ids name the old shapes'
    /// vertices; and decides which way round nphase takes the pair ([`Self::swapped`]). Out of
    /// line: a pair's first frame, or a shape edited in place.
    #[cold]
    #[inline(never)]
    fn convert(&mut self, keys: [SourceKey; 2], shapes: [&dyn ps::Shape; 2], hulls: &HullCache) {
        for ((slot, key), shape) in self.shapes.iter_mut().zip(keys).zip(shapes) {
            if slot.as_ref().is_none_or(|r| r.key != key) {
                *slot = Some(Resolved {
                    key,
                    shape: convert_with(shape, &mut |h| hulls.get(h)),
                });
            }
        }
        self.state = PairState::new();
        self.manifold = ContactManifold::default();
        self.swapped = match &self.shapes {
            [Some(a), Some(b)] => match (&a.shape, &b.shape) {
                (Ok(a), Ok(b)) => computes_other_way_round(a, b),
                _ => false,
            },
            _ => false,
        };
    }
}

/// The error of a slot left empty, which [`NphasePair::resolve`] rules out (it converts what
/// is missing).
static UNRESOLVED: ConversionError = ConversionError::NotConvex {
    shape_type: ps::ShapeType::Custom,
};

/// A pair's converted shapes and state, ready for nphase.
pub(crate) struct Ready<'a> {
    pub(crate) shape1: &'a Shape<f32>,
    pub(crate) shape2: &'a Shape<f32>,
    pub(crate) state: &'a mut PairState<f32>,
    pub(crate) manifold: &'a mut ContactManifold<f32>,
    /// Whether nphase takes the pair the other way round ([`NphasePair::swapped`]).
    pub(crate) swapped: bool,
}
