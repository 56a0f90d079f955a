//! The exact convex hull of a point cloud, with coplanar triangles merged into polygon faces.
//!
//! # Method
//! Quickhull with conflict ("outside") lists (Barber, Dobkin, Huhdanpaa, *The Quickhull
//! Algorithm for Convex Hulls*, ACM TOMS 22(4), 1996), computed in `f64` whatever the caller's
//! precision (`f32` widens exactly), where every combinatorial decision is exact: Shewchuk's
//! predicates (`robust::orient3d`, `orient2d`), behind a floating-point plane filter with a
//! proven error bound ([`FilteredPlane`]) that answers alone when it is certain. A point is
//! inserted only when it lies *strictly* outside a face. With exact predicates three facts hold
//! at every step, so the result is the exact hull, not an approximation of it:
//! * the triangulated surface bounds the convex hull of the points inserted so far (coplanar
//!   neighbouring triangles are allowed, a reflex edge never appears);
//! * the triangles a new point sees form a disk whose horizon is a simple cycle;
//! * a point of a deleted triangle's outside list that sees none of the new triangles is inside
//!   the new hull: the new triangles' half-spaces meet in the tangent cone at the new apex `p`,
//!   and a point `q = p + t (h − p)` of that cone (`h` in the old hull) outside the new hull has
//!   `t > 1`, which puts `h` on the segment `p q` and so above the deleted plane, a contradiction.
//!
//! # Pipeline
//! 1. The cloud is scaled by a power of two so its largest coordinate is about 1 (exact, and it
//!    keeps Shewchuk's expansions away from overflow); exact duplicates are dropped (the lowest
//!    input index of each group is kept).
//! 2. The dimension is found exactly: one distinct point → 0-D; all points exactly collinear →
//!    1-D, the two extreme points; all exactly coplanar → 2-D, the exact 2-D hull (Andrew's
//!    monotone chain with `orient2d`) in the coordinate plane across the largest component of
//!    the exact normal — for exactly coplanar points that projection is one-to-one and keeps
//!    orientation; otherwise 3-D.
//! 3. 3-D: quickhull from a well-spread initial tetrahedron. A point inserted early can end up
//!    on an edge or inside a face of the final hull; such a vertex is one where fewer than three
//!    exact planes meet (fewer than three *sharp* edges, below). They are dropped and the hull
//!    rebuilt from the remaining points, so every output vertex is an extreme point.
//! 4. Edges: a triangulation edge is a hull edge ("sharp") when its two triangles are not
//!    exactly coplanar. These are exactly the edges of the polytope, the graph hill climbing
//!    needs (a vertex with no better neighbour along true edges is a global maximiser).
//! 5. Faces: coplanar and nearly coplanar triangles are merged into convex polygons by the
//!    rule documented on [`merge_faces`], with the tolerance `merge_tolerance × size`, `size`
//!    being the cloud's bounding-box half-diagonal; exact facets always become one face each.
//!    Face normals are Newell's (the sum of the face's triangle area vectors), made unit.
//!
//! # Conventions
//! Face loops are counter-clockwise seen from outside (about the outward normal) and start at
//! their lowest vertex index. A 2-D hull is reported as two faces: the front face, whose normal
//! has a positive component along the axis of its largest component, and the back face, with
//! the opposite normal and the reversed loop. Hull vertices are numbered in increasing order of
//! their input index. 0-D and 1-D hulls have no faces.
//!
//! # Limits
//! Exactness needs Shewchuk's expansions to neither overflow nor underflow: always true for
//! `f32` input, and for `f64` input unless coordinate differences smaller than about `1e-100`
//! of the cloud's size occur. Should a predicate still misjudge (the horizon found is not a
//! simple cycle), the offending point is skipped instead of corrupting the mesh. Faces are
//! exact only where the surface is exactly planar; elsewhere they are within the merge
//! tolerance of it.

use nphase_math::{Vector, normalize_robust};
use robust::{Coord, Coord3D, orient2d, orient3d};

type V = Vector<f64>;

/// "No triangle": the sentinel in adjacency and ownership arrays.
const NONE: u32 = u32::MAX;

/// Two triangles merge only when their normals are within 60° (`n_a · n_b ≥ 1/2`). This is a
/// guard, not the coplanarity test: it keeps the side wall of a slab thinner than the merge
/// tolerance (normal at 90°) out of the slab's big faces.
const MERGE_MIN_NORMAL_DOT: f64 = 0.5;

/// Compressed sparse rows: row `r` is `items[offsets[r]..offsets[r + 1]]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Csr {
    offsets: Vec<u32>,
    items: Vec<u32>,
}

impl Csr {
    fn new() -> Self {
        Csr {
            offsets: vec![0],
            items: Vec::new(),
        }
    }

    /// Rows `0..rows` filled from `(row, item)` pairs, items kept in the order given.
    fn from_pairs(rows: usize, pairs: &[(u32, u32)]) -> Self {
        let mut offsets = vec![0u32; rows + 1];
        for &(r, _) in pairs {
            offsets[r as usize + 1] += 1;
        }
        for r in 0..rows {
            offsets[r + 1] += offsets[r];
        }
        let mut fill = offsets.clone();
        let mut items = vec![0u32; pairs.len()];
        for &(r, item) in pairs {
            items[fill[r as usize] as usize] = item;
            fill[r as usize] += 1;
        }
        Csr { offsets, items }
    }

    fn push_row(&mut self, row: impl IntoIterator<Item = u32>) {
        self.items.extend(row);
        self.offsets.push(to_u32(self.items.len()));
    }

    fn sort_rows(&mut self) {
        for r in 0..self.len() {
            let range = self.offsets[r] as usize..self.offsets[r + 1] as usize;
            self.items[range].sort_unstable();
        }
    }

    /// The number of rows.
    pub(crate) fn len(&self) -> usize {
        self.offsets.len() - 1
    }

    /// Row `r`. Panics when `r >= len()`.
    pub(crate) fn row(&self, r: usize) -> &[u32] {
        &self.items[self.offsets[r] as usize..self.offsets[r + 1] as usize]
    }

    /// The index among all items of `item` in the (sorted) row `r`, if it is there.
    pub(crate) fn position(&self, r: usize, item: u32) -> Option<u32> {
        let start = self.offsets[r];
        self.row(r)
            .binary_search(&item)
            .ok()
            .map(|k| start + k as u32)
    }

    /// The index among all items of the first item of row `r`.
    pub(crate) fn start(&self, r: usize) -> u32 {
        self.offsets[r]
    }

    /// The row an item index falls in (the inverse of [`Csr::position`]'s row).
    pub(crate) fn row_of(&self, index: u32) -> usize {
        self.offsets.partition_point(|&o| o <= index) - 1
    }

    /// All items, row after row.
    pub(crate) fn items(&self) -> &[u32] {
        &self.items
    }

    /// A CSR with the same rows as `self`, each item replaced by `f(row, k)` for its position
    /// `k` in the row.
    pub(crate) fn map_rows(&self, mut f: impl FnMut(usize, usize) -> u32) -> Csr {
        let mut out = Csr::new();
        for r in 0..self.len() {
            let n = self.row(r).len();
            out.push_row((0..n).map(|k| f(r, k)));
        }
        out
    }
}

/// The convex hull of a point cloud, by index into the input.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct HullTopology {
    /// 0 (a point), 1 (a segment), 2 (a convex polygon) or 3 (a polytope).
    pub(crate) dimension: usize,
    /// Input index of each hull vertex, increasing. Only extreme points are hull vertices.
    pub(crate) vertices: Vec<usize>,
    /// 3-D: the exact triangulation of the surface, counter-clockwise seen from outside.
    /// 2-D: both faces fanned from their first vertex. Lower dimensions: empty.
    pub(crate) triangles: Vec<[u32; 3]>,
    /// One row per face: its vertex loop, counter-clockwise about its normal.
    pub(crate) faces: Csr,
    /// The face each triangle lies in.
    pub(crate) triangle_faces: Vec<u32>,
    /// Unit outward normal of each face.
    pub(crate) face_normals: Vec<V>,
    /// One row per vertex: the vertices it shares a hull edge with, increasing.
    pub(crate) neighbors: Csr,
    /// One row per vertex: the faces it belongs to (on their loop, or inner to them; see
    /// [`merge_faces`]), increasing.
    pub(crate) vertex_faces: Csr,
}

/// Computes the convex hull of `points` (see the module documentation).
///
/// `merge_tolerance` is relative to the cloud's bounding-box half-diagonal: the precision's
/// [`Tolerances::degenerate`](nphase_math::Tolerances::degenerate).
///
/// # Panics
/// If `points` is empty (callers report that as a data error first). Points must be finite.
pub(crate) fn convex_hull(points: &[V], merge_tolerance: f64) -> HullTopology {
    assert!(!points.is_empty(), "convex_hull needs at least one point");
    debug_assert!(points.iter().all(|p| p.iter().all(|x| x.is_finite())));
    let pts = scaled_to_unit(points);
    let unique = unique_points(&pts);
    match classify(&pts, &unique) {
        Shape::Point(a) => point_hull(a),
        Shape::Segment(a, b) => segment_hull(a, b),
        Shape::Polygon(plane) => polygon_hull(&pts, &unique, plane),
        Shape::Solid(simplex) => {
            let tolerance = merge_tolerance * half_diagonal(&pts, &unique);
            solid_hull(&pts, &unique, simplex, tolerance)
        }
    }
}

/// The dimension of a cloud, with the points that prove it.
enum Shape {
    Point(u32),
    Segment(u32, u32),
    Polygon([u32; 3]),
    Solid([u32; 4]),
}

fn to_u32(i: usize) -> u32 {
    u32::try_from(i).expect("a convex hull holds fewer than 2^32 points")
}

/// `2^k` for `k` in `-1022..=1023`.
fn pow2(k: i32) -> f64 {
    f64::from_bits(((k + 1023) as u64) << 52)
}

/// The cloud times a power of two that brings its largest coordinate near 1 (exact: only the
/// exponents change), with `-0.0` turned into `0.0` so equal points compare equal bitwise.
fn scaled_to_unit(points: &[V]) -> Vec<V> {
    let largest = points.iter().map(|p| p.amax()).fold(0.0, f64::max);
    let exponent = ((largest.to_bits() >> 52) & 0x7ff) as i32 - 1023;
    let scale = if largest > 0.0 {
        pow2((-exponent).clamp(-1022, 1022))
    } else {
        1.0
    };
    points.iter().map(|p| p.map(|x| x * scale + 0.0)).collect()
}

/// Indices of the distinct points, increasing; of equal points the first one is kept.
fn unique_points(pts: &[V]) -> Vec<u32> {
    let key = |i: u32| {
        let p = &pts[i as usize];
        (p.x.to_bits(), p.y.to_bits(), p.z.to_bits())
    };
    let mut order: Vec<u32> = (0..to_u32(pts.len())).collect();
    order.sort_unstable_by_key(|&i| (key(i), i));
    order.dedup_by_key(|i| key(*i));
    order.sort_unstable();
    order
}

fn half_diagonal(pts: &[V], ids: &[u32]) -> f64 {
    let first = pts[ids[0] as usize];
    let (lo, hi) = ids.iter().fold((first, first), |(lo, hi), &i| {
        let p = &pts[i as usize];
        (lo.inf(p), hi.sup(p))
    });
    0.5 * (hi - lo).norm()
}

fn coord3(p: &V) -> Coord3D<f64> {
    Coord3D {
        x: p.x,
        y: p.y,
        z: p.z,
    }
}

/// `((b − a) × (c − a)) · (q − a)` with an exact sign: positive when `q` is strictly outside
/// the triangle `(a, b, c)` wound counter-clockwise seen from outside, zero when coplanar. The
/// magnitude (six times the tetrahedron's volume) is rounded.
fn height(pts: &[V], tri: [u32; 3], q: u32) -> f64 {
    let [a, b, c] = tri.map(|i| coord3(&pts[i as usize]));
    -orient3d(a, b, c, coord3(&pts[q as usize]))
}

/// The exact normal `(b − a) × (c − a)` up to rounding of its magnitude: each component is the
/// orientation of the points projected on a coordinate plane, so its sign is exact.
fn exact_normal(pts: &[V], [a, b, c]: [u32; 3]) -> V {
    let [a, b, c] = [a, b, c].map(|i| pts[i as usize]);
    let project = |p: V, u: usize, v: usize| Coord { x: p[u], y: p[v] };
    let component = |u, v| orient2d(project(a, u, v), project(b, u, v), project(c, u, v));
    V::new(component(1, 2), component(2, 0), component(0, 1))
}

/// `(b − a) × (c − a)` with each component within about one rounding of the exact value,
/// however thin the triangle: the coordinate differences are kept exactly as two-term sums, the
/// leading products exactly (Dekker), and the terms added in doubled precision (Ogita, Rump,
/// Oishi's `Sum2`). A plain cross product loses all accuracy on a sliver, whose normal then
/// tilts by `ε · length² / area`.
fn accurate_cross(pts: &[V], [a, b, c]: [u32; 3]) -> V {
    let [a, b, c] = [a, b, c].map(|i| pts[i as usize]);
    let component = |u: usize, v: usize| {
        let (bu, be) = two_sum(b[u], -a[u]);
        let (cv, ce) = two_sum(c[v], -a[v]);
        let (bv, bf) = two_sum(b[v], -a[v]);
        let (cu, cf) = two_sum(c[u], -a[u]);
        let (p, pe) = two_prod(bu, cv);
        let (q, qe) = two_prod(bv, cu);
        let small = bu * ce + be * cv + be * ce - (bv * cf + bf * cu + bf * cf);
        let (mut hi, mut lo) = (p, pe + small - qe);
        let (s, e) = two_sum(hi, -q);
        (hi, lo) = (s, lo + e);
        hi + lo
    };
    V::new(component(1, 2), component(2, 0), component(0, 1))
}

/// `a + b` as a rounded sum and its exact error (Knuth).
fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bb = s - a;
    (s, (a - (s - bb)) + (b - bb))
}

/// `a · b` as a rounded product and its exact error (Dekker, Veltkamp splitting; the cloud is
/// scaled near 1, far from the overflow of the split).
fn two_prod(a: f64, b: f64) -> (f64, f64) {
    let split = |x: f64| {
        let c = 134_217_729.0 * x;
        let hi = c - (c - x);
        (hi, x - hi)
    };
    let p = a * b;
    let ((ah, al), (bh, bl)) = (split(a), split(b));
    (p, ((ah * bh - p) + ah * bl + al * bh) + al * bl)
}

/// Finds the dimension of the cloud `ids` and a well-spread simplex spanning it: the extreme
/// pair along the axis of largest spread, the point farthest from their line, the point
/// farthest from their plane. Distances only choose among candidates; the decisions are exact.
fn classify(pts: &[V], ids: &[u32]) -> Shape {
    let mut lo = [ids[0]; 3];
    let mut hi = [ids[0]; 3];
    for &i in ids {
        for axis in 0..3 {
            if pts[i as usize][axis] < pts[lo[axis] as usize][axis] {
                lo[axis] = i;
            }
            if pts[i as usize][axis] > pts[hi[axis] as usize][axis] {
                hi[axis] = i;
            }
        }
    }
    let spread = |axis: usize| pts[hi[axis] as usize][axis] - pts[lo[axis] as usize][axis];
    let axis = (0..3).fold(0, |best, a| if spread(a) > spread(best) { a } else { best });
    let (p0, p1) = (lo[axis], hi[axis]);
    if p0 == p1 {
        return Shape::Point(p0);
    }

    let line = pts[p1 as usize] - pts[p0 as usize];
    let off_line = |i: u32| {
        (pts[i as usize] - pts[p0 as usize])
            .cross(&line)
            .norm_squared()
    };
    let (farthest, _) = argmax(ids, off_line);
    let not_collinear = |i: u32| exact_normal(pts, [p0, p1, i]) != V::zeros();
    let p2 = if not_collinear(farthest) {
        farthest
    } else {
        match ids.iter().copied().find(|&i| not_collinear(i)) {
            Some(i) => i,
            None => return Shape::Segment(p0, p1),
        }
    };

    let (p3, off_plane) = argmax(ids, |i| height(pts, [p0, p1, p2], i).abs());
    if off_plane == 0.0 {
        Shape::Polygon([p0, p1, p2])
    } else {
        Shape::Solid([p0, p1, p2, p3])
    }
}

/// The first of `ids` with the largest `key`, and that key.
fn argmax(ids: &[u32], key: impl Fn(u32) -> f64) -> (u32, f64) {
    ids.iter()
        .fold((ids[0], key(ids[0])), |(best, best_key), &i| {
            let k = key(i);
            if k > best_key {
                (i, k)
            } else {
                (best, best_key)
            }
        })
}

fn point_hull(a: u32) -> HullTopology {
    HullTopology {
        dimension: 0,
        vertices: vec![a as usize],
        triangles: Vec::new(),
        faces: Csr::new(),
        triangle_faces: Vec::new(),
        face_normals: Vec::new(),
        neighbors: Csr::from_pairs(1, &[]),
        vertex_faces: Csr::from_pairs(1, &[]),
    }
}

fn segment_hull(a: u32, b: u32) -> HullTopology {
    let (a, b) = (a.min(b), a.max(b));
    HullTopology {
        dimension: 1,
        vertices: vec![a as usize, b as usize],
        triangles: Vec::new(),
        faces: Csr::new(),
        triangle_faces: Vec::new(),
        face_normals: Vec::new(),
        neighbors: Csr::from_pairs(2, &[(0, 1), (1, 0)]),
        vertex_faces: Csr::from_pairs(2, &[]),
    }
}

/// The exact hull of exactly coplanar points (not all collinear; `plane` spans them).
fn polygon_hull(pts: &[V], ids: &[u32], plane: [u32; 3]) -> HullTopology {
    // The plane's normal, turned so that its largest component `k` (taken from the exact
    // normal) is positive. Dropping coordinate `k` maps the exactly coplanar points one-to-one,
    // keeping orientation.
    let k = exact_normal(pts, plane).iamax();
    let normal = accurate_cross(pts, plane);
    let n = unit_or(normal * normal[k].signum(), V::ith(k, 1.0));
    let chain = convex_loop(pts, ids, &n);
    let mut vertices = chain.clone();
    vertices.sort_unstable();
    let index_of = |i: u32| {
        to_u32(
            vertices
                .binary_search(&i)
                .expect("a loop vertex is a vertex"),
        )
    };
    let mut front: Vec<u32> = chain.iter().map(|&i| index_of(i)).collect();
    let start = (0..front.len()).fold(0, |m, i| if front[i] < front[m] { i } else { m });
    front.rotate_left(start);
    let back: Vec<u32> = std::iter::once(front[0])
        .chain(front[1..].iter().rev().copied())
        .collect();

    let mut faces = Csr::new();
    faces.push_row(front.iter().copied());
    faces.push_row(back.iter().copied());
    let mut triangles = Vec::with_capacity(2 * (front.len() - 2));
    for loop_ in [&front, &back] {
        for w in loop_[1..].windows(2) {
            triangles.push([loop_[0], w[0], w[1]]);
        }
    }
    let m = to_u32(front.len());
    let mut edges = Vec::with_capacity(2 * front.len());
    for i in 0..front.len() {
        let (a, b) = (front[i], front[(i + 1) % front.len()]);
        edges.extend([(a, b), (b, a)]);
    }
    let mut neighbors = Csr::from_pairs(vertices.len(), &edges);
    neighbors.sort_rows();
    let incidence: Vec<(u32, u32)> = (0..m).flat_map(|v| [(v, 0), (v, 1)]).collect();
    let fan = front.len() - 2;
    HullTopology {
        dimension: 2,
        vertices: vertices.iter().map(|&i| i as usize).collect(),
        triangles,
        faces,
        triangle_faces: [0, 1]
            .iter()
            .flat_map(|&f| std::iter::repeat_n(f, fan))
            .collect(),
        face_normals: vec![n, -n],
        neighbors,
        vertex_faces: Csr::from_pairs(vertices.len(), &incidence),
    }
}

/// The hull of a cloud spanning 3-D (`simplex` is a non-degenerate tetrahedron of it).
fn solid_hull(pts: &[V], ids: &[u32], simplex: [u32; 4], tolerance: f64) -> HullTopology {
    let mut mesh = quickhull(pts, ids, simplex);
    let mut sharp = sharp_edges(pts, &mesh);
    let mut vertices = mesh_vertices(&mesh, pts.len());
    let extreme: Vec<u32> = vertices
        .iter()
        .copied()
        .filter(|&v| sharp.count[v as usize] >= 3)
        .collect();
    // `extreme` can be empty (or too small to span a solid) when rounding blurs every corner
    // of a cloud whose coordinates span hundreds of orders of magnitude (1e300 beside 1e-4,
    // found by fuzzing); the first pass's mesh is kept then.
    if !extreme.is_empty() && extreme.len() < vertices.len() {
        // Some vertices lie on an edge or inside a face. The extreme points span the same
        // solid, so a second pass over them alone leaves only extreme vertices.
        if let Shape::Solid(simplex) = classify(pts, &extreme) {
            mesh = quickhull(pts, &extreme, simplex);
            sharp = sharp_edges(pts, &mesh);
            vertices = mesh_vertices(&mesh, pts.len());
        }
    }

    let mut new_index = vec![NONE; pts.len()];
    for (k, &v) in vertices.iter().enumerate() {
        new_index[v as usize] = to_u32(k);
    }
    let triangles: Vec<[u32; 3]> = mesh
        .tris
        .iter()
        .map(|t| t.map(|v| new_index[v as usize]))
        .collect();
    let pos: Vec<V> = vertices.iter().map(|&v| pts[v as usize]).collect();

    let mut edges = Vec::new();
    for (t, tri) in triangles.iter().enumerate() {
        for i in 0..3 {
            let (a, b) = (tri[i], tri[(i + 1) % 3]);
            if a < b && sharp.edge[t][i] {
                edges.extend([(a, b), (b, a)]);
            }
        }
    }
    let mut neighbors = Csr::from_pairs(vertices.len(), &edges);
    neighbors.sort_rows();

    let merged = merge_faces(&pos, &triangles, &mesh.adj, tolerance);
    let incidence: Vec<(u32, u32)> = (0..merged.loops.len())
        .flat_map(|f| merged.loops.row(f).iter().map(move |&v| (v, to_u32(f))))
        .chain(merged.inner)
        .collect();
    let mut vertex_faces = Csr::from_pairs(vertices.len(), &incidence);
    vertex_faces.sort_rows();
    HullTopology {
        dimension: 3,
        vertices: vertices.iter().map(|&v| v as usize).collect(),
        triangles,
        faces: merged.loops,
        triangle_faces: merged.owner,
        face_normals: merged.normals,
        neighbors,
        vertex_faces,
    }
}

/// A closed triangulated surface: `adj[t][i]` is the triangle across edge
/// `tris[t][i] → tris[t][(i + 1) % 3]`.
struct Mesh {
    tris: Vec<[u32; 3]>,
    adj: Vec<[u32; 3]>,
}

/// The points the mesh uses, increasing.
fn mesh_vertices(mesh: &Mesh, point_count: usize) -> Vec<u32> {
    let mut used = vec![false; point_count];
    for &v in mesh.tris.iter().flatten() {
        used[v as usize] = true;
    }
    (0..point_count).filter(|&i| used[i]).map(to_u32).collect()
}

/// Which triangulation edges are hull edges, and how many meet at each point.
struct SharpEdges {
    /// `edge[t][i]`: edge `i` of triangle `t` separates two planes.
    edge: Vec<[bool; 3]>,
    /// Per input point: the number of sharp edges at it. A hull vertex is extreme exactly when
    /// at least three planes, so at least three sharp edges, meet there.
    count: Vec<u32>,
}

fn sharp_edges(pts: &[V], mesh: &Mesh) -> SharpEdges {
    let mut edge = vec![[false; 3]; mesh.tris.len()];
    let mut count = vec![0u32; pts.len()];
    for (t, tri) in mesh.tris.iter().enumerate() {
        for i in 0..3 {
            let other = mesh.tris[mesh.adj[t][i] as usize];
            let (a, b) = (tri[i], tri[(i + 1) % 3]);
            let apex = other
                .into_iter()
                .find(|&v| v != a && v != b)
                .expect("adjacent triangles share exactly one edge");
            edge[t][i] = height(pts, *tri, apex) != 0.0;
            if edge[t][i] && a < b {
                count[a as usize] += 1;
                count[b as usize] += 1;
            }
        }
    }
    SharpEdges { edge, count }
}

/// The exact hull surface of the points `ids` (which include `simplex`).
fn quickhull(pts: &[V], ids: &[u32], simplex: [u32; 4]) -> Mesh {
    let [p0, mut p1, mut p2, p3] = simplex;
    if height(pts, [p0, p1, p2], p3) > 0.0 {
        std::mem::swap(&mut p1, &mut p2);
    }
    let mut hull = Quickhull {
        pts,
        tris: Vec::new(),
        seen: Vec::new(),
        visible_now: Vec::new(),
        next_outside: vec![NONE; pts.len()],
        start_seen: vec![0; pts.len()],
        start_slot: vec![0; pts.len()],
        stamp: 0,
        visible: Vec::new(),
        horizon: Vec::new(),
        stack: Vec::new(),
        orphans: Vec::new(),
        pending: Vec::new(),
    };
    // With p3 below (p0, p1, p2), these four are wound counter-clockwise seen from outside.
    let faces = [[p0, p1, p2], [p0, p3, p1], [p1, p3, p2], [p2, p3, p0]];
    for (f, v) in faces.iter().enumerate() {
        let mut adj = [NONE; 3];
        for (i, slot) in adj.iter_mut().enumerate() {
            let (a, b) = (v[i], v[(i + 1) % 3]);
            let across = (0..4).find(|&g| g != f && edge_index(faces[g], b, a).is_some());
            *slot = to_u32(across.expect("each tetrahedron edge has two faces"));
        }
        hull.push_tri(*v, adj);
    }
    for &q in ids {
        if !simplex.contains(&q) {
            hull.assign(q, 0..4);
        }
    }
    hull.pending
        .extend((0..4).filter(|&f| hull.tris[f as usize].outside != NONE));
    hull.run();
    hull.into_mesh()
}

/// The `i` with `tri[i] == a` and `tri[(i + 1) % 3] == b`.
fn edge_index(tri: [u32; 3], a: u32, b: u32) -> Option<usize> {
    (0..3).find(|&i| tri[i] == a && tri[(i + 1) % 3] == b)
}

struct Tri {
    v: [u32; 3],
    adj: [u32; 3],
    plane: FilteredPlane,
    alive: bool,
    /// The first of the points strictly outside this triangle and not yet inserted, linked
    /// through [`Quickhull::next_outside`] (each point sits in one list), or [`NONE`].
    outside: u32,
    /// The point of the outside list farthest from the plane, and its [`height`].
    far: u32,
    far_height: f64,
}

/// A triangle's plane in floating point, with what it takes to certify the sign of a
/// [`height`] from it: a semi-static filter in the manner of Shewchuk's.
///
/// With `e₁ = b − a`, `e₂ = c − a`, `w = q − a` and `n = e₁ × e₂` all rounded, the computed
/// `n · w` differs from the exact `((b − a) × (c − a)) · (q − a)` by at most
/// `(5u + 3u + u + O(u²)) Σᵢ Pᵢ |wᵢ| < 12u Σᵢ Pᵢ |wᵢ|` (`u = 2⁻⁵³`): `5u` from the cross product
/// of rounded differences, `3u` from the dot product, `u` from `w`, where
/// `Pᵢ = |e₁ⱼ e₂ₖ| + |e₁ₖ e₂ⱼ|` bounds `|nᵢ|`. Beyond `16u Σ Pᵢ |wᵢ|` the sign is certain; below
/// it, or where the sum is small enough that products could have underflowed, the exact
/// predicate decides.
#[derive(Clone, Copy)]
struct FilteredPlane {
    n: V,
    permanent: V,
}

/// `16u`, the filter's error coefficient.
const FILTER_BOUND: f64 = 16.0 * f64::EPSILON / 2.0;
/// Below this `Σ Pᵢ |wᵢ|` a product may have underflowed and the bound no longer holds.
const FILTER_FLOOR: f64 = 1e-250;

impl FilteredPlane {
    fn new(pts: &[V], [a, b, c]: [u32; 3]) -> Self {
        let a = pts[a as usize];
        let (e1, e2) = (pts[b as usize] - a, pts[c as usize] - a);
        let term = |j: usize, k: usize| (e1[j] * e2[k]).abs() + (e1[k] * e2[j]).abs();
        FilteredPlane {
            n: e1.cross(&e2),
            permanent: V::new(term(1, 2), term(2, 0), term(0, 1)),
        }
    }

    /// The [`height`] of `q` over `tri`, whose plane this is: its sign is exact, its magnitude
    /// approximate.
    fn height(&self, pts: &[V], tri: [u32; 3], q: u32) -> f64 {
        let w = pts[q as usize] - pts[tri[0] as usize];
        let h = self.n.dot(&w);
        let bound = self.permanent.dot(&w.abs());
        if h.abs() > FILTER_BOUND * bound && bound > FILTER_FLOOR {
            h
        } else {
            height(pts, tri, q)
        }
    }
}

#[derive(Clone, Copy)]
struct HorizonEdge {
    /// The edge `a → b` as wound in the visible triangle.
    a: u32,
    b: u32,
    /// The triangle across it, which stays.
    outer: u32,
}

struct Quickhull<'a> {
    pts: &'a [V],
    tris: Vec<Tri>,
    /// Per point: the next point of the outside list it is in.
    next_outside: Vec<u32>,
    /// Per triangle: the stamp of the last insertion that classified it, and whether it was
    /// visible from that insertion's apex.
    seen: Vec<u32>,
    visible_now: Vec<bool>,
    /// Per point: the stamp of the insertion whose horizon starts an edge there, and that edge.
    start_seen: Vec<u32>,
    start_slot: Vec<u32>,
    stamp: u32,
    visible: Vec<u32>,
    horizon: Vec<HorizonEdge>,
    stack: Vec<u32>,
    orphans: Vec<u32>,
    /// Triangles that had a non-empty outside list when last touched.
    pending: Vec<u32>,
}

impl Quickhull<'_> {
    fn push_tri(&mut self, v: [u32; 3], adj: [u32; 3]) {
        self.tris.push(Tri {
            v,
            adj,
            plane: FilteredPlane::new(self.pts, v),
            alive: true,
            outside: NONE,
            far: NONE,
            far_height: 0.0,
        });
        self.seen.push(0);
        self.visible_now.push(false);
    }

    /// Puts `q` in the outside list of the first triangle of `range` it is strictly above;
    /// returns false when there is none (then `q` is inside the hull those triangles close).
    fn assign(&mut self, q: u32, range: std::ops::Range<usize>) -> bool {
        for t in range {
            let h = self.tris[t].plane.height(self.pts, self.tris[t].v, q);
            if h > 0.0 {
                let tri = &mut self.tris[t];
                self.next_outside[q as usize] = tri.outside;
                tri.outside = q;
                if h > tri.far_height {
                    tri.far_height = h;
                    tri.far = q;
                }
                return true;
            }
        }
        false
    }

    fn run(&mut self) {
        while let Some(t) = self.pending.pop() {
            let tri = &self.tris[t as usize];
            if !tri.alive || tri.outside == NONE {
                continue;
            }
            let apex = tri.far;
            if !self.insert(t, apex) {
                self.drop_point(t, apex);
            }
        }
    }

    /// Removes `q` from `t`'s outside list (the inexact-predicate escape hatch).
    fn drop_point(&mut self, t: u32, q: u32) {
        let mut rest = Vec::new();
        let mut p = std::mem::replace(&mut self.tris[t as usize].outside, NONE);
        while p != NONE {
            if p != q {
                rest.push(p);
            }
            p = self.next_outside[p as usize];
        }
        self.tris[t as usize].far_height = 0.0;
        for p in rest {
            self.assign(p, t as usize..t as usize + 1);
        }
        if self.tris[t as usize].outside != NONE {
            self.pending.push(t);
        }
    }

    /// Inserts `apex`, which is strictly above triangle `t`. Returns false (and changes
    /// nothing) if the visible region's horizon is not a simple cycle, which exact predicates
    /// rule out.
    fn insert(&mut self, t: u32, apex: u32) -> bool {
        self.stamp += 1;
        let stamp = self.stamp;
        self.visible.clear();
        self.horizon.clear();
        self.seen[t as usize] = stamp;
        self.visible_now[t as usize] = true;
        self.visible.push(t);
        self.stack.push(t);
        while let Some(h) = self.stack.pop() {
            for i in 0..3 {
                let g = self.tris[h as usize].adj[i];
                if self.seen[g as usize] != stamp {
                    self.seen[g as usize] = stamp;
                    let tri = &self.tris[g as usize];
                    let sees = tri.plane.height(self.pts, tri.v, apex) > 0.0;
                    self.visible_now[g as usize] = sees;
                    if sees {
                        self.visible.push(g);
                        self.stack.push(g);
                    }
                }
                if !self.visible_now[g as usize] {
                    let v = self.tris[h as usize].v;
                    self.horizon.push(HorizonEdge {
                        a: v[i],
                        b: v[(i + 1) % 3],
                        outer: g,
                    });
                }
            }
        }
        if !self.horizon_is_simple_cycle() {
            return false;
        }

        // One new triangle (a, b, apex) per horizon edge, keeping the edge's winding so it
        // matches the outer triangle's (b, a). Horizon edge k becomes triangle first + k, and
        // `start_slot[b]` is the slot of the edge leaving b, the next triangle around the apex.
        let first = self.tris.len();
        for k in 0..self.horizon.len() {
            let e = self.horizon[k];
            let id = to_u32(first + k);
            let outer = &mut self.tris[e.outer as usize];
            let j = edge_index(outer.v, e.b, e.a).expect("the outer triangle holds edge b → a");
            outer.adj[j] = id;
            self.push_tri([e.a, e.b, apex], [e.outer, NONE, NONE]);
        }
        for k in 0..self.horizon.len() {
            let id = first + k;
            let next = first + self.start_slot[self.horizon[k].b as usize] as usize;
            self.tris[id].adj[1] = to_u32(next);
            self.tris[next].adj[2] = to_u32(id);
        }

        self.orphans.clear();
        for &h in &self.visible {
            let tri = &mut self.tris[h as usize];
            tri.alive = false;
            let mut p = std::mem::replace(&mut tri.outside, NONE);
            while p != NONE {
                self.orphans.push(p);
                p = self.next_outside[p as usize];
            }
        }
        let orphans = std::mem::take(&mut self.orphans);
        for &q in &orphans {
            if q != apex {
                self.assign(q, first..self.tris.len());
            }
        }
        self.orphans = orphans;
        for id in first..self.tris.len() {
            if self.tris[id].outside != NONE {
                self.pending.push(to_u32(id));
            }
        }
        true
    }

    /// Whether the horizon edges form one simple cycle (each vertex starts at most one edge,
    /// and following them from the first visits all before returning), recording in
    /// `start_slot` the edge that leaves each horizon vertex.
    fn horizon_is_simple_cycle(&mut self) -> bool {
        let stamp = self.stamp;
        for (k, e) in self.horizon.iter().enumerate() {
            let a = e.a as usize;
            if self.start_seen[a] == stamp {
                return false;
            }
            self.start_seen[a] = stamp;
            self.start_slot[a] = to_u32(k);
        }
        let mut k = 0;
        for step in 1..=self.horizon.len() {
            let b = self.horizon[k].b as usize;
            if self.start_seen[b] != stamp {
                return false;
            }
            k = self.start_slot[b] as usize;
            if k == 0 {
                return step == self.horizon.len();
            }
        }
        false
    }

    /// The live triangles, renumbered.
    fn into_mesh(self) -> Mesh {
        let mut new_id = vec![NONE; self.tris.len()];
        let mut count = 0;
        for (t, tri) in self.tris.iter().enumerate() {
            if tri.alive {
                new_id[t] = count;
                count += 1;
            }
        }
        let live = self.tris.iter().filter(|t| t.alive);
        Mesh {
            tris: live.clone().map(|t| t.v).collect(),
            adj: live.map(|t| t.adj.map(|a| new_id[a as usize])).collect(),
        }
    }
}

/// Merges coplanar triangles of a hull surface into convex polygon faces.
///
/// # Merge rule
/// Triangles are taken as seeds in decreasing order of area (ties: lower index), so large,
/// well-conditioned triangles define the planes. A face starts as its seed, with the seed's
/// plane `(n, d)`, and grows breadth first across edges: an unassigned neighbouring triangle
/// joins when
/// 1. its vertices lie within `tolerance` of the seed plane (`|n · x − d| ≤ tolerance`), so
///    every vertex of a face is within `tolerance` of its seed's plane, and
/// 2. it faces the same way: `n_t · n ≥ 1/2` (see [`MERGE_MIN_NORMAL_DOT`]).
///
/// The face's polygon is the convex hull of its triangles' vertices, computed exactly (Andrew's
/// monotone chain with `orient2d`) in the coordinate plane across the largest component of the
/// face normal. For an exact facet that is the facet itself, every vertex on the loop (a hull
/// vertex is never on a facet's edge). Where the surface has bumps within `tolerance`, a vertex
/// of the face's triangles may fall inside that polygon: it stays a vertex of the hull (it is an
/// exact extreme point) and is *inner* to the face — incident to it, absent from its loop. The
/// polygon always lies inside the hull (its corners are hull vertices).
///
/// The face normal is the sum of its triangles' area vectors, made unit: Newell's normal of the
/// surface patch, with each triangle's area vector accurate even for slivers
/// ([`accurate_cross`]).
fn merge_faces(pos: &[V], tris: &[[u32; 3]], adj: &[[u32; 3]], tolerance: f64) -> MergedFaces {
    let area_vectors: Vec<V> = tris.iter().map(|t| accurate_cross(pos, *t)).collect();
    let normals: Vec<V> = area_vectors
        .iter()
        .map(|a| unit_or(*a, V::zeros()))
        .collect();
    let mut order: Vec<u32> = (0..to_u32(tris.len())).collect();
    let areas: Vec<f64> = area_vectors.iter().map(|a| a.norm()).collect();
    order.sort_unstable_by(|&a, &b| {
        areas[b as usize]
            .total_cmp(&areas[a as usize])
            .then(a.cmp(&b))
    });

    let mut owner = vec![NONE; tris.len()];
    let mut in_face = vec![NONE; pos.len()];
    let mut on_loop = vec![NONE; pos.len()];
    let mut merged = MergedFaces {
        loops: Csr::new(),
        owner: Vec::new(),
        normals: Vec::new(),
        inner: Vec::new(),
    };
    let mut queue = Vec::new();
    let mut face_vertices = Vec::new();
    for &seed in &order {
        if owner[seed as usize] != NONE {
            continue;
        }
        let face = to_u32(merged.normals.len());
        let s = tris[seed as usize];
        let n = normals[seed as usize];
        let d = n.dot(&((pos[s[0] as usize] + pos[s[1] as usize] + pos[s[2] as usize]) / 3.0));
        let near = |t: &[u32; 3]| {
            t.iter()
                .all(|&v| (n.dot(&pos[v as usize]) - d).abs() <= tolerance)
        };
        let mut area_sum = V::zeros();
        face_vertices.clear();
        queue.clear();
        queue.push(seed);
        owner[seed as usize] = face;
        let mut head = 0;
        while head < queue.len() {
            let t = queue[head] as usize;
            head += 1;
            area_sum += area_vectors[t];
            for v in tris[t] {
                if in_face[v as usize] != face {
                    in_face[v as usize] = face;
                    face_vertices.push(v);
                }
            }
            for g in adj[t] {
                let g = g as usize;
                if owner[g] == NONE && normals[g].dot(&n) >= MERGE_MIN_NORMAL_DOT && near(&tris[g])
                {
                    owner[g] = face;
                    queue.push(to_u32(g));
                }
            }
        }
        let normal = unit_or(area_sum, n);
        if queue.len() == 1 {
            // A lone triangle is its own loop (most faces of a curved hull).
            let m = (0..3).fold(0, |m, i| if s[i] < s[m] { i } else { m });
            merged
                .loops
                .push_row([s[m], s[(m + 1) % 3], s[(m + 2) % 3]]);
        } else {
            let loop_ = convex_loop(pos, &face_vertices, &normal);
            for &v in &loop_ {
                on_loop[v as usize] = face;
            }
            let inner = face_vertices
                .iter()
                .filter(|&&v| on_loop[v as usize] != face);
            merged.inner.extend(inner.map(|&v| (v, face)));
            merged.loops.push_row(loop_);
        }
        merged.normals.push(normal);
    }
    merged.owner = owner;
    merged
}

/// The strictly convex hull of `ids`, counter-clockwise about `normal`, starting at its lowest
/// index: Andrew's monotone chain with exact `orient2d` in the coordinate plane across the
/// largest component `k` of `normal`. With `(u, v)` the axes after `k` in cyclic order,
/// counter-clockwise in `(u, v)` is counter-clockwise about `+e_k`.
fn convex_loop(pos: &[V], ids: &[u32], normal: &V) -> Vec<u32> {
    let k = normal.iamax();
    let (u, v) = ((k + 1) % 3, (k + 2) % 3);
    let uv = |i: u32| Coord {
        x: pos[i as usize][u],
        y: pos[i as usize][v],
    };
    let mut sorted = ids.to_vec();
    sorted.sort_unstable_by(|&a, &b| {
        let (pa, pb) = (uv(a), uv(b));
        pa.x.total_cmp(&pb.x)
            .then(pa.y.total_cmp(&pb.y))
            .then(a.cmp(&b))
    });
    let reversed: Vec<u32> = sorted.iter().rev().copied().collect();
    let mut chain: Vec<u32> = Vec::with_capacity(sorted.len() + 1);
    for pass in [&sorted, &reversed] {
        let base = chain.len();
        for &p in pass {
            // A point on the hull's boundary makes a zero turn and is dropped.
            while chain.len() >= base + 2
                && orient2d(
                    uv(chain[chain.len() - 2]),
                    uv(chain[chain.len() - 1]),
                    uv(p),
                ) <= 0.0
            {
                chain.pop();
            }
            chain.push(p);
        }
        chain.pop();
    }
    if normal[k] < 0.0 {
        chain.reverse();
    }
    let start = (0..chain.len()).fold(0, |m, i| if chain[i] < chain[m] { i } else { m });
    chain.rotate_left(start);
    chain
}

/// The faces of a solid hull, as [`merge_faces`] makes them.
struct MergedFaces {
    /// One row per face: its loop.
    loops: Csr,
    /// The face each triangle was merged into.
    owner: Vec<u32>,
    /// Unit outward normals.
    normals: Vec<V>,
    /// `(vertex, face)` for each vertex inside a face (not on its loop).
    inner: Vec<(u32, u32)>,
}

fn unit_or(v: V, fallback: V) -> V {
    normalize_robust(&v).map_or(fallback, |u| u.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::seq::SliceRandom;
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg64;

    /// The f64 merge tolerance, as `ConvexPolyhedron<f64>` uses it.
    const TOL: f64 = 1e-12;

    fn v(x: f64, y: f64, z: f64) -> V {
        V::new(x, y, z)
    }

    fn sphere(rng: &mut Pcg64, n: usize) -> Vec<V> {
        (0..n)
            .map(|_| {
                loop {
                    let p = v(
                        rng.random_range(-1.0..1.0),
                        rng.random_range(-1.0..1.0),
                        rng.random_range(-1.0..1.0),
                    );
                    let r = p.norm();
                    if r > 0.1 && r <= 1.0 {
                        break p / r;
                    }
                }
            })
            .collect()
    }

    fn cube_corners() -> Vec<V> {
        (0..8)
            .map(|i| {
                let s = |bit| if i & bit == 0 { -1.0 } else { 1.0 };
                v(s(1), s(2), s(4))
            })
            .collect()
    }

    /// Newell's normal of a loop: twice its vector area, as a sum of accurate fan triangles.
    fn newell(pos: &[V], loop_: &[u32]) -> V {
        loop_[1..]
            .windows(2)
            .map(|w| accurate_cross(pos, [loop_[0], w[0], w[1]]))
            .sum()
    }

    fn area(pos: &[V], loop_: &[u32]) -> f64 {
        0.5 * newell(pos, loop_).norm()
    }

    /// Checks everything a hull of `input` must satisfy, whatever its dimension:
    /// * vertices are distinct input points, in increasing input order;
    /// * 3-D: the triangulation is a closed, consistently wound 2-manifold with
    ///   V − E + F = 2, and every input point is inside or on every triangle's plane, decided
    ///   exactly with `orient3d`;
    /// * faces are planar, convex and counter-clockwise about their unit normal within
    ///   `4 × TOL × size`, and tile the surface (their areas sum to the triangles' area);
    /// * adjacency is symmetric and vertex → face incidence matches the loops.
    fn check_valid(input: &[V], hull: &HullTopology) {
        let nv = hull.vertices.len();
        assert!(hull.vertices.windows(2).all(|w| w[0] < w[1]));
        let pos: Vec<V> = hull.vertices.iter().map(|&i| input[i]).collect();
        for i in 0..nv {
            for j in 0..i {
                assert_ne!(pos[i], pos[j], "duplicate vertex");
            }
        }
        let lo = input.iter().fold(input[0], |m, p| m.inf(p));
        let hi = input.iter().fold(input[0], |m, p| m.sup(p));
        let size = 0.5 * (hi - lo).norm();
        let tol = 4.0 * TOL * size.max(f64::MIN_POSITIVE);
        assert_eq!(hull.neighbors.len(), nv);
        assert_eq!(hull.vertex_faces.len(), nv);
        for a in 0..nv {
            for &b in hull.neighbors.row(a) {
                assert!(
                    hull.neighbors.row(b as usize).contains(&to_u32(a)),
                    "asymmetric edge"
                );
            }
        }

        if hull.dimension == 3 {
            let mut directed = std::collections::HashSet::new();
            for t in &hull.triangles {
                for i in 0..3 {
                    assert!(directed.insert((t[i], t[(i + 1) % 3])), "edge used twice");
                }
            }
            for &(a, b) in &directed {
                assert!(directed.contains(&(b, a)), "open edge");
            }
            let (e, f) = (directed.len() / 2, hull.triangles.len());
            assert_eq!(nv as i64 - e as i64 + f as i64, 2, "Euler's formula");
            for t in &hull.triangles {
                let [a, b, c] = t.map(|i| coord3(&pos[i as usize]));
                for p in input {
                    assert!(orient3d(a, b, c, coord3(p)) >= 0.0, "{p:?} outside {t:?}");
                }
            }
            for a in 0..nv {
                assert!(
                    hull.neighbors.row(a).len() >= 3,
                    "a solid's vertex has 3+ edges"
                );
            }
        }

        let mut face_area = 0.0;
        for f in 0..hull.faces.len() {
            let loop_ = hull.faces.row(f);
            let n = hull.face_normals[f];
            assert!(loop_.len() >= 3);
            assert!((n.norm() - 1.0).abs() < 1e-14);
            assert!(
                newell(&pos, loop_).dot(&n) > 0.0,
                "loop not counter-clockwise"
            );
            let centre = loop_.iter().map(|&i| pos[i as usize]).sum::<V>() / loop_.len() as f64;
            for (k, &i) in loop_.iter().enumerate() {
                let p = pos[i as usize];
                assert!(
                    (p - centre).dot(&n).abs() <= tol,
                    "face {f} not planar: {} > {tol}, loop {loop_:?} n {n:?} pts {:?}",
                    (p - centre).dot(&n).abs(),
                    loop_.iter().map(|&i| pos[i as usize]).collect::<Vec<_>>()
                );
                let prev = pos[loop_[(k + loop_.len() - 1) % loop_.len()] as usize];
                let next = pos[loop_[(k + 1) % loop_.len()] as usize];
                let chord = next - prev;
                assert!(
                    chord.cross(&(p - prev)).dot(&n) <= tol * chord.norm(),
                    "reflex corner"
                );
                assert!(hull.vertex_faces.row(i as usize).contains(&to_u32(f)));
            }
            face_area += area(&pos, loop_);
        }
        // A vertex incident to a face but not on its loop is inner: inside the polygon and on
        // its plane, within the tolerance.
        for vtx in 0..nv {
            for &f in hull.vertex_faces.row(vtx) {
                let loop_ = hull.faces.row(f as usize);
                if loop_.contains(&to_u32(vtx)) {
                    continue;
                }
                let (p, n) = (pos[vtx], hull.face_normals[f as usize]);
                assert!(
                    (p - pos[loop_[0] as usize]).dot(&n).abs() <= tol,
                    "inner off plane"
                );
                for k in 0..loop_.len() {
                    let a = pos[loop_[k] as usize];
                    let edge = pos[loop_[(k + 1) % loop_.len()] as usize] - a;
                    assert!(
                        edge.cross(&(p - a)).dot(&n) >= -tol * edge.norm(),
                        "inner outside"
                    );
                }
            }
        }
        if hull.dimension == 3 {
            let tri_area: f64 = hull.triangles.iter().map(|t| area(&pos, t)).sum();
            // A face's polygon and its triangles differ by bumps within the tolerance.
            let slack = 1e-9 * tri_area + 8.0 * tol * size * hull.faces.len() as f64;
            assert!(
                (face_area - tri_area).abs() <= slack,
                "faces do not tile the surface"
            );
            for vtx in 0..nv {
                assert!(!hull.vertex_faces.row(vtx).is_empty());
            }
        }
    }

    /// Whether `p` lies strictly outside the hull of `others` (exactly).
    fn strictly_outside(others: &[V], p: &V) -> bool {
        let hull = convex_hull(others, TOL);
        if hull.dimension < 3 {
            // Called only for solid clouds: if the others are flat, `p` is off their plane.
            return true;
        }
        let pos: Vec<V> = hull.vertices.iter().map(|&i| others[i]).collect();
        hull.triangles.iter().any(|t| {
            let [a, b, c] = t.map(|i| coord3(&pos[i as usize]));
            orient3d(a, b, c, coord3(p)) < 0.0
        })
    }

    #[test]
    fn cube_with_inner_face_edge_and_duplicate_points_has_8_vertices_and_6_quads() {
        let mut rng = Pcg64::seed_from_u64(1);
        let corners = cube_corners();
        let mut cloud = corners.clone();
        cloud.extend(corners.iter().take(3)); // duplicates
        for axis in 0..3 {
            for s in [-1.0, 1.0] {
                let mut centre = V::zeros();
                centre[axis] = s;
                cloud.push(centre); // face centres
                let mut edge = V::repeat(s);
                edge[axis] = 0.0;
                cloud.push(edge); // edge midpoints
            }
        }
        for _ in 0..50 {
            cloud.push(v(
                rng.random_range(-0.9..0.9),
                rng.random_range(-0.9..0.9),
                rng.random_range(-0.9..0.9),
            ));
        }
        // Whatever the order, even with face centres first (so they are inserted early and
        // must be removed afterwards), the answer is the same.
        for trial in 0..20 {
            if trial > 0 {
                cloud.shuffle(&mut rng);
            }
            let hull = convex_hull(&cloud, TOL);
            check_valid(&cloud, &hull);
            assert_eq!(hull.dimension, 3);
            assert_eq!(hull.vertices.len(), 8);
            for &i in &hull.vertices {
                assert!(cloud[i].iter().all(|x| x.abs() == 1.0), "{:?}", cloud[i]);
            }
            assert_eq!(hull.faces.len(), 6);
            let mut normals: Vec<[i32; 3]> = hull
                .face_normals
                .iter()
                .map(|n| {
                    assert_eq!(n.iter().filter(|x| x.abs() == 1.0).count(), 1, "{n:?}");
                    [n.x as i32, n.y as i32, n.z as i32]
                })
                .collect();
            normals.sort_unstable();
            assert_eq!(
                normals,
                [
                    [-1, 0, 0],
                    [0, -1, 0],
                    [0, 0, -1],
                    [0, 0, 1],
                    [0, 1, 0],
                    [1, 0, 0]
                ]
            );
            for f in 0..6 {
                assert_eq!(hull.faces.row(f).len(), 4);
            }
            for vtx in 0..8 {
                assert_eq!(hull.neighbors.row(vtx).len(), 3, "cube edges only");
                assert_eq!(hull.vertex_faces.row(vtx).len(), 3);
            }
        }
    }

    #[test]
    fn filtered_heights_have_the_exact_sign() {
        // Near-coplanar points stress the filter: about half the queries fall inside its error
        // bound and must be passed to the exact predicate.
        let mut rng = Pcg64::seed_from_u64(8);
        let mut filtered = 0;
        for _ in 0..20_000 {
            let scale = 10f64.powi(rng.random_range(-3..3));
            let mut pts: Vec<V> = (0..3)
                .map(|_| V::from_fn(|_, _| rng.random_range(-1.0..1.0) * scale))
                .collect();
            let (s, t) = (rng.random_range(-2.0..2.0), rng.random_range(-2.0..2.0));
            let offset = 10f64.powf(rng.random_range(-18.0..-10.0)) * rng.random_range(-1.0..1.0);
            let lift = (pts[1] - pts[0]).cross(&(pts[2] - pts[0])) * offset;
            pts.push(pts[0] + (pts[1] - pts[0]) * s + (pts[2] - pts[0]) * t + lift);
            let plane = FilteredPlane::new(&pts, [0, 1, 2]);
            let (fast, exact) = (plane.height(&pts, [0, 1, 2], 3), height(&pts, [0, 1, 2], 3));
            assert_eq!(fast.partial_cmp(&0.0), exact.partial_cmp(&0.0), "{pts:?}");
            let w = pts[3] - pts[0];
            filtered +=
                usize::from(plane.n.dot(&w).abs() > FILTER_BOUND * plane.permanent.dot(&w.abs()));
        }
        assert!(
            (2_000..18_000).contains(&filtered),
            "filter decided {filtered} of 20000"
        );
    }

    #[test]
    fn tetrahedron_faces_point_outward() {
        let cloud = [
            v(0.0, 0.0, 0.0),
            v(1.0, 0.0, 0.0),
            v(0.0, 1.0, 0.0),
            v(0.0, 0.0, 1.0),
        ];
        let hull = convex_hull(&cloud, TOL);
        check_valid(&cloud, &hull);
        assert_eq!(
            (hull.dimension, hull.vertices.len(), hull.faces.len()),
            (3, 4, 4)
        );
        let centroid = v(0.25, 0.25, 0.25);
        for f in 0..4 {
            let p = cloud[hull.vertices[hull.faces.row(f)[0] as usize]];
            assert!((p - centroid).dot(&hull.face_normals[f]) > 0.0);
        }
        let diagonal = v(1.0, 1.0, 1.0).normalize();
        assert!(
            hull.face_normals
                .iter()
                .any(|n| (n - diagonal).norm() < 1e-15)
        );
    }

    #[test]
    fn points_on_a_sphere_are_all_vertices() {
        let mut rng = Pcg64::seed_from_u64(2);
        for n in [4, 5, 10, 100, 1000] {
            let cloud = sphere(&mut rng, n);
            let hull = convex_hull(&cloud, TOL);
            check_valid(&cloud, &hull);
            assert_eq!(hull.vertices.len(), n);
            assert_eq!(hull.triangles.len(), 2 * n - 4);
        }
    }

    #[test]
    fn a_single_point_and_identical_points_give_a_0d_hull() {
        for cloud in [vec![v(1.0, 2.0, 3.0)], vec![v(-0.0, 5.0, 1e-300); 7]] {
            let hull = convex_hull(&cloud, TOL);
            check_valid(&cloud, &hull);
            assert_eq!((hull.dimension, hull.vertices.as_slice()), (0, &[0][..]));
            assert_eq!(hull.faces.len(), 0);
        }
        // -0.0 and 0.0 are the same point.
        let hull = convex_hull(&[v(0.0, -0.0, 0.0), v(-0.0, 0.0, 0.0)], TOL);
        assert_eq!(hull.dimension, 0);
    }

    #[test]
    fn collinear_points_give_the_two_extreme_points() {
        let hull = convex_hull(&[v(1.0, 1.0, 1.0), v(1.0, 1.0, 1.0), v(2.0, 0.0, 1.0)], TOL);
        assert_eq!((hull.dimension, hull.vertices.as_slice()), (1, &[0, 2][..]));
        let mut rng = Pcg64::seed_from_u64(3);
        let (a, dir) = (v(0.5, -1.0, 2.0), v(0.25, 0.5, -0.125));
        // Multiples of an exactly representable direction: exactly collinear.
        let mut cloud: Vec<V> = (0..40)
            .map(|_| a + dir * f64::from(rng.random_range(-64..64)))
            .collect();
        cloud.push(a + dir * 100.0);
        cloud.push(a - dir * 100.0);
        cloud.shuffle(&mut rng);
        let hull = convex_hull(&cloud, TOL);
        check_valid(&cloud, &hull);
        assert_eq!(hull.dimension, 1);
        let mut ends: Vec<V> = hull.vertices.iter().map(|&i| cloud[i]).collect();
        ends.sort_by(|p, q| p.x.total_cmp(&q.x));
        assert_eq!(ends, [a - dir * 100.0, a + dir * 100.0]);
        assert_eq!(hull.neighbors.row(0), [1]);
    }

    #[test]
    fn coplanar_square_with_inner_and_edge_points_is_a_two_faced_quad() {
        let mut rng = Pcg64::seed_from_u64(4);
        // A square in the plane x + 2y + 4z = 1, exact in binary and tilted off every axis.
        let (o, u, w) = (v(1.0, 0.0, 0.0), v(2.0, -1.0, 0.0), v(0.0, 2.0, -1.0));
        let at = |s: f64, t: f64| o + u * s + w * t;
        let mut cloud = vec![at(0.0, 0.0), at(1.0, 0.0), at(1.0, 1.0), at(0.0, 1.0)];
        for _ in 0..30 {
            let (s, t) = (rng.random_range(0..=8), rng.random_range(0..=8));
            cloud.push(at(f64::from(s) / 8.0, f64::from(t) / 8.0));
        }
        cloud.push(at(0.5, 0.0));
        cloud.shuffle(&mut rng);
        let hull = convex_hull(&cloud, TOL);
        check_valid(&cloud, &hull);
        assert_eq!(
            (hull.dimension, hull.vertices.len(), hull.faces.len()),
            (2, 4, 2)
        );
        let plane_normal = u.cross(&w).normalize();
        assert!((hull.face_normals[0].dot(&plane_normal).abs() - 1.0).abs() < 1e-15);
        assert_eq!(hull.face_normals[1], -hull.face_normals[0]);
        let (front, back) = (hull.faces.row(0), hull.faces.row(1));
        assert_eq!(front.len(), 4);
        assert_eq!(back[0], front[0]);
        assert_eq!(
            &back[1..],
            front[1..].iter().rev().copied().collect::<Vec<_>>()
        );
        for vtx in 0..4 {
            assert_eq!(hull.neighbors.row(vtx).len(), 2);
            assert_eq!(hull.vertex_faces.row(vtx), [0, 1]);
        }
    }

    #[test]
    fn near_coplanar_and_near_collinear_clouds_give_valid_thin_solids() {
        let mut rng = Pcg64::seed_from_u64(5);
        for trial in 0..20 {
            let n = 10 + 20 * trial;
            let near_plane: Vec<V> = (0..n)
                .map(|_| {
                    let (s, t) = (rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0));
                    v(s, t, 0.5 * s - 0.25 * t) + v(0.0, 0.0, 1e-9 * rng.random_range(-1.0..1.0))
                })
                .collect();
            let hull = convex_hull(&near_plane, TOL);
            check_valid(&near_plane, &hull);
            assert_eq!(hull.dimension, 3);
            let near_line: Vec<V> = (0..n)
                .map(|_| {
                    let s = rng.random_range(-1.0..1.0);
                    let jitter = V::from_fn(|_, _| 1e-9 * rng.random_range(-1.0..1.0));
                    v(s, 2.0 * s, -s) + jitter
                })
                .collect();
            let hull = convex_hull(&near_line, TOL);
            check_valid(&near_line, &hull);
            assert_eq!(hull.dimension, 3);
        }
    }

    #[test]
    fn a_thin_slab_keeps_its_two_big_faces() {
        let mut rng = Pcg64::seed_from_u64(6);
        // Two exactly planar layers 1e-9 apart: far thicker than the f64 tolerance, so the
        // sides are faces of their own; the big faces hold every point of their layer's hull.
        let mut slab = Vec::new();
        for _ in 0..60 {
            let (x, y) = (rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0));
            slab.push(v(x, y, 0.0));
            slab.push(v(x, y, 1e-9));
        }
        let hull = convex_hull(&slab, TOL);
        check_valid(&slab, &hull);
        let big: Vec<usize> = (0..hull.faces.len())
            .filter(|&f| hull.face_normals[f].z.abs() > 0.5)
            .collect();
        assert_eq!(big.len(), 2);
        assert_eq!(hull.face_normals[big[0]].z.abs(), 1.0);
        assert_eq!(hull.faces.row(big[0]).len(), hull.faces.row(big[1]).len());
        assert_eq!(hull.faces.row(big[0]).len() * 2, hull.vertices.len());

        // Random ±1e-9 bumps merged at the f32 tolerance (1e-6): the bumpy top and bottom each
        // become one face, and the slab's side walls (normals at 90°) are not merged into them.
        let bumpy: Vec<V> = (0..200)
            .map(|_| {
                let (x, y) = (rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0));
                v(x, y, 1e-9 * rng.random_range(-1.0..1.0))
            })
            .collect();
        let hull = convex_hull(&bumpy, 1e-6);
        assert_eq!(hull.dimension, 3);
        let big: Vec<usize> = (0..hull.faces.len())
            .filter(|&f| hull.face_normals[f].z.abs() > 0.5)
            .collect();
        assert_eq!(big.len(), 2, "{:?}", hull.face_normals);
        assert!(hull.face_normals[big[0]].z * hull.face_normals[big[1]].z < 0.0);
        let pos: Vec<V> = hull.vertices.iter().map(|&i| bumpy[i]).collect();
        for &f in &big {
            assert!(
                area(&pos, hull.faces.row(f))
                    > 0.99 * 0.5 * hull.triangles.iter().map(|t| area(&pos, t)).sum::<f64>()
            );
        }
    }

    #[test]
    fn lattice_clouds_keep_exactly_the_extreme_points() {
        // Small integer lattices are full of coplanar and collinear points, so the exact
        // predicates and the removal of non-extreme vertices are exercised constantly.
        let mut rng = Pcg64::seed_from_u64(7);
        let mut solids = 0;
        for _ in 0..60 {
            let n = rng.random_range(4..40);
            let cloud: Vec<V> = (0..n)
                .map(|_| V::from_fn(|_, _| f64::from(rng.random_range(-2..=2))))
                .collect();
            let hull = convex_hull(&cloud, TOL);
            check_valid(&cloud, &hull);
            if hull.dimension < 3 {
                continue;
            }
            solids += 1;
            for (i, p) in cloud.iter().enumerate() {
                let others: Vec<V> = cloud.iter().filter(|q| *q != p).copied().collect();
                let extreme = strictly_outside(&others, p);
                let is_vertex = hull.vertices.iter().any(|&k| cloud[k] == *p);
                assert_eq!(extreme, is_vertex, "point {i} {p:?}");
            }
        }
        assert!(
            solids > 40,
            "the sample should be mostly solid, got {solids}"
        );
    }

    #[test]
    fn extreme_magnitudes_are_scaled_without_losing_exactness() {
        for scale in [1e-300, 1e300, 5e-324 * 1e10] {
            let cloud: Vec<V> = cube_corners().iter().map(|p| p * scale).collect();
            let hull = convex_hull(&cloud, TOL);
            assert_eq!(
                (hull.dimension, hull.vertices.len(), hull.faces.len()),
                (3, 8, 6)
            );
        }
    }
}
