//! A noise-resistant companion to `hull_support.rs`: the same queries, but the variants are
//! interleaved round by round and each keeps its fastest round, so a busy machine (other builds
//! stealing cores) slows every variant alike instead of whichever criterion happened to be
//! measuring. Prints nanoseconds per query; used to place `HILL_CLIMBING_MIN_VERTICES`.
//!
//! A second table measures the same support functions on *cold memory*: many distinct hulls,
//! each visited once per round by a GJK-like run of queries (one without a hint, then warm ones
//! from the previous answer), so each run starts on a hull the cache has lost — a scene with a
//! hull of its own per body.
//!
//! ```text
//! cargo bench --bench hull_crossover
//! ```

use std::f64::consts::TAU;
use std::hint::black_box;
use std::time::Instant;

use nalgebra::{Point3, Vector3};
use nphase_math::Real;
use nphase_shapes::{ConvexPolyhedron, VertexId};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;

const SIZES: [usize; 13] = [8, 12, 16, 20, 24, 28, 32, 40, 48, 64, 96, 128, 256];
const QUERIES: usize = 256;
const ROUNDS: usize = 300;

fn random_unit(rng: &mut Pcg64) -> Vector3<f64> {
    loop {
        let v = Vector3::from_fn(|_, _| rng.random_range(-1.0..1.0));
        let n = v.norm();
        if n > 0.1 && n <= 1.0 {
            break v / n;
        }
    }
}

/// The fastest of `ROUNDS` rounds of each closure, interleaved, in seconds.
fn fastest<const N: usize>(mut runs: [&mut dyn FnMut(); N]) -> [f64; N] {
    let mut best = [f64::MAX; N];
    for _ in 0..ROUNDS {
        for (run, best) in runs.iter_mut().zip(&mut best) {
            let start = Instant::now();
            run();
            *best = best.min(start.elapsed().as_secs_f64());
        }
    }
    best
}

fn support<T: Real>(label: &str) {
    println!("{label}: ns per query, fastest of {ROUNDS} interleaved rounds of {QUERIES} queries");
    println!(
        "{:>8} {:>8} {:>8} {:>8}",
        "vertices", "linear", "cold", "warm"
    );
    for n in SIZES {
        let mut rng = Pcg64::seed_from_u64(n as u64);
        let points: Vec<Point3<T>> = (0..n)
            .map(|_| Point3::from(random_unit(&mut rng).map(T::lit)))
            .collect();
        let hull = ConvexPolyhedron::from_points(&points).expect("valid cloud");
        assert_eq!(hull.vertices().len(), n);
        let cold: Vec<Vector3<T>> = (0..QUERIES)
            .map(|_| random_unit(&mut rng).map(T::lit))
            .collect();
        let warm: Vec<Vector3<T>> = (0..QUERIES)
            .map(|k| {
                let t = TAU * k as f64 / QUERIES as f64;
                Vector3::new(t.cos() * 0.866, t.sin() * 0.866, 0.5).map(T::lit)
            })
            .collect();
        let mut hint = VertexId::NONE;
        let times = fastest([
            &mut || {
                for d in &cold {
                    black_box(hull.local_support_vertex_linear(black_box(d)));
                }
            },
            &mut || {
                for d in &cold {
                    black_box(hull.local_support_vertex_climbing(black_box(d), VertexId::NONE));
                }
            },
            &mut || {
                for d in &warm {
                    hint = hull.local_support_vertex_climbing(black_box(d), hint).id;
                }
                black_box(hint);
            },
        ]);
        let [linear, cold, warm] = times.map(|t| t * 1e9 / QUERIES as f64);
        println!("{n:>8} {linear:>8.2} {cold:>8.2} {warm:>8.2}");
    }
}

/// Hulls per size in the cold-memory table (about 15 KB each at 64 vertices in f32: 120 MB,
/// far more than the machine's 32 MB last-level cache), queries per visit, rounds.
const COLD_HULLS: usize = 8192;
const VISIT: usize = 8;
const COLD_ROUNDS: usize = 9;

/// The cold-memory table: ns per query, fastest of [`COLD_ROUNDS`] interleaved rounds, each
/// visiting every hull once (in a shuffled order) with [`VISIT`] queries: a random direction
/// without a hint, then directions turning by ~10° a query, hinted with the last answer.
fn support_cold_memory<T: Real>(label: &str) {
    println!(
        "{label}, cold memory: ns per query, fastest of {COLD_ROUNDS} rounds; {COLD_HULLS} \
         hulls, {VISIT} queries a visit"
    );
    println!("{:>8} {:>8} {:>8}", "vertices", "linear", "climb");
    for n in [16, 32, 64, 128, 256] {
        let mut rng = Pcg64::seed_from_u64(1000 + n as u64);
        let hulls: Vec<ConvexPolyhedron<T>> = (0..COLD_HULLS)
            .map(|_| {
                let points: Vec<Point3<T>> = (0..n)
                    .map(|_| Point3::from(random_unit(&mut rng).map(T::lit)))
                    .collect();
                ConvexPolyhedron::from_points(&points).expect("valid cloud")
            })
            .collect();
        let mut order: Vec<usize> = (0..COLD_HULLS).collect();
        for i in (1..order.len()).rev() {
            order.swap(i, rng.random_range(0..=i));
        }
        // Per visit: a random start and a turning direction.
        let visits: Vec<[Vector3<T>; VISIT]> = (0..COLD_HULLS)
            .map(|_| {
                let (a, b) = (random_unit(&mut rng), random_unit(&mut rng));
                let b = (b - a * a.dot(&b)).normalize();
                core::array::from_fn(|k| {
                    let t = 0.17 * k as f64;
                    (a * t.cos() + b * t.sin()).map(T::lit)
                })
            })
            .collect();
        let run = |climb: bool| {
            for &h in &order {
                let hull = &hulls[h];
                let mut hint = VertexId::NONE;
                for d in &visits[h] {
                    let d = black_box(d);
                    hint = if climb {
                        hull.local_support_vertex_climbing(d, hint).id
                    } else {
                        hull.local_support_vertex_linear(d).id
                    };
                }
                black_box(hint);
            }
        };
        let mut best = [f64::MAX; 2];
        for _ in 0..COLD_ROUNDS {
            for (k, climb) in [false, true].into_iter().enumerate() {
                let start = Instant::now();
                run(climb);
                best[k] = best[k].min(start.elapsed().as_secs_f64());
            }
        }
        let [linear, climb] = best.map(|t| t * 1e9 / (COLD_HULLS * VISIT) as f64);
        println!("{n:>8} {linear:>8.2} {climb:>8.2}");
    }
}

fn build() {
    let mut rng = Pcg64::seed_from_u64(99);
    let sphere64: Vec<Point3<f64>> = (0..4096)
        .map(|_| Point3::from(random_unit(&mut rng)))
        .collect();
    let sphere32: Vec<Point3<f32>> = sphere64.iter().map(|p| p.cast()).collect();
    let times = fastest([
        &mut || {
            black_box(parry3d::shape::ConvexPolyhedron::from_convex_hull(
                black_box(&sphere32),
            ));
        },
        &mut || {
            black_box(ConvexPolyhedron::from_points(black_box(&sphere32)).ok());
        },
        &mut || {
            black_box(ConvexPolyhedron::from_points(black_box(&sphere64)).ok());
        },
    ]);
    let [parry, nphase32, nphase64] = times.map(|t| t * 1e3);
    println!("hull of 4096 points on a sphere, ms (fastest of {ROUNDS}):");
    println!("  parry3d f32 {parry:.3}   nphase f32 {nphase32:.3}   nphase f64 {nphase64:.3}");
}

fn main() {
    // `cargo bench` passes `--bench`; there are no other options.
    support::<f32>("f32");
    support::<f64>("f64");
    support_cold_memory::<f32>("f32");
    support_cold_memory::<f64>("f64");
    build();
}
