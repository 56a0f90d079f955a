//! EPA's polytope: triangles with adjacency, a min-heap of faces by distance, and the
//! horizon (silhouette) computation that replaces the faces a new point sees.

use core::cmp::Ordering;
use std::collections::BinaryHeap;

use nphase_gjk::SimplexVertex;
use nphase_math::{Real, Vector};
use num_traits::Float;

/// A triangle of the polytope: vertex indices counter-clockwise seen from outside, the face
/// across each edge `(v[k], v[k+1])` and that edge's index in the neighbour.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Face<T: Real> {
    pub(crate) v: [u32; 3],
    pub(crate) adj: [u32; 3],
    pub(crate) adj_edge: [u8; 3],
    /// Unit outward normal (zero for a degenerate triangle).
    pub(crate) normal: Vector<T>,
    /// Signed distance of the face's plane from the origin (`normal · v0`).
    pub(crate) distance: T,
    pub(crate) deleted: bool,
}

/// A face in the heap: ordered by distance, smallest first.
#[derive(Clone, Copy, Debug)]
struct HeapEntry<T> {
    distance: T,
    face: u32,
}

impl<T: PartialOrd> PartialEq for HeapEntry<T> {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl<T: PartialOrd> Eq for HeapEntry<T> {}

impl<T: PartialOrd> PartialOrd for HeapEntry<T> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<T: PartialOrd> Ord for HeapEntry<T> {
    /// Reversed (BinaryHeap is a max-heap); NaN distances never enter the heap, and ties are
    /// broken by face index so the order is deterministic.
    fn cmp(&self, other: &Self) -> Ordering {
        other
            .distance
            .partial_cmp(&self.distance)
            .unwrap_or(Ordering::Equal)
            .then_with(|| other.face.cmp(&self.face))
    }
}

/// A horizon edge: the edge `(from, to)` of a deleted face, and the surviving neighbour face
/// across it with that edge's index in it.
#[derive(Clone, Copy, Debug)]
struct HorizonEdge {
    from: u32,
    to: u32,
    neighbour: u32,
    neighbour_edge: u8,
}

/// Buffer sizes a fresh polytope reserves: enough for the EPA queries of the benches (box–box,
/// hulls, cylinders) without regrowth in most cases.
const TYPICAL_VERTICES: usize = 32;
const TYPICAL_FACES: usize = 128;
const TYPICAL_HORIZON: usize = 32;

/// The polytope and its scratch buffers; reused across queries so that a query in steady state
/// allocates nothing.
#[derive(Debug)]
pub(crate) struct Polytope<T: Real> {
    pub(crate) vertices: Vec<SimplexVertex<T>>,
    pub(crate) faces: Vec<Face<T>>,
    heap: BinaryHeap<HeapEntry<T>>,
    horizon: Vec<HorizonEdge>,
    stack: Vec<(u32, u8, u8)>,
}

impl<T: Real> Default for Polytope<T> {
    fn default() -> Self {
        Polytope {
            vertices: Vec::new(),
            faces: Vec::new(),
            heap: BinaryHeap::new(),
            horizon: Vec::new(),
            stack: Vec::new(),
        }
    }
}

/// Why the polytope could not be expanded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ExpandError {
    /// The new point sees no face or the horizon is not a simple loop (rounding).
    BadHorizon,
}

impl<T: Real> Polytope<T> {
    /// Resets the polytope to the tetrahedron `tetra` (any orientation).
    pub(crate) fn reset_tetrahedron(&mut self, tetra: [SimplexVertex<T>; 4]) {
        self.clear_for(0);
        let mut t = tetra;
        let volume = (t[1].w - t[0].w).dot(&(t[2].w - t[0].w).cross(&(t[3].w - t[0].w)));
        if volume < T::zero() {
            t.swap(1, 2);
        }
        self.vertices.extend_from_slice(&t);
        // Outward counter-clockwise faces of a positively oriented tetrahedron, each with its
        // neighbours across edges (v0 v1), (v1 v2), (v2 v0) and those edges' indices there.
        let faces: [([u32; 3], [u32; 3], [u8; 3]); 4] = [
            ([0, 2, 1], [2, 3, 1], [2, 0, 0]),
            ([0, 1, 3], [0, 3, 2], [2, 2, 0]),
            ([0, 3, 2], [1, 3, 0], [2, 1, 0]),
            ([1, 2, 3], [0, 2, 1], [1, 1, 1]),
        ];
        for (v, adj, adj_edge) in faces {
            self.push_face(v, adj, adj_edge);
        }
    }

    /// Empties the polytope, with room for a start of `vertices` vertices (0 for a tetrahedron,
    /// a kept polytope's size for [`crate::warm_polytope`]) and for a typical query's growth on
    /// top. A fresh workspace (one-shot queries make one per call) gets that room at once
    /// instead of doubling its way there — growing was a fifth of a one-shot box–box query; a
    /// kept workspace already has it.
    pub(crate) fn clear_for(&mut self, vertices: usize) {
        self.vertices.clear();
        self.faces.clear();
        self.heap.clear();
        self.vertices.reserve(vertices + TYPICAL_VERTICES);
        self.faces.reserve(2 * vertices + TYPICAL_FACES);
        self.heap.reserve(2 * vertices + TYPICAL_FACES);
        self.horizon.reserve(TYPICAL_HORIZON);
        self.stack.reserve(TYPICAL_HORIZON);
    }

    /// The face with the smallest distance that has not been deleted, removed from the heap.
    pub(crate) fn pop_closest(&mut self) -> Option<u32> {
        while let Some(entry) = self.heap.pop() {
            if !self.faces[entry.face as usize].deleted {
                return Some(entry.face);
            }
        }
        None
    }

    /// The live face that the ray from the origin along `dir` leaves the polytope through: the
    /// smallest `distance / (normal · dir)` over faces facing `dir`. A linear scan: only EPA's
    /// local phase, on valley-shaped problems, asks.
    pub(crate) fn face_toward(&self, dir: &Vector<T>) -> Option<u32> {
        let mut best: Option<(u32, T)> = None;
        for (i, face) in self.faces.iter().enumerate() {
            let facing = face.normal.dot(dir);
            if face.deleted || !(facing > T::zero()) || !Float::is_finite(face.distance) {
                continue;
            }
            let hit = face.distance / facing;
            if best.is_none_or(|(_, h)| hit < h) {
                best = Some((i as u32, hit));
            }
        }
        best.map(|(i, _)| i)
    }

    /// Adds `point` (seen from face `seen`) to the polytope: deletes every face it sees
    /// (visibility: `n·(p − v0) > visibility_eps`), and fans new faces from the horizon to it.
    pub(crate) fn expand(
        &mut self,
        seen: u32,
        point: SimplexVertex<T>,
        visibility_eps: T,
    ) -> Result<(), ExpandError> {
        let w = point.w;
        let new_vertex = self.vertices.len() as u32;
        self.horizon.clear();
        self.stack.clear();
        self.faces[seen as usize].deleted = true;
        self.stack.push((seen, 0, 0));
        // Depth-first walk over the visible faces; each stack frame is (face, first edge,
        // edges done). The first face walks its three edges, later faces the two edges after
        // the one they were entered by, so the horizon comes out as one ordered loop.
        while let Some(&(face_index, first, done)) = self.stack.last() {
            let depth = self.stack.len();
            let edge_count = if depth == 1 { 3 } else { 2 };
            if done == edge_count {
                self.stack.pop();
                continue;
            }
            self.stack[depth - 1].2 += 1;
            let k = ((first + done) % 3) as usize;
            let face = self.faces[face_index as usize];
            let neighbour = face.adj[k];
            let neighbour_edge = face.adj_edge[k];
            let other = &mut self.faces[neighbour as usize];
            if other.deleted {
                continue;
            }
            let visible = other.normal.dot(&w) - other.distance > visibility_eps;
            if visible {
                other.deleted = true;
                self.stack.push((neighbour, (neighbour_edge + 1) % 3, 0));
            } else {
                self.horizon.push(HorizonEdge {
                    from: face.v[k],
                    to: face.v[(k + 1) % 3],
                    neighbour,
                    neighbour_edge,
                });
            }
        }

        let n = self.horizon.len();
        if n < 3 || (0..n).any(|i| self.horizon[i].to != self.horizon[(i + 1) % n].from) {
            return Err(ExpandError::BadHorizon);
        }
        self.vertices.push(point);
        let first_new = self.faces.len() as u32;
        for i in 0..n {
            let edge = self.horizon[i];
            let next = first_new + ((i + 1) % n) as u32;
            let prev = first_new + ((i + n - 1) % n) as u32;
            let index = self.push_face(
                [edge.from, edge.to, new_vertex],
                [edge.neighbour, next, prev],
                [edge.neighbour_edge, 2, 1],
            );
            let neighbour = &mut self.faces[edge.neighbour as usize];
            neighbour.adj[edge.neighbour_edge as usize] = index;
            neighbour.adj_edge[edge.neighbour_edge as usize] = 0;
        }
        Ok(())
    }

    /// A face whose triangle contains its own projection of the origin, found by walking from
    /// `start` (the closest face) to neighbours whose plane distance is within `tolerance` of
    /// `start`'s; `start` itself when none is found.
    ///
    /// For a convex polytope the closest face contains the origin's projection. EPA's polytope
    /// is convex only up to the visibility epsilon, and where neighbouring faces are nearly
    /// coplanar (a flat face of `D` triangulated, or the fine facets EPA grows over a curved
    /// surface) a dent of that size can move the projection off the closest face by a lot more:
    /// its witnesses would then not match its depth. The walk crosses the edge opposite the most
    /// negative barycentric weight, which leads to the face that does contain it. `None` when
    /// no face does: the walk returns to where it came from (two faces whose projections fall
    /// into each other across a slightly reflex edge) or meets a face beyond the tolerance.
    pub(crate) fn face_containing_projection(&self, start: u32, tolerance: T) -> Option<u32> {
        let limit = self.faces[start as usize].distance + tolerance;
        let mut current = start;
        let mut previous = u32::MAX;
        for _ in 0..self.faces.len().min(64) {
            let face = &self.faces[current as usize];
            let projection = face.normal * face.distance;
            let [p0, p1, p2] = face.v.map(|i| self.vertices[i as usize].w);
            // Signed areas of the sub-triangles opposite each vertex, about the face normal.
            let weights = [
                (p1 - projection)
                    .cross(&(p2 - projection))
                    .dot(&face.normal),
                (p2 - projection)
                    .cross(&(p0 - projection))
                    .dot(&face.normal),
                (p0 - projection)
                    .cross(&(p1 - projection))
                    .dot(&face.normal),
            ];
            let area = weights[0] + weights[1] + weights[2];
            let (k, most_negative) =
                weights
                    .iter()
                    .enumerate()
                    .fold(
                        (0, T::infinity()),
                        |(bk, bw), (k, &w)| if w < bw { (k, w) } else { (bk, bw) },
                    );
            if most_negative >= -T::TOLERANCES.degenerate * Float::abs(area) {
                return Some(current);
            }
            // The edge opposite vertex k is edge (k + 1) mod 3.
            let next = face.adj[(k + 1) % 3];
            let neighbour = &self.faces[next as usize];
            if next == previous || neighbour.deleted || !(neighbour.distance <= limit) {
                return None;
            }
            previous = current;
            current = next;
        }
        None
    }

    /// Appends a face, computes its plane and queues it; returns its index.
    fn push_face(&mut self, v: [u32; 3], adj: [u32; 3], adj_edge: [u8; 3]) -> u32 {
        let index = self.push_face_unqueued(v, adj, adj_edge);
        let distance = self.faces[index as usize].distance;
        if Float::is_finite(distance) {
            self.heap.push(HeapEntry {
                distance,
                face: index,
            });
        }
        index
    }

    /// Queues every face at once (a heap built in linear time), after faces were appended with
    /// [`Self::push_face_unqueued`].
    pub(crate) fn queue_all(&mut self) {
        let mut entries = core::mem::take(&mut self.heap).into_vec();
        entries.clear();
        entries.extend(
            self.faces
                .iter()
                .enumerate()
                .filter(|(_, f)| !f.deleted && Float::is_finite(f.distance))
                .map(|(i, f)| HeapEntry {
                    distance: f.distance,
                    face: i as u32,
                }),
        );
        self.heap = BinaryHeap::from(entries);
    }

    /// Appends a face and computes its plane without queueing it; returns its index.
    pub(crate) fn push_face_unqueued(
        &mut self,
        v: [u32; 3],
        adj: [u32; 3],
        adj_edge: [u8; 3],
    ) -> u32 {
        let [p0, p1, p2] = v.map(|i| self.vertices[i as usize].w);
        let n = (p1 - p0).cross(&(p2 - p0));
        let len = nphase_math::norm_robust(&n);
        let (normal, distance) = if len > T::zero() && Float::is_finite(len) {
            let normal = n / len;
            // Average of the three vertices' plane offsets: symmetric in the vertices.
            let d = (normal.dot(&p0) + normal.dot(&p1) + normal.dot(&p2)) / T::lit(3.0);
            (normal, d)
        } else {
            (Vector::zeros(), T::infinity())
        };
        let index = self.faces.len() as u32;
        self.faces.push(Face {
            v,
            adj,
            adj_edge,
            normal,
            distance,
            deleted: false,
        });
        index
    }
}
