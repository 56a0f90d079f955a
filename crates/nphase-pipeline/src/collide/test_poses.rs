//! Random poses, and the reference the closed forms are checked against, shared by the
//! collide tests.

use nphase_epa::EpaOptions;
use nphase_gjk::{GjkInput, GjkStatus, Simplex, SimplexCache, closest_points_with_simplex};
use nphase_math::{Isometry, Rotation, Vector};
use nphase_shapes::{Shape, SupportMap};
use rand::Rng;
use rand_pcg::Pcg64;

use super::LocalContact;
use crate::{PairWorkspace, query_pair};

/// A random turn: a scaled axis with components in [−3, 3) (drawn x, y, z).
pub(super) fn random_turn(rng: &mut Pcg64) -> Rotation<f64> {
    Rotation::from_scaled_axis(Vector::new(
        rng.random_range(-3.0..3.0),
        rng.random_range(-3.0..3.0),
        rng.random_range(-3.0..3.0),
    ))
}

/// The angle of a nearly parallel turn for trial `trial` (the tests turn every third trial so):
/// exactly 0 on every thirtieth, else 1e-16 to 1e-2 rad, uniform in its logarithm.
pub(super) fn tiny_tilt(trial: usize, rng: &mut Pcg64) -> f64 {
    if trial.is_multiple_of(30) {
        0.0
    } else {
        10f64.powf(rng.random_range(-16.0..-2.0))
    }
}

/// The signed distance of two shapes by GJK on their cores (and EPA when the cores overlap):
/// the independent answer the closed forms are checked against.
pub(super) fn gjk_epa_distance(
    shape1: &Shape<f64>,
    shape2: &Shape<f64>,
    pos12: &Isometry<f64>,
    workspace: &mut PairWorkspace<f64>,
) -> f64 {
    let ((core1, radius1), (core2, radius2)) = (shape1.core(), shape2.core());
    let input = GjkInput::new(&core1, &core2, *pos12).with_radii(radius1, radius2);
    let mut simplex = Simplex::default();
    let mut cache = SimplexCache::EMPTY;
    match closest_points_with_simplex(&input, &mut cache, &mut simplex).status {
        GjkStatus::Separated(c) => c.distance,
        GjkStatus::Intersecting => {
            let options = EpaOptions::default();
            let epa = nphase_epa::penetration(&input, &simplex, &options, &mut workspace.epa);
            -epa.status.penetration().depth
        }
        other => panic!("reference query did not converge: {other:?}"),
    }
}

/// A closed form's contact `c` of `shape1` and `shape2` at `pos12` is exact to `tol`: its
/// normal is a minimiser (the support gap along it is the distance), its witness pair
/// `dist · normal` apart and on the surfaces; and its distance is GJK/EPA's
/// ([`gjk_epa_distance`]) to `reference_tol` (EPA's own accuracy on a curved shape, 1e-10 of
/// the small scale in f64, is coarser than the closed form's).
pub(super) fn assert_exact_contact(
    shape1: &Shape<f64>,
    shape2: &Shape<f64>,
    pos12: &Isometry<f64>,
    c: &LocalContact<f64>,
    (tol, reference_tol): (f64, f64),
    workspace: &mut PairWorkspace<f64>,
) {
    let truth = gjk_epa_distance(shape1, shape2, pos12, workspace);
    assert!(
        (c.dist - truth).abs() <= reference_tol,
        "{} vs {truth}",
        c.dist
    );
    let n = c.normal.into_inner();
    let gap = -shape1.local_support_point(&n).coords.dot(&n)
        - shape2.support_point(pos12, &-n).coords.dot(&-n);
    assert!(
        (gap - c.dist).abs() <= tol,
        "normal gap {gap} vs {}",
        c.dist
    );
    let mismatch = ((c.point2 - c.point1) - n * c.dist).norm();
    assert!(mismatch <= tol, "witnesses off dist·n by {mismatch}");
    let on1 = shape1.local_support_point(&n).coords.dot(&n) - c.point1.coords.dot(&n);
    let on2 = shape2.support_point(pos12, &-n).coords.dot(&n) - c.point2.coords.dot(&n);
    assert!(
        on1.abs() <= tol && on2.abs() <= tol,
        "witnesses off the surfaces"
    );
}

/// Queries `shape1` against `shape2` at `pos12` both ways round (`shape1` at the origin, then
/// `shape2`), with an unbounded prediction, and checks each answer with
/// [`assert_exact_contact`]; returns how many of the two came from a closed form (no GJK
/// iteration).
pub(super) fn check_both_orders(
    shape1: &Shape<f64>,
    shape2: &Shape<f64>,
    pos12: &Isometry<f64>,
    tol: (f64, f64),
    workspace: &mut PairWorkspace<f64>,
) -> usize {
    let mut closed = 0;
    for (s1, s2, pose) in [(shape1, shape2, *pos12), (shape2, shape1, pos12.inverse())] {
        let mut cache = SimplexCache::EMPTY;
        let outcome = query_pair(s1, s2, &pose, f64::INFINITY, &mut cache, workspace);
        let c = outcome.contact.expect("within an unbounded prediction");
        closed += usize::from(outcome.gjk_iterations == 0);
        assert_exact_contact(s1, s2, &pose, &c, tol, workspace);
    }
    closed
}
