//! A certified margin that lets the next frames of a penetrating polytope pair skip the full
//! separating-axis test: only the features that may still win are tested again.
//!
//! # Derivation
//! Notation of the parent module: A at the origin, B at `pos12 = P`; `S_P(u)` the separation
//! along the unit axis `u` (A's frame); the test's answer is the best feature's separation,
//! which for overlapping cores is `max_u S_P(u) = −depth`. Let a full test at `P₀` find the
//! winner `w` with separation `s*` (≤ 0, the cores overlap) and `κ > 0` a margin.
//!
//! **Bounds at `P₀` for every feature.** The full test holds, for every face of A, its exact
//! separation (evaluated) or an upper bound (the height of one point `b₀` of B over the face);
//! likewise for the faces of B (with a point `a₀` of A). For an edge `e` of A, every axis on
//! its Gauss arc has `S_{P₀}(u) ≤ UB_e`, the larger of its two faces' bounds with `b₀` (the
//! linear bound of the parent module, valid where it is ≤ 0; with the arc's middle for a half
//! circle). Every edge pair `(e, g)` whose arcs cross, now or at any later pose, has its axis on
//! `e`'s arc, so its separation at `P₀`'s geometry is at most `UB_e`, and by the same argument
//! in B's frame at most `UB_g` (B's edge `g`, bounds with `a₀`). A feature is *hot* when its
//! bound reaches `s* − κ`: a face by its value, an edge pair when both edges are hot. Every
//! other feature — including edge pairs whose arcs do not cross at `P₀` but may later — is
//! below `s* − κ` at `P₀`.
//!
//! **Motion.** From `P₀ = (R₀, t₀)` to `P = (R, t)`, with θ the angle of `R R₀⁻¹`, a point of
//! B (within `ρ_B` of B's origin) moves in A's frame by at most
//! `m_B = |t − t₀| + 2 sin(θ/2) ρ_B` (the certified reuse of `pair.rs`), and a point of A
//! (within `ρ_A` of A's origin) moves in B's frame by at most
//! `m_A = |t − t₀| + 2 sin(θ/2) (ρ_A + |t₀|)`
//! (`R⁻¹(y − t) − R₀⁻¹(y − t₀)` has the length of `(y − t₀) − R R₀⁻¹ (y − t₀) − (t − t₀)`).
//! Along an axis fixed in A's frame (a face of A, an axis on an edge of A's arc) the
//! separation changes by at most `m_B`; along one fixed in B's frame (a face of B, an axis on
//! B's arc) by at most `m_A`. So at `P` every feature that is not hot separates by less than
//! `L = s* − κ + Δ`, `Δ = max(m_A, m_B)` (rounded up as in `pair.rs`).
//!
//! **The certificate.** At `P` the hot features are tested exactly, with the full test's rules
//! (a face of B replaces the best face of A when better by more than the tie, an edge pair the
//! best face when better by more than the tie). If their winner separates by `V ≤ 0` and
//! `V > L + tie`, it is the full test's winner: every other feature is below `V − tie`, so it
//! neither changes the best face of either shape nor passes a threshold that the winner passes,
//! and none is beyond the prediction. Otherwise, or when `2Δ + tie ≥ κ` (the winner can then
//! no longer be told from the rest: it only ever separates by at least `s* − Δ`), the full test
//! runs and, for a pair still overlapping, makes a new certificate.
//!
//! **Which hot edge pairs are tested.** While the certificate holds, `2Δ < κ`, so the relative
//! rotation since `P₀` moves any unit vector of B by a chord of at most `κ / (2ρ)`, with `ρ`
//! the larger of `ρ_B` and `ρ_A + |t₀|`. The crossing test of two arcs is three sign tests of
//! dot products between a vector of A and one of B; each moves by at most that chord times the
//! vectors' lengths. A hot pair whose test fails at `P₀` by more than that (both products of a
//! test of one sign and farther from 0 than their slack) cannot cross before the certificate
//! expires, and is not tested.
//!
//! # When it is kept
//! Every full test of an overlapping pair could leave a certificate, but collecting the hot
//! features costs a pass over the faces and edges, and a pair that moves by `Δ` a frame keeps a
//! certificate for about `(κ − tie)/(2Δ)` frames. So `κ` is sized to the pair's own motion:
//! [`MARGIN_FRAMES`] frames of the motion bound per frame measured since the last collection
//! (between [`MIN_MARGIN_TIES`] ties and [`MARGIN`] of the size; the largest for a pair's first
//! certificate), which keeps the hot features few for a slow pair. A certificate that served
//! fewer than [`MIN_USES`] frames makes the next [`BACKOFF`] full tests skip the collection,
//! so a fast pair pays for it once in a while, and a resting or slowly moving pair (a stack
//! under solver jitter) tests a handful of features instead of the whole of both shapes.

use nphase_math::{Isometry, Point, Real};
use num_traits::Float;

use super::{Best, Confirm, Edge, Polytope, SatWorkspace, Test};

/// The largest margin `κ`, as a fraction of the sum of the two cores' sizes (a pair's first
/// certificate, and pairs that move fast).
pub(crate) const MARGIN: f64 = 0.02;
/// The margin is this many frames of the pair's motion (the motion bound since its last
/// certificate, per frame): a certificate lasts about half as many frames, and the smaller the
/// margin, the fewer the hot features.
pub(crate) const MARGIN_FRAMES: f64 = 32.0;
/// ... and at least this many ties (below, rounding would leave no room).
pub(crate) const MIN_MARGIN_TIES: f64 = 8.0;
/// A certificate that certified fewer frames than this before it expired ...
pub(crate) const MIN_USES: u16 = 3;
/// ... makes this many of the next full tests skip collecting a new one.
pub(crate) const BACKOFF: u8 = 8;
/// At most this many hot faces, and hot edge pairs, are kept (a certificate that needs more
/// would cost about as much as the full test it saves).
const MAX_HOT_FACES: usize = 48;
const MAX_HOT_EDGE_PAIRS: usize = 256;

/// What a penetrating polytope pair keeps from its last full separating-axis test, for the
/// next frames (see the module doc): the pose and winner's separation then, the margin, the
/// shapes' reaches, and the hot features. Private to the pipeline; it lives in the pair's state
/// ([`PairState::sat_certificate`](crate::PairState::sat_certificate)), allocated once.
#[derive(Clone, Debug, PartialEq)]
pub struct SatCertificate<T: Real> {
    /// Whether it holds a certificate (the buffers stay allocated when it does not).
    valid: bool,
    pos12: Isometry<T>,
    separation: T,
    margin: T,
    /// The largest distance of a point of A's core from A's origin, and of B's from B's.
    reach: [T; 2],
    faces_a: Vec<u16>,
    faces_b: Vec<u16>,
    /// The hot edge pairs whose arcs may cross while the certificate holds (indices into the
    /// two lists), and the edges of A and of B that they name.
    edges_a: Vec<u16>,
    edges_b: Vec<u16>,
    edge_pairs: Vec<(u16, u16)>,
    /// Those edges as the test uses them, A's in A's frame and B's in B's (parallel to
    /// `edges_a` and `edges_b`): a certified frame reads them here, in one place, rather than
    /// from each hull's edge, vertex and plane arrays — with a hull per body, cache misses.
    geometry_a: Vec<Edge<T>>,
    geometry_b: Vec<Edge<T>>,
    /// Frames certified since the last full test.
    uses: u16,
    /// Tests (certified or full) since `pos12` was taken, and whether it was.
    frames: u16,
    posed: bool,
    /// The pair's motion bound per frame when the certificate was made.
    rate: T,
    /// Full tests left that do not collect a certificate.
    backoff: u8,
}

impl<T: Real> SatCertificate<T> {
    /// No certificate yet.
    pub(crate) fn new() -> Self {
        SatCertificate {
            valid: false,
            pos12: Isometry::identity(),
            separation: T::zero(),
            margin: T::zero(),
            reach: [T::zero(); 2],
            faces_a: Vec::new(),
            faces_b: Vec::new(),
            edges_a: Vec::new(),
            edges_b: Vec::new(),
            edge_pairs: Vec::new(),
            geometry_a: Vec::new(),
            geometry_b: Vec::new(),
            uses: 0,
            frames: 0,
            posed: false,
            rate: T::infinity(),
            backoff: 0,
        }
    }

    /// Whether the next full test (at `pos12`) should collect a certificate: not while backing
    /// off after certificates that did not last. Measures the pair's motion per frame since the
    /// last certificate (the next one's margin).
    pub(crate) fn wants_collection(&mut self, pos12: &Isometry<T>) -> bool {
        if self.valid && self.uses < MIN_USES {
            self.backoff = BACKOFF;
        }
        self.rate = if self.posed {
            self.motion(pos12) / T::lit(f64::from(self.frames.max(1)))
        } else {
            T::infinity()
        };
        self.valid = false;
        self.uses = 0;
        if self.backoff > 0 {
            self.backoff -= 1;
            return false;
        }
        true
    }

    /// Counts a test of the pair (the motion per frame is measured over them).
    fn count_frame(&mut self) {
        self.frames = self.frames.saturating_add(1);
    }

    /// How far a point of either shape can have moved relative to the other since the
    /// certificate's pose (see the module doc), rounded up.
    fn motion(&self, pos12: &Isometry<T>) -> T {
        let (t, t0) = (&pos12.translation.vector, &self.pos12.translation.vector);
        let turn = pos12.rotation * self.pos12.rotation.inverse();
        let chord = T::lit(2.0) * turn.imag().norm();
        let shift = (t - t0).norm();
        let [reach_a, reach_b] = self.reach;
        let moved = Float::max(
            shift + chord * reach_b,
            shift + chord * (reach_a + t0.norm()),
        );
        moved + T::lit(16.0) * T::TOLERANCES.epsilon * (t.norm() + t0.norm() + reach_a + reach_b)
    }
}

/// Whether the arcs of `ea` (A's) and `eb` (B's, in A's frame) may cross after B turns by a
/// chord of at most `chord`: [`Test::edge_axis`]'s sign tests, each loosened by how far its
/// dot product can move.
fn may_cross<T: Real>(ea: &Edge<T>, eb: &Edge<T>, chord: T) -> bool {
    let (da, db) = (ea.dir, eb.dir);
    let [a1, a2] = ea.normals;
    let [b1, b2] = eb.normals;
    let (ca1, ca2) = (da.dot(&b1), da.dot(&b2));
    let (cb1, cb2) = (db.dot(&a1), db.dot(&a2));
    let (slack_a, slack_b) = (da.norm() * chord, db.norm() * chord);
    // Two dot products of the same sign, both farther from 0 than their slack, keep it.
    let stays =
        |x: T, sx: T, y: T, sy: T| x * y > T::zero() && Float::abs(x) > sx && Float::abs(y) > sy;
    !(stays(ca1, slack_a, ca2, slack_a)
        || stays(cb1, slack_b, cb2, slack_b)
        || stays(cb1, slack_b, ca1, slack_a))
}

/// Drops the edges of `edges` that no pair names (`slot` picks the pair's index into
/// `edges`), keeping the order, and renumbers the pairs.
/// `renumbered` is scratch space.
fn keep_paired(
    edges: &mut Vec<u16>,
    pairs: &mut [(u16, u16)],
    slot: impl Fn(&mut (u16, u16)) -> &mut u16,
    renumbered: &mut Vec<u16>,
) {
    const UNUSED: u16 = u16::MAX;
    renumbered.clear();
    renumbered.resize(edges.len(), UNUSED);
    for pair in pairs.iter_mut() {
        renumbered[usize::from(*slot(pair))] = 0;
    }
    let mut kept = 0;
    for k in 0..edges.len() {
        if renumbered[k] != UNUSED {
            renumbered[k] = kept as u16;
            edges[kept] = edges[k];
            kept += 1;
        }
    }
    edges.truncate(kept);
    for pair in pairs.iter_mut() {
        let index = slot(pair);
        *index = renumbered[usize::from(*index)];
    }
}

/// The largest distance of a point of `p` from its origin.
fn reach<T: Real>(p: &Polytope<'_, T>) -> T {
    match p {
        Polytope::Cuboid(c) => c.half_extents().norm(),
        Polytope::Hull(h) => h.origin_reach(),
        Polytope::Triangle(t) => t
            .vertices()
            .iter()
            .fold(T::zero(), |r, v| Float::max(r, v.coords.norm())),
    }
}

impl<T: Real> Test<'_, T> {
    /// Fills `cert` after a full test whose winner `best` separates the overlapping cores by
    /// `best.separation ≤ 0`, from the bounds the test left in `ws` (`bounds_*` with the points
    /// `b₀`, `a₀`; `values_*` exact where the face was evaluated). Leaves it invalid when the
    /// hot features are too many (the next full test tries again, with a margin sized to the
    /// motion since this one).
    pub(super) fn collect(
        &self,
        best: &Best<T>,
        ws: &mut SatWorkspace<T>,
        cert: &mut SatCertificate<T>,
    ) {
        let (a, b) = (&self.input.a, &self.input.b);
        // The pose of every collection, kept or not, measures the motion to the next one.
        cert.pos12 = *self.input.pos12;
        cert.reach = [reach(a), reach(b)];
        cert.frames = 0;
        cert.posed = true;
        let [size_a, size_b] = self.input.sizes;
        let margin = Float::max(
            Float::min(
                T::lit(MARGIN_FRAMES) * cert.rate,
                T::lit(MARGIN) * (size_a + size_b),
            ),
            T::lit(MIN_MARGIN_TIES) * self.tie,
        );
        let floor = best.separation - margin;
        let hot_faces = |values: &[T], out: &mut Vec<u16>| {
            out.clear();
            out.extend(
                values
                    .iter()
                    .enumerate()
                    .filter(|(_, v)| **v >= floor)
                    .map(|(i, _)| i as u16),
            );
        };
        hot_faces(&ws.values_a, &mut cert.faces_a);
        hot_faces(&ws.values_b, &mut cert.faces_b);
        if cert.faces_a.len() + cert.faces_b.len() > MAX_HOT_FACES {
            return;
        }
        // An edge's bound on its whole arc: its faces' bounds with one point of the other shape
        // (and the arc's middle for a half circle).
        let hot_edges =
            |p: &Polytope<'_, T>, bounds: &[T], point: &Point<T>, out: &mut Vec<u16>| {
                out.clear();
                for e in 0..p.edge_count() {
                    let [f0, f1] = p.edge_faces(e);
                    let mut bound = Float::max(bounds[f0], bounds[f1]);
                    if p.flat() {
                        let edge = p.edge(e);
                        bound =
                            Float::max(bound, edge.middle_bound(|u| u.dot(&(point - edge.tail))));
                    }
                    if !(bound < floor) {
                        out.push(e as u16);
                    }
                }
            };
        hot_edges(a, &ws.bounds_a, &ws.b0, &mut cert.edges_a);
        hot_edges(b, &ws.bounds_b, &ws.a0_in_b, &mut cert.edges_b);
        // Of the hot edge pairs, those whose arcs may cross while the certificate holds: the
        // relative rotation then moves B's vectors by a chord of at most `κ / (2 ρ)` (the
        // motion bound stays below `κ / 2`), so each dot product of the crossing test moves by
        // at most that times the lengths; a pair whose test fails by more stays apart.
        let reach_far = Float::max(
            cert.reach[1],
            cert.reach[0] + cert.pos12.translation.vector.norm(),
        );
        let chord = margin / (reach_far + reach_far);
        cert.edge_pairs.clear();
        for (k, &i) in cert.edges_a.iter().enumerate() {
            let ea = a.edge(usize::from(i));
            for (m, &j) in cert.edges_b.iter().enumerate() {
                let eb = self.edge_b(usize::from(j));
                if may_cross(&ea, &eb, chord) {
                    cert.edge_pairs.push((k as u16, m as u16));
                }
            }
        }
        if cert.edge_pairs.len() > MAX_HOT_EDGE_PAIRS {
            return;
        }
        // Only the edges of those pairs are set up again each frame (about a third of the hot
        // ones on round hulls).
        let renumbered = &mut ws.renumbered;
        keep_paired(
            &mut cert.edges_a,
            &mut cert.edge_pairs,
            |p| &mut p.0,
            renumbered,
        );
        keep_paired(
            &mut cert.edges_b,
            &mut cert.edge_pairs,
            |p| &mut p.1,
            renumbered,
        );
        cert.geometry_a.clear();
        cert.geometry_a
            .extend(cert.edges_a.iter().map(|&i| a.edge(usize::from(i))));
        cert.geometry_b.clear();
        cert.geometry_b
            .extend(cert.edges_b.iter().map(|&j| b.edge(usize::from(j))));
        cert.separation = best.separation;
        cert.margin = margin;
        cert.valid = true;
    }

    /// The full test's winner at this pose, if `cert` certifies it (see the module doc): the
    /// best of the hot features, when every other feature is proven below it by more than the
    /// tie and it separates the cores by at most 0. `None` otherwise (the certificate is then
    /// spent: the caller runs the full test). Counts the test either way (the motion per frame
    /// is measured over them).
    pub(super) fn certified(
        &self,
        cert: &mut SatCertificate<T>,
        ws: &mut SatWorkspace<T>,
    ) -> Option<Best<T>> {
        cert.count_frame();
        if !cert.valid {
            return None;
        }
        let delta = cert.motion(self.input.pos12);
        let tie = self.tie;
        if !(delta + delta + tie < cert.margin) {
            return None;
        }
        let beat = |c: Best<T>, best: Option<Best<T>>| match best {
            Some(b) if !c.beats(&b) => Some(b),
            _ => Some(c),
        };
        let face_a = cert.faces_a.iter().fold(None, |best, &i| {
            beat(self.face_a_axis(usize::from(i)), best)
        })?;
        let floor_b = face_a.separation + tie;
        let face_b = cert.faces_b.iter().fold(None, |best, &j| {
            let c = self.face_b_axis(usize::from(j));
            if c.separation > floor_b {
                beat(c, best)
            } else {
                best
            }
        });
        let current = face_b.unwrap_or(face_a);
        let floor = current.separation + tie;
        // Each edge once (B's in A's frame), then the pairs: the winner confirmed by the
        // shapes' supports ([`Test::confirmed`]); after a false one (its arcs crossed by
        // rounding), every pair that would take the lead.
        if !cert.edge_pairs.is_empty() {
            ws.edges_b.clear();
            ws.edges_b.extend(
                cert.edges_b
                    .iter()
                    .zip(&cert.geometry_b)
                    .map(|(&j, e)| (usize::from(j), self.in_a_frame(e))),
            );
        }
        let best_edge = |confirm: Confirm| {
            let mut edge: Option<Best<T>> = None;
            for &(k, m) in &cert.edge_pairs {
                let (k, m) = (usize::from(k), usize::from(m));
                let (i, ea) = (usize::from(cert.edges_a[k]), &cert.geometry_a[k]);
                let (j, eb) = &ws.edges_b[m];
                if let Some(c) = self.edge_axis(i, ea, *j, eb)
                    && c.separation > floor
                    && edge.is_none_or(|e| c.beats(&e))
                    && (confirm == Confirm::Winner || self.confirmed(c).is_some())
                {
                    edge = Some(c);
                }
            }
            edge
        };
        let mut edge = best_edge(Confirm::Winner);
        if edge.is_some_and(|e| self.confirmed(e).is_none()) {
            edge = best_edge(Confirm::Every);
        }
        let best = edge.unwrap_or(current);
        let rest = cert.separation - cert.margin + delta;
        let certified = best.separation <= T::zero() && best.separation > rest + tie;
        if certified {
            cert.uses = cert.uses.saturating_add(1);
        }
        certified.then_some(best)
    }
}
