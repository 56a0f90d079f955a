//! The narrowphase of one pair across frames: what an engine holds per pair, and the call that
//! turns this frame's poses into this frame's manifold.
//!
//! [`update_manifold`] is what [`NarrowPhase`](crate::NarrowPhase) runs for every pair, public
//! so that an engine with its own pair storage (or a per-pair hook, as rapier's) can run it
//! directly:
//!
//! 0. certified reuse (below): a pose unchanged since the last full computation keeps its
//!    manifold, and so does a contact whose pose has moved too little to change the answer
//!    beyond the accuracy, or whose kept answer a support query along its normal verifies at
//!    the new pose; a pair that cannot have come within the prediction distance has
//!    none;
//! 1. the pair's contact ([`query_pair_cached`](crate::query_pair_cached)) in A's frame,
//!    warm-started from the [`PairState`]; a separating-axis contact's witness is left to the
//!    manifold's clipping (one clip per pair per frame, [`SupportHints::witness_on_plane`](crate::SupportHints::witness_on_plane));
//! 2. the manifold from it ([`build_manifold`]), into the caller's [`ContactManifold`], with
//!    last frame's ids and reference side giving the ids and the reduction their hysteresis;
//! 3. the tangent basis carried over (last frame's tangent projected onto the new contact
//!    plane), and the solver's warm-start data — normal and tangent impulses per point, the
//!    twist impulse per manifold — from last frame's points with the same id.
//!
//! # Certified reuse
//! The state keeps `pos12` at the pair's last full computation (`P₀ = (R₀, t₀)`), the
//! certified lower bound `L` on the signed distance found then, and `ρ`, the largest distance
//! of a point of B (its surface included) from B's origin.
//!
//! * **Unchanged.** When `pos12` is bitwise `P₀`, the query would get the same input; the
//!   manifold from the last full computation is returned as it is (its points all persisted,
//!   with the impulses the engine wrote since) — its distances, where a `Still` answer (below)
//!   rewrote them for its own pose since, computed for `P₀` again the same way (that
//!   computation's, up to rounding).
//! * **Apart.** A point `x` of B (B's frame) is at `R x + t` in A's frame. Between `P₀` and
//!   `P = (R, t)` it moves by
//!   `|R x + t − R₀ x − t₀| ≤ |t − t₀| + |(R R₀⁻¹ − I) R₀ x| ≤ |t − t₀| + 2 sin(θ/2) ρ = m`,
//!   with θ the angle of `R R₀⁻¹` (a rotation by θ moves a point at distance r by the chord
//!   `2 r sin(θ/2)`; for unit quaternions `sin(θ/2)` is the norm of the vector part of
//!   `q q₀⁻¹`). A is fixed in its own frame, and the distance between two sets changes by at
//!   most the largest displacement of either, so the signed distance now is at least `L − m`.
//!   Measured in B's frame instead (where A reaches less far than B: `ρ_A < ρ`, `ρ_A` the
//!   largest distance of a point of A from A's origin), a point `y` of A is at `R⁻¹ (y − t)`
//!   and moves by `|(R⁻¹ − R₀⁻¹) y − (R⁻¹ t − R₀⁻¹ t₀)| ≤ 2 sin(θ/2) ρ_A + |R⁻¹ t − R₀⁻¹ t₀|`
//!   (`R⁻¹ R₀` turns by θ too), and the distance bound holds with that `m` as well: a small
//!   shape A hovering over a large B (a box over the ground) turning about its own centre
//!   swings B's far corners through `ρ` in A's frame, and only its own through `ρ_A` in B's.
//!   Either bound that certifies is taken, A's frame first; rounded up in B's frame by
//!   `16 ε (|t| + |t₀| + ρ_A)` (`R⁻¹ t` carries a rounding relative to `|t|`).
//!   When `L − m` exceeds the prediction, there is no contact — without GJK. The computation of
//!   `m` is rounded up by `16 ε (|t| + |t₀| + ρ)` so that rounding cannot certify a contact
//!   away. A contact (`L ≤` prediction) never takes this path.
//! * **Still.** A contact whose manifold *stands* — its answer converged with certified bounds (up
//!   to rounding) within `6 δ` of each other, and its manifold has the same ids as the one before
//!   it (so a pair's first manifold never stands: built without history, it can differ from the
//!   next one built with it, a point named alike placed elsewhere) — keeps that manifold's normal,
//!   points and ids, each point's distance following the pose (the separation along the kept normal
//!   of its two ends, the end on A where it was and the end on B moved with B: `(P b − a) · n`,
//!   what a solver would see of those two surface points; a distance frozen at `P₀` made rapier's
//!   resting piles jitter against it), while the caller has not emptied it, and while `m` stays
//!   within the allowance `(6 δ − w) / 2`, at least `δ`: `δ = accuracy × small`
//!   ([`Tolerances::accuracy`](nphase_math::Tolerances::accuracy), a tenth of docs/accuracy.md's
//!   tolerance; `small` the smaller shape's half-diagonal, which keeps `δ` within the
//!   small-on-large tolerance too) and `w ≤ 6 δ` the last answer's certified bracket, so the
//!   allowance runs from `δ` (`w ≥ 4 δ`) to `3 δ` (an answer exact to rounding, as most are); it is
//!   kept in eighths of `δ`, rounded down. `m` is rounded up by `16 ε (|t − t₀| + ρ)`: the
//!   difference of the translations carries a rounding relative to itself, the quaternion product
//!   and the norm of its vector part a few ε (a unit quaternion's norm drifting by a few ε between
//!   frames included). Why that is the full computation's answer within the tolerance: B moved by
//!   at most `m` in A's frame, so the true signed distance moved by at most `m`, and so did the
//!   separation of each point's two ends along the normal (the end on B moved with B; the end on A
//!   and the normal stayed: a point's distance is off the distance by at most the manifold's depth
//!   hysteresis and `w + 2 m ≤ 6 δ`, and no point is deeper than the normal's support gap); the
//!   support gap of the two shapes along the kept normal moved by at most `m` as well. The last
//!   answer was off by at most its bracket `w`, and its normal's support gap by at most `w + 2 δ`:
//!   the paths that end on a normal keep its gap within about `δ` of their lower bound (GJK's
//!   settled direction, EPA's face normal or the side normal taken within the promise), and the
//!   separating-axis tests return a bracket of zero width where a face axis beat an edge axis by
//!   less than their tie margin (at most `2 δ` for two boxes). So the standing distance is off the
//!   exact one by at most `w + 2 δ + m`, and the normal's support gap by at most
//!   `w + 2 δ + 2 m ≤ 8 δ` (`w ≤ 4 δ`; for a wider bracket, `m ≤ δ` keeps stop 35's bound,
//!   `w + 4 δ`), within the tolerance `10 δ` — however many frames it stands, since `m` is measured
//!   from `P₀`. What a full computation would add is its own choice of points: it keeps last
//!   frame's points by their ids (its id hysteresis reaches `2τ`, 2 % of the features' size; its
//!   depth hysteresis `1e-3` of it), so it mostly returns the same points; where it itself changes
//!   them under motions far below the accuracy (a cylinder on a triangle at the switch between its
//!   cap and its side goes from one point to four and back as the pose creeps by 1e-12), the
//!   shortcut holds the last full computation's (`reuse.rs` counts how often). A rapier scene at
//!   rest moves its bodies by 1e-6 m a step or less (medians 0 to 3e-6 m, docs/engines.md), so
//!   most resting contacts take this path for several steps at a time. The rounding term limits it,
//!   in f32, to a B whose reach `ρ` is within about twenty times the smaller shape's size (a small
//!   shape A on a large B rarely stands; with the large shape as A it does: `NarrowPhase` and
//!   the rapier adapter take such a pair that way round, [`crate::mirrored_pair`]). `Still` is
//!   measured in A's frame alone: the kept normal is fixed there, and its support gap moves with
//!   B's points in A's frame — a turn of A by θ tilts a large face of B under it, and the face's
//!   gap along the kept normal moves by θ times the face's size (a ball 3 from a 40-wide
//!   ground's centre, turning 4e-6 rad: 9e-5, 14 δ), however little the distance moved.
//! * **Still, verified.** Past the allowance, up to `m ≤ 8 δ`, a standing manifold is checked at
//!   `P` instead of recomputed: two support points along the kept normal `n` (A's along `n`, B's
//!   along `−n`) give its support gap `g` at `P`, rounded down by
//!   `16 ε (Σ |aᵢ nᵢ| + |b| + Σ |tᵢ nᵢ|)` (each dot product's rounding, a few ε of the sum of its
//!   terms' magnitudes; `R⁻¹ n`'s, a few ε of `|b|`; and a curved shape's support point off its
//!   maximum by a few ε of its magnitude: `|a|` in place of `Σ |aᵢ nᵢ|` where A is not a box, whose
//!   support point is its corner exactly) — a certified lower bound on the signed distance `s` at
//!   `P`, as every direction's gap is. (With `|a| + |b| + |t|`, up to stop 53, a box on a large
//!   floor as A, its corner 28 and the box 15 from the floor's origin, lost more than `8 δ` to it
//!   in f32 and never verified.) The last computation's upper bound `U ≤ L + w` moved by at most
//!   `m`: `s ≤ U + m`. Every standing point's distance `d` (its two ends' separation along `n`, as
//!   above) is at least `g` (its ends lie in A and in B). So where `max(U + m, d_min) − g ≤ 8 δ`,
//!   the kept normal's support gap is within `8 δ` of the distance, and so is the deepest point's
//!   distance (`d_min − s ≤ d_min − g`, `s − d_min ≤ U + m − g`): within the tolerance `10 δ`,
//!   measured at `P` rather than bounded from `P₀`; and no point has moved by more than `8 δ` from
//!   where the last computation put it. The manifold is then `Still`'s, as above; a check that
//!   fails is a full computation. Where `U + m` alone fails it — the bound grows with the motion,
//!   and a motion toward A lowers `g` as much, so a pair sinking by `m` loses `2 m` of the margin —
//!   a fresher upper bound is read at `P`: the two support points lie in their shapes, and one that
//!   lies inside the other shape at depth `h` ([`Shape::interior_depth`], rounded down by its
//!   transform's rounding `16 ε (|p| + |t|)`) bounds the penetration from below (a translation that
//!   separates the shapes carries that point out of the other), so `s ≤ −h`, which stands for
//!   `U + m` (not read for a hull, where the depth is a scan of its triangles): `s − g ≤ −h − g`
//!   and `s − d_min ≤ s − g` as before. (`w` is read back from the allowance's eighths `e`:
//!   `still_eighths` rounds `24 − 4 w / δ` down, so `w ≤ (24 − e) δ / 4` for `e > 8`, and a
//!   standing answer's `w ≤ 6 δ`.) A deepest point the last computation left shallower than the
//!   distance (its depth hysteresis) fails the check, and its manifold stands only within the
//!   allowance (docs/performance.md, stops 50 and 51, count how often the check holds).
//! * **Verify or compute again.** Past the allowance, verifying is not always the cheaper
//!   way: a verified frame keeps `P₀`, so every later frame past the allowance is verified
//!   again, where a full computation at `P` starts a new allowance `a` whose frames are
//!   certified at almost no cost. For B drifting by `r` a frame, `F` the cost of a full
//!   computation, `V` of a verified frame and `c` of a certified one, verifying to `8 δ`
//!   costs `F + (8 δ − a) V / r + a c / r` per `8 δ` of drift and computing at the end of
//!   each allowance `8 δ F / a + 8 δ c / r`: verifying pays where `r > a (V − c) / F`. The
//!   drift rate is read from `m` and the frames answered by a shortcut since `P₀`, `k`
//!   ([`LastComputation::reused_frames`]): verified where `(k + 1) a < K m`, with `K` about
//!   `F / (V − c)`: 16 for two boxes, 64 for any other pair, whose full computation costs
//!   about five times a box pair's (`renewal_frames`; docs/performance.md, stop 53). That
//!   reads a pair that moved and came to rest as slow (the rate is averaged since
//!   `P₀`), where computing again pays most: its new allowance holds as long as it rests. It
//!   reads a pair that swings to and fro across the allowance (a solver's jitter wider than
//!   `a`) as slow too, and there the new allowance lasts a few frames only: so a computation
//!   chosen over a verification is remembered ([`Renewal::Chosen`]), and where its allowance
//!   lasted fewer than `K` frames its manifold is verified until B leaves the verified range
//!   ([`Renewal::Verified`]). Either way the answer is one of the two above, a full
//!   computation or a verified `Still`: the choice changes the cost, not the tolerances.
//!
//! Each shortcut reports the last full computation's lower bound less `m` (rounded up), a
//! certified lower bound at `P`.
//! Each path is counted ([`PairOutcome::reuse`], `StepStats`), and the answer keeps the quality
//! of the computation it reuses. None changes an answer beyond the tolerances: an unchanged
//! input has the same answer, an apart pair has no contact, and a still one the answer above.
//!
//! # The contract
//! * **Frames.** `pos12` is B's pose in A's frame (`pose_a⁻¹ · pose_b`). The manifold's normal
//!   is in A's frame and points from A toward B; each point is stored in each shape's local
//!   frame; distances are signed (negative when penetrating).
//! * **What the state keeps.** [`PairState`] is a small value: GJK's warm-start cache
//!   (vertex ids of the last simplex and the last separating axis), a polytope pair's
//!   separating-axis feature ([`SatCache`]: tried first, it tightens the test's bounds and
//!   never changes its winner), what last frame's manifold decided (supporting features,
//!   reference side, hull faces' turn budgets), and on the heap — for a pair that penetrated
//!   on the general path — EPA's last polytope, from which the next penetration starts and
//!   which is re-checked in full before it is used, and — for a penetrating polytope pair —
//!   the separating-axis certificate ([`SatCertificate`]: the features that may still win
//!   while the motion stays within its margin). It makes the next query cheaper and the
//!   manifold steadier, and never changes the contact beyond docs/accuracy.md's tolerances; a
//!   fresh [`PairState::new`] is always valid (a cold start).
//! * **What the manifold keeps.** On entry the manifold holds last frame's points with the
//!   impulses the engine wrote into them, and last frame's normal and tangent (the turn
//!   budgets measure this frame's turn from that normal); on return it holds this
//!   frame's points, and each point whose id was there last frame gets that point's impulses
//!   back (`persisted`). A new pair starts from `ContactManifold::default()`. The engine
//!   writes impulses and `persisted` marks; a manifold it empties beside a kept state (a
//!   reset) is computed again — unless the pose is bitwise the last full computation's, where
//!   `Unchanged` returns it as it stands.
//! * **What the caller keeps stable.** The same two shapes in the same order (A, B) for the
//!   pair's whole life — the state and the ids name features of these shapes; the same
//!   prediction distance. When a shape changes (or the pair leaves the broadphase and comes
//!   back), start again from a new state and an empty manifold.
//! * **Threads.** A [`PairWorkspace`] is scratch space (EPA's polytope, clipping buffers), one
//!   per thread, reused across pairs: it carries nothing from one pair to the next.
//!
//! ```
//! use nphase_math::{Isometry, Vector};
//! use nphase_pipeline::{ContactManifold, PairInput, PairState, PairWorkspace, update_manifold};
//! use nphase_shapes::{Cuboid, Shape};
//!
//! let ground = Shape::Cuboid(Cuboid::new(Vector::new(5.0, 0.5, 5.0))?);
//! let cube = Shape::Cuboid(Cuboid::new(Vector::new(0.5, 0.5, 0.5))?);
//! // What the engine keeps for this pair, and one workspace per thread.
//! let (mut state, mut manifold) = (PairState::new(), ContactManifold::default());
//! let mut workspace = PairWorkspace::new();
//! for frame in 0..3 {
//!     // The cube rests 1 mm deep on the ground (top face at y = 0.5), sliding along x.
//!     let pose_ground = Isometry::translation(0.0, 0.0, 0.0);
//!     let pose_cube = Isometry::translation(0.01 * f64::from(frame), 0.999, 0.0);
//!     let input = PairInput {
//!         shape1: &ground,
//!         shape2: &cube,
//!         pos12: pose_ground.inv_mul(&pose_cube),
//!         prediction: 0.01,
//!     };
//!     update_manifold(&input, &mut state, &mut manifold, &mut workspace);
//!     assert_eq!(manifold.points.len(), 4);
//!     for p in &manifold.points {
//!         assert!((p.dist + 0.001).abs() < 1e-12);
//!         // Same features, same ids: from the second frame on, every point is carried over.
//!         assert_eq!(p.persisted, frame > 0);
//!     }
//!     // The engine's solver writes the impulses it applied; the next frame hands them back.
//!     for p in &mut manifold.points {
//!         assert_eq!(p.normal_impulse, if frame > 0 { 2.5 } else { 0.0 });
//!         p.normal_impulse = 2.5;
//!         p.tangent_impulse = [0.1, -0.2];
//!     }
//! }
//! # Ok::<(), nphase_shapes::ShapeError>(())
//! ```

use arrayvec::ArrayVec;
use nphase_epa::{EpaWorkspace, WarmPolytope};
use nphase_gjk::SimplexCache;
use nphase_math::{Isometry, Point, Real, UnitVector, Vector};
use nphase_shapes::{ConvexPolyhedron, FeatureId, Shape, SupportFeature, SupportMap, VertexId};
use num_traits::Float;

use crate::collide::{SatCache, SatCertificate, SatWorkspace, query_pair_witnessed};
use crate::manifold::{
    ContactManifold, ContactPoint, MAX_MANIFOLD_POINTS, ManifoldHistory, ManifoldInput,
    ManifoldWorkspace, build_manifold,
};
use crate::{ContactQuality, PairOutcome, Reuse};

/// What one pair remembers from one frame to the next (see the module doc): a small value an
/// engine stores inline in its pair record, plus, for a pair that penetrated on the general
/// path, EPA's polytope on the heap.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(bound(
        serialize = "T: serde::Serialize",
        deserialize = "T: serde::de::DeserializeOwned"
    ))
)]
pub struct PairState<T: Real> {
    /// GJK's warm-start cache.
    pub cache: SimplexCache<T>,
    /// The separating-axis feature of a polytope pair's last query.
    pub sat: SatCache,
    /// What last frame's manifold decided: supporting features and reference side (its
    /// hysteresis).
    pub history: ManifoldHistory,
    /// The last full computation, for certified reuse; `None` for a new pair.
    pub last: Option<LastComputation<T>>,
    /// EPA's polytope from the pair's last penetration on the general path (curved cores, a
    /// point or segment core: not the separating-axis test's polytope pairs), which the next
    /// query's EPA starts from ([`nphase_epa::penetration_warm`]). `None` until such a
    /// penetration; then allocated once, with room for the largest polytope kept (about 2.4 KB
    /// in f32, 3.5 KB in f64), and reused. A cache: a state without it is as valid (EPA then
    /// starts from GJK's simplex), but a restored state goes on bit for bit only with it.
    pub epa: Option<Box<WarmPolytope<T>>>,
    /// A penetrating polytope pair's certificate from its last full separating-axis test:
    /// the features that may still win, and the margin by which every other one was proven
    /// behind, so that the next frames test those alone while the motion since stays within
    /// the margin ([`SatCertificate`]). `None` until the pair's cores first overlap on that
    /// path; then allocated once (a few hundred bytes at most) and reused. A cache: a state
    /// without it is as valid. Not serialized (it is not re-checked when used, so it is not
    /// taken from outside): a restored pair runs its next test in full.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub sat_certificate: Option<Box<SatCertificate<T>>>,
}

/// What the certified reuse of [`update_manifold`] needs of the pair's last full computation
/// (see the module doc).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(bound(
        serialize = "T: serde::Serialize",
        deserialize = "T: serde::de::DeserializeOwned"
    ))
)]
#[non_exhaustive]
pub struct LastComputation<T: Real> {
    /// `pos12` then.
    pub pos12: Isometry<T>,
    /// The certified lower bound on the signed distance found then.
    pub lower_bound: T,
    /// The largest distance of a point of B from B's origin (an upper bound).
    pub reach2: T,
    /// How far B may move from `pos12` while the manifold stands ([`Reuse::Still`]), the
    /// allowance `δ` of the module doc: [`Tolerances::accuracy`](nphase_math::Tolerances::accuracy)
    /// × the smaller shape's half-diagonal (same unit as `pos12`); 0 (a state saved before it
    /// existed) is measured again at the next full computation.
    #[cfg_attr(feature = "serde", serde(default = "zero"))]
    pub still_within: T,
    /// How that computation ended (a reused answer is as good as the one it reuses).
    pub quality: ContactQuality,
    /// Whether that computation's manifold may stand while B stays within `still_eighths`
    /// eighths of `still_within` (and, verified at each pose, within 8 `still_within`): a
    /// contact that converged within `6 δ` (its certified bounds), whose manifold has the same
    /// ids as the one before it (see the module doc); false in a state saved before it existed.
    #[cfg_attr(feature = "serde", serde(default))]
    pub stands: bool,
    /// The allowance of [`Reuse::Still`] after that computation, in eighths of
    /// `still_within` (`δ`): `(6 δ − w) / 2` rounded down, `w` its certified bracket — 8 (`δ`)
    /// for `w ≥ 4 δ` up to 24 (`3 δ`) for `w = 0` (the module doc); 8 in a state saved before
    /// it existed. Read as at most 24.
    #[cfg_attr(feature = "serde", serde(default = "eight"))]
    pub still_eighths: u8,
    /// Whether a `Still` answer since that computation rewrote the manifold's distances for
    /// its own pose: an `Unchanged` pose (bitwise `pos12`) then has them computed again for
    /// it, where they were that computation's as it stands (the module doc); false in a state
    /// saved before it existed.
    #[cfg_attr(feature = "serde", serde(default))]
    pub distances_moved: bool,
    /// The frames answered by a shortcut since that computation, up to 255 (saturating): with
    /// how far B moved, how fast it drifts, which decides whether a standing manifold past its
    /// allowance is verified or computed again (the module doc, *verify or compute again*); 0
    /// in a state saved before it existed.
    #[cfg_attr(feature = "serde", serde(default))]
    pub reused_frames: u8,
    /// Whether that computation was chosen over a verification, and what came of it
    /// ([`Renewal`]); [`Renewal::Needed`] in a state saved before it existed.
    #[cfg_attr(feature = "serde", serde(default))]
    pub renewal: Renewal,
}

/// Why a pair's last full computation was made, as far as the choice between verifying its
/// standing manifold past the allowance and computing it again cares (the module doc, *verify
/// or compute again*).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub enum Renewal {
    /// It was needed: a new pair, B past the verified range, a check that failed, a manifold
    /// that did not stand. How fast B drifts decides the next choice.
    #[default]
    Needed,
    /// It was chosen over a verification, to start the allowance afresh. How fast B drifts
    /// decides the next choice too, unless B leaves the allowance within `K` frames (the
    /// module doc): then it becomes `Verified`.
    Chosen,
    /// A chosen computation whose allowance lasted fewer than `K` frames: computing again does
    /// not pay for this pair's motion, and its manifold is verified until B leaves the
    /// verified range.
    Verified,
}

/// The default of [`LastComputation::still_within`] in a saved state that lacks it.
#[cfg(feature = "serde")]
fn zero<T: Real>() -> T {
    T::zero()
}

/// The default of [`LastComputation::still_eighths`] in a saved state that lacks it: the
/// allowance `δ` such a state was saved with.
#[cfg(feature = "serde")]
fn eight() -> u8 {
    8
}

// The per-pair record an engine keeps inline, pinned: GJK's cache (32 bytes), the
// separating-axis feature (6, padded to 8), the manifold's history (24: its turn budgets took
// 4 bytes of what was padding), the last full computation (a pose, three bounds, a quality,
// two flags, the allowance in eighths, the frames since and the renewal: 48 bytes in f32, 88
// in f64; the allowance of `Still` made it 8 bytes larger, the last two took f64's padding
// and 4 bytes more in f32, which fill the f32 record to exactly 128) and the pointers to EPA's
// kept polytope and to the separating-axis certificate (8 each).
const _: () = assert!(size_of::<PairState<f32>>() <= 128);
const _: () = assert!(size_of::<PairState<f64>>() <= 168);

impl<T: Real> PairState<T> {
    /// The state of a new pair: the first query starts cold.
    pub const fn new() -> Self {
        PairState {
            cache: SimplexCache::EMPTY,
            sat: SatCache::EMPTY,
            history: ManifoldHistory {
                features: None,
                reference: None,
                turn_budgets: [0, 0],
            },
            last: None,
            epa: None,
            sat_certificate: None,
        }
    }
}

impl<T: Real> Default for PairState<T> {
    fn default() -> Self {
        Self::new()
    }
}

/// One pair this frame: the two shapes and where B is.
#[derive(Clone, Copy, Debug)]
pub struct PairInput<'a, T: Real> {
    /// Shape A, at the origin of A's frame.
    pub shape1: &'a Shape<T>,
    /// Shape B.
    pub shape2: &'a Shape<T>,
    /// B's pose in A's frame: `pose_a⁻¹ · pose_b`.
    pub pos12: Isometry<T>,
    /// Points up to this far apart are kept (≥ 0, finite), with positive distance.
    pub prediction: T,
}

/// Reusable scratch space of pair queries and manifolds (EPA's polytope, supporting features,
/// clipping buffers). One per thread; it carries nothing from one pair to the next.
#[derive(Debug, Default)]
pub struct PairWorkspace<T: Real> {
    pub(crate) epa: EpaWorkspace<T>,
    pub(crate) sat: SatWorkspace<T>,
    pub(crate) feature: SupportFeature<T>,
    pub(crate) manifold: ManifoldWorkspace<T>,
}

impl<T: Real> PairWorkspace<T> {
    /// An empty workspace.
    pub fn new() -> Self {
        PairWorkspace::default()
    }
}

/// This frame's manifold of one pair (see the module doc for the contract): `manifold` holds
/// last frame's points on entry and this frame's on return, with the warm-start data of every
/// point whose id persisted. Returns the work the query took.
///
/// Preconditions (checked by [`NarrowPhase`](crate::NarrowPhase), debug-asserted here):
/// `pos12` finite, `prediction` finite and ≥ 0. The accuracy of docs/accuracy.md holds for
/// `pos12` within the input range ([`Real::RANGE`]: each translation component at most
/// `2 · max_length`, as two world poses within the range give); an engine calling this directly
/// keeps it there (the rapier adapter, more strictly, hands parry every pair whose `pos12` has a
/// component beyond `max_length`).
// Out of line: one call per pair costs nothing measurable, and the profiles of
// docs/performance.md collect this function by name.
#[inline(never)]
pub fn update_manifold<T: Real>(
    input: &PairInput<'_, T>,
    state: &mut PairState<T>,
    manifold: &mut ContactManifold<T>,
    workspace: &mut PairWorkspace<T>,
) -> PairOutcome<T> {
    debug_assert!(input.prediction >= T::zero(), "negative prediction");
    let mut renewal = Renewal::Needed;
    if let Some(last) = &mut state.last {
        let with_points = !manifold.points.is_empty();
        let reach1 = || input.shape1.bounding_radius();
        let frames = || renewal_frames(input.shape1, input.shape2);
        let answer = match certified_reuse(
            last,
            &input.pos12,
            input.prediction,
            with_points,
            reach1,
            frames,
        ) {
            Some(Shortcut::Certified(reuse, moved)) => Some((reuse, moved, false)),
            // A verified manifold's standing distances are written by the check.
            Some(Shortcut::Verify(moved, renewal)) => {
                last.renewal = renewal;
                let near = state.history.features;
                let verified = verified_still(input, (last, near), manifold, moved);
                verified.then_some((Reuse::Still, moved, true))
            }
            Some(Shortcut::Recompute) => {
                renewal = Renewal::Chosen;
                None
            }
            None => None,
        };
        if let Some((reuse, moved, written)) = answer {
            last.distances_moved |= reuse == Reuse::Still;
            last.reused_frames = last.reused_frames.saturating_add(1);
            return reused(last, (reuse, moved, written), &input.pos12, manifold);
        }
    }
    let outcome = query_pair_witnessed(
        input.shape1,
        input.shape2,
        &input.pos12,
        input.prediction,
        &mut state.cache,
        &mut state.sat,
        Some(&mut state.epa),
        workspace,
        Some(&mut state.sat_certificate),
    );
    let reach2 = state
        .last
        .map_or_else(|| input.shape2.bounding_radius(), |l| l.reach2);
    let still_within = match state.last {
        Some(l) if l.still_within > T::zero() => l.still_within,
        _ => {
            let small = Float::min(half_diagonal(input.shape1), half_diagonal(input.shape2));
            T::TOLERANCES.accuracy * small
        }
    };
    // The directions last frame's features were searched along (its normal, in each shape's
    // frame), from which this frame's turn is measured; needed only while a budget is left,
    // and taken only from a manifold with points (a contact always leaves one: an emptied
    // manifold beside a kept state is a caller's reset, whose normal is not last frame's; the
    // module doc's contract).
    let previous_directions = match state.last {
        Some(last) if state.history.turn_budgets != [0, 0] && !manifold.points.is_empty() => {
            let n = manifold.local_normal1.into_inner();
            Some([n, last.pos12.rotation.inverse_transform_vector(&-n)])
        }
        _ => None,
    };
    state.last = Some(LastComputation {
        pos12: input.pos12,
        lower_bound: outcome.lower_bound,
        reach2,
        still_within,
        quality: outcome.quality,
        stands: false,
        still_eighths: 8,
        distances_moved: false,
        reused_frames: 0,
        renewal,
    });
    let previous: ArrayVec<ContactPoint<T>, MAX_MANIFOLD_POINTS> =
        core::mem::take(&mut manifold.points);
    let Some(contact) = outcome.contact else {
        state.history = ManifoldHistory::default();
        return outcome;
    };
    let manifold_input = ManifoldInput {
        shape1: input.shape1,
        shape2: input.shape2,
        pos12: &input.pos12,
        contact: &contact,
        prediction: input.prediction,
        previous: &previous,
        history: state.history,
        supports: outcome.supports,
        previous_directions,
    };
    state.history = build_manifold(
        &manifold_input,
        &mut workspace.manifold,
        &mut manifold.points,
    );
    manifold.local_normal1 = contact.normal;
    manifold.local_tangent1 = carried_tangent(&contact.normal, &manifold.local_tangent1);
    let (mut any_persisted, mut all_persisted) = (false, true);
    for p in &mut manifold.points {
        if let Some(q) = previous.iter().find(|q| q.id == p.id) {
            p.normal_impulse = q.normal_impulse;
            p.tangent_impulse = q.tangent_impulse;
            any_persisted = true;
        } else {
            all_persisted = false;
        }
    }
    if !any_persisted {
        manifold.twist_impulse = T::zero();
    }
    // The last answer's error is at most its certified bracket `w` (its normal's gap `w +
    // 2 δ`): within `6 δ`, it stays within `8 δ` while B moves by `(6 δ − w) / 2`, at least
    // `δ` (the module doc).
    let bracket = contact.upper_bound - contact.lower_bound;
    let tight =
        contact.quality == ContactQuality::Converged && bracket <= T::lit(6.0) * still_within;
    if let Some(last) = &mut state.last {
        last.stands = tight && all_persisted && manifold.points.len() == previous.len();
        last.still_eighths = still_eighths(bracket, still_within);
    }
    outcome
}

/// The answer of a certified shortcut: the last full computation's manifold as it stands
/// ([`keep_last_manifold`]), for `Still` with each point's distance the separation of its two
/// ends along the kept normal at `pos12` (the module doc) — and for `Unchanged` too where a
/// `Still` rewrote them since ([`LastComputation::distances_moved`]): back at the computation's
/// own pose, they are computed for it again (its own, up to rounding) — and its quality; its
/// lower bound less `moved`, how far B may have moved since (rounding included). `written`:
/// the distances are this pose's already ([`verified_still`] wrote them).
fn reused<T: Real>(
    last: &LastComputation<T>,
    (reuse, moved, written): (Reuse, T, bool),
    pos12: &Isometry<T>,
    manifold: &mut ContactManifold<T>,
) -> PairOutcome<T> {
    keep_last_manifold(reuse, manifold);
    let stale = reuse == Reuse::Still || (reuse == Reuse::Unchanged && last.distances_moved);
    if stale && !written {
        let n = manifold.local_normal1.into_inner();
        let (n2, along) = (
            pos12.rotation.inverse_transform_vector(&n),
            pos12.translation.vector.dot(&n),
        );
        for p in &mut manifold.points {
            p.dist = standing_distance(p, &n, &n2, along);
        }
    }
    // The answer is the last computation's, and so is its quality.
    PairOutcome {
        reuse,
        lower_bound: last.lower_bound - moved,
        quality: last.quality,
        ..PairOutcome::default()
    }
}

/// A standing point's distance at a pose: the separation of its two ends along the kept
/// normal `n` (A's frame), `(R b + t − a) · n = b · n₂ + t · n − a · n` with `n₂ = R⁻¹ n` and
/// `along = t · n` (the normal turned once per manifold, not per point).
fn standing_distance<T: Real>(p: &ContactPoint<T>, n: &Vector<T>, n2: &Vector<T>, along: T) -> T {
    p.local_point2.coords.dot(n2) + along - p.local_point1.coords.dot(n)
}

/// The manifold of a certified shortcut: the last full computation's as it stands, every
/// point persisted (`Unchanged`, `Still`), or none (`Apart`).
pub(crate) fn keep_last_manifold<T: Real>(reuse: Reuse, manifold: &mut ContactManifold<T>) {
    if reuse == Reuse::Apart {
        manifold.points.clear();
    }
    for p in &mut manifold.points {
        p.persisted = true;
    }
}

/// The shortcut the last full computation certifies at `pos12`, if any (see the module doc),
/// with how far B may have moved since (the bound `m`, rounded up; 0 when unchanged).
/// `with_points`: the manifold still holds that computation's points (one the caller emptied
/// is computed again rather than stand). `reach1`: `ρ_A`, asked for only where the bound in
/// A's frame did not certify; `renewal_frames`: the pair's `K` ([`renewal_frames`]), asked for
/// only where a standing manifold moved past its allowance.
fn certified_reuse<T: Real>(
    last: &LastComputation<T>,
    pos12: &Isometry<T>,
    prediction: T,
    with_points: bool,
    reach1: impl FnOnce() -> T,
    renewal_frames: impl Fn() -> u8,
) -> Option<Shortcut<T>> {
    if bitwise_equal(pos12, &last.pos12) {
        return Some(Shortcut::Certified(Reuse::Unchanged, T::zero()));
    }
    let apart = last.lower_bound > prediction;
    if !(apart || (last.stands && with_points)) {
        return None;
    }
    // A state from outside may hold any value: never more than the derivation allows.
    let eighths = last.still_eighths.min(MOST_EIGHTHS);
    let allowance = last.still_within * T::lit(f64::from(eighths) / 8.0);
    let verify_within = last.still_within * T::lit(VERIFIED_DELTAS);
    // The allowance is at most `3 δ`: a standing manifold is looked at up to `8 δ`.
    let (reuse, holds) = if apart {
        (Reuse::Apart, last.lower_bound - prediction)
    } else {
        (Reuse::Still, verify_within)
    };
    // `m`, rounded up, certifies where `L − m > prediction` (apart) or `m ≤ allowance`, and
    // leaves a standing manifold to be verified where `m ≤ 8 δ`; NaN never does either.
    let certifies = |bound: T| {
        if apart {
            (last.lower_bound - bound > prediction).then_some(Shortcut::Certified(reuse, bound))
        } else if bound <= allowance {
            Some(Shortcut::Certified(reuse, bound))
        } else if bound <= verify_within {
            Some(
                match verification_pays(last, bound, allowance, renewal_frames()) {
                    Some(renewal) => Shortcut::Verify(bound, renewal),
                    None => Shortcut::Recompute,
                },
            )
        } else {
            None
        }
    };
    let (t, t0) = (&pos12.translation.vector, &last.pos12.translation.vector);
    let chord = || {
        let half_sine = (pos12.rotation * last.pos12.rotation.inverse())
            .imag()
            .norm();
        half_sine + half_sine
    };
    let sixteen_eps = T::lit(16.0) * T::TOLERANCES.epsilon;
    // B's points in A's frame. Most contacts that moved at all moved by more than the
    // allowance: out before the turn.
    let shift2 = (t - t0).norm_squared();
    if shift2 <= holds * holds {
        let shift = Float::sqrt(shift2);
        let moved = shift + chord() * last.reach2;
        let rounding = if apart { t.norm() + t0.norm() } else { shift } + last.reach2;
        let bound = moved + sixteen_eps * rounding;
        if let Some(shortcut) = certifies(bound) {
            return Some(shortcut);
        }
    }
    // A's points in B's frame, where A reaches less far: the distance's bound alone (the
    // module doc), so for `Apart` alone.
    if !apart {
        return None;
    }
    let reach1 = reach1();
    if !(reach1 < last.reach2) {
        return None;
    }
    let shift = (pos12.rotation.inverse_transform_vector(t)
        - last.pos12.rotation.inverse_transform_vector(t0))
    .norm();
    if !(shift <= holds) {
        return None;
    }
    let bound = shift + chord() * reach1 + sixteen_eps * (t.norm() + t0.norm() + reach1);
    certifies(bound)
}

/// What the last full computation allows at this pose (see [`certified_reuse`]).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Shortcut<T: Real> {
    /// This shortcut, with how far B may have moved since (rounded up).
    Certified(Reuse, T),
    /// `Still` if [`verified_still`] holds at this pose: B moved by at most this much (rounded
    /// up), past the allowance but within [`VERIFIED_DELTAS`] `δ`; with the renewal the last
    /// computation records from this frame on ([`verification_pays`]).
    Verify(T, Renewal),
    /// A full computation where a verification would be possible but does not pay
    /// ([`verification_pays`]).
    Recompute,
}

/// Whether verifying a standing manifold pays over computing it again, B having moved by
/// `bound` (past `allowance`, within the verified range) since the last full computation,
/// `last.reused_frames + 1` frames ago (the module doc, *verify or compute again*): where B
/// drifts faster than `allowance / k` a frame, or where the last computation was chosen over a
/// verification and its allowance lasted fewer than `k` frames (`k`: [`renewal_frames`]).
/// Returns the renewal the last computation records if it is verified (`Verified` from the
/// short-lived case on, else as it was), `None` where it is computed again.
fn verification_pays<T: Real>(
    last: &LastComputation<T>,
    bound: T,
    allowance: T,
    k: u8,
) -> Option<Renewal> {
    match last.renewal {
        Renewal::Verified => Some(Renewal::Verified),
        Renewal::Chosen if last.reused_frames < k => Some(Renewal::Verified),
        renewal => {
            let frames = T::lit(f64::from(last.reused_frames) + 1.0);
            (frames * allowance < bound * T::lit(f64::from(k))).then_some(renewal)
        }
    }
}

/// How many verified frames a full computation of the pair costs, about: `K = F / (V − c)` of
/// the module doc's *verify or compute again*. 16 for two boxes (the replayed pyramid's
/// count, swept over 8 to 64); 64 for any other pair — a curved or hull pair's full
/// computation costs about five times a box pair's, its verification about as much (the
/// replayed mixed pile; docs/performance.md, stop 53).
fn renewal_frames<T: Real>(a: &Shape<T>, b: &Shape<T>) -> u8 {
    if matches!((a, b), (Shape::Cuboid(_), Shape::Cuboid(_))) {
        16
    } else {
        64
    }
}

/// How far (in `δ`) B may move from the last full computation while a standing manifold is
/// verified at each pose ([`verified_still`], the module doc): past the allowance of at most
/// `3 δ`, up to `8 δ`, within which the points, kept where they were on each shape, stay within
/// `8 δ` of where a contact of the moved shapes would put them.
const VERIFIED_DELTAS: f64 = 8.0;

/// Whether the standing manifold of `last` answers at `input.pos12` (B moved by at most
/// `moved` since, rounded up), measured at this pose (the module doc, *verified*): the support
/// gap of the two shapes along the kept normal, `g` (a certified lower bound on the signed
/// distance: rounded down), is within `8 δ` of both the last certified upper bound plus
/// `moved` (so of the distance) and of the deepest point's separation along the normal (so that
/// point's distance is within `8 δ` of the distance too); where the last upper bound is too
/// loose, the support points' depth inside the other shape stands for it. `near`: the
/// supporting features of the last full computation ([`ManifoldHistory::features`]), where a
/// hull's support search starts ([`hull_start`]). A manifold it verifies gets the standing
/// distances at this pose, which the check computed (`reused` need not again); one it does not
/// is left as it was.
fn verified_still<T: Real>(
    input: &PairInput<'_, T>,
    (last, near): (&LastComputation<T>, Option<(FeatureId, FeatureId)>),
    manifold: &mut ContactManifold<T>,
    moved: T,
) -> bool {
    let n = manifold.local_normal1;
    let (rotation, t) = (&input.pos12.rotation, &input.pos12.translation.vector);
    // The normal in B's frame; B's support along `−n` is its point nearest A along `n`.
    let n2 = rotation.inverse_transform_vector(&n);
    let (near1, near2) = near.unzip();
    let a = match hull_start(input.shape1, near1) {
        Some((hull, start)) => hull.local_support_vertex(&n, start).point,
        None => input.shape1.local_support_point_toward(&n),
    };
    let b = match hull_start(input.shape2, near2) {
        Some((hull, start)) => hull.local_support_vertex(&-n2, start).point,
        None => input.shape2.local_support_point(&-n2),
    };
    let along = t.dot(&n);
    // Each dot product's rounding is a few ε of `Σ |xᵢ nᵢ|`; `n₂`'s is a few ε, a few ε of
    // `|b|` in `b · n₂`; a support point is off its maximum by a few ε of its distance from
    // the origin, except a box's, its corner exactly (`support_magnitude`).
    let rounding = T::lit(16.0)
        * T::TOLERANCES.epsilon
        * (support_magnitude(input.shape1, &a, &n) + b.coords.norm() + abs_dot(t, &n));
    let gap = b.coords.dot(&n2) + along - a.coords.dot(&n) - rounding;
    let distances: ArrayVec<T, MAX_MANIFOLD_POINTS> = manifold
        .points
        .iter()
        .map(|p| standing_distance(p, &n, &n2, along))
        .collect();
    let deepest = distances.iter().copied().fold(T::infinity(), Float::min);
    let delta = last.still_within;
    // The last bracket, at most: `(24 − e) δ / 4` for `e` eighths past 8 (`still_eighths`
    // rounds `24 − 4 w / δ` down), `6 δ` at 8 (a standing answer's bracket is within `6 δ`).
    let eighths = last.still_eighths.min(MOST_EIGHTHS);
    let bracket = if eighths > 8 {
        T::lit(f64::from(MOST_EIGHTHS - eighths) / 4.0) * delta
    } else {
        T::lit(6.0) * delta
    };
    let upper = last.lower_bound + bracket + moved;
    let within = T::lit(VERIFIED_DELTAS) * delta;
    // The fresher upper bound where the last one is too loose: how deep either support point
    // lies inside the other shape, rounded down by its transform's rounding (the module doc).
    let fresher_bound_verifies = || {
        let depth_in = |shape: &Shape<T>,
                        from: &Point<T>,
                        to: fn(&Isometry<T>, &Point<T>) -> Point<T>| {
            if scans_for_depth(shape) {
                return T::neg_infinity();
            }
            let rounding = T::lit(16.0) * T::TOLERANCES.epsilon * (from.coords.norm() + t.norm());
            shape.interior_depth(&to(&input.pos12, from)) - rounding
        };
        let b_in_1 = depth_in(input.shape1, &b, |p, x| p.transform_point(x));
        let a_in_2 = depth_in(input.shape2, &a, |p, x| p.inverse_transform_point(x));
        let depth = Float::max(b_in_1, a_in_2);
        depth > T::zero() && -depth - gap <= within
    };
    // NaN never verifies.
    let verified = Float::max(upper, deepest) - gap <= within
        || (deepest - gap <= within && fresher_bound_verifies());
    if verified {
        for (p, d) in manifold.points.iter_mut().zip(distances) {
            p.dist = d;
        }
    }
    verified
}

/// A hull and the vertex its support search along the standing normal starts from: a vertex
/// of `near`, its supporting feature at the last full computation — along that normal, on or
/// next to the support vertex, where a search without a start reads every vertex of a hull of
/// up to 64 ([`SCAN_UNHINTED_MAX_VERTICES`](nphase_shapes::SCAN_UNHINTED_MAX_VERTICES);
/// docs/performance.md, stop 55). `None` for any other shape (a rounded hull's support is its
/// core's and the radius along the direction, left as it is) or a feature the hull does not
/// have.
fn hull_start<T: Real>(
    shape: &Shape<T>,
    near: Option<FeatureId>,
) -> Option<(&ConvexPolyhedron<T>, VertexId)> {
    match shape {
        Shape::Convex(hull) => Some((hull, hull.feature_vertex(near?)?)),
        _ => None,
    }
}

/// The magnitude that the term `a · n` of [`verified_still`]'s support gap is rounded
/// relative to, `a` being `shape`'s support point along `n` (both in `shape`'s frame): for a
/// box, whose support point is its corner exactly, the dot product's own, `Σ |aᵢ nᵢ|` — a
/// floor's far corner under a normal along its face normal counts for the floor's half
/// height, not for its distance from the floor's origin; for any other shape, whose support
/// point is off its maximum by a few ε of it, `|a|`.
fn support_magnitude<T: Real>(shape: &Shape<T>, a: &Point<T>, n: &Vector<T>) -> T {
    match shape {
        Shape::Cuboid(_) => abs_dot(&a.coords, n),
        _ => a.coords.norm(),
    }
}

/// `Σ |xᵢ yᵢ|`: the magnitude a dot product `x · y` is rounded relative to.
fn abs_dot<T: Real>(x: &Vector<T>, y: &Vector<T>) -> T {
    x.abs().dot(&y.abs())
}

/// Whether `shape`'s interior depth is a scan (a hull's triangles, rounded or not) rather than
/// a closed form: `verified_still` does not read it there — the scan cost more than the full
/// computations it saved (`hulls/slow` of the coherence bench: +34 % instructions a
/// pair-frame, docs/performance.md, stop 51).
fn scans_for_depth<T: Real>(shape: &Shape<T>) -> bool {
    match shape {
        Shape::Convex(_) => true,
        Shape::Round(r) => scans_for_depth(r.inner()),
        _ => false,
    }
}

/// The allowance of `Still` after an answer whose certified bracket is `bracket`, in eighths
/// of `delta` (`δ`): `(6 δ − w) / 2` rounded down, within 8 (`δ`, where `w ≥ 4 δ`) and
/// [`MOST_EIGHTHS`] (`3 δ`); the module doc derives it. NaN gives 8.
fn still_eighths<T: Real>(bracket: T, delta: T) -> u8 {
    let most = T::lit(f64::from(MOST_EIGHTHS));
    let eighths = most - T::lit(4.0) * bracket / delta;
    let eighths = Float::floor(Float::min(Float::max(eighths, T::lit(8.0)), most));
    eighths.to_u8().unwrap_or(8)
}

/// The largest allowance of `Still`, in eighths of `δ`: `3 δ`, for an answer exact to rounding.
const MOST_EIGHTHS: u8 = 24;

/// Whether two poses are the same bit for bit (`==` alone does not tell −0 from +0). Without
/// branches: most pairs and colliders at rest ask it.
pub(crate) fn bitwise_equal<T: Real>(p: &Isometry<T>, q: &Isometry<T>) -> bool {
    let differ = |a: &[T], b: &[T]| {
        a.iter()
            .zip(b)
            .fold(0, |d, (x, y)| d | (x.bits() ^ y.bits()))
    };
    differ(
        p.translation.vector.as_slice(),
        q.translation.vector.as_slice(),
    ) | differ(p.rotation.coords.as_slice(), q.rotation.coords.as_slice())
        == 0
}

/// The half-diagonal of `shape`'s local bounding box (docs/accuracy.md's size of a shape).
fn half_diagonal<T: Real>(shape: &Shape<T>) -> T {
    shape.local_aabb().half_diagonal()
}

/// Last frame's tangent `t` projected onto the plane of the new normal `n` (A's frame), so the
/// tangent impulses keep their directions while the normal turns; a new basis
/// ([`nphase_math::orthonormal_basis`]) when `t` is nearly along `n` (a normal that turned by
/// more than 60°, or a new pair whose default tangent happens to lie along it).
fn carried_tangent<T: Real>(n: &UnitVector<T>, t: &UnitVector<T>) -> UnitVector<T> {
    let projected: Vector<T> = t.into_inner() - n.into_inner() * n.dot(t);
    let len = projected.norm();
    if len > T::lit(0.5) && Float::is_finite(len) {
        UnitVector::new_unchecked(projected / len)
    } else {
        UnitVector::new_unchecked(nphase_math::orthonormal_basis(n).0)
    }
}

#[cfg(test)]
mod tests {
    use nphase_math::nalgebra::{Quaternion, Translation3, UnitQuaternion};
    use nphase_math::{Isometry, Rotation, Vector};

    use nphase_shapes::{Ball, Cuboid, Shape};

    use super::{
        LastComputation, PairInput, PairState, PairWorkspace, Renewal, Shortcut, bitwise_equal,
        certified_reuse, renewal_frames, still_eighths, update_manifold,
    };
    use crate::{ContactManifold, ContactQuality, Reuse};

    /// A contact 1e-3 deep whose manifold stands at `p0`, `δ` = 1e-6: B reaching `reach2`
    /// from its origin, an allowance of `eighths` eighths of `δ`, just computed.
    fn standing(p0: Isometry<f64>, reach2: f64, eighths: u8) -> LastComputation<f64> {
        LastComputation {
            pos12: p0,
            lower_bound: -1e-3,
            reach2,
            still_within: 1e-6,
            quality: ContactQuality::Converged,
            stands: true,
            still_eighths: eighths,
            distances_moved: false,
            reused_frames: 0,
            renewal: Renewal::Needed,
        }
    }

    /// A shortcut as the tests compare it: certified (`Is(reuse)`), `Still` if verified at
    /// the pose (`Verify`, with the renewal it records: a full computation unless verified),
    /// or a full computation chosen over a verification (`Recompute`).
    #[derive(Clone, Copy, Debug, PartialEq)]
    enum Kind {
        Is(Reuse),
        Verify(Renewal),
        Recompute,
    }
    use Kind::{Is, Recompute, Verify};

    fn kind(shortcut: Option<Shortcut<f64>>) -> Option<Kind> {
        shortcut.map(|s| match s {
            Shortcut::Certified(reuse, _) => Is(reuse),
            Shortcut::Verify(_, renewal) => Verify(renewal),
            Shortcut::Recompute => Recompute,
        })
    }

    /// `Still` holds up to its allowance, and past it up to `8 δ` if verified at the pose, not
    /// further, for a translation and for a turn (whose displacement is the chord at B's reach,
    /// however small B's origin moves), and only for a manifold that stands and still has its
    /// points; the bound comes back with it.
    #[test]
    fn still_holds_within_its_allowance_and_where_verified_past_it() {
        let p0 = Isometry::from_parts(
            Translation3::new(0.3, 1.2, -0.4),
            UnitQuaternion::from_scaled_axis(Vector::new(0.2, -0.5, 0.1)),
        );
        let last = standing(p0, 4.0, 8);
        let shifted = |d: f64| {
            let mut p = p0;
            p.translation.vector.x += d;
            p
        };
        let turned = |angle: f64| {
            let mut p = p0;
            p.rotation =
                UnitQuaternion::from_scaled_axis(Vector::new(0.0, angle, 0.0)) * p.rotation;
            p
        };
        let still = |p: &Isometry<f64>, last: &LastComputation<f64>| {
            kind(certified_reuse(last, p, 0.01, true, || 100.0, || 16))
        };
        let verify = Some(Verify(Renewal::Needed));
        assert_eq!(still(&shifted(0.99e-6), &last), Some(Is(Reuse::Still)));
        assert_eq!(still(&shifted(1.01e-6), &last), verify);
        assert_eq!(still(&shifted(7.99e-6), &last), verify);
        assert_eq!(still(&shifted(8.01e-6), &last), None);
        // A turn by θ moves B's farthest point (ρ = 4) by 2 sin(θ/2) ρ ≈ 4 θ.
        assert_eq!(still(&turned(0.24e-6), &last), Some(Is(Reuse::Still)));
        assert_eq!(still(&turned(0.26e-6), &last), verify);
        assert_eq!(still(&turned(1.99e-6), &last), verify);
        assert_eq!(still(&turned(2.01e-6), &last), None);
        for (d, shortcut) in [(0.5e-6, Is(Reuse::Still)), (5e-6, Verify(Renewal::Needed))] {
            let bound = match certified_reuse(&last, &shifted(d), 0.01, true, || 100.0, || 16) {
                Some(Shortcut::Certified(_, bound) | Shortcut::Verify(bound, _)) => bound,
                Some(Shortcut::Recompute) | None => panic!("no shortcut at {d}"),
            };
            assert_eq!(still(&shifted(d), &last), Some(shortcut));
            assert!((d..1.2 * d).contains(&bound), "{bound}");
        }
        // The pair's `K` is asked for only past the allowance.
        let k_unasked = |p: &Isometry<f64>| {
            kind(certified_reuse(
                &last,
                p,
                0.01,
                true,
                || 100.0,
                || -> u8 { unreachable!("K asked within the allowance") },
            ))
        };
        assert_eq!(k_unasked(&shifted(0.99e-6)), Some(Is(Reuse::Still)));
        assert_eq!(k_unasked(&p0), Some(Is(Reuse::Unchanged)));
        // A manifold the caller emptied does not stand.
        assert_eq!(
            certified_reuse(&last, &shifted(1e-9), 0.01, false, || 100.0, || 16),
            None
        );
        let fallen = LastComputation {
            stands: false,
            ..last
        };
        assert_eq!(still(&shifted(1e-9), &fallen), None);
        assert_eq!(still(&p0, &fallen), Some(Is(Reuse::Unchanged)));
        // A non-finite pose certifies nothing.
        assert_eq!(still(&shifted(f64::NAN), &last), None);
        // An answer exact to rounding stands for three times as far (24 eighths of `δ`), and
        // a state that claims more is read as that.
        for eighths in [24, 255] {
            let exact = LastComputation {
                still_eighths: eighths,
                ..last
            };
            assert_eq!(still(&shifted(2.99e-6), &exact), Some(Is(Reuse::Still)));
            assert_eq!(still(&shifted(3.01e-6), &exact), verify);
            assert_eq!(still(&turned(0.74e-6), &exact), Some(Is(Reuse::Still)));
            assert_eq!(still(&turned(0.76e-6), &exact), verify);
            assert_eq!(still(&shifted(8.01e-6), &exact), None);
        }
    }

    /// Past the allowance a standing manifold is verified while B drifts faster than the
    /// allowance over `K` frames (16 here), and computed again where it drifts slower (a
    /// pair that moved and came to rest), unless the last computation was itself chosen over a
    /// verification and its allowance lasted fewer than `K` frames: then to the end
    /// of the verified range.
    #[test]
    fn a_standing_manifold_is_verified_where_verifying_pays() {
        let p0 = Isometry::translation(0.3, 1.2, -0.4);
        // `δ` 1e-6, an allowance of `δ`.
        let last = standing(p0, 4.0, 8);
        let shifted = |d: f64| Isometry::translation(0.3 + d, 1.2, -0.4);
        let choice = |d: f64, frames: u8, renewal: Renewal| {
            let last = LastComputation {
                reused_frames: frames,
                renewal,
                ..last
            };
            kind(certified_reuse(
                &last,
                &shifted(d),
                0.01,
                true,
                || 100.0,
                || 16,
            ))
        };
        let (needed, chosen, verified) = (Renewal::Needed, Renewal::Chosen, Renewal::Verified);
        let verify = |renewal| Some(Verify(renewal));
        let recompute = Some(Recompute);
        let cases = [
            // 2 δ over `k + 1` frames: verified while `(k + 1) δ < 16 · 2 δ`, for k up to 30.
            (2e-6, 0, needed, verify(needed)),
            (2e-6, 30, needed, verify(needed)),
            (2.01e-6, 31, needed, verify(needed)),
            (1.99e-6, 31, needed, recompute),
            (2e-6, 255, needed, recompute),
            // Further out, longer.
            (7e-6, 110, needed, verify(needed)),
            (7e-6, 112, needed, recompute),
            // Within the allowance and past the verified range, the choice is not asked.
            (0.9e-6, 255, needed, Some(Is(Reuse::Still))),
            (8.1e-6, 0, needed, None),
            // A chosen computation: as a needed one once its allowance lasted 16 frames (and
            // still `Chosen`), verified to the end of the range if it did not (and from then
            // on `Verified`); once verified, always.
            (2e-6, 15, chosen, verify(verified)),
            (2e-6, 16, chosen, verify(chosen)),
            (2e-6, 40, chosen, recompute),
            (1.5e-6, 255, verified, verify(verified)),
            (8.1e-6, 0, verified, None),
        ];
        for (d, frames, renewal, expected) in cases {
            let got = choice(d, frames, renewal);
            assert_eq!(got, expected, "{d} after {frames} frames, {renewal:?}");
        }
    }

    /// A pair's life: a cube resting 1 mm deep on a box, still for 100 frames and then moved
    /// sideways past its allowance, is computed again (slow drift: the choice is
    /// `Recompute`, remembered as `Chosen`); moved as far again at once, the new computation's
    /// allowance lasted no frame, so it is verified (`Verified`) and stays verified where a
    /// computation that was needed would have been made again.
    #[test]
    fn a_computation_chosen_over_a_verification_is_remembered() {
        let ground = Shape::Cuboid(Cuboid::new(Vector::new(2.0, 0.5, 2.0)).expect("valid"));
        let cube = Shape::Cuboid(Cuboid::new(Vector::new(0.5, 0.5, 0.5)).expect("valid"));
        let (mut state, mut manifold) = (PairState::new(), ContactManifold::default());
        let mut workspace = PairWorkspace::new();
        let mut step = |x: f64| {
            let input = PairInput {
                shape1: &ground,
                shape2: &cube,
                pos12: Isometry::translation(x, 0.999, 0.0),
                prediction: 0.01,
            };
            let outcome = update_manifold(&input, &mut state, &mut manifold, &mut workspace);
            let last = state.last.expect("a contact");
            (outcome.reuse, last.renewal, last.still_within)
        };
        assert_eq!(step(0.0).0, Reuse::Computed);
        // The second computation stands (the same ids as the first's).
        let (reuse, renewal, delta) = step(1e-3);
        assert_eq!((reuse, renewal), (Reuse::Computed, Renewal::Needed));
        for _ in 0..100 {
            assert_eq!(step(1e-3), (Reuse::Unchanged, Renewal::Needed, delta));
        }
        // 4 δ in 101 frames: slower than any allowance (at most 3 δ) over 16 frames.
        let x = 1e-3 + 4.0 * delta;
        assert_eq!(step(x), (Reuse::Computed, Renewal::Chosen, delta));
        // 4 δ at once: verified, and from then on, at a pose still 4 δ from it.
        let far = x + 4.0 * delta;
        assert_eq!(step(far), (Reuse::Still, Renewal::Verified, delta));
        for frame in 0..40 {
            let wobble = if frame % 2 == 0 { 0.0 } else { 0.5 * delta };
            assert_eq!(step(far + wobble), (Reuse::Still, Renewal::Verified, delta));
        }
        // Two boxes weigh a full computation as 16 verified frames, any other pair as 64.
        let ball = Shape::Ball(Ball::new(0.5).expect("valid"));
        assert_eq!(renewal_frames(&ground, &cube), 16);
        assert_eq!(renewal_frames(&ground, &ball), 64);
        assert_eq!(renewal_frames(&ball, &cube), 64);
    }

    /// In B's frame: a small A (reach 0.5) over a large B (reach 50) 3 from B's origin, B
    /// fixed and A turning about its own origin or moving. In A's frame B's far corners swing
    /// through the turn times 50 (and B's origin through 3); in B's, A's points move by the
    /// turn times 0.5 and A's own translation. `Apart` holds up to its margin there, and not
    /// past it; not for an A that reaches as far as B. `Still` is measured in A's frame
    /// alone (the kept normal is fixed there).
    #[test]
    fn a_small_a_turning_on_a_large_b_is_measured_in_b_s_frame() {
        // B at the origin of the world, A at `c` turned by `r`: pos12 = A⁻¹ B.
        let c = Vector::new(3.0, 0.6, 0.0);
        let r0 = UnitQuaternion::from_scaled_axis(Vector::new(0.1, 0.2, -0.3));
        let pose = |c: Vector<f64>, r: UnitQuaternion<f64>| {
            Isometry::from_parts(Translation3::from(c), r).inverse()
        };
        let p0 = pose(c, r0);
        let last = standing(p0, 50.0, 24);
        let turned = |angle: f64| {
            pose(
                c,
                UnitQuaternion::from_scaled_axis(Vector::new(0.0, 0.0, angle)) * r0,
            )
        };
        let moved = |d: f64| pose(c + Vector::new(0.0, 0.0, d), r0);
        let reuse = |p: &Isometry<f64>, last: &LastComputation<f64>, reach1: f64| {
            kind(certified_reuse(last, p, 0.01, true, || reach1, || 16))
        };
        // In A's frame a turn moves B's origin by 3 θ and its corners by 50 θ: within 3e-6
        // for θ up to ~5.7e-8 (8e-6, to be verified, up to ~1.5e-7); in B's frame it would be
        // 0.5 θ, which `Still` does not use.
        let verify = Some(Verify(Renewal::Needed));
        assert_eq!(reuse(&turned(5e-8), &last, 0.5), Some(Is(Reuse::Still)));
        assert_eq!(reuse(&turned(7e-8), &last, 0.5), verify);
        assert_eq!(reuse(&turned(1.5e-7), &last, 0.5), verify);
        assert_eq!(reuse(&turned(1.7e-7), &last, 0.5), None);
        // A translation of A moves B's points by as much in either frame.
        assert_eq!(reuse(&moved(2.9e-6), &last, 0.5), Some(Is(Reuse::Still)));
        assert_eq!(reuse(&moved(3.1e-6), &last, 0.5), verify);
        assert_eq!(reuse(&moved(8.1e-6), &last, 0.5), None);
        // Apart by 0.03 with a prediction of 0.01: 0.02 to spend, a turn of up to 0.04 rad.
        let apart = LastComputation {
            lower_bound: 0.03,
            stands: false,
            ..last
        };
        assert_eq!(reuse(&turned(0.039), &apart, 0.5), Some(Is(Reuse::Apart)));
        assert_eq!(reuse(&turned(0.041), &apart, 0.5), None);
        assert_eq!(reuse(&turned(0.039), &apart, 60.0), None);
    }

    /// The allowance `(6 δ − w) / 2` in eighths of `δ`, rounded down: `δ` from a bracket of
    /// `4 δ` to the widest that stands (`6 δ`) and beyond, `3 δ` at none; a NaN bracket gives
    /// the narrowest.
    #[test]
    fn the_allowance_shrinks_with_the_bracket() {
        let delta = 1e-5f32;
        let eighths = |w: f32| still_eighths(w, delta);
        assert_eq!(eighths(0.0), 24);
        assert_eq!(eighths(0.01 * delta), 23);
        assert_eq!(eighths(delta), 20);
        assert_eq!(eighths(2.0 * delta), 16);
        assert_eq!(eighths(4.0 * delta), 8);
        assert_eq!(eighths(6.0 * delta), 8);
        assert_eq!(eighths(60.0 * delta), 8);
        assert_eq!(eighths(f32::NAN), 8);
        assert_eq!(still_eighths(0.0, 0.0f32), 8);
        // Rounded down: never more than the derivation allows.
        for k in 0..=600 {
            let w = delta * k as f32 / 100.0;
            let allowance = delta * f32::from(eighths(w)) / 8.0;
            let within = if w <= 4.0 * delta {
                6.0
            } else {
                w / delta + 2.0
            };
            assert!(
                w + 2.0 * allowance <= within * delta * (1.0 + 1e-6),
                "w = {w}"
            );
        }
    }

    /// Every one of the seven components counts, by its bits: one ulp, or −0 for +0, in any
    /// of them makes two poses differ.
    #[test]
    fn bitwise_equal_sees_every_component_and_the_sign_of_zero() {
        let parts = [0.5f32, -0.25, 0.0, 0.6, 0.0, -0.8, 0.0];
        let pose = |c: [f32; 7]| {
            Isometry::from_parts(
                Translation3::new(c[0], c[1], c[2]),
                Rotation::new_unchecked(Quaternion::new(c[6], c[3], c[4], c[5])),
            )
        };
        let p = pose(parts);
        assert!(bitwise_equal(&p, &pose(parts)));
        for k in 0..7 {
            for changed in [f32::from_bits(parts[k].to_bits() + 1), -parts[k]] {
                let mut c = parts;
                c[k] = changed;
                assert!(
                    !bitwise_equal(&p, &pose(c)),
                    "component {k} changed to {changed}"
                );
            }
        }
    }
}
