//! Property tests of the support functions (proptest, a fixed number of cases from a fixed
//! seed, both precisions): for random shapes of every type — rounded ones and random hulls
//! included — and random directions, the support point
//!
//! 1. lies on the surface: the exact signed distance of `common::Spec::sdf` is zero within the
//!    tolerance (hulls: the point is one of the cloud's points, see `Spec::surface_error`);
//! 2. maximises `x·d` over dense samples of the shape (`common::Spec::samples`).
//!
//! Tolerance: 64 ε × the shape's size (`common::tolerance`): the support point is a few
//! roundings of numbers of that size, and the oracles run in f64 on the exact parameters of the
//! shape under test, so they add nothing in f32 and ~1e-16 relative in f64.
//!
//! Guard: the samples must come within 1e-3 × size of the support value in at least 95% of the
//! directions, so that a support point missing the maximum by more than that would be caught.

mod common;

use std::cell::Cell;

use common::{
    KINDS, V, fibonacci_sphere, precision, rng, sphere_max, strategies, to_f64, to_t, tolerance,
    unit,
};
use nphase_math::Real;
use nphase_shapes::SupportMap;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

/// Cases per shape type and precision, each with [`DIRECTIONS`] directions.
const CASES: u32 = 256;
const DIRECTIONS: usize = 24;

/// A direction: mostly random with a random length from 1e-3 to 1e3, sometimes an axis or
/// diagonal direction (components −1, 0, 1), where faces and edges tie.
fn direction() -> BoxedStrategy<V> {
    let random = ([-1.0f64..1.0, -1.0f64..1.0, -1.0f64..1.0], -3.0f64..3.0).prop_filter_map(
        "a direction inside the unit ball, away from zero",
        |(v, e)| {
            let v = V::from(v);
            (v.norm() > 0.1 && v.norm() <= 1.0).then(|| v.normalize() * 10f64.powf(e))
        },
    );
    let snapped = [-1i8..=1, -1i8..=1, -1i8..=1].prop_filter_map("not zero", |v| {
        let v = V::from(v.map(f64::from));
        (v != V::zeros()).then_some(v)
    });
    prop_oneof![4 => random, 1 => snapped].boxed()
}

fn check_kind<T: Real>(kind: &str) {
    let sphere = fibonacci_sphere(4000);
    let (directions, dense) = (Cell::new(0usize), Cell::new(0usize));
    let config = Config {
        cases: CASES,
        failure_persistence: None,
        ..Config::default()
    };
    let mut runner =
        TestRunner::new_with_rng(config, TestRng::deterministic_rng(RngAlgorithm::ChaCha));
    let strategy = (
        strategies::spec(kind),
        prop::collection::vec(direction(), DIRECTIONS),
        any::<u64>(),
    );
    let result = runner.run(&strategy, |(spec, dirs, seed)| {
        let spec = spec.rounded::<T>();
        let shape = spec.build::<T>();
        let samples = spec.samples(&mut rng(seed));
        let scale = spec.scale();
        let tol = tolerance::<T>(scale);
        for d in &dirs {
            let d = to_t::<T>(d);
            let d64 = to_f64(&d);
            let du = unit(&d64);
            let s = to_f64(&shape.local_support_point(&d).coords);
            let err = spec.surface_error(&s, &d64);
            prop_assert!(
                err <= tol,
                "support point {s:?} along {d64:?} is {err:e} off the surface (tolerance {tol:e})"
            );
            let value = s.dot(&du);
            let sampled = samples.max_dot(&du, sphere_max(&sphere, &du));
            prop_assert!(
                value >= sampled - tol,
                "support point {s:?} along {d64:?} has x·d = {value}, a sample reaches {sampled}"
            );
            directions.set(directions.get() + 1);
            if sampled >= value - 1e-3 * scale {
                dense.set(dense.get() + 1);
            }
        }
        Ok(())
    });
    if let Err(e) = result {
        panic!("{kind} ({}): {e}", precision::<T>());
    }
    let (n, close) = (directions.get(), dense.get());
    assert!(
        close * 100 >= n * 95,
        "{kind} ({}): the samples came within 1e-3 × size of the support value for only \
         {close} of {n} directions: too sparse to catch a wrong support point",
        precision::<T>()
    );
}

macro_rules! property_tests {
    ($($name:ident: $kind:literal),* $(,)?) => {$(
        #[test]
        fn $name() {
            assert!(KINDS.contains(&$kind));
            check_kind::<f32>($kind);
            check_kind::<f64>($kind);
        }
    )*};
}

property_tests!(
    ball_support_is_on_the_surface_and_maximal: "ball",
    cuboid_support_is_on_the_surface_and_maximal: "cuboid",
    capsule_support_is_on_the_surface_and_maximal: "capsule",
    cylinder_support_is_on_the_surface_and_maximal: "cylinder",
    cone_support_is_on_the_surface_and_maximal: "cone",
    segment_support_is_on_the_surface_and_maximal: "segment",
    triangle_support_is_on_the_surface_and_maximal: "triangle",
    convex_support_is_on_the_surface_and_maximal: "convex",
    round_support_is_on_the_surface_and_maximal: "round",
);
