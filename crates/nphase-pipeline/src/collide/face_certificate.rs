//! A penetration certified by a face and a point inside: the general path's first try for a
//! pair that overlapped at its last query.
//!
//! A round shape resting on a box's face (a cylinder on its cap or its side, a cone on its base
//! or its slant), or a box on a cylinder's cap, is computed in full every frame its pose has
//! moved past the certified allowance — on the general path by EPA from the polytope the pair
//! kept, some thousands of instructions (docs/performance.md, stop 58). Where the contact is a
//! face on a point, two support points and an interior depth certify it.
//!
//! # Derivation
//! For a unit `c` (A's frame, from A toward B), the support gap `g(c)` — how far B's lowest
//! point along `c` lies beyond A's highest — is a lower bound on the signed distance `s`, as
//! every direction's is. A point `x` of B that lies inside A at depth `h` (the ball of radius
//! `h` about `x` within A) bounds it from above: a translation of B that separates the shapes
//! carries `x` out of A, by at least `h`, so `s ≤ −h`; a point of A inside B likewise. So
//! `s ∈ [g(c), −h]`, and where that bracket is narrow, `c` is a minimising normal and `g(c)` the
//! distance, to the bracket's width — the answer EPA's path certifies, without EPA.
//!
//! B's point is its support point along `−c`, its deepest along `c`: under a face of A that
//! carries B's feature, it lies as deep in A as the overlap along `c`, and `h = −g(c)` up to
//! rounding — unless another face of A is nearer it (B near the face's edge), when the bracket
//! stays open and the query goes on to EPA. A's support point along `c` is tried inside B the
//! same way (a box corner on a cylinder's cap, A being the box). With radii the shapes' points
//! are the cores' moved by their radii along `∓c`, and a point's depth in a rounded shape is
//! its core's plus the radius ([`Core::interior_depth_within`]).
//!
//! Rounding: a point carried into the other shape's frame (`R p + t`, or its inverse) has each
//! coordinate off by a few `ε` of `|p| + |t_k|` (a rotation's row has unit length); the depth is
//! certified for every point within `16 ε (|p| + |t_k| + r)` of the computed one, per
//! coordinate — so that a box on a wide floor, far from the floor's origin along the face,
//! loses only the rounding of its height above it.
//!
//! # When it answers
//! On a pair whose last query overlapped (it kept EPA's polytope), neither core a hull (a
//! hull's interior depth is a scan of its triangles, and the manifold's search starts from
//! what EPA's path learns of its faces; let in, hulls saved nothing on the coherence bench,
//! docs/performance.md). The candidates are the face of A that supports it
//! along last frame's normal and the face of B along its reverse, where within
//! [`FLAT_FEATURE_ANGLE`] of that normal: face normals are exact in their shape's frame.
//! (Last frame's normal itself, where no face lies beside it — a box's corner in a cylinder's
//! side — was tried and left out: the cache keeps it in `f32`, a bracket of ~1e-8 in `f64`,
//! and in `f32` the rounding allowed for took it past `2 δ` about half the time;
//! docs/performance.md, stop 58.) The one with the larger gap is tried; it answers where its
//! bracket is within `2 δ` (`δ` = the accuracy × the smaller shape's size): within the
//! tolerance (`10 δ`), and narrow enough that the pipeline's certified allowance after it,
//! `(6 δ − w) / 2`, stays at least `2 δ` (`pair.rs`). Its witnesses are those EPA's path gives a
//! face normal (`face_witnesses`).

use nphase_gjk::SimplexCache;
use nphase_math::{Real, UnitVector, Vector};
use nphase_shapes::{Core, FLAT_FEATURE_ANGLE, FeatureMap, SupportFeature};
use num_traits::Float;

use super::convex_gjk::{CoreInput, face_witnesses, support_gap_at};
use super::{ContactQuality, LocalContact, PairOutcome};

/// The widest bracket this answers with, in `δ` (the module doc).
const WIDEST_BRACKET_DELTAS: f64 = 2.0;

/// The contact of overlapping cores certified by a face normal and a point inside (the module
/// doc), from `cache`'s axis (`−normal` of the pair's last answer, A's frame); `None` where no
/// candidate certifies (the caller runs EPA). `feature` is scratch space.
///
/// Kept out of line: inlined into [`convex_contact`](super::convex_gjk::convex_contact), it
/// cost a resting pile 3 % more instructions a pair-frame by the changes it made to the code
/// around it (docs/performance.md, stop 58).
#[inline(never)]
pub(super) fn face_certificate<T: Real>(
    input: &CoreInput<'_, T>,
    cache: &SimplexCache<T>,
    feature: &mut SupportFeature<T>,
) -> Option<PairOutcome<T>> {
    if matches!(input.shape1, Core::Convex(_)) || matches!(input.shape2, Core::Convex(_)) {
        return None;
    }
    let last = -cache.axis();
    let rotation = &input.pos12.rotation;
    let cos_flat = Float::cos(T::lit(FLAT_FEATURE_ANGLE));
    let beside = |c: &UnitVector<T>| c.dot(&last) > cos_flat;
    let face1 = input
        .shape1
        .local_support_face_normal(&last, feature)
        .filter(beside);
    let face2 = input
        .shape2
        .local_support_face_normal(&rotation.inverse_transform_vector(&-last), feature)
        .map(|f| UnitVector::new_unchecked(-(rotation * f.into_inner())))
        .filter(beside);
    let gap_along = |c: &UnitVector<T>| support_gap_at(input, c.as_ref());
    // The candidate with the larger gap (the better lower bound); A's on a tie.
    let (c, owner_is_a, (g, w)) = match (face1, face2) {
        (Some(c1), Some(c2)) => {
            let (first, second) = (gap_along(&c1), gap_along(&c2));
            if second.0 > first.0 {
                (c2, false, second)
            } else {
                (c1, true, first)
            }
        }
        (Some(c1), None) => (c1, true, gap_along(&c1)),
        (None, Some(c2)) => (c2, false, gap_along(&c2)),
        (None, None) => return None,
    };
    let u = c.into_inner();
    let t = input.pos12.translation.vector;
    let eps16 = T::lit(16.0) * T::TOLERANCES.epsilon;
    // B's deepest point along `c` (A's frame) in A, and A's highest in B (B's frame).
    let b = w.b - u * input.radius2;
    let b_far = (w.b.coords - t).norm();
    let b_err = t.map(|tk| eps16 * (b_far + Float::abs(tk) + input.radius2));
    let b_depth = input.shape1.interior_depth_within(&b, &b_err) + input.radius1;
    let a = w.a + u * input.radius1;
    let a_err = Vector::repeat(eps16 * (a.coords.norm() + t.norm() + input.radius1));
    let a_in_2 = input.pos12.inverse_transform_point(&a);
    let a_depth = input.shape2.interior_depth_within(&a_in_2, &a_err) + input.radius2;
    let (depth, b_inside) = if b_depth >= a_depth {
        (b_depth, true)
    } else {
        (a_depth, false)
    };
    let delta = T::TOLERANCES.accuracy * input.small_scale();
    // NaN never answers; nor does a gap past the prediction (a depth lost to rounding), which
    // EPA's path would clamp.
    if !(depth > T::zero()
        && -depth - g <= T::lit(WIDEST_BRACKET_DELTAS) * delta
        && g <= input.max_dist)
    {
        return None;
    }
    let (point1, point2) = if b_inside {
        (b - u * g, b)
    } else {
        (a, a + u * g)
    };
    let mut contact = LocalContact {
        point1,
        point2,
        normal: c,
        dist: g,
        lower_bound: g,
        upper_bound: Float::max(-depth, g),
        quality: ContactQuality::Converged,
    };
    (contact.point1, contact.point2) = face_witnesses(input, &contact, (&u, owner_is_a), g);
    Some(PairOutcome {
        contact: Some(contact),
        lower_bound: g,
        face_certified: true,
        ..PairOutcome::default()
    })
}

#[cfg(test)]
mod tests {
    use nphase_gjk::SimplexCache;
    use nphase_math::nalgebra::Quaternion;
    use nphase_math::{Isometry, Real, Rotation, Vector};
    use nphase_shapes::{Cone, Cuboid, Cylinder, Shape, SupportMap};
    use num_traits::Float;
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg64;

    use crate::PairWorkspace;
    use crate::collide::{SatCache, query_pair, query_pair_cached};

    /// `pose` in precision `T` (its translation and quaternion rounded).
    fn in_precision<T: Real>(pose: &Isometry<f64>) -> Isometry<T> {
        let t = pose.translation.vector.map(T::lit);
        let q = pose.rotation.quaternion().coords.map(T::lit);
        Isometry::from_parts(t.into(), Rotation::new_normalize(Quaternion::from(q)))
    }

    /// The support gap along the unit `n` (A's frame, radii included).
    fn gap<T: Real>(a: &Shape<T>, b: &Shape<T>, pos12: &Isometry<T>, n: &Vector<T>) -> T {
        b.support_point(pos12, &-n).coords.dot(n) - a.local_support_point(n).coords.dot(n)
    }

    /// Follows B resting on A at `pose` (B in A's frame) for 40 frames under pose noise
    /// (1e-3 rad, 1e-4 across each axis), the pair's state kept as the pipeline keeps it: every
    /// answer agrees with a cold query's within the tolerance — distance, the normal's support
    /// gap, the witnesses `dist · n` apart, the bracket holding the cold distance. Returns how
    /// many frames the certificate answered.
    fn follow<T: Real>(a: &Shape<T>, b: &Shape<T>, pose: &Isometry<f64>, seed: u64) -> usize {
        let mut rng = Pcg64::seed_from_u64(seed);
        let (mut cache, mut sat, mut kept) = (SimplexCache::EMPTY, SatCache::EMPTY, None);
        let mut workspace = PairWorkspace::default();
        let sizes = [a, b].map(|s| s.local_aabb().half_extents().norm());
        let (small, large) = (
            Float::min(sizes[0], sizes[1]),
            Float::max(sizes[0], sizes[1]),
        );
        let mut certified = 0;
        for frame in 0..40 {
            let mut noise = || rng.random_range(-1.0..1.0);
            let jitter = if frame == 0 {
                Isometry::identity()
            } else {
                Isometry::new(
                    Vector::new(noise(), noise(), noise()) * 1e-4,
                    Vector::new(noise(), noise(), noise()) * 1e-3,
                )
            };
            let pos12 = in_precision::<T>(&(jitter * pose));
            let prediction = T::lit(0.01);
            let out = query_pair_cached(
                a,
                b,
                &pos12,
                prediction,
                &mut cache,
                &mut sat,
                Some(&mut kept),
                &mut workspace,
            );
            let mut cold_cache = SimplexCache::EMPTY;
            let cold = query_pair(
                a,
                b,
                &pos12,
                prediction,
                &mut cold_cache,
                &mut PairWorkspace::default(),
            );
            let (Some(c), Some(k)) = (out.contact, cold.contact) else {
                panic!(
                    "frame {frame}: {:?} against cold {:?}",
                    out.contact, cold.contact
                );
            };
            let size = large + pos12.translation.vector.norm();
            let tol = T::TOLERANCES.promise(small, large, size);
            let n = c.normal.into_inner();
            let witnesses = (c.point2 - c.point1 - n * c.dist).norm();
            assert!(
                Float::abs(c.dist - k.dist) <= tol
                    && Float::abs(gap(a, b, &pos12, &n) - k.dist) <= tol
                    && witnesses <= tol
                    && c.lower_bound <= k.dist + tol
                    && k.dist <= c.upper_bound + tol,
                "frame {frame} (certified: {}): {c:?} against cold {k:?}, tolerance {tol:?}",
                out.face_certified
            );
            certified += usize::from(out.face_certified);
        }
        certified
    }

    /// B's pose on A: turned by `turn` (scaled axis), at `at`.
    fn placed(at: [f64; 3], turn: [f64; 3]) -> Isometry<f64> {
        Isometry::new(Vector::from(at), Vector::from(turn))
    }

    /// Round shapes on a box's face, a box and a cylinder on a cylinder's cap, 2 mm deep: after
    /// the first frame (EPA's, which keeps the polytope), the certificate answers every frame,
    /// as a cold query does — in f32 and f64. (A capsule or a rounded shape resting on a face
    /// 2 mm deep has its core apart from the other: GJK measures it, no EPA runs, nothing to
    /// certify.)
    fn resting_pairs_are_certified<T: Real>() {
        let l = T::lit;
        let floor = Shape::Cuboid(Cuboid::new(Vector::new(l(3.0), l(0.5), l(3.0))).expect("valid"));
        let cylinder = Shape::Cylinder(Cylinder::new(l(0.3), l(0.4)).expect("valid"));
        let cone = Shape::Cone(Cone::new(l(0.4), l(0.3)).expect("valid"));
        let plate = Shape::Cylinder(Cylinder::new(l(0.5), l(1.0)).expect("valid"));
        let brick = Shape::Cuboid(Cuboid::new(Vector::new(l(0.2), l(0.1), l(0.2))).expect("valid"));
        let quarter = core::f64::consts::FRAC_PI_2;
        let cases = [
            (
                "cylinder standing",
                &floor,
                &cylinder,
                placed([0.7, 0.798, -0.4], [0.004, 0.0, 0.0]),
            ),
            (
                "cylinder lying",
                &floor,
                &cylinder,
                placed([-0.5, 0.898, 1.1], [0.0, 0.3, quarter]),
            ),
            (
                "cone on its base",
                &floor,
                &cone,
                placed([1.2, 0.898, 0.2], [0.0, 0.0, 0.003]),
            ),
            (
                "box on a cap",
                &plate,
                &brick,
                placed([0.1, 0.598, -0.2], [0.0, 0.5, 0.0]),
            ),
            (
                "cylinder on a cap",
                &plate,
                &cylinder,
                placed([0.2, 0.798, 0.1], [0.0, 0.0, 0.003]),
            ),
        ];
        for (seed, (name, a, b, pose)) in cases.into_iter().enumerate() {
            let certified = follow(a, b, &pose, seed as u64);
            assert_eq!(certified, 39, "{name}: {certified} of 39 frames certified");
        }
    }

    #[test]
    fn resting_pairs_are_certified_f32() {
        resting_pairs_are_certified::<f32>();
    }

    #[test]
    fn resting_pairs_are_certified_f64() {
        resting_pairs_are_certified::<f64>();
    }

    /// A cylinder standing over a floor's edge, tilted toward it: its deepest point hangs past
    /// the edge, inside nothing, and the floor's corner is not inside the cylinder — no frame is
    /// certified, and EPA's answers are the cold query's.
    fn over_an_edge_is_left_to_epa<T: Real>() {
        let l = T::lit;
        let floor = Shape::Cuboid(Cuboid::new(Vector::new(l(3.0), l(0.5), l(3.0))).expect("valid"));
        let cylinder = Shape::Cylinder(Cylinder::new(l(0.3), l(0.4)).expect("valid"));
        let pose = placed([2.9, 0.799, 0.0], [0.0, 0.0, -0.004]);
        assert_eq!(follow(&floor, &cylinder, &pose, 7), 0);
    }

    #[test]
    fn over_an_edge_is_left_to_epa_f32() {
        over_an_edge_is_left_to_epa::<f32>();
    }

    #[test]
    fn over_an_edge_is_left_to_epa_f64() {
        over_an_edge_is_left_to_epa::<f64>();
    }
}
