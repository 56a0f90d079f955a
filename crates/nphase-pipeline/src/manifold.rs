//! Contact manifolds: up to four contact points between two shapes, from their supporting
//! features along the contact normal, with ids that name the features that made them.
//!
//! Given the exact contact of a pair (normal `n` from A toward B, in A's frame):
//!
//! 1. the supporting features of A along `n` and of B along `−n` (a face polygon — hull faces
//!    in full, cylinder caps and cone bases as regular polygons —, an edge — a side line of a
//!    cylinder, cone or capsule — or a vertex, pushed out by the radius of rounded shapes);
//!    where a curved shape switches between two parts, last frame's part is kept a little past
//!    the switch, and where two faces of a box or hull tie (resting on an edge), last frame's
//!    face ([`FeatureMap::local_support_feature_near`]). What the pair query already
//!    found is not searched again ([`SupportHints`]): a hull's face that won a separating-axis
//!    test is that hull's feature (unless last frame's face is held over it near a tie: then
//!    the search runs), and the other hull's search starts on the support vertex
//!    that measured it; and a hull's face a search found is kept, unsearched, while the
//!    direction has turned less than the angle certified to keep it the search's answer
//!    ([`ManifoldHistory::turn_budgets`]). A polytope reports a face; where that face leans
//!    from `n` by more than [`EDGE_LEAN`] and the other side is an edge — or, for a rounded
//!    polytope, whatever the other side is —, the polytope touches with the face's edge
//!    perpendicular to `n` where the contact is, if it has one, and that edge is its feature
//!    (`edge_of_tilted_face`);
//! 2. a vertex on either side: one point, the exact witness pair;
//! 3. otherwise a *reference* feature and an *incident* one, whose polygon is clipped against
//!    the reference's side planes, which contain `n` ([`crate::clipping`]); an incident edge
//!    whose two ends are within [`FEATURE_SNAP`] × the smaller feature's size of a side plane
//!    lies along that face edge and is not cut by its plane (rounding would keep all of it or
//!    none: a capsule perched over a box's edge), its points beyond the plane paired with the
//!    face edge as parallel edges are (below). The reference is a face rather than an edge;
//!    of two faces the one with the larger separation along its own normal, with hysteresis:
//!    last frame's reference side is kept unless the other side's separation is larger by
//!    [`REFERENCE_MARGIN`] × size (Box2D's `0.1 · linearSlop` rule with a memory). Of two
//!    parallel edges (within
//!    [`FLAT_FEATURE_ANGLE`](nphase_shapes::FLAT_FEATURE_ANGLE)) A's is the reference. Crossed
//!    edges touch at the witness alone — unless one is a line of a round surface (a cylinder's,
//!    cone's or capsule's side, a rounded edge: [`SupportFeature::round_axis`]), which falls
//!    away from its line slowly: then the rounder edge is the reference (with the same
//!    hysteresis), the other edge is clipped to the round surface's extent along its axis, and
//!    its clipped ends are measured along `n` to its round surface itself, not to a plane, and
//!    kept within the prediction distance, as in step 4 (a cone lying across a cylinder's
//!    side at a few degrees touches it along its whole slant, not at the crossing alone);
//! 4. each surviving incident vertex becomes a point whose distance is measured along `n` to
//!    the reference plane — its partner on the reference face lies on the face (beyond a side
//!    plane an incident edge lies along, the closest point of that face edge), so no point
//!    is deeper than the exact contact; points further apart than the prediction distance are
//!    dropped — but a point of last frame's manifold (by id, step 6) is kept up to
//!    `min(τ, prediction)` further, so that a speculative point at the prediction distance does
//!    not come and go with the pose noise —, and points closer together than `1e-4 ×` the
//!    smaller feature's size (above the rounding of `size`) merged;
//! 5. when the clipped points are shallower than the exact contact (a polygonised curve, or a
//!    reference face on the other side than the face the contact was measured on), the exact
//!    witness is added (or replaces a clipped point at the same place), so the deepest point
//!    agrees with the pair query (with last frame's manifold, up to [`DEPTH_HYSTERESIS`] ×
//!    size shallower: steps 6 and 7 prefer last frame's points within that margin). A
//!    separating-axis query of the per-frame pipeline leaves its witness to this step
//!    ([`SupportHints::witness_on_plane`]): where the clipped points reach the contact's depth
//!    they hold it; otherwise the witness is clipped for here, on the face the contact was
//!    measured on — one clip per pair and frame where the query would otherwise have clipped
//!    too;
//! 6. every point is named ([`ContactId`], below);
//! 7. more than four points are reduced to four ([`crate::reduction`]), preferring last
//!    frame's points; the points come out in the order the reduction chose them.
//!
//! # Ids
//! Clipping labels every point with the features it lies on: a reference feature and an
//! incident one (an incident vertex over the reference face, an incident edge crossing a
//! reference edge, a reference corner inside the incident face). Where features coincide — a
//! box resting exactly on an equal box, a corner on an edge — rounding noise would decide which
//! of these a point comes out as, so one rule decides instead: **each side's feature is the
//! lowest-dimensional feature of that side's supporting feature within `τ` of the point** — a
//! vertex within `τ` names the point, else an edge within `τ`, else the face — with
//! `τ = `[`FEATURE_SNAP`]` × size`. The rule has hysteresis: a point keeps last frame's id while
//! the features it names are within `2τ` of it and it is within `2τ` of where last frame's
//! point with that id was, on both shapes (on A in A's frame, on B in B's frame): it is the
//! same point seen again, not another point of the same features — an id that names two faces
//! (the witness of a deep face-on-face overlap) would otherwise name every point of the next
//! frame's clipped polygon, and these, one id, would merge into one point for good. A feature of
//! last frame's id that this frame's supporting feature does not hold is measured on the shape
//! itself ([`FeatureMap::local_feature_distance`]): where a curved shape's feature switches part
//! (a cone's base polygon and its slant line meet at the rim, and a box corner there goes out
//! through either), a point on the rim keeps the name it had under the other part. Two points
//! that come out with the same id are one point (the deepest is kept, or, of those within
//! [`DEPTH_HYSTERESIS`] × the smaller feature's size of it, the one nearest last frame's point with
//! the id: `merge_equal_ids`) — except two clipped points more than `τ` apart (an edge cutting a
//! face's corner off by a short chord, both ends within `τ` of the corner, or such ends, one point
//! while less than `τ` apart, that have moved apart): they are two places
//! (`keep_labels_of_places_apart`). Neither inheriting the id, both take their clipping labels; one
//! inheriting it keeps it and the other takes its label — unless either is a *grazing* crossing (an
//! incident edge crossing a side plane it runs along within [`FLAT_FEATURE_ANGLE`], which the pose
//! noise places anywhere along the edge, as along aligned box edges): then the two stay one point.
//! The exact witness, where it joins as a point of its own, is named on a rounded shape's face
//! where its core point is on the core's face (it lies on the rounding, where `n` leaves the core,
//! not on the face pushed out along its own normal): a round box touching with its rounded corner
//! is named by that corner whichever of the faces through it the feature search reports.
//!
//! `size` is the larger extent of the two supporting features (the largest distance of a
//! feature vertex from its first vertex).

use arrayvec::ArrayVec;
use nphase_math::{
    Isometry, Point, Real, UnitVector, Vector, closest_on_segment, segment_distance2,
};
use nphase_shapes::{FLAT_FEATURE_ANGLE, FeatureId, FeatureMap, Shape, SupportFeature, VertexId};
use num_traits::Float;

use crate::clipping::{Along, ClipVertex, Label, SidePlane, clip_against_planes};
use crate::collide::{WitnessWorkspace, witness_over_face};
use crate::contact_id::ContactId;
use crate::reduction::{Candidate, reduce_to_four};
use crate::{LocalContact, SupportHints};

/// The most points a manifold holds.
pub const MAX_MANIFOLD_POINTS: usize = 4;

/// Candidate points closer than this fraction of the smaller feature's size (above the rounding
/// of the coordinates) are one point (clipping makes such twins where an incident vertex lies
/// on a side plane, as with flush faces).
const MERGE_RADIUS: f64 = 1e-4;

/// Coincident features within this fraction of the features' size name a point by the
/// lowest-dimensional of them (see the module doc): 1 % — far above the pose noise of a resting
/// stack (a solver leaves ~1e-3 × size of jitter), far below the spacing of a shape's features.
pub const FEATURE_SNAP: f64 = 1e-2;

/// The reference face changes sides only when the other side's separation is larger by this
/// fraction of the features' size (see the module doc).
pub const REFERENCE_MARGIN: f64 = 1e-3;

/// A polytope's face whose normal leans from the contact normal by more than this (radians, 2°,
/// [`FLAT_FEATURE_ANGLE`]), against an edge (a rounded polytope's against anything), gives way
/// to its edge across the normal where the contact is (`edge_of_tilted_face`): the face no
/// longer carries the contact, its edge does. A face leaning less is flat against the edge, as
/// two edges within that angle are parallel; an edge lying along one of its edges (a capsule
/// perched over a box's edge) is kept whole by the clipping (module doc, step 3). The lean
/// stands off the contact normal's error (an f32 normal of a curved pair from the penetration
/// solver may be off by a few tenths of a degree), so a face resting flat does not switch on
/// that noise.
pub const EDGE_LEAN: f64 = FLAT_FEATURE_ANGLE;

/// The reduction keeps a point of last frame's manifold instead of the deepest point when it is
/// within this fraction of the features' size of the deepest depth (the reduction): the
/// depths of a resting face contact differ by the pose noise, and the deepest one flickers.
/// Of candidates with one id, within this fraction of the smaller feature's size of the id's
/// deepest, the one nearest last frame's point is kept (`merge_equal_ids`). With last frame's
/// manifold, the deepest point can so be this fraction of the size shallower than the exact
/// contact; without, it is the exact contact's depth.
pub const DEPTH_HYSTERESIS: f64 = 1e-3;

/// One contact point of a manifold.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(bound(
        serialize = "T: serde::Serialize",
        deserialize = "T: serde::de::DeserializeOwned"
    ))
)]
pub struct ContactPoint<T: Real> {
    /// The point on A's surface, A's local frame.
    pub local_point1: Point<T>,
    /// The point on B's surface, B's local frame.
    pub local_point2: Point<T>,
    /// Signed distance along the manifold normal (negative = penetrating).
    pub dist: T,
    /// The features of A and B that made the point; the same while they touch.
    pub id: ContactId,
    /// Solver warm-start data: the normal impulse the engine applied last frame at the point
    /// with this id. Carried over from the previous frame's point with the same id (0 for a
    /// new point); the engine writes it after solving.
    pub normal_impulse: T,
    /// Solver warm-start data: the friction impulses along the manifold's tangents
    /// ([`ContactManifold::local_tangent1`] and `normal × tangent1`), carried like
    /// `normal_impulse`.
    pub tangent_impulse: [T; 2],
    /// Whether a point with this id existed in the previous frame.
    pub persisted: bool,
}

/// The contact manifold of one pair.
///
/// Warm-start data: each point carries its normal and two tangent impulses; the manifold
/// carries one twist (rolling-about-the-normal) impulse, as rapier's solver has. An engine
/// with more per-point data keeps it beside the manifold, indexed by [`ContactPoint::id`].
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(bound(
        serialize = "T: serde::Serialize",
        deserialize = "T: serde::de::DeserializeOwned"
    ))
)]
pub struct ContactManifold<T: Real> {
    /// Unit normal from A toward B, in A's local frame ([`ContactManifold::world_normal`] maps
    /// it to the world).
    pub local_normal1: UnitVector<T>,
    /// A unit tangent, perpendicular to the normal, A's local frame; the second tangent is
    /// `local_normal1 × local_tangent1`. Kept from frame to frame (last frame's tangent
    /// projected onto the new contact plane), so tangent impulses keep their meaning.
    pub local_tangent1: UnitVector<T>,
    /// Solver warm-start data: the twist impulse about the normal, carried over while any
    /// point persists.
    pub twist_impulse: T,
    /// At most four points; empty when the shapes are further apart than the prediction.
    pub points: ArrayVec<ContactPoint<T>, MAX_MANIFOLD_POINTS>,
}

// Hot-path record sizes, pinned: a point is two local points, a distance, an 8-byte id and
// three impulses; a manifold four points, the normal, the tangent and the twist impulse.
const _: () = assert!(size_of::<ContactPoint<f32>>() <= 56);
const _: () = assert!(size_of::<ContactPoint<f64>>() <= 96);
const _: () = assert!(size_of::<ContactManifold<f32>>() <= 264);
const _: () = assert!(size_of::<ContactManifold<f64>>() <= 448);
const _: () = assert!(size_of::<ContactId>() == 8);
const _: () = assert!(size_of::<ManifoldHistory>() <= 24);

impl<T: Real> Default for ContactManifold<T> {
    fn default() -> Self {
        ContactManifold {
            local_normal1: Vector::y_axis(),
            local_tangent1: Vector::x_axis(),
            twist_impulse: T::zero(),
            points: ArrayVec::new(),
        }
    }
}

impl<T: Real> ContactManifold<T> {
    /// The normal in the world, given A's pose (local → world).
    pub fn world_normal(&self, pose1: &Isometry<T>) -> UnitVector<T> {
        pose1.rotation * self.local_normal1
    }

    /// The deepest point, if any.
    pub fn deepest(&self) -> Option<&ContactPoint<T>> {
        self.points.iter().min_by(|a, b| {
            a.dist
                .partial_cmp(&b.dist)
                .unwrap_or(core::cmp::Ordering::Equal)
        })
    }
}

/// Which shape's feature was the reference of the clipping.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum ReferenceSide {
    /// Shape A's face (or edge).
    A,
    /// Shape B's face.
    B,
}

/// What a manifold decided that the next frame's manifold leans toward (its hysteresis): the
/// supporting features of A and B, and the reference side of the clipping.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct ManifoldHistory {
    /// The supporting features of A and B (see
    /// [`FeatureMap::local_support_feature_near`](nphase_shapes::FeatureMap::local_support_feature_near)).
    pub features: Option<(FeatureId, FeatureId)>,
    /// The reference side, when the features were clipped.
    pub reference: Option<ReferenceSide>,
    /// For A and B: how far that side's search direction may still turn, from the direction
    /// of this computation, with its supporting feature — a hull's face found by a search —
    /// staying the search's answer, in units of [`TURN_UNIT`] rad (rounded down): the face's
    /// allowance ([`ConvexPolyhedron::face_support_allowance`]) less the turns since. 0 when
    /// nothing is certified; 1 when the last search's face could not be certified either (its
    /// allowance is not computed again while the search keeps finding that face).
    ///
    /// [`ConvexPolyhedron::face_support_allowance`]: nphase_shapes::ConvexPolyhedron::face_support_allowance
    // A state serialized before the budgets existed reads as none (always valid: a search).
    #[cfg_attr(feature = "serde", serde(default))]
    pub turn_budgets: [u16; 2],
}

/// The unit of [`ManifoldHistory::turn_budgets`]: 2⁻¹⁶ rad (budgets up to one radian).
pub const TURN_UNIT: f64 = 1.0 / 65536.0;

/// What [`build_manifold`] needs of a pair: its shapes and pose, its exact contact, and what
/// last frame's manifold decided.
#[derive(Clone, Copy, Debug)]
pub struct ManifoldInput<'a, T: Real> {
    /// Shape A, at the origin.
    pub shape1: &'a Shape<T>,
    /// Shape B.
    pub shape2: &'a Shape<T>,
    /// B's pose in A's frame.
    pub pos12: &'a Isometry<T>,
    /// The exact contact of the pair (A's frame).
    pub contact: &'a LocalContact<T>,
    /// Points are kept up to this distance.
    pub prediction: T,
    /// Last frame's points (their ids give the id rule and the reduction their hysteresis);
    /// empty for a new pair.
    pub previous: &'a [ContactPoint<T>],
    /// What last frame's manifold decided (default for a new pair).
    pub history: ManifoldHistory,
    /// The supporting features the query found along the contact's normal
    /// ([`PairOutcome::supports`](crate::PairOutcome::supports); default: none, every feature
    /// is searched for).
    pub supports: SupportHints,
    /// The directions last frame's features were searched along, A's (A's frame: last frame's
    /// normal) and B's (B's frame: minus that normal), which [`ManifoldHistory::turn_budgets`]
    /// are measured from; `None` for a new pair (no budget is then used).
    pub previous_directions: Option<[Vector<T>; 2]>,
}

/// Scratch buffers of manifold generation, reused across pairs.
#[derive(Debug, Default)]
pub struct ManifoldWorkspace<T: Real> {
    feature1: SupportFeature<T>,
    feature2: SupportFeature<T>,
    polygon: Vec<ClipVertex<T>>,
    scratch: Vec<ClipVertex<T>>,
    planes: Vec<SidePlane<T>>,
    /// Scratch space of a witness the query left to the manifold (the manifold's own
    /// features and planes stay as they are, for the ids).
    witness: WitnessWorkspace<T>,
    candidates: Vec<PointCandidate<T>>,
    taken: Vec<bool>,
    /// The candidates' clipping labels, and which are to take them back
    /// ([`keep_labels_of_places_apart`]), in the candidates' order.
    labels: Vec<ContactId>,
    apart: Vec<bool>,
    /// Which candidates share their id with another ([`merge_equal_ids`]).
    shares: Vec<u8>,
}

/// A candidate point in A's frame.
#[derive(Clone, Copy, Debug)]
struct PointCandidate<T: Real> {
    point1: Point<T>,
    point2: Point<T>,
    dist: T,
    id: ContactId,
    /// Where a point with this id was in last frame's manifold.
    previous_rank: Option<u8>,
    /// Further apart than the prediction distance (within its hysteresis): kept only if it
    /// inherits an id of last frame's manifold.
    beyond: bool,
}

impl<T: Real> Candidate<T> for PointCandidate<T> {
    fn position(&self) -> Vector<T> {
        self.point1.coords
    }
    fn distance(&self) -> T {
        self.dist
    }
    fn previous_rank(&self) -> Option<usize> {
        self.previous_rank.map(usize::from)
    }
}

/// Fills `points` with the manifold of `input` (see the module doc); impulses are left at zero
/// and `persisted` set where the id was in `input.previous`. Returns what the next frame leans
/// toward.
pub fn build_manifold<T: Real>(
    input: &ManifoldInput<'_, T>,
    ws: &mut ManifoldWorkspace<T>,
    points: &mut ArrayVec<ContactPoint<T>, MAX_MANIFOLD_POINTS>,
) -> ManifoldHistory {
    points.clear();
    let contact = input.contact;
    let n = contact.normal.into_inner();
    let (previous1, previous2) = input.history.features.unzip();
    let [face1, face2] = input.supports.faces;
    let [vertex1, vertex2] = input.supports.vertices;
    let [budget1, budget2] = input.history.turn_budgets;
    let [from1, from2] = input
        .previous_directions
        .map_or([None, None], |d| d.map(Some));
    let n_in_b = input.pos12.rotation.inverse_transform_vector(&-n);
    let turn_budgets = [
        supporting_feature(
            input.shape1,
            &n,
            (face1, vertex1),
            (previous1, budget1, from1.as_ref()),
            &mut ws.feature1,
        ),
        supporting_feature(
            input.shape2,
            &n_in_b,
            (face2, vertex2),
            (previous2, budget2, from2.as_ref()),
            &mut ws.feature2,
        ),
    ];
    let features = Some((ws.feature1.id, ws.feature2.id));
    ws.feature2.transform_by(input.pos12);
    // A side's leaning face may give way to its edge (`edge_of_tilted_face`): against an
    // edge, or on a rounded shape against anything. One side's new edge can let the other's
    // face give way in turn, so A's rule runs again when only B's face gave way; the reaches
    // use the sizes of the features as searched. Each switch only enables the other, so the
    // outcome does not depend on which shape is A. (Sharp faces against faces skip it all.)
    let rounded = |shape: &Shape<T>| matches!(shape, Shape::Round(_));
    if rounded(input.shape1)
        || rounded(input.shape2)
        || ws.feature1.vertices.len() == 2
        || ws.feature2.vertices.len() == 2
    {
        let sizes = [extent(&ws.feature1), extent(&ws.feature2)];
        let (at1, at2) = ((&contact.point1, sizes[1]), (&contact.point2, sizes[0]));
        let against = |f: &SupportFeature<T>| f.vertices.len() == 2;
        let gave1 = edge_of_tilted_face(
            input.shape1,
            &mut ws.feature1,
            &n,
            at1,
            against(&ws.feature2),
        );
        let gave2 = edge_of_tilted_face(
            input.shape2,
            &mut ws.feature2,
            &-n,
            at2,
            against(&ws.feature1),
        );
        if gave2 && !gave1 {
            edge_of_tilted_face(input.shape1, &mut ws.feature1, &n, at1, true);
        }
    }

    let extents = (extent(&ws.feature1), extent(&ws.feature2));
    let (size, smaller) = (
        Float::max(extents.0, extents.1),
        Float::min(extents.0, extents.1),
    );
    ws.candidates.clear();
    let reference = if ws.feature1.vertices.len() > 1 && ws.feature2.vertices.len() > 1 {
        clip_features(ws, &n, input, size)
    } else {
        None
    };
    // No pair of surface points is closer along n than the exact contact (n minimises the
    // support gap, and every pair's separation along n is at least that gap). A clipped point
    // deeper than it by more than the accuracy is an artefact of a reference face far from n
    // (a triangle touched on its edge, a polytope face beside an edge contact, a polygonised
    // cap): its projection along n leaves the shapes. Such points are dropped (the exact
    // witness below then stands in for them).
    //
    // The accuracy and the merge radius are relative to the smaller feature (the points lie
    // where the two overlap), above the rounding of the larger one's coordinates: relative to
    // the larger, a 2 cm box on a 200 m ground box had its four corners merged into two (one
    // the other way round), and points up to `1e-5 × 283` deeper than the contact kept (f32).
    let accuracy = T::TOLERANCES.length(T::TOLERANCES.accuracy, smaller, size);
    ws.candidates.retain(|c| c.dist >= contact.dist - accuracy);
    let merge = T::TOLERANCES.length(T::lit(MERGE_RADIUS), smaller, size);
    remove_duplicates(&mut ws.candidates, merge);
    let witness = match input.supports.witness_on_plane {
        None => add_witness(ws, contact, merge, accuracy),
        Some(face) => {
            // The query left the witness to this clipping: needed only where the clipped
            // points do not reach the contact's depth (the other side's face was the reference).
            if !reach_depth(&ws.candidates, contact, accuracy) {
                let witness = witness_over_face(
                    (input.shape1, input.shape2, input.pos12),
                    (contact, &input.supports),
                    face,
                    accuracy,
                    &mut ws.witness,
                );
                add_witness(ws, &witness, merge, accuracy)
            } else {
                None
            }
        }
    };

    let distinct = name_candidates(ws, T::lit(FEATURE_SNAP) * size, input, (reference, witness));
    for c in &mut ws.candidates {
        c.previous_rank = input
            .previous
            .iter()
            .position(|p| p.id == c.id)
            .map(|k| k as u8);
    }
    // Beyond the prediction distance: kept where the point inherited its id (and was not
    // parted from it, `keep_labels_of_places_apart`).
    let (taken, mut k) = (&ws.taken, 0);
    ws.candidates.retain(|c| {
        let keep = !c.beyond || taken.get(k) == Some(&true);
        k += 1;
        keep
    });
    if !distinct {
        // The smaller feature's share: the depths merged points differ by are the pose noise
        // over a few `τ`, and this bounds how much shallower than the exact contact the
        // kept point can be.
        let slack = T::lit(DEPTH_HYSTERESIS) * smaller;
        merge_equal_ids(&mut ws.candidates, input.previous, slack, &mut ws.shares);
    }
    reduce_to_four(&mut ws.candidates, &n, T::lit(DEPTH_HYSTERESIS) * size);
    for c in &ws.candidates {
        points.push(ContactPoint {
            local_point1: c.point1,
            local_point2: input.pos12.inverse_transform_point(&c.point2),
            dist: c.dist,
            id: c.id,
            normal_impulse: T::zero(),
            tangent_impulse: [T::zero(); 2],
            persisted: c.previous_rank.is_some(),
        });
    }
    ManifoldHistory {
        features,
        reference,
        turn_budgets,
    }
}

/// The exact witness joins when clipping found nothing or only shallower points (a curved
/// surface polygonised): the deepest point then agrees with the pair query. A clipped point at
/// the same place (within the merge radius) takes the witness's geometry if the witness is
/// deeper. Its label is the two whole features: the id rule names the parts of them it touches.
/// Returns the witness's place among the candidates if it joined as a point of its own.
fn add_witness<T: Real>(
    ws: &mut ManifoldWorkspace<T>,
    contact: &LocalContact<T>,
    merge: T,
    accuracy: T,
) -> Option<usize> {
    let witness = PointCandidate {
        point1: contact.point1,
        point2: contact.point2,
        dist: contact.dist,
        id: ContactId::new(ws.feature1.id, ws.feature2.id),
        previous_rank: None,
        beyond: false,
    };
    let reached = reach_depth(&ws.candidates, contact, accuracy);
    match ws
        .candidates
        .iter_mut()
        .find(|c| (c.point1 - witness.point1).norm_squared() <= merge * merge)
    {
        Some(c) => {
            if witness.dist < c.dist {
                *c = PointCandidate {
                    id: c.id,
                    ..witness
                };
            }
            None
        }
        None => {
            if reached {
                return None;
            }
            ws.candidates.push(witness);
            Some(ws.candidates.len() - 1)
        }
    }
}

/// Whether some clipped point within the prediction distance is as deep as the exact contact
/// (within `accuracy`; one beyond it may be dropped, `build_manifold`).
fn reach_depth<T: Real>(
    candidates: &[PointCandidate<T>],
    contact: &LocalContact<T>,
    accuracy: T,
) -> bool {
    candidates
        .iter()
        .any(|c| !c.beyond && c.dist <= contact.dist + accuracy)
}

/// `shape`'s supporting feature along `dir` (its own frame), into `out`: for a hull, the face
/// the query proved (`hints.0`: a separating-axis test's winning face, whose normal is `dir`)
/// unless last frame's face is held over it near a tie
/// ([`FACE_TIE_HOLD`](nphase_shapes::FACE_TIE_HOLD)), else last frame's face while its turn
/// budget certifies it, else the search started on the query's support vertex (`hints.1`) or
/// last frame's feature, keeping last frame's face near a tie; otherwise the search with last
/// frame's feature (a curved shape's hysteresis). Every branch gives the search's answer, bit
/// for bit. Returns the side's turn budget for the next frame.
///
/// # Turn budgets
/// After a search that found a hull's face `f` along `u₀`,
/// [`ConvexPolyhedron::face_support_allowance`](nphase_shapes::ConvexPolyhedron::face_support_allowance)
/// gives an angle `Δ` such that the search with `f` for last frame's face returns `f` along
/// every direction `u` with `|u − u₀| ≤ Δ`, from any start vertex; that is the budget (used
/// only while last frame's feature is `f`, and the hold near a tie widens it). Each later
/// frame measures how far the direction turned since the last (`|u_k − u_{k−1}|`, from
/// `last.2`, last frame's direction, plus a rounding guard) and takes it off; by the triangle
/// inequality `|u_k − u₀|` is at most the sum taken off, so while the budget stays positive `f` is the search's answer and is
/// filled without searching — the same feature as the search, bit for bit. A frame with the
/// query's face (which the search is not asked) keeps the budget when that face is `f`.
/// Budgets are rounded down to [`TURN_UNIT`]. An allowance below two units is stored as
/// [`UNCERTIFIED`], never used as a budget: while the search finds that face again (a direction
/// on the Gauss-map edge of two faces too nearly parallel for the hold to widen it, or at a
/// tied edge's other end) its allowance is not computed again.
fn supporting_feature<T: Real>(
    shape: &Shape<T>,
    dir: &Vector<T>,
    hints: (Option<u32>, VertexId),
    last: (Option<FeatureId>, u16, Option<&Vector<T>>),
    out: &mut SupportFeature<T>,
) -> u16 {
    let (face, vertex) = hints;
    let (previous, budget, from) = last;
    let Shape::Convex(hull) = shape else {
        shape.local_support_feature_near(dir, previous, out);
        return 0;
    };
    // Last frame's face and what is left of its budget after this frame's turn.
    let kept = match (previous, from) {
        (Some(FeatureId::Face(f)), Some(from)) if budget > UNCERTIFIED => {
            let turned = (dir - from).norm() + T::lit(8.0) * T::TOLERANCES.epsilon;
            let left = T::lit(f64::from(budget) * TURN_UNIT) - turned;
            (left > T::zero()).then(|| (f, budget_of(left)))
        }
        _ => None,
    };
    // The query's face is the search's best; the search keeps last frame's face over it
    // within the hold of a tie (then it searches, as it would without the hint).
    let held = |f: u32| match previous {
        Some(FeatureId::Face(p)) if p != f => hull.keeps_face_over(p, f, dir),
        _ => false,
    };
    if let Some(f) = face
        && !held(f)
        && hull.face_feature(f as usize, out)
    {
        return kept.filter(|&(g, _)| g == f).map_or(0, |(_, left)| left);
    }
    if let Some((f, left)) = kept
        && hull.face_feature(f as usize, out)
    {
        return left;
    }
    hull.support_feature_started(dir, vertex, previous, out);
    match out.id {
        FeatureId::Face(_) if budget == UNCERTIFIED && previous == Some(out.id) => UNCERTIFIED,
        FeatureId::Face(f) => {
            budget_of(hull.face_support_allowance(f as usize, dir)).max(UNCERTIFIED)
        }
        _ => 0,
    }
}

/// The turn budget of a face whose allowance was below two [`TURN_UNIT`]s (see
/// [`supporting_feature`]).
const UNCERTIFIED: u16 = 1;

/// A polytope's face that leans away from the contact normal, against an edge
/// (`against_edge`: the other side's feature is one; a rounded polytope's against anything),
/// gives way to its edge that the normal is perpendicular to: the polytope touches the other
/// feature with that edge. Returns whether it did.
///
/// A polytope reports the face whose normal is closest to `dir` (its [`FeatureMap`] contract),
/// also where `dir` lies between two faces' normals and only the edge between them supports it.
/// A sharp polytope's such face against a face is harmless (the face's vertices off the edge
/// are measured to the other face's plane and fall out of the prediction distance, its vertices
/// on the edge are the edge's ends). A rounded polytope's is not: pushed out along its own
/// normal, its vertices are not where the rounding touches (a round box of border 5 cm lying on
/// its rounded edge at 45°: 1.5 cm above the edge's lowest line, beyond the prediction
/// distance, so the witness alone stood for the edge, wandering along it), and against a face
/// or a vertex the witness was named by the face — one of the two through the edge, as the
/// normal's noise had it. And an edge clipped against such a face loses what lies beyond the
/// face's own side plane: the side plane through the supporting edge contains `n`, so an edge
/// along it is cut at the crossing (at a few degrees, half of it) or kept by rounding noise
/// (parallel). Taken as the edge it is, the pair is two edges, clipped by the edge rules of
/// [`clip_features`]: parallel, both ends of the overlap; crossed on a round surface, the ends
/// that lie within the prediction distance of it (a box edge across a cone's slant at 8°, 1 cm
/// deep, is inside the cone along its whole overlap with the slant: the exact witness alone let
/// the box rock about one point that jumped 6 cm a frame along the nearly parallel lines).
///
/// The face gives way when its normal is more than [`EDGE_LEAN`] from `dir`, one of the two
/// face edges through the face's support vertex along `dir` is perpendicular to `dir` within
/// [`FLAT_FEATURE_ANGLE`] (the more perpendicular of the two, unless both are and the face
/// leans less than twice that: it then touches with the vertex — a cylinder wedged against a
/// round box's corner in rapier's pile took the two edges in turn, one a step, and never
/// carried its load), and `witness` — the contact's point on this shape — less the rounding
/// along `dir` lies on that edge within [`FEATURE_SNAP`] × the smaller of the face's size and
/// `other_extent`, the other feature's as searched (the face's alone against a vertex, whose
/// size is 0). The witness test keeps a face whose normal is off (a capsule lying flat, its
/// witness away from the face's edges) from giving way to an edge the contact is not at — a
/// witness within that reach of an edge can still switch, and the points then move by at most
/// the reach. Else the polytope touches with a vertex or rests flat, and the face stays. A
/// rounded polytope's edge is pushed out across itself, toward `dir`, as
/// [`SupportFeature::push_out`] does for the edges it reports: the face came pushed along its
/// own normal, so the edge is taken back by the radius first. Curved shapes' faces (cylinder
/// caps, cone bases: polygonised circles) have no real edges and are left alone. `feature`,
/// `dir` (unit, outward from the shape) and `witness` are in one frame.
fn edge_of_tilted_face<T: Real>(
    shape: &Shape<T>,
    feature: &mut SupportFeature<T>,
    dir: &Vector<T>,
    (witness, other_extent): (&Point<T>, T),
    against_edge: bool,
) -> bool {
    let radius = match shape {
        Shape::Cuboid(_) | Shape::Convex(_) | Shape::Triangle(_) if against_edge => T::zero(),
        Shape::Round(round) => match round.inner() {
            Shape::Cuboid(_) | Shape::Convex(_) | Shape::Triangle(_) => round.border_radius(),
            _ => return false,
        },
        _ => return false,
    };
    let vertices = &feature.vertices;
    let count = vertices.len();
    let flat = T::lit(FLAT_FEATURE_ANGLE);
    if count < 3 || !(feature.normal.dot(dir) < Float::cos(T::lit(EDGE_LEAN))) {
        return false;
    }
    let Some(top) = (0..count).max_by(|&i, &j| {
        let (a, b) = (vertices[i].coords.dot(dir), vertices[j].coords.dot(dir));
        a.partial_cmp(&b).unwrap_or(core::cmp::Ordering::Equal)
    }) else {
        return false;
    };
    // The two edges through the support vertex: edge k joins vertices k and k + 1.
    let sin_flat = Float::sin(flat);
    let slope = |k: usize| {
        let [a, b] = edge_ends(k, count);
        let edge = vertices[b] - vertices[a];
        Float::abs(edge.dot(dir)) / edge.norm()
    };
    let [(before, s0), (after, s1)] = [(top + count - 1) % count, top].map(|k| (k, slope(k)));
    let k = match (s0 <= sin_flat, s1 <= sin_flat) {
        // Both perpendicular to `dir`: the face leans less than twice that (a rectangle's
        // corner: at most 2.9°) and touches with its vertex, not with either edge, whose
        // slopes would take turns as the normal rocks. A sliver's corner, both of its edges
        // perpendicular to a `dir` the face leans far from, gives way to the steadier edge.
        (true, true) if feature.normal.dot(dir) >= Float::cos(flat + flat) => return false,
        (true, true) if s1 < s0 => after,
        (true, _) => before,
        (false, true) => after,
        (false, false) => return false,
    };
    let [a, b] = edge_ends(k, count);
    let back = feature.normal.into_inner() * radius;
    let ends = [vertices[a] - back, vertices[b] - back];
    // The contact is at that edge: the witness on this shape, less the rounding along the
    // normal (the rounded surface's normal there), is on it.
    // A vertex on the other side has no size: the face's own measures the reach.
    let size = extent(feature);
    let other_size = if other_extent > T::zero() {
        other_extent
    } else {
        size
    };
    let reach = T::lit(FEATURE_SNAP) * Float::min(size, other_size);
    let core = witness - dir * radius;
    if !(segment_distance2(&ends[0], &ends[1], &core) <= reach * reach) {
        return false;
    }
    let (Some(&edge), Some(&id_a), Some(&id_b)) = (
        feature.edge_ids.get(k),
        feature.vertex_ids.get(a),
        feature.vertex_ids.get(b),
    ) else {
        return false;
    };
    let ids = [id_a, id_b];
    feature.reset(FeatureId::Edge(edge), UnitVector::new_unchecked(*dir));
    feature.push(ends[0], ids[0]);
    feature.push(ends[1], ids[1]);
    feature.push_edge(edge);
    if radius > T::zero() {
        feature.push_out(radius);
    }
    true
}

/// An angle as a turn budget: in [`TURN_UNIT`]s, rounded down, at most `u16::MAX`.
fn budget_of<T: Real>(angle: T) -> u16 {
    let units = Float::floor(angle.as_f64() / TURN_UNIT);
    if units >= f64::from(u16::MAX) {
        u16::MAX
    } else if units > 0.0 {
        units as u16
    } else {
        0
    }
}

/// Chooses the reference feature (see the module doc), clips the incident feature against it and
/// pushes the points within the prediction distance into `ws.candidates`, labelled with the
/// features they lie on — and, where there is a last frame's manifold, those up to `min(τ,
/// prediction)` beyond it, marked [`PointCandidate::beyond`] (kept only if they inherit an id:
/// `name_candidates`). Returns the reference side, or `None` when the features do not clip (crossed
/// edges neither of which is round, a reference plane that cannot measure along `n`, an incident
/// feature without edge ids).
fn clip_features<T: Real>(
    ws: &mut ManifoldWorkspace<T>,
    n: &Vector<T>,
    input: &ManifoldInput<'_, T>,
    size: T,
) -> Option<ReferenceSide> {
    let face1 = ws.feature1.vertices.len() >= 3;
    let face2 = ws.feature2.vertices.len() >= 3;
    // Edge against edge: crossed unless parallel within FLAT_FEATURE_ANGLE. Crossed edges touch
    // at the exact witness alone, unless one of them is a line of a round surface: the rounder
    // is the reference (with the faces' hysteresis: equal shapes' radii differ by rounding),
    // and the other is measured against its surface ([`round_gap`]).
    let crossed = !face1 && !face2 && {
        let (v1, v2) = (&ws.feature1.vertices, &ws.feature2.vertices);
        let (e1, e2) = (v1[1] - v1[0], v2[1] - v2[0]);
        let sin_flat = Float::sin(T::lit(FLAT_FEATURE_ANGLE));
        e1.cross(&e2).norm() > sin_flat * e1.norm() * e2.norm()
    };
    // Of two faces the more separated, of two crossed edges the rounder, with hysteresis.
    let larger = |score1: T, score2: T| {
        let margin = T::lit(REFERENCE_MARGIN) * size;
        match input.history.reference {
            Some(ReferenceSide::B) if !(score1 > score2 + margin) => ReferenceSide::B,
            _ if score2 > score1 + margin => ReferenceSide::B,
            _ => ReferenceSide::A,
        }
    };
    let side = match (face1, face2) {
        (true, true) => larger(
            separation(&ws.feature1, &ws.feature2),
            separation(&ws.feature2, &ws.feature1),
        ),
        (false, true) => ReferenceSide::B,
        (false, false) if crossed => {
            let (round1, round2) = (roundness(&ws.feature1), roundness(&ws.feature2));
            if !(Float::max(round1, round2) > T::zero()) {
                return None;
            }
            larger(round1, round2)
        }
        _ => ReferenceSide::A,
    };
    let reference_is_1 = side == ReferenceSide::A;
    let (reference, incident) = if reference_is_1 {
        (&ws.feature1, &ws.feature2)
    } else {
        (&ws.feature2, &ws.feature1)
    };
    // The reference plane's outward normal: the face normal, or ±n for an edge.
    let toward = if reference_is_1 { *n } else { -n };
    let outward = if reference.vertices.len() >= 3 {
        reference.normal.into_inner()
    } else {
        toward
    };
    // Distances are measured along n; a reference plane nearly parallel to n cannot measure.
    let along = outward.dot(&toward);
    if !(along > T::lit(0.1)) {
        return None;
    }

    ws.planes.clear();
    let rv = &reference.vertices;
    let ids = &reference.vertex_ids;
    if rv.len() >= 3 {
        // The side planes contain the normal n (not the face normal): a point that survives
        // lies above the reference face *along n*, so the point it is paired with on the face
        // (`v ∓ n·dist`) is on the face, and no point comes out deeper than the exact contact
        // (for a on A, b on B, (b − a)·n ≥ the signed distance). Planes perpendicular to a face
        // tilted from n let incident points through whose partner is off the face, up to
        // |dist|·tan(tilt) deeper than the true depth. ((b − a) × n points outward like
        // (b − a) × f because n·f > 0 and the edge is perpendicular to f.)
        for k in 0..rv.len() {
            let [_, next] = edge_ends(k, rv.len());
            ws.planes.push(SidePlane {
                origin: rv[k],
                normal: (rv[next] - rv[k]).cross(&toward),
                feature: FeatureId::Edge(reference.edge_ids[k]),
                ends: [ids[k], ids[next]],
            });
        }
    } else {
        // Edge against edge, parallel (a capsule lying on a capsule) or crossed on a round
        // reference: the incident edge is clipped to the reference edge's extent — for a round
        // reference, the extent of its surface along the axis it turns about (a cone's slant
        // ends on the base plane, across the axis, not across the slant: the part of the
        // incident edge between the two would measure nothing, and the clipped end there
        // would miss the surface it is measured to).
        let e1 = match (crossed, &reference.round_axis) {
            (true, Some(axis)) => {
                let along = rv[1] - rv[0];
                let direction = axis.direction.into_inner();
                direction * along.dot(&direction)
            }
            _ => rv[1] - rv[0],
        };
        for (k, normal) in [(0, -e1), (1, e1)] {
            ws.planes.push(SidePlane {
                origin: rv[k],
                normal,
                feature: FeatureId::Vertex(ids[k]),
                ends: [ids[k], ids[k]],
            });
        }
    }
    ws.polygon.clear();
    let iv = &incident.vertices;
    for (k, (p, &id)) in iv.iter().zip(&incident.vertex_ids).enumerate() {
        // A segment's two ends share its one edge (a feature without edge ids is malformed:
        // it does not clip).
        let &edge = incident.edge_ids.get(k).or(incident.edge_ids.last())?;
        ws.polygon.push(ClipVertex {
            point: *p,
            label: Label {
                reference: reference.id,
                incident: FeatureId::Vertex(id),
            },
            edge: Along::Incident(FeatureId::Edge(edge)),
        });
    }
    // An incident edge lying along a face's side plane lies along the face's edge (a capsule
    // perched over a box's edge, its side line in the plane through the edge and `n`):
    // rounding would keep all of it or nothing, so that plane does not cut it, and the
    // partners of its points beyond the plane are taken onto the face's edge, as for parallel
    // edges (below). Along: both ends within FEATURE_SNAP × the smaller of the two features'
    // sizes of the plane — parallel to it within about 1°, and no further beside the face
    // than a small share of either feature (a large floor does not hold an edge up past its
    // end). The first such plane, decided on the whole incident edge before any clipping, so
    // that the order of the planes does not matter.
    let lies_along = match &incident.vertices[..] {
        [p, q] if rv.len() >= 3 => {
            let reach = T::lit(FEATURE_SNAP) * Float::min(extent(reference), (q - p).norm());
            ws.planes.iter().position(|plane| {
                let limit = reach * plane.normal.norm();
                let height = |v: &Point<T>| Float::abs((v - plane.origin).dot(&plane.normal));
                height(p) <= limit && height(q) <= limit
            })
        }
        _ => None,
    };
    clip_against_planes(
        &mut ws.polygon,
        &ws.planes,
        (incident.id, lies_along),
        &mut ws.scratch,
    );

    // The prediction's hysteresis: a point beyond the prediction distance stays while last
    // frame's manifold held it (by id, `name_candidates`) and it is within `keep` more.
    let keep = if input.previous.is_empty() {
        T::zero()
    } else {
        Float::min(T::lit(FEATURE_SNAP) * size, input.prediction)
    };
    let origin = rv[0];
    for v in &ws.polygon {
        let mut label = v.label;
        let (point1, point2, dist) = if rv.len() >= 3 || crossed {
            let (point, dist) = if crossed {
                let Some((point, gap, end)) =
                    round_gap_within_extent(&v.point, &incident.vertices, reference, &toward)
                else {
                    continue;
                };
                if let Some(end) = end {
                    // Pulled back along the incident edge, its partner on the round
                    // surface's end (a cone's rim or apex): named by that end's vertex.
                    label = Label {
                        reference: FeatureId::Vertex(ids[end]),
                        incident: incident.id,
                    };
                }
                (point, gap)
            } else {
                (v.point, (v.point - origin).dot(&outward) / along)
            };
            // The partner on the face; beyond the side plane the incident edge lies along,
            // the closest point of that face edge, as for parallel edges (below).
            let (partner, dist) = match lies_along {
                Some(k) if (point - rv[k]).dot(&ws.planes[k].normal) > T::zero() => {
                    let [a, b] = edge_ends(k, rv.len());
                    let partner = closest_on_segment(&rv[a], &rv[b], &point);
                    (partner, (point - partner).dot(&toward))
                }
                _ => (point - toward * dist, dist),
            };
            if reference_is_1 {
                (partner, point, dist)
            } else {
                (point, partner, dist)
            }
        } else {
            // Parallel edges: the partner is the closest point of the reference edge, so both
            // points are on their surfaces; `dist` is their separation along n (their
            // difference has a component across n of at most sin(FLAT_FEATURE_ANGLE) × the
            // edge's length, from the edges' misalignment).
            let partner = closest_on_segment(&rv[0], &rv[1], &v.point);
            if reference_is_1 {
                (partner, v.point, (v.point - partner).dot(n))
            } else {
                (v.point, partner, (partner - v.point).dot(n))
            }
        };
        let beyond = dist > input.prediction;
        if beyond && !(dist <= input.prediction + keep) {
            continue;
        }
        let id = if reference_is_1 {
            ContactId::new(label.reference, label.incident)
        } else {
            ContactId::new(label.incident, label.reference)
        };
        ws.candidates.push(PointCandidate {
            point1,
            point2,
            dist,
            id,
            previous_rank: None,
            beyond,
        });
    }
    Some(side)
}

/// How round an edge is, for choosing the reference of crossed edges: the mean distance of its
/// ends from the axis its surface turns about ([`SupportFeature::round_axis`]); 0 for a sharp
/// edge.
fn roundness<T: Real>(feature: &SupportFeature<T>) -> T {
    match (&feature.round_axis, &feature.vertices[..]) {
        (Some(axis), [v0, v1]) => (axis.distance(v0) + axis.distance(v1)) * T::lit(0.5),
        _ => T::zero(),
    }
}

/// The point of the segment `edge` nearest the line through `line`'s two points (the two not
/// parallel; a degenerate pair gives the segment's first end).
fn nearest_to_line<T: Real>(edge: &[Point<T>], line: &[Point<T>]) -> Point<T> {
    let (e, f, w) = (edge[1] - edge[0], line[1] - line[0], edge[0] - line[0]);
    let (a, b, c) = (e.norm_squared(), e.dot(&f), f.norm_squared());
    let denominator = a * c - b * b;
    let u = if denominator > T::zero() {
        (b * f.dot(&w) - c * e.dot(&w)) / denominator
    } else {
        T::zero()
    };
    edge[0] + e * Float::min(Float::max(u, T::zero()), T::one())
}

/// [`round_gap`] of a clipped end `end` of the incident edge `edge`, with the point it was
/// measured from; where `end`'s partner lies beyond the round surface's extent, the point of
/// the incident edge between `end` and where the edge passes nearest the reference line
/// (`inner`) nearest `end` whose partner is on it, to 2⁻¹⁶ of their distance (bisection; `None`
/// if no point but `inner` is), with the reference end vertex (0 or 1) that partner is at —
/// the one nearer along the axis.
///
/// The incident edge is clipped to the extent along the axis, but its partners lie `gap` away
/// along `toward`, which a cone's slant does not cross at right angles: a partner moves off the
/// base plane by `gap · toward·axis` — beyond it when the end is apart (a box edge across a
/// cone's slant, resting a few mm deep at the crossing, is apart at its end on the base plane,
/// and that end's partner falls below the base). The point kept instead is on the incident
/// edge, its partner on the round surface at the extent's end; the caller names it by that end
/// and the incident edge.
fn round_gap_within_extent<T: Real>(
    end: &Point<T>,
    edge: &[Point<T>],
    reference: &SupportFeature<T>,
    toward: &Vector<T>,
) -> Option<(Point<T>, T, Option<usize>)> {
    match round_gap_at(end, reference, toward) {
        RoundGap::Gap(gap) => return Some((*end, gap, None)),
        RoundGap::Miss => return None,
        RoundGap::Beyond => {}
    }
    // `Beyond` is measured on a round reference: it has an axis.
    let axis = reference.round_axis.as_ref()?;
    let inner = nearest_to_line(edge, &reference.vertices);
    round_gap(&inner, reference, toward)?;
    let (mut hit, mut miss, mut found) = (inner, *end, None);
    for _ in 0..16 {
        let middle = hit + (miss - hit) * T::lit(0.5);
        match round_gap(&middle, reference, toward) {
            Some(gap) => {
                hit = middle;
                found = Some((middle, gap));
            }
            None => miss = middle,
        }
    }
    let (point, gap) = found?;
    let partner = point - toward * gap;
    let along = |v: &Point<T>| Float::abs((v - partner).dot(&axis.direction));
    let rv = &reference.vertices;
    Some((point, gap, Some(usize::from(along(&rv[1]) < along(&rv[0])))))
}

/// How far `q` is from the round surface of the edge `reference` along `toward`, the
/// reference's outward direction of the contact normal: the `s` with `q − s · toward` on the
/// surface's outer side (negative when `q` is inside it); `None` when the edge is sharp, when
/// that line misses the surface (`q` is beside it) or meets it beyond the edge's extent.
///
/// The surface is the edge `v₀v₁` turned about its axis (point `o`, unit direction `a`): a
/// cylinder or a cone, the points `x` at distance `ρ(t) = ρ₀ + k (t − t₀)` from the axis, with
/// `t = (x − o)·a` the height along it, `ρᵢ, tᵢ` the ends' and `k = (ρ₁ − ρ₀)/(t₁ − t₀)`. With
/// `D = q − o`, `w = toward`, `⊥` the part across the axis and `g = ρ(D·a)`, the line
/// `q − s w` meets it where `|D⊥ − s w⊥|² = (g − s k w·a)²`:
/// `A s² − 2 B s + C = 0` with `A = |w⊥|² − k² (w·a)²`, `B = D⊥·w⊥ − g k w·a`,
/// `C = |D⊥|² − g²`. Of the (finite) roots, the smallest where the surface is really there
/// (`ρ ≥ 0`: not the cone's other nappe) and faces `w` (its outward normal `x⊥/|x⊥| − k a`
/// has a positive part along `w`): where the line enters the round solid from `w`'s side.
/// Along a straight incident edge this gap is convex (a linear height less the concave height
/// of a convex surface), so the incident edge's points within the prediction distance form one
/// stretch, whose clipped ends the caller keeps when they are in it (pulled back to the
/// extent where a partner falls beyond it: `round_gap_within_extent`).
fn round_gap<T: Real>(
    q: &Point<T>,
    reference: &SupportFeature<T>,
    toward: &Vector<T>,
) -> Option<T> {
    match round_gap_at(q, reference, toward) {
        RoundGap::Gap(gap) => Some(gap),
        RoundGap::Beyond | RoundGap::Miss => None,
    }
}

/// What [`round_gap`] found: the gap, a partner on the round surface's infinite extension but
/// beyond the edge's extent, or no partner.
enum RoundGap<T> {
    Gap(T),
    Beyond,
    Miss,
}

/// [`round_gap`], telling a partner beyond the extent from none.
fn round_gap_at<T: Real>(
    q: &Point<T>,
    reference: &SupportFeature<T>,
    toward: &Vector<T>,
) -> RoundGap<T> {
    let Some(axis) = reference.round_axis.as_ref() else {
        return RoundGap::Miss;
    };
    let [v0, v1] = [reference.vertices[0], reference.vertices[1]];
    let a = axis.direction.into_inner();
    let height = |p: &Point<T>| (p - axis.point).dot(&a);
    let (t0, t1) = (height(&v0), height(&v1));
    let (rho0, rho1) = (axis.distance(&v0), axis.distance(&v1));
    // A generator across its axis (a disc's radius) is no side line.
    if !(Float::abs(t1 - t0) > T::TOLERANCES.accuracy * (v1 - v0).norm()) {
        return RoundGap::Miss;
    }
    let k = (rho1 - rho0) / (t1 - t0);
    let across = |v: Vector<T>| v - a * v.dot(&a);
    let d = q - axis.point;
    let (wa, w_across, d_across) = (toward.dot(&a), across(*toward), across(d));
    let g = rho0 + k * (d.dot(&a) - t0);
    let quadratic = w_across.norm_squared() - k * k * wa * wa;
    let half_linear = d_across.dot(&w_across) - g * k * wa;
    let constant = d_across.norm_squared() - g * g;
    let discriminant = half_linear * half_linear - quadratic * constant;
    if !(discriminant >= T::zero()) {
        return RoundGap::Miss;
    }
    // The roots in the stable form (`A` changes sign on a cone: a line steeper than its
    // generators meets both nappes; near 0 one root runs off to infinity and fails the test
    // below).
    let stable = half_linear + Float::copysign(Float::sqrt(discriminant), half_linear);
    let (r1, r2) = (stable / quadratic, constant / stable);
    let Some(entry) = [Float::min(r1, r2), Float::max(r1, r2)]
        .into_iter()
        .find(|&s| {
            let x = d - toward * s;
            let rho = g - s * k * wa;
            rho >= T::zero() && (across(x) - a * (k * rho)).dot(toward) > T::zero()
        })
    else {
        return RoundGap::Miss;
    };
    // The partner must lie along the edge's extent, where the round surface is the shape's
    // (beyond it are a cylinder's cap, a cone's base, a capsule's or a rounded corner's
    // sphere), give or take the accuracy: a clipped end lies on the extent's end plane, and
    // its partner moves off it by `s · toward·e`, a rounding error when the normal is across
    // the edge (a resting pair), which must not decide.
    let t = height(&(q - toward * entry));
    let slack = T::TOLERANCES.accuracy * Float::abs(t1 - t0);
    let (low, high) = (Float::min(t0, t1), Float::max(t0, t1));
    if t >= low - slack && t <= high + slack {
        RoundGap::Gap(entry)
    } else {
        RoundGap::Beyond
    }
}

/// How far `other` lies beyond face `face` along the face's normal: the smallest height of its
/// vertices above the face's plane (negative when it reaches below). A NaN height is passed
/// over (`h < m` is false for it), as `Float::min` does.
fn separation<T: Real>(face: &SupportFeature<T>, other: &SupportFeature<T>) -> T {
    let (origin, normal) = (face.vertices[0], face.normal.into_inner());
    other.vertices.iter().fold(T::infinity(), |m, v| {
        let h = (v - origin).dot(&normal);
        if h < m { h } else { m }
    })
}

/// Names every candidate by the rule of the module doc: each side's lowest-dimensional feature
/// within `tau` (its own id), unless it inherits the id of a point of last frame's whose
/// features are within `2 tau` of it and which was within `2 tau` of it on both shapes (of
/// several, the nearest on A); then two clipped candidates with one id more than `tau` apart
/// are parted ([`keep_labels_of_places_apart`]). A candidate beyond the prediction distance
/// ([`PointCandidate::beyond`]) is only a possible heir: unless it inherits, it is not named
/// (and `build_manifold` drops it).
///
/// `reference` is the clipping's reference side, whose side planes are in `ws.planes`: a point
/// deeper than `tau` inside every side plane of a reference face is farther than `tau` from
/// each of its edges (they lie in those planes) and is named by the face without measuring.
///
/// `witness` is the exact witness's place among the candidates, if it joined as a point of its
/// own. On a side whose feature is a rounded shape's face (a `Round` shape's core face pushed
/// out by the radius along its normal, [`SupportFeature::push_out`]) it lies where the contact
/// normal leaves the core, on the rounding, not on the pushed-out face: it is named by where
/// its core point is on the core face — measured as the witness moved by `r · (face normal −
/// outward)` against the pushed-out face (named by the face, the id followed the face the
/// search reported, which the normal's noise changes: module doc). A rounded edge (a capsule's
/// side, an edge that `edge_of_tilted_face` took) keeps naming the witness on the pushed-out
/// edge: on the core, a witness near a capsule's end would take the end's name, and merge with
/// the clipped point at that end, which on the other shape can lie far from it (rapier's pile
/// lost 7 % of its capsule pairs' distinct points that way).
///
/// Returns whether the candidates came out with ids all different (most frames): then no two
/// are one point, and [`merge_equal_ids`] has nothing to do.
fn name_candidates<T: Real>(
    ws: &mut ManifoldWorkspace<T>,
    tau: T,
    input: &ManifoldInput<'_, T>,
    (reference, witness): (Option<ReferenceSide>, Option<usize>),
) -> bool {
    let reach = tau + tau;
    // Distances are compared squared (no square roots on this per-point path).
    let (tau2, reach2) = (tau * tau, reach * reach);
    let face = |feature: &SupportFeature<T>, side| {
        (reference == Some(side) && feature.vertices.len() >= 3).then_some(feature.id)
    };
    let (face1, face2) = (
        face(&ws.feature1, ReferenceSide::A),
        face(&ws.feature2, ReferenceSide::B),
    );
    let planes = &ws.planes;
    let own =
        |raw: FeatureId, p: &Point<T>, feature: &SupportFeature<T>, face: Option<FeatureId>| {
            if face == Some(raw) && inside_by(planes, p, tau2) {
                raw
            } else {
                own_feature(raw, p, feature, tau2)
            }
        };
    // Candidates still carry their clipping labels (`raw`) here; a candidate that inherits an
    // id is not named by the rule (its own name would be overwritten), so the rule runs last,
    // on the others.
    // Last frame's points, once: on A coordinate by coordinate (the slots of absent points
    // infinitely far), so that a candidate's distances to all of them are computed together,
    // and on B in A's frame (a rigid motion keeps distances).
    let mut on_a = [[T::infinity(); MAX_MANIFOLD_POINTS]; 3];
    let mut on_b = [Point::origin(); MAX_MANIFOLD_POINTS];
    for (i, p) in input.previous.iter().take(MAX_MANIFOLD_POINTS).enumerate() {
        for (axis, x) in on_a.iter_mut().zip(p.local_point1.coords.iter()) {
            axis[i] = *x;
        }
        on_b[i] = input.pos12 * p.local_point2;
    }
    let n = input.contact.normal.into_inner();
    let shift = |shape: &Shape<T>, feature: &SupportFeature<T>, outward: Vector<T>| {
        let (_, radius) = shape.core();
        if radius > T::zero() && feature.vertices.len() >= 3 {
            (feature.normal.into_inner() - outward) * radius
        } else {
            Vector::zeros()
        }
    };
    // The witness's place and where its points are named, on A and on B.
    // (No candidate's place is `usize::MAX`: a frame without the witness names none there.)
    let witness_named = match witness.and_then(|k| Some((k, ws.candidates.get(k)?))) {
        Some((k, c)) => (
            k,
            c.point1 + shift(input.shape1, &ws.feature1, n),
            c.point2 + shift(input.shape2, &ws.feature2, -n),
        ),
        None => (usize::MAX, Point::origin(), Point::origin()),
    };
    // Each candidate inherits from the nearest on A of last frame's points that may name it (of
    // equally near ones, the first of last frame's), whether or not another candidate does.
    ws.labels.clear();
    ws.taken.clear();
    for (k, c) in ws.candidates.iter_mut().enumerate() {
        ws.labels.push(c.id);
        let (named1, named2) = named_at(k, c, &witness_named);
        let p = &c.point1;
        let distances2: [T; MAX_MANIFOLD_POINTS] = core::array::from_fn(|i| {
            let (dx, dy, dz) = (on_a[0][i] - p.x, on_a[1][i] - p.y, on_a[2][i] - p.z);
            dx * dx + dy * dy + dz * dz
        });
        let mut heir: Option<(T, usize)> = None;
        let last = input.previous.iter().zip(&on_b).zip(&distances2);
        for (i, ((p, point2), &distance2)) in last.enumerate() {
            let close = distance2 <= reach2 && (point2 - c.point2).norm_squared() <= reach2;
            if close
                && heir.is_none_or(|(nearest2, _)| distance2 < nearest2)
                && (may_name(p.id.a(), c.id.a(), named1, &ws.feature1, reach2)
                    || placed_within((input.shape1, None), p.id.a(), named1, reach2))
                && (may_name(p.id.b(), c.id.b(), named2, &ws.feature2, reach2)
                    || placed_within((input.shape2, Some(input.pos12)), p.id.b(), named2, reach2))
            {
                heir = Some((distance2, i));
            }
        }
        ws.taken.push(heir.is_some());
        if let Some((_, i)) = heir {
            c.id = input.previous[i].id;
        }
    }
    // Candidates beyond the prediction that inherit nothing are dropped (`build_manifold`).
    for (k, (c, &taken)) in ws.candidates.iter_mut().zip(&ws.taken).enumerate() {
        if taken || c.beyond {
            continue;
        }
        let (named1, named2) = named_at(k, c, &witness_named);
        c.id = ContactId::new(
            own(c.id.a(), named1, &ws.feature1, face1),
            own(c.id.b(), named2, &ws.feature2, face2),
        );
    }
    // Ids all different leave no two named alike: nothing to take back.
    let distinct = ids_distinct(&ws.candidates);
    if distinct {
        return true;
    }
    let incident = match reference {
        Some(ReferenceSide::A) => Some((true, &ws.feature2)),
        Some(ReferenceSide::B) => Some((false, &ws.feature1)),
        None => None,
    };
    let planes = &ws.planes;
    let grazing = |label: ContactId| {
        incident.is_some_and(|(reference_is_a, incident)| {
            grazing_crossing(label, reference_is_a, incident, planes)
        })
    };
    let previous_at = |id: ContactId| {
        input
            .previous
            .iter()
            .find(|p| p.id == id)
            .map(|p| p.local_point1)
    };
    keep_labels_of_places_apart(
        &mut ws.candidates,
        (&ws.labels, &mut ws.taken, witness_named.0),
        &mut ws.apart,
        tau2,
        (grazing, previous_at),
    );
    false
}

/// One name, one place: two clipped candidates (`labels`: every candidate's clipping label;
/// `inherited`: which inherited last frame's id; the exact witness, at `witness`, is left out —
/// its label names two whole features — and so is a candidate beyond the prediction distance
/// that inherited nothing) that came out with the same id though more than `τ` (`sqrt(tau2)`)
/// apart on A — an edge cutting a face's corner off by a short chord, both ends within `τ` of
/// the corner, or a chord's ends, one point while less than `τ` apart, that have moved apart
/// since — are two places, not one point that would jump between them with the pose noise
/// (`apart` is scratch):
///
/// * neither inherited the id, and no candidate did: both take back their clipping labels (a
///   chord's end is labelled by the face edge whose side plane cut it); where another one
///   inherited it, each is parted from that one alone (one within `τ` of it is its place);
/// * one inherited it (both: the one nearer last frame's point with that id, from
///   `previous_at`): it keeps the id, the other takes back its label — unless either is a
///   grazing crossing (`grazing` of its label, [`grazing_crossing`]): along aligned box edges
///   the pose noise places such crossings anywhere along the edge, and one near a corner
///   stays one point with the corner's.
///
/// A parted candidate no longer counts as inheriting (`inherited` is cleared: one beyond the
/// prediction distance is then dropped); a label taken back is inherited next frame like any
/// id.
fn keep_labels_of_places_apart<T: Real>(
    candidates: &mut [PointCandidate<T>],
    (labels, inherited, witness): (&[ContactId], &mut [bool], usize),
    apart: &mut Vec<bool>,
    tau2: T,
    (grazing, previous_at): (
        impl Fn(ContactId) -> bool,
        impl Fn(ContactId) -> Option<Point<T>>,
    ),
) {
    let mut any = false;
    // Clipped candidates only: not the witness, not one beyond the prediction that inherited
    // nothing (it is dropped).
    let clipped = |k: usize| k != witness && (inherited[k] || !candidates[k].beyond);
    // Whether some clipped candidate inherited `id`: then the others are parted from it alone.
    let heir_of = |id: ContactId| {
        (0..candidates.len()).any(|k| inherited[k] && candidates[k].id == id && clipped(k))
    };
    for i in 0..candidates.len() {
        for j in i + 1..candidates.len() {
            let (a, b) = (&candidates[i], &candidates[j]);
            if a.id != b.id
                || (a.point1 - b.point1).norm_squared() <= tau2
                || !clipped(i)
                || !clipped(j)
            {
                continue;
            }
            let parted = match (inherited[i], inherited[j]) {
                (false, false) if heir_of(a.id) => [false, false],
                (false, false) => [true, true],
                _ if grazing(labels[i]) || grazing(labels[j]) => [false, false],
                (true, false) => [false, true],
                (false, true) => [true, false],
                (true, true) => {
                    let far2 = |p: &Point<T>| {
                        previous_at(a.id).map_or(T::zero(), |q| (p - q).norm_squared())
                    };
                    let b_nearer = far2(&b.point1) < far2(&a.point1);
                    [b_nearer, !b_nearer]
                }
            };
            if !any {
                apart.clear();
                apart.resize(candidates.len(), false);
                any = true;
            }
            apart[i] |= parted[0];
            apart[j] |= parted[1];
        }
    }
    if any {
        // A parted candidate no longer carries an inherited id.
        for (((c, &label), inherited), _) in candidates
            .iter_mut()
            .zip(labels)
            .zip(inherited.iter_mut())
            .zip(&*apart)
            .filter(|(_, a)| **a)
        {
            c.id = label;
            *inherited = false;
        }
    }
}

/// Whether no two candidates have the same id (pairwise: a handful of candidates).
fn ids_distinct<T: Real>(candidates: &[PointCandidate<T>]) -> bool {
    candidates
        .iter()
        .enumerate()
        .all(|(i, c)| candidates[i + 1..].iter().all(|d| d.id != c.id))
}

/// Whether the clipping label `label` is an incident edge's crossing of a side plane it runs
/// along within [`FLAT_FEATURE_ANGLE`] (a grazing crossing, which the pose noise places
/// anywhere along the edge): `incident` is the incident feature (A's frame), `reference_is_a`
/// whether A's feature is the reference.
fn grazing_crossing<T: Real>(
    label: ContactId,
    reference_is_a: bool,
    incident: &SupportFeature<T>,
    planes: &[SidePlane<T>],
) -> bool {
    let (on_reference, on_incident) = if reference_is_a {
        (label.a(), label.b())
    } else {
        (label.b(), label.a())
    };
    let FeatureId::Edge(edge) = on_incident else {
        return false;
    };
    let Some(plane) = planes.iter().find(|p| p.feature == on_reference) else {
        return false;
    };
    let Some(j) = incident.edge_ids.iter().position(|&e| e == edge) else {
        return false;
    };
    let v = &incident.vertices;
    if j >= v.len() {
        return false;
    }
    let [from, to] = edge_ends(j, v.len());
    let direction = v[to] - v[from];
    let sin_flat = Float::sin(T::lit(FLAT_FEATURE_ANGLE));
    Float::abs(direction.dot(&plane.normal)) <= sin_flat * direction.norm() * plane.normal.norm()
}

/// Where candidate `k` (`c`) is named, on A and on B: at its points, or where `witness` (its
/// place and points, see [`name_candidates`]) says if it is the witness.
#[inline]
fn named_at<'a, T: Real>(
    k: usize,
    c: &'a PointCandidate<T>,
    witness: &'a (usize, Point<T>, Point<T>),
) -> (&'a Point<T>, &'a Point<T>) {
    if k == witness.0 {
        (&witness.1, &witness.2)
    } else {
        (&c.point1, &c.point2)
    }
}

/// Whether `p` is inside every side plane by more than `sqrt(tau2)`.
fn inside_by<T: Real>(planes: &[SidePlane<T>], p: &Point<T>, tau2: T) -> bool {
    planes.iter().all(|plane| {
        let height = (p - plane.origin).dot(&plane.normal);
        height < T::zero() && height * height > tau2 * plane.normal.norm_squared()
    })
}

/// The name of a point at `p` labelled `raw` by clipping on one side whose supporting feature
/// is `feature`: the lowest-dimensional part of `raw` within `sqrt(tau2)` of `p` — the nearest
/// vertex (of the edge `raw`, or of the face `raw`), else the nearest edge (of the face `raw`),
/// else `raw` itself. Of equally near parts, the first in the feature's order.
fn own_feature<T: Real>(
    raw: FeatureId,
    p: &Point<T>,
    feature: &SupportFeature<T>,
    tau2: T,
) -> FeatureId {
    let (vs, n) = (&feature.vertices, feature.vertices.len());
    if n < 2 {
        return raw;
    }
    let vertex = |j: usize| {
        distance2_within(&vs[j], p, tau2).map(|d2| (FeatureId::Vertex(feature.vertex_ids[j]), d2))
    };
    let edge = |k: usize| {
        let [i, j] = edge_ends(k, n);
        let d2 = segment_distance2(&vs[i], &vs[j], p);
        (d2 <= tau2).then_some((FeatureId::Edge(feature.edge_ids[k]), d2))
    };
    let named = match raw {
        FeatureId::Vertex(_) => None,
        FeatureId::Edge(e) => feature
            .edge_ids
            .iter()
            .position(|&x| x == e)
            .and_then(|k| nearest(edge_ends(k, n).into_iter().filter_map(vertex))),
        FeatureId::Face(_) => nearest((0..n).filter_map(vertex))
            .or_else(|| nearest((0..n.min(feature.edge_ids.len())).filter_map(edge))),
    };
    named.unwrap_or(raw)
}

/// The nearest of `parts` (features with their squared distances); the first of equally near
/// ones.
fn nearest<T: Real>(parts: impl Iterator<Item = (FeatureId, T)>) -> Option<FeatureId> {
    parts
        .fold(None, |best: Option<(FeatureId, T)>, (f, d2)| match best {
            Some((_, b2)) if !(d2 < b2) => best,
            _ => Some((f, d2)),
        })
        .map(|(f, _)| f)
}

/// Whether the feature `f` of last frame's id may name a point at `p` labelled `raw` on this
/// side (the hysteresis of the module doc): `f` is `raw`, or holds it (an edge at the vertex
/// `raw`, the whole supporting feature), or is a part of `raw` within `sqrt(reach2)` of `p` (a
/// vertex of the edge `raw`; a vertex or an edge of the face `raw`) — a point labelled by the
/// face last frame and clipped on its edge now keeps the face's name while it stays within
/// reach, and the other way round.
///
/// Inline: most candidates are asked about their own label (`f` is `raw`), which the caller
/// answers without a call; the parts are measured out of line ([`may_name_part`]).
#[inline]
fn may_name<T: Real>(
    f: FeatureId,
    raw: FeatureId,
    p: &Point<T>,
    feature: &SupportFeature<T>,
    reach2: T,
) -> bool {
    f == raw
        || (f == feature.id && raw.dimension() < feature.id.dimension())
        || may_name_part(f, raw, p, feature, reach2)
}

/// [`may_name`] where `f` is neither `raw` nor the whole supporting feature: a part of `raw`
/// within `sqrt(reach2)` of `p`, or an edge at the vertex `raw`.
#[inline(never)]
fn may_name_part<T: Real>(
    f: FeatureId,
    raw: FeatureId,
    p: &Point<T>,
    feature: &SupportFeature<T>,
    reach2: T,
) -> bool {
    let (vs, n) = (&feature.vertices, feature.vertices.len());
    let vertex_at = |v: u32| feature.vertex_ids.iter().position(|&x| x == v);
    let edge_at = |e: u32| feature.edge_ids.iter().position(|&x| x == e);
    match (raw, f) {
        // The edges holding the vertex raw.
        (FeatureId::Vertex(v), FeatureId::Edge(e)) => {
            let m = feature.edge_ids.len();
            vertex_at(v).filter(|_| m > 0).is_some_and(|k| {
                feature.edge_ids[k.min(m - 1)] == e
                    || (n >= 3 && feature.edge_ids[(k + m - 1) % m] == e)
            })
        }
        // A vertex of the edge raw, within reach.
        (FeatureId::Edge(e), FeatureId::Vertex(v)) if n >= 2 => match (edge_at(e), vertex_at(v)) {
            (Some(k), Some(j)) => {
                edge_ends(k, n).contains(&j) && (vs[j] - p).norm_squared() <= reach2
            }
            _ => false,
        },
        // A vertex or an edge of the face raw, within reach.
        (FeatureId::Face(_), FeatureId::Vertex(v)) if n >= 2 => {
            vertex_at(v).is_some_and(|j| (vs[j] - p).norm_squared() <= reach2)
        }
        (FeatureId::Face(_), FeatureId::Edge(e)) if n >= 2 => {
            edge_at(e).filter(|&k| k < n).is_some_and(|k| {
                let [i, j] = edge_ends(k, n);
                segment_distance2(&vs[i], &vs[j], p) <= reach2
            })
        }
        _ => false,
    }
}

/// Whether `shape` places its feature `f` within `sqrt(reach2)` of `p` (A's frame; `pose`: the
/// shape's pose in it, `None` for A itself; [`FeatureMap::local_feature_distance`]): last
/// frame's feature of a point on the other part of a curved surface than this frame's
/// supporting feature (a cylinder's cap polygon vertex and its side line's end at one place on
/// the rim) names it while that near. The shape measures what a feature stands for (a side
/// line's whole surface, a rim end's whole circle, a rounded vertex's sphere), which reaches
/// wider than the feature a frame reports; the caller's `2τ` check against last frame's point,
/// on both shapes, is what bounds the inheritance. Kept out of line: most frames never ask.
#[cold]
#[inline(never)]
fn placed_within<T: Real>(
    (shape, pose): (&Shape<T>, Option<&Isometry<T>>),
    f: FeatureId,
    p: &Point<T>,
    reach2: T,
) -> bool {
    let local = pose.map_or(*p, |pose| pose.inverse_transform_point(p));
    shape
        .local_feature_distance(f, &local)
        .is_some_and(|d| d * d <= reach2)
}

/// The places of the two ends of edge `k` of a feature with `n` vertices (edge `k` runs from
/// vertex `k` to the next, the last one closing the loop).
fn edge_ends(k: usize, n: usize) -> [usize; 2] {
    [k, if k + 1 >= n { 0 } else { k + 1 }]
}

/// `|a − b|²` where it is at most `limit2`, else `None`. The x part alone turns most points
/// away: the rounded sum of three non-negative squares is at least each of them, so an
/// `(a.x − b.x)²` above `limit2` puts the sum above it too, as computed in full.
fn distance2_within<T: Real>(a: &Point<T>, b: &Point<T>, limit2: T) -> Option<T> {
    let dx = a.x - b.x;
    if dx * dx > limit2 {
        return None;
    }
    let d2 = (a - b).norm_squared();
    (d2 <= limit2).then_some(d2)
}

/// Removes every candidate within `radius` of an earlier one (keeping the deeper of the two in
/// the earlier slot, with the earlier one's id).
fn remove_duplicates<T: Real>(candidates: &mut Vec<PointCandidate<T>>, radius: T) {
    let radius2 = radius * radius;
    merge_into_earlier(
        candidates,
        |k, c| distance2_within(&k.point1, &c.point1, radius2).is_some(),
        |k, c| PointCandidate { id: k.id, ..*c },
    );
}

/// Candidates with the same id are one point, in the earlier slot: of those within `slack` of
/// the id's deepest depth, the one nearest (on A) to where last frame's point with that id was
/// (`previous`, A's frame, by the candidates' `previous_rank`); without such a point, the
/// deepest. Along aligned box edges a corner's point and the grazing crossings that join it
/// differ in depth by the pose noise, and on a cap the exact witness and the rim vertex it is
/// named by differ by the cap's sagitta times its tilt; the deeper would take the point up to
/// `2τ` away and back, frame to frame, under one id. The kept point is at most `slack`
/// shallower than the deepest (the preference is a ranking — the id's points within `slack`
/// by their distance from last frame's, above the others by depth —, so the order of the
/// candidates does not matter but for exact ties, which keep the earlier). `shares` is scratch.
fn merge_equal_ids<T: Real>(
    candidates: &mut Vec<PointCandidate<T>>,
    previous: &[ContactPoint<T>],
    slack: T,
    shares: &mut Vec<u8>,
) {
    // The rank of a candidate of an id whose deepest lies at `floor − slack`: within the
    // slack (and in last frame's manifold), by the distance from last frame's point; the
    // others after them, by depth.
    let rank = |c: &PointCandidate<T>, floor: T| match c
        .previous_rank
        .and_then(|r| previous.get(usize::from(r)))
    {
        Some(p) if c.dist <= floor => (false, (c.point1 - p.local_point1).norm_squared()),
        _ => (true, c.dist),
    };
    // Which candidates share their id with a later one (the first of a group) and which with
    // an earlier one (merged into it), in one pass over the pairs: most ids are a group of
    // one, kept as they are.
    const LATER: u8 = 1;
    const EARLIER: u8 = 2;
    shares.clear();
    shares.resize(candidates.len(), 0);
    for (i, c) in candidates.iter().enumerate() {
        for (j, d) in candidates.iter().enumerate().skip(i + 1) {
            if c.id == d.id {
                shares[i] |= LATER;
                shares[j] |= EARLIER;
            }
        }
    }
    let mut kept = 0;
    for i in 0..candidates.len() {
        let best = match shares[i] {
            0 => i,
            s if s & EARLIER != 0 => continue,
            _ => {
                // The first of an id holds its group (`candidates[i..]` with that id), walked
                // by place: no candidate is copied but the one kept. The slots below `kept`
                // hold the groups already merged, and none of them is read again.
                let id = candidates[i].id;
                let group = &candidates[i..];
                let members = || group.iter().enumerate().filter(|(_, c)| c.id == id);
                let floor =
                    members().fold(T::infinity(), |d, (_, c)| Float::min(d, c.dist)) + slack;
                let mut best = (0, rank(&group[0], floor));
                for (j, c) in members().skip(1) {
                    let r = rank(c, floor);
                    if r < best.1 {
                        best = (j, r);
                    }
                }
                i + best.0
            }
        };
        candidates[kept] = candidates[best];
        kept += 1;
    }
    candidates.truncate(kept);
}

/// Merges every candidate into the first earlier one it is `same` as: the earlier slot becomes
/// `merged(earlier, later)` when the later one is deeper, and stays otherwise; order kept.
fn merge_into_earlier<T: Real>(
    candidates: &mut Vec<PointCandidate<T>>,
    same: impl Fn(&PointCandidate<T>, &PointCandidate<T>) -> bool,
    merged: impl Fn(&PointCandidate<T>, &PointCandidate<T>) -> PointCandidate<T>,
) {
    let mut kept = 0;
    for i in 0..candidates.len() {
        // The candidate is read in place: most stay where they are, and are not copied.
        let (earlier, rest) = candidates.split_at_mut(i);
        let c = &rest[0];
        match earlier[..kept].iter_mut().find(|k| same(k, c)) {
            Some(k) => {
                if c.dist < k.dist {
                    *k = merged(k, c);
                }
            }
            None => {
                if kept != i {
                    candidates[kept] = candidates[i];
                }
                kept += 1;
            }
        }
    }
    candidates.truncate(kept);
}

/// A length for the tolerances: the larger distance of a feature vertex from the first one.
/// The first vertex itself is left out (0 from itself, or NaN, which the maximum passes over
/// either way), and so is a NaN distance: `d > m` is false for it, as `Float::max` ignores it.
fn extent<T: Real>(feature: &SupportFeature<T>) -> T {
    let Some((first, rest)) = feature.vertices.split_first() else {
        return T::zero();
    };
    let far2 = rest.iter().fold(T::zero(), |m, p| {
        let d = (p - first).norm_squared();
        if d > m { d } else { m }
    });
    Float::sqrt(far2)
}

#[cfg(test)]
mod tests {
    use super::*;
    use nphase_shapes::{Capsule, Cone, Cuboid, Cylinder, Round, SupportMap};
    use rand::{Rng, SeedableRng};
    use std::sync::Arc;

    /// `round_gap` against the sides of cylinders, cones and capsules (axis y, extent
    /// `|y| ≤ h`), measured independently in f64 from the feature's own numbers: a gap it
    /// gives puts `q − s·toward` on the side (radius `ρ(y)`, within the extent) where the side
    /// faces `toward`, within `tol` × the shape's size; where it gives none, the line
    /// `q − s·toward` enters the side's infinite solid (found by sampling and bisection) beyond
    /// the extent, or not at all.
    fn round_gap_lands_on_the_round_surface_or_reports_a_miss<T: Real>(tol: f64) {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(3);
        let (mut hits, mut misses) = ([0; 3], [0; 3]);
        for k in 0..6000 {
            let (h, r) = (rng.random_range(0.1..1.0), rng.random_range(0.1..1.0));
            let (h64, r64) = (T::lit(h).as_f64(), T::lit(r).as_f64());
            let kind = k % 3;
            let azimuth = rng.random_range(0.0..core::f64::consts::TAU);
            let (shape, lift): (Shape<T>, f64) = match kind {
                0 => (
                    Shape::Cylinder(Cylinder::new(T::lit(h), T::lit(r)).expect("valid")),
                    0.0,
                ),
                1 => (
                    Shape::Capsule(Capsule::new(T::lit(h), T::lit(r)).expect("valid")),
                    0.0,
                ),
                _ => (
                    Shape::Cone(Cone::new(T::lit(h), T::lit(r)).expect("valid")),
                    (r / (2.0 * h)).atan(),
                ),
            };
            // The radius of the side's solid at height y, where it has one.
            let rho = |y: f64| match kind {
                2 => (y <= h64).then(|| r64 * (h64 - y) / (2.0 * h64)),
                _ => Some(r64),
            };
            let tol = tol * (h64 + r64);
            // Directions within 0.6 rad of the side's normal: the side line.
            let lift = lift + rng.random_range(-0.6f64..0.6);
            let dir = Vector::new(
                T::lit(azimuth.cos() * lift.cos()),
                T::lit(lift.sin()),
                T::lit(azimuth.sin() * lift.cos()),
            );
            let mut feature = SupportFeature::default();
            shape.local_support_feature(&dir, &mut feature);
            if feature.vertices.len() != 2 {
                continue;
            }
            assert!(feature.round_axis.is_some(), "{shape:?} along {dir:?}");
            let toward = feature.normal.into_inner();
            let offset = Vector::new(
                rng.random_range(-1.0..1.0),
                rng.random_range(-0.3..0.3),
                rng.random_range(-1.0..1.0),
            ) * r;
            let along = T::lit(rng.random_range(-0.2..1.2));
            let q = feature.vertices[0].lerp(&feature.vertices[1], along) + offset.map(T::lit);
            let f64s = |v: Vector<T>| v.map(|x| x.as_f64());
            let (q64, w) = (f64s(q.coords), f64s(toward));
            let radial = |p: &Vector<f64>| p.x.hypot(p.z);
            let inside = |p: &Vector<f64>| rho(p.y).is_some_and(|limit| radial(p) < limit);
            match round_gap(&q, &feature, &toward) {
                Some(s) => {
                    hits[kind] += 1;
                    let p = q64 - w * s.as_f64();
                    let what = || format!("{shape:?}: {p:?}");
                    let limit = rho(p.y).unwrap_or(f64::NAN);
                    assert!((radial(&p) - limit).abs() <= tol, "{} off the side", what());
                    assert!(p.y.abs() <= h64 + tol, "{} beyond the extent", what());
                    // Just outside along toward, just inside against it.
                    let step = 10.0 * tol;
                    assert!(
                        !inside(&(p + w * step)) && inside(&(p - w * step)),
                        "{} not where the line enters the side",
                        what()
                    );
                }
                None => {
                    misses[kind] += 1;
                    let size = 4.0 * (h64 + r64);
                    let at = |i: usize| -size + 2.0 * size * i as f64 / 4000.0;
                    if let Some(i) = (1..=4000).find(|&i| inside(&(q64 - w * at(i)))) {
                        let (mut out, mut inn) = (at(i - 1), at(i));
                        for _ in 0..60 {
                            let mid = 0.5 * (out + inn);
                            if inside(&(q64 - w * mid)) {
                                inn = mid;
                            } else {
                                out = mid;
                            }
                        }
                        let p = q64 - w * inn;
                        assert!(
                            p.y.abs() >= h64 - tol || i == 1,
                            "{shape:?}: missed {p:?} within the extent"
                        );
                    }
                }
            }
        }
        for kind in 0..3 {
            assert!(
                hits[kind] > 300 && misses[kind] > 100,
                "hits {hits:?}, misses {misses:?}"
            );
        }
    }

    #[test]
    fn round_gap_lands_on_the_round_surface_or_reports_a_miss_f64() {
        round_gap_lands_on_the_round_surface_or_reports_a_miss::<f64>(1e-9);
    }

    #[test]
    fn round_gap_lands_on_the_round_surface_or_reports_a_miss_f32() {
        round_gap_lands_on_the_round_surface_or_reports_a_miss::<f32>(1e-4);
    }

    /// `edge_of_tilted_face` on boxes, plain and rounded, along random directions, the
    /// contact's witness where the direction puts it: across an edge (perpendicular to it within
    /// 1°, leaning more than 3° from both its faces' normals), the witness on the edge, the face
    /// gives way to that edge — its two corners, pushed out by the border radius across the edge
    /// toward the direction, round about the edge itself. The face stays within [`EDGE_LEAN`] of
    /// its normal (the witness on its edge even), off every edge by more than 3° (a corner's
    /// directions, the witness at the corner), where the witness is in the face's middle
    /// (a normal off by rounding), and leaning 2–2.8° toward a corner, both edges there
    /// perpendicular to the direction within 2° (the witness at the corner); a cylinder's cap
    /// (a polygonised circle) always stays.
    fn tilted_faces_give_way_to_the_edge_across_the_direction<T: Real>(tol: f64) {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(5);
        let unit = |v: Vector<f64>| v.map(T::lit);
        let mut seen = [0; 5];
        for k in 0..5000 {
            let half = Vector::<f64>::from_fn(|_, _| rng.random_range(0.1..1.0));
            let radius = if k % 2 == 0 {
                0.0
            } else {
                rng.random_range(0.01..0.2)
            };
            let cuboid = Shape::Cuboid(Cuboid::new(unit(half)).expect("valid"));
            let shape = if radius > 0.0 {
                Shape::Round(Arc::new(Round::new(cuboid, T::lit(radius)).expect("valid")))
            } else {
                cuboid
            };
            // An edge along axis `a`, at the signs `(sb, sc)` of the other two axes.
            let a = rng.random_range(0..3);
            let (b, c) = ((a + 1) % 3, (a + 2) % 3);
            let (sb, sc) = (rng.random_bool(0.5), rng.random_bool(0.5));
            let sign = |s: bool| if s { 1.0 } else { -1.0 };
            let mut corner = Vector::<f64>::zeros();
            corner[b] = sign(sb) * half[b];
            corner[c] = sign(sc) * half[c];
            let steep = rng.random_range(0.06..1.51);
            let across_edge = rng.random_range(-1.0..1.0f64).to_radians();
            let case = (k / 2) % 5;
            let (lean, tilt) = match case {
                0 | 3 => (across_edge, steep),
                1 => (0.0, rng.random_range(0.0..0.9 * EDGE_LEAN)),
                _ => (
                    rng.random_range(3.0..40.0f64).to_radians() * sign(rng.random_bool(0.5)),
                    steep,
                ),
            };
            let mut dir = Vector::<f64>::zeros();
            dir[b] = sign(sb) * tilt.cos() * lean.cos();
            dir[c] = sign(sc) * tilt.sin() * lean.cos();
            dir[a] = lean.sin();
            let sa = rng.random_bool(0.5);
            if case == 4 {
                // Off face b's normal toward the corner, by 1.45–1.95° about each of its edges
                // there (along a and along c).
                let mut off = || rng.random_range(1.45..1.95f64).to_radians().tan();
                dir = Vector::ith(b, sign(sb));
                dir[a] = sign(sa) * off();
                dir[c] = sign(sc) * off();
                dir.normalize_mut();
            }
            let across = (dir - Vector::ith(a, dir[a])).normalize();
            let mut feature = SupportFeature::default();
            shape.local_support_feature(&unit(dir), &mut feature);
            let before = feature.clone();
            let along = rng.random_range(-1.0..1.0) * half[a];
            let witness = match case {
                0 | 1 => corner + Vector::ith(a, along) + dir * radius,
                2 => corner + Vector::ith(a, sign(lean > 0.0) * half[a]) + dir * radius,
                4 => corner + Vector::ith(a, sign(sa) * half[a]) + dir * radius,
                _ => {
                    before
                        .vertices
                        .iter()
                        .map(|v| v.coords.map(|x| x.as_f64()))
                        .sum::<Vector<f64>>()
                        / before.vertices.len() as f64
                }
            };
            let dir_t = unit(dir);
            let dir_t = dir_t / dir_t.norm();
            let witness = Point::from(unit(witness));
            edge_of_tilted_face(&shape, &mut feature, &dir_t, (&witness, T::one()), true);
            seen[case] += 1;
            if case == 0 {
                assert!(
                    matches!(feature.id, FeatureId::Edge(_)),
                    "{k}: {:?}",
                    feature.id
                );
                let mut ends: Vec<f64> = feature.vertices.iter().map(|v| v[a].as_f64()).collect();
                ends.sort_by(f64::total_cmp);
                assert!(
                    (ends[0] + half[a]).abs() < tol && (ends[1] - half[a]).abs() < tol,
                    "{k}: {ends:?} {half:?}"
                );
                for v in &feature.vertices {
                    let v = v.coords.map(|x| x.as_f64());
                    let off = v - corner - Vector::ith(a, v[a]);
                    assert!(
                        (off - across * radius).norm() < tol * 10.0,
                        "{k}: {off:?} {across:?} {radius}"
                    );
                }
                assert_eq!(feature.round_axis.is_some(), radius > 0.0, "{k}");
                if let Some(axis) = &feature.round_axis {
                    assert!(
                        axis.distance(&Point::from(unit(corner))).as_f64() < tol,
                        "{k}: {axis:?}"
                    );
                }
            } else {
                assert_eq!(feature, before, "{k}: case {case}, dir {dir:?}");
            }
        }
        let cap = Shape::Cylinder(Cylinder::new(T::lit(0.5), T::lit(0.5)).expect("valid"));
        for k in 0..360 {
            let (a, t) = (T::lit(f64::from(k).to_radians()), T::lit(0.5));
            let dir = Vector::new(
                Float::cos(a) * Float::sin(t),
                Float::cos(t),
                Float::sin(a) * Float::sin(t),
            );
            let mut feature = SupportFeature::default();
            cap.local_support_feature(&dir, &mut feature);
            let before = feature.clone();
            let witness = cap.local_support_point(&dir);
            edge_of_tilted_face(&cap, &mut feature, &dir, (&witness, T::one()), true);
            assert_eq!(feature, before, "cylinder cap, azimuth {k}°");
        }
        assert!(seen.iter().all(|&n| n == 1000), "{seen:?}");
    }

    /// The corner rule of `edge_of_tilted_face` on a hull's obtuse corner (160°: both face
    /// edges through it stay within 2° of perpendicular to the directions below leaning up to
    /// about 7.4° toward it): leaning 3° (under twice 2°) the face stays, it touches with the
    /// corner; leaning 6° it gives way to the more perpendicular of the two edges; leaning 12°
    /// only that edge is perpendicular, and it gives way to it; leaning 35° neither is, and the
    /// face stays. The right-angled corners of the box test above lean at most 2.9° before an
    /// edge stops qualifying.
    #[test]
    fn an_obtuse_hull_corner_keeps_its_face_below_twice_the_flat_angle() {
        // A prism: the top face (y = 0) is a pentagon with the obtuse corner c at the origin,
        // its neighbours a and b 0.176 behind (z), so the corner's interior angle is 160°.
        let outline = [
            Point::new(0.0, 0.0, 0.0),
            Point::new(1.0, 0.0, -0.176),
            Point::new(1.0, 0.0, -1.0),
            Point::new(-1.0, 0.0, -1.0),
            Point::new(-1.0, 0.0, -0.176),
        ];
        let points: Vec<Point<f64>> = outline
            .iter()
            .flat_map(|p| [*p, p - Vector::y() * 0.5])
            .collect();
        let prism = Shape::convex(&points).expect("valid prism");
        let corner = Point::origin();
        // Toward the corner (+z), a little toward b (+x): the edge c–b is the more
        // perpendicular one.
        let toward = Vector::new(0.1, 0.0, 1.0).normalize();
        for (lean, gives_way) in [(3.0f64, false), (6.0, true), (12.0, true), (35.0, false)] {
            let lean = lean.to_radians();
            let dir = UnitVector::new_normalize(Vector::y() * lean.cos() + toward * lean.sin());
            let mut feature = SupportFeature::default();
            prism.local_support_feature(&Vector::y(), &mut feature);
            assert!(matches!(feature.id, FeatureId::Face(_)), "{feature:?}");
            let gave = edge_of_tilted_face(&prism, &mut feature, &dir, (&corner, 1.0), true);
            assert_eq!(gave, gives_way, "lean {lean}: {feature:?}");
            if gives_way {
                assert!(matches!(feature.id, FeatureId::Edge(_)), "{feature:?}");
                let mut ends: Vec<_> = feature.vertices.iter().map(|v| v.x.round()).collect();
                ends.sort_by(f64::total_cmp);
                assert_eq!(
                    ends,
                    [0.0, 1.0],
                    "the edge from the corner to b: {feature:?}"
                );
            } else {
                assert!(matches!(feature.id, FeatureId::Face(_)), "{feature:?}");
            }
        }
    }

    #[test]
    fn tilted_faces_give_way_to_the_edge_across_the_direction_f64() {
        tilted_faces_give_way_to_the_edge_across_the_direction::<f64>(1e-12);
    }

    #[test]
    fn tilted_faces_give_way_to_the_edge_across_the_direction_f32() {
        tilted_faces_give_way_to_the_edge_across_the_direction::<f32>(1e-5);
    }

    /// `merge_equal_ids` on interleaved groups: each id keeps one point, in its first
    /// candidate's slot, in the candidates' order; of an id's points within the slack of its
    /// deepest, the one nearest last frame's point with the id, else the deepest; an id of
    /// one point is kept as it is.
    #[test]
    fn equal_ids_merge_into_their_first_slot() {
        let id = |k| ContactId::new(FeatureId::Vertex(k), FeatureId::Face(0));
        let candidate = |k, dist, x, previous_rank| PointCandidate {
            point1: Point::new(x, 0.0, 0.0),
            point2: Point::new(x, 0.0, 0.0),
            dist,
            id: id(k),
            previous_rank,
            beyond: false,
        };
        let previous = |x, k| ContactPoint {
            local_point1: Point::new(x, 0.0, 0.0),
            local_point2: Point::origin(),
            dist: 0.0,
            id: id(k),
            normal_impulse: 0.0,
            tangent_impulse: [0.0; 2],
            persisted: true,
        };
        let mut candidates = vec![
            candidate(0, -0.010, 0.0, None),
            candidate(1, -0.005, 1.0, None),
            candidate(0, -0.020, 0.1, None),
            candidate(2, -0.001, 2.0, None),
            candidate(1, -0.0051, 1.01, Some(0)),
            candidate(0, -0.0195, 0.2, Some(1)),
        ];
        let merged = |candidates: &[PointCandidate<f64>], previous: &[ContactPoint<f64>]| {
            let mut merged = candidates.to_vec();
            merge_equal_ids(&mut merged, previous, 0.001, &mut Vec::new());
            merged
                .iter()
                .map(|c| (c.id, c.point1.x))
                .collect::<Vec<_>>()
        };
        // Id 0: the point within the slack of the deepest (-0.020) nearest last frame's point
        // (at 0.2), not the deepest; id 1: the deepest by 1e-4, within the slack, and last
        // frame's; id 2 alone.
        let previous_points = [previous(1.02, 1), previous(0.2, 0)];
        assert_eq!(
            merged(&candidates, &previous_points),
            [(id(0), 0.2), (id(1), 1.01), (id(2), 2.0)]
        );
        // Without last frame's points, the deepest of each id.
        candidates.iter_mut().for_each(|c| c.previous_rank = None);
        assert_eq!(
            merged(&candidates, &[]),
            [(id(0), 0.1), (id(1), 1.01), (id(2), 2.0)]
        );
    }
}
