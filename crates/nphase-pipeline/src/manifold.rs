//! Contact manifolds: up to four contact points between two shapes, from their supporting
//! features along the contact normal.
//!
//! Given the exact contact of a pair (normal `n` from A toward B, in A's frame):
//!
//! 1. the supporting features of A along `n` and of B along `−n` (a face polygon — hull faces
//!    in full, cylinder caps and cone bases as regular polygons —, an edge or a vertex, pushed
//!    out by the radius of rounded shapes);
//! 2. a vertex on either side: one point, the exact witness pair;
//! 3. otherwise a *reference* feature (a face rather than an edge; of two faces the one whose
//!    normal is closer to `n`; of two edges A's, and only when they are parallel — crossed
//!    edges touch at the witness alone) and an *incident* one, whose polygon is clipped
//!    against the reference's side planes, which contain `n` ([`crate::clipping`]);
//! 4. each surviving incident vertex becomes a point whose distance is measured along `n` to
//!    the reference plane — its partner on the reference face lies on the face, so no point
//!    is deeper than the exact contact; points further apart than the prediction distance are
//!    dropped, and points closer together than `1e-4 × size` merged;
//! 5. when the clipped points are shallower than the exact contact (a polygonised curve), the
//!    exact witness is added (or replaces a clipped point at the same place), so the deepest
//!    point always agrees with the pair query;
//! 6. more than four points are reduced to four ([`crate::reduction`]).
//!
//! Ids mix the two features' ids with the clipped vertex's id, so a point keeps its id while the
//! same features touch — what a solver needs to warm-start its impulses.

use arrayvec::ArrayVec;
use nphase_math::{Isometry, Point, Real, UnitVector, Vector};
use nphase_shapes::{FeatureId, FeatureMap, Shape, SupportFeature};
use num_traits::Float;

use crate::LocalContact;
use crate::clipping::{ClipVertex, SidePlane, clip_against_planes, mix};
use crate::reduction::{Candidate, reduce_to_four};

/// The most points a manifold holds.
pub const MAX_MANIFOLD_POINTS: usize = 4;

/// Candidate points closer than this fraction of the features' size are one point (clipping
/// makes such twins where an incident vertex lies on a side plane, as with flush faces).
const MERGE_RADIUS: f64 = 1e-4;

/// One contact point of a manifold.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactPoint<T: Real> {
    /// The point on A's surface, A's local frame.
    pub local_point1: Point<T>,
    /// The point on B's surface, B's local frame.
    pub local_point2: Point<T>,
    /// Signed distance along the manifold normal (negative = penetrating).
    pub dist: T,
    /// Feature-pair id, the same while the same features touch.
    pub id: u32,
    /// Solver warm-start data: the normal impulse the engine applied last frame at the point
    /// with this id. The pipeline carries it over from the previous frame's point with the
    /// same id (0 for a new point); the engine writes it after solving.
    pub normal_impulse: T,
    /// Whether a point with this id existed in the previous frame.
    pub persisted: bool,
}

/// The contact manifold of one pair.
#[derive(Clone, Debug, PartialEq)]
pub struct ContactManifold<T: Real> {
    /// Unit normal from A toward B, in A's local frame ([`ContactManifold::world_normal`] maps
    /// it to the world).
    pub local_normal1: UnitVector<T>,
    /// At most four points; empty when the shapes are further apart than the prediction.
    pub points: ArrayVec<ContactPoint<T>, MAX_MANIFOLD_POINTS>,
}

impl<T: Real> Default for ContactManifold<T> {
    fn default() -> Self {
        ContactManifold {
            local_normal1: Vector::y_axis(),
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

/// Scratch buffers of manifold generation, reused across pairs.
#[derive(Debug, Default)]
pub struct ManifoldWorkspace<T: Real> {
    feature1: SupportFeature<T>,
    feature2: SupportFeature<T>,
    polygon: Vec<ClipVertex<T>>,
    scratch: Vec<ClipVertex<T>>,
    planes: Vec<SidePlane<T>>,
    candidates: Vec<PointCandidate<T>>,
}

/// A candidate point in A's frame.
#[derive(Clone, Copy, Debug)]
struct PointCandidate<T: Real> {
    point1: Point<T>,
    point2: Point<T>,
    dist: T,
    id: u32,
}

impl<T: Real> Candidate<T> for PointCandidate<T> {
    fn position(&self) -> Vector<T> {
        self.point1.coords
    }
    fn distance(&self) -> T {
        self.dist
    }
}

/// Fills `points` with the manifold of shapes A (at the origin) and B (at `pos12`) whose exact
/// contact is `contact` (A's frame); see the module doc. Points are kept up to `prediction`.
pub fn build_manifold<T: Real>(
    shape1: &Shape<T>,
    shape2: &Shape<T>,
    pos12: &Isometry<T>,
    contact: &LocalContact<T>,
    prediction: T,
    ws: &mut ManifoldWorkspace<T>,
    points: &mut ArrayVec<ContactPoint<T>, MAX_MANIFOLD_POINTS>,
) {
    points.clear();
    let n = contact.normal.into_inner();
    shape1.local_support_feature(&n, &mut ws.feature1);
    let n_in_b = pos12.rotation.inverse_transform_vector(&-n);
    shape2.local_support_feature(&n_in_b, &mut ws.feature2);
    ws.feature2.transform_by(pos12);
    let feature_ids = mix(ws.feature1.id.code(), ws.feature2.id.code());

    ws.candidates.clear();
    if ws.feature1.vertices.len() > 1 && ws.feature2.vertices.len() > 1 {
        clip_features(ws, &n, prediction, feature_ids);
    }
    let size = shape_size(ws);
    // No pair of surface points is closer along n than the exact contact (n minimises the
    // support gap, and every pair's separation along n is at least that gap). A clipped point
    // deeper than it by more than the accuracy is an artefact of a reference face far from n
    // (a triangle touched on its edge, a polytope face beside an edge contact, a polygonised
    // cap): its projection along n leaves the shapes. Such points are dropped (the exact
    // witness below then stands in for them).
    let accuracy = T::TOLERANCES.accuracy * size;
    ws.candidates.retain(|c| c.dist >= contact.dist - accuracy);
    let merge = T::lit(MERGE_RADIUS) * size;
    remove_duplicates(&mut ws.candidates, merge);
    // The exact witness joins when clipping found nothing or only shallower points (a curved
    // surface polygonised): the deepest point then agrees with the pair query. A clipped point
    // at the same place (within the merge radius) becomes the witness — its id always, its
    // geometry if deeper — whether or not the witness is needed, so that rounding noise never
    // switches the point's id from one frame to the next. (A clipped point there is typically
    // where the incident edge crosses the side planes at a reference vertex: which of the two
    // planes meeting there it crosses first, and so its id, is down to rounding; the witness's
    // id names the vertex.)
    let deepest = ws
        .candidates
        .iter()
        .fold(T::infinity(), |m, c| Float::min(m, c.dist));
    let witness_id = |ws: &ManifoldWorkspace<T>| {
        mix(
            mix(
                touching_part(&ws.feature1, &contact.point1, merge),
                touching_part(&ws.feature2, &contact.point2, merge),
            ),
            u32::MAX,
        )
    };
    let witness = PointCandidate {
        point1: contact.point1,
        point2: contact.point2,
        dist: contact.dist,
        id: 0,
    };
    // The id is only worked out when the witness is kept (most resting contacts clip to
    // points as deep as it, away from it).
    match ws
        .candidates
        .iter()
        .position(|c| (c.point1 - witness.point1).norm() <= merge)
    {
        Some(k) => {
            let id = witness_id(ws);
            let c = &mut ws.candidates[k];
            c.id = id;
            if witness.dist < c.dist {
                *c = PointCandidate { id, ..witness };
            }
        }
        None => {
            if ws.candidates.is_empty() || deepest > contact.dist + T::TOLERANCES.accuracy * size {
                let id = witness_id(ws);
                ws.candidates.push(PointCandidate { id, ..witness });
            }
        }
    }
    reduce_to_four(&mut ws.candidates, &n);
    for c in &ws.candidates {
        points.push(ContactPoint {
            local_point1: c.point1,
            local_point2: pos12.inverse_transform_point(&c.point2),
            dist: c.dist,
            id: c.id,
            normal_impulse: T::zero(),
            persisted: false,
        });
    }
}

/// Clips the incident feature against the reference one and pushes the points within the
/// prediction distance into `ws.candidates`.
fn clip_features<T: Real>(
    ws: &mut ManifoldWorkspace<T>,
    n: &Vector<T>,
    prediction: T,
    feature_ids: u32,
) {
    let face1 = ws.feature1.vertices.len() >= 3;
    let face2 = ws.feature2.vertices.len() >= 3;
    let reference_is_1 = match (face1, face2) {
        (true, true) => ws.feature1.normal.dot(n) >= -ws.feature2.normal.dot(n),
        (false, true) => false,
        _ => true,
    };
    let (reference, incident) = if reference_is_1 {
        (&ws.feature1, &ws.feature2)
    } else {
        (&ws.feature2, &ws.feature1)
    };
    // The reference plane's outward normal: the face normal, or ±n for an edge.
    let outward = if reference.vertices.len() >= 3 {
        reference.normal.into_inner()
    } else if reference_is_1 {
        *n
    } else {
        -n
    };
    // Distances are measured along n; a reference plane nearly parallel to n cannot measure.
    let along = if reference_is_1 {
        outward.dot(n)
    } else {
        -outward.dot(n)
    };
    if !(along > T::lit(0.1)) {
        return;
    }

    ws.planes.clear();
    let rv = &reference.vertices;
    // From the reference feature toward the incident one.
    let toward = if reference_is_1 { *n } else { -n };
    if rv.len() >= 3 {
        // The side planes contain the normal n (not the face normal): a point that survives
        // lies above the reference face *along n*, so the point it is paired with on the face
        // (`v ∓ n·dist`) is on the face, and no point comes out deeper than the exact contact
        // (for a on A, b on B, (b − a)·n ≥ the signed distance). Planes perpendicular to a face
        // tilted from n let incident points through whose partner is off the face, up to
        // |dist|·tan(tilt) deeper than the true depth. ((b − a) × n points outward like
        // (b − a) × f because n·f > 0 and the edge is perpendicular to f.)
        for k in 0..rv.len() {
            let (a, b) = (rv[k], rv[(k + 1) % rv.len()]);
            ws.planes.push(SidePlane {
                origin: a,
                normal: (b - a).cross(&toward),
                id: reference.vertex_ids[k],
            });
        }
    } else {
        // Edge against edge. Crossed edges touch at one point, the exact witness; only
        // (nearly) parallel ones — a capsule lying on a capsule — have an overlap to clip.
        let (e1, e2) = (rv[1] - rv[0], incident.vertices[1] - incident.vertices[0]);
        let sin_flat = Float::sin(T::lit(nphase_shapes::FLAT_FEATURE_ANGLE));
        if e1.cross(&e2).norm() > sin_flat * e1.norm() * e2.norm() {
            return;
        }
        let edge = rv[1] - rv[0];
        ws.planes.push(SidePlane {
            origin: rv[0],
            normal: -edge,
            id: reference.vertex_ids[0],
        });
        ws.planes.push(SidePlane {
            origin: rv[1],
            normal: edge,
            id: reference.vertex_ids[1],
        });
    }
    ws.polygon.clear();
    ws.polygon.extend(
        incident
            .vertices
            .iter()
            .zip(&incident.vertex_ids)
            .map(|(p, &id)| ClipVertex { point: *p, id }),
    );
    clip_against_planes(&mut ws.polygon, &ws.planes, &mut ws.scratch);

    let origin = rv[0];
    for v in &ws.polygon {
        let (point1, point2, dist) = if rv.len() >= 3 {
            let dist = (v.point - origin).dot(&outward) / along;
            if reference_is_1 {
                (v.point - n * dist, v.point, dist)
            } else {
                (v.point, v.point + n * dist, dist)
            }
        } else {
            // Parallel edges: the partner is the closest point of the reference edge, so both
            // points are on their surfaces; `dist` is their separation along n (their
            // difference has a component across n of at most sin(FLAT_FEATURE_ANGLE) × the
            // edge's length, from the edges' misalignment).
            let edge = rv[1] - rv[0];
            let t = Float::min(
                Float::max(
                    (v.point - origin).dot(&edge) / edge.norm_squared(),
                    T::zero(),
                ),
                T::one(),
            );
            let partner = origin + edge * t;
            if reference_is_1 {
                (partner, v.point, (v.point - partner).dot(n))
            } else {
                (v.point, partner, (partner - v.point).dot(n))
            }
        };
        if dist > prediction {
            continue;
        }
        ws.candidates.push(PointCandidate {
            point1,
            point2,
            dist,
            id: mix(feature_ids, v.id),
        });
    }
}

/// The id of the smallest part of `feature` that holds `point` (within `radius`): one of its
/// vertices, one of its edges, or the whole feature. A box corner touching a ball is the same
/// corner whichever of its three faces the supporting-feature query returns for a normal in
/// the corner's normal cone, so the witness keeps its id while the normal wanders in it.
fn touching_part<T: Real>(feature: &SupportFeature<T>, point: &Point<T>, radius: T) -> u32 {
    let vs = &feature.vertices;
    if vs.len() >= 2 {
        if let Some(k) = vs.iter().position(|v| (v - point).norm() <= radius) {
            return FeatureId::Vertex(feature.vertex_ids[k]).code();
        }
        let edges = if vs.len() == 2 { 1 } else { vs.len() };
        for k in 0..edges {
            let (a, b) = (vs[k], vs[(k + 1) % vs.len()]);
            let ab = b - a;
            let t = Float::min(
                Float::max((point - a).dot(&ab) / ab.norm_squared(), T::zero()),
                T::one(),
            );
            if (a + ab * t - point).norm() <= radius {
                let (i, j) = (
                    feature.vertex_ids[k],
                    feature.vertex_ids[(k + 1) % vs.len()],
                );
                return mix(i.min(j), i.max(j)) | 0xc000_0000;
            }
        }
    }
    feature.id.code()
}

/// Removes every candidate within `radius` of an earlier one (keeping the deeper of the two in
/// the earlier slot, with the earlier one's id).
fn remove_duplicates<T: Real>(candidates: &mut Vec<PointCandidate<T>>, radius: T) {
    let mut kept = 0;
    for i in 0..candidates.len() {
        let c = candidates[i];
        match candidates[..kept]
            .iter_mut()
            .find(|k| (k.point1 - c.point1).norm() <= radius)
        {
            Some(k) if c.dist < k.dist => *k = PointCandidate { id: k.id, ..c },
            Some(_) => {}
            None => {
                candidates[kept] = c;
                kept += 1;
            }
        }
    }
    candidates.truncate(kept);
}

/// A length for the tie tolerance: the extent of the two features.
fn shape_size<T: Real>(ws: &ManifoldWorkspace<T>) -> T {
    ws.feature1
        .vertices
        .iter()
        .chain(&ws.feature2.vertices)
        .fold(T::zero(), |m, p| Float::max(m, p.coords.amax()))
}
