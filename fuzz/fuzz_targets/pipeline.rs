//! `NarrowPhase::update` over fuzzed colliders and pairs for a few frames (moving and turning
//! them between frames): bad input (a pair out of range, a self pair, a non-finite pose or one
//! beyond the input range) is refused with a `PipelineError`; otherwise
//! one manifold per pair, at most four finite points each within the prediction and a unit
//! normal, the deepest point that of a fresh narrow phase's full recomputation within a few
//! thousandths of the scene's scale, and the statistics add up.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use nphase::math::nalgebra::UnitQuaternion;
use nphase::math::{Isometry, Real, Vector};
use nphase::pipeline::{Collider, NarrowPhase, NarrowPhaseConfig, PipelineError};
use nphase_fuzz::{Num, PoseSpec, ShapeSpec, all_finite, magnitude};

#[derive(Debug, Arbitrary)]
struct Input {
    colliders: Vec<(u8, ShapeSpec, PoseSpec)>,
    pairs: Vec<(u8, u8)>,
    prediction: Num,
    /// Per-frame motion of every collider (a translation step).
    step: [Num; 3],
}

fn check<T: Real>(input: &Input, limit: f64) {
    let mut colliders: Vec<Collider<T>> = input
        .colliders
        .iter()
        .take(12)
        .filter_map(|(id, shape, pose)| {
            shape.build::<T>().map(|shape| Collider {
                id: u64::from(*id),
                shape,
                pose: pose.build(),
            })
        })
        .collect();
    let pairs: Vec<(usize, usize)> = input
        .pairs
        .iter()
        .take(32)
        .map(|&(a, b)| (usize::from(a % 16), usize::from(b % 16)))
        .collect();
    let prediction = T::lit(input.prediction.0);
    let config = NarrowPhaseConfig {
        prediction,
        threads: 1,
        ..NarrowPhaseConfig::default()
    };
    let mut narrow = match NarrowPhase::new(config) {
        Ok(n) => n,
        Err(e) => {
            assert_eq!(e, PipelineError::InvalidPrediction);
            return;
        }
    };
    let scene_size = input
        .colliders
        .iter()
        .take(12)
        .map(|(_, shape, _)| magnitude(shape))
        .fold(0.0, f64::max);
    let in_range = input.colliders.iter().take(12).all(|(_, shape, p)| {
        magnitude(shape) <= limit
            && p.translation
                .iter()
                .all(|n| n.0.is_finite() && n.0.abs() <= limit)
    }) && input
        .step
        .iter()
        .all(|n| n.0.is_finite() && n.0.abs() <= limit / 10.0)
        && prediction <= T::lit(limit);
    for frame in 0..3 {
        let bad_pose = colliders
            .iter()
            .any(|c| !PoseSpec::is_finite(&c.pose) || !PoseSpec::in_range(&c.pose));
        let bad_pair = pairs
            .iter()
            .any(|&(a, b)| a == b || a >= colliders.len() || b >= colliders.len());
        match narrow.update(&colliders, &pairs) {
            Err(e) => {
                assert!(
                    bad_pose || bad_pair,
                    "frame {frame}: refused valid input: {e}"
                );
                assert!(!e.to_string().contains('\n'));
                return;
            }
            Ok(manifolds) => {
                assert!(!bad_pose && !bad_pair, "frame {frame}: accepted bad input");
                assert_eq!(manifolds.len(), pairs.len());
                if in_range {
                    for m in manifolds {
                        assert!(m.points.len() <= 4);
                        assert!(all_finite(m.local_normal1.iter().copied()), "{m:?}");
                        let unit = num_traits::Float::abs(m.local_normal1.norm() - T::one());
                        assert!(m.points.is_empty() || unit < T::lit(1e-4), "{m:?}");
                        for p in &m.points {
                            assert!(
                                all_finite(
                                    p.local_point1
                                        .iter()
                                        .chain(p.local_point2.iter())
                                        .copied()
                                        .chain([p.dist])
                                ),
                                "{m:?}"
                            );
                        }
                    }
                    // Against a full recomputation: the same colliders through a fresh narrow
                    // phase. Shortcuts keep a point up to the prediction's hysteresis beyond it
                    // and the deepest point up to DEPTH_HYSTERESIS × the size above the exact
                    // depth; a few thousandths of the scene's scale is a shortcut gone wrong.
                    let mut fresh = NarrowPhase::new(config).expect("valid above");
                    let cold = fresh.update(&colliders, &pairs).expect("accepted above");
                    let scale = colliders
                        .iter()
                        .map(|c| num_traits::Float::abs(c.pose.translation.vector.amax()))
                        .fold(T::lit(scene_size.max(1e-6)), num_traits::Float::max);
                    let tol = T::lit(5e-3) * scale;
                    let deepest = |m: &nphase::pipeline::ContactManifold<T>| {
                        m.points
                            .iter()
                            .map(|p| p.dist)
                            .fold(T::infinity(), num_traits::Float::min)
                    };
                    for (k, (warm, full)) in manifolds.iter().zip(cold).enumerate() {
                        let (w, f) = (deepest(warm), deepest(full));
                        if f < prediction - tol || w < prediction - tol {
                            assert!(
                                num_traits::Float::abs(w - f) <= tol,
                                "frame {frame}, pair {k}: kept {w:?}, recomputed {f:?}\n\
                                 {warm:?}\n{full:?}"
                            );
                        }
                    }
                }
            }
        }
        let stats = narrow.stats();
        assert_eq!(stats.pairs, pairs.len() as u64);
        assert!(stats.iteration_limits + stats.fallbacks <= stats.pairs);
        assert!(stats.epa_warm <= stats.epa_runs);
        assert!(stats.sat_certified <= stats.sat_runs);
        // Even colliders move by the step, odd ones turn about their origin by a tenth of it
        // (radians): pairs move relative to each other, so caches are used and re-checked.
        let shift = Vector::new(
            T::lit(input.step[0].0),
            T::lit(input.step[1].0),
            T::lit(input.step[2].0),
        );
        let turn = UnitQuaternion::from_scaled_axis(shift * T::lit(0.1));
        for (k, c) in colliders.iter_mut().enumerate() {
            if k % 2 == 0 {
                c.pose = Isometry::from_parts(shift.into(), UnitQuaternion::identity()) * c.pose;
            } else {
                c.pose.rotation = turn * c.pose.rotation;
            }
        }
    }
}

fuzz_target!(|input: Input| {
    check::<f32>(&input, 1e4);
    check::<f64>(&input, 1e6);
});
