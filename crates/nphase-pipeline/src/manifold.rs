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
//!    normal is closer to `n`; of two edges A's) and an *incident* one, whose polygon is
//!    clipped against the reference's side planes ([`crate::clipping`]);
//! 4. each surviving incident vertex becomes a point whose distance is measured along `n` to
//!    the reference plane; points further apart than the prediction distance are dropped;
//! 5. when the clipped points are shallower than the exact contact (a polygonised curve), the
//!    exact witness is added, so the deepest point always agrees with the pair query;
//! 6. more than four points are reduced to four ([`crate::reduction`]).
//!
//! Ids mix the two features' ids with the clipped vertex's id, so a point keeps its id while the
//! same features touch — what a solver needs to warm-start its impulses.

use arrayvec::ArrayVec;
use nphase_math::{Isometry, Point, Real, UnitVector, Vector};
use nphase_shapes::{FeatureMap, Shape, SupportFeature};
use num_traits::Float;

use crate::LocalContact;
use crate::clipping::{ClipVertex, SidePlane, clip_against_planes, mix};
use crate::reduction::{Candidate, reduce_to_four};

/// The most points a manifold holds.
pub const MAX_MANIFOLD_POINTS: usize = 4;

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
    /// Unit normal from A toward B, world frame.
    pub normal: UnitVector<T>,
    /// The same normal in A's local frame.
    pub local_normal1: UnitVector<T>,
    /// At most four points; empty when the shapes are further apart than the prediction.
    pub points: ArrayVec<ContactPoint<T>, MAX_MANIFOLD_POINTS>,
}

impl<T: Real> Default for ContactManifold<T> {
    fn default() -> Self {
        ContactManifold {
            normal: Vector::y_axis(),
            local_normal1: Vector::y_axis(),
            points: ArrayVec::new(),
        }
    }
}

impl<T: Real> ContactManifold<T> {
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
    // No pair of surface points is closer along n than the exact contact (n minimises the
    // support gap, and every pair's separation along n is at least that gap). A clipped point
    // deeper than it is an artefact of a reference face far from n (a triangle touched on its
    // edge, a polytope face beside an edge contact): its projection along n leaves the shapes.
    // Such points are dropped.
    // Points deeper by less than the feature tie are the same contact up to rounding (or
    // EPA's tolerance): they are lifted to the exact depth along n, moving A's point only.
    let size = shape_size(ws);
    let slack = T::TOLERANCES.feature_tie * size;
    ws.candidates.retain(|c| c.dist >= contact.dist - slack);
    for c in &mut ws.candidates {
        if c.dist < contact.dist {
            c.dist = contact.dist;
            c.point1 = c.point2 - n * contact.dist;
        }
    }
    // The exact witness joins when clipping found nothing or only shallower points (a curved
    // surface polygonised, a tilted edge) by more than the accuracy: the deepest point then
    // agrees with the pair query.
    let deepest = ws
        .candidates
        .iter()
        .fold(T::infinity(), |m, c| Float::min(m, c.dist));
    if ws.candidates.is_empty() || deepest > contact.dist + T::TOLERANCES.accuracy * size {
        ws.candidates.push(PointCandidate {
            point1: contact.point1,
            point2: contact.point2,
            dist: contact.dist,
            id: mix(feature_ids, u32::MAX),
        });
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
    if rv.len() >= 3 {
        for k in 0..rv.len() {
            let (a, b) = (rv[k], rv[(k + 1) % rv.len()]);
            ws.planes.push(SidePlane {
                origin: a,
                normal: (b - a).cross(&outward),
                id: reference.vertex_ids[k],
            });
        }
    } else {
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
    let edge = rv[1] - rv[0];
    let edge_len2 = edge.norm_squared();
    for v in &ws.polygon {
        // A face's plane holds all its vertices. An edge reference is not perpendicular to n
        // when the exact contact sits at one of its ends (nearly parallel capsules, a tilt):
        // the height is then measured from the point of the edge beside v, not from its first
        // vertex, which would be off by the tilt times the distance along the edge.
        let base = if rv.len() >= 3 || !(edge_len2 > T::zero()) {
            origin
        } else {
            let t = Float::min(
                Float::max((v.point - origin).dot(&edge) / edge_len2, T::zero()),
                T::one(),
            );
            origin + edge * t
        };
        let height = (v.point - base).dot(&outward);
        let dist = height / along;
        if dist > prediction {
            continue;
        }
        let (point1, point2) = if reference_is_1 {
            (v.point - n * dist, v.point)
        } else {
            (v.point, v.point + n * dist)
        };
        ws.candidates.push(PointCandidate {
            point1,
            point2,
            dist,
            id: mix(feature_ids, v.id),
        });
    }
}

/// A length for the tie tolerance: the extent of the two features.
fn shape_size<T: Real>(ws: &ManifoldWorkspace<T>) -> T {
    ws.feature1
        .vertices
        .iter()
        .chain(&ws.feature2.vertices)
        .fold(T::zero(), |m, p| Float::max(m, p.coords.amax()))
}
