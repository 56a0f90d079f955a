//! The convex hull of a point cloud as a shape: vertices, polygon faces, edge graph.
//!
//! [`ConvexPolyhedron::from_points`] builds the exact hull (see `convex_hull.rs` for the method
//! and for how degenerate clouds become 0-D, 1-D and 2-D hulls). Support queries scan the
//! vertices on small hulls and climb the edge graph on large ones
//! ([`HILL_CLIMBING_MIN_VERTICES`]); the supporting feature is a face polygon (3-D and 2-D), an
//! edge or a vertex.
//!
//! Conventions: the local frame is the frame of the input points; vertex, edge and face numbers
//! are stable for a given polyhedron and are the ids reported in [`SupportVertex`] and
//! [`SupportFeature`]; face loops are counter-clockwise seen from outside. The edge joining
//! vertices `v < w` is numbered by the position of `w` in the concatenated neighbour lists
//! ([`ConvexPolyhedron::edge_id`], [`ConvexPolyhedron::edge_vertices`]).

use arrayvec::ArrayVec;
use nphase_math::{Point, Real, UnitVector, Vector, normalize_robust, segment_distance2};
use num_traits::Float;

use crate::convex_hull::{Csr, convex_hull};
use crate::error::check_vertices;
use crate::{
    Aabb, FACE_TIE_HOLD, FeatureId, FeatureMap, ShapeError, SupportFeature, SupportMap,
    SupportVertex, VertexId,
};

/// Hulls with at least this many vertices answer [`SupportMap`] queries by hill climbing;
/// smaller ones by a linear scan of their vertices.
///
/// Chosen by measurement (`benches/hull_support.rs`, `benches/hull_crossover.rs`, numbers in
/// `docs/performance.md`): on hulls of points on a sphere, cold hill climbing (no hint) beats
/// the scan from 28–32 vertices on in both precisions, warm climbing from about 8–16. The
/// constant sits at the cold crossover, so climbing is never the slower choice.
pub const HILL_CLIMBING_MIN_VERTICES: usize = 32;

/// Hulls of up to this many vertices answer a [`SupportMap`] query without a usable hint by a
/// scan (of their climbing records) rather than a climb: on a hull the cache has lost, the
/// scan is the faster search up to about here (`benches/hull_crossover.rs`, cold-memory
/// table), and it leaves the records in cache for the hinted climbs that follow.
pub const SCAN_UNHINTED_MAX_VERTICES: usize = 64;

/// A convex polytope given as the convex hull of a point cloud.
///
/// Its dimension is that of the cloud: 3 (a solid polytope), 2 (a convex polygon, seen as two
/// faces: front and back), 1 (a segment) or 0 (a point). Only extreme points of the cloud are
/// vertices: duplicates and points inside, on a face or on an edge are dropped.
///
/// ```
/// use nphase_math::{Point, Vector};
/// use nphase_shapes::{ConvexPolyhedron, SupportMap, VertexId};
/// let mut cloud = Vec::new();
/// for i in 0..8 {
///     let s = |bit: usize| if i & bit == 0 { -1.0 } else { 1.0 };
///     cloud.push(Point::new(s(1), s(2), s(4)));
/// }
/// cloud.push(Point::new(0.0, 0.0, 1.0)); // a face centre: not a vertex
/// let cube = ConvexPolyhedron::<f64>::from_points(&cloud)?;
/// assert_eq!((cube.vertices().len(), cube.face_count(), cube.dimension()), (8, 6, 3));
/// let top = cube.local_support_vertex(&Vector::new(0.1, 0.2, 1.0), VertexId::NONE);
/// assert_eq!(top.point, Point::new(1.0, 1.0, 1.0));
/// # Ok::<(), nphase_shapes::ShapeError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct ConvexPolyhedron<T: Real> {
    vertices: Vec<Point<T>>,
    dimension: usize,
    triangles: Vec<[u32; 3]>,
    faces: Csr,
    /// Parallel to `faces`: the edge id from each loop vertex to the next.
    face_edges: Csr,
    /// The edges between two face loops, with both faces (see [`HullEdge`]).
    edges: Vec<HullEdge>,
    /// Each face's plane, normal and offset side by side (a face's plane is one read: the
    /// separating-axis test scans them all and looks up single ones).
    planes: Vec<FacePlane<T>>,
    neighbors: Csr,
    /// Parallel to `vertices`: each vertex with its neighbour row, for hill climbing.
    climb: Vec<ClimbVertex<T>>,
    vertex_faces: Csr,
    /// The vertices extreme along −x, +x, −y, +y, −z, +z: cold climbs start at one of them.
    climb_starts: [u32; 6],
    /// The local bounding box, from those six vertices: kept so that asking for it (the
    /// pipeline does every frame, for the motion bound and the tolerances' size) reads no
    /// vertex — with a hull per body, six cache misses a shape.
    local_aabb: Aabb<T>,
    /// The largest magnitude of a vertex coordinate, which bounds the rounding of `x · dir`.
    coordinate_bound: T,
    /// The largest distance of a vertex from the origin (kept, like `local_aabb`: the
    /// separating-axis certificate asks for it at every collection).
    origin_reach: T,
}

/// The most vertices hill climbing explores on a plateau of near-ties before it falls back to a
/// linear scan (see [`ConvexPolyhedron::local_support_vertex_climbing`]).
pub const PLATEAU_CAPACITY: usize = 64;

/// The neighbours a [`ClimbVertex`] holds in its own record (a longer row is read from the
/// hull's neighbour table).
const CLIMB_INLINE: usize = 9;

/// A vertex as hill climbing reads it: its position and its neighbour row in one record.
///
/// A climbing step reads the current vertex's row and then its neighbours' positions. Kept
/// apart (row offsets, row, positions), these are three dependent cache misses a step on a
/// hull the cache has lost — a scene with a hull per body — where the linear scan streams the
/// vertex array; with the row in the record, the current vertex's record was read when it was
/// a neighbour, and a step costs one round of independent misses (its neighbours' records).
/// Records are aligned so that none straddles a cache line (32 bytes in f32, 64 in f64).
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C, align(32))]
struct ClimbVertex<T: Real> {
    point: Point<T>,
    /// The vertex's neighbours (vertex indices), the first `len`, when the row is inline.
    near: [u16; CLIMB_INLINE],
    /// The row's length, or [`ClimbVertex::SHARED`]: the row is longer than
    /// [`CLIMB_INLINE`] or names a vertex past `u16::MAX`, and is read from the table.
    len: u16,
}

const _: () = assert!(size_of::<ClimbVertex<f32>>() == 32);
const _: () = assert!(size_of::<ClimbVertex<f64>>() == 64);

impl<T: Real> ClimbVertex<T> {
    const SHARED: u16 = u16::MAX;

    fn new(point: Point<T>, row: &[u32]) -> Self {
        let mut near = [0; CLIMB_INLINE];
        let inline = row.len() <= CLIMB_INLINE
            && row
                .iter()
                .zip(&mut near)
                .all(|(&v, slot)| match u16::try_from(v) {
                    Ok(v) => {
                        *slot = v;
                        true
                    }
                    Err(_) => false,
                });
        ClimbVertex {
            point,
            near,
            len: if inline {
                row.len() as u16
            } else {
                Self::SHARED
            },
        }
    }
}

/// A neighbour row, inline in a [`ClimbVertex`] or in the hull's table, as vertex indices.
enum NeighborRow<'a> {
    Inline(core::slice::Iter<'a, u16>),
    Shared(core::slice::Iter<'a, u32>),
}

impl Iterator for NeighborRow<'_> {
    type Item = u32;

    fn next(&mut self) -> Option<u32> {
        match self {
            NeighborRow::Inline(row) => row.next().map(|&v| u32::from(v)),
            NeighborRow::Shared(row) => row.next().copied(),
        }
    }
}

/// An edge of a [`ConvexPolyhedron`] between two faces (solid or polygon), for the
/// separating-axis test: `vertices = [tail, head]` runs counter-clockwise about `faces[0]`'s
/// normal (so clockwise about `faces[1]`'s); a side of a face that passes a vertex within the
/// merge tolerance of it is listed in two pieces. On the Gauss map the edge is the arc from
/// `faces[0]`'s normal `n₀` to `faces[1]`'s normal `n₁`, in the plane normal to the edge
/// direction `e = head − tail`, which `e × n₀` enters: for a solid `e` is along `n₀ × n₁`;
/// for a polygon (`n₁ = −n₀`) the arc is the half circle through the outward normal of the
/// edge in the polygon's plane.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HullEdge {
    /// The edge's id ([`ConvexPolyhedron::edge_id`]).
    pub id: u32,
    /// Tail and head vertex indices.
    pub vertices: [u32; 2],
    /// The face on its left (counter-clockwise loop) and on its right.
    pub faces: [u32; 2],
}

/// The plane of a face of a [`ConvexPolyhedron`]: `normal·x = offset` on the face.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FacePlane<T: Real> {
    /// Outward unit normal, local frame.
    pub normal: UnitVector<T>,
    /// `normal·x` of the face's first loop vertex (the other vertices of a merged face are
    /// within the merge tolerance of it).
    pub offset: T,
}

// One read a face: 16 bytes in f32 (four to a cache line), 32 in f64.
const _: () = assert!(size_of::<FacePlane<f32>>() == 16);
const _: () = assert!(size_of::<FacePlane<f64>>() == 32);

/// A face of a [`ConvexPolyhedron`]: its outward unit normal and its vertex loop.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HullFace<'a, T: Real> {
    /// Outward unit normal, local frame.
    pub normal: UnitVector<T>,
    /// Vertex indices, counter-clockwise about `normal` (seen from outside), starting at the
    /// lowest index. Three or more.
    pub vertex_ids: &'a [u32],
}

impl<T: Real> ConvexPolyhedron<T> {
    /// Builds the convex hull of `points`.
    ///
    /// The hull is exact (computed in `f64` with exact orientation predicates); faces merge
    /// triangles coplanar within `T::TOLERANCES.degenerate` times the cloud's bounding-box
    /// half-diagonal. Degenerate clouds give lower-dimensional hulls (a point, a segment, a
    /// polygon) rather than an error.
    ///
    /// # Errors
    /// [`ShapeError::EmptyPointCloud`] without points; [`ShapeError::NotFinite`] naming the
    /// first non-finite coordinate (`"points[3].y"`); [`ShapeError::TooLarge`] naming the first
    /// coordinate beyond the precision's largest length, [`ShapeError::TooSmall`] a cloud whose
    /// largest coordinate is below its smallest size (docs/accuracy.md, "Input range").
    pub fn from_points(points: &[Point<T>]) -> Result<Self, ShapeError> {
        if points.is_empty() {
            return Err(ShapeError::EmptyPointCloud);
        }
        check_vertices("convex", |i| format!("points[{i}]"), points)?;
        // Coordinates more than 1e150 times smaller than the cloud's largest are flushed to
        // zero: the exact predicates cannot resolve differences that far below the cloud's size
        // (their products underflow), and no geometry depends on them.
        let extent = points
            .iter()
            .map(|p| p.coords.amax().as_f64())
            .fold(0.0, f64::max);
        let flush = |x: f64| if x.abs() < extent * 1e-150 { 0.0 } else { x };
        let wide: Vec<Vector<f64>> = points
            .iter()
            .map(|p| p.coords.map(|x| flush(x.as_f64())))
            .collect();
        let hull = convex_hull(&wide, T::TOLERANCES.degenerate.as_f64());
        let vertices: Vec<Point<T>> = hull.vertices.iter().map(|&i| points[i]).collect();
        // Every face normal is finite once the coordinates are flushed; the +y fallback only
        // keeps a NaN out should an unforeseen cloud still defeat the exact predicates.
        let face_normals: Vec<UnitVector<T>> = hull
            .face_normals
            .iter()
            .map(|n| normalize_robust(&n.map(T::lit)).unwrap_or_else(Vector::y_axis))
            .collect();
        let climb_starts = core::array::from_fn(|k| {
            let (axis, sign) = (k / 2, if k % 2 == 0 { -T::one() } else { T::one() });
            let key = |v: &Point<T>| v[axis] * sign;
            let best = (1..vertices.len()).fold(0, |b, i| {
                if key(&vertices[i]) > key(&vertices[b]) {
                    i
                } else {
                    b
                }
            });
            best as u32
        });
        let extreme = |k: usize| vertices[climb_starts[k] as usize];
        let local_aabb = Aabb::new(
            Point::new(extreme(0).x, extreme(2).y, extreme(4).z),
            Point::new(extreme(1).x, extreme(3).y, extreme(5).z),
        );
        let origin_reach = vertices
            .iter()
            .fold(T::zero(), |r, v| Float::max(r, v.coords.norm()));
        let vertices_bound = vertices
            .iter()
            .map(|v| v.coords.amax())
            .fold(T::zero(), Float::max);
        // Consecutive loop vertices are hull edges; should merging have left a loop step that
        // is not one, it gets an id past the edge graph's, unique to its place in the loops.
        let edge_count = hull.neighbors.items().len() as u32;
        let face_edges = hull.faces.map_rows(|f, k| {
            let row = hull.faces.row(f);
            let (a, b) = (row[k], row[(k + 1) % row.len()]);
            hull.neighbors
                .position(a.min(b) as usize, a.max(b))
                .unwrap_or_else(|| edge_count.saturating_add(hull.faces.start(f) + k as u32))
        });
        let edges = face_pair_edges(&hull.triangles, &hull.triangle_faces, &hull.neighbors);
        let climb = vertices
            .iter()
            .enumerate()
            .map(|(v, &p)| ClimbVertex::new(p, hull.neighbors.row(v)))
            .collect();
        let planes = face_normals
            .iter()
            .enumerate()
            .map(|(f, &normal)| FacePlane {
                normal,
                offset: normal.dot(&vertices[hull.faces.row(f)[0] as usize].coords),
            })
            .collect();
        Ok(ConvexPolyhedron {
            vertices,
            dimension: hull.dimension,
            triangles: hull.triangles,
            faces: hull.faces,
            face_edges,
            edges,
            planes,
            neighbors: hull.neighbors,
            climb,
            vertex_faces: hull.vertex_faces,
            climb_starts,
            local_aabb,
            coordinate_bound: vertices_bound,
            origin_reach,
        })
    }

    /// The hull's vertices (extreme points of the cloud, in the order of their first occurrence
    /// in the input), local frame. Never empty.
    pub fn vertices(&self) -> &[Point<T>] {
        &self.vertices
    }

    /// Vertex `i`, `vertices()[i]`, read from the record hill climbing reads (with the
    /// vertex's neighbour row): after a support query on a hull the cache does not hold, the
    /// support vertex and its neighbours are there and the vertex array is not. Panics when
    /// `i >= vertices().len()`.
    pub fn vertex(&self, i: usize) -> Point<T> {
        self.climb[i].point
    }

    /// The largest distance of a vertex from the local origin — of any point of the hull,
    /// since it is convex (computed once, at construction).
    pub fn origin_reach(&self) -> T {
        self.origin_reach
    }

    /// 3 for a solid, 2 for a polygon, 1 for a segment, 0 for a single point.
    pub fn dimension(&self) -> usize {
        self.dimension
    }

    /// The number of faces: at least 4 for a solid, 2 for a polygon (front and back, with
    /// opposite normals and reversed loops), 0 below.
    pub fn face_count(&self) -> usize {
        self.planes.len()
    }

    /// Face `i`'s plane: its outward unit normal `n` and offset `n·x` (of its first loop
    /// vertex; the other vertices of a merged face are within the merge tolerance of it).
    /// Panics when `i >= face_count()`.
    pub fn face_plane(&self, i: usize) -> (&UnitVector<T>, T) {
        let plane = &self.planes[i];
        (&plane.normal, plane.offset)
    }

    /// Every face's plane, in face order (see [`ConvexPolyhedron::face_plane`]).
    pub fn face_planes(&self) -> &[FacePlane<T>] {
        &self.planes
    }

    /// Face `i`. Panics when `i >= face_count()`.
    pub fn face(&self, i: usize) -> HullFace<'_, T> {
        HullFace {
            normal: self.planes[i].normal,
            vertex_ids: self.faces.row(i),
        }
    }

    /// The vertices joined to vertex `v` by an edge of the hull, increasing. For a solid these
    /// are the polytope's true edges (edges between exactly coplanar triangles are not edges).
    /// Panics when `v >= vertices().len()`.
    pub fn vertex_neighbors(&self, v: usize) -> &[u32] {
        self.neighbors.row(v)
    }

    /// The faces vertex `v` belongs to, increasing (empty below dimension 2). Usually `v` is on
    /// their loops; a vertex on a bump of the surface within the merge tolerance is *inner* to
    /// the one face merged over it (inside its polygon, within the tolerance, but not on its
    /// loop). Panics when `v >= vertices().len()`.
    pub fn vertex_faces(&self, v: usize) -> &[u32] {
        self.vertex_faces.row(v)
    }

    /// The id of the hull edge joining vertices `a` and `b`, if they share one.
    pub fn edge_id(&self, a: u32, b: u32) -> Option<u32> {
        let (lo, hi) = (a.min(b), a.max(b));
        if lo as usize >= self.vertices.len() {
            return None;
        }
        self.neighbors.position(lo as usize, hi)
    }

    /// The vertices `(v, w)`, `v < w`, of hull edge `id` (see [`ConvexPolyhedron::edge_id`]);
    /// `None` for an id that names no edge of the graph.
    pub fn edge_vertices(&self, id: u32) -> Option<(u32, u32)> {
        let w = *self.neighbors.items().get(id as usize)?;
        let v = self.neighbors.row_of(id) as u32;
        (v < w).then_some((v, w))
    }

    /// The edges between two faces, with both faces, ordered by their vertices (empty below
    /// dimension 2); see [`HullEdge`].
    pub fn edges(&self) -> &[HullEdge] {
        &self.edges
    }

    /// A triangulation of the surface, counter-clockwise seen from outside: for a solid the
    /// exact hull triangulation (every triangle lies in a face), for a polygon both faces
    /// fanned, empty below.
    pub fn triangles(&self) -> &[[u32; 3]] {
        &self.triangles
    }

    /// The bounding box of the hull in its local frame, from the vertices extreme along the
    /// axes (computed when the hull was built).
    pub fn local_aabb(&self) -> Aabb<T> {
        self.local_aabb
    }

    /// The vertex maximising `x · dir` by scanning all vertices; ties go to the lowest index,
    /// and a zero or NaN `dir` gives vertex 0.
    pub fn local_support_vertex_linear(&self, dir: &Vector<T>) -> SupportVertex<T> {
        let best = first_maximiser(&self.vertices, |v| v, dir);
        SupportVertex {
            point: self.vertices[best],
            id: VertexId(best as u32),
        }
    }

    /// The vertex maximising `x · dir` by hill climbing along the hull's edges from `hint`.
    ///
    /// Without a usable hint (`VertexId::NONE` or out of range) the climb starts at the vertex
    /// extreme along the coordinate axis closest to `dir` (a branch-light choice: testing all
    /// six axis extremes costs more in mispredicted branches than it saves in steps). It moves
    /// to the best neighbour while that is a strict improvement.
    ///
    /// On a convex polytope a vertex no neighbour improves on is a global maximiser, but rounded
    /// dot products cannot see improvements smaller than their rounding: along a face normal the
    /// face is a plateau of near-ties the climb could not leave. So a vertex with no better
    /// neighbour is accepted only after a search of its plateau — the vertices connected to it
    /// through values within `δ = 4ε · R · ‖dir‖₁` of the best (`R` the largest magnitude of a
    /// vertex coordinate, `ε` the machine epsilon) — finds nothing better. Each dot product is
    /// off by less than `3δ/8`, so the exact maximiser of the plateau has no better neighbour,
    /// is a global maximiser, and the answer's `x · dir` is within `δ` of the true maximum. A
    /// plateau of more than [`PLATEAU_CAPACITY`] vertices falls back to
    /// [`local_support_vertex_linear`]. A zero or NaN `dir` returns the start vertex.
    ///
    /// [`local_support_vertex_linear`]: ConvexPolyhedron::local_support_vertex_linear
    pub fn local_support_vertex_climbing(
        &self,
        dir: &Vector<T>,
        hint: VertexId,
    ) -> SupportVertex<T> {
        let dot = |v: u32| self.climb[v as usize].point.coords.dot(dir);
        let mut current = if (hint.0 as usize) < self.vertices.len() {
            hint.0
        } else {
            // The vertex extreme along the axis closest to `dir`.
            let a = dir.map(Float::abs);
            let axis = if a.x >= a.y && a.x >= a.z {
                0
            } else if a.y >= a.z {
                1
            } else {
                2
            };
            self.climb_starts[2 * axis + usize::from(dir[axis] > T::zero())]
        };
        let mut best = dot(current);
        let tie = T::lit(4.0) * T::TOLERANCES.epsilon * self.coordinate_bound * dir.abs().sum();
        'climb: loop {
            let from = current;
            let mut near_tie = false;
            for v in self.neighbor_row(from) {
                let d = dot(v);
                if d > best {
                    (current, best) = (v, d);
                } else if d >= best - tie {
                    near_tie = true;
                }
            }
            // `near_tie` was measured against `best` unchanged only when nothing moved.
            if current != from {
                continue;
            }
            // A NaN `dir` never sets `near_tie`; a zero `dir` makes every vertex a maximiser.
            if !near_tie || tie == T::zero() {
                break;
            }
            let mut plateau = ArrayVec::<u32, PLATEAU_CAPACITY>::new();
            plateau.push(current);
            let mut head = 0;
            while let Some(&u) = plateau.get(head) {
                head += 1;
                for v in self.neighbor_row(u) {
                    let d = dot(v);
                    if d > best {
                        (current, best) = (v, d);
                        continue 'climb;
                    }
                    if d >= best - tie && !plateau.contains(&v) && plateau.try_push(v).is_err() {
                        return self.local_support_vertex_linear(dir);
                    }
                }
            }
            break;
        }
        SupportVertex {
            point: self.climb[current as usize].point,
            id: VertexId(current),
        }
    }

    /// Vertex `v`'s neighbours, from its climbing record (the table's row when it is not
    /// inline): the same vertices in the same order as [`ConvexPolyhedron::vertex_neighbors`].
    fn neighbor_row(&self, v: u32) -> NeighborRow<'_> {
        let node = &self.climb[v as usize];
        match node.near.get(..usize::from(node.len)) {
            Some(row) => NeighborRow::Inline(row.iter()),
            None => NeighborRow::Shared(self.neighbors.row(v as usize).iter()),
        }
    }
}

/// The index of the first of `items` whose point (`point_of`) maximises `x · dir`; 0 for a zero
/// or NaN `dir`. `items` is not empty.
fn first_maximiser<T: Real, U>(
    items: &[U],
    point_of: impl Fn(&U) -> &Point<T>,
    dir: &Vector<T>,
) -> usize {
    let mut best = 0;
    let mut best_dot = point_of(&items[0]).coords.dot(dir);
    for (i, item) in items.iter().enumerate().skip(1) {
        let d = point_of(item).coords.dot(dir);
        if d > best_dot {
            best = i;
            best_dot = d;
        }
    }
    best
}

/// The edges between two faces, from the exact triangulation: each triangle edge whose two
/// triangles lie in different faces (an edge of the hull triangulation is never split, so a
/// face loop that skips a vertex within the merge tolerance of a side, which its neighbour's
/// loop keeps, still has its edge here, in pieces). Each is listed from the triangle in which
/// it runs from the lower vertex to the higher one, that triangle's face on its left; its id is
/// [`ConvexPolyhedron::edge_id`]'s, or one past the graph's (unique, by position) for an edge
/// the graph does not have.
fn face_pair_edges(
    triangles: &[[u32; 3]],
    triangle_faces: &[u32],
    neighbors: &Csr,
) -> Vec<HullEdge> {
    let mut sides: Vec<([u32; 2], u32)> = Vec::with_capacity(3 * triangles.len());
    for (t, tri) in triangles.iter().enumerate() {
        for k in 0..3 {
            let (a, b) = (tri[k], tri[(k + 1) % 3]);
            sides.push(([a, b], triangle_faces[t]));
        }
    }
    sides.sort_unstable_by_key(|&([a, b], _)| (a.min(b), a.max(b), a > b));
    let graph = neighbors.items().len() as u32;
    sides
        .chunk_by(|x, y| {
            (x.0[0].min(x.0[1]), x.0[0].max(x.0[1])) == (y.0[0].min(y.0[1]), y.0[0].max(y.0[1]))
        })
        .filter_map(|pair| match pair {
            [(ab, left), (_, right)] if left != right => Some((*ab, *left, *right)),
            _ => None,
        })
        .enumerate()
        .map(|(k, ([a, b], left, right))| HullEdge {
            id: neighbors
                .position(a as usize, b)
                .unwrap_or(graph.saturating_add(k as u32)),
            vertices: [a, b],
            faces: [left, right],
        })
        .collect()
}

impl<T: Real> SupportMap<T> for ConvexPolyhedron<T> {
    fn local_support_point(&self, dir: &Vector<T>) -> Point<T> {
        self.local_support_vertex(dir, VertexId::NONE).point
    }

    /// Hill climbing from `hint` on hulls of [`HILL_CLIMBING_MIN_VERTICES`] vertices or more,
    /// else a linear scan (which ignores `hint`). The id is the vertex index.
    ///
    /// A query without a usable hint on a hull of at most [`SCAN_UNHINTED_MAX_VERTICES`]
    /// vertices scans the climbing records instead of climbing: such a query is where a search
    /// starts on a hull (a new pair, the first support of a separating-axis test), often one
    /// the cache does not hold, and there the scan streams the records where a climb is a
    /// chain of misses — and it leaves the records in cache for the hinted climbs that follow.
    /// In cache it costs about twice a cold climb at 64 vertices (~56 against ~25 ns).
    fn local_support_vertex(&self, dir: &Vector<T>, hint: VertexId) -> SupportVertex<T> {
        let n = self.vertices.len();
        if n < HILL_CLIMBING_MIN_VERTICES {
            self.local_support_vertex_linear(dir)
        } else if (hint.0 as usize) >= n && n <= SCAN_UNHINTED_MAX_VERTICES {
            let best = first_maximiser(&self.climb, |c| &c.point, dir);
            SupportVertex {
                point: self.climb[best].point,
                id: VertexId(best as u32),
            }
        } else {
            self.local_support_vertex_climbing(dir, hint)
        }
    }

    fn local_vertex(&self, id: VertexId) -> Option<Point<T>> {
        self.climb.get(id.0 as usize).map(|record| record.point)
    }
}

impl<T: Real> FeatureMap<T> for ConvexPolyhedron<T> {
    /// * 3-D: of the faces through the support vertex, the one whose normal has the largest dot
    ///   product with `dir` (ties: lowest face index) — among those that contain the supporting
    ///   edge when an edge from the support vertex is perpendicular to `dir` (within
    ///   `T::TOLERANCES.feature_tie`; the face then holds the whole support set, an edge–edge
    ///   contact's witness included): `FeatureId::Face(i)`, its normal and its whole polygon,
    ///   `vertex_ids` being vertex indices.
    /// * 2-D: the front face (face 0) when `dir · n₀ ≥ 0`, else the back face (face 1).
    /// * 1-D: `FeatureId::Edge(0)` with both vertices when their support values differ by at
    ///   most `T::TOLERANCES.feature_tie × length` along the normalised `dir`, else
    ///   `FeatureId::Vertex(i)` of the better one.
    /// * 0-D: `FeatureId::Vertex(0)`.
    ///
    /// For edges and vertices `normal` is `dir` normalised, or +y when `dir` is zero.
    fn local_support_feature(&self, dir: &Vector<T>, out: &mut SupportFeature<T>) {
        self.support_feature_from(dir, VertexId::NONE, None, out);
    }

    /// [`local_support_feature`](FeatureMap::local_support_feature) with the support vertex's
    /// climb started on `previous` (a vertex of it), near the answer from one frame to the
    /// next. The climb ends on a support vertex from any start; only where several vertices tie
    /// for the support can the start decide which, and the face is then chosen among those
    /// through it by the same rule — except that a 3-D hull keeps `previous`, a face through
    /// the support vertex (holding the supporting edge if the chosen face must), while
    /// [`keeps_face_over`](Self::keeps_face_over) says so — `dir` at most [`FACE_TIE_HOLD`]
    /// past the plane where it ties with the chosen face: a hull resting on its edge keeps
    /// reporting one of the two faces through it under pose noise.
    fn local_support_feature_near(
        &self,
        dir: &Vector<T>,
        previous: Option<FeatureId>,
        out: &mut SupportFeature<T>,
    ) {
        self.support_feature_started(dir, VertexId::NONE, previous, out);
    }

    /// Vertices, edges and faces (their ids as in its supporting features: vertex indices, edge
    /// ids of the edge graph or of a loop step merging left off it, face indices) where they
    /// are; a flat hull's two faces are its polygon.
    fn local_feature_distance(&self, id: FeatureId, p: &Point<T>) -> Option<T> {
        let vertex = |i: u32| self.vertices.get(i as usize).copied();
        match id {
            FeatureId::Vertex(i) => Some((p - vertex(i)?).norm()),
            FeatureId::Edge(e) => {
                let (a, b) = self
                    .edge_vertices(e)
                    .or_else(|| self.loop_step_vertices(e))?;
                Some(Float::sqrt(segment_distance2(&vertex(a)?, &vertex(b)?, p)))
            }
            FeatureId::Face(f) if (f as usize) < self.face_count() => {
                let face = self.face(f as usize);
                let ids = face.vertex_ids;
                Some(crate::feature::polygon_distance(
                    |k| self.vertices[ids[k] as usize],
                    ids.len(),
                    &face.normal,
                    p,
                ))
            }
            FeatureId::Face(_) => None,
        }
    }
}

impl<T: Real> ConvexPolyhedron<T> {
    /// A vertex of the feature `id` — the vertex itself, an edge's first end, a face's first
    /// loop vertex —, or `None` where `id` names none of the hull's features: where a climb
    /// toward a direction that feature supports starts next to its answer.
    pub fn feature_vertex(&self, id: FeatureId) -> Option<VertexId> {
        let v = match id {
            FeatureId::Vertex(v) => v,
            FeatureId::Edge(e) => {
                self.edge_vertices(e)
                    .or_else(|| self.loop_step_vertices(e))?
                    .0
            }
            FeatureId::Face(f) if (f as usize) < self.face_count() => {
                *self.face(f as usize).vertex_ids.first()?
            }
            FeatureId::Face(_) => return None,
        };
        ((v as usize) < self.vertices.len()).then_some(VertexId(v))
    }

    /// The ends of the loop step whose edge id lies past the edge graph's (a step of a merged
    /// face's loop that is not a hull edge: its id is `edge count + the step's index among all
    /// loop steps`), if `id` names one.
    fn loop_step_vertices(&self, id: u32) -> Option<(u32, u32)> {
        let step = id.checked_sub(self.neighbors.items().len() as u32)?;
        if self.face_edges.items().get(step as usize) != Some(&id) {
            return None;
        }
        let face = self.faces.row_of(step);
        let row = self.faces.row(face);
        let k = (step - self.faces.start(face)) as usize;
        Some((row[k], row[(k + 1) % row.len()]))
    }

    /// [`FeatureMap::local_support_feature_near`] with the climb started on `start` (a vertex
    /// of the support set a query met) when it is not `VertexId::NONE`, else on `previous`; the
    /// face `previous` names is kept as that method says either way.
    pub fn support_feature_started(
        &self,
        dir: &Vector<T>,
        start: VertexId,
        previous: Option<FeatureId>,
        out: &mut SupportFeature<T>,
    ) {
        let face = match previous {
            Some(FeatureId::Face(f)) if (f as usize) < self.faces.len() => Some(f),
            _ => None,
        };
        let hint = if start.is_some() {
            Some(start.0)
        } else {
            match previous {
                Some(FeatureId::Vertex(v)) => Some(v),
                Some(FeatureId::Edge(e)) => self.edge_vertices(e).map(|(v, _)| v),
                _ => face.and_then(|f| self.faces.row(f as usize).first().copied()),
            }
        };
        self.support_feature_from(dir, hint.map_or(VertexId::NONE, VertexId), face, out);
    }

    /// Whether face `previous` is kept over face `best` along `dir` by the hysteresis of
    /// [`FeatureMap::local_support_feature_near`]: `n_previous · dir > 0` and `dir` at most
    /// `hold` past the plane where the two tie — `(n_best − n_previous) · dir ≤ hold ×
    /// |n_best − n_previous| × |dir|`, `hold` being [`FACE_TIE_HOLD`] or a quarter of
    /// `|n_best − n_previous|` if less (`tie_hold`). (That the search's best face along `dir`
    /// is `best`, and `previous` a face through its support vertex holding the tied edge if
    /// `best` does, is the caller's.) `false` when either face is out of range.
    pub fn keeps_face_over(&self, previous: u32, best: u32, dir: &Vector<T>) -> bool {
        let (Some(p), Some(b)) = (
            self.planes.get(previous as usize),
            self.planes.get(best as usize),
        ) else {
            return false;
        };
        let (n_p, n_b) = (p.normal.into_inner(), b.normal.into_inner());
        let gap = (n_b - n_p).norm();
        let along = n_p.dot(dir);
        along > T::zero() && n_b.dot(dir) - along <= tie_hold(gap) * gap * dir.norm()
    }

    /// Face `face` as the [`SupportFeature`] the hull reports along that face's normal: its
    /// vertex loop with vertex and edge ids, its outward normal. For a caller that already knows
    /// the supporting face (a separating-axis test's winning face: the hull's support feature
    /// along the face's own normal is that face). Precondition: `face < self.face_count()`
    /// (checked; out of range leaves `out` as it was and returns `false`).
    pub fn face_feature(&self, face: usize, out: &mut SupportFeature<T>) -> bool {
        if face >= self.face_count() {
            return false;
        }
        out.reset(FeatureId::Face(face as u32), self.planes[face].normal);
        let loop_ = self.faces.row(face);
        for (&v, &e) in loop_.iter().zip(self.face_edges.row(face)) {
            out.push_with_edge(self.vertex(v as usize), v, e);
        }
        true
    }

    /// How far `dir` may turn with face `face` staying this hull's supporting feature from one
    /// frame to the next: an angle `Δ ≥ 0` (radians, of unit directions) such that for every `u`
    /// with `|u − û| ≤ Δ`, `û` being `dir` normalised,
    /// [`support_feature_started`](Self::support_feature_started) along `u` with `face` for
    /// last frame's feature returns `face`, from any start vertex. 0 when nothing is certified
    /// (not a 3-D hull, `face` out of range or not that answer along `dir`, or `dir` zero or
    /// not finite).
    ///
    /// # Derivation
    /// The feature search (`support_feature_from`) climbs to a support vertex `v`, then takes,
    /// of the faces through `v`, the one with the largest `n_g · u` among those holding the
    /// edge `vw` to the first neighbour `w` with `(w − v) · u ≥ −tie |w − v|` (`tie` =
    /// `feature_tie`), if any — or last frame's face `f` instead if it is through `v`, holds
    /// that edge too, and [`keeps_face_over`](Self::keeps_face_over) says so. Suppose, for all
    /// `u` in the ball:
    ///
    /// 1. for each vertex `v` of `f` and each neighbour `w` of `v` not on `f`:
    ///    `(w − v) · u < −(tie |w − v| + δ)`, with `δ` the climb's acceptance tolerance
    ///    (`4ε R ‖u‖₁ ≤ 4√3 ε R`, `R` the coordinate bound) plus the rounding of the products;
    /// 2. for each vertex `v` of `f` and each other face `g` through `v`:
    ///    `(n_f − n_g) · u > −(h_g − η) |n_f − n_g| + η`, `h_g` being `tie_hold(|n_f − n_g|)`
    ///    (the hold of [`keeps_face_over`](Self::keeps_face_over)), and `n_f · u > η`, with `η`
    ///    the rounding of the products.
    ///
    /// Then the climb ends on `f`: it ends on a vertex within `δ` of the true maximum of `x · u`
    /// (its doc), and the vertices at or above any level induce a connected subgraph of a
    /// convex polytope's graph (every vertex has an ascending path to the top face, whose
    /// vertices are connected), so a vertex off `f` that high would be reached from `f`'s top
    /// vertex through an edge `vw` leaving `f` with `(w − v) · u ≥ −δ`, which (1) excludes —
    /// and the same argument with the level of `f`'s top shows the true maximum is on `f`.
    /// On `v ∈ f`, (1) leaves no tied neighbour off `f`, so `f` holds the tied edge if there is
    /// one, and (2) makes `f` the largest `n_g · u` of the faces through `v` or the face kept
    /// over it. The conditions are linear in `u`: a product `a · u` moves by at most `|a| Δ`
    /// over the ball, so the allowance is, less a rounding guard,
    /// `Δ = min( (−(w − v) · û − δ) / |w − v| − tie , ((n_f − n_g) · û − η) / |n_f − n_g| + h_g
    /// − η, n_f · û − η )`.
    pub fn face_support_allowance(&self, face: usize, dir: &Vector<T>) -> T {
        let Some(unit) = normalize_robust(dir).map(|u| u.into_inner()) else {
            return T::zero();
        };
        if self.dimension != 3 || face >= self.face_count() {
            return T::zero();
        }
        let eps = T::TOLERANCES.epsilon;
        let (tie, delta, eta) = (
            T::TOLERANCES.feature_tie,
            T::lit(16.0) * eps * self.coordinate_bound,
            T::lit(16.0) * eps,
        );
        let row = self.faces.row(face);
        let on_face = |w: u32| row.contains(&w);
        let n_f = self.planes[face].normal.into_inner();
        let mut allowance = n_f.dot(&unit) - eta;
        for &v in row {
            let x = self.vertex(v as usize);
            for w in self.neighbor_row(v).filter(|&w| !on_face(w)) {
                let e = self.vertex(w as usize) - x;
                let length = e.norm();
                allowance = Float::min(allowance, (-e.dot(&unit) - delta) / length - tie);
            }
            for &g in self.vertex_faces.row(v as usize) {
                if g as usize != face {
                    let gap = n_f - self.planes[g as usize].normal.into_inner();
                    let length = gap.norm();
                    let held = (gap.dot(&unit) - eta) / length + tie_hold(length) - eta;
                    allowance = Float::min(allowance, held);
                }
            }
        }
        // Rounding of the quotients above, and of the unit direction against `dir`.
        let guarded = allowance * T::lit(0.999) - T::lit(8.0) * eps;
        if guarded > T::zero() {
            guarded
        } else {
            T::zero()
        }
    }

    /// [`FeatureMap::local_support_feature`] with the support vertex's climb started at `hint`
    /// (any vertex, or `VertexId::NONE`).
    fn support_feature_from(
        &self,
        dir: &Vector<T>,
        hint: VertexId,
        previous: Option<u32>,
        out: &mut SupportFeature<T>,
    ) {
        let face = match self.dimension {
            3 => {
                let v = self.local_support_vertex(dir, hint).id.0 as usize;
                let faces = self.vertex_faces.row(v);
                let dot = |f: u32| self.planes[f as usize].normal.dot(dir);
                // A neighbour as high along dir as v (up to the tie): the support set is the
                // edge to it, and the face must hold that edge.
                // (Positions and the row from the climbing records: the climb that found v
                // has just read them.)
                let x = self.vertex(v);
                let unit = normalize_robust(dir).map(|u| u.into_inner());
                let tie = T::TOLERANCES.feature_tie;
                let tied = unit.and_then(|u| {
                    self.neighbor_row(v as u32).find(|&w| {
                        let e = self.vertex(w as usize) - x;
                        e.dot(&u) >= -tie * e.norm()
                    })
                });
                let holds_edge = |f: u32| {
                    tied.is_none_or(|w| {
                        let row = self.faces.row(f as usize);
                        let n = row.len();
                        row.iter()
                            .position(|&u| u as usize == v)
                            .is_some_and(|k| row[(k + 1) % n] == w || row[(k + n - 1) % n] == w)
                    })
                };
                // Each face's key once: the first of the faces with the largest.
                let key = |f: u32| (holds_edge(f), dot(f));
                let first = (faces[0], key(faces[0]));
                let best = faces[1..].iter().fold(first, |best, &f| {
                    let k = key(f);
                    if k > best.1 { (f, k) } else { best }
                });
                // Last frame's face, if it is through v, holds the edge when it must, and
                // `dir` is at most FACE_TIE_HOLD past the plane where it ties with the best.
                let kept = previous.filter(|&p| {
                    p != best.0
                        && faces.contains(&p)
                        && holds_edge(p) == best.1.0
                        && self.keeps_face_over(p, best.0, dir)
                });
                Some(kept.unwrap_or(best.0))
            }
            2 => Some(u32::from(self.planes[0].normal.dot(dir) < T::zero())),
            _ => None,
        };
        if let Some(f) = face {
            self.face_feature(f as usize, out);
            return;
        }
        let normal = normalize_robust(dir).unwrap_or_else(Vector::y_axis);
        if self.dimension == 0 {
            out.reset(FeatureId::Vertex(0), normal);
            out.push(self.vertices[0], 0);
            return;
        }
        let [a, b] = [self.vertices[0], self.vertices[1]];
        let gap = (b - a).dot(&normal);
        if Float::abs(gap) <= T::TOLERANCES.feature_tie * (b - a).norm() {
            // The only edge: vertex 1's position in vertex 0's neighbour list, 0.
            out.reset(FeatureId::Edge(0), normal);
            out.push_with_edge(a, 0, 0);
            out.push(b, 1);
        } else {
            let v = u32::from(gap > T::zero());
            out.reset(FeatureId::Vertex(v), normal);
            out.push(self.vertices[v as usize], v);
        }
    }
}

/// How far past the plane where two faces tie (the unit direction's distance to it) last
/// frame's face is kept, for faces whose normals are `gap` apart (`|n_b − n_p|`):
/// [`FACE_TIE_HOLD`], but at most a quarter of `gap` — half-way from the tie plane to the other
/// face's normal, which lies `gap / 2` past it — so that on a hull whose adjacent faces are
/// nearly parallel (under about 5.7° apart) a face is never held up to the other one's normal.
fn tie_hold<T: Real>(gap: T) -> T {
    Float::min(T::lit(FACE_TIE_HOLD), gap * T::lit(0.25))
}

#[cfg(test)]
mod tests {
    use super::*;
    use nphase_math::Rotation;
    use proptest::prelude::*;
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg64;

    fn random_vector(rng: &mut Pcg64) -> Vector<f64> {
        Vector::from_fn(|_, _| rng.random_range(-1.0..1.0))
    }

    fn random_unit(rng: &mut Pcg64) -> Vector<f64> {
        loop {
            let v = random_vector(rng);
            if v.norm() > 0.1 {
                break v.normalize();
            }
        }
    }

    /// The bounding box kept at construction is the vertices' tight box, on every kind of
    /// cloud (its corners are attained coordinate by coordinate, and nothing lies outside).
    #[test]
    fn kept_bounding_box_and_reach_are_the_vertices() {
        let mut rng = Pcg64::seed_from_u64(41);
        for case in 0..60 {
            let kind = case % KINDS.len();
            let cloud = random_cloud(&mut rng, 8 + case, kind);
            let hull = ConvexPolyhedron::from_points(&cloud).expect("valid cloud");
            let aabb = hull.local_aabb();
            for k in 0..3 {
                let coords = hull.vertices().iter().map(|v| v[k]);
                let lo = coords.clone().fold(f64::INFINITY, f64::min);
                let hi = coords.fold(f64::NEG_INFINITY, f64::max);
                assert_eq!((aabb.mins[k], aabb.maxs[k]), (lo, hi), "{}", KINDS[kind]);
            }
            let reach = hull.vertices().iter().map(|v| v.coords.norm());
            assert_eq!(hull.origin_reach(), reach.fold(0.0, f64::max));
        }
    }

    /// The kinds of cloud the randomized tests mix.
    const KINDS: [&str; 6] = [
        "sphere",
        "box",
        "duplicates",
        "near-coplanar",
        "lattice",
        "rotated box",
    ];

    /// `n` random points of kind `KINDS[kind]`, with random placement and scale:
    /// * sphere: all points extreme;
    /// * box: uniform in an axis-aligned box, corners included, a third snapped onto faces
    ///   (exactly coplanar points on the faces);
    /// * duplicates: a sphere or box cloud where a third of the points repeat others;
    /// * near-coplanar: a random plane with offsets of 1e-9 × size;
    /// * lattice: small integer coordinates (coplanar and collinear everywhere);
    /// * rotated box: a box cloud under a random rotation (faces coplanar only up to rounding).
    fn random_cloud(rng: &mut Pcg64, n: usize, kind: usize) -> Vec<Point<f64>> {
        let scale = 10f64.powf(rng.random_range(-2.0..2.0));
        let centre = random_vector(rng) * 10.0 * scale;
        let boxy = |rng: &mut Pcg64| {
            let h = Vector::from_fn(|_, _| rng.random_range(0.1..3.0));
            let mut pts: Vec<Vector<f64>> = (0..8)
                .map(|i| Vector::from_fn(|k, _| if i >> k & 1 == 0 { -h[k] } else { h[k] }))
                .collect();
            while pts.len() < n {
                let mut p = random_vector(rng).component_mul(&h);
                if rng.random_bool(1.0 / 3.0) {
                    let k = rng.random_range(0..3);
                    p[k] = if rng.random_bool(0.5) { h[k] } else { -h[k] };
                }
                pts.push(p);
            }
            pts.truncate(n);
            pts
        };
        let local: Vec<Vector<f64>> = match KINDS[kind] {
            "sphere" => (0..n).map(|_| random_unit(rng)).collect(),
            "box" => boxy(rng),
            "duplicates" => {
                let mut pts = if rng.random_bool(0.5) {
                    (0..n).map(|_| random_unit(rng)).collect()
                } else {
                    boxy(rng)
                };
                for i in 0..n {
                    if i > 0 && rng.random_bool(1.0 / 3.0) {
                        pts[i] = pts[rng.random_range(0..i)];
                    }
                }
                pts
            }
            "near-coplanar" => {
                let normal = random_unit(rng);
                let (u, v) = (normal.cross(&random_unit(rng)).normalize(), normal);
                let w = v.cross(&u);
                (0..n)
                    .map(|_| {
                        let (s, t) = (rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0));
                        u * s + w * t + v * (1e-9 * rng.random_range(-1.0..1.0))
                    })
                    .collect()
            }
            "lattice" => {
                let k = (n as f64).cbrt().ceil() as i32;
                (0..n)
                    .map(|_| {
                        Vector::from_fn(|_, _| f64::from(rng.random_range(-k..=k)) / f64::from(k))
                    })
                    .collect()
            }
            _ => {
                let rotation = Rotation::new(random_vector(rng) * 3.0);
                boxy(rng).iter().map(|p| rotation * p).collect()
            }
        };
        local
            .iter()
            .map(|p| Point::from(centre + p * scale))
            .collect()
    }

    /// Dot product in f64 (exact inputs, one rounding per operation): the referee's measure.
    fn dot64<T: Real>(p: &Point<T>, d: &Vector<T>) -> f64 {
        (0..3).map(|k| p[k].as_f64() * d[k].as_f64()).sum()
    }

    /// The rounding slack of comparing `x · d` computed in `T` over points within `radius` of
    /// the origin: climbing is within `4ε · R · ‖d‖₁ ≤ 7ε · radius · ‖d‖` of the maximum, and the
    /// referee's f64 dot products add their own rounding; 16ε leaves a margin.
    fn slack<T: Real>(d: &Vector<T>, radius: f64) -> f64 {
        16.0 * T::TOLERANCES.epsilon.as_f64() * d.map(T::as_f64).norm() * radius
    }

    fn climbing_equals_brute_force<T: Real>(seed: u64, hulls: usize) {
        let mut rng = Pcg64::seed_from_u64(seed);
        let (mut smallest, mut largest, mut queries) = (usize::MAX, 0, 0);
        let mut per_kind = [0; KINDS.len()];
        for h in 0..hulls {
            let kind = h % KINDS.len();
            let n = (rng.random_range(4f64.ln()..4096f64.ln())).exp().round() as usize;
            let cloud: Vec<Point<T>> = random_cloud(&mut rng, n, kind)
                .iter()
                .map(|p| p.map(T::lit))
                .collect();
            let hull = ConvexPolyhedron::from_points(&cloud).expect("finite non-empty cloud");
            let verts = hull.vertices();
            let nv = verts.len();
            (smallest, largest) = (smallest.min(nv), largest.max(nv));
            per_kind[kind] += usize::from(hull.dimension() == 3);
            let radius = verts
                .iter()
                .map(|v| v.coords.map(T::as_f64).norm())
                .fold(0.0, f64::max);

            let mut dirs: Vec<Vector<f64>> = (0..16)
                .map(|_| random_unit(&mut rng) * 10f64.powf(rng.random_range(-3.0..3.0)))
                .collect();
            dirs.extend((0..6).map(|k| Vector::ith(k / 2, if k % 2 == 0 { 1.0 } else { -1.0 })));
            dirs.push(Vector::zeros());
            // Face normals: whole faces tie.
            for f in 0..hull.face_count().min(4) {
                dirs.push(hull.face(f).normal.map(T::as_f64));
            }
            let mut previous = VertexId::NONE;
            for d in dirs {
                let d: Vector<T> = d.map(T::lit);
                let best = dot64(&hull.local_support_vertex_linear(&d).point, &d);
                let truth = verts.iter().map(|v| dot64(v, &d)).fold(f64::MIN, f64::max);
                let tol = slack(&d, radius);
                assert!(best >= truth - tol, "linear scan: {best} < {truth}");
                let hints = [
                    VertexId::NONE,
                    VertexId(rng.random_range(0..nv as u32)),
                    VertexId(nv as u32 + rng.random_range(0..3)),
                    previous,
                ];
                for hint in hints {
                    let climbed = hull.local_support_vertex_climbing(&d, hint);
                    let got = dot64(&climbed.point, &d);
                    assert!(
                        (got - best).abs() <= tol,
                        "{} cloud, {n} points, {nv} vertices, dir {d:?}, hint {hint:?}: \
                         climbing {got} vs linear {best}",
                        KINDS[kind]
                    );
                    assert_eq!(climbed.point, verts[climbed.id.0 as usize]);
                    previous = climbed.id;
                    queries += 1;
                }
                let dispatched = hull.local_support_vertex(&d, previous);
                assert!((dot64(&dispatched.point, &d) - best).abs() <= tol);
            }
        }
        // The sample must span the sizes and kinds it claims to.
        assert!(
            smallest <= 6 && largest >= 2000,
            "vertex counts {smallest}..{largest}"
        );
        assert!(
            per_kind.iter().all(|&k| k > hulls / 12),
            "solids per kind: {per_kind:?}"
        );
        assert!(queries > 80 * hulls);
    }

    /// Climbing reads each vertex's neighbours from its own record, or from the table when the
    /// row is too long to be inline: the same rows either way, on every cloud kind and on a
    /// pyramid whose apex has 24 neighbours (both kinds of row occur).
    #[test]
    fn climbing_rows_are_the_neighbour_rows() {
        let mut rng = Pcg64::seed_from_u64(43);
        let mut clouds: Vec<Vec<Point<f64>>> = (0..36)
            .map(|case| random_cloud(&mut rng, 6 + 7 * case, case % KINDS.len()))
            .collect();
        let mut pyramid: Vec<Point<f64>> = (0..24)
            .map(|k| {
                let t = core::f64::consts::TAU * k as f64 / 24.0;
                Point::new(t.cos(), t.sin(), 0.0)
            })
            .collect();
        pyramid.push(Point::new(0.1, -0.2, 1.5));
        clouds.push(pyramid);
        let (mut inline, mut shared) = (0, 0);
        for cloud in &clouds {
            let hull = ConvexPolyhedron::from_points(cloud).expect("valid cloud");
            for v in 0..hull.vertices().len() {
                let row: Vec<u32> = hull.neighbor_row(v as u32).collect();
                assert_eq!(row, hull.vertex_neighbors(v), "vertex {v}");
                assert_eq!(hull.climb[v].point, hull.vertices()[v]);
                assert_eq!(hull.vertex(v), hull.vertices()[v]);
                assert_eq!(
                    hull.local_vertex(VertexId(v as u32)),
                    Some(hull.vertices()[v])
                );
                if hull.climb[v].len == ClimbVertex::<f64>::SHARED {
                    shared += 1;
                } else {
                    inline += 1;
                }
            }
        }
        assert!(
            inline > 1000 && shared > 0,
            "{inline} inline rows, {shared} shared"
        );
    }

    /// Each face's plane holds its normal and the offset of its first loop vertex, and every
    /// loop vertex lies on it.
    #[test]
    fn face_planes_are_the_faces_planes() {
        let mut rng = Pcg64::seed_from_u64(44);
        for case in 0..24 {
            let cloud = random_cloud(&mut rng, 8 + 5 * case, case % KINDS.len());
            let hull = ConvexPolyhedron::from_points(&cloud).expect("valid cloud");
            assert_eq!(hull.face_planes().len(), hull.face_count());
            for (f, plane) in hull.face_planes().iter().enumerate() {
                let face = hull.face(f);
                assert_eq!(plane.normal, face.normal);
                assert_eq!(hull.face_plane(f), (&plane.normal, plane.offset));
                let first = hull.vertices()[face.vertex_ids[0] as usize];
                assert_eq!(plane.offset, plane.normal.dot(&first.coords));
                for &v in face.vertex_ids {
                    let height = plane.normal.dot(&hull.vertices()[v as usize].coords);
                    assert!(
                        (height - plane.offset).abs() <= 1e-9,
                        "case {case} face {f}"
                    );
                }
            }
        }
    }

    #[test]
    fn hill_climbing_equals_brute_force_on_random_hulls_f64() {
        climbing_equals_brute_force::<f64>(11, 1000);
    }

    #[test]
    fn hill_climbing_equals_brute_force_on_random_hulls_f32() {
        climbing_equals_brute_force::<f32>(12, 1000);
    }

    /// Regression: climbing stuck on a rounding plateau. A rotated box whose faces carry many
    /// points has, after rounding, vertices that are bumps of ~1e-16 on its faces. Along a face
    /// normal every vertex of the opposite face ties with its neighbours up to rounding, so a
    /// climb that moved only on strict improvement and started at a bump there stopped at once,
    /// a whole box height below the maximum. The climb now searches such plateaus.
    #[test]
    fn climbing_leaves_rounding_plateaus_along_face_normals() {
        let mut rng = Pcg64::seed_from_u64(41);
        let rotation = Rotation::new(Vector::new(0.3, -1.1, 0.7));
        let mut hits = 0;
        for _ in 0..5 {
            let mut cloud = Vec::new();
            for _ in 0..400 {
                let mut p = random_vector(&mut rng);
                p[rng.random_range(0..3)] = if rng.random_bool(0.5) { 1.0 } else { -1.0 };
                cloud.push(Point::from(
                    rotation * (p * 7.0) + Vector::new(30.0, -20.0, 10.0),
                ));
            }
            let hull = ConvexPolyhedron::from_points(&cloud).expect("valid cloud");
            let radius = cloud.iter().map(|p| p.coords.norm()).fold(0.0, f64::max);
            for f in 0..hull.face_count() {
                let d = hull.face(f).normal.into_inner();
                let best = dot64(&hull.local_support_vertex_linear(&d).point, &d);
                for start in 0..hull.vertices().len() {
                    let got = hull.local_support_vertex_climbing(&d, VertexId(start as u32));
                    assert!((dot64(&got.point, &d) - best).abs() <= slack(&d, radius));
                    hits += usize::from(hull.vertex_faces(start).len() == 1);
                }
            }
        }
        assert!(
            hits > 0,
            "the sample must contain face bumps (vertices on one face only)"
        );
    }

    /// `feature_vertex` names a vertex of the feature: a face's loop vertex, an edge's end
    /// (hull edges and the loop steps of merged faces alike), the vertex itself; `None` for ids
    /// past the hull's.
    #[test]
    fn feature_vertices_lie_on_their_features() {
        let mut rng = Pcg64::seed_from_u64(57);
        for h in 0..60 {
            let n = rng.random_range(4..120);
            let cloud = random_cloud(&mut rng, n, h % KINDS.len());
            let hull = ConvexPolyhedron::from_points(&cloud).expect("valid cloud");
            let vertex = |id| hull.feature_vertex(id).map(|v| v.0);
            let mut feature = SupportFeature::default();
            for f in 0..hull.face_count() {
                let face = hull.face(f);
                let on_face = vertex(FeatureId::Face(f as u32)).expect("a face's vertex");
                assert!(face.vertex_ids.contains(&on_face), "hull {h}, face {f}");
                // The loop's edges, as the face's supporting feature reports them.
                hull.local_support_feature(&face.normal.into_inner(), &mut feature);
                if feature.id == FeatureId::Face(f as u32) {
                    for &e in &feature.edge_ids {
                        let end = vertex(FeatureId::Edge(e)).expect("a loop edge's end");
                        assert!(
                            face.vertex_ids.contains(&end),
                            "hull {h}, face {f}, edge {e}"
                        );
                    }
                }
            }
            for e in hull.edges() {
                let end = vertex(FeatureId::Edge(e.id)).expect("an edge's end");
                assert!(e.vertices.contains(&end), "hull {h}, edge {}", e.id);
            }
            let count = hull.vertices().len() as u32;
            assert_eq!(vertex(FeatureId::Vertex(count - 1)), Some(count - 1));
            assert_eq!(vertex(FeatureId::Vertex(count)), None);
            assert_eq!(vertex(FeatureId::Face(hull.face_count() as u32)), None);
            assert_eq!(vertex(FeatureId::Edge(u32::MAX)), None);
        }
    }

    fn cube() -> ConvexPolyhedron<f64> {
        let mut cloud: Vec<Point<f64>> = (0..8)
            .map(|i| {
                Point::from(Vector::from_fn(
                    |k, _| if i >> k & 1 == 0 { -1.0 } else { 1.0 },
                ))
            })
            .collect();
        for k in 0..6 {
            cloud.push(Point::from(Vector::ith(
                k / 2,
                if k % 2 == 0 { 1.0 } else { -1.0 },
            )));
        }
        ConvexPolyhedron::from_points(&cloud).expect("valid cloud")
    }

    /// The edges between faces: each runs counter-clockwise about its left face and clockwise
    /// about its right one, along `n₀ × n₁` on a solid (the orientation of its Gauss arc the
    /// separating-axis test relies on), and together they cover every side of every face loop
    /// (in pieces where a loop skips a vertex within the merge tolerance).
    #[test]
    fn edges_name_both_faces_with_the_gauss_arc_orientation() {
        let mut rng = Pcg64::seed_from_u64(51);
        for h in 0..120 {
            let n = rng.random_range(4..200);
            let cloud = random_cloud(&mut rng, n, h % KINDS.len());
            let hull = ConvexPolyhedron::from_points(&cloud).expect("valid cloud");
            let v = hull.vertices();
            let size = v.iter().map(|p| p.coords.norm()).fold(0.0, f64::max);
            for e in hull.edges() {
                let [t, hd] = e.vertices;
                assert_ne!(e.faces[0], e.faces[1]);
                let [n0, n1] = e.faces.map(|f| hull.face(f as usize).normal.into_inner());
                let dir = v[hd as usize] - v[t as usize];
                if hull.dimension() == 3 {
                    assert!(dir.dot(&n0.cross(&n1)) > 0.0, "edge {e:?}");
                } else {
                    assert!(dir.cross(&n0).norm() > 0.0);
                }
            }
            for f in 0..hull.face_count() {
                let row = hull.face(f).vertex_ids;
                for k in 0..row.len() {
                    let (a, b) = (v[row[k] as usize], v[row[(k + 1) % row.len()] as usize]);
                    let on_side = |p: &Point<f64>| {
                        let t = (p - a).dot(&(b - a)) / (b - a).norm_squared();
                        (a + (b - a) * t - p).norm() <= 1e-6 * size
                            && (-1e-9..=1.0 + 1e-9).contains(&t)
                    };
                    let covered: f64 = hull
                        .edges()
                        .iter()
                        .filter(|e| e.faces.contains(&(f as u32)))
                        .filter(|e| e.vertices.iter().all(|&w| on_side(&v[w as usize])))
                        .map(|e| (v[e.vertices[1] as usize] - v[e.vertices[0] as usize]).norm())
                        .sum();
                    assert!(
                        (covered - (b - a).norm()).abs() <= 1e-9 * size,
                        "face {f} side {k}: {covered} of {}",
                        (b - a).norm()
                    );
                }
            }
        }
    }

    #[test]
    fn cube_supporting_face_is_the_whole_quad() {
        let cube = cube();
        assert_eq!((cube.vertices().len(), cube.face_count()), (8, 6));
        let mut feature = SupportFeature::default();
        cube.local_support_feature(&Vector::new(0.1, -0.2, 1.0), &mut feature);
        let FeatureId::Face(f) = feature.id else {
            panic!("expected a face, got {:?}", feature.id)
        };
        assert_eq!(feature.normal, Vector::z_axis());
        assert_eq!(feature.normal, cube.face(f as usize).normal);
        assert_eq!(feature.vertex_ids, cube.face(f as usize).vertex_ids);
        assert_eq!(feature.vertices.len(), 4);
        assert!(feature.vertices.iter().all(|v| v.z == 1.0));
    }

    /// Checks the supporting feature of a solid along `d` against its contract.
    fn check_face_feature<T: Real>(hull: &ConvexPolyhedron<T>, d: &Vector<T>, tol: T) {
        let mut feature = SupportFeature::default();
        hull.local_support_feature(d, &mut feature);
        let FeatureId::Face(f) = feature.id else {
            panic!("a solid's feature is a face, got {:?}", feature.id)
        };
        let face = hull.face(f as usize);
        assert_eq!(feature.normal, face.normal);
        assert_eq!(feature.vertex_ids, face.vertex_ids);
        for (p, &id) in feature.vertices.iter().zip(&feature.vertex_ids) {
            assert_eq!(*p, hull.vertices()[id as usize]);
        }
        let support = hull.local_support_vertex(d, VertexId::NONE).id.0 as usize;
        let candidates = hull.vertex_faces(support);
        assert!(candidates.contains(&f), "the face holds the support vertex");
        // Where an edge from the support vertex is perpendicular to d (a tie), the face holds
        // it; among the faces that do (all of them, without a tie), the normal is the best.
        let holds = |g: u32, w: u32| {
            let row = hull.face(g as usize).vertex_ids;
            let n = row.len();
            row.iter()
                .position(|&u| u as usize == support)
                .is_some_and(|k| row[(k + 1) % n] == w || row[(k + n - 1) % n] == w)
        };
        // (Ties are judged with a factor 2 of slack either way: the hull rounds its own.)
        let u = d.normalize();
        let tied_within = |factor: f64| {
            hull.vertex_neighbors(support)
                .iter()
                .copied()
                .filter(move |&w| {
                    let e = hull.vertices()[w as usize] - hull.vertices()[support];
                    e.dot(&u) >= -T::TOLERANCES.feature_tie * T::lit(factor) * e.norm()
                })
        };
        let clearly_tied = tied_within(0.5).any(|w| candidates.iter().any(|&g| holds(g, w)));
        if clearly_tied {
            assert!(
                tied_within(2.0).any(|w| holds(f, w)),
                "the face holds the supporting edge"
            );
        } else if tied_within(2.0).next().is_none() {
            for &g in candidates {
                assert!(hull.face(g as usize).normal.dot(d) <= face.normal.dot(d));
            }
        }
        let n = face.normal.into_inner();
        let m = feature.vertices.len();
        assert!(m >= 3);
        for k in 0..m {
            let [p, a, q] = [(k + m - 1) % m, k, (k + 1) % m].map(|i| feature.vertices[i]);
            assert!(
                Float::abs((a - feature.vertices[0]).dot(&n)) <= tol,
                "planar"
            );
            assert!(
                (q - p).cross(&(a - p)).dot(&n) <= tol * (q - p).norm(),
                "convex, CCW"
            );
        }
    }

    #[test]
    fn supporting_face_contains_the_support_vertex_and_has_its_best_normal() {
        fn run<T: Real>(seed: u64) {
            let mut rng = Pcg64::seed_from_u64(seed);
            for h in 0..60 {
                let kind = h % KINDS.len();
                let n = rng.random_range(4..300);
                let cloud: Vec<Point<T>> = random_cloud(&mut rng, n, kind)
                    .iter()
                    .map(|p| p.map(T::lit))
                    .collect();
                let hull = ConvexPolyhedron::from_points(&cloud).expect("valid cloud");
                if hull.dimension() != 3 {
                    continue;
                }
                let (lo, hi) = hull
                    .vertices()
                    .iter()
                    .fold((cloud[0], cloud[0]), |(lo, hi), p| (lo.inf(p), hi.sup(p)));
                let size = (hi - lo).norm() * T::lit(0.5);
                let tol = T::lit(4.0) * T::TOLERANCES.degenerate * size;
                for _ in 0..20 {
                    check_face_feature(&hull, &random_unit(&mut rng).map(T::lit), tol);
                }
                for f in 0..hull.face_count() {
                    check_face_feature(&hull, &hull.face(f).normal.into_inner(), tol);
                }
            }
        }
        run::<f64>(21);
        run::<f32>(22);
    }

    #[test]
    fn lower_dimensional_features() {
        let mut feature = SupportFeature::default();
        // 2-D: a square in the plane z = 2; front face (+z) or back face by the sign of d · n.
        let square = [
            (0.0, 0.0),
            (1.0, 0.0),
            (1.0, 1.0),
            (0.0, 1.0),
            (0.5, 0.5),
            (0.5, 0.0),
        ]
        .map(|(x, y)| Point::new(x, y, 2.0));
        let polygon = ConvexPolyhedron::<f64>::from_points(&square).expect("valid");
        assert_eq!(
            (
                polygon.dimension(),
                polygon.vertices().len(),
                polygon.face_count()
            ),
            (2, 4, 2)
        );
        polygon.local_support_feature(&Vector::new(0.3, 0.0, 1.0), &mut feature);
        assert_eq!(
            (feature.id, feature.normal),
            (FeatureId::Face(0), Vector::z_axis())
        );
        assert_eq!(feature.vertices.len(), 4);
        polygon.local_support_feature(&Vector::new(0.3, 0.0, -1.0), &mut feature);
        assert_eq!(
            (feature.id, feature.normal),
            (FeatureId::Face(1), -Vector::z_axis())
        );

        // 1-D: an edge when the direction is (nearly) perpendicular, else the better end.
        let line = [
            Point::new(0.0, 0.0, 0.0),
            Point::new(2.0, 0.0, 0.0),
            Point::new(1.0, 0.0, 0.0),
        ];
        let segment = ConvexPolyhedron::<f64>::from_points(&line).expect("valid");
        assert_eq!((segment.dimension(), segment.vertices().len()), (1, 2));
        segment.local_support_feature(&Vector::new(1e-9, 3.0, 0.0), &mut feature);
        assert_eq!(
            (feature.id, feature.vertex_ids.as_slice()),
            (FeatureId::Edge(0), &[0, 1][..])
        );
        segment.local_support_feature(&Vector::new(-1e-3, 1.0, 0.0), &mut feature);
        assert_eq!(feature.id, FeatureId::Vertex(0));
        assert_eq!(feature.vertices, [Point::new(0.0, 0.0, 0.0)]);
        assert!((feature.normal.norm() - 1.0).abs() < 1e-15);

        // 0-D.
        let point =
            ConvexPolyhedron::<f32>::from_points(&[Point::new(1.0, 2.0, 3.0); 3]).expect("valid");
        point.local_support_feature(&Vector::new(1.0, 0.0, 0.0), &mut feature_f32());
        let mut f = feature_f32();
        point.local_support_feature(&Vector::new(0.0, 0.0, 0.0), &mut f);
        assert_eq!(
            (f.id, f.vertices.as_slice()),
            (FeatureId::Vertex(0), &[Point::new(1.0, 2.0, 3.0)][..])
        );
        assert_eq!(f.normal, Vector::y_axis());
    }

    fn feature_f32() -> SupportFeature<f32> {
        SupportFeature::default()
    }

    #[test]
    fn zero_and_tiny_directions_never_give_nan() {
        let mut rng = Pcg64::seed_from_u64(31);
        for kind in 0..KINDS.len() {
            for n in [1, 2, 3, 40, 400] {
                let cloud = random_cloud(&mut rng, n, kind);
                let hull = ConvexPolyhedron::from_points(&cloud).expect("valid");
                for d in [
                    Vector::zeros(),
                    Vector::new(1e-320, 0.0, -1e-320),
                    Vector::new(f64::NAN, 0.0, 0.0),
                ] {
                    let p = hull.local_support_point(&d);
                    assert!(p.iter().all(|x| x.is_finite()));
                    assert_eq!(p, hull.local_support_point(&d), "deterministic");
                    let mut feature = SupportFeature::default();
                    hull.local_support_feature(&d, &mut feature);
                    assert!(feature.normal.iter().all(|x| x.is_finite()));
                    assert!(!feature.vertices.is_empty());
                }
                let linear = hull.local_support_vertex_linear(&Vector::zeros());
                assert_eq!(linear.id, VertexId(0), "ties go to the lowest index");
            }
        }
    }

    #[test]
    fn constructor_errors_name_the_field() {
        assert_eq!(
            ConvexPolyhedron::<f64>::from_points(&[]),
            Err(ShapeError::EmptyPointCloud)
        );
        let mut cloud = vec![Point::new(0.0f32, 0.0, 0.0); 5];
        cloud[3].y = f32::NAN;
        cloud[4].z = f32::INFINITY;
        assert_eq!(
            ConvexPolyhedron::from_points(&cloud),
            Err(ShapeError::NotFinite {
                shape: "convex",
                field: "points[3].y".to_owned()
            })
        );
    }

    fn coordinate() -> impl Strategy<Value = f64> {
        // Small integers make ties, coplanar and collinear points common.
        prop_oneof![(-3i32..=3).prop_map(f64::from), -100.0..100.0f64]
    }

    fn cloud_and_direction() -> impl Strategy<Value = (Vec<[f64; 3]>, [f64; 3], u32)> {
        (
            prop::collection::vec([coordinate(), coordinate(), coordinate()], 1..48),
            [coordinate(), coordinate(), coordinate()],
            any::<u32>(),
        )
    }

    /// The support point maximises `x · d` over the input points within rounding, is one of
    /// them, and the dispatching query agrees, whatever the hint.
    fn check_support_maximises<T: Real>(cloud: &[[f64; 3]], d: [f64; 3], hint: u32) {
        let points: Vec<Point<T>> = cloud.iter().map(|p| Point::from(p.map(T::lit))).collect();
        let d = Vector::from(d.map(T::lit));
        let hull = ConvexPolyhedron::from_points(&points).expect("finite non-empty cloud");
        let radius = points
            .iter()
            .map(|p| p.coords.map(T::as_f64).norm())
            .fold(0.0, f64::max);
        let truth = points.iter().map(|p| dot64(p, &d)).fold(f64::MIN, f64::max);
        let hint = VertexId(hint % (2 * hull.vertices().len() as u32));
        for s in [
            hull.local_support_point(&d),
            hull.local_support_vertex(&d, hint).point,
            hull.local_support_vertex_climbing(&d, hint).point,
            hull.local_support_vertex_linear(&d).point,
        ] {
            assert!(points.contains(&s));
            assert!(
                dot64(&s, &d) >= truth - slack(&d, radius),
                "{s:?} is not a maximiser"
            );
        }
    }

    /// [`ConvexPolyhedron::face_support_allowance`] is sound: along every direction within the
    /// allowance of one whose supporting face it certifies — on the boundary of the ball
    /// included — the feature search with that face for last frame's returns it from any
    /// start vertex. And it is not empty:
    /// along face normals of hulls with well-separated faces it certifies a real angle.
    fn allowance_keeps_the_face<T: Real>(seed: u64) {
        let mut rng = Pcg64::seed_from_u64(seed);
        let (mut certified, mut asked, mut wide) = (0, 0, 0);
        for h in 0..240 {
            let kind = h % KINDS.len();
            let n = rng.random_range(4..120);
            let cloud: Vec<Point<T>> = random_cloud(&mut rng, n, kind)
                .iter()
                .map(|p| p.map(T::lit))
                .collect();
            let hull = ConvexPolyhedron::from_points(&cloud).expect("finite non-empty cloud");
            let mut feature = SupportFeature::default();
            for q in 0..20 {
                // Half the directions near a face normal (a resting contact), half at random.
                let dir: Vector<f64> = if q % 2 == 0 && hull.face_count() > 0 {
                    let f = rng.random_range(0..hull.face_count());
                    let normal = hull.planes[f].normal.map(T::as_f64);
                    (normal + random_vector(&mut rng) * 0.05).normalize()
                } else {
                    random_unit(&mut rng)
                };
                let dir_t = dir.map(T::lit);
                hull.local_support_feature(&dir_t, &mut feature);
                let FeatureId::Face(face) = feature.id else {
                    continue;
                };
                let allowance = hull.face_support_allowance(face as usize, &dir_t);
                asked += 1;
                if allowance <= T::zero() {
                    continue;
                }
                certified += 1;
                let allowance = allowance.as_f64();
                wide += usize::from(allowance > 0.01);
                let unit = dir_t.map(T::as_f64).normalize();
                for s in 0..24 {
                    // A direction at chord `r · allowance` from `unit`: r = 1 on half of them.
                    let r = if s % 2 == 0 {
                        1.0
                    } else {
                        rng.random_range(0.0..1.0)
                    };
                    let side = unit.cross(&random_unit(&mut rng)).normalize();
                    let angle = 2.0 * (r * allowance / 2.0).min(1.0).asin();
                    let turned = (unit * angle.cos() + side * angle.sin()).map(T::lit);
                    let start = if rng.random_bool(0.5) {
                        VertexId::NONE
                    } else {
                        VertexId(rng.random_range(0..hull.vertices.len() as u32))
                    };
                    let previous = Some(FeatureId::Face(face));
                    hull.support_feature_started(&turned, start, previous, &mut feature);
                    assert_eq!(
                        feature.id,
                        FeatureId::Face(face),
                        "{}: turned by {r} of the allowance {allowance}",
                        KINDS[kind]
                    );
                }
            }
        }
        assert!(asked > 2000, "{asked} faces asked");
        assert!(certified * 2 > asked, "{certified} of {asked} certified");
        assert!(
            wide * 3 > certified,
            "{wide} of {certified} wider than 0.01 rad"
        );
    }

    #[test]
    fn face_support_allowance_keeps_the_face_f64() {
        allowance_keeps_the_face::<f64>(71);
    }

    #[test]
    fn face_support_allowance_keeps_the_face_f32() {
        allowance_keeps_the_face::<f32>(72);
    }

    proptest! {
        #[test]
        fn support_point_maximises_over_the_cloud_f64((cloud, d, hint) in cloud_and_direction()) {
            check_support_maximises::<f64>(&cloud, d, hint);
        }

        #[test]
        fn support_point_maximises_over_the_cloud_f32((cloud, d, hint) in cloud_and_direction()) {
            check_support_maximises::<f32>(&cloud, d, hint);
        }
    }
}
