//! Steady state allocates nothing: after a few warm-up frames, `NarrowPhase::update` on a
//! fixed set of pairs in motion makes no heap allocation at all; nor do the one-shot queries
//! once their thread's scratch workspace has grown.
//!
//! The bodies swing back and forth (a period of 20 frames), so that steady state repeats what
//! the warm-up saw: a pair allocates its kept EPA polytope once, at its first penetration on
//! the general path (`PairState::epa`), and a polytope pair its separating-axis certificate
//! at its first overlap (`PairState::sat_certificate`, whose lists grow to the most hot
//! features the pair has had), which a body drifting one way would keep doing as new pairs
//! come into contact.
//!
//! The counting global allocator of `allocation-counter` (the workspace forbids `unsafe`, so
//! the allocator is not written here) counts this thread's allocations inside `measure`; this
//! file is a test binary of its own so that allocator is installed only here.
//!
//! The pipeline runs with `threads: 1`, which takes the sequential path (the chunks run on the
//! calling thread). With a pool of several threads rayon itself allocates now and then (its
//! injector queue takes a new block every few dozen jobs handed to the pool), which is outside
//! the library's control; the library's own buffers are the same on both paths.

mod common;

use allocation_counter::measure;
use common::*;
use nphase_math::nalgebra::UnitQuaternion;
use nphase_pipeline::{NarrowPhase, NarrowPhaseConfig};
use rand::Rng;

/// Runs `f`; returns how many allocations (and reallocations) this thread made in it.
fn allocations_in(f: impl FnOnce()) -> u64 {
    measure(f).count_total
}

#[test]
fn steady_state_updates_allocate_nothing() {
    // Every combination of shape types (hulls with 16-gon caps against them, rounded shapes,
    // penetrating pairs through EPA), placed near contact and drifting slowly.
    let zoo = zoo();
    let mut rng = rng(11);
    let mut colliders = Vec::new();
    let mut pairs = Vec::new();
    let mut velocities = Vec::new();
    for i in 0..zoo.len() {
        for j in 0..zoo.len() {
            for s in 0..3 {
                let target = rng.random_range(-0.08..0.03);
                let k = pairs.len() as u64;
                let (a, b) = random_pair(&zoo, (i, j), k, target, s != 0, &mut rng);
                pairs.push((colliders.len(), colliders.len() + 1));
                colliders.push(a);
                colliders.push(b);
                velocities.push((random_unit(&mut rng) * 5e-4, random_unit(&mut rng) * 1e-3));
            }
        }
    }
    let mut narrow = NarrowPhase::new(NarrowPhaseConfig {
        prediction: 0.02,
        threads: 1,
        chunk_size: 64,
    })
    .expect("valid config");
    let mut frame = 0u32;
    let mut step = |narrow: &mut NarrowPhase<f64>, colliders: &mut Vec<_>| {
        narrow.update(colliders, &pairs).expect("valid input");
        for m in narrow.manifolds_mut() {
            for p in &mut m.points {
                p.normal_impulse = 1.0;
            }
        }
        // Forward for ten frames, back for ten.
        let sign = if frame % 20 < 10 { 1.0 } else { -1.0 };
        frame += 1;
        for (&(_, b), (v, w)) in pairs.iter().zip(&velocities) {
            let pose: &mut Iso = &mut colliders[b].pose;
            pose.translation.vector += v * sign;
            pose.rotation = UnitQuaternion::from_scaled_axis(*w * sign) * pose.rotation;
        }
    };
    // Warm-up: the reused buffers (EPA polytope, clipping polygons, candidates, pair states,
    // the key index) grow to the largest case the scene has shown so far. They can still grow
    // once later, when motion makes some pair need more room than any before: with 5 warm-up
    // frames, frame 6 reallocated one buffer once; since the accuracy work (more EPA
    // refinement on some pairs) one buffer grows once between frames 10 and 30; since EPA
    // starts from kept polytopes (whose age, and so EPA's growth from them, differs from one
    // swing to the next) two allocations came between frames 40 and 60; with 80 (four
    // swings), nothing happens in the next 20.
    for _ in 0..80 {
        step(&mut narrow, &mut colliders);
    }
    let mut epa_runs = 0;
    let mut points = 0;
    let allocations = allocations_in(|| {
        for _ in 0..20 {
            step(&mut narrow, &mut colliders);
            epa_runs += narrow.stats().epa_runs;
            points += narrow.stats().points;
        }
    });
    assert_eq!(allocations, 0, "allocations in 20 steady-state updates");
    // Guard: the frames did real work (EPA, full manifolds), and the counter counts.
    assert!(epa_runs > 100, "{epa_runs}");
    assert!(points > 20 * pairs.len() as u64 / 2, "{points}");
    assert!(allocations_in(|| drop(std::hint::black_box(vec![1u8; 16]))) == 1);
}

/// One-shot queries allocate nothing once this thread's scratch workspace has grown: `contact`,
/// `distance` and `intersection_test` on every pair of the zoo's shape types, penetrating (EPA,
/// the separating-axis test) and apart, a second time round allocate nothing (before the
/// scratch workspace was per thread, each call built and freed one, and grew its buffers
/// again on every hull pair).
#[test]
fn one_shot_queries_allocate_nothing_once_warm() {
    use nphase_pipeline::query::{contact, distance, intersection_test};
    let zoo = zoo();
    let mut rng = rng(12);
    let mut pairs = Vec::new();
    for i in 0..zoo.len() {
        for j in 0..zoo.len() {
            for (s, target) in [-0.08, -0.01, 0.01, 0.3].into_iter().enumerate() {
                let k = pairs.len() as u64;
                pairs.push(random_pair(&zoo, (i, j), k, target, s % 2 == 0, &mut rng));
            }
        }
    }
    // Returns how many pairs touch, and the sum of the distances (all of them finite).
    let run = || {
        let (mut touching, mut sum) = (0, 0.0);
        for (a, b) in &pairs {
            let c = contact(&a.pose, &a.shape, &b.pose, &b.shape, 0.02).expect("valid input");
            let d = distance(&a.pose, &a.shape, &b.pose, &b.shape).expect("valid input");
            let hit = intersection_test(&a.pose, &a.shape, &b.pose, &b.shape).expect("valid");
            touching += usize::from(hit);
            sum += d + c.map_or(0.0, |c| c.dist);
        }
        (touching, sum)
    };
    run();
    let mut answers = (0, 0.0);
    let allocations = allocations_in(|| answers = run());
    assert_eq!(
        allocations, 0,
        "allocations in a second round of one-shot queries"
    );
    // Guard: both kinds of answer came up, and the counter counts.
    let (touching, sum) = answers;
    assert!(
        touching > pairs.len() / 4 && touching < pairs.len() * 3 / 4,
        "{touching}"
    );
    assert!(sum.is_finite());
    assert!(allocations_in(|| drop(std::hint::black_box(vec![1u8; 16]))) == 1);
}
