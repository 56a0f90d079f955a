//! Convex hull support queries: nphase's linear scan vs hill climbing (cold and warm) vs parry3d,
//! on hulls of points on a sphere (every point a vertex), to choose
//! `nphase_shapes::HILL_CLIMBING_MIN_VERTICES`. Also the hull construction time at 4096 points.
//!
//! Each measured iteration answers `QUERIES` support queries, so the throughput column reads in
//! queries per second. Inputs are generated once from fixed seeds.
//!
//! ```text
//! cargo bench --bench hull_support -- --warm-up-time 1 --measurement-time 2
//! ```

use std::f64::consts::TAU;
use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use nalgebra::{Point3, UnitQuaternion, Vector3};
use nphase_shapes::{ConvexPolyhedron, VertexId};
use parry3d::shape::SupportMap as _;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;

const SIZES: [usize; 11] = [8, 16, 24, 32, 48, 64, 96, 128, 256, 1024, 4096];
const QUERIES: usize = 256;

fn random_unit(rng: &mut Pcg64) -> Vector3<f64> {
    loop {
        let v = Vector3::from_fn(|_, _| rng.random_range(-1.0..1.0));
        let n = v.norm();
        if n > 0.1 && n <= 1.0 {
            break v / n;
        }
    }
}

/// Random directions: what a cold query (GJK's first iteration, a new pair) sees.
fn random_directions(seed: u64) -> Vec<Vector3<f64>> {
    let mut rng = Pcg64::seed_from_u64(seed);
    (0..QUERIES).map(|_| random_unit(&mut rng)).collect()
}

/// A direction precessing on a 60° cone, 1.4° per query, closing after `QUERIES` steps: what a
/// warm-started query sees from one frame (or GJK iteration) to the next.
fn rotating_directions() -> Vec<Vector3<f64>> {
    let tilt = UnitQuaternion::from_scaled_axis(Vector3::new(0.4, -0.7, 0.2));
    let theta = 60f64.to_radians();
    (0..QUERIES)
        .map(|k| {
            let t = TAU * k as f64 / QUERIES as f64;
            tilt * Vector3::new(t.cos() * theta.sin(), t.sin() * theta.sin(), theta.cos())
        })
        .collect()
}

fn bench_support(c: &mut Criterion) {
    let cold64 = random_directions(2);
    let warm64 = rotating_directions();
    let cold32: Vec<Vector3<f32>> = cold64.iter().map(|d| d.cast()).collect();
    let warm32: Vec<Vector3<f32>> = warm64.iter().map(|d| d.cast()).collect();
    for n in SIZES {
        let mut rng = Pcg64::seed_from_u64(n as u64);
        let points64: Vec<Point3<f64>> = (0..n)
            .map(|_| Point3::from(random_unit(&mut rng)))
            .collect();
        let points32: Vec<Point3<f32>> = points64.iter().map(|p| p.cast()).collect();
        let hull64 = ConvexPolyhedron::from_points(&points64).expect("valid cloud");
        let hull32 = ConvexPolyhedron::from_points(&points32).expect("valid cloud");
        let parry32 = parry3d::shape::ConvexPolyhedron::from_convex_hull(&points32)
            .expect("parry3d builds the hull");
        assert_eq!((hull64.vertices().len(), hull32.vertices().len()), (n, n));

        let mut group = c.benchmark_group(format!("hull_support/{n}"));
        group.throughput(Throughput::Elements(QUERIES as u64));
        group.bench_function("parry3d_f32", |b| {
            b.iter(|| {
                for d in &cold32 {
                    black_box(parry32.local_support_point(black_box(d)));
                }
            })
        });
        group.bench_function("nphase_f32_linear", |b| {
            b.iter(|| {
                for d in &cold32 {
                    black_box(hull32.local_support_vertex_linear(black_box(d)));
                }
            })
        });
        group.bench_function("nphase_f32_climb_cold", |b| {
            b.iter(|| {
                for d in &cold32 {
                    black_box(hull32.local_support_vertex_climbing(black_box(d), VertexId::NONE));
                }
            })
        });
        group.bench_function("nphase_f32_climb_warm", |b| {
            let mut hint = VertexId::NONE;
            b.iter(|| {
                for d in &warm32 {
                    hint = hull32.local_support_vertex_climbing(black_box(d), hint).id;
                }
                black_box(hint)
            })
        });
        group.bench_function("nphase_f64_linear", |b| {
            b.iter(|| {
                for d in &cold64 {
                    black_box(hull64.local_support_vertex_linear(black_box(d)));
                }
            })
        });
        group.bench_function("nphase_f64_climb_cold", |b| {
            b.iter(|| {
                for d in &cold64 {
                    black_box(hull64.local_support_vertex_climbing(black_box(d), VertexId::NONE));
                }
            })
        });
        group.bench_function("nphase_f64_climb_warm", |b| {
            let mut hint = VertexId::NONE;
            b.iter(|| {
                for d in &warm64 {
                    hint = hull64.local_support_vertex_climbing(black_box(d), hint).id;
                }
                black_box(hint)
            })
        });
        group.finish();
    }
}

fn bench_build(c: &mut Criterion) {
    let n = 4096;
    let mut rng = Pcg64::seed_from_u64(99);
    let sphere64: Vec<Point3<f64>> = (0..n)
        .map(|_| Point3::from(random_unit(&mut rng)))
        .collect();
    let sphere32: Vec<Point3<f32>> = sphere64.iter().map(|p| p.cast()).collect();
    let mut group = c.benchmark_group(format!("hull_build/sphere_{n}"));
    group.sample_size(20);
    group.bench_function("parry3d_f32", |b| {
        b.iter(|| parry3d::shape::ConvexPolyhedron::from_convex_hull(black_box(&sphere32)))
    });
    group.bench_function("nphase_f32", |b| {
        b.iter(|| ConvexPolyhedron::from_points(black_box(&sphere32)))
    });
    group.bench_function("nphase_f64", |b| {
        b.iter(|| ConvexPolyhedron::from_points(black_box(&sphere64)))
    });
    group.finish();
}

criterion_group!(benches, bench_support, bench_build);
criterion_main!(benches);
