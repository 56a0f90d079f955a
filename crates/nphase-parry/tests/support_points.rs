//! Every parry 0.31 convex shape and its nphase conversion have the same support points, on
//! random shapes and random directions; and nphase shapes seen through [`AsParry`] answer
//! parry's `SupportMap` with nphase's points.
//!
//! Tolerance: `1e-5 × scale` (`scale` = the shape's largest extent). Both sides compute in f32;
//! curved supports normalise the direction (or its xz part) differently, which moves the point
//! by a few ulps of its size. Polytopal supports return the same vertex: a random direction
//! ties between two vertices with probability zero, and the test counts how many directions
//! were closer to a tie than the tolerance, to show that the sample does not hide one.

mod common;

use common::shapes::{random_shapes, vector};
use nphase_parry::{AsParry, to_nphase};
use nphase_shapes::SupportMap as _;
use parry3d_031::math::Vector;
use parry3d_031::shape::SupportMap as _;
use rand::SeedableRng;
use rand_pcg::Pcg64;

const TRIALS: usize = 200;
const DIRECTIONS: usize = 50;

#[test]
fn every_convex_shape_keeps_its_support_points() {
    let mut rng = Pcg64::seed_from_u64(31);
    let (mut compared, mut near_ties, mut worst) = (0usize, 0usize, 0.0f32);
    for _ in 0..TRIALS {
        for (name, shape) in random_shapes(&mut rng) {
            let parry = shape
                .as_support_map()
                .expect("convex parry shapes are support maps");
            let nphase = to_nphase(shape.as_ref()).unwrap_or_else(|e| panic!("{name}: {e}"));
            let aabb = shape.compute_local_aabb();
            let scale = aabb.mins.abs().max(aabb.maxs.abs()).max_element();
            let tol = 1e-5 * scale;
            for _ in 0..DIRECTIONS {
                let dir = vector(&mut rng, 1.0);
                let expected = parry.local_support_point(dir);
                let got =
                    nphase.local_support_point(&nphase_parry::glam_nalgebra::vector_to_na(dir));
                let got = nphase_parry::glam_nalgebra::point_from_na(&got);
                let error = (got - expected).length();
                // The support value is what GJK and EPA see; it must agree whatever the point.
                let value_error = (got.dot(dir) - expected.dot(dir)).abs() / dir.length();
                assert!(
                    value_error <= tol,
                    "{name}: support value off by {value_error} along {dir:?}"
                );
                if error > tol {
                    // Only a polytope's near-tie may pick another vertex of the same value.
                    near_ties += 1;
                    assert!(
                        value_error <= tol && near_ties <= compared / 1000 + 1,
                        "{name}: support point {got:?}, parry {expected:?} along {dir:?}"
                    );
                } else {
                    worst = worst.max(error / scale);
                }
                compared += 1;
            }
        }
    }
    assert_eq!(compared, TRIALS * DIRECTIONS * common::shapes::CONVEX_TYPES);
    eprintln!("{compared} support points, worst relative error {worst:e}, {near_ties} near ties");
}

/// nphase shapes through parry's `SupportMap`: the same points as through nphase's own.
#[test]
fn nphase_shapes_answer_parrys_support_map() {
    let mut rng = Pcg64::seed_from_u64(32);
    for _ in 0..TRIALS {
        for (name, shape) in random_shapes(&mut rng) {
            let nphase = to_nphase(shape.as_ref()).unwrap_or_else(|e| panic!("{name}: {e}"));
            let wrapped = AsParry(nphase.clone());
            for _ in 0..DIRECTIONS {
                let dir = vector(&mut rng, 1.0);
                let through_parry = wrapped.local_support_point(dir);
                let direct =
                    nphase.local_support_point(&nphase_parry::glam_nalgebra::vector_to_na(dir));
                assert_eq!(
                    through_parry,
                    nphase_parry::glam_nalgebra::point_from_na(&direct),
                    "{name}"
                );
            }
            // A zero direction gives a finite point, where parry's ball gives NaN.
            assert!(
                wrapped.local_support_point(Vector::ZERO).is_finite(),
                "{name}"
            );
        }
    }
}
