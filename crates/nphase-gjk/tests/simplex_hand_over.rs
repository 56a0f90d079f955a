//! `closest_points_with_simplex` hands over GJK's final simplex, the start of EPA, while the
//! status every query returns stays small.
//!
//! On thousands of random pairs of every core kind (balls, capsules, cuboids, triangles,
//! cylinders, cones; rounded or not) from deep overlap to apart, cold and warm, in f64 and f32:
//!
//! * the answer is `closest_points`'s — status and statistics bit for bit, and the same cache
//!   left for the next query;
//! * after `Intersecting` or `Stalled` the simplex has 1 to 4 vertices, each `w = a − b` exactly,
//!   with `a` on A's core and `b` on B's (A's frame) up to the tolerance, and after
//!   `Intersecting` the origin lies in the simplex's hull up to GJK's touch distance (inside a
//!   tetrahedron, or that close to a smaller simplex);
//! * after any other status the caller's simplex is left as it was.

mod common;

use common::*;
use nphase_gjk::{
    GjkInput, GjkOptions, GjkStatus, Simplex, SimplexCache, closest_points,
    closest_points_with_simplex,
};
use nphase_math::nalgebra::Translation3;
use nphase_math::{Isometry, Real};
use rand::SeedableRng;
use rand_pcg::Pcg64;

/// The distance from the origin to the convex hull of `w` (1 to 4 points), by the oracle's
/// closed forms: 0 inside a tetrahedron, else the nearest of its faces.
fn origin_distance(w: &[V]) -> f64 {
    let o = V::zeros();
    match *w {
        [a] => a.norm(),
        [a, b] => point_segment_distance(&o, &a, &b),
        [a, b, c] => point_triangle_distance(&o, &a, &b, &c),
        [a, b, c, d] => {
            let volume = |p: &V, q: &V, r: &V, s: &V| (q - p).cross(&(r - p)).dot(&(s - p));
            let total = volume(&a, &b, &c, &d);
            let inside = [
                volume(&o, &b, &c, &d),
                volume(&a, &o, &c, &d),
                volume(&a, &b, &o, &d),
                volume(&a, &b, &c, &o),
            ]
            .iter()
            .all(|v| v * total >= 0.0);
            if inside {
                0.0
            } else {
                [[a, b, c], [a, b, d], [a, c, d], [b, c, d]]
                    .iter()
                    .map(|[p, q, r]| point_triangle_distance(&o, p, q, r))
                    .fold(f64::INFINITY, f64::min)
            }
        }
        _ => f64::INFINITY,
    }
}

/// A simplex that no query below can produce (one vertex far away), to see whether a query
/// wrote over it.
fn sentinel<T: Real>() -> Simplex<T> {
    let mut s = Simplex::default();
    let far = nphase_math::Vector::new(T::lit(1e3), T::lit(-7.0), T::lit(3.0));
    s.push(nphase_gjk::SimplexVertex {
        w: far,
        a: far.into(),
        b: nphase_math::Point::origin(),
        id_a: nphase_shapes::VertexId::NONE,
        id_b: nphase_shapes::VertexId::NONE,
    });
    s
}

fn hand_over<T: Real>(seed: u64) {
    let mut rng = Pcg64::seed_from_u64(seed);
    let mut failures = Failures::default();
    let total = 3000;
    let (mut overlaps, mut stalls, mut others) = (0, 0, 0);
    for _ in 0..total {
        let (a, b) = (random_any_body(&mut rng), random_any_body(&mut rng));
        let t = random_unit(&mut rng) * uniform(&mut rng, 0.0, 2.0);
        let pair = Pair::new(
            a,
            b,
            Isometry::from_parts(Translation3::from(t), random_rotation(&mut rng)),
        )
        .through::<T>();
        let (shape1, shape2) = (pair.a.build::<T>(), pair.b.build::<T>());
        let input = GjkInput::new(&*shape1, &*shape2, iso_to_t::<T>(&pair.pos12))
            .with_radii(T::lit(pair.a.radius), T::lit(pair.b.radius))
            .with_max_dist(T::lit(1.0))
            .with_options(GjkOptions::default());
        let tol = rel_tol::<T>(pair.is_curved()) * pair.scale();
        // Cold, then warm from the cache the cold query left.
        let (mut plain_cache, mut cache) = (SimplexCache::EMPTY, SimplexCache::EMPTY);
        for round in ["cold", "warm"] {
            let context = || format!("{round}: {pair:?}");
            let plain = closest_points(&input, &mut plain_cache);
            let mut simplex = sentinel::<T>();
            let out = closest_points_with_simplex(&input, &mut cache, &mut simplex);
            if out != plain || cache != plain_cache {
                failures.push(format!("{out:?} against {plain:?}; {}", context()));
            }
            match out.status {
                GjkStatus::Intersecting | GjkStatus::Stalled { .. } => {
                    let overlap = matches!(out.status, GjkStatus::Intersecting);
                    overlaps += usize::from(overlap);
                    stalls += usize::from(!overlap);
                    let vertices = simplex.vertices();
                    if vertices.is_empty() || vertices.len() > 4 {
                        failures.push(format!("{} vertices; {}", vertices.len(), context()));
                        continue;
                    }
                    let bare = |body: &Body| Body::bare(body.core);
                    for v in vertices {
                        let (a, b) = (to_f64(&v.a.coords), to_f64(&v.b.coords));
                        let b_local = pair
                            .pos12
                            .inverse_transform_point(&nphase_math::Point::from(b))
                            .coords;
                        let on_a = bare(&pair.a).signed_distance(&a);
                        let on_b = bare(&pair.b).signed_distance(&b_local);
                        if v.w != v.a - v.b || on_a > tol || on_b > tol {
                            failures.push(format!(
                                "vertex off its shapes ({on_a:e}, {on_b:e}) or w ≠ a − b; {}",
                                context()
                            ));
                        }
                    }
                    let w: Vec<V> = vertices.iter().map(|v| to_f64(&v.w)).collect();
                    let gap = origin_distance(&w);
                    if overlap && gap > tol {
                        failures.push(format!("origin {gap:e} from the simplex; {}", context()));
                    }
                }
                _ => {
                    others += 1;
                    if simplex != sentinel::<T>() {
                        failures.push(format!("simplex written over; {}", context()));
                    }
                }
            }
        }
    }
    println!("intersecting {overlaps}, stalled {stalls}, other {others}");
    failures.assert_none("simplex hand-over", total);
    // Representative: overlaps and other answers are both common.
    assert!(
        overlaps > total / 5 && others > total / 5,
        "{overlaps} {others}"
    );
}

#[test]
fn simplex_hand_over_f64() {
    hand_over::<f64>(41);
}

#[test]
fn simplex_hand_over_f32() {
    hand_over::<f32>(42);
}
