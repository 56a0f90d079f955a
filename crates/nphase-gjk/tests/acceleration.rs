//! Nesterov-accelerated GJK (Montaut et al., RSS 2022) must give the answers of plain GJK.
//!
//! Random pairs of cuboids, cylinders, cones and capsule cores (a segment with a radius), far
//! apart (0.01–1) and near touching (a gap of ~1e-6 of the scale), in f64 and f32. Every answer
//! is certified on its own by [`Pair::check`] — the support gap along its normal (a lower bound
//! on the distance) and its witness points on the surfaces (an upper bound) must both be within
//! the tolerance of the distance — and must agree with plain GJK's.
//!
//! Near touching, on curved shapes, GJK's simplex can collapse into sliver triangles (two
//! nearly equal rim points and a far vertex) whose projection leaves `v` leaning by up to 1e-5
//! rad: ~12% of such pairs end `Stalled` in f64 — honestly (their bounds bracket the distance),
//! and the pair query settles them with EPA — so that family has its own stall budget
//! (`NEAR_TOUCHING_CURVED_STALL_BUDGET`). Nesterov's momentum hands over to plain GJK once its
//! Frank–Wolfe gap is within √ε_rel or after 32 iterations, so it no longer runs into the cap on
//! curved shapes.

mod common;

use common::*;
use nphase_gjk::{Acceleration, GjkOptions, GjkStatus, SimplexCache};
use nphase_math::Real;
use nphase_math::nalgebra::Translation3;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;

const PLAIN: (&str, Acceleration) = ("plain", Acceleration::None);
const NESTEROV: [(&str, Acceleration); 2] = [
    (
        "nesterov(normalize)",
        Acceleration::Nesterov { normalize: true },
    ),
    ("nesterov", Acceleration::Nesterov { normalize: false }),
];
const ALL: [(&str, Acceleration); 3] = [PLAIN, NESTEROV[0], NESTEROV[1]];

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Polytopes,
    Curved,
}

fn random_body(rng: &mut Pcg64, kind: Kind) -> Body {
    let capsule = |rng: &mut Pcg64| {
        let h = uniform(rng, 0.0, 1.0);
        Body::new(
            Core::Segment(V::new(0.0, -h, 0.0), V::new(0.0, h, 0.0)),
            uniform(rng, 0.05, 0.5),
        )
    };
    match (kind, rng.random_range(0..2)) {
        (Kind::Polytopes, 0) => Body::bare(random_cuboid(rng, 0.1, 1.0)),
        (Kind::Polytopes, _) => capsule(rng),
        (Kind::Curved, 0) => Body::bare(Core::Cylinder {
            half_height: uniform(rng, 0.1, 1.0),
            radius: uniform(rng, 0.1, 1.0),
        }),
        (Kind::Curved, _) => Body::bare(Core::Cone {
            half_height: uniform(rng, 0.1, 1.0),
            radius: uniform(rng, 0.1, 1.0),
        }),
    }
}

/// Random separated pairs, with their intended distance: far apart (0.01–1) or near touching
/// (1e-6 of the scale). B is moved along the normal of a first plain f64 query (a move along
/// the optimal normal changes the distance by exactly its length; that normal is only near
/// optimal, so the intended distance is approximate — the checks certify each answer on its
/// own). Curved pairs have a cylinder or cone on at least one side.
fn pairs(seed: u64, count: usize, kind: Kind, near: bool) -> Vec<(Pair, f64)> {
    let mut rng = Pcg64::seed_from_u64(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let a = random_body(&mut rng, kind);
        let kind_b = if rng.random_bool(0.5) {
            kind
        } else {
            Kind::Polytopes
        };
        let b = random_body(&mut rng, kind_b);
        let pos12 = Iso::from_parts(
            Translation3::from(random_unit(&mut rng) * uniform(&mut rng, 1.0, 3.0)),
            random_rotation(&mut rng),
        );
        let pair = Pair::new(a, b, pos12);
        let first = pair.gjk_cold::<f64>();
        let Ok(c) = separated(&first) else { continue };
        let target = if near {
            1e-6 * pair.scale()
        } else {
            uniform(&mut rng, 0.01, 1.0)
        };
        let mut moved = pair;
        moved.pos12.translation.vector += c.normal.into_inner() * (target - c.distance);
        out.push((moved, target));
    }
    out
}

/// Runs every variant on every pair in precision `T`, certifies the answers, and returns the
/// failures with the iteration counts per variant.
fn certify<T: Real>(
    cases: &[(Pair, f64)],
    variants: &[(&str, Acceleration)],
) -> (Failures, Vec<Vec<f64>>) {
    let mut failures = Failures::default();
    let mut iterations = vec![Vec::new(); variants.len()];
    for (pair, target) in cases {
        let rounded = pair.through::<T>();
        let rel = rel_tol::<T>(pair.is_curved());
        let tol = rel * pair.scale();
        let mut first_distance = None;
        for (v, (name, acceleration)) in variants.iter().enumerate() {
            let options = GjkOptions {
                acceleration: *acceleration,
                ..GjkOptions::default()
            };
            let mut cache = SimplexCache::EMPTY;
            let out = pair.gjk::<T>(options, f64::INFINITY, &mut cache);
            iterations[v].push(f64::from(out.stats.iterations));
            let context = || format!("{name}, intended distance {target:e}: {pair:?}");
            match &out.status {
                GjkStatus::Separated(c) => {
                    let d = c.distance.as_f64();
                    let reference = *first_distance.get_or_insert(d);
                    let agree = |rel: f64| {
                        rounded.check(c, None, rel)?;
                        if (d - reference).abs() > 2.0 * rel * pair.scale() {
                            return Err(format!(
                                "distance {d:e} vs {reference:e} of {}",
                                variants[0].0
                            ));
                        }
                        Ok(())
                    };
                    failures.check(agree(rel), context);
                }
                GjkStatus::Stalled { estimate, .. } => {
                    failures.stall(estimate, &rounded, None, tol, context);
                }
                // Below the f32 touch tolerance (1e-5 of the size) the cores touch.
                GjkStatus::Intersecting if *target <= tol => {}
                other => failures.push(format!(
                    "{} ({:?})\n    on {}",
                    status_name(other),
                    out.stats,
                    context()
                )),
            }
        }
    }
    (failures, iterations)
}

fn assert_certified<T: Real>(cases: &[(Pair, f64)], variants: &[(&str, Acceleration)], what: &str) {
    let (failures, _) = certify::<T>(cases, variants);
    failures.assert_none(what, cases.len() * variants.len());
}

fn far_and_near(seed: u64, kind: Kind, count: usize) -> Vec<(Pair, f64)> {
    let mut cases = pairs(seed, count / 2, kind, false);
    cases.extend(pairs(seed + 1, count / 2, kind, true));
    cases
}

#[test]
fn nesterov_matches_plain_on_polytopes_f64() {
    assert_certified::<f64>(
        &far_and_near(50, Kind::Polytopes, 800),
        &ALL,
        "polytopes, f64",
    );
}

#[test]
fn nesterov_matches_plain_on_polytopes_f32() {
    assert_certified::<f32>(
        &far_and_near(52, Kind::Polytopes, 800),
        &ALL,
        "polytopes, f32",
    );
}

#[test]
fn plain_gjk_on_curved_pairs_far_apart_f64() {
    assert_certified::<f64>(
        &pairs(54, 800, Kind::Curved, false),
        &[PLAIN],
        "curved, far, f64",
    );
}

#[test]
fn plain_gjk_on_curved_pairs_near_touching_f64() {
    let cases = pairs(56, 800, Kind::Curved, true);
    let (failures, _) = certify::<f64>(&cases, &[PLAIN]);
    failures.assert_none_within(
        "curved, near touching, f64",
        cases.len(),
        NEAR_TOUCHING_CURVED_STALL_BUDGET,
    );
}

#[test]
fn plain_gjk_on_curved_pairs_f32() {
    assert_certified::<f32>(
        &far_and_near(58, Kind::Curved, 800),
        &[PLAIN],
        "curved, f32",
    );
}

#[test]
fn nesterov_matches_plain_on_curved_pairs_f64() {
    assert_certified::<f64>(
        &pairs(54, 800, Kind::Curved, false),
        &ALL,
        "curved, far, f64, with Nesterov",
    );
}

#[test]
fn nesterov_matches_plain_on_curved_pairs_f32() {
    assert_certified::<f32>(
        &pairs(55, 800, Kind::Curved, false),
        &ALL,
        "curved, far, f32, with Nesterov",
    );
}

/// The iteration counts of each variant, printed for the record (`--nocapture`), on far and
/// near-touching pairs of both kinds. Asserted: plain GJK never reaches the iteration cap, and
/// no variant does on polytopes.
fn mean_iterations<T: Real>() {
    let precision = if is_f64::<T>() { "f64" } else { "f32" };
    for (kind, label) in [(Kind::Polytopes, "polytopes"), (Kind::Curved, "curved")] {
        let cases = far_and_near(60, kind, 600);
        let (_, iterations) = certify::<T>(&cases, &ALL);
        for (v, (name, _)) in ALL.iter().enumerate() {
            let capped = iterations[v].iter().filter(|&&n| n >= 128.0).count();
            println!(
                "mean iterations ({precision}, {label:>9}) {name:>20}: {:7.3}   (capped at 128: {capped} of {})",
                mean(&iterations[v]),
                cases.len()
            );
            if v == 0 || kind == Kind::Polytopes {
                assert_eq!(capped, 0, "{name} hit the iteration cap on {label}");
            }
        }
    }
}

#[test]
fn mean_iterations_f64() {
    mean_iterations::<f64>();
}

#[test]
fn mean_iterations_f32() {
    mean_iterations::<f32>();
}
