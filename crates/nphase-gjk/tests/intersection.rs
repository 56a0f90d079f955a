//! `intersection_test` must agree with the sign of `closest_points`.
//!
//! On thousands of random pairs of balls, capsules, rounded and bare cuboids, triangles (bare and
//! rounded), cylinders and cones, placed on both sides of contact: a `Separated` distance above
//! the tolerance means "apart"; `Intersecting` or a distance below minus the tolerance means
//! "touching". In between, either answer is right. The `Separated` answers are certified with
//! [`Pair::check`], so the comparison is against a verified sign, not just another GJK run.
//! The test runs cold and warm (with the cache `closest_points` left), in f64 and f32.

mod common;

use common::*;
use nphase_gjk::{GjkOptions, GjkStatus, SimplexCache};
use nphase_math::Real;
use nphase_math::nalgebra::{Translation3, UnitQuaternion};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};
use rand::SeedableRng;
use rand_pcg::Pcg64;

/// What the verified `closest_points` says about the sign: `Some(true)` touching,
/// `Some(false)` apart, `None` within the tolerance band (either answer is right).
fn verified_sign<T: Real>(pair: &Pair, failures: &mut Failures) -> (Option<bool>, SimplexCache<T>) {
    let mut cache = SimplexCache::EMPTY;
    let out = pair.gjk::<T>(GjkOptions::default(), f64::INFINITY, &mut cache);
    let rel = rel_tol::<T>(pair.is_curved());
    let tol = rel * pair.scale();
    let sign = match &out.status {
        GjkStatus::Intersecting => Some(true),
        GjkStatus::Separated(c) => {
            // The sign is compared against a verified distance: witnesses on the surfaces as
            // far apart as the distance says, bounds around it. (The normal is analytic.rs's and
            // acceleration.rs's business; on curved shapes in f32 it misses its tolerance in ~1
            // of 4000 pairs, an open bug pinned in regressions.rs.)
            let rounded = pair.through::<T>();
            let d = c.distance.as_f64();
            let (p1, p2) = (to_f64(&c.point1.coords), to_f64(&c.point2.coords));
            let on_surfaces = rounded.a.signed_distance(&p1).abs() <= tol
                && rounded.b_signed_distance(&p2).abs() <= tol;
            let witnessed = ((p2 - p1).norm() - d.abs()).abs() <= tol;
            let bracketed = c.lower_bound.as_f64() <= d + tol && d <= c.upper_bound.as_f64() + tol;
            if !(on_surfaces && witnessed && bracketed) {
                failures.push(format!(
                    "uncertified distance {d:e}: {c:?}\n    on {pair:?}"
                ));
            }
            (d.abs() > tol).then_some(d < 0.0)
        }
        GjkStatus::Stalled { estimate, .. } => {
            // An honest stall still decides the sign when its bounds do.
            let rounded = pair.through::<T>();
            failures.stall(estimate, &rounded, None, tol, || format!("{pair:?}"));
            let (lower, upper) = (estimate.lower_bound.as_f64(), estimate.upper_bound.as_f64());
            if lower > tol {
                Some(false)
            } else if upper < -tol {
                Some(true)
            } else {
                None
            }
        }
        other => {
            failures.push(format!("{} on {pair:?}", status_name(other)));
            None
        }
    };
    (sign, cache)
}

fn agreement<T: Real>(seed: u64) {
    let mut rng = Pcg64::seed_from_u64(seed);
    let mut failures = Failures::default();
    let total = 4000;
    let (mut touching, mut apart) = (0, 0);
    for _ in 0..total {
        let (a, b) = (random_any_body(&mut rng), random_any_body(&mut rng));
        let t = random_unit(&mut rng) * uniform(&mut rng, 0.0, 2.5);
        let pair = Pair::new(
            a,
            b,
            Iso::from_parts(Translation3::from(t), random_rotation(&mut rng)),
        );
        let (sign, mut cache) = verified_sign::<T>(&pair, &mut failures);
        let pos12 = iso_to_t::<T>(&pair.pos12);
        let cold = pair.intersects::<T>();
        let warm = pair.intersects_at(&pos12, GjkOptions::default(), &mut cache);
        if let Some(s) = sign {
            touching += usize::from(s);
            apart += usize::from(!s);
            if cold != s || warm != s {
                failures.push(format!(
                    "intersection_test cold {cold}, warm {warm}; closest_points says {s}: {pair:?}"
                ));
            }
        }
    }
    println!("touching {touching} apart {apart} of {total}");
    failures.assert_none("intersection test", total);
    // Representative: both answers are common (20–80%).
    let decided = touching + apart;
    assert!(
        touching * 5 >= decided && apart * 5 >= decided,
        "touching {touching}, apart {apart} of {decided}"
    );
}

#[test]
fn intersection_test_agrees_with_closest_points_f64() {
    agreement::<f64>(70);
}

#[test]
fn intersection_test_agrees_with_closest_points_f32() {
    agreement::<f32>(71);
}

/// Two balls or two capsules side by side, as a property over radii and the gap between the
/// rounded surfaces (from −r to +r): the answer is known exactly, `gap ≤ 0` (minus a rounding
/// band), and must be the answer of `intersection_test` in both precisions.
fn capsules_side_by_side(
    h1: f64,
    h2: f64,
    r1: f64,
    r2: f64,
    gap: f64,
    angle: f64,
) -> Result<(), TestCaseError> {
    let a = Body::new(
        Core::Segment(V::new(0.0, -h1, 0.0), V::new(0.0, h1, 0.0)),
        r1,
    );
    let b = Body::new(
        Core::Segment(V::new(0.0, -h2, 0.0), V::new(0.0, h2, 0.0)),
        r2,
    );
    // B's axis is turned about x (the line between the cores), so the cores' closest points
    // are the centres: the core distance is exactly the x offset.
    let rotation = UnitQuaternion::from_axis_angle(&V::x_axis(), angle);
    let pair = Pair::new(
        a,
        b,
        Iso::from_parts(Translation3::new(r1 + r2 + gap, 0.0, 0.0), rotation),
    );
    let band_64 = 1e-9 * pair.scale();
    if gap.abs() > band_64 {
        prop_assert_eq!(pair.intersects::<f64>(), gap < 0.0, "f64 {:?}", pair);
    }
    if gap.abs() > 1e-4 * pair.scale() {
        prop_assert_eq!(pair.intersects::<f32>(), gap < 0.0, "f32 {:?}", pair);
    }
    Ok(())
}

fn fixed_config(cases: u32) -> Config {
    Config {
        cases,
        rng_seed: RngSeed::Fixed(72),
        failure_persistence: None,
        ..Config::default()
    }
}

proptest! {
    #![proptest_config(fixed_config(2000))]
    #[test]
    fn capsule_sign_is_the_sign_of_the_gap(
        h1 in 0.0..1.0f64,
        h2 in 0.0..1.0f64,
        r1 in 0.01..1.0f64,
        r2 in 0.01..1.0f64,
        gap_fraction in -1.0..1.0f64,
        exponent in -8.0..0.0f64,
        angle in -3.2..3.2f64,
    ) {
        // Gaps from ±1e-8 to ±1 of the smaller radius, so the band around contact is probed.
        let gap = gap_fraction.signum() * 10f64.powf(exponent) * r1.min(r2) * gap_fraction.abs().max(0.1);
        capsules_side_by_side(h1, h2, r1, r2, gap, angle)?;
    }
}
