//! GJK: distance, closest points and the overlap decision for two convex shapes.
//!
//! Gilbert, Johnson and Keerthi (1988) in the form of van den Bergen (2003): iterate
//! `w = s_D(−v)`, add `w` to the simplex, replace `v` by the simplex's closest point to the
//! origin (signed volumes, Montanari et al. 2017, from nphase-math) and reduce the simplex to
//! that point's support set. `D = A − B` is the Minkowski difference in A's frame.
//!
//! # Cores and radii
//! The query runs on the *cores* of the shapes (ball → point, capsule → segment, rounded →
//! inner) and adds the radii back, so rounded shapes are exact: the signed distance of the
//! shapes is the core distance minus `radius1 + radius2`, negative when the rounded parts
//! overlap while the cores are apart.
//!
//! # Termination (every exit is reported in [`GjkStats::exit`])
//! * **Duality gap**: each support point `w` found along a direction `u` gives the certified
//!   lower bound `w·u/|u|` on the core distance; `|v|` is an upper bound. The query stops when
//!   `|v| − lower ≤ ε_rel·small + ε_round·size` ([`Tolerances::length`]: `ε_rel` =
//!   [`Tolerances::gjk_relative_gap`], `small` = the small scale, the smaller shape's size from
//!   [`GjkInput::shape_sizes`] (at most `|v| + size`), `ε_round` = [`Tolerances::rounding`],
//!   `size` = the largest `|w|` seen, the scale of rounding errors), so a 0.1 m pair and a 1 km
//!   pair behave the same and a pebble on a boulder is resolved to the pebble's precision —
//!   and `v`'s direction is settled as well: it agrees with the axis of the best bound, or the
//!   support along it closes the gap to [`Tolerances::accuracy`] (a bound found along an
//!   earlier axis certifies the distance, not the normal; see `State::direction_settled`).
//! * **Repeated vertex**: the new support's vertex pair is already in the simplex; then `v` is
//!   optimal (for polytopes exactly).
//! * **No progress**: `|v|` failed to decrease (rounding); the previous simplex is kept.
//! * A repeated vertex or no progress with the gap still open, or with `v`'s direction not
//!   settled, is [`GjkStatus::Stalled`]: it happens on nearly parallel features a tiny distance
//!   apart, where the support along a slightly tilted `v` dips to another vertex; its simplex is
//!   handed over for EPA ([`closest_points_with_simplex`]).
//! * **Iteration cap**: [`GjkStatus::IterationLimit`] with the best estimate — never reported as
//!   "not touching".
//! * **Overlap**: the simplex encloses the origin, or `|v|` falls below
//!   [`Tolerances::gjk_touch`] of the small scale (above the rounding floor: the cores touch;
//!   below that the direction of `v` is rounding noise): [`GjkStatus::Intersecting`]; the
//!   simplex is handed over for EPA ([`closest_points_with_simplex`]).
//! * **Max distance**: a lower bound above `max_dist` ([`GjkStatus::BeyondMaxDist`]).
//!
//! # Normals of near-touching faces
//! When the final simplex is a triangle, the closest point lies on a face of `D` and the
//! triangle's own normal (a cross product of edges of size ~`size`) is accurate to ~ε, while
//! `v/|v|` is accurate only to ~ε·size/|v|; the better of the two is used. For a segment the
//! component of `v` along it (pure rounding) is removed. The same refined direction is the
//! search direction of every plain iteration, so the lower bounds and the repeated-vertex test
//! are as accurate as the reported normal.
//!
//! [`Tolerances::gjk_relative_gap`]: nphase_math::Tolerances::gjk_relative_gap
//! [`Tolerances::length`]: nphase_math::Tolerances::length
//! [`Tolerances::rounding`]: nphase_math::Tolerances::rounding
//! [`Tolerances::accuracy`]: nphase_math::Tolerances::accuracy
//! [`Tolerances::gjk_touch`]: nphase_math::Tolerances::gjk_touch

use nphase_math::{Isometry, Point, Real, UnitVector, Vector};
use nphase_shapes::SupportMap;
use num_traits::Float;

use crate::nesterov::Momentum;
use crate::{MinkowskiDifference, Simplex, SimplexCache};

/// Computes the closest points (or the overlap simplex) of two shapes; see the module doc.
///
/// `cache` warm-starts the query and is updated for the next one (use
/// [`SimplexCache::EMPTY`] for a cold start). Warm and cold starts give the same answer within
/// the tolerance.
///
/// ```
/// use nphase_gjk::{closest_points, GjkInput, GjkStatus, SimplexCache};
/// use nphase_math::{Isometry, Vector};
/// use nphase_shapes::Cuboid;
///
/// let cube = Cuboid::new(Vector::<f64>::new(0.5, 0.5, 0.5)).unwrap();
/// let pos12 = Isometry::translation(3.0, 0.0, 0.0);
/// let out = closest_points(&GjkInput::new(&cube, &cube, pos12), &mut SimplexCache::EMPTY);
/// match out.status {
///     GjkStatus::Separated(c) => {
///         assert!((c.distance - 2.0).abs() < 1e-12);
///         assert!((c.normal.x - 1.0).abs() < 1e-12);
///     }
///     other => panic!("{other:?}"),
/// }
/// ```
pub fn closest_points<A, B, T>(
    input: &GjkInput<'_, A, B, T>,
    cache: &mut SimplexCache<T>,
) -> GjkOutput<T>
where
    A: SupportMap<T> + ?Sized,
    B: SupportMap<T> + ?Sized,
    T: Real,
{
    run(input, cache, None, None)
}

/// [`closest_points`], also handing over the final simplex: when the status is
/// [`GjkStatus::Intersecting`] or [`GjkStatus::Stalled`], `simplex` holds it on return (1 to 4
/// vertices, enclosing or touching the origin for `Intersecting`) — EPA's start. Otherwise
/// `simplex` is left as it was.
///
/// The simplex (424 bytes in f64, 232 in f32) stays in the caller's place rather than in the
/// returned status, so that every query returns a small value ([`GjkOutput`]: 120 bytes in
/// f64, 64 in f32) whether or not EPA follows.
pub fn closest_points_with_simplex<A, B, T>(
    input: &GjkInput<'_, A, B, T>,
    cache: &mut SimplexCache<T>,
    simplex: &mut Simplex<T>,
) -> GjkOutput<T>
where
    A: SupportMap<T> + ?Sized,
    B: SupportMap<T> + ?Sized,
    T: Real,
{
    run(input, cache, None, Some(simplex))
}

/// Whether two shapes touch or overlap (signed distance ≤ 0, rounded parts included).
///
/// Stops at the first separating axis or as soon as the simplex proves overlap, so it is
/// cheaper than [`closest_points`]. Updates `cache` like it.
pub fn intersection_test<A, B, T>(
    input: &GjkInput<'_, A, B, T>,
    cache: &mut SimplexCache<T>,
) -> IntersectionOutput
where
    A: SupportMap<T> + ?Sized,
    B: SupportMap<T> + ?Sized,
    T: Real,
{
    let mut probe = *input;
    probe.max_dist = T::zero();
    let out = run(&probe, cache, Some(input.radius1 + input.radius2), None);
    let intersecting = match &out.status {
        // `|v| ≤ r1 + r2` for a point `v` of the cores' Minkowski difference proves the shapes
        // overlap or touch, whatever the distance estimate built after it says: with `|v|`
        // equal to the radii up to rounding (a tiny capsule at the middle of a huge one, f32:
        // `v` the huge core's end on the first iteration) that estimate came out a rounding
        // error above zero.
        _ if out.stats.exit == GjkExit::OverlapProven => true,
        GjkStatus::Intersecting => true,
        GjkStatus::BeyondMaxDist(_) => false,
        GjkStatus::Separated(c)
        | GjkStatus::IterationLimit(c)
        | GjkStatus::Stalled { estimate: c, .. } => c.distance <= T::zero(),
    };
    IntersectionOutput {
        intersecting,
        stats: out.stats,
    }
}

/// The input of a GJK query: two core shapes with their radii, and B's pose in A's frame.
#[derive(Debug)]
pub struct GjkInput<'a, A: ?Sized, B: ?Sized, T: Real> {
    /// Core of shape A, at the origin of its own frame (the query's frame).
    pub shape1: &'a A,
    /// Radius added around `shape1` (0 for a shape that is its own core).
    pub radius1: T,
    /// Core of shape B, in its own frame.
    pub shape2: &'a B,
    /// Radius added around `shape2`.
    pub radius2: T,
    /// B's pose in A's frame (`pose_a⁻¹ · pose_b`).
    pub pos12: Isometry<T>,
    /// Stop as soon as the signed distance is proven larger than this (`+∞`: never).
    pub max_dist: T,
    /// The sizes of shape A and shape B, radii included: a length each shape spans, such as the
    /// half-diagonal of its local bounding box (docs/accuracy.md's measure) or, cheaper and at
    /// most that, its largest half-extent (what the pipeline passes). The accuracy is relative to the smaller one, the *small scale*
    /// ([`GjkInput::small_scale`], docs/accuracy.md): the convergence tolerances are it times the
    /// relative ones of [`nphase_math::Tolerances`], floored at the rounding of the Minkowski
    /// difference's coordinates, so a pebble on a boulder is resolved to the pebble's precision.
    /// Where a witness pair must be realigned with a normal, the larger shape's point moves (its
    /// surface is the flatter one at the contact). `+∞` (the default of [`GjkInput::new`])
    /// makes the tolerances relative to the Minkowski difference's size.
    pub shape_sizes: [T; 2],
    /// Iteration cap and acceleration.
    pub options: GjkOptions,
}

impl<A: ?Sized, B: ?Sized, T: Real> Clone for GjkInput<'_, A, B, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<A: ?Sized, B: ?Sized, T: Real> Copy for GjkInput<'_, A, B, T> {}

impl<'a, A: ?Sized, B: ?Sized, T: Real> GjkInput<'a, A, B, T> {
    /// A query between `shape1` and `shape2` at `pos12` with no radii, no distance limit and
    /// default options.
    pub fn new(shape1: &'a A, shape2: &'a B, pos12: Isometry<T>) -> Self {
        GjkInput {
            shape1,
            radius1: T::zero(),
            shape2,
            radius2: T::zero(),
            pos12,
            max_dist: T::infinity(),
            shape_sizes: [T::infinity(); 2],
            options: GjkOptions::default(),
        }
    }

    /// Sets the radii around the two cores.
    pub fn with_radii(mut self, radius1: T, radius2: T) -> Self {
        self.radius1 = radius1;
        self.radius2 = radius2;
        self
    }

    /// Sets the early-exit distance.
    pub fn with_max_dist(mut self, max_dist: T) -> Self {
        self.max_dist = max_dist;
        self
    }

    /// Sets the shapes' sizes (see [`GjkInput::shape_sizes`]).
    pub fn with_shape_sizes(mut self, size1: T, size2: T) -> Self {
        self.shape_sizes = [size1, size2];
        self
    }

    /// The smaller of the two [`shape_sizes`](GjkInput::shape_sizes): the length the accuracy
    /// is relative to.
    pub fn small_scale(&self) -> T {
        Float::min(self.shape_sizes[0], self.shape_sizes[1])
    }

    /// The larger of the two [`shape_sizes`](GjkInput::shape_sizes).
    pub fn large_scale(&self) -> T {
        Float::max(self.shape_sizes[0], self.shape_sizes[1])
    }

    /// Sets the options.
    pub fn with_options(mut self, options: GjkOptions) -> Self {
        self.options = options;
        self
    }
}

/// How the support direction is chosen each iteration.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Acceleration {
    /// Plain GJK: the direction is `−v`.
    #[default]
    None,
    /// Nesterov momentum on the direction (Montaut et al., RSS 2022), falling back to plain
    /// GJK for the final certificate. `normalize` normalises the direction each step, which the
    /// paper recommends for polytopes.
    Nesterov {
        /// Normalise the momentum direction every iteration.
        normalize: bool,
    },
}

/// Options of a GJK query.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GjkOptions {
    /// The iteration cap (default 128); reaching it is reported, never hidden.
    pub max_iterations: u32,
    /// Direction strategy (default: plain GJK).
    pub acceleration: Acceleration,
}

impl Default for GjkOptions {
    fn default() -> Self {
        GjkOptions {
            max_iterations: 128,
            acceleration: Acceleration::None,
        }
    }
}

/// The result of [`closest_points`]: a small value (the simplex EPA starts from is handed over
/// separately, [`closest_points_with_simplex`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GjkOutput<T: Real> {
    /// What was found, with its data.
    pub status: GjkStatus<T>,
    /// How it was found.
    pub stats: GjkStats,
}

/// What GJK found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum GjkStatus<T: Real> {
    /// The cores are apart and GJK converged. `distance` is the signed distance of the full
    /// shapes: negative when the radii overlap although the cores do not — an exact penetration
    /// depth, without EPA.
    Separated(ClosestPoints<T>),
    /// The signed distance is proven larger than `max_dist` (a separating axis).
    BeyondMaxDist(SeparatingAxis<T>),
    /// The cores overlap or touch. The final simplex (1 to 4 vertices, enclosing or touching the
    /// origin) is EPA's start: [`closest_points_with_simplex`] hands it over.
    Intersecting,
    /// The iteration cap was reached; the best estimate so far (never a verdict of "apart").
    IterationLimit(ClosestPoints<T>),
    /// The distance stopped decreasing (or a support vertex repeated) before the duality gap
    /// closed: rounding on nearly parallel features, or a curved surface's rim against an edge.
    /// The best estimate so far (bounds that bracket the distance, witnesses on the surfaces);
    /// the simplex it came from ([`closest_points_with_simplex`] hands it over) lets EPA settle
    /// the answer (its face normals do not suffer from the rounding that stalled GJK).
    Stalled {
        /// The best estimate.
        estimate: ClosestPoints<T>,
    },
}

// What every query returns by value, pinned: the largest variant is a `ClosestPoints`
// (distance, normal, two points, two bounds), the statistics two counters and two flags.
const _: () = assert!(size_of::<GjkStatus<f32>>() <= 52);
const _: () = assert!(size_of::<GjkStatus<f64>>() <= 104);
const _: () = assert!(size_of::<GjkOutput<f32>>() <= 64);
const _: () = assert!(size_of::<GjkOutput<f64>>() <= 120);

/// Closest points of two shapes, all in A's frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClosestPoints<T: Real> {
    /// Signed distance of the shapes (core distance minus the radii).
    pub distance: T,
    /// Unit normal from A toward B.
    pub normal: UnitVector<T>,
    /// The witness point on A's surface.
    pub point1: Point<T>,
    /// The witness point on B's surface; `point2 − point1 ≈ distance · normal` (within the
    /// accuracy, except in a [`GjkStatus::Stalled`] estimate, whose pair may be off it by the
    /// mismatch the loop could not resolve: its points stay on their surfaces instead).
    pub point2: Point<T>,
    /// Certified lower bound on `distance` (from the best support plane; up to rounding). It
    /// bounds the signed distance, so it can be negative.
    pub lower_bound: T,
    /// Certified upper bound on `distance` (a realised pair of points; up to rounding).
    pub upper_bound: T,
}

/// A direction proving a lower bound on the distance.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SeparatingAxis<T: Real> {
    /// Unit axis from A toward B, A's frame: every point of B lies at least `lower_bound +
    /// radii` further along it than every point of A's core.
    pub axis: UnitVector<T>,
    /// Lower bound on the signed distance of the shapes.
    pub lower_bound: T,
}

/// The result of [`intersection_test`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IntersectionOutput {
    /// Whether the shapes touch or overlap.
    pub intersecting: bool,
    /// How it was decided.
    pub stats: GjkStats,
}

/// Work done by one query.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GjkStats {
    /// Iterations (support points of `D` computed).
    pub iterations: u32,
    /// Support calls on the Minkowski difference (each is one call per shape).
    pub support_calls: u32,
    /// Whether the query started from a rebuilt cached simplex.
    pub warm_started: bool,
    /// Why the query stopped.
    pub exit: GjkExit,
}

/// Why GJK stopped.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum GjkExit {
    /// The duality gap closed.
    #[default]
    DualityGap,
    /// The new support vertex pair was already in the simplex.
    RepeatedVertex,
    /// The distance stopped decreasing.
    NoProgress,
    /// The iteration cap.
    IterationCap,
    /// The simplex encloses the origin.
    OriginEnclosed,
    /// The closest point came within the touch tolerance of the origin.
    Touching,
    /// A lower bound exceeded `max_dist`.
    MaxDist,
    /// (Intersection test) the upper bound proved overlap.
    OverlapProven,
}

/// The GJK loop shared by [`closest_points`] and [`intersection_test`] ([`run_once`]), run
/// again from the cached axis alone where it started from a simplex the cache kept as
/// directions and stalled: such a simplex is rebuilt near last frame's optimum, and its first
/// support can repeat one of its vertices (a cone's apex and a box corner) before the duality
/// gap has closed to the last bits that a simplex built up by the loop itself reaches — a stall
/// with the answer right, which the pair query would still hand to EPA. Both runs' work is
/// counted.
fn run<A, B, T>(
    input: &GjkInput<'_, A, B, T>,
    cache: &mut SimplexCache<T>,
    stop_within: Option<T>,
    simplex_out: Option<&mut Simplex<T>>,
) -> GjkOutput<T>
where
    A: SupportMap<T> + ?Sized,
    B: SupportMap<T> + ?Sized,
    T: Real,
{
    if !cache.found_along() {
        return run_once(input, cache, stop_within, simplex_out);
    }
    // The first run's simplex reaches the caller only if it is the answer's (an overlap): a
    // stall's is replaced by the second run's, or left unwritten where that one ends apart.
    let mut first = Simplex::default();
    let out = run_once(input, cache, stop_within, Some(&mut first));
    if !matches!(out.status, GjkStatus::Stalled { .. }) {
        if let (GjkStatus::Intersecting, Some(simplex)) = (&out.status, simplex_out) {
            *simplex = first;
        }
        return out;
    }
    cache.forget_simplex();
    let mut again = run_once(input, cache, stop_within, simplex_out);
    again.stats.iterations += out.stats.iterations;
    again.stats.support_calls += out.stats.support_calls;
    again
}

/// How many grown simplices whose `|v|²` did not decrease (up to rounding) one run of the loop
/// goes on with before such a step counts as a stall (see the loop).
const TOLERATED_NON_DECREASES: u32 = 4;

/// One run of the GJK loop. With `stop_within = Some(r)` the loop also stops once `|v| ≤ r`
/// (the shapes provably overlap).
fn run_once<A, B, T>(
    input: &GjkInput<'_, A, B, T>,
    cache: &mut SimplexCache<T>,
    stop_within: Option<T>,
    simplex_out: Option<&mut Simplex<T>>,
) -> GjkOutput<T>
where
    A: SupportMap<T> + ?Sized,
    B: SupportMap<T> + ?Sized,
    T: Real,
{
    let md = MinkowskiDifference::new(input.shape1, input.shape2, &input.pos12);
    let tol = T::TOLERANCES;
    let radii = input.radius1 + input.radius2;
    let mut stats = GjkStats::default();
    let (mut hint_a, mut hint_b) = cache.hints();

    let mut state = State {
        simplex: Simplex::default(),
        v: Vector::zeros(),
        v_norm: T::zero(),
        weights: [T::zero(); 4],
        best_lower: T::neg_infinity(),
        best_lower_axis: Vector::zeros(),
        size2: T::zero(),
        size: T::zero(),
        shape_sizes: input.shape_sizes,
        small_scale: input.small_scale(),
    };
    if let Some(simplex) = cache.rebuild(&md) {
        stats.warm_started = true;
        state.simplex = simplex;
        for v in simplex.vertices() {
            state.grow(v.w.norm_squared());
        }
        let (v, weights) = state.simplex.project_and_reduce();
        state.set_v(v);
        state.weights = weights;
        if state.simplex.len() == 4 || state.v.norm_squared() <= touch2(&state, tol.gjk_touch) {
            stats.exit = if state.simplex.len() == 4 {
                GjkExit::OriginEnclosed
            } else {
                GjkExit::Touching
            };
            return finish_overlap(state, stats, cache, simplex_out);
        }
    } else {
        // Cold start: search along the cached axis, or from B's centre toward A's (v ≈ a − b).
        let cached = cache.axis();
        let axis = if cached.norm_squared() > T::zero() {
            cached
        } else {
            -input.pos12.translation.vector
        };
        state.set_v(if axis.norm_squared() > T::zero() {
            axis
        } else {
            Vector::x()
        });
    }

    let mut momentum = Momentum::new(input.options.acceleration, state.v);
    let mut last_w = state.v;
    let mut non_decreases = 0;
    loop {
        if stats.iterations >= input.options.max_iterations {
            stats.exit = GjkExit::IterationCap;
            break;
        }
        let dir = match momentum.as_mut() {
            Some(m) => m.next_direction(stats.iterations, &state.v, &last_w),
            // Plain GJK searches along −v, with v's direction refined from the simplex (see the
            // module doc): the same direction in exact arithmetic, but when |v| is small next to
            // the simplex, v/|v| is rounding noise (~ε·size/|v|), and a support taken along it
            // can repeat a simplex vertex or miss a closer face — a false certificate, or a
            // stall with the gap open.
            None => state.refined_direction().0 * state.v_norm,
        };
        stats.iterations += 1;
        let w = md.support(&-dir, hint_a, hint_b);
        stats.support_calls += 1;
        hint_a = w.id_a;
        hint_b = w.id_b;
        state.grow(w.w.norm_squared());

        let dir_norm = nphase_math::norm_robust(&dir);
        let mut lower = T::neg_infinity();
        if dir_norm > T::zero() {
            lower = w.w.dot(&dir) / dir_norm;
            if lower > state.best_lower {
                state.best_lower = lower;
                state.best_lower_axis = dir / dir_norm;
            }
        }
        if state.best_lower - radii > input.max_dist {
            stats.exit = GjkExit::MaxDist;
            let axis = UnitVector::new_unchecked(-dir / dir_norm);
            cache.store(&state.simplex, dir);
            return GjkOutput {
                status: GjkStatus::BeyondMaxDist(SeparatingAxis {
                    axis,
                    lower_bound: state.best_lower - radii,
                }),
                stats,
            };
        }

        if !state.simplex.is_empty() {
            // A gap closed by an earlier axis certifies the distance but not v's direction (see
            // `State::direction_settled`); then the bound along the current direction must close
            // it to the accuracy as well, or the iteration goes on with `w`.
            let converged = state.gap_closed(tol.gjk_relative_gap)
                && (state.direction_settled()
                    || state.v_norm - lower <= state.tolerance(tol.accuracy));
            let repeated = state.simplex.contains_pair(&w);
            // With momentum the support direction is not −v, so its point may not improve v, and
            // its gap is no certificate. Montaut et al. fall back to plain GJK when the
            // Frank–Wolfe gap v·(v − w) along the momentum support is small; here "small" is
            // √ε_rel of |v|² (the momentum has done its work once the gap is that close), and
            // after 32 accelerated iterations at the latest (on curved shapes the momentum can
            // otherwise circle the optimum without ever closing the gap).
            let fw_gap = state.v.dot(&(state.v - w.w));
            let no_descent = momentum.is_some()
                && (fw_gap <= Float::sqrt(tol.gjk_relative_gap) * state.v.norm_squared()
                    || stats.iterations > 32);
            if momentum.is_some() && (converged || repeated || no_descent) {
                momentum = None;
                continue;
            }
            if converged || repeated {
                stats.exit = if converged {
                    GjkExit::DualityGap
                } else {
                    GjkExit::RepeatedVertex
                };
                break;
            }
        }

        // The simplex with `w` is projected first and committed unless `|v|` failed to decrease
        // (then the previous simplex is kept as it is).
        let had_point = !state.simplex.is_empty();
        let previous_norm2 = state.v.norm_squared();
        let projection = state.simplex.project_with(&w.w);
        last_w = w.w;
        let norm2 = projection.point.norm_squared();
        let enclosed = projection.support_len() == 4;
        let overlap = enclosed || norm2 <= touch2(&state, tol.gjk_touch);
        let within = stop_within.is_some_and(|r| norm2 <= r * r);
        // Growing the simplex by a support point below the current bound always brings v
        // closer in exact arithmetic, but only quadratically in the gap: when |v|² changes by
        // less than its rounding (nearly touching features, f32, or a lateral improvement on a
        // face of D) the comparison sees no progress although v turned toward the optimum. A
        // grown simplex whose |v|² is unchanged up to rounding (relative to |v|², or to the
        // size for a tiny |v|) is kept and iterated on, at most `TOLERATED_NON_DECREASES` times
        // a run; only a genuine increase, or no change on a simplex that did not grow, is a
        // stall at once. (Without the budget a grown simplex can be reduced again by the next
        // support and the two trade places forever: f32, a cone's rim against a box face, a
        // segment of D grown to a triangle `2e-10` further out and cut back to the same
        // segment, to the iteration cap.)
        let grew = projection.support_len() > state.simplex.len();
        let rounding = T::lit(8.0)
            * tol.epsilon
            * Float::sqrt(previous_norm2)
            * Float::max(Float::sqrt(previous_norm2), state.size);
        let unchanged_up_to_rounding = norm2 - previous_norm2 <= rounding;
        let no_decrease = !overlap && !within && had_point && norm2 >= previous_norm2;
        let tolerated = grew && unchanged_up_to_rounding && non_decreases < TOLERATED_NON_DECREASES;
        if no_decrease && tolerated {
            non_decreases += 1;
        } else if no_decrease {
            if momentum.is_some() {
                momentum = None;
                continue;
            }
            stats.exit = GjkExit::NoProgress;
            break;
        }
        state.weights = state.simplex.push_and_reduce((w, -dir), &projection);
        state.set_v(projection.point);
        if overlap {
            stats.exit = if enclosed {
                GjkExit::OriginEnclosed
            } else {
                GjkExit::Touching
            };
            return finish_overlap(state, stats, cache, simplex_out);
        }
        if within {
            stats.exit = GjkExit::OverlapProven;
            break;
        }
        if momentum.is_none() && state.gap_closed(tol.gjk_relative_gap) && state.direction_settled()
        {
            stats.exit = GjkExit::DualityGap;
            break;
        }
    }

    // The size may have grown since the touch test after the last projection (a first support
    // point next to the origin makes every length look large): test again.
    if stats.exit != GjkExit::IterationCap
        && state.v.norm_squared() <= touch2(&state, tol.gjk_touch)
    {
        stats.exit = GjkExit::Touching;
        return finish_overlap(state, stats, cache, simplex_out);
    }
    let mut closest = state.closest_points(input.radius1, input.radius2);
    // The gap is judged on the refined distance (a face's plane distance where the simplex lies
    // in a face of D): `|v|` itself can carry a lateral rounding error that GJK cannot remove
    // any more, while the plane distance is exact. A stall that closed the gap on an earlier
    // axis has certified the distance but not `v`'s direction (see `State::direction_settled`):
    // it is a stall too. (`settle_normal` moves the normal and the witnesses, not the distance
    // or its bounds.)
    let stalled = matches!(stats.exit, GjkExit::NoProgress | GjkExit::RepeatedVertex)
        && (closest.distance - closest.lower_bound > state.tolerance(tol.gjk_relative_gap)
            || !state.direction_settled());
    state.settle_normal(
        &md,
        (input.radius1, input.radius2, stalled),
        &mut closest,
        &mut stats,
    );
    cache.store(&state.simplex, state.v);
    let status = match stats.exit {
        GjkExit::IterationCap => GjkStatus::IterationLimit(closest),
        _ if stalled => {
            // A stall whose refined distance is within the touch distance is an overlap: `|v|`
            // carries the projection's rounding, several `ε·size` on a sliver of D, which the
            // touch test above measured, while the refined distance (a face's plane distance)
            // is exact to `ε·size` (f32: a needle at the axis of a thin cone 10 long, the
            // simplex a meridian triangle through the origin, `|v|` 4e-6 and its plane 5e-7
            // from the origin; as a stall, EPA from it ended 0.27 deep outside GJK's bracket,
            // and the pair was reported touching).
            // (Unless GJK's certified lower bound proves the cores further apart than that.)
            let (_, core_distance) = state.refined_direction();
            let touch2 = touch2(&state, tol.gjk_touch);
            if core_distance * core_distance <= touch2
                && !(state.best_lower > T::zero() && state.best_lower * state.best_lower > touch2)
            {
                stats.exit = GjkExit::Touching;
                return finish_overlap(state, stats, cache, simplex_out);
            }
            if let Some(out) = simplex_out {
                *out = state.simplex;
            }
            GjkStatus::Stalled { estimate: closest }
        }
        _ => GjkStatus::Separated(closest),
    };
    GjkOutput { status, stats }
}

/// The loop's state: the simplex, its closest point `v` with barycentric weights, the best
/// lower bound, the largest squared support norm seen (the size rounding scales with) and the
/// small scale the tolerances are relative to.
/// `|v|` and the size are kept next to `v` and its square: the loop needs them several times
/// per iteration, and square roots are slow.
struct State<T: Real> {
    simplex: Simplex<T>,
    v: Vector<T>,
    /// `|v|`, updated with `v` ([`State::set_v`]).
    v_norm: T,
    weights: [T; 4],
    best_lower: T,
    /// The unit axis `u` that gave `best_lower`: every point of D has `x·u ≥ best_lower`.
    best_lower_axis: Vector<T>,
    size2: T,
    /// `√size2`, updated with it ([`State::grow`]).
    size: T,
    /// [`GjkInput::shape_sizes`].
    shape_sizes: [T; 2],
    /// [`GjkInput::small_scale`], kept: the tolerances need it several times per iteration.
    small_scale: T,
}

impl<T: Real> State<T> {
    /// Replaces `v`, and its norm.
    fn set_v(&mut self, v: Vector<T>) {
        self.v = v;
        self.v_norm = nphase_math::norm_robust(&v);
    }

    /// Widens the size to a point of squared norm `norm2`. `√` is monotone and correctly
    /// rounded, so `size` stays exactly `√size2`.
    fn grow(&mut self, norm2: T) {
        self.size2 = Float::max(self.size2, norm2);
        self.size = Float::max(self.size, Float::sqrt(norm2));
    }

    /// `rel` times the small scale, above the rounding floor of the size: see
    /// [`nphase_math::Tolerances::length`]. The small scale is at most `|v|` plus the size seen,
    /// which is what it is when the shapes' sizes are unknown.
    fn tolerance(&self, rel: T) -> T {
        let small = Float::min(self.small_scale, self.v_norm + self.size);
        T::TOLERANCES.length(rel, small, self.size)
    }

    /// The share of a tangential witness mismatch that A's point takes: A's part of the two
    /// sizes (a half when they are unknown).
    fn share1(&self) -> T {
        let [size1, size2] = self.shape_sizes;
        let total = size1 + size2;
        if total > T::zero() && Float::is_finite(total) {
            size1 / total
        } else {
            T::lit(0.5)
        }
    }

    /// Whether the axis of the best lower bound agrees with `v`'s direction to the accuracy
    /// (`|v|·sin∠ ≤` [`State::tolerance`]`(accuracy)`, the witness pair's error if one replaced
    /// the other).
    ///
    /// When the duality gap closes on that axis the distance is certified, but `v`'s direction
    /// may still be off: on a flat face of D (a cylinder's cap against a segment) the simplex can
    /// be a segment lying in the face with `v` a distance `ρ` from the face's foot point, `|v|`
    /// within `ρ²/2|v|` of the distance yet its direction off by `ρ/|v|` — a distance exact to
    /// `ε_rel`, a normal only to `√ε_rel`. GJK then goes on: the support along `v` lands on the
    /// far side of the face and the next simplex contains the foot.
    fn direction_settled(&self) -> bool {
        let axis = self.best_lower_axis;
        let v_dir = if self.v_norm > T::zero() {
            self.v / self.v_norm
        } else {
            Vector::y()
        };
        axis.norm_squared() > T::zero()
            && self.v_norm * axis.cross(&v_dir).norm() <= self.tolerance(T::TOLERANCES.accuracy)
    }

    /// Whether `|v| − lower ≤` [`State::tolerance`]`(rel)`.
    fn gap_closed(&self, rel: T) -> bool {
        self.v_norm - self.best_lower <= self.tolerance(rel)
    }

    /// The closest points of the shapes from the final simplex (see the module doc on normals).
    fn closest_points(&self, radius1: T, radius2: T) -> ClosestPoints<T> {
        let (a, b) = self.simplex.witnesses(&self.weights);
        let v_norm = self.v_norm;
        let (direction, core_distance) = self.refined_direction();
        let normal = -direction;
        // The best lower bound is a bound on the *signed* distance (negative when the cores may
        // overlap), so it is not clamped at zero.
        let lower = self.best_lower;
        ClosestPoints {
            distance: core_distance - radius1 - radius2,
            normal: UnitVector::new_unchecked(normal),
            point1: a + normal * radius1,
            point2: b - normal * radius2,
            lower_bound: Float::min(lower, core_distance) - radius1 - radius2,
            upper_bound: Float::max(v_norm, core_distance) - radius1 - radius2,
        }
    }

    /// Makes sure the reported normal is a near-minimiser of the support gap.
    ///
    /// The chosen direction (a face normal or `v`'s direction) and the axis `u` of the best
    /// lower bound agree up to rounding on polytopes; on curved surfaces the distance converges
    /// quadratically in the direction, so the two can differ by ~√gap. `u` is certified (the
    /// support gap along it is the lower bound) but swapping it in moves the witness pair off
    /// `distance · normal` by `|v|·sin∠`. When they differ beyond rounding, one more support
    /// query measures the gap along the chosen direction, and whichever error is smaller wins.
    /// `stalled`: the loop stalled with the gap open (the answer is [`GjkStatus::Stalled`], or
    /// an overlap where the refined distance is within the touch distance): an estimate, its
    /// pair not held to `distance · normal`.
    fn settle_normal<A, B>(
        &self,
        md: &MinkowskiDifference<'_, A, B, T>,
        (radius1, radius2, stalled): (T, T, bool),
        closest: &mut ClosestPoints<T>,
        stats: &mut GjkStats,
    ) where
        A: SupportMap<T> + ?Sized,
        B: SupportMap<T> + ?Sized,
    {
        let u = self.best_lower_axis;
        let chosen = -closest.normal.into_inner();
        let v_norm = self.v_norm;
        let sin_angle = u.cross(&chosen).norm();
        let eps = T::TOLERANCES.epsilon;
        let size = self.size;
        let noise = T::lit(64.0) * eps * (T::one() + size / v_norm);
        // Within v's own rounding the two directions are indistinguishable — but when |v| is
        // tiny next to the size (shapes touching), that rounding is a large angle, and along a
        // wide flat face a tilt of `sin∠` changes the support gap by up to `size·sin∠`: the
        // check is skipped only when that change is within the accuracy too.
        let accuracy = self.tolerance(T::TOLERANCES.accuracy);
        let harmless = sin_angle * size <= accuracy;
        if !(u.norm_squared() > T::zero())
            || !(v_norm > T::zero())
            || (sin_angle <= noise && harmless)
        {
            return;
        }
        let w = md.support(
            &-chosen,
            nphase_shapes::VertexId::NONE,
            nphase_shapes::VertexId::NONE,
        );
        stats.support_calls += 1;
        let gap_chosen = v_norm - w.w.dot(&chosen);
        if !(u.dot(&chosen) > T::zero()) {
            return;
        }
        if gap_chosen > v_norm * sin_angle {
            let (old, new) = (closest.normal.into_inner(), -u);
            closest.point1 += (new - old) * radius1;
            closest.point2 -= (new - old) * radius2;
            closest.normal = UnitVector::new_unchecked(new);
            // Align the witness pair with the new normal: the points share the tangential
            // mismatch (|v|·sin∠, tiny next to the surfaces' curvature) in proportion to the
            // shapes' sizes — the larger shape's surface is the flatter one at the contact, and a
            // small shape's vertex moved sideways would leave it — which keeps them on their
            // surfaces to second order and makes `point2 − point1 = distance·n`.
            // A stall's mismatch beyond the accuracy is left as it is: shared, it would move a
            // witness off its surface by up to its share — a flat shape's point past the edge it
            // lies on (f32: a cylinder's rim 0.14 from a triangle's edge, the mismatch 6.8e-4,
            // the triangle's point 2.9e-4 past its edge). Each point then stays on its surface,
            // and the pair is off `distance · n` by the mismatch, as an estimate may be.
            let mismatch = (closest.point2 - closest.point1) - new * closest.distance;
            if !(stalled && mismatch.norm() > accuracy) {
                let share1 = self.share1();
                closest.point1 += mismatch * share1;
                closest.point2 -= mismatch * (T::one() - share1);
            }
        } else if gap_chosen > accuracy && radius1 + radius2 >= v_norm / T::lit(2.0) {
            // Both errors are beyond the accuracy: the chosen direction does not certify the
            // distance, and the simplex's witness pair is too far off `u` to be kept with it.
            // This happens when the radii make the cores far apart while the shapes touch (a
            // big ball on a wide flat face, f32; only then is this done): the duality gap,
            // relative to the core distance, tolerates a tilt of
            // ~√(2·ε_rel) in v, which along the face is a support gap of `face size · tilt`.
            // The certified axis wins, and the larger shape's witness is put at the smaller's
            // along it, on its support plane (within the certified gap): the pair is consistent
            // with `distance · n`.
            let new = -u;
            let turn = new - closest.normal.into_inner();
            if self.shape_sizes[0] <= self.shape_sizes[1] {
                closest.point1 += turn * radius1;
                closest.point2 = closest.point1 + new * closest.distance;
            } else {
                closest.point2 -= turn * radius2;
                closest.point1 = closest.point2 - new * closest.distance;
            }
            closest.normal = UnitVector::new_unchecked(new);
        }
    }

    /// The unit direction of `v` (from B's closest point to A's) and the core distance, refined
    /// from the simplex's geometry where that is more accurate than `v` itself: a triangle's
    /// normal and plane distance, or `v` with its rounding along a segment removed.
    fn refined_direction(&self) -> (Vector<T>, T) {
        let v_norm = self.v_norm;
        let vertices = self.simplex.vertices();
        let v_dir = if v_norm > T::zero() {
            self.v / v_norm
        } else {
            Vector::y()
        };
        let size = self.size;
        // The axis of the best lower bound is *certified*: the support gap along it is that
        // bound, within the duality gap of the true distance, however far v's direction is off
        // (by rounding on nearly parallel features a tiny distance apart, or because the
        // distance converges quadratically in the direction on curved surfaces). It is preferred
        // wherever swapping it for v's direction moves the witness pair by less than the
        // accuracy (|v|·sin angle). The loop asks for the direction every iteration and the test
        // costs a norm and a division, so only the branches that use it evaluate it.
        let axis = self.best_lower_axis;
        let certified =
            || self.gap_closed(T::TOLERANCES.gjk_relative_gap) && self.direction_settled();
        match vertices {
            [_, _] if certified() => (axis, v_norm),
            [p, q] => {
                let edge = q.w - p.w;
                let len2 = edge.norm_squared();
                let direction = if len2 > T::zero() {
                    let perpendicular = v_dir - edge * (v_dir.dot(&edge) / len2);
                    nphase_math::normalize_robust(&perpendicular).map_or(v_dir, |n| n.into_inner())
                } else {
                    v_dir
                };
                (direction, v_norm)
            }
            [p, q, r] => {
                let (e1, e2) = (q.w - p.w, r.w - p.w);
                let n = e1.cross(&e2);
                let n_norm = nphase_math::norm_robust(&n);
                // Rounding error (in radians) of the triangle normal ~ ε·|e1||e2|/|n| and of
                // v/|v| ~ ε·size/|v|. The normal is used when it is the more accurate one and
                // agrees with v within v's own error: v then is the projection onto the
                // triangle's plane, i.e. the triangle lies in a flat face of D. On a curved part
                // of D, or for a sliver whose interior weights are unreliable, v is kept.
                let eps = T::TOLERANCES.epsilon;
                let tri_error = eps * e1.norm() * e2.norm() / n_norm;
                let v_error = eps * size / v_norm;
                if n_norm > T::zero() && tri_error < v_error {
                    let n = n / n_norm;
                    let n = if n.dot(&v_dir) < T::zero() { -n } else { n };
                    if n.cross(&v_dir).norm() <= T::lit(64.0) * (v_error + tri_error) {
                        return (n, Float::max(p.w.dot(&n), T::zero()));
                    }
                }
                if certified() {
                    (axis, v_norm)
                } else {
                    (v_dir, v_norm)
                }
            }
            _ if certified() => (axis, v_norm),
            _ => (v_dir, v_norm),
        }
    }
}

/// The square of the touch distance: `touch` times the small scale (at most the size seen),
/// above the rounding floor of the size.
fn touch2<T: Real>(state: &State<T>, touch: T) -> T {
    let t = T::TOLERANCES.length(touch, Float::min(state.small_scale, state.size), state.size);
    t * t
}

fn finish_overlap<T: Real>(
    state: State<T>,
    stats: GjkStats,
    cache: &mut SimplexCache<T>,
    simplex_out: Option<&mut Simplex<T>>,
) -> GjkOutput<T> {
    cache.store(&state.simplex, state.v);
    if let Some(out) = simplex_out {
        *out = state.simplex;
    }
    GjkOutput {
        status: GjkStatus::Intersecting,
        stats,
    }
}
