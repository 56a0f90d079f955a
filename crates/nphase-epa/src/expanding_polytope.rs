//! The Expanding Polytope Algorithm: penetration depth and normal of two overlapping cores.
//!
//! van den Bergen (2001, 2003): start from GJK's final simplex, a polytope inside `D = A − B`
//! containing the origin; repeatedly take the face closest to the origin, find the support
//! point of `D` along its outward normal and, unless that point lies (within tolerance) on the
//! face's plane, replace every face it sees by a fan from the horizon to it. The closest face's
//! distance is a lower bound on the depth and the support value along its normal an upper
//! bound; their difference is the certified gap reported in [`Penetration::gap`].
//!
//! * **Degenerate starts** (GJK stopped on a touching simplex of 1–3 vertices) are grown to a
//!   tetrahedron with support queries along directions that leave the simplex's span
//!   ([`crate::initial_polytope`]). If `D` itself is flat (a point, segment or planar set), the
//!   shapes touch: depth 0 (plus radii) with a normal perpendicular to `D` — never an arbitrary
//!   axis.
//! * **Convergence** is relative: gap ≤ ε·small + ε_round·size with ε =
//!   [`Tolerances::epa_relative_gap`] (or `epa_curved_gap` for curved shapes, see
//!   [`EpaOptions::curved`]), `small` the small scale ([`GjkInput::small_scale`], at most the
//!   size), `ε_round` = [`Tolerances::rounding`] and `size` the largest support norm seen: a
//!   small shape on a large one is resolved to the small shape's precision, however deep it
//!   is sunk (docs/accuracy.md's small-on-large tolerance does not grow with the depth; a
//!   tolerance of ε·(|depth| + small) left a ball 431 deep in a large cylinder 1.7e-8 off in
//!   f64).
//! * **Local refinement**: after half the budget without a certificate EPA refines the face
//!   along the best normal (a valley of minima, or a small shape on a large curved one whose
//!   faces are all about as close). Its answer carries the honest global gap; it is
//!   [`EpaStatus::Converged`] when that gap is within docs/accuracy.md's promise
//!   ([`Tolerances::promise`]), else [`EpaStatus::IterationLimit`].
//! * **Witnesses** come from the face containing the origin's projection (a coplanar neighbour,
//!   certified by a support query, when the closest face does not), or from the closest point on
//!   a slightly reflex edge once a support query certifies its direction; when it does not (a
//!   sliver face over a large cylinder), from the projection's own affine weights. From a
//!   polytope restored at a new pose ([`penetration_warm`]), whose edges can be far from
//!   convex, an answer whose witness gap exceeds the exit's tolerance is not converged.
//! * **Visibility**: a face is replaced when the new point lies more than ε·size above its
//!   plane, so rounding cannot carve a non-convex dent.
//! * Every failure (iteration cap, a horizon that is not a simple loop, an empty heap, a
//!   support point that coincides with a vertex of the face it should refine up to rounding,
//!   or is that vertex while the face's own gap exceeds the promise and the global bracket)
//!   returns the best estimate so far: the normal of the face with the smallest upper bound,
//!   its depth kept within the certified bracket (the closest faces' distance, that upper
//!   bound) when the polytope encloses the origin. At the cap or that rounding floor, such a
//!   bracket within docs/accuracy.md's promise is [`EpaStatus::Converged`], as at the local
//!   refinement's exit.
//!
//! The origin may lie a rounding error *outside* the start polytope (GJK's touching exit); the
//! face distances are signed, so the result is then a depth of about −|v| (a tiny separation).
//!
//! [`Tolerances::epa_relative_gap`]: nphase_math::Tolerances::epa_relative_gap
//! [`Tolerances::rounding`]: nphase_math::Tolerances::rounding
//! [`Tolerances::promise`]: nphase_math::Tolerances::promise

use nphase_gjk::{GjkInput, MinkowskiDifference, Simplex, SimplexVertex};
use nphase_math::{Point, Real, UnitVector, Vector};
use nphase_shapes::{SupportMap, VertexId};
use num_traits::Float;

use crate::initial_polytope::{Start, initial_polytope};
use crate::polytope::Polytope;
use crate::warm_polytope::WarmPolytope;

/// Computes the penetration of two shapes whose cores overlap, from GJK's final simplex.
///
/// `pair` is the GJK input of the query (cores, radii, `pos12`; `max_dist` and GJK options are
/// ignored); `simplex` is the [`Simplex`] of [`nphase_gjk::GjkStatus::Intersecting`]. The
/// workspace is reused across calls so that a query allocates nothing in steady state.
pub fn penetration<A, B, T>(
    pair: &GjkInput<'_, A, B, T>,
    simplex: &Simplex<T>,
    options: &EpaOptions,
    workspace: &mut EpaWorkspace<T>,
) -> EpaOutput<T>
where
    A: SupportMap<T> + ?Sized,
    B: SupportMap<T> + ?Sized,
    T: Real,
{
    let md = MinkowskiDifference::new(pair.shape1, pair.shape2, &pair.pos12);
    let radii = (pair.radius1, pair.radius2);
    let mut stats = EpaStats::default();
    workspace.fresh = false;
    workspace.restored.clear();
    let mut size = simplex
        .vertices()
        .iter()
        .fold(T::zero(), |m, v| Float::max(m, v.w.norm()));
    let toward_b = pair.pos12.translation.vector;

    let tetrahedron = match initial_polytope(&md, simplex, &toward_b, &mut stats.support_calls) {
        Start::Tetrahedron(t) => t,
        Start::Flat { vertices, normal } => {
            stats.exit = EpaExit::FlatMinkowskiDifference;
            let penetration =
                flat_penetration(&md, &vertices, normal, radii, &mut stats.support_calls);
            return EpaOutput {
                status: EpaStatus::Converged(penetration),
                stats,
            };
        }
    };
    for v in &tetrahedron {
        size = Float::max(size, v.w.norm());
    }
    workspace.polytope.reset_tetrahedron(tetrahedron);
    workspace.fresh = true;
    expand_to_certificate(
        pair,
        &md,
        &mut workspace.polytope,
        (size, false),
        options,
        stats,
    )
}

/// [`penetration`] started from the polytope a pair kept from its last query
/// ([`WarmPolytope`]), its points re-evaluated at this pose, where they still lie in `D` (why
/// that stays a certificate is derived in `warm_polytope.rs`). `None` — run [`penetration`]
/// from GJK's simplex instead — when that polytope no longer encloses the origin by a margin
/// (the cores may have come apart, or a face turned over), or when EPA from it does not
/// converge; its answer otherwise carries the same certificate as a cold query's.
pub fn penetration_warm<A, B, T>(
    pair: &GjkInput<'_, A, B, T>,
    warm: &WarmPolytope<T>,
    options: &EpaOptions,
    workspace: &mut EpaWorkspace<T>,
) -> Option<EpaOutput<T>>
where
    A: SupportMap<T> + ?Sized,
    B: SupportMap<T> + ?Sized,
    T: Real,
{
    let md = MinkowskiDifference::new(pair.shape1, pair.shape2, &pair.pos12);
    workspace.fresh = false;
    let size = warm.restore(&md, &mut workspace.polytope, &mut workspace.restored)?;
    workspace.fresh = true;
    let output = expand_to_certificate(
        pair,
        &md,
        &mut workspace.polytope,
        (size, true),
        options,
        EpaStats::default(),
    );
    matches!(output.status, EpaStatus::Converged(_)).then_some(output)
}

/// EPA's loop (see the module doc) on a polytope inside `D` that encloses the origin; `size` is
/// the largest support norm seen so far, `warm` whether the polytope was restored at a new pose
/// ([`penetration_warm`]) rather than grown by EPA.
fn expand_to_certificate<A, B, T>(
    pair: &GjkInput<'_, A, B, T>,
    md: &MinkowskiDifference<'_, A, B, T>,
    polytope: &mut Polytope<T>,
    (mut size, warm): (T, bool),
    options: &EpaOptions,
    mut stats: EpaStats,
) -> EpaOutput<T>
where
    A: SupportMap<T> + ?Sized,
    B: SupportMap<T> + ?Sized,
    T: Real,
{
    let radii = (pair.radius1, pair.radius2);
    let rel = if options.curved {
        T::TOLERANCES.epa_curved_gap
    } else {
        T::TOLERANCES.epa_relative_gap
    };
    let mut best: Option<Candidate<T>> = None;
    let mut lower = T::neg_infinity();
    // Whether the polytope encloses the origin: its closest face at the start (the first one
    // popped) is on the origin's far side. Only then is `lower` a certified lower bound on the
    // depth (the stalled-GJK path runs EPA on cores that may be apart).
    let mut enclosed = None;
    let (mut hint_a, mut hint_b) = (VertexId::NONE, VertexId::NONE);
    // After half the budget without a certificate, EPA is refining a valley of minima (e.g.
    // identical coaxial cones, or a small shape on a large cylinder): every face along it has
    // about the same distance, and the global gap closes only as 1/iterations². The second half
    // then refines locally, always the face that the ray along the best normal so far hits,
    // which closes that face's own gap quickly; the answer carries the honest global gap.
    let global_phase = options.max_iterations / 2;
    let failure = loop {
        if stats.iterations >= options.max_iterations {
            break EpaExit::IterationCap;
        }
        let local = stats.iterations >= global_phase && best.is_some();
        let next = match &best {
            Some(b) if local => polytope.face_toward(&b.normal),
            _ => polytope.pop_closest(),
        };
        let Some(face_index) = next else {
            break EpaExit::EmptyPolytope;
        };
        stats.iterations += 1;
        let face = polytope.faces[face_index as usize];
        let w = md.support(&face.normal, hint_a, hint_b);
        stats.support_calls += 1;
        hint_a = w.id_a;
        hint_b = w.id_b;
        size = Float::max(size, w.w.norm());
        if !local {
            lower = Float::max(lower, face.distance);
            enclosed.get_or_insert(face.distance >= T::zero());
        }
        let upper = w.w.dot(&face.normal);
        let candidate = Candidate {
            vertices: face.v.map(|i| polytope.vertices[i as usize]),
            normal: face.normal,
            upper,
            at_projection: false,
        };
        if best.as_ref().is_none_or(|b| upper < b.upper) {
            best = Some(candidate);
        }
        let small = Float::min(pair.small_scale(), size);
        let tolerance = T::TOLERANCES.length(rel, small, size);
        let walk = Float::max(
            tolerance,
            T::TOLERANCES.length(T::TOLERANCES.accuracy, small, size),
        );
        let on_face = candidate.vertices.iter().any(|v| v.same_vertex_pair(&w));
        if local && (upper - face.distance <= tolerance || on_face) {
            stats.exit = EpaExit::LocalRefinement;
            let (witness, _) = witness_face(md, polytope, face_index, candidate, walk, &mut stats);
            let gap = Float::max(witness.upper - Float::min(lower, face.distance), T::zero());
            let penetration = witness.penetration(radii, gap);
            // The honest global gap may still meet docs/accuracy.md's promise (a small shape
            // against a large curved one: its faces are all about as close, so the closest
            // face's own gap closes slowly, but the bracket is narrow): then it is converged.
            let status = if gap <= promise(pair, size) {
                EpaStatus::Converged(penetration)
            } else {
                EpaStatus::IterationLimit(penetration)
            };
            return EpaOutput { status, stats };
        }
        // The support point coincides with a face vertex up to rounding, yet the face's plane
        // is off it: no expansion refines the face (`EpaExit::RoundingFloor`). Where it is the
        // vertex itself, the face is a sliver whose normal rounding tilted: its own gap may
        // be far beyond the promise while the global bracket is narrower.
        let dent = T::TOLERANCES.epa_relative_gap * size;
        let floored = if on_face {
            let own = upper - face.distance;
            let global = best.as_ref().map_or(own, |b| b.upper - lower);
            enclosed == Some(true)
                && own > Float::max(T::lit(10.0) * walk, promise(pair, size))
                && global < own
        } else {
            upper - face.distance > tolerance
                && candidate
                    .vertices
                    .iter()
                    .any(|v| (v.w - w.w).norm_squared() <= dent * dent)
        };
        if floored {
            break EpaExit::RoundingFloor;
        }
        if upper - face.distance <= tolerance || on_face {
            stats.exit = if on_face {
                EpaExit::RepeatedVertex
            } else {
                EpaExit::Converged
            };
            let (witness, gap) =
                witness_face(md, polytope, face_index, candidate, walk, &mut stats);
            let penetration = witness.penetration(radii, gap);
            // The witness may stand on another normal than the face's, with its own gap. On a
            // polytope EPA grew, that is a slightly reflex edge (gaps of a few 1e-9 relative in
            // f64, within what the tests hold answers to). A polytope restored at a new pose
            // (`warm`) can be far from convex: the origin's projection falls off the closest
            // face by far, and the edge it falls to is a worse direction (a box's corner at a
            // cylinder's rim: 0.17 mm on a 1 mm depth, 33° off). Its answer is converged only
            // within ten walks or docs/accuracy.md's promise; otherwise an estimate, and the
            // warm start gives way to a cold query.
            let promised = Float::max(T::lit(10.0) * walk, promise(pair, size));
            let status = if !warm || gap <= promised {
                EpaStatus::Converged(penetration)
            } else {
                EpaStatus::IterationLimit(penetration)
            };
            return EpaOutput { status, stats };
        }
        // Visibility stays at the strict tolerance even for curved shapes: a wider epsilon
        // leaves dents in the polytope that slow EPA down instead of speeding it up.
        if polytope.expand(face_index, w, dent).is_err() {
            break EpaExit::BadHorizon;
        }
        stats.max_faces = stats.max_faces.max(polytope.faces.len() as u32);
    };

    stats.exit = failure;
    // On a polytope enclosing the origin the true core depth lies in `[lower, b.upper]`:
    // `lower` from the global phase's closest faces, `b.upper` the support value along b's
    // normal. b's own plane distance, where its depth comes from, is neither bound: b may be an
    // earlier face than the closest ones, or a sliver whose plane rounding tilted (f32, two
    // cones: 0.2 mm below `lower` on a 1.6 mm depth). The estimate's depth is therefore kept
    // inside that bracket, and its gap is the bracket's width (an inverted bracket, `lower`
    // above `b.upper` by rounding, counts as wide as it is inverted).
    // Where the polytope does not enclose the origin, `lower` is no certificate and the depth is
    // not clamped; `b.upper` still bounds the depth wherever the cores overlap, so the gap
    // reaches from the estimate's depth to it, and over `lower` below it (f32, a ball 0.75 deep
    // in a cylinder 17 tall: b's plane 3.4e-5 below `lower`, a gap of `b.upper − lower`,
    // 1.1e-6, left the bracket `depth ± gap` 3.3e-5 short of the truth).
    let enclosed = enclosed == Some(true);
    let estimate = match best {
        Some(b) => {
            let (r1, r2) = radii;
            let mut p = b.penetration(radii, T::zero());
            if enclosed {
                p.gap = Float::abs(b.upper - lower);
                let (low, high) = (Float::min(lower, b.upper), b.upper);
                p.clamp_depth(low + r1 + r2, high + r1 + r2);
            } else {
                let core = p.depth - r1 - r2;
                p.gap = Float::max(Float::abs(b.upper - core), b.upper - lower);
            }
            p
        }
        None => {
            // No face was ever examined (cap of zero iterations): the tetrahedron's own closest
            // face is the only estimate.
            let tetra = polytope.vertices.clone();
            let [p0, p1, p2] = [tetra[0], tetra[1], tetra[2]];
            let normal = nphase_math::normalize_robust(&(p1.w - p0.w).cross(&(p2.w - p0.w)))
                .map_or_else(Vector::y, |n| n.into_inner());
            Candidate {
                vertices: [p0, p1, p2],
                normal,
                upper: p0.w.dot(&normal),
                at_projection: false,
            }
            .penetration(radii, T::infinity())
        }
    };
    // As at the local refinement's exit, a certified bracket within docs/accuracy.md's promise
    // is a converged answer (f32 on curved shapes, whose sliver faces rounding keeps from
    // closing the gap to the tighter tolerance of the loop).
    let promised = enclosed && estimate.gap <= promise(pair, size);
    let status = match failure {
        EpaExit::IterationCap | EpaExit::RoundingFloor if promised => {
            EpaStatus::Converged(estimate)
        }
        EpaExit::IterationCap | EpaExit::RoundingFloor => EpaStatus::IterationLimit(estimate),
        _ => EpaStatus::Degenerate(estimate),
    };
    EpaOutput { status, stats }
}

/// docs/accuracy.md's promise for the pair ([`Tolerances::promise`]), its shapes' sizes taken at
/// most `size` (the largest support norm seen: the scale of rounding).
///
/// [`Tolerances::promise`]: nphase_math::Tolerances::promise
fn promise<A, B, T>(pair: &GjkInput<'_, A, B, T>, size: T) -> T
where
    A: SupportMap<T> + ?Sized,
    B: SupportMap<T> + ?Sized,
    T: Real,
{
    let small = Float::min(pair.small_scale(), size);
    let large = Float::min(pair.large_scale(), size);
    T::TOLERANCES.promise(small, large, size)
}

/// Limits of an EPA query.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EpaOptions {
    /// The iteration cap (default 512; the second half refines locally, see the module doc).
    pub max_iterations: u32,
    /// Whether a shape has a curved support function (cylinder, cone): the convergence
    /// tolerance is then [`Tolerances::epa_curved_gap`](nphase_math::Tolerances::epa_curved_gap)
    /// instead of `epa_relative_gap`.
    pub curved: bool,
}

impl Default for EpaOptions {
    fn default() -> Self {
        EpaOptions {
            max_iterations: 512,
            curved: false,
        }
    }
}

/// Buffers reused across EPA queries (vertices, faces, the face heap, horizon scratch).
#[derive(Debug, Default)]
pub struct EpaWorkspace<T: Real> {
    pub(crate) polytope: Polytope<T>,
    /// Whether `polytope` is the last query's (a flat exit builds none).
    pub(crate) fresh: bool,
    /// Index maps of [`Self::keep`].
    pub(crate) remap: Vec<u32>,
    /// B's points (B's frame) of the vertices a warm query restored: the first vertices of
    /// `polytope`; empty after a cold query.
    pub(crate) restored: Vec<Point<T>>,
}

impl<T: Real> EpaWorkspace<T> {
    /// An empty workspace; it grows to the largest polytope seen and keeps that capacity.
    pub fn new() -> Self {
        EpaWorkspace::default()
    }
}

/// The result of [`penetration`].
#[derive(Clone, Debug, PartialEq)]
pub struct EpaOutput<T: Real> {
    /// The penetration, with how much to trust it.
    pub status: EpaStatus<T>,
    /// How it was found.
    pub stats: EpaStats,
}

/// The outcome of EPA; every variant carries a penetration estimate.
#[derive(Clone, Debug, PartialEq)]
pub enum EpaStatus<T: Real> {
    /// Converged to the tolerance (or `D` was flat: touching, depth 0 plus radii; or the
    /// iteration cap was reached with a certified bracket within docs/accuracy.md's promise,
    /// [`EpaExit::IterationCap`] in the statistics).
    Converged(Penetration<T>),
    /// The iteration cap was reached; the best estimate so far.
    IterationLimit(Penetration<T>),
    /// The polytope could not be expanded (rounding on a degenerate geometry); the best
    /// estimate so far.
    Degenerate(Penetration<T>),
}

// What every EPA query returns by value, pinned: a penetration (depth, normal, two points, gap)
// and the statistics.
const _: () = assert!(size_of::<EpaOutput<f32>>() <= 64);
const _: () = assert!(size_of::<EpaOutput<f64>>() <= 112);

impl<T: Real> EpaStatus<T> {
    /// The penetration, whatever the status.
    pub fn penetration(&self) -> &Penetration<T> {
        match self {
            EpaStatus::Converged(p) | EpaStatus::IterationLimit(p) | EpaStatus::Degenerate(p) => p,
        }
    }
}

/// How deep two shapes interpenetrate, in A's frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Penetration<T: Real> {
    /// Penetration depth of the shapes (core depth plus the radii); moving B by
    /// `depth · normal` separates them. About zero (possibly a rounding error below) when the
    /// shapes touch.
    pub depth: T,
    /// Unit normal from A toward B.
    pub normal: UnitVector<T>,
    /// Witness point on A's surface.
    pub point1: Point<T>,
    /// Witness point on B's surface; `point2 − point1 ≈ −depth · normal`.
    pub point2: Point<T>,
    /// Certified gap: the true depth lies in `[depth − gap, depth + gap]` (up to rounding);
    /// the support value of `D` along `normal` is at most `depth + gap`.
    pub gap: T,
}

impl<T: Real> Penetration<T> {
    /// Moves the depth into `[low, high]` (when it lies outside), the witnesses half the
    /// change each along the normal, so that the component of `point2 − point1` along the
    /// normal stays `−depth` (a tangential mismatch the witnesses had stays).
    fn clamp_depth(&mut self, low: T, high: T) {
        let depth = Float::min(Float::max(self.depth, low), high);
        let half = self.normal.into_inner() * ((depth - self.depth) * T::lit(0.5));
        self.point1 += half;
        self.point2 -= half;
        self.depth = depth;
    }
}

/// Work done by one EPA query.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EpaStats {
    /// Faces examined (one support call each).
    pub iterations: u32,
    /// Support calls on the Minkowski difference, including those growing the start simplex.
    pub support_calls: u32,
    /// The largest number of faces the polytope held.
    pub max_faces: u32,
    /// Why EPA stopped.
    pub exit: EpaExit,
}

/// Why EPA stopped.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum EpaExit {
    /// The gap closed.
    #[default]
    Converged,
    /// The support point along the closest face's normal is one of that face's vertices.
    RepeatedVertex,
    /// `D` is flat (the shapes touch); no polytope was needed.
    FlatMinkowskiDifference,
    /// The iteration cap.
    IterationCap,
    /// No global certificate within half the budget (a valley of minima); the face along the
    /// best normal was refined until its own gap closed.
    LocalRefinement,
    /// The support point along the closest face's normal lies within the visibility
    /// tolerance of one of the face's vertices but above its plane by more than the
    /// convergence tolerance: the face's plane, through points of D whose rounding exceeds
    /// D's feature there, is off its own vertex, and fanning to the point would raise faces
    /// through two coincident points, whose normals are rounding (found by fuzzing, f32: a
    /// 6e-4 segment deep in a cone of size 1e4, D's two apex points 2 ulps apart; the polytope
    /// turned inside out and a depth of 1 038 came out −1 448). Likewise where the support
    /// point *is* one of the face's vertices while the face's own gap exceeds docs/accuracy.md's
    /// promise and the global bracket is narrower: a sliver whose normal rounding tilted (f32,
    /// a small cone deep in a tall cone of size 450, the large cone's apex the repeated vertex:
    /// a face gap of 8e-3, which the exit for a repeated vertex had called converged, where the
    /// global bracket was 2.6e-4). The answer is the bracket's estimate, as at the iteration
    /// cap.
    RoundingFloor,
    /// A horizon was not a simple loop.
    BadHorizon,
    /// No face was left in the heap.
    EmptyPolytope,
}

/// The face whose witnesses describe the converged face `face_index` (whose support value is
/// `candidate.upper`), with its gap. See [`Polytope::face_containing_projection`]: a coplanar
/// neighbour containing the projection, or the closest point on a slightly reflex edge.
fn witness_face<A, B, T>(
    md: &MinkowskiDifference<'_, A, B, T>,
    polytope: &Polytope<T>,
    face_index: u32,
    candidate: Candidate<T>,
    walk: T,
    stats: &mut EpaStats,
) -> (Candidate<T>, T)
where
    A: SupportMap<T> + ?Sized,
    B: SupportMap<T> + ?Sized,
    T: Real,
{
    let face = polytope.faces[face_index as usize];
    let mut witness = candidate;
    let mut gap = Float::max(candidate.upper - face.distance, T::zero());
    let mut edge_mode = face.distance > T::zero();
    match polytope.face_containing_projection(face_index, walk) {
        Some(containing) if containing != face_index => {
            // Certify the neighbour's own normal with one more support query.
            let neighbour = polytope.faces[containing as usize];
            let w = md.support(&neighbour.normal, VertexId::NONE, VertexId::NONE);
            stats.support_calls += 1;
            let upper = w.w.dot(&neighbour.normal);
            // Only a neighbour whose own gap is within docs/accuracy.md's accuracy (ten times the
            // walk's) stands in: on a polytope spanning
            // many orders of magnitude the walk can reach a face whose normal is far from the
            // minimiser, with a huge gap along it.
            if upper - neighbour.distance <= T::lit(10.0) * walk {
                witness = Candidate {
                    vertices: neighbour.v.map(|i| polytope.vertices[i as usize]),
                    normal: neighbour.normal,
                    upper,
                    at_projection: false,
                };
                gap = Float::max(upper - neighbour.distance, T::zero());
                edge_mode = false;
            }
        }
        Some(_) => edge_mode = false,
        None => {}
    }
    if edge_mode {
        // No converged face contains the projection: it sits on a slightly reflex edge between
        // two nearly coplanar faces, and the closest point of the polytope is on that edge.
        // Its direction is the normal (between the two faces' normals), so the witness pair
        // and the depth agree — once one more support query certifies it, as for a neighbour:
        // its support value within ten walks of the face's distance (the depth's lower bound),
        // so that the depth along it is certified too. Where the faces are slivers far longer
        // than they are wide (a small shape on a large cylinder), the closest point of the
        // face can lie far off the projection, and its direction far from any minimiser; the
        // point itself may be on D's boundary and still no minimiser's (f32, a sliver along a
        // thin box's edge: the edge's diagonal 1.4e-3 deeper than the face, fuzzed). Then the
        // face's certified normal stays, with the witnesses of the projection itself (affine
        // weights, slightly outside the sliver: its support points are close together across
        // it, so they stay on the surfaces to second order).
        let ws = witness.vertices.map(|v| v.w);
        let edge_point = nphase_math::closest_point_to_origin(&ws).point;
        if let Some(n) = nphase_math::normalize_robust(&edge_point) {
            let n = n.into_inner();
            let w = md.support(&n, VertexId::NONE, VertexId::NONE);
            stats.support_calls += 1;
            let upper = w.w.dot(&n);
            if upper - face.distance <= T::lit(10.0) * walk {
                witness.normal = n;
                witness.upper = upper;
                gap = Float::max(gap, upper - face.distance);
            } else {
                witness.at_projection = true;
            }
        }
    }
    (witness, gap)
}

/// A face examined by EPA with the upper bound its normal gives.
#[derive(Clone, Copy, Debug)]
struct Candidate<T: Real> {
    vertices: [SimplexVertex<T>; 3],
    normal: Vector<T>,
    upper: T,
    /// Witnesses from the affine weights of the origin's projection on the face's plane,
    /// rather than from its closest point (see [`Candidate::penetration`]).
    at_projection: bool,
}

impl<T: Real> Candidate<T> {
    /// The penetration this face describes: depth from the face's closest point to the origin
    /// along its normal, witnesses from the same barycentric weights on both shapes.
    ///
    /// Callers pass a face whose triangle contains the origin's projection (see
    /// [`Polytope::face_containing_projection`]); otherwise the closest point is clamped to the
    /// triangle and the witnesses describe that point — unless `at_projection` asks for the
    /// projection's own affine weights (some negative), which keep the witness pair at
    /// `depth · normal`.
    fn penetration(&self, (radius1, radius2): (T, T), gap: T) -> Penetration<T> {
        let ws = self.vertices.map(|v| v.w);
        let (core_depth, weights) = match self
            .at_projection
            .then(|| affine_weights(&ws, &self.normal))
        {
            // The projection's depth is its plane's distance, read off the vertices: the
            // affine combination itself cancels (weights far outside [0, 1] on a sliver: 8.5e-4
            // off on a depth of 26 in f32, a 0.8 cylinder in a cone of size 400).
            Some(Some(l)) => (plane_distance(&ws, &self.normal), l),
            _ => {
                let closest = nphase_math::closest_point_to_origin(&ws);
                let l = closest.weights;
                (closest.point.dot(&self.normal), [l[0], l[1], l[2]])
            }
        };
        let mut a = Vector::zeros();
        let mut b = Vector::zeros();
        for (v, l) in self.vertices.iter().zip(weights) {
            a += v.a.coords * l;
            b += v.b.coords * l;
        }
        let normal = self.normal;
        Penetration {
            depth: core_depth + radius1 + radius2,
            normal: UnitVector::new_unchecked(normal),
            point1: Point::from(a + normal * radius1),
            point2: Point::from(b - normal * radius2),
            gap,
        }
    }
}

/// The affine weights of the origin's projection onto the plane of the triangle `ws` with unit
/// normal `normal` (signed areas of the sub-triangles about the normal over the whole); `None`
/// for a degenerate triangle.
fn affine_weights<T: Real>(ws: &[Vector<T>; 3], normal: &Vector<T>) -> Option<[T; 3]> {
    let p = normal * plane_distance(ws, normal);
    let area = |i: usize, j: usize| (ws[i] - p).cross(&(ws[j] - p)).dot(normal);
    let weights = [area(1, 2), area(2, 0), area(0, 1)];
    let total = weights[0] + weights[1] + weights[2];
    let whole = (ws[1] - ws[0]).cross(&(ws[2] - ws[0])).norm();
    (total > T::TOLERANCES.degenerate * whole && Float::is_finite(total))
        .then(|| weights.map(|w| w / total))
}

/// The signed distance of the origin below the plane of the triangle `ws` along its unit
/// `normal`: the mean of the vertices' distances along it (each free of cancellation).
fn plane_distance<T: Real>(ws: &[Vector<T>; 3], normal: &Vector<T>) -> T {
    (normal.dot(&ws[0]) + normal.dot(&ws[1]) + normal.dot(&ws[2])) / T::lit(3.0)
}

/// The penetration of shapes whose Minkowski difference is flat (lies in a plane, on a line or
/// at a point) and contains the origin: they touch. `vertices` span the flat set and `normal` is
/// perpendicular to it (oriented from A toward B).
fn flat_penetration<A, B, T>(
    md: &MinkowskiDifference<'_, A, B, T>,
    vertices: &[SimplexVertex<T>],
    normal: UnitVector<T>,
    (radius1, radius2): (T, T),
    support_calls: &mut u32,
) -> Penetration<T>
where
    A: SupportMap<T> + ?Sized,
    B: SupportMap<T> + ?Sized,
    T: Real,
{
    let ws: arrayvec::ArrayVec<Vector<T>, 3> = vertices.iter().map(|v| v.w).collect();
    let projection = nphase_math::closest_point_to_origin(&ws);
    let mut a = Vector::zeros();
    let mut b = Vector::zeros();
    for (v, l) in vertices.iter().zip(projection.weights) {
        a += v.a.coords * l;
        b += v.b.coords * l;
    }
    // The support value along the normal is the signed core depth: ~0 for a flat D through the
    // origin, minus the separation when D lies off it. For a planar D both sides are candidate
    // normals; the smaller support value is the answer (the given side wins ties).
    let along = md.support(&normal, VertexId::NONE, VertexId::NONE);
    let against = md.support(&-normal, VertexId::NONE, VertexId::NONE);
    *support_calls += 2;
    let (normal, core_depth) = if -against.w.dot(&normal) < along.w.dot(&normal) {
        (-normal, -against.w.dot(&normal))
    } else {
        (normal, along.w.dot(&normal))
    };
    let n = normal.into_inner();
    Penetration {
        depth: core_depth + radius1 + radius2,
        normal,
        point1: Point::from(a + n * radius1),
        point2: Point::from(b - n * radius2),
        gap: Float::abs(core_depth - projection.point.dot(&n)),
    }
}
