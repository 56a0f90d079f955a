//! The separating-axis test between convex polytope cores (boxes, hulls, triangles): exact
//! penetration without EPA, with pruning certified by support bounds and a cached feature
//! (Gregorius, "The Separating Axis Test between Convex Polyhedra", GDC 2013; Ericson,
//! *Real-Time Collision Detection* 5.2.1).
//!
//! # Why the best axis is the exact answer
//! Everything is in A's frame, B at `pos12`. For a unit axis `u` (from A toward B) the
//! *separation* is `s(u) = min_{b∈B} u·b − max_{a∈A} u·a = −h_D(u)`, where `h_D` is the support
//! function of the Minkowski difference `D = A − B`. The signed distance of A and B is
//! `max_u s(u)`: when they are apart this is the separating-plane theorem; when they overlap,
//! the penetration depth (the shortest translation that separates them) is
//! `min_u h_D(u)`, the distance from the origin (inside `D`) to `D`'s boundary. That distance is
//! attained on a face of the polytope `D`, whose normal is a vertex of `D`'s Gauss map. The
//! Gauss map of `D` overlays those of `A` and of `−B`, so its vertices are
//!
//! * face normals of A (the face against a vertex of B), and of B (negated);
//! * edge pairs: an edge of A and an edge of B whose arcs on the Gauss map cross. An edge's arc
//!   joins the normals of its two faces (for a triangle or polygon, whose faces are `±n`, it is
//!   the half circle through the edge's outward normal in the plane); the crossing is
//!   `±(e_A × e_B)/|e_A × e_B|`.
//!
//! So `max` of `s` over these axes is the exact signed distance when the cores overlap (≤ 0).
//! When they are apart, the best axis is only a lower bound (the closest features may be two
//! vertices, or a vertex and an edge): it proves "apart" when it exceeds the prediction, and
//! otherwise GJK measures the distance ([`SatOutcome::Separated`]). Every axis measured by
//! the shapes' supports is a lower bound, so such an axis tested in excess never makes the
//! answer wrong; an edge pair's is measured between its edge lines, right only where the arcs
//! truly cross (numerical notes).
//!
//! **Gauss-map pruning.** With arcs `a₁a₂` (A's edge, plane normal `e_A`, oriented so that
//! `e_A × a₁` enters the arc) and `b₁b₂` (B's negated normals, plane normal `e_B`), the arcs
//! cross iff B's ends lie on both sides of A's great circle (`(e_A·b₁)(e_A·b₂) < 0`), A's ends on
//! both sides of B's (`(e_B·a₁)(e_B·a₂) < 0`), and the two crossings are the same point
//! (`(e_B·a₁)(e_A·b₁) < 0`: A's arc meets B's circle at `sign(e_B·a₁) p̂`, since
//! `(e_A × e_B)·(e_A × a₁) = |e_A|² (e_B·a₁)`, and B's arc meets A's circle at
//! `−sign(e_A·b₁) p̂`). The axis is then `n = sign(e_B·a₁) p̂`, the outward normal of A along its
//! edge, and `s = n·(q − p)` for points `p`, `q` of the two edges (both are supports along `n`).
//! For a half-circle arc `b₂ = −b₁`, and the tests hold as written.
//!
//! **Bounds that skip features.** Take any `b₀ ∈ B` and `a₀ ∈ A` (one of each for every bound
//! of a test, so that the edges can reuse the faces' bounds: the seed's points, see below). For a face of A, `s ≤ n·b₀ − o` (`o` its plane offset); for a face of B
//! (outward `m`, axis `−m`), `s ≤ m·a₀ − o_B`. On the arc of an edge of A with faces `f₀, f₁`,
//! A's support is the edge, so `s(u) ≤ u·(b₀ − p)`, a linear function of `u`; written as
//! `u = (λ₀ n₀ + λ₁ n₁)/|λ₀ n₀ + λ₁ n₁|` with `λ ≥ 0` and `|λ₀ n₀ + λ₁ n₁| ≤ λ₀ + λ₁`, it is at most
//! `max(ub_{f₀}, ub_{f₁})` whenever that is ≤ 0 (an arc of 90° or more — a triangle's half
//! circle from `n` to `−n` above all, which is no such combination — is split at its middle
//! `m` first, adding `m·(b₀ − p)` to the maximum). So when the best separation is ≤ 0 (the only
//! case in which the edge axes are searched), an edge of A whose two faces are bounded below
//! the best cannot give a better axis with any edge of B; the same holds for B's edges with
//! `a₀`. Only edges beside faces near the contact are paired: a handful instead of `E_A × E_B`.
//!
//! **The cached feature.** The pair's [`SatCache`] names last frame's best feature; it is
//! evaluated first, so that the bounds above are tight from the start and skip nearly every
//! other feature (a cold pair starts from A's face toward B's origin instead). The skipping
//! *is* the certificate: a feature is passed over only when a support bound proves it is not
//! better, so the answer is that of the full test. Support queries climb from the last
//! support vertex of the same shape (the features tried are near each other).
//!
//! **Across frames: a certified margin** ([`certificate`]). In the per-frame pipeline a pair
//! whose cores overlap keeps, from its last full test, the features whose bounds came within a
//! margin `κ` of the winner (*hot*); every other feature, edge pairs that may start crossing
//! included, was proven behind by `κ`, and stays behind while the motion since is within
//! `κ` (each separation changes by at most how far the shapes' points moved). The next frames
//! test the hot features alone, and the full test runs again only when the motion bound says
//! another feature may have won.
//!
//! **Which goes first.** On a pair with no overlap last time GJK runs first and the test only
//! when GJK finds the cores overlapping (or stalls on nearly touching features): a separated
//! pair within the prediction needs GJK's distance anyway, and cold, the test costs more than
//! GJK on separated hulls (measured with `benches/callgrind.sh contact`, f32, instructions per
//! cold query, test first: 32-point hulls 23k apart, 30k shallow, 47k deep; boxes apart 9.5k;
//! GJK + EPA before this test: about 12k, 20k and 33k, boxes 5k). A pair that overlapped
//! last time starts with the test from its cached feature, which then skips nearly every
//! other feature.
//!
//! # Numerical notes
//! * Face planes: a box's and a triangle's are exact; a hull's face is a set of triangles
//!   merged when coplanar within `T::TOLERANCES.degenerate` of its size, so its plane is exact to
//!   that (far below docs/accuracy.md).
//! * Nearly parallel edges: the axis `e_A × e_B` has a direction error `~ε/sin α`. Where
//!   `sin α < ε^¼` its separation is measured by support queries along the computed axis
//!   (a valid lower bound whatever the axis; the error is the axis error times the width of
//!   the thin Minkowski face, `~ε·length`), elsewhere from the edges' points. Exactly parallel
//!   edges (`|e_A × e_B| ≤ 16 ε |e_A||e_B|`) are skipped: their crossing is a segment of the
//!   common great circle whose ends are face normals, already tested (up to `~32 ε·length`).
//! * False crossings: the arcs' sign tests can come out crossed by rounding where a vertex's
//!   normal cone is nearly a half-space, and the edge lines then overstate the separation
//!   (by up to the shapes' extent, [`Test::confirmed`]). A winning edge pair is confirmed by
//!   the shapes' supports along its axis, within the tie plus the axis error's reach,
//!   `8 ε^¾ (4 (size_A + size_B) + |t|)`; the largest separation is attained at a face or a
//!   true crossing, so one that overstates by more is dropped.
//! * Ties: an edge axis replaces a face axis only when better by more than
//!   `T::TOLERANCES.accuracy` of the pair's size (and a face of B a face of A only when
//!   strictly better), so rounding cannot make the normal flicker between equally deep axes.
//! * Witnesses: for a face of A, B's support point along `−n` and its image on A's face plane
//!   (when it falls outside the face, B's supporting face clipped to the face's side planes
//!   gives the deepest point over it, which at the penetration depth exists); symmetrically for
//!   a face of B; for an edge pair, the closest points of the two edges' lines (where one lies
//!   past its edge, only if it is still on a face beside it — a needle's collinear edges —,
//!   else the segments' closest points). All satisfy
//!   `point2 − point1 ≈ dist · normal` with both points on their surfaces. The per-frame
//!   pipeline, whose manifold clips the supporting features anyway, does not clip for the
//!   witness ([`Witnesses::ByManifold`]): the support point and its image on the face's plane
//!   are handed over as they are, and the manifold's clip gives the deepest point over the face
//!   (or, where it clipped the other side's face, [`witness_over_face`] does, as here).

mod certificate;

use core::cell::Cell;

use nphase_math::{Isometry, Point, Real, UnitVector, Vector};
use nphase_shapes::{
    ConvexPolyhedron, Core, Cuboid, FeatureId, FeatureMap, Shape, SupportFeature, SupportMap,
    SupportVertex, Triangle, VertexId,
};
use num_traits::Float;

use super::{LocalContact, SupportHints, WinningFace, Witnesses};
use crate::clipping::{ClipVertex, SidePlane, deepest_inside};
pub use certificate::SatCertificate;

/// A feature whose normal is a separating-axis candidate: a face of A, a face of B, or an edge
/// of each (face and edge numbers as in the shapes' docs; a hull's edge by its place in
/// [`ConvexPolyhedron::edges`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum SatFeature {
    /// Face `i` of A.
    FaceA(u16),
    /// Face `j` of B.
    FaceB(u16),
    /// Edge `i` of A against edge `j` of B.
    Edges(u16, u16),
}

/// What a polytope pair remembers between frames: the feature that won last time, tested
/// first (see the module doc). `None` for a new pair, or one whose last query was not a
/// separating-axis test.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SatCache {
    /// Last frame's best feature.
    pub feature: Option<SatFeature>,
    /// Whether the cores overlapped then (the test goes first this frame, unless both shapes
    /// are lower-dimensional; otherwise GJK does, which measures a separated pair's distance
    /// outright).
    pub penetrating: bool,
}

// Stored inline in every pair's state: a tag, two face or edge numbers and a flag.
const _: () = assert!(size_of::<SatCache>() <= 8);

impl SatCache {
    /// No feature yet: the test starts cold.
    pub const EMPTY: SatCache = SatCache {
        feature: None,
        penetrating: false,
    };
}

/// A convex polytope core: a box, a hull of dimension 2 or 3, or a triangle.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Polytope<'a, T: Real> {
    Cuboid(&'a Cuboid<T>),
    Hull(&'a ConvexPolyhedron<T>),
    Triangle(&'a Triangle<T>),
}

/// An edge as the test sees it: `tail` and `dir = head − tail` (computed in the shape's own
/// frame, then rotated: a short edge far from the origin keeps its direction to rounding), and
/// the normals `[n₀, n₁]` its Gauss arc joins, oriented so that `dir × n₀` enters the arc.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Edge<T: Real> {
    tail: Point<T>,
    dir: Vector<T>,
    normals: [Vector<T>; 2],
    faces: [usize; 2],
}

impl<T: Real> Edge<T> {
    /// `f` (a linear function of the axis) at the middle of the edge's arc when the arc spans
    /// 90° or more — a triangle's or polygon's half circle, where the bound by the two ends
    /// alone does not hold (see the module doc) — else −∞.
    fn middle_bound(&self, f: impl Fn(&Vector<T>) -> T) -> T {
        let [n0, n1] = self.normals;
        if n0.dot(&n1) > T::zero() {
            return T::neg_infinity();
        }
        let middle = n0 + n1;
        let middle = if middle.norm_squared() > T::lit(0.25) {
            middle
        } else {
            self.dir.cross(&n0)
        };
        match nphase_math::normalize_robust(&middle) {
            Some(m) => f(&m.into_inner()),
            None => T::infinity(),
        }
    }
}

impl<'a, T: Real> Polytope<'a, T> {
    /// The polytope a core is, if it is one (hulls of dimension 0 and 1 are a point and a
    /// segment, left to GJK; so are hulls with more faces or edges than a [`SatFeature`] can
    /// number, some 20 000 vertices and up, which GJK's hill climbing serves better anyway).
    pub(crate) fn of(core: &'a Core<'a, T>) -> Option<Self> {
        let numbered = |n: usize| n > 0 && n <= usize::from(u16::MAX);
        match core {
            Core::Cuboid(c) => Some(Polytope::Cuboid(c)),
            Core::Convex(h)
                if h.dimension() >= 2 && numbered(h.edges().len()) && numbered(h.face_count()) =>
            {
                Some(Polytope::Hull(h))
            }
            Core::Triangle(t) => Some(Polytope::Triangle(t)),
            _ => None,
        }
    }

    fn face_count(&self) -> usize {
        match self {
            Polytope::Cuboid(_) => 6,
            Polytope::Hull(h) => h.face_count(),
            Polytope::Triangle(_) => 2,
        }
    }

    /// Face `i`'s outward unit normal and plane offset (`n·x = offset` on the face).
    fn face(&self, i: usize) -> (Vector<T>, T) {
        match self {
            Polytope::Cuboid(c) => {
                let k = i / 2;
                let sign = if i.is_multiple_of(2) {
                    T::one()
                } else {
                    -T::one()
                };
                (Vector::ith(k, sign), c.half_extents()[k])
            }
            Polytope::Hull(h) => {
                let (n, o) = h.face_plane(i);
                (n.into_inner(), o)
            }
            Polytope::Triangle(t) => {
                let n = t.normal().into_inner();
                let n = if i == 0 { n } else { -n };
                (n, n.dot(&t.a().coords))
            }
        }
    }

    /// `n·x − offset` for face `i`: how far `x` (local frame) lies above the face's plane.
    fn height(&self, i: usize, x: &Point<T>) -> T {
        match self {
            Polytope::Cuboid(c) => {
                let k = i / 2;
                let h = c.half_extents()[k];
                if i.is_multiple_of(2) {
                    x[k] - h
                } else {
                    -x[k] - h
                }
            }
            Polytope::Hull(h) => {
                let (n, o) = h.face_plane(i);
                n.dot(&x.coords) - o
            }
            Polytope::Triangle(t) => {
                let above = t.normal().dot(&(x - t.a()));
                if i == 0 { above } else { -above }
            }
        }
    }

    /// [`Polytope::height`] of `x` for every face, into `out`.
    fn heights(&self, x: &Point<T>, out: &mut Vec<T>) {
        out.clear();
        match self {
            Polytope::Hull(h) => {
                out.extend(
                    h.face_planes()
                        .iter()
                        .map(|plane| plane.normal.dot(&x.coords) - plane.offset),
                );
            }
            _ => out.extend((0..self.face_count()).map(|i| self.height(i, x))),
        }
    }

    /// The faces either side of edge `i`, as [`Edge::faces`] (without building the edge).
    fn edge_faces(&self, i: usize) -> [usize; 2] {
        match self {
            Polytope::Cuboid(_) => {
                let k = i / 4;
                let (u, v) = ((k + 1) % 3, (k + 2) % 3);
                let (nu, nv) = (i & 1 != 0, i & 2 != 0);
                let (fu, fv) = (2 * u + usize::from(nu), 2 * v + usize::from(nv));
                if nu == nv { [fu, fv] } else { [fv, fu] }
            }
            Polytope::Hull(h) => h.edges()[i].faces.map(|f| f as usize),
            Polytope::Triangle(_) => [0, 1],
        }
    }

    /// Whether the polytope spans less than three dimensions: a triangle (or what is left of a
    /// degenerate one), a polygon, a box with a half-extent within `T::TOLERANCES.degenerate`
    /// of its largest (its edges along it cross nothing). Two such can make a Minkowski
    /// difference of no volume, whose separating directions in its own plane or line are no
    /// face normal and no crossing of arcs: the test may then not show them apart.
    pub(crate) fn lower_dimensional(&self) -> bool {
        match self {
            Polytope::Cuboid(c) => {
                let h = c.half_extents();
                let thin = T::TOLERANCES.degenerate * h.amax();
                h.iter().any(|x| !(*x > thin))
            }
            _ => self.flat(),
        }
    }

    /// Whether the edges' arcs are half circles (a triangle, a polygon).
    fn flat(&self) -> bool {
        match self {
            Polytope::Cuboid(_) => false,
            Polytope::Hull(h) => h.dimension() == 2,
            Polytope::Triangle(_) => true,
        }
    }

    fn edge_count(&self) -> usize {
        match self {
            Polytope::Cuboid(_) => 12,
            Polytope::Hull(h) => h.edges().len(),
            Polytope::Triangle(_) => 3,
        }
    }

    fn edge(&self, i: usize) -> Edge<T> {
        match self {
            Polytope::Cuboid(c) => {
                // Edge 4k + b_u + 2 b_v runs along axis k; bit b set means the negative side.
                let h = c.half_extents();
                let k = i / 4;
                let (u, v) = ((k + 1) % 3, (k + 2) % 3);
                let su = if i & 1 == 0 { T::one() } else { -T::one() };
                let sv = if i & 2 == 0 { T::one() } else { -T::one() };
                let mut mid = Vector::zeros();
                mid[u] = su * h[u];
                mid[v] = sv * h[v];
                let along = Vector::ith(k, h[k]);
                let (fu, fv) = (
                    2 * u + usize::from(su < T::zero()),
                    2 * v + usize::from(sv < T::zero()),
                );
                // e_k × (s_u e_u) = s_u e_v: it enters the arc toward s_v e_v when s_u = s_v.
                let (normals, faces) = if su == sv {
                    ([Vector::ith(u, su), Vector::ith(v, sv)], [fu, fv])
                } else {
                    ([Vector::ith(v, sv), Vector::ith(u, su)], [fv, fu])
                };
                Edge {
                    tail: Point::from(mid - along),
                    dir: along * T::lit(2.0),
                    normals,
                    faces,
                }
            }
            Polytope::Hull(h) => {
                let e = h.edges()[i];
                let [f0, f1] = e.faces.map(|f| f as usize);
                let tail = h.vertex(e.vertices[0] as usize);
                Edge {
                    tail,
                    dir: h.vertex(e.vertices[1] as usize) - tail,
                    normals: [
                        h.face(f0).normal.into_inner(),
                        h.face(f1).normal.into_inner(),
                    ],
                    faces: [f0, f1],
                }
            }
            Polytope::Triangle(t) => {
                let n = t.normal().into_inner();
                let v = t.vertices();
                Edge {
                    tail: v[i],
                    dir: v[(i + 1) % 3] - v[i],
                    normals: [n, -n],
                    faces: [0, 1],
                }
            }
        }
    }

    /// A vertex of face `i`.
    fn face_point(&self, i: usize) -> Point<T> {
        match self {
            Polytope::Cuboid(c) => c.vertex(Cuboid::<T>::face_vertex_ids(i as u32)[0]),
            Polytope::Hull(h) => h.vertex(h.face(i).vertex_ids[0] as usize),
            Polytope::Triangle(t) => t.a(),
        }
    }

    fn support(&self, dir: &Vector<T>, hint: VertexId) -> SupportVertex<T> {
        match self {
            Polytope::Cuboid(c) => c.local_support_vertex(dir, hint),
            Polytope::Hull(h) => h.local_support_vertex(dir, hint),
            Polytope::Triangle(t) => t.local_support_vertex(dir, hint),
        }
    }

    /// How far `x` (on face `i`'s plane) lies inside the face polygon: the distance to its
    /// boundary inside, and outside minus the largest distance to an edge's line (at most the
    /// distance to the polygon).
    fn depth_in_face(&self, i: usize, x: &Point<T>) -> T {
        match self {
            Polytope::Cuboid(c) => {
                let h = c.half_extents();
                let k = i / 2;
                let (u, v) = ((k + 1) % 3, (k + 2) % 3);
                Float::min(h[u] - Float::abs(x[u]), h[v] - Float::abs(x[v]))
            }
            Polytope::Hull(h) => {
                let face = h.face(i);
                let loop_ = face.vertex_ids;
                polygon_depth(
                    &face.normal.into_inner(),
                    loop_.iter().map(|&v| h.vertex(v as usize)),
                    h.vertex(loop_[0] as usize),
                    x,
                )
            }
            Polytope::Triangle(t) => {
                let v = t.vertices();
                polygon_depth(&t.normal().into_inner(), v.iter().copied(), v[0], x)
            }
        }
    }

    /// The distance from `x` (local frame) to face `i`, the polygon itself (0 on it).
    fn distance_to_face(&self, i: usize, x: &Point<T>) -> T {
        let triangle = |p: Point<T>, q: Point<T>, r: Point<T>| {
            nphase_math::closest_point_to_origin(&[p - x, q - x, r - x])
                .point
                .norm()
        };
        match self {
            Polytope::Cuboid(c) => {
                let h = c.half_extents();
                let k = i / 2;
                let (u, v) = ((k + 1) % 3, (k + 2) % 3);
                let sign = if i.is_multiple_of(2) {
                    T::one()
                } else {
                    -T::one()
                };
                let out = |j: usize| Float::max(Float::abs(x[j]) - h[j], T::zero());
                let off = x[k] - sign * h[k];
                Float::sqrt(out(u) * out(u) + out(v) * out(v) + off * off)
            }
            Polytope::Hull(h) => {
                let ids = h.face(i).vertex_ids;
                let vertex = |j: usize| h.vertex(ids[j] as usize);
                (1..ids.len().saturating_sub(1))
                    .map(|j| triangle(vertex(0), vertex(j), vertex(j + 1)))
                    .fold(T::infinity(), Float::min)
            }
            Polytope::Triangle(t) => {
                let [p, q, r] = *t.vertices();
                triangle(p, q, r)
            }
        }
    }

    /// The side planes of face `i` (outward, through its edges), for clipping.
    fn side_planes(&self, i: usize, out: &mut Vec<SidePlane<T>>) {
        out.clear();
        let (n, _) = self.face(i);
        let mut push = |p: Point<T>, q: Point<T>| {
            out.push(SidePlane {
                origin: p,
                normal: (q - p).cross(&n),
                feature: FeatureId::Face(0),
                ends: [0, 0],
            });
        };
        match self {
            Polytope::Cuboid(c) => {
                let ids = Cuboid::<T>::face_vertex_ids(i as u32);
                for k in 0..4 {
                    push(c.vertex(ids[k]), c.vertex(ids[(k + 1) % 4]));
                }
            }
            Polytope::Hull(h) => {
                let loop_ = h.face(i).vertex_ids;
                for k in 0..loop_.len() {
                    push(
                        h.vertex(loop_[k] as usize),
                        h.vertex(loop_[(k + 1) % loop_.len()] as usize),
                    );
                }
            }
            Polytope::Triangle(t) => {
                let v = t.vertices();
                let order = if i == 0 { [0, 1, 2] } else { [0, 2, 1] };
                for k in 0..3 {
                    push(v[order[k]], v[order[(k + 1) % 3]]);
                }
            }
        }
    }

    /// [`Polytope::support_feature`] with what a query found along `dir`: a hull's face known
    /// to support it (`face`), else a search from a vertex of its support set (`vertex`).
    fn support_feature_hinted(
        &self,
        dir: &Vector<T>,
        (face, vertex): (Option<u32>, VertexId),
        out: &mut SupportFeature<T>,
    ) {
        if let Polytope::Hull(h) = self {
            if face.is_some_and(|f| h.face_feature(f as usize, out)) {
                return;
            }
            if vertex.is_some() {
                return h.local_support_feature_near(dir, Some(FeatureId::Vertex(vertex.0)), out);
            }
        }
        self.support_feature(dir, out);
    }

    fn support_feature(&self, dir: &Vector<T>, out: &mut SupportFeature<T>) {
        match self {
            Polytope::Cuboid(c) => c.local_support_feature(dir, out),
            Polytope::Hull(h) => h.local_support_feature(dir, out),
            Polytope::Triangle(t) => t.local_support_feature(dir, out),
        }
    }
}

/// The distance from `x` to the boundary of the convex polygon `loop_` (counter-clockwise about
/// `n`), negative outside: the smallest signed distance to its edge lines.
fn polygon_depth<T: Real>(
    n: &Vector<T>,
    loop_: impl Iterator<Item = Point<T>>,
    first: Point<T>,
    x: &Point<T>,
) -> T {
    let mut depth = T::infinity();
    let mut prev: Option<Point<T>> = None;
    let mut visit = |p: Point<T>, q: Point<T>| {
        let inward = n.cross(&(q - p));
        let len = inward.norm();
        if len > T::zero() {
            depth = Float::min(depth, (x - p).dot(&inward) / len);
        }
    };
    for q in loop_ {
        if let Some(p) = prev {
            visit(p, q);
        }
        prev = Some(q);
    }
    if let Some(p) = prev {
        visit(p, first);
    }
    depth
}

/// The pair a test runs on: A at the origin, B at `pos12`; `limit` is the separation beyond
/// which the answer is "apart" (the prediction plus the radii of rounded shapes).
pub(crate) struct SatInput<'a, T: Real> {
    pub(crate) a: Polytope<'a, T>,
    pub(crate) b: Polytope<'a, T>,
    pub(crate) pos12: &'a Isometry<T>,
    pub(crate) limit: T,
    /// The sizes of the two cores (ties are judged relative to their sum).
    pub(crate) sizes: [T; 2],
    /// Who finds a face axis's witnesses when they need clipping.
    pub(crate) witnesses: Witnesses,
}

/// How a separating-axis test ended.
#[derive(Clone, Copy, Debug)]
pub(crate) enum SatOutcome<T: Real> {
    /// An axis separates the cores by more than the limit: its separation (a certified lower
    /// bound on the distance).
    Apart { lower_bound: T },
    /// The cores are apart, by at most the limit: the distance is for GJK to measure.
    Separated,
    /// The cores overlap or touch: the exact contact (signed distance ≤ 0), and the supporting
    /// features the test found along its normal.
    Penetrating(LocalContact<T>, SupportHints),
}

/// Scratch space of the test (buffers that grow to the largest polytope, then stay).
#[derive(Debug, Default)]
pub(crate) struct SatWorkspace<T: Real> {
    /// Upper bounds on the separation along each face of A, and of B.
    bounds_a: Vec<T>,
    bounds_b: Vec<T>,
    /// B's edges that survive the bounds (a certificate's hot ones), in A's frame.
    edges_b: Vec<(usize, Edge<T>)>,
    /// For a certificate: each face's exact separation where it was evaluated, else its bound
    /// (A's, B's), and the points of B (A's frame) and of A (B's frame) of the bounds.
    values_a: Vec<T>,
    values_b: Vec<T>,
    b0: Point<T>,
    a0_in_b: Point<T>,
    /// A certificate's renumbering of its hot edges.
    renumbered: Vec<u16>,
    feature: SupportFeature<T>,
    planes: Vec<SidePlane<T>>,
    polygon: Vec<ClipVertex<T>>,
    scratch: Vec<ClipVertex<T>>,
}

/// The best axis so far: its separation, direction (A → B) and feature, and a point of A and
/// one of B near the contact (the supports along `±axis` it was measured with, or the edges'
/// closest points), which bound the other features' separations.
#[derive(Clone, Copy, Debug)]
struct Best<T: Real> {
    separation: T,
    axis: Vector<T>,
    feature: SatFeature,
    on_a: Point<T>,
    /// For a face of B, not measured (B's point is the face's, found when asked for:
    /// [`Test::point_on_b`]; a certified frame tries several faces and keeps one) and `on_a`
    /// stands in.
    on_b: Point<T>,
    /// For a face axis, the other shape's support vertex that measured it (`on_a` or `on_b`).
    vertex: VertexId,
}

/// The separating-axis test of `input` (see the module doc), starting from `cache`'s feature;
/// `cache` is updated with the winner. Returns whether the cached feature won, too, and
/// whether the certificate answered.
///
/// With a `certificate` (the per-frame pipeline's, kept by the pair), the hot features alone
/// answer while it certifies their winner ([`certificate`]); otherwise the full test runs and,
/// when the cores overlap, leaves a new certificate.
pub(crate) fn polytope_contact<T: Real>(
    input: &SatInput<'_, T>,
    cache: &mut SatCache,
    mut certificate: Option<&mut Option<Box<SatCertificate<T>>>>,
    ws: &mut SatWorkspace<T>,
) -> (SatOutcome<T>, bool, bool) {
    let test = Test::new(input);
    if let Some(Some(cert)) = certificate.as_deref_mut()
        && let Some(best) = test.certified(cert, ws)
    {
        let hit = cache.feature == Some(best.feature);
        *cache = SatCache {
            feature: Some(best.feature),
            penetrating: true,
        };
        return (test.penetrating(&best, ws), hit, true);
    }
    // A pair's first certificate is allocated when its cores first overlap.
    let record = match certificate.as_deref_mut() {
        Some(Some(cert)) => cert.wants_collection(input.pos12),
        Some(None) => true,
        None => false,
    };
    let cached = cache.feature.and_then(|f| test.evaluate(f));
    // Cold: A's face toward B's origin, a fair first guess that tightens the bounds early.
    let seed = cached.or_else(|| {
        input
            .a
            .support_feature(&input.pos12.translation.vector, &mut ws.feature);
        match ws.feature.id {
            FeatureId::Face(f) if (f as usize) < input.a.face_count() => {
                Some(test.face_a_axis(f as usize))
            }
            _ => None,
        }
    });
    let (outcome, winner) = test.run(seed, record, Confirm::Winner, ws);
    let penetrating = matches!(outcome, SatOutcome::Penetrating(..));
    if let (true, true, Some(slot), Some(best)) = (record, penetrating, certificate, &winner) {
        let cert = slot.get_or_insert_with(|| Box::new(SatCertificate::new()));
        test.collect(best, ws, cert);
    }
    let winner = winner.map(|b| b.feature);
    let hit = winner.is_some() && winner == cached.map(|s| s.feature);
    *cache = SatCache {
        feature: winner,
        penetrating,
    };
    (outcome, hit, false)
}

/// Which edge pairs [`Test::run`] confirms by the shapes' supports ([`Test::confirmed`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Confirm {
    /// The winner only (the first pass).
    Winner,
    /// Every pair that would take the lead (the pass after a false winner).
    Every,
}

impl<T: Real> Best<T> {
    /// Whether this axis wins over `other` of the same family: a larger separation, or an equal
    /// one and a lower feature (faces of A before faces of B, lower numbers first). A total
    /// order, so the winner does not depend on the order features are tried in.
    fn beats(&self, other: &Best<T>) -> bool {
        self.separation > other.separation
            || (self.separation == other.separation && self.feature < other.feature)
    }
}

/// One test: the pair, the tie bias, and the last support vertex of each shape (the next
/// support query climbs from it: the features tried are near each other).
struct Test<'a, T: Real> {
    input: &'a SatInput<'a, T>,
    tie: T,
    hints: Cell<[VertexId; 2]>,
}

impl<'a, T: Real> Test<'a, T> {
    fn new(input: &'a SatInput<'a, T>) -> Self {
        // The accuracy of docs/accuracy.md is relative to the smaller shape, above the rounding
        // of the coordinates (B's offset included).
        let [a, b] = input.sizes;
        let size = a + b + input.pos12.translation.vector.norm();
        Test {
            input,
            tie: T::TOLERANCES.length(T::TOLERANCES.accuracy, Float::min(a, b), size),
            hints: Cell::new([VertexId::NONE; 2]),
        }
    }

    /// A's support point along `dir`.
    fn support_a(&self, dir: &Vector<T>) -> Point<T> {
        let [hint, other] = self.hints.get();
        let v = self.input.a.support(dir, hint);
        self.hints.set([v.id, other]);
        v.point
    }

    /// B's support point along `dir` (A's frame), in A's frame.
    fn support_b(&self, dir: &Vector<T>) -> Point<T> {
        let p = self.input.pos12;
        let [other, hint] = self.hints.get();
        let v = self
            .input
            .b
            .support(&p.rotation.inverse_transform_vector(dir), hint);
        self.hints.set([other, v.id]);
        p * v.point
    }

    /// Face `j` of B in A's frame: outward normal and plane offset.
    fn face_b(&self, j: usize) -> (Vector<T>, T) {
        let (m, o) = self.input.b.face(j);
        let m = self.input.pos12.rotation * m;
        (m, o + m.dot(&self.input.pos12.translation.vector))
    }

    fn face_a_axis(&self, i: usize) -> Best<T> {
        let (n, o) = self.input.a.face(i);
        let on_b = self.support_b(&-n);
        Best {
            vertex: self.hints.get()[1],
            separation: n.dot(&on_b.coords) - o,
            axis: n,
            feature: SatFeature::FaceA(i as u16),
            on_a: on_b - n * (n.dot(&on_b.coords) - o),
            on_b,
        }
    }

    fn face_b_axis(&self, j: usize) -> Best<T> {
        let (m, o) = self.face_b(j);
        let on_a = self.support_a(&-m);
        Best {
            vertex: self.hints.get()[0],
            separation: m.dot(&on_a.coords) - o,
            axis: -m,
            feature: SatFeature::FaceB(j as u16),
            on_a,
            on_b: on_a,
        }
    }

    /// A point of B on `best`'s feature: its `on_b`, or for a face of B a vertex of the face.
    fn point_on_b(&self, best: &Best<T>) -> Point<T> {
        match best.feature {
            SatFeature::FaceB(j) => self.input.pos12 * self.input.b.face_point(usize::from(j)),
            _ => best.on_b,
        }
    }

    /// The axis of edge `i` of A and edge `j` of B (in A's frame) if their arcs cross.
    fn edge_axis(&self, i: usize, ea: &Edge<T>, j: usize, eb: &Edge<T>) -> Option<Best<T>> {
        let (da, db) = (ea.dir, eb.dir);
        let [a1, a2] = ea.normals;
        let [b1, b2] = eb.normals;
        let (ca1, ca2) = (da.dot(&b1), da.dot(&b2));
        if !(ca1 * ca2 < T::zero()) {
            return None;
        }
        let (cb1, cb2) = (db.dot(&a1), db.dot(&a2));
        if !(cb1 * cb2 < T::zero() && cb1 * ca1 < T::zero()) {
            return None;
        }
        let p = da.cross(&db);
        let (len2, scale2) = (p.norm_squared(), da.norm_squared() * db.norm_squared());
        let eps = T::TOLERANCES.epsilon;
        let parallel = T::lit(256.0) * eps * eps;
        if !(len2 > parallel * scale2) {
            return None;
        }
        // `norm_robust`: √len2 where len2 is a normal float, bit for bit; edges ~1e-10 long
        // in f32 make it subnormal, and the axis would not be unit.
        let len = nphase_math::norm_robust(&p);
        let axis = if cb1 > T::zero() { p / len } else { -p / len };
        let thin = Float::sqrt(Float::sqrt(eps));
        let separation = if len2 < thin * thin * scale2 {
            // Nearly parallel: measured along the computed axis with support queries.
            let top_a = self.support_a(&axis);
            let bottom_b = self.support_b(&-axis);
            axis.dot(&(bottom_b - top_a))
        } else {
            axis.dot(&(eb.tail - ea.tail))
        };
        let (s, u) = closest_parameters(&ea.tail.coords, &da, &eb.tail.coords, &db);
        let (on_a, on_b) = (ea.tail + da * s, eb.tail + db * u);
        Some(Best {
            vertex: VertexId::NONE,
            separation,
            axis,
            feature: SatFeature::Edges(i as u16, j as u16),
            on_a,
            on_b,
        })
    }

    /// B's edge `j` in A's frame, with its arc on the Gauss map of `−B`.
    fn edge_b(&self, j: usize) -> Edge<T> {
        self.in_a_frame(&self.input.b.edge(j))
    }

    /// An edge of B (B's frame) in A's frame, as the test uses it.
    fn in_a_frame(&self, e: &Edge<T>) -> Edge<T> {
        let p = self.input.pos12;
        Edge {
            tail: p * e.tail,
            dir: p.rotation * e.dir,
            normals: e.normals.map(|n| -(p.rotation * n)),
            faces: e.faces,
        }
    }

    /// `candidate` (an edge pair's axis) if the shapes' supports along its axis confirm its
    /// separation, measured between the two edge lines (right only where the arcs truly cross:
    /// module doc, numerical notes). On a true crossing the two differ by the axis error
    /// (`~8 ε/sin α`, `sin α ≥ ε^¼` where the lines measure) times the distances of the
    /// support vertices from the edges, within each shape's diameter (`≤ 2√3` its size: the
    /// slack takes `4 (size_A + size_B)`, and `|t|` for the coordinates' rounding). A false
    /// crossing that overstates by more is dropped; one within the slack is kept, off by no
    /// more than the line measurement's own error. The support queries leave the climbing hints
    /// as they were.
    fn confirmed(&self, candidate: Best<T>) -> Option<Best<T>> {
        let hints = self.hints.get();
        let axis = candidate.axis;
        let measured = axis.dot(&(self.support_b(&-axis) - self.support_a(&axis)));
        self.hints.set(hints);
        let eps = T::TOLERANCES.epsilon;
        let axis_error = T::lit(8.0) * eps / Float::sqrt(Float::sqrt(eps));
        let [a, b] = self.input.sizes;
        let reach = T::lit(4.0) * (a + b) + self.input.pos12.translation.vector.norm();
        let slack = self.tie + axis_error * reach;
        (measured >= candidate.separation - slack).then_some(candidate)
    }

    /// A feature's axis now, if it is still a candidate (an edge pair whose arcs still cross,
    /// [`Test::confirmed`]).
    fn evaluate(&self, feature: SatFeature) -> Option<Best<T>> {
        let (a, b) = (&self.input.a, &self.input.b);
        match feature {
            SatFeature::FaceA(i) if (i as usize) < a.face_count() => {
                Some(self.face_a_axis(i as usize))
            }
            SatFeature::FaceB(j) if (j as usize) < b.face_count() => {
                Some(self.face_b_axis(j as usize))
            }
            SatFeature::Edges(i, j)
                if (i as usize) < a.edge_count() && (j as usize) < b.edge_count() =>
            {
                let (i, j) = (i as usize, j as usize);
                self.edge_axis(i, &a.edge(i), j, &self.edge_b(j))
                    .and_then(|c| self.confirmed(c))
            }
            _ => None,
        }
    }

    /// The full test, seeded with `seed` (the cached feature's axis, which only tightens the
    /// bounds: the winner does not depend on it, see [`Best::beats`]); returns the outcome and
    /// the winning axis. With `record`, every face's exact separation where it was evaluated
    /// (its bound elsewhere) is left in `ws.values_*`, and the bounds' points in `ws`, for a
    /// certificate ([`certificate`]). An edge-pair seed must come from [`Test::evaluate`]
    /// (confirmed there); `confirm` says which edge pairs are confirmed ([`Confirm`]).
    fn run(
        &self,
        seed: Option<Best<T>>,
        record: bool,
        confirm: Confirm,
        ws: &mut SatWorkspace<T>,
    ) -> (SatOutcome<T>, Option<Best<T>>) {
        let entry_hints = self.hints.get();
        let (a, b, limit) = (&self.input.a, &self.input.b, self.input.limit);
        if let Some(s) = seed.filter(|s| s.separation > limit) {
            return (
                SatOutcome::Apart {
                    lower_bound: s.separation,
                },
                Some(s),
            );
        }
        // The winner, whatever the order features are tried in: the best face of A (by
        // [`Best::beats`]); the best face of B instead if it is better by more than the tie;
        // the best edge pair instead if it is better than that by more than the tie. A seed
        // of B or an edge pair proves every face of A below `seed − tie` a loser.
        let tie = self.tie;
        let (face_a, floor_a) = match seed {
            Some(s) if matches!(s.feature, SatFeature::FaceA(_)) => (seed, T::neg_infinity()),
            Some(s) => (None, s.separation - tie),
            None => (None, T::neg_infinity()),
        };
        // Whether a feature whose separation is at most `bound` may beat `best`.
        let open = |bound: T, feature: SatFeature, best: &Option<Best<T>>| {
            best.is_none_or(|f| {
                bound > f.separation || (bound == f.separation && feature < f.feature)
            })
        };
        // Faces of A, bounded by a point of B (the deepest along the best axis so far).
        // Every bound with one point `b₀` of B (so that the edges can use them too, see the
        // module doc): the seed's, or the first face's.
        let mut face_a = face_a;
        let b0 = match seed {
            Some(s) => self.point_on_b(&s),
            None => {
                let first = self.face_a_axis(0);
                if first.separation > limit {
                    let lower_bound = first.separation;
                    return (SatOutcome::Apart { lower_bound }, Some(first));
                }
                face_a = Some(first);
                first.on_b
            }
        };
        a.heights(&b0, &mut ws.bounds_a);
        if record {
            ws.b0 = b0;
            ws.values_a.clear();
            ws.values_a.extend_from_slice(&ws.bounds_a);
            for s in seed.iter().chain(&face_a) {
                if let SatFeature::FaceA(i) = s.feature {
                    ws.values_a[usize::from(i)] = s.separation;
                }
            }
        }
        for (i, &bound) in ws.bounds_a.iter().enumerate() {
            let feature = SatFeature::FaceA(i as u16);
            if bound < floor_a || !open(bound, feature, &face_a) {
                continue;
            }
            let candidate = self.face_a_axis(i);
            if record {
                ws.values_a[i] = candidate.separation;
            }
            if face_a.is_none_or(|f| candidate.beats(&f)) {
                if candidate.separation > limit {
                    return (
                        SatOutcome::Apart {
                            lower_bound: candidate.separation,
                        },
                        Some(candidate),
                    );
                }
                face_a = Some(candidate);
            }
        }
        // Every face of A was below the seed: any face serves as the floor of the search.
        let face_a = face_a.unwrap_or_else(|| {
            let first = self.face_a_axis(0);
            if record {
                ws.values_a[0] = first.separation;
            }
            first
        });
        // Faces of B, bounded by a point of A; only those beating A's by more than the tie.
        let floor_b = face_a.separation + tie;
        let mut face_b =
            seed.filter(|s| matches!(s.feature, SatFeature::FaceB(_)) && s.separation > floor_b);
        // Every bound with one point `a₀` of A, likewise.
        let a0 = match seed {
            Some(s) if !matches!(s.feature, SatFeature::FaceA(_)) => s.on_a,
            _ => self.support_a(&face_a.axis),
        };
        let a0_in_b = self.input.pos12.inverse_transform_point(&a0);
        b.heights(&a0_in_b, &mut ws.bounds_b);
        if record {
            ws.a0_in_b = a0_in_b;
            ws.values_b.clear();
            ws.values_b.extend_from_slice(&ws.bounds_b);
            for s in seed.iter().chain(&face_b) {
                if let SatFeature::FaceB(j) = s.feature {
                    ws.values_b[usize::from(j)] = s.separation;
                }
            }
        }
        for (j, &bound) in ws.bounds_b.iter().enumerate() {
            let feature = SatFeature::FaceB(j as u16);
            if !(bound > floor_b) || !open(bound, feature, &face_b) {
                continue;
            }
            let candidate = self.face_b_axis(j);
            if record {
                ws.values_b[j] = candidate.separation;
            }
            if candidate.separation > floor_b && face_b.is_none_or(|f| candidate.beats(&f)) {
                if candidate.separation > limit {
                    return (
                        SatOutcome::Apart {
                            lower_bound: candidate.separation,
                        },
                        Some(candidate),
                    );
                }
                face_b = Some(candidate);
            }
        }
        let current = face_b.unwrap_or(face_a);
        if current.separation > T::zero() {
            // Apart by at most the limit: only GJK gives the distance; the edge axes, which
            // could only raise this lower bound, are not searched.
            return (SatOutcome::Separated, Some(current));
        }
        // Edge pairs, among edges beside faces whose bounds (with `b₀` and `a₀`) reach the best
        // face (see the module doc; the bound on an arc holds where its faces' are ≤ 0).
        let floor = current.separation + tie;
        let hot = |bound: T| bound > floor || bound > T::zero();
        ws.edges_b.clear();
        for j in 0..b.edge_count() {
            let [f0, f1] = b.edge_faces(j);
            let ends = Float::max(ws.bounds_b[f0], ws.bounds_b[f1]);
            if hot(ends) {
                ws.edges_b.push((j, self.edge_b(j)));
            } else if b.flat() {
                let e = self.edge_b(j);
                if hot(e.middle_bound(|u| u.dot(&(e.tail - a0)))) {
                    ws.edges_b.push((j, e));
                }
            }
        }
        let mut edge: Option<Best<T>> = None;
        if !ws.edges_b.is_empty() {
            for i in 0..a.edge_count() {
                let [f0, f1] = a.edge_faces(i);
                let ends = Float::max(ws.bounds_a[f0], ws.bounds_a[f1]);
                if !hot(ends) && !a.flat() {
                    continue;
                }
                let ea = a.edge(i);
                if !hot(ends) && !hot(ea.middle_bound(|u| u.dot(&(b0 - ea.tail)))) {
                    continue;
                }
                for (j, eb) in &ws.edges_b {
                    if let Some(candidate) = self.edge_axis(i, &ea, *j, eb)
                        && candidate.separation > floor
                        && edge.is_none_or(|e| candidate.beats(&e))
                        && (confirm == Confirm::Winner || self.confirmed(candidate).is_some())
                    {
                        edge = Some(candidate);
                    }
                }
            }
        }
        // A winning edge pair is confirmed ([`Test::confirmed`]; the seed already was, by
        // [`Test::evaluate`]); if it was a false crossing, the test runs again, from the same
        // hints, confirming every edge pair that would win (rare: the common case pays two
        // support queries at most).
        let unconfirmed = |e: &Best<T>| {
            seed.is_none_or(|s| s.feature != e.feature) && self.confirmed(*e).is_none()
        };
        if confirm == Confirm::Winner && edge.as_ref().is_some_and(unconfirmed) {
            self.hints.set(entry_hints);
            return self.run(seed, record, Confirm::Every, ws);
        }
        let best = edge.unwrap_or(current);
        let outcome = if best.separation > limit {
            SatOutcome::Apart {
                lower_bound: best.separation,
            }
        } else if best.separation > T::zero() {
            SatOutcome::Separated
        } else {
            self.penetrating(&best, ws)
        };
        (outcome, Some(best))
    }

    /// The outcome of a winning axis that separates the cores by at most 0: its contact and
    /// the supporting features it found.
    fn penetrating(&self, best: &Best<T>, ws: &mut SatWorkspace<T>) -> SatOutcome<T> {
        let (contact, on_plane) = self.contact(best, ws);
        let supports = SupportHints {
            witness_on_plane: on_plane,
            ..self.supports(best)
        };
        SatOutcome::Penetrating(contact, supports)
    }

    /// What the winning axis tells of the supporting features along it: a face axis's own face
    /// (the shape's support feature along its face normal) and the other shape's support vertex
    /// that measured it. Hulls only: the faces and vertices of boxes and triangles are numbered
    /// differently here and in their support features, which cost a few comparisons anyway.
    fn supports(&self, best: &Best<T>) -> SupportHints {
        let hull = |p: &Polytope<'_, T>| matches!(p, Polytope::Hull(_));
        let (a, b) = (hull(&self.input.a), hull(&self.input.b));
        let mut hints = SupportHints::default();
        match best.feature {
            SatFeature::FaceA(i) => {
                hints.faces[0] = a.then_some(u32::from(i));
                hints.vertices[1] = if b { best.vertex } else { VertexId::NONE };
            }
            SatFeature::FaceB(j) => {
                hints.faces[1] = b.then_some(u32::from(j));
                hints.vertices[0] = if a { best.vertex } else { VertexId::NONE };
            }
            SatFeature::Edges(..) => {}
        }
        hints
    }

    /// The contact of the winning axis (separation ≤ 0): normal, depth and witnesses — and the
    /// face they were left on when the support point's image falls outside it and the
    /// manifold is to clip ([`Witnesses::ByManifold`]).
    fn contact(
        &self,
        best: &Best<T>,
        ws: &mut SatWorkspace<T>,
    ) -> (LocalContact<T>, Option<WinningFace>) {
        let n = best.axis;
        let s = best.separation;
        let pos12 = self.input.pos12;
        let by_manifold = self.input.witnesses == Witnesses::ByManifold;
        let mut on_plane = None;
        let (point1, point2) = match best.feature {
            SatFeature::FaceA(i) => {
                let i = i as usize;
                let on_b = best.on_b;
                let on_a = on_b - n * (n.dot(&on_b.coords) - self.input.a.face(i).1);
                if self.input.a.depth_in_face(i, &on_a) >= -self.tie {
                    (on_a, on_b)
                } else if by_manifold {
                    on_plane = Some(WinningFace::A);
                    (on_a, on_b)
                } else {
                    let dir = pos12.rotation.inverse_transform_vector(&-n);
                    self.input.b.support_feature(&dir, &mut ws.feature);
                    ws.feature.transform_by(pos12);
                    self.input.a.side_planes(i, &mut ws.planes);
                    match self.deepest_over(&n, ws) {
                        Some(on_b) => (on_b - n * s, on_b),
                        None => (on_a, on_b),
                    }
                }
            }
            SatFeature::FaceB(j) => {
                let j = j as usize;
                let on_a = best.on_a;
                let on_b = on_a + n * s;
                let in_b = pos12.inverse_transform_point(&on_b);
                if self.input.b.depth_in_face(j, &in_b) >= -self.tie {
                    (on_a, on_b)
                } else if by_manifold {
                    on_plane = Some(WinningFace::B);
                    (on_a, on_b)
                } else {
                    // In B's frame, where B's face is the reference and A incident.
                    let m = pos12.rotation.inverse_transform_vector(&-n);
                    let inverse = pos12.inverse();
                    self.input.a.support_feature(&n, &mut ws.feature);
                    ws.feature.transform_by(&inverse);
                    self.input.b.side_planes(j, &mut ws.planes);
                    match self.deepest_over(&m, ws) {
                        Some(on_a_in_b) => {
                            let on_a = pos12 * on_a_in_b;
                            (on_a, on_a + n * s)
                        }
                        None => (on_a, on_b),
                    }
                }
            }
            SatFeature::Edges(i, j) => {
                let (ea, eb) = (self.input.a.edge(i as usize), self.edge_b(j as usize));
                let cross2 = ea.dir.cross(&eb.dir).norm_squared();
                let thin = Float::sqrt(T::TOLERANCES.epsilon);
                if cross2 > thin * ea.dir.norm_squared() * eb.dir.norm_squared() {
                    let (s, u) =
                        line_parameters(&ea.tail.coords, &ea.dir, &eb.tail.coords, &eb.dir, cross2);
                    let (on_a, on_b) = (ea.tail + ea.dir * s, eb.tail + eb.dir * u);
                    // Each line's point beyond its edge still on a face beside the edge, within
                    // the tie tolerance (a needle's collinear edges: its support along `n` is
                    // longer than the winning edge; on a proper polytope the line leaves the
                    // shape at the edge's ends).
                    let on_a_face = |x: &Point<T>| {
                        let a = &self.input.a;
                        a.edge_faces(i as usize)
                            .iter()
                            .any(|&f| a.distance_to_face(f, x) <= self.tie)
                    };
                    let on_b_face = |x: &Point<T>| {
                        let (b, x) = (&self.input.b, pos12.inverse_transform_point(x));
                        b.edge_faces(j as usize)
                            .iter()
                            .any(|&f| b.distance_to_face(f, &x) <= self.tie)
                    };
                    if (near_edge(s) || on_a_face(&on_a)) && (near_edge(u) || on_b_face(&on_b)) {
                        (on_a, on_b)
                    } else {
                        let (s, u) =
                            closest_parameters(&ea.tail.coords, &ea.dir, &eb.tail.coords, &eb.dir);
                        (ea.tail + ea.dir * s, eb.tail + eb.dir * u)
                    }
                } else {
                    (best.on_a, best.on_b)
                }
            }
        };
        (
            LocalContact::exact(point1, point2, UnitVector::new_unchecked(n), s),
            on_plane,
        )
    }

    /// The vertex of `ws.feature` (the incident feature, in the reference face's frame) deepest
    /// along `−normal` among those left after clipping it to `ws.planes` (the reference face's
    /// side planes, loosened by the tie tolerance); `None` when nothing is left.
    fn deepest_over(&self, normal: &Vector<T>, ws: &mut SatWorkspace<T>) -> Option<Point<T>> {
        deepest_inside(
            &ws.feature.vertices,
            &mut ws.planes,
            self.tie,
            &-normal,
            &mut ws.polygon,
            &mut ws.scratch,
        )
    }
}

/// Scratch space of [`witness_over_face`].
#[derive(Debug, Default)]
pub(crate) struct WitnessWorkspace<T: Real> {
    features: [SupportFeature<T>; 2],
    planes: Vec<SidePlane<T>>,
    polygon: Vec<ClipVertex<T>>,
    scratch: Vec<ClipVertex<T>>,
}

/// The exact witnesses of a separating-axis contact between polytope cores whose witnesses the
/// query left on `face`'s plane ([`Witnesses::ByManifold`]): as [`Witnesses::Exact`] finds
/// them, on the cores — the deepest point of the other core's supporting feature over the
/// face (clipped to the face's side planes, loosened by `slack`), then grown by the shapes'
/// radii along the normal, `dist` apart along it. The contact as it is when a shape is not a
/// polytope core, the face is not a polygon here, or nothing is left of the clip (rounding).
///
/// What the query found along the normal (`supports`: the winning face of a hull, the other
/// hull's support vertex) is used instead of searching again.
pub(crate) fn witness_over_face<T: Real>(
    (shape1, shape2, pos12): (&Shape<T>, &Shape<T>, &Isometry<T>),
    (contact, supports): (&LocalContact<T>, &SupportHints),
    face: WinningFace,
    slack: T,
    ws: &mut WitnessWorkspace<T>,
) -> LocalContact<T> {
    let ((core1, radius1), (core2, radius2)) = (shape1.core(), shape2.core());
    let (Some(a), Some(b)) = (Polytope::of(&core1), Polytope::of(&core2)) else {
        return *contact;
    };
    let n = contact.normal.into_inner();
    let [feature1, feature2] = &mut ws.features;
    a.support_feature_hinted(&n, (supports.faces[0], supports.vertices[0]), feature1);
    b.support_feature_hinted(
        &pos12.rotation.inverse_transform_vector(&-n),
        (supports.faces[1], supports.vertices[1]),
        feature2,
    );
    feature2.transform_by(pos12);
    let (reference, incident, toward) = match face {
        WinningFace::A => (&*feature1, &*feature2, n),
        WinningFace::B => (&*feature2, &*feature1, -n),
    };
    let rv = &reference.vertices;
    if rv.len() < 3 {
        return *contact;
    }
    ws.planes.clear();
    for k in 0..rv.len() {
        ws.planes.push(SidePlane {
            origin: rv[k],
            normal: (rv[(k + 1) % rv.len()] - rv[k]).cross(&toward),
            feature: FeatureId::Face(0),
            ends: [0, 0],
        });
    }
    let Some(deepest) = deepest_inside(
        &incident.vertices,
        &mut ws.planes,
        slack,
        &-toward,
        &mut ws.polygon,
        &mut ws.scratch,
    ) else {
        return *contact;
    };
    let (point1, point2) = match face {
        WinningFace::A => {
            let point2 = deepest - n * radius2;
            (point2 - n * contact.dist, point2)
        }
        WinningFace::B => {
            let point1 = deepest + n * radius1;
            (point1, point1 + n * contact.dist)
        }
    };
    LocalContact {
        point1,
        point2,
        ..*contact
    }
}

/// Parameters `(s, t)` of the closest points of the lines `p0 + s d1` and `q0 + t d2`, where
/// `|d1 × d2|² = cross2` is well above rounding.
///
/// The winning edge pair's Minkowski face holds the origin's projection, so the lines' closest
/// points lie on both edges and `q − p = separation · axis`. Rounding, or a near tie with a
/// neighbouring sliver face (an edge of a needle), can put them past an end: within half an
/// edge ([`near_edge`]) the lines' points stay on the surface to within the sliver's width,
/// and further out the caller keeps them where they still lie on a face beside the edge (a
/// needle triangle, whose support along the axis is its whole length, not the short edge that
/// won); elsewhere it takes the segments' closest points ([`closest_parameters`]).
fn line_parameters<T: Real>(
    p0: &Vector<T>,
    d1: &Vector<T>,
    q0: &Vector<T>,
    d2: &Vector<T>,
    cross2: T,
) -> (T, T) {
    let r = p0 - q0;
    let (b, c, e, f) = (d1.dot(d2), d1.dot(&r), d2.norm_squared(), d2.dot(&r));
    let s = (b * f - c * e) / cross2;
    let t = (b * s + f) / e;
    (s, t)
}

/// Whether a line parameter is within half an edge of the edge `[0, 1]`.
fn near_edge<T: Real>(x: T) -> bool {
    x >= -T::lit(0.5) && x <= T::lit(1.5)
}

/// Parameters `(s, t)` in `[0, 1]²` of the closest points of segments `p0 + s d1` and
/// `q0 + t d2` (Ericson 5.1.9).
pub(crate) fn closest_parameters<T: Real>(
    p0: &Vector<T>,
    d1: &Vector<T>,
    q0: &Vector<T>,
    d2: &Vector<T>,
) -> (T, T) {
    let r = p0 - q0;
    let (a, e, f) = (d1.norm_squared(), d2.norm_squared(), d2.dot(&r));
    let clamp = |x: T| Float::min(Float::max(x, T::zero()), T::one());
    if !(a > T::zero()) {
        return (
            T::zero(),
            if e > T::zero() {
                clamp(f / e)
            } else {
                T::zero()
            },
        );
    }
    let c = d1.dot(&r);
    if !(e > T::zero()) {
        return (clamp(-c / a), T::zero());
    }
    let b = d1.dot(d2);
    let denom = a * e - b * b;
    let mut s = if denom > T::zero() {
        clamp((b * f - c * e) / denom)
    } else {
        T::zero()
    };
    let mut u = (b * s + f) / e;
    if u < T::zero() {
        u = T::zero();
        s = clamp(-c / a);
    } else if u > T::one() {
        u = T::one();
        s = clamp((b - c) / a);
    }
    (s, u)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::PairWorkspace;
    use crate::collide::convex_gjk::{CoreInput, convex_contact};
    use crate::collide::shape_size;
    use nphase_gjk::{GjkOptions, SimplexCache};
    use nphase_shapes::Shape;
    use rand::{Rng, SeedableRng};

    fn vector(rng: &mut impl Rng, r: f64) -> Vector<f64> {
        Vector::new(
            rng.random_range(-r..r),
            rng.random_range(-r..r),
            rng.random_range(-r..r),
        )
    }

    /// A random polytope of kind `kind`: 0 box, 1 hull of a few points, 2 hull of 64 points on
    /// an ellipsoid, 3 triangle, 4 flat hull (a polygon).
    fn random_shape<T: Real>(rng: &mut impl Rng, kind: usize) -> Shape<T> {
        let lit = |v: Vector<f64>| Point::from(v.map(T::lit));
        match kind {
            0 => Shape::Cuboid(
                Cuboid::new(Vector::from_fn(|_, _| T::lit(rng.random_range(0.1..1.2))))
                    .expect("valid"),
            ),
            1 | 2 => {
                let n = if kind == 1 {
                    rng.random_range(4..16)
                } else {
                    64
                };
                let radii = Vector::from_fn(|_, _| rng.random_range(0.3..1.0));
                let points: Vec<Point<T>> = (0..n)
                    .map(|_| lit(vector(rng, 1.0).normalize().component_mul(&radii)))
                    .collect();
                Shape::convex(&points).expect("valid")
            }
            3 => Shape::Triangle(
                Triangle::new(
                    lit(vector(rng, 1.0)),
                    lit(vector(rng, 1.0)),
                    lit(vector(rng, 1.0)),
                )
                .expect("valid"),
            ),
            _ => {
                let (u, v) = (vector(rng, 1.0).normalize(), vector(rng, 1.0).normalize());
                let points: Vec<Point<T>> = (0..rng.random_range(3..9))
                    .map(|_| {
                        let (x, y): (f64, f64) =
                            (rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0));
                        lit(u * x + v * y)
                    })
                    .collect();
                Shape::convex(&points).expect("valid")
            }
        }
    }

    /// The distance to a face is to the polygon itself: 0 on it, the offset off its plane, and
    /// past an edge or a corner the distance to that edge or corner — for a box, a hull and a
    /// needle triangle (whose long side's line runs on it past its short edge, and whose tip
    /// a point beyond is far from).
    #[test]
    fn distance_to_face_measures_the_polygon() {
        let p = |x: f64, y: f64, z: f64| Point::new(x, y, z);
        let close = |a: f64, b: f64| (a - b).abs() < 1e-12;
        let cuboid = Shape::Cuboid(Cuboid::new(Vector::new(1.0, 2.0, 3.0)).expect("valid"));
        let corners: Vec<Point<f64>> = (0..8)
            .map(|k| {
                p(
                    [-1.0, 1.0][k & 1],
                    [-1.0, 1.0][(k >> 1) & 1],
                    [-1.0, 1.0][k >> 2],
                )
            })
            .collect();
        let hull = Shape::convex(&corners).expect("valid");
        let needle = Shape::Triangle(
            Triangle::new(p(-0.5, 0.0, 0.0), p(0.5, 0.0, 0.0), p(-0.2, 0.0, 1e-9)).expect("valid"),
        );
        let (box_core, hull_core, needle_core) = (cuboid.core().0, hull.core().0, needle.core().0);
        let [cuboid, hull, needle] =
            [&box_core, &hull_core, &needle_core].map(|c| Polytope::of(c).expect("polytope"));
        // The box's +x face (index 0): |y| ≤ 2, |z| ≤ 3 at x = 1.
        assert!(close(cuboid.distance_to_face(0, &p(1.0, 0.5, -1.0)), 0.0));
        assert!(close(cuboid.distance_to_face(0, &p(1.0, 5.0, 7.0)), 5.0));
        assert!(close(cuboid.distance_to_face(0, &p(1.5, 0.0, 3.0)), 0.5));
        // The hull's face with normal +z: the square |x|, |y| ≤ 1 at z = 1.
        let top = (0..hull.face_count())
            .find(|&f| hull.face(f).0.z > 0.5)
            .expect("a top face");
        assert!(close(hull.distance_to_face(top, &p(0.3, -0.2, 1.0)), 0.0));
        assert!(close(hull.distance_to_face(top, &p(4.0, 5.0, 1.0)), 5.0));
        assert!(close(hull.distance_to_face(top, &p(0.0, 0.0, 3.0)), 2.0));
        // The needle: on its long side past the short edge c → a, and far past its tip.
        assert!(needle.distance_to_face(0, &p(0.1, 0.0, 0.0)) < 1e-9);
        assert!(close(needle.distance_to_face(0, &p(-2.5, 0.0, 0.0)), 2.0));
    }

    /// The separating-axis test against GJK + EPA on the same cores, on random poses of every
    /// pairing of kinds: the same signed distance, a normal along which the support gap is that
    /// distance (a true minimiser, whichever of several EPA found), witnesses on the support
    /// planes with `point2 − point1 = dist · normal`. `tol_rel` is docs/accuracy.md's tolerance
    /// relative to the pair's scale.
    fn agrees_with_epa<T: Real>(seed: u64, tol_rel: f64) {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(seed);
        let mut workspace = PairWorkspace::<T>::new();
        let mut penetrating = [[0usize; 5]; 5];
        let mut apart = 0;
        for round in 0..20000 {
            let (ka, kb) = (round % 5, (round / 5) % 5);
            let (sa, sb) = (
                random_shape::<T>(&mut rng, ka),
                random_shape::<T>(&mut rng, kb),
            );
            let angle = if rng.random_bool(0.2) {
                0.0
            } else {
                rng.random_range(0.0..3.1)
            };
            let pos12 = Isometry::new(
                vector(&mut rng, 1.3).map(T::lit),
                (vector(&mut rng, 1.0).normalize() * angle).map(T::lit),
            );
            let (ca, _) = sa.core();
            let (cb, _) = sb.core();
            let (Some(a), Some(b)) = (Polytope::of(&ca), Polytope::of(&cb)) else {
                continue;
            };
            let sizes = [shape_size(&ca, T::zero()), shape_size(&cb, T::zero())];
            let input = SatInput {
                a,
                b,
                pos12: &pos12,
                limit: T::zero(),
                sizes,
                witnesses: Witnesses::Exact,
            };
            let mut cache = SatCache::EMPTY;
            let (sat, ..) = polytope_contact(&input, &mut cache, None, &mut workspace.sat);
            let gjk_input = CoreInput {
                shape1: &ca,
                radius1: T::zero(),
                shape2: &cb,
                radius2: T::zero(),
                pos12,
                max_dist: T::zero(),
                shape_sizes: sizes,
                options: GjkOptions::default(),
            };
            let mut simplex = SimplexCache::EMPTY;
            let reference = convex_contact(
                &gjk_input,
                &mut simplex,
                None,
                &mut workspace.epa,
                &mut workspace.feature,
            );
            let scale = sa
                .local_aabb()
                .half_diagonal()
                .as_f64()
                .max(sb.local_aabb().half_diagonal().as_f64());
            let tol = tol_rel * scale;
            let SatOutcome::Penetrating(s, _) = sat else {
                apart += 1;
                if let Some(c) = reference.contact {
                    assert!(
                        c.dist.as_f64() > -tol,
                        "SAT apart, EPA {c:?}: {sa:?} {sb:?} {pos12:?}"
                    );
                }
                continue;
            };
            penetrating[ka][kb] += 1;
            if let Some(c) = reference
                .contact
                .filter(|c| c.quality == super::super::ContactQuality::Converged)
            {
                assert!(
                    (s.dist.as_f64() - c.dist.as_f64()).abs() <= tol,
                    "depth {} vs EPA {}: {sa:?} {sb:?} {pos12:?}",
                    s.dist,
                    c.dist
                );
            } else {
                assert!(s.dist.as_f64() > -tol, "EPA apart, SAT {s:?}");
            }
            let n = s.normal.into_inner();
            let top_a = ca.local_support_point(&n).coords.dot(&n);
            let bottom_b = cb.support_point(&pos12, &-n).coords.dot(&n);
            assert!(
                ((bottom_b - top_a).as_f64() - s.dist.as_f64()).abs() <= tol,
                "support gap {} along the normal vs {}",
                bottom_b - top_a,
                s.dist
            );
            let mismatch = ((s.point2 - s.point1) - n * s.dist).norm().as_f64();
            assert!(mismatch <= tol, "witness pair off by {mismatch:e}: {s:?}");
            let off_a = (s.point1.coords.dot(&n) - top_a).as_f64().abs();
            let off_b = (s.point2.coords.dot(&n) - bottom_b).as_f64().abs();
            assert!(
                off_a <= tol && off_b <= tol,
                "witnesses off the support planes by {off_a:e}, {off_b:e}: {s:?}"
            );
        }
        for (ka, row) in penetrating.iter().enumerate() {
            for (kb, &count) in row.iter().enumerate() {
                assert!(
                    count > 30,
                    "kinds {ka}–{kb}: only {count} penetrating pairs"
                );
            }
        }
        assert!(apart > 1000, "only {apart} apart");
    }

    #[test]
    fn sat_agrees_with_gjk_and_epa_on_random_polytopes_f64() {
        agrees_with_epa::<f64>(1, 1e-9);
    }

    #[test]
    fn sat_agrees_with_gjk_and_epa_on_random_polytopes_f32() {
        agrees_with_epa::<f32>(2, 1e-4);
    }
}
