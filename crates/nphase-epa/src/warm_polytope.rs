//! The polytope a pair keeps from its last EPA query, to start the next frame's from.
//!
//! EPA spends its iterations pushing every face of its polytope out to the depth (its global
//! certificate); between two frames of a pair that certificate barely changes. Kept in the
//! shapes' own frames, last frame's polytope is still a certificate at the new pose, up to the
//! few faces the motion opened.
//!
//! ## Why a kept polytope stays a certificate
//! EPA's vertices are `wᵢ = aᵢ − bᵢ` with `aᵢ ∈ A` and `bᵢ ∈ B`. Kept as the pairs (`aᵢ` in A's
//! frame, `bᵢ` in B's), they are re-evaluated at the new `pos12 = (R, t)` as
//! `wᵢ' = aᵢ − (R bᵢ + t)`: points of the new difference `D' = A − B'`, whatever the motion. The
//! triangles keep their indices and orientation (counter-clockwise seen from outside).
//!
//! * **Lower bound.** Let every triangle `f` have its plane at signed distance `d_f > 0` from the
//!   origin (normal from the kept orientation). Then the triple product
//!   `w₀ · (w₁ × w₂) = d_f |(w₁ − w₀) × (w₂ − w₀)|` is positive: radial projection maps each
//!   triangle onto a positively oriented spherical triangle, so
//!   across every edge the two neighbours land on opposite sides of the edge's great circle, and
//!   around every vertex the star winds one or more times. The projection of the closed surface
//!   onto the unit sphere is therefore an open map; its image is open and compact, the whole
//!   sphere. Every ray from the origin meets the surface at a point `x` of some triangle `f`,
//!   with `|x| ≥ d_f`, and `x ∈ conv{wᵢ'} ⊆ D'`. For `|p| < L = min_f d_f`, the rays along `p`
//!   and `−p` meet `D'` at `x` and `x'` beyond `p` and `−p`: `0 ∈ [x', x]` and `p ∈ [0, x]`, so
//!   the ball of radius `L` lies in `D'` — the cores overlap, by at least `L`. No convexity is
//!   needed: after a rotation the re-evaluated polytope may fold slightly inward at its edges.
//! * **Upper bound.** The support value of `D'` along any unit `n` bounds the depth from above
//!   (B moved that far along `n` clears A).
//!
//! So EPA's loop restarted on the re-evaluated polytope keeps its invariants — the smallest face
//! distance a lower bound, each support value an upper bound — and its convergence certifies the
//! depth exactly as a cold query's does (its expansions keep the surface closed: a horizon that
//! is not one loop stops the warm query). Usually the face closest last frame is still closest
//! and its support value still within the tolerance: one support query replaces GJK and EPA
//! from scratch. Where the motion opened the gap, the loop refines around the new minimum.
//!
//! The faces must clear the origin by EPA's visibility margin (`ε·size`), not merely by
//! rounding; otherwise (the cores about to come apart, a sliver turned over) the pair goes cold.
//! Polytopes of more than [`MAX_KEPT_VERTICES`] vertices are not kept: the next query starts
//! cold and grows a fresh one, which also bounds a polytope refined frame after frame.

use nphase_gjk::{GjkInput, MinkowskiDifference};
use nphase_math::{Point, Real};
use nphase_shapes::{SupportMap, VertexId};
use num_traits::Float;

use crate::EpaWorkspace;
use crate::polytope::Polytope;

/// The most vertices a kept polytope has (faces: at most `2·48 − 4 = 92`, numbered in a byte).
///
/// Measured on the coherence bench's pile (curved pairs penetrating, moving 1e-3 a frame):
/// restoring a polytope costs in proportion to its size, and a cap of 48 gave the fewest
/// instructions of 16–64 in f32 and f64 (f64's tighter tolerance grows larger polytopes).
pub const MAX_KEPT_VERTICES: usize = 48;

/// EPA's polytope kept for a pair's next query (see the module doc): vertex pairs in the
/// shapes' own frames, triangles with their adjacency. Empty until [`EpaWorkspace::keep`] fills
/// it; [`crate::penetration_warm`] starts from it.
///
/// Deserializing checks that the data describe a closed triangulated surface (indices in range,
/// every edge shared by two faces that name each other): the certificate rests on it.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(
        bound(
            serialize = "T: serde::Serialize",
            deserialize = "T: serde::de::DeserializeOwned"
        ),
        try_from = "Unchecked<T>"
    )
)]
pub struct WarmPolytope<T: Real> {
    vertices: Vec<KeptVertex<T>>,
    faces: Vec<KeptFace>,
}

/// A [`WarmPolytope`] as read, before [`WarmPolytope::closed`] checks it.
#[cfg(feature = "serde")]
#[derive(serde::Deserialize)]
#[serde(bound(deserialize = "T: serde::de::DeserializeOwned"))]
struct Unchecked<T: Real> {
    vertices: Vec<KeptVertex<T>>,
    faces: Vec<KeptFace>,
}

#[cfg(feature = "serde")]
impl<T: Real> TryFrom<Unchecked<T>> for WarmPolytope<T> {
    type Error = &'static str;

    fn try_from(data: Unchecked<T>) -> Result<Self, Self::Error> {
        let polytope = WarmPolytope {
            vertices: data.vertices,
            faces: data.faces,
        };
        if polytope.closed() {
            Ok(polytope)
        } else {
            Err("a kept EPA polytope is not a closed triangulated surface")
        }
    }
}

/// A vertex of a kept polytope: A's point in A's frame, B's in B's.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(bound(
        serialize = "T: serde::Serialize",
        deserialize = "T: serde::de::DeserializeOwned"
    ))
)]
struct KeptVertex<T: Real> {
    a: Point<T>,
    b: Point<T>,
    /// The vertex numbers ([`VertexId`]) of `a` on A and `b` on B.
    ids: [u32; 2],
}

/// A triangle of a kept polytope: its vertices, the face across each edge `(v[k], v[k+1])` and
/// that edge's index there (the layout of EPA's faces, in bytes).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
struct KeptFace {
    v: [u8; 3],
    adj: [u8; 3],
    adj_edge: [u8; 3],
}

impl<T: Real> WarmPolytope<T> {
    /// An empty polytope (nothing kept).
    pub const fn new() -> Self {
        WarmPolytope {
            vertices: Vec::new(),
            faces: Vec::new(),
        }
    }

    /// An empty polytope with room for the largest one kept: keeping into it never allocates.
    pub fn with_room() -> Self {
        WarmPolytope {
            vertices: Vec::with_capacity(MAX_KEPT_VERTICES),
            faces: Vec::with_capacity(2 * MAX_KEPT_VERTICES - 4),
        }
    }

    /// Forgets the kept polytope (keeping its buffers).
    pub fn clear(&mut self) {
        self.vertices.clear();
        self.faces.clear();
    }

    /// Whether nothing is kept.
    pub fn is_empty(&self) -> bool {
        self.faces.is_empty()
    }

    /// The number of vertices kept.
    pub fn vertex_count(&self) -> usize {
        self.vertices.len()
    }

    /// Whether the data describe a closed surface EPA can start from: empty, or at most
    /// [`MAX_KEPT_VERTICES`] vertices, every index in range, and across every edge `k` of every
    /// face a neighbour whose edge `adj_edge[k]` runs the other way and names the face back.
    /// What [`EpaWorkspace::keep`] produces; checked on data read from outside.
    pub fn closed(&self) -> bool {
        let (v, f) = (self.vertices.len(), self.faces.len());
        if f == 0 {
            return true;
        }
        if v > MAX_KEPT_VERTICES || f > 2 * MAX_KEPT_VERTICES - 4 {
            return false;
        }
        self.faces.iter().enumerate().all(|(i, face)| {
            (0..3).all(|k| {
                let (n, e) = (face.adj[k] as usize, face.adj_edge[k] as usize);
                let Some(other) = self.faces.get(n).filter(|_| e < 3) else {
                    return false;
                };
                (face.v[k] as usize) < v
                    && other.adj[e] as usize == i
                    && other.adj_edge[e] as usize == k
                    && other.v[e] == face.v[(k + 1) % 3]
                    && other.v[(e + 1) % 3] == face.v[k]
            })
        })
    }

    /// Rebuilds EPA's polytope at `md`'s pose; the largest vertex norm, or `None` when a face
    /// does not clear the origin by the visibility margin (see the module doc).
    pub(crate) fn restore<A, B>(
        &self,
        md: &MinkowskiDifference<'_, A, B, T>,
        polytope: &mut Polytope<T>,
        restored: &mut Vec<Point<T>>,
    ) -> Option<T>
    where
        A: SupportMap<T> + ?Sized,
        B: SupportMap<T> + ?Sized,
    {
        restored.clear();
        if self.is_empty() {
            return None;
        }
        polytope.clear_for(MAX_KEPT_VERTICES);
        restored.reserve(MAX_KEPT_VERTICES);
        let mut size = T::zero();
        for v in &self.vertices {
            let w = md.point(v.a, &v.b, VertexId(v.ids[0]), VertexId(v.ids[1]));
            size = Float::max(size, w.w.norm());
            polytope.vertices.push(w);
            restored.push(v.b);
        }
        let margin = T::TOLERANCES.epa_relative_gap * size;
        for f in &self.faces {
            let index =
                polytope.push_face_unqueued(f.v.map(u32::from), f.adj.map(u32::from), f.adj_edge);
            if !(polytope.faces[index as usize].distance > margin) {
                return None;
            }
        }
        polytope.queue_all();
        Some(size)
    }
}

impl<T: Real> EpaWorkspace<T> {
    /// Keeps the polytope of the last [`crate::penetration`] or [`crate::penetration_warm`]
    /// query, run on `pair`, in `warm` for the pair's next query. Returns `false` and leaves
    /// `warm` empty when that query built no polytope (a flat difference: the shapes touch) or
    /// one of more than [`MAX_KEPT_VERTICES`] vertices.
    ///
    /// Callers keep the polytope of a query whose answer they accept (cores overlapping, EPA
    /// converged), and start only the same two shapes' queries from it: its points are points
    /// of those shapes, which is what makes it a certificate at any later pose (the faces are
    /// re-checked there; whether the points belong to the shapes cannot be).
    pub fn keep<A, B>(&mut self, pair: &GjkInput<'_, A, B, T>, warm: &mut WarmPolytope<T>) -> bool
    where
        A: ?Sized,
        B: ?Sized,
    {
        warm.clear();
        if !self.fresh {
            return false;
        }
        const NONE: u32 = u32::MAX;
        let polytope = &self.polytope;
        let (faces, vertices) = (polytope.faces.len(), polytope.vertices.len());
        // One map for faces then vertices: old index → kept index.
        let remap = &mut self.remap;
        remap.clear();
        // Room for the polytope's buffers as they are, so that the map grows with them only.
        remap.reserve(polytope.faces.capacity() + polytope.vertices.capacity());
        remap.resize(faces + vertices, NONE);
        let (face_map, vertex_map) = remap.split_at_mut(faces);
        let mut live = 0u32;
        for (i, f) in polytope.faces.iter().enumerate() {
            if !f.deleted {
                face_map[i] = live;
                live += 1;
            }
        }
        if live as usize > 2 * MAX_KEPT_VERTICES - 4 {
            return false;
        }
        let rotation = pair.pos12.rotation.to_rotation_matrix();
        let translation = pair.pos12.translation.vector;
        for f in polytope.faces.iter().filter(|f| !f.deleted) {
            let mut kept = KeptFace {
                v: [0; 3],
                adj: [0; 3],
                adj_edge: f.adj_edge,
            };
            for k in 0..3 {
                let old = f.v[k] as usize;
                if vertex_map[old] == NONE {
                    if warm.vertices.len() == MAX_KEPT_VERTICES {
                        warm.clear();
                        return false;
                    }
                    vertex_map[old] = warm.vertices.len() as u32;
                    let v = &polytope.vertices[old];
                    // A restored vertex keeps its own point of B (no round trip through A's
                    // frame, whose rounding would drift frame after frame); a new one is
                    // brought into B's frame.
                    let b = match self.restored.get(old) {
                        Some(b) => *b,
                        None => rotation.inverse_transform_point(&(v.b - translation)),
                    };
                    warm.vertices.push(KeptVertex {
                        a: v.a,
                        b,
                        ids: [v.id_a.0, v.id_b.0],
                    });
                }
                let neighbour = face_map[f.adj[k] as usize];
                if neighbour == NONE {
                    // A live face beside a deleted one: not a closed surface.
                    warm.clear();
                    return false;
                }
                kept.v[k] = vertex_map[old] as u8;
                kept.adj[k] = neighbour as u8;
            }
            warm.faces.push(kept);
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use nphase_gjk::{GjkInput, GjkStatus, Simplex, SimplexCache, closest_points_with_simplex};
    use nphase_math::{Isometry, Vector};
    use nphase_shapes::{Cuboid, Cylinder};

    use super::*;
    use crate::{EpaOptions, penetration};

    /// A polytope kept from a real query: a cylinder standing in a box, tilted.
    fn kept() -> WarmPolytope<f64> {
        let cylinder = Cylinder::new(0.4, 0.3).expect("valid");
        let cuboid = Cuboid::new(Vector::new(0.5, 0.3, 0.4)).expect("valid");
        let pos12 = Isometry::new(Vector::new(0.1, 0.55, 0.0), Vector::new(0.2, 0.0, 0.1));
        let input = GjkInput::new(&cylinder, &cuboid, pos12);
        let mut cache = SimplexCache::EMPTY;
        let mut simplex = Simplex::default();
        let GjkStatus::Intersecting =
            closest_points_with_simplex(&input, &mut cache, &mut simplex).status
        else {
            panic!("the cores overlap");
        };
        let mut ws = EpaWorkspace::new();
        let options = EpaOptions {
            curved: true,
            ..EpaOptions::default()
        };
        penetration(&input, &simplex, &options, &mut ws);
        let mut warm = WarmPolytope::new();
        assert!(ws.keep(&input, &mut warm));
        warm
    }

    #[test]
    fn a_kept_polytope_is_closed_and_corruptions_are_not() {
        let warm = kept();
        assert!(warm.closed() && warm.vertex_count() >= 4);
        // Euler: a closed triangulated sphere has 2V − 4 faces.
        assert_eq!(warm.faces.len(), 2 * warm.vertex_count() - 4);
        let mut bad = warm.clone();
        bad.faces[0].v[0] = warm.vertices.len() as u8;
        assert!(!bad.closed(), "vertex out of range");
        let mut bad = warm.clone();
        bad.faces[0].v.swap(0, 1);
        assert!(!bad.closed(), "a face turned over");
        let mut bad = warm.clone();
        bad.faces[1].adj[2] = warm.faces.len() as u8;
        assert!(!bad.closed(), "neighbour out of range");
        let mut bad = warm.clone();
        bad.faces[2].adj_edge[1] = 3;
        assert!(!bad.closed(), "edge index out of range");
        let mut bad = warm.clone();
        bad.faces.pop();
        assert!(!bad.closed(), "a face missing");
        assert!(WarmPolytope::<f64>::new().closed());
    }
}
