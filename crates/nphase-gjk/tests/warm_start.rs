//! Warm start and early exit.
//!
//! * Coherent motion: random pairs of rotated cuboids, triangles and segments move by 1e-3 units
//!   and 1e-3 rad per frame for 200 frames, some of them through contact. Every frame runs GJK
//!   cold (`SimplexCache::EMPTY`) and warm (the cache kept from the previous frame): the answers
//!   must agree (same status class, distances within tolerance, the warm one certified on its
//!   own), and warm starts must not cost more iterations on average.
//! * The same with a cylinder or a cone against any core, moving 1e-3 and 1e-5 a frame (a
//!   resting pile's motion is smaller still): the cache keeps such a simplex as the directions
//!   its vertices were found along, and the warm starts must take at most 80 % (1e-3) and 40 %
//!   (1e-5, f32) of the cold iterations on average — the axis alone, the seed before, took
//!   70–90 % in f32 at 1e-5 on cylinders — and end `Stalled` no more often than the cold runs
//!   (half the pairs pass through the touching band, where curved pairs stall honestly: the
//!   budget of near-touching curved pairs).
//! * `max_dist`: `BeyondMaxDist` only when the true distance exceeds `max_dist`, with a lower
//!   bound that is one (checked along its axis), and always when it exceeds it by more than the
//!   tolerance.
//! * A stale cache (the same shapes at an unrelated pose) costs iterations, never accuracy.

mod common;

use common::*;
use nphase_gjk::{GjkOptions, GjkStatus, SimplexCache};
use nphase_math::Real;
use nphase_math::nalgebra::{Translation3, UnitQuaternion};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;

fn random_polytope(rng: &mut Pcg64) -> Body {
    Body::bare(match rng.random_range(0..3) {
        0 => random_triangle(rng, 1.0),
        1 => random_segment(rng, 1.0),
        _ => random_cuboid(rng, 0.1, 1.0),
    })
}

/// The class of a status for counting contact changes: `Some(true)` separated, `Some(false)`
/// intersecting, `None` for anything else.
fn class<T: Real>(status: &GjkStatus<T>) -> Option<bool> {
    match status {
        GjkStatus::Separated(_) => Some(true),
        GjkStatus::Intersecting => Some(false),
        _ => None,
    }
}

/// A cylinder or a cone (bare), and any core or curved shape against it.
fn random_curved_pair(rng: &mut Pcg64) -> (Body, Body) {
    let curved = if rng.random_range(0..2) == 0 {
        Core::Cylinder {
            half_height: uniform(rng, 0.1, 1.0),
            radius: uniform(rng, 0.1, 1.0),
        }
    } else {
        Core::Cone {
            half_height: uniform(rng, 0.1, 1.0),
            radius: uniform(rng, 0.1, 1.0),
        }
    };
    (Body::bare(curved), random_any_body(rng))
}

/// A generator of random pairs (A, B).
type Bodies = fn(&mut Pcg64) -> (Body, Body);

/// What a coherent motion measured: mean iterations and `Stalled` answers, cold and warm.
struct Measured {
    iterations: [f64; 2],
    stalls: [usize; 2],
}

/// Runs the coherent motion of the module doc on pairs from `bodies`, B moving `step` units
/// and `step` rad a frame, within the stall budget `budget`. Every `Stalled` answer, cold or
/// warm, is checked for honesty (its witnesses on their surfaces: a curved shape's rim against a
/// triangle's edge used to stall with the triangle's witness past the edge), and neither run may
/// reach the iteration cap (a grown and reduced simplex trading places used to, f32).
fn coherent_motion<T: Real>(seed: u64, (bodies, step): (Bodies, f64), budget: f64) -> Measured {
    let mut rng = Pcg64::seed_from_u64(seed);
    let mut failures = Failures::default();
    let (pairs, frames) = (60, 200);
    let (mut cold_iterations, mut warm_iterations) = (Vec::new(), Vec::new());
    let (mut crossings, mut warm_hits, mut queries) = (0, 0, 0);
    let mut stalls = [0, 0];
    for p in 0..pairs {
        let (a, b) = bodies(&mut rng);
        // Start 0.02–0.15 apart (B moved along the normal of a first query, which changes the
        // distance by exactly the move); half of the pairs head for A along that normal, so
        // that 0.2 units of travel bring them through contact, the others drift at random.
        let mut pos12 = Iso::from_parts(
            Translation3::from(random_unit(&mut rng) * uniform(&mut rng, 1.0, 3.0)),
            random_rotation(&mut rng),
        );
        let first = Pair::new(a, b, pos12).gjk_cold::<f64>();
        let Ok(c) = separated(&first) else { continue };
        let normal = c.normal.into_inner();
        pos12.translation.vector += normal * (uniform(&mut rng, 0.02, 0.15) - c.distance);
        let velocity = if p % 2 == 0 {
            -normal * step
        } else {
            random_unit(&mut rng) * step
        };
        let spin = UnitQuaternion::from_scaled_axis(random_unit(&mut rng) * step);
        let mut cache = SimplexCache::<T>::EMPTY;
        let mut previous_class = None;
        for frame in 0..frames {
            let pair = Pair::new(a, b, pos12);
            let cold = pair.gjk_cold::<T>();
            let warm = pair.gjk(GjkOptions::default(), f64::INFINITY, &mut cache);
            queries += 1;
            for (k, out) in [&cold, &warm].into_iter().enumerate() {
                stalls[k] += usize::from(matches!(out.status, GjkStatus::Stalled { .. }));
            }
            warm_hits += usize::from(warm.stats.warm_started);
            cold_iterations.push(f64::from(cold.stats.iterations));
            warm_iterations.push(f64::from(warm.stats.iterations));
            let context = || format!("pair {p} frame {frame}: {pair:?}");
            let rel = rel_tol::<T>(pair.is_curved());
            let tol = rel * pair.scale();
            match (&cold.status, &warm.status) {
                (GjkStatus::Separated(c), GjkStatus::Separated(w)) => {
                    let (dc, dw) = (c.distance.as_f64(), w.distance.as_f64());
                    if (dc - dw).abs() > 2.0 * tol {
                        failures.push(format!("cold {dc:e} vs warm {dw:e}\n    on {}", context()));
                    }
                    let rounded = pair.through::<T>();
                    failures.check(rounded.check(w, Some(dc), rel), context);
                }
                // A stall is checked for honesty on its own (the other answer's distance, if
                // separated, is the truth it must bracket).
                (GjkStatus::Stalled { estimate, .. }, other)
                | (other, GjkStatus::Stalled { estimate, .. }) => {
                    let truth = match other {
                        GjkStatus::Separated(c) => Some(c.distance.as_f64()),
                        _ => None,
                    };
                    failures.stall(estimate, &pair.through::<T>(), truth, tol, context);
                }
                (GjkStatus::Intersecting, GjkStatus::Intersecting) => {}
                // Within the touching band either answer is right.
                (GjkStatus::Separated(c), GjkStatus::Intersecting)
                | (GjkStatus::Intersecting, GjkStatus::Separated(c))
                    if c.distance.as_f64() <= tol => {}
                (c, w) => failures.push(format!(
                    "cold {} vs warm {}\n    on {}",
                    status_name(c),
                    status_name(w),
                    context()
                )),
            }
            // A stall (honest, checked above) says nothing about the class: skip it.
            if let Some(now) = class(&cold.status) {
                if previous_class.is_some_and(|before| before != now) {
                    crossings += 1;
                }
                previous_class = Some(now);
            }
            pos12 = Iso::from_parts(
                Translation3::from(pos12.translation.vector + velocity),
                spin * pos12.rotation,
            );
        }
    }
    failures.assert_none_within("coherent motion", queries, budget);
    let (cold_mean, warm_mean) = (mean(&cold_iterations), mean(&warm_iterations));
    let precision = if is_f64::<T>() { "f64" } else { "f32" };
    println!(
        "coherent motion ({precision}, {step:e} a frame): mean iterations cold {cold_mean:.3}, \
         warm {warm_mean:.3}; warm-started {warm_hits} of {queries} queries; {crossings} \
         contact changes; stalled cold {}, warm {}",
        stalls[0], stalls[1]
    );
    // Representative: contact begins or ends in a fair number of the pairs (a third of them
    // head straight for contact, 0.2 units of travel at 1e-3 a frame).
    if step >= 1e-3 {
        assert!(crossings >= pairs / 5, "only {crossings} contact changes");
    }
    assert!(
        warm_mean <= cold_mean,
        "warm {warm_mean} > cold {cold_mean} iterations on average"
    );
    Measured {
        iterations: [cold_mean, warm_mean],
        stalls,
    }
}

fn polytopes(rng: &mut Pcg64) -> (Body, Body) {
    (random_polytope(rng), random_polytope(rng))
}

#[test]
fn coherent_motion_f64() {
    coherent_motion::<f64>(40, (polytopes, 1e-3), STALL_BUDGET);
}

#[test]
fn coherent_motion_f32() {
    coherent_motion::<f32>(41, (polytopes, 1e-3), STALL_BUDGET);
}

/// Curved pairs: the simplex is kept as directions (the module doc); the warm starts take at
/// most the share of the cold iterations given.
fn curved_coherent_motion<T: Real>(seed: u64, step: f64, share: f64) {
    let budget = NEAR_TOUCHING_CURVED_STALL_BUDGET;
    let m = coherent_motion::<T>(seed, (random_curved_pair, step), budget);
    let [cold, warm] = m.iterations;
    assert!(
        warm <= share * cold,
        "warm {warm} iterations against cold {cold}: more than {share} of them"
    );
    assert!(
        m.stalls[1] <= m.stalls[0],
        "stalled cold {:?}, warm",
        m.stalls
    );
}

#[test]
fn curved_coherent_motion_f64() {
    curved_coherent_motion::<f64>(46, 1e-3, 0.8);
    curved_coherent_motion::<f64>(47, 1e-5, 0.8);
}

#[test]
fn curved_coherent_motion_f32() {
    curved_coherent_motion::<f32>(48, 1e-3, 0.8);
    curved_coherent_motion::<f32>(49, 1e-5, 0.4);
}

/// A stale cache — from the same shapes at an unrelated pose — costs iterations, never accuracy:
/// the cached vertex pairs are rebuilt at the current pose, so the warm answer must match the
/// cold one.
fn stale_cache<T: Real>(seed: u64) {
    let mut rng = Pcg64::seed_from_u64(seed);
    let mut failures = Failures::default();
    let total = 2000;
    let rel = rel_tol::<T>(false);
    for _ in 0..total {
        let (a, b) = (random_polytope(&mut rng), random_polytope(&mut rng));
        let mut pose = || {
            Iso::from_parts(
                Translation3::from(random_unit(&mut rng) * uniform(&mut rng, 0.0, 2.5)),
                random_rotation(&mut rng),
            )
        };
        let (old, now) = (Pair::new(a, b, pose()), Pair::new(a, b, pose()));
        let mut cache = SimplexCache::<T>::EMPTY;
        old.gjk(GjkOptions::default(), f64::INFINITY, &mut cache);
        let warm = now.gjk(GjkOptions::default(), f64::INFINITY, &mut cache);
        let cold = now.gjk_cold::<T>();
        let tol = rel * now.scale();
        let context = || format!("{now:?} warm from {:?}", old.pos12);
        match (&cold.status, &warm.status) {
            (GjkStatus::Separated(c), GjkStatus::Separated(w)) => {
                let rounded = now.through::<T>();
                failures.check(rounded.check(w, Some(c.distance.as_f64()), rel), context);
            }
            (GjkStatus::Stalled { estimate, .. }, other)
            | (other, GjkStatus::Stalled { estimate, .. }) => {
                let truth = match other {
                    GjkStatus::Separated(c) => Some(c.distance.as_f64()),
                    _ => None,
                };
                failures.stall(estimate, &now.through::<T>(), truth, tol, context);
            }
            (GjkStatus::Intersecting, GjkStatus::Intersecting) => {}
            (GjkStatus::Separated(c), GjkStatus::Intersecting)
            | (GjkStatus::Intersecting, GjkStatus::Separated(c))
                if c.distance.as_f64() <= tol => {}
            (c, w) => failures.push(format!(
                "cold {} vs warm {}\n    on {}",
                status_name(c),
                status_name(w),
                context()
            )),
        }
    }
    failures.assert_none("stale cache", total);
}

#[test]
fn stale_cache_f64() {
    stale_cache::<f64>(44);
}

#[test]
fn stale_cache_f32() {
    stale_cache::<f32>(45);
}

/// Random pairs (polytopes, and curved shapes for the paths without vertex ids), each queried
/// with `max_dist` spread around its true distance `d`: below it by a random fraction, just below
/// and just above it by 1e-6, and above it.
fn max_dist_early_exit<T: Real>(seed: u64) {
    let mut rng = Pcg64::seed_from_u64(seed);
    let mut failures = Failures::default();
    let (mut beyond, mut separated_count, mut total) = (0, 0, 0);
    for i in 0..1500 {
        let a = if i % 4 == 3 {
            Body::bare(Core::Cylinder {
                half_height: uniform(&mut rng, 0.2, 1.0),
                radius: uniform(&mut rng, 0.2, 1.0),
            })
        } else {
            random_polytope(&mut rng)
        };
        let b = if i % 5 == 4 {
            Body::new(
                Core::Segment(V::new(0.0, -0.5, 0.0), V::new(0.0, 0.5, 0.0)),
                uniform(&mut rng, 0.0, 0.3),
            )
        } else {
            random_polytope(&mut rng)
        };
        let t = random_unit(&mut rng) * uniform(&mut rng, 1.0, 4.0);
        let pair = Pair::new(
            a,
            b,
            Iso::from_parts(Translation3::from(t), random_rotation(&mut rng)),
        );
        let rel = rel_tol::<T>(pair.is_curved());
        let tol = rel * pair.scale();
        // The true distance, certified by the checker on an f64 query.
        let truth = pair.gjk_cold::<f64>();
        let Ok(c) = separated(&truth) else { continue };
        let d = c.distance;
        if pair
            .check(c, None, rel_tol::<f64>(pair.is_curved()))
            .is_err()
            || d <= 0.0
        {
            continue;
        }
        let limits = [
            d * uniform(&mut rng, 0.1, 0.99),
            d - 1e-6,
            d + 1e-6,
            d * uniform(&mut rng, 1.01, 3.0),
        ];
        for max_dist in limits {
            for warm in [false, true] {
                total += 1;
                let mut cache = SimplexCache::<T>::EMPTY;
                if warm {
                    // Warm from a nearby earlier pose.
                    let earlier = Pair::new(
                        a,
                        b,
                        Iso::from_parts(Translation3::from(t * 1.01), pair.pos12.rotation),
                    );
                    earlier.gjk(GjkOptions::default(), f64::INFINITY, &mut cache);
                }
                let out = pair.gjk(GjkOptions::default(), max_dist, &mut cache);
                let context =
                    || format!("max_dist {max_dist:e}, true distance {d:e}, warm {warm}: {pair:?}");
                match &out.status {
                    GjkStatus::BeyondMaxDist(s) => {
                        beyond += 1;
                        let lower = s.lower_bound.as_f64();
                        let axis = to_f64(s.axis.as_ref());
                        let mut problems = Vec::new();
                        if d <= max_dist - tol {
                            problems.push("the true distance is within max_dist".to_owned());
                        }
                        if lower > d + tol || lower < max_dist - tol {
                            problems.push(format!("lower bound {lower:e} is not in [max_dist, d]"));
                        }
                        let gap = pair.support_gap(&axis.normalize());
                        if gap < lower - tol || (axis.norm() - 1.0).abs() > unit_tol::<T>() {
                            problems.push(format!("the axis proves only {gap:e}, not {lower:e}"));
                        }
                        if !problems.is_empty() {
                            failures.push(format!("{}\n    on {}", problems.join("; "), context()));
                        }
                    }
                    GjkStatus::Separated(c) => {
                        separated_count += 1;
                        let dist = c.distance.as_f64();
                        if d > max_dist + tol {
                            failures.push(format!(
                                "Separated at {dist:e} beyond max_dist\n    on {}",
                                context()
                            ));
                        }
                        let rounded = pair.through::<T>();
                        failures.check(rounded.check(c, Some(d), rel), context);
                    }
                    GjkStatus::Stalled { estimate, .. } => {
                        failures.stall(estimate, &pair.through::<T>(), Some(d), tol, context);
                    }
                    other => failures.push(format!("{}\n    on {}", status_name(other), context())),
                }
            }
        }
    }
    failures.assert_none("max_dist", total);
    // Representative: both outcomes are well represented.
    assert!(
        beyond > total / 5 && separated_count > total / 5,
        "beyond {beyond}, separated {separated_count} of {total}"
    );
}

#[test]
fn max_dist_early_exit_f64() {
    max_dist_early_exit::<f64>(42);
}

#[test]
fn max_dist_early_exit_f32() {
    max_dist_early_exit::<f32>(43);
}
