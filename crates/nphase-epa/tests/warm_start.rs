//! EPA started from a kept polytope against EPA from scratch, f32 and f64.
//!
//! Pairs of every core kind that runs EPA (cylinder, cone, segment, hull, box) overlap and move
//! a little each frame (translation, rotation); every frame computes the penetration cold (GJK,
//! EPA) and warm (from the polytope kept last frame), and the two must describe the same
//! penetration: depths within their certified gaps, and each one's normal certified by the
//! other's depth (its support value along it within the gaps). Motions that separate the cores
//! make the warm start decline.

use nphase_epa::{
    EpaOptions, EpaStatus, EpaWorkspace, MAX_KEPT_VERTICES, Penetration, WarmPolytope, penetration,
    penetration_warm,
};
use nphase_gjk::{
    GjkInput, GjkStatus, MinkowskiDifference, Simplex, SimplexCache, closest_points_with_simplex,
};
use nphase_math::nalgebra::{Translation3, UnitQuaternion};
use nphase_math::{Isometry, Point, Real, Vector};
use nphase_shapes::{Cone, ConvexPolyhedron, Cuboid, Cylinder, Segment, SupportMap, VertexId};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;

/// The cold query (GJK, then EPA on its simplex); `None` when the cores do not overlap.
fn cold<A, B, T>(
    input: &GjkInput<'_, A, B, T>,
    options: &EpaOptions,
    ws: &mut EpaWorkspace<T>,
) -> Option<Penetration<T>>
where
    A: SupportMap<T>,
    B: SupportMap<T>,
    T: Real,
{
    let mut cache = SimplexCache::EMPTY;
    let mut simplex = Simplex::default();
    let GjkStatus::Intersecting =
        closest_points_with_simplex(input, &mut cache, &mut simplex).status
    else {
        return None;
    };
    match penetration(input, &simplex, options, ws).status {
        EpaStatus::Converged(p) => Some(p),
        _ => None,
    }
}

/// The core depth bound along `n`: the support value of `D` (B moved by it along `n` clears A).
fn upper_along<A, B, T>(input: &GjkInput<'_, A, B, T>, n: &Vector<T>) -> f64
where
    A: SupportMap<T>,
    B: SupportMap<T>,
    T: Real,
{
    let md = MinkowskiDifference::new(input.shape1, input.shape2, &input.pos12);
    md.support(n, VertexId::NONE, VertexId::NONE)
        .w
        .dot(n)
        .as_f64()
}

/// Rounding allowance for a pair of this size.
fn slack<T: Real>(size: f64) -> f64 {
    if size_of::<T>() == 4 {
        2e-5 * size
    } else {
        1e-12 * size
    }
}

/// Follows `b` against `a` from `start` for `frames` frames of random motion (translation up to
/// `step` per axis, rotation up to `turn` rad about a random axis); returns (frames compared,
/// frames the warm start answered).
#[allow(clippy::too_many_arguments)]
fn follow<A, B, T>(
    a: &A,
    b: &B,
    start: Isometry<T>,
    frames: usize,
    step: f64,
    turn: f64,
    curved: bool,
    rng: &mut Pcg64,
) -> (usize, usize)
where
    A: SupportMap<T>,
    B: SupportMap<T>,
    T: Real,
{
    let options = EpaOptions {
        curved,
        ..EpaOptions::default()
    };
    let (mut ws_cold, mut ws_warm) = (EpaWorkspace::new(), EpaWorkspace::new());
    let mut kept = WarmPolytope::new();
    let mut pos12 = start;
    let (mut compared, mut warm_hits) = (0, 0);
    for _ in 0..frames {
        let input = GjkInput::new(a, b, pos12);
        let Some(reference) = cold(&input, &options, &mut ws_cold) else {
            break;
        };
        let warm = penetration_warm(&input, &kept, &options, &mut ws_warm);
        let answer = match &warm {
            Some(out) => {
                let EpaStatus::Converged(p) = out.status else {
                    panic!("a warm answer is a converged one: {:?}", out.status);
                };
                warm_hits += 1;
                p
            }
            None => {
                // Declined: the pipeline then runs cold, and keeps that polytope.
                let mut cache = SimplexCache::EMPTY;
                let mut simplex = Simplex::default();
                let GjkStatus::Intersecting =
                    closest_points_with_simplex(&input, &mut cache, &mut simplex).status
                else {
                    unreachable!("the cold query above found the cores overlapping");
                };
                *penetration(&input, &simplex, &options, &mut ws_warm)
                    .status
                    .penetration()
            }
        };
        let size = upper_along(&input, &Vector::x())
            .abs()
            .max(upper_along(&input, &-Vector::x()).abs())
            .max(1.0);
        let gaps = reference.gap.as_f64() + answer.gap.as_f64() + slack::<T>(size);
        let (d_ref, d) = (reference.depth.as_f64(), answer.depth.as_f64());
        assert!(
            (d - d_ref).abs() <= gaps,
            "depth {d} (warm: {}) vs cold {d_ref}, gaps {gaps:e}",
            warm.is_some()
        );
        // Each normal is certified by the other's depth: its support value is at most that
        // depth plus the gaps (a normal off the minimiser would show a larger value).
        for (n, other) in [(answer.normal, d_ref), (reference.normal, d)] {
            let along = upper_along(&input, &n.into_inner());
            assert!(
                along <= other + gaps,
                "support {along} along a normal vs depth {other}, gaps {gaps:e}"
            );
        }
        if ws_warm.keep(&input, &mut kept) {
            assert!(kept.vertex_count() <= MAX_KEPT_VERTICES);
        }
        compared += 1;
        let axis = Vector::new(
            rng.random_range(-1.0..1.0),
            rng.random_range(-1.0..1.0),
            rng.random_range(-1.0..1.0f64),
        );
        let rotation = UnitQuaternion::from_scaled_axis(
            axis.normalize() * rng.random_range(0.0..turn.max(f64::MIN_POSITIVE)),
        );
        let shift = Vector::new(
            rng.random_range(-step..step),
            rng.random_range(-step..step),
            rng.random_range(-step..step),
        );
        let motion =
            Isometry::from_parts(Translation3::from(shift.map(T::lit)), rotation.cast::<T>());
        pos12 = motion * pos12;
    }
    (compared, warm_hits)
}

fn random_start<T: Real>(rng: &mut Pcg64, reach: f64) -> Isometry<T> {
    let axis = Vector::new(
        rng.random_range(-1.0..1.0),
        rng.random_range(-1.0..1.0),
        rng.random_range(-1.0..1.0f64),
    );
    let rotation = UnitQuaternion::from_scaled_axis(axis.normalize() * rng.random_range(0.0..3.0));
    let t = Vector::new(
        rng.random_range(-reach..reach),
        rng.random_range(-reach..reach),
        rng.random_range(-reach..reach),
    );
    Isometry::from_parts(Translation3::from(t.map(T::lit)), rotation.cast::<T>())
}

fn hull<T: Real>(rng: &mut Pcg64, n: usize) -> ConvexPolyhedron<T> {
    let points: Vec<Point<T>> = (0..n)
        .map(|_| {
            Point::new(
                rng.random_range(-0.5..0.5),
                rng.random_range(-0.5..0.5),
                rng.random_range(-0.5..0.5),
            )
            .map(T::lit)
        })
        .collect();
    ConvexPolyhedron::from_points(&points).expect("valid")
}

/// Every kind of pair, many starts, small motion (the engine's) and large; asserts the warm
/// start agrees with the cold query and that it answers most frames under small motion.
fn warm_matches_cold<T: Real>() {
    let mut rng = Pcg64::seed_from_u64(29);
    let cylinder = Cylinder::new(T::lit(0.4), T::lit(0.3)).expect("valid");
    let cone = Cone::new(T::lit(0.4), T::lit(0.35)).expect("valid");
    let cuboid = Cuboid::new(Vector::new(0.5, 0.3, 0.4).map(T::lit)).expect("valid");
    let segment = Segment::new(
        Point::new(-0.4, 0.0, 0.0).map(T::lit),
        Point::new(0.4, 0.0, 0.0).map(T::lit),
    )
    .expect("valid");
    let hull_a = hull::<T>(&mut rng, 32);
    let hull_b = hull::<T>(&mut rng, 32);
    let mut totals = [(0usize, 0usize); 2];
    for round in 0..40 {
        for (k, (step, turn)) in [(1e-3, 1e-3), (2e-2, 5e-2)].into_iter().enumerate() {
            let start = random_start::<T>(&mut rng, 0.35);
            let frames = 20;
            let r = &mut rng;
            let (c, h) = match round % 6 {
                0 => follow(&cylinder, &cuboid, start, frames, step, turn, true, r),
                1 => follow(&cylinder, &cylinder, start, frames, step, turn, true, r),
                2 => follow(&cone, &hull_a, start, frames, step, turn, true, r),
                3 => follow(&segment, &cuboid, start, frames, step, turn, false, r),
                4 => follow(&hull_a, &hull_b, start, frames, step, turn, false, r),
                _ => follow(&cone, &cylinder, start, frames, step, turn, true, r),
            };
            totals[k].0 += c;
            totals[k].1 += h;
        }
    }
    let [(small, small_hits), (large, _)] = totals;
    assert!(
        small > 300 && large > 100,
        "too few overlapping frames: {small}, {large}"
    );
    // Under the engine's motion the kept polytope answers most frames (each sequence's first
    // frame has nothing kept).
    assert!(
        small_hits * 2 > small,
        "warm start answered {small_hits} of {small} frames"
    );
}

#[test]
fn warm_start_agrees_with_a_cold_query() {
    warm_matches_cold::<f64>();
    warm_matches_cold::<f32>();
}

/// A pair that came apart, or whose polytope was kept from other shapes' query, is declined;
/// nothing kept is declined; a polytope is not kept when the last query built none.
#[test]
fn warm_start_declines_what_it_cannot_certify() {
    let cylinder = Cylinder::new(0.4, 0.3).expect("valid");
    let cuboid = Cuboid::new(Vector::new(0.5, 0.3, 0.4)).expect("valid");
    let options = EpaOptions {
        curved: true,
        ..EpaOptions::default()
    };
    let mut ws = EpaWorkspace::new();
    let mut kept = WarmPolytope::new();
    let overlapping = GjkInput::new(&cylinder, &cuboid, Isometry::translation(0.1, 0.5, 0.0));
    assert!(penetration_warm(&overlapping, &kept, &options, &mut ws).is_none());
    assert!(cold(&overlapping, &options, &mut ws).is_some());
    assert!(ws.keep(&overlapping, &mut kept) && !kept.is_empty());
    assert!(penetration_warm(&overlapping, &kept, &options, &mut ws).is_some());
    // Apart: the polytope no longer encloses the origin.
    for y in [0.75, 1.0, 10.0] {
        let apart = GjkInput::new(&cylinder, &cuboid, Isometry::translation(0.1, y, 0.0));
        assert!(
            penetration_warm(&apart, &kept, &options, &mut ws).is_none(),
            "apart at y = {y}"
        );
    }
    // Touching faces: D is flat, no polytope to keep.
    let a = Cuboid::new(Vector::new(1.0, 1.0, 1.0)).expect("valid");
    let touching = GjkInput::new(&a, &a, Isometry::translation(2.0, 0.0, 0.0));
    let mut cache = SimplexCache::EMPTY;
    let mut simplex = Simplex::default();
    if let GjkStatus::Intersecting =
        closest_points_with_simplex(&touching, &mut cache, &mut simplex).status
    {
        let out = penetration(&touching, &simplex, &EpaOptions::default(), &mut ws);
        if out.stats.exit == nphase_epa::EpaExit::FlatMinkowskiDifference {
            assert!(!ws.keep(&touching, &mut kept) && kept.is_empty());
        }
    }
}
