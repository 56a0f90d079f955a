//! The contact types of the pair layer: what a pair query answers and how far to trust it.

use nphase_math::{Isometry, Point, Real, UnitVector};
use nphase_shapes::VertexId;

/// A contact between two shapes in A's frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LocalContact<T: Real> {
    /// Witness point on A's surface.
    pub point1: Point<T>,
    /// Witness point on B's surface; `point2 − point1 ≈ dist · normal`.
    pub point2: Point<T>,
    /// Unit normal from A toward B.
    pub normal: UnitVector<T>,
    /// Signed distance: positive gap, or minus the penetration depth.
    pub dist: T,
    /// Certified lower bound on the true signed distance (up to rounding): a support gap along
    /// some direction. Equal to `dist` for the closed forms and the separating-axis test.
    pub lower_bound: T,
    /// Certified upper bound on the true signed distance (up to rounding): a realised pair of
    /// points, or the bound of EPA's polytope. Equal to `dist` for the closed forms.
    pub upper_bound: T,
    /// How far to trust it.
    pub quality: ContactQuality,
}

impl<T: Real> LocalContact<T> {
    /// An exact contact (a closed form): both bounds are the distance.
    pub(crate) fn exact(
        point1: Point<T>,
        point2: Point<T>,
        normal: UnitVector<T>,
        dist: T,
    ) -> Self {
        LocalContact {
            point1,
            point2,
            normal,
            dist,
            lower_bound: dist,
            upper_bound: dist,
            quality: ContactQuality::Converged,
        }
    }

    /// A contact computed with the shapes swapped — B at the origin of its frame, A at
    /// `pos12⁻¹` — in A's frame with A and B back in their places (`pos12`: B's pose in A's
    /// frame).
    pub(crate) fn swapped_back(self, pos12: &Isometry<T>) -> Self {
        LocalContact {
            point1: pos12 * self.point2,
            point2: pos12 * self.point1,
            normal: -(pos12.rotation * self.normal),
            ..self
        }
    }

    /// Shifts the contact by the radii of rounded shapes: the cores' contact grown by `radius1`
    /// on A's side and `radius2` on B's.
    pub(crate) fn grown_by(mut self, radius1: T, radius2: T) -> Self {
        let n = self.normal.into_inner();
        let r = radius1 + radius2;
        self.point1 += n * radius1;
        self.point2 -= n * radius2;
        self.dist -= r;
        self.lower_bound -= r;
        self.upper_bound -= r;
        self
    }
}

/// How a contact was obtained.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum ContactQuality {
    /// Exact to the tolerance of docs/accuracy.md (GJK or EPA converged, or a closed form).
    #[default]
    Converged,
    /// GJK or EPA stopped at its iteration cap; the best estimate.
    IterationLimit,
    /// GJK stalled or EPA met a degenerate polytope; the best estimate.
    Fallback,
}

/// The outcome of one pair query, with the work it took.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct PairOutcome<T: Real> {
    /// The contact, if the shapes are within the prediction distance.
    pub contact: Option<LocalContact<T>>,
    /// GJK iterations.
    pub gjk_iterations: u32,
    /// Whether GJK started from the cached simplex.
    pub warm_started: bool,
    /// Whether EPA ran.
    pub epa_ran: bool,
    /// Whether EPA started from the polytope the pair kept from its last query and answered
    /// from it (no GJK ran; see [`nphase_epa::penetration_warm`]). Implies `epa_ran`.
    pub epa_warm: bool,
    /// Whether the pair, overlapping at its last query too, was answered by a face normal and a
    /// point inside the other shape (`collide/face_certificate.rs`: no GJK, no EPA).
    pub face_certified: bool,
    /// How the query ended, whether or not it produced a contact: a query that stopped on an
    /// iteration cap or fell back to an estimate is reported here even when that estimate put
    /// the pair beyond the prediction distance (then `contact` is `None`). When there is a
    /// contact, its `quality` is this.
    pub quality: ContactQuality,
    /// Whether GJK stalled (rounding on nearly parallel features) and EPA was asked to settle
    /// the answer. `quality` says whether it did (`Converged`) or the estimate was used
    /// (`Fallback`).
    pub gjk_stalled: bool,
    /// A certified lower bound on the signed distance (up to rounding), contact or not: the
    /// contact's own bound, or what proved the pair beyond the prediction (a separating axis,
    /// GJK's bound, a closed form's exact distance). What the pair layer certifies "apart"
    /// with across frames.
    pub lower_bound: T,
    /// Which shortcut across frames answered, if any.
    pub reuse: Reuse,
    /// Whether the separating-axis test of a polytope pair ran.
    pub sat_ran: bool,
    /// Whether its cached feature (last query's) won again.
    pub sat_cache_hit: bool,
    /// Whether the test's winner was certified from the features the pair's certificate named
    /// (the per-frame pipeline's shortcut, see [`SatCertificate`](crate::SatCertificate)),
    /// without the full test. Implies `sat_ran`.
    pub sat_certified: bool,
    /// The supporting features along the contact's normal that the query found on the way,
    /// handed to the manifold so that it does not search for them again.
    pub supports: SupportHints,
}

// What every pair query returns by value, pinned: the contact (two points, the normal, the
// distance and its bounds), the work counters and flags, and the supporting-feature hints.
const _: () = assert!(size_of::<PairOutcome<f32>>() <= 100);
const _: () = assert!(size_of::<PairOutcome<f64>>() <= 160);

/// What a query learnt of the shapes' supporting features along its contact normal `n` (A's
/// along `n`, B's along `−n`), per shape `[A, B]`, in each shape's own numbering (a hull's
/// face and vertex ids, [`ConvexPolyhedron`](nphase_shapes::ConvexPolyhedron)).
///
/// [`build_manifold`](crate::build_manifold) takes a known face as the shape's feature (unless
/// the pair's last face is held over it near a tie, then it searches) and starts the search for
/// the other one on the vertex, for hulls (other shapes' searches are a few comparisons: they
/// search as before). The default knows nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SupportHints {
    /// The face that supports the shape along the normal, when the query proved it: the
    /// winning face of a separating-axis test, whose normal *is* the contact normal.
    pub faces: [Option<u32>; 2],
    /// A vertex of the shape's support set along the normal, when the query met one (the
    /// support point that measured the winning face's separation), or `VertexId::NONE`.
    pub vertices: [VertexId; 2],
    /// Set when the query left the witness points to the manifold, which clips the supporting
    /// features anyway (the per-frame query of [`update_manifold`](crate::update_manifold)
    /// only; the public queries always answer exact witnesses): the contact was measured on
    /// this shape's face, whose outward normal is the contact normal (`n` for A's, `−n` for
    /// B's); its normal and distance are exact, but its witnesses are the other shape's
    /// support point and that point's image on the face's *plane*, which may lie outside the
    /// face. The manifold's clipping against the face finds the deepest point over it.
    pub witness_on_plane: Option<WinningFace>,
}

/// The shape whose face a separating-axis contact was measured on (see
/// [`SupportHints::witness_on_plane`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WinningFace {
    /// A face of A, outward normal `n`.
    A,
    /// A face of B, outward normal `−n`.
    B,
}

/// Who finds a separating-axis contact's witness points when the winning face's plane holds
/// no point of both shapes under the other shape's support point: the query (clipping the
/// other shape's supporting feature to the face), or the manifold, which clips it anyway
/// ([`SupportHints::witness_on_plane`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Witnesses {
    /// The query: exact witnesses (every public query).
    Exact,
    /// The manifold (the per-frame pipeline): one clip per pair per frame.
    ByManifold,
}

impl Default for SupportHints {
    fn default() -> Self {
        SupportHints {
            faces: [None; 2],
            vertices: [VertexId::NONE; 2],
            witness_on_plane: None,
        }
    }
}

/// The certified shortcuts a pair can take from one frame to the next (see
/// [`update_manifold`](crate::update_manifold)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Reuse {
    /// None: the pair was computed in full this frame.
    #[default]
    Computed,
    /// `pos12` was bitwise the same as at the last full computation: its manifold stands.
    Unchanged,
    /// The last full computation's lower bound on the distance, less the most B can have moved
    /// since, is beyond the prediction: no contact, without a query.
    Apart,
    /// That computation's manifold stands (a contact that converged with certified bounds
    /// within `6 δ`, whose ids were those of the manifold before it), and B has moved since
    /// by at most one to three times `δ` =
    /// [`Tolerances::accuracy`](nphase_math::Tolerances::accuracy) × the smaller shape's
    /// half-diagonal (more where that computation's certified bracket was narrower), too little
    /// to move the answer beyond docs/accuracy.md's tolerances — or by at most `8 δ`, with the
    /// kept normal's support gap measured at this pose within `8 δ` of the distance's bounds
    /// and of the deepest point (pair.rs's module doc): it is returned as it is, each point's
    /// distance following the pose.
    Still,
}

impl<T: Real> PairOutcome<T> {
    /// The outcome of a closed form (no iterations): a contact within `prediction`, its
    /// certified lower bound and quality either way.
    pub(crate) fn closed_form(contact: LocalContact<T>, prediction: T) -> Self {
        PairOutcome {
            lower_bound: contact.lower_bound,
            quality: contact.quality,
            contact: (contact.dist <= prediction).then_some(contact),
            ..PairOutcome::default()
        }
    }
}
