//! GJK against a brute-force oracle on random small polytopes.
//!
//! The shapes are `Triangle`s, `Segment`s and rotated `Cuboid`s; their Minkowski difference
//! `A − B` is the convex hull of the explicit point set `{a_i − b_j}` (at most 64 points). The
//! oracle knows nothing of GJK: it enumerates every triple of points, keeps those whose plane
//! has all points on one side (the hull's facets), and takes
//!
//! * the distance from the origin to the hull as the smallest of the origin's projections onto
//!   the facet triangles (when inside them) and onto every segment between two points (clamped;
//!   that covers the vertices) — every candidate is a point of the hull, and the nearest point
//!   of the hull lies on a facet triangle, an edge or a vertex, so the minimum is exact;
//! * whether the origin is inside (behind every facet plane) and how deep (the nearest facet
//!   plane). Point sets that are flat or collinear have no inside: the origin is in the hull iff
//!   its distance is zero.
//!
//! GJK must then report `Separated` with the oracle's distance when the origin is outside by more
//! than the tolerance band, `Intersecting` when it is inside by more than the band, and either
//! within it.

mod common;

use common::*;
use nphase_gjk::GjkStatus;
use nphase_math::Real;
use nphase_math::nalgebra::Translation3;
use rand::SeedableRng;
use rand_pcg::Pcg64;

/// What the oracle knows about the origin and the hull of a point set.
#[derive(Clone, Copy, Debug)]
struct HullQuery {
    /// Signed distance: the distance to the hull outside, minus the depth inside.
    signed: f64,
    /// The point of the hull nearest the origin (meaningful outside).
    nearest: V,
}

/// The brute-force oracle described in the module doc.
fn hull_query(points: &[V]) -> HullQuery {
    let extent = points
        .iter()
        .flat_map(|p| points.iter().map(move |q| (p - q).norm()))
        .fold(0.0, f64::max);
    let magnitude = points.iter().map(|p| p.norm()).fold(0.0, f64::max);
    // Rounding of a plane test on points of this magnitude.
    let eps = 1e-12 * magnitude.max(extent);

    let mut best = (f64::INFINITY, V::zeros());
    let mut keep = |candidate: V| {
        let d = candidate.norm();
        if d < best.0 {
            best = (d, candidate);
        }
    };
    for p in points {
        keep(*p);
    }
    for (i, p) in points.iter().enumerate() {
        for q in &points[i + 1..] {
            let e = q - p;
            let len2 = e.norm_squared();
            if len2 > 0.0 {
                keep(p + e * (-p.dot(&e) / len2).clamp(0.0, 1.0));
            }
        }
    }

    let mut solid = false;
    let mut deepest_facet = f64::NEG_INFINITY; // max over facets of the origin's height above it
    let n = points.len();
    for i in 0..n {
        for j in i + 1..n {
            for k in j + 1..n {
                let (p, e1, e2) = (points[i], points[j] - points[i], points[k] - points[i]);
                let normal = e1.cross(&e2);
                let area = normal.norm();
                if area <= 1e-9 * e1.norm() * e2.norm() {
                    continue; // collinear: its edges are candidates already
                }
                let normal = normal / area;
                let (mut above, mut below) = (false, false);
                for q in points {
                    let s = (q - p).dot(&normal);
                    above |= s > eps;
                    below |= s < -eps;
                }
                if above && below {
                    continue; // not a facet
                }
                solid |= above || below;
                let outward = if above { -normal } else { normal };
                deepest_facet = deepest_facet.max(-p.dot(&outward));
                // The origin's projection onto the facet's plane, if inside the triangle.
                let (a, b, c) = (e1.norm_squared(), e1.dot(&e2), e2.norm_squared());
                let (r1, r2) = (-p.dot(&e1), -p.dot(&e2));
                let det = a * c - b * b;
                let s = (r1 * c - r2 * b) / det;
                let t = (a * r2 - b * r1) / det;
                if s >= 0.0 && t >= 0.0 && s + t <= 1.0 {
                    keep(p + e1 * s + e2 * t);
                }
            }
        }
    }
    if solid && deepest_facet < 0.0 {
        HullQuery {
            signed: deepest_facet,
            nearest: V::zeros(),
        }
    } else {
        HullQuery {
            signed: best.0,
            nearest: best.1,
        }
    }
}

fn random_polytope(rng: &mut Pcg64, kind: usize) -> Body {
    Body::bare(match kind {
        0 => random_triangle(rng, 1.0),
        1 => random_segment(rng, 1.0),
        _ => random_cuboid(rng, 0.1, 1.0),
    })
}

/// The Minkowski difference's points `a_i − b_j`, A's frame.
fn difference_points(pair: &Pair) -> Vec<V> {
    let bs = pair.b_vertices();
    pair.a
        .vertices()
        .iter()
        .flat_map(|a| bs.iter().map(move |b| a - b))
        .collect()
}

/// Checks one pair in precision `T` against the oracle; returns whether it was separated (by
/// more than the band) for the representativeness count.
fn check_pair<T: Real>(pair: &Pair, failures: &mut Failures, label: &str) -> Option<bool> {
    let rounded = pair.through::<T>();
    let points = difference_points(&rounded);
    let oracle = hull_query(&points);
    let rel = rel_tol::<T>(false);
    let tol = rel * rounded.scale();
    // GJK declares touching within `gjk_touch` of the difference's size; the band covers it.
    let size = points.iter().map(|p| p.norm()).fold(0.0, f64::max);
    let band = tol.max(2.0 * T::TOLERANCES.gjk_touch.as_f64() * size);
    let out = pair.gjk_cold::<T>();
    let context = || format!("{label}: oracle {:e}, {pair:?}", oracle.signed);
    match &out.status {
        GjkStatus::Separated(c) if oracle.signed > -band => {
            failures.check(rounded.check(c, Some(oracle.signed.max(0.0)), rel), context);
        }
        GjkStatus::Stalled { estimate, .. } => {
            failures.stall(estimate, &rounded, Some(oracle.signed), tol, context);
        }
        GjkStatus::Intersecting if oracle.signed < band => {}
        other => failures.push(format!("{}\n    on {}", status_name(other), context())),
    }
    (oracle.signed.abs() > band).then_some(oracle.signed > 0.0)
}

/// Random pairs of every combination of kinds, placed at random distances, plus the same pairs
/// pushed to within a small gap (± a fraction of the scale) of touching along the oracle's nearest direction (exact: a
/// translation of B along the separating normal changes the distance by exactly its length).
fn brute_force<T: Real>(seed: u64) {
    let mut rng = Pcg64::seed_from_u64(seed);
    let mut failures = Failures::default();
    let per_combination = 120;
    let (mut separated, mut decided, mut total) = (0, 0, 0);
    // Gaps (× scale) on both sides of GJK's touch tolerance (1e-10 of the size in f64, 1e-5
    // in f32) and of the design's tolerance.
    let near_gaps: &[f64] = if is_f64::<T>() {
        &[1e-6, -1e-6, 1e-8, -1e-8, 1e-9]
    } else {
        &[1e-3, 1e-4, -1e-4, 3e-5, 1e-6]
    };
    for ka in 0..3 {
        for kb in ka..3 {
            for _ in 0..per_combination {
                let a = random_polytope(&mut rng, ka);
                let b = random_polytope(&mut rng, kb);
                let t = random_unit(&mut rng) * uniform(&mut rng, 0.0, 2.2);
                let pos12 = Iso::from_parts(Translation3::from(t), random_rotation(&mut rng));
                let pair = Pair::new(a, b, pos12);
                total += 1;
                if let Some(s) = check_pair::<T>(&pair, &mut failures, "random") {
                    decided += 1;
                    separated += usize::from(s);
                }
                // Near touching, from outside and from inside.
                let oracle = hull_query(&difference_points(&pair));
                if oracle.signed > 1e-3 {
                    let n = oracle.nearest / oracle.signed;
                    for &gap in near_gaps {
                        let shift = n * (oracle.signed - gap * pair.scale());
                        let near = Pair::new(
                            a,
                            b,
                            Iso::from_parts(Translation3::from(t + shift), pos12.rotation),
                        );
                        total += 1;
                        check_pair::<T>(&near, &mut failures, "near touching");
                    }
                }
            }
        }
    }
    failures.assert_none("brute force", total);
    // Representative: between 20% and 80% of the clearly decided random pairs are separated.
    let rate = separated as f64 / decided as f64;
    assert!(
        (0.2..=0.8).contains(&rate),
        "separated rate {rate} ({separated} of {decided})"
    );
}

#[test]
fn polytopes_match_brute_force_f64() {
    brute_force::<f64>(20);
}

#[test]
fn polytopes_match_brute_force_f32() {
    brute_force::<f32>(21);
}

/// The oracle itself, on cases worked by hand: a unit cube at the origin and the point
/// `(2.5, 3.5, 0.5)` are `√(2² + 3²)` apart (nearest corner `(0.5, 0.5, 0.5)`), and the origin
/// inside a unit cube centred on it is `0.5` deep.
#[test]
fn oracle_on_hand_worked_cases() {
    let cube = Body::bare(Core::Cuboid(V::repeat(0.5)));
    let points = cube
        .vertices()
        .iter()
        .map(|v| v - V::new(2.5, 3.5, 0.5))
        .collect::<Vec<_>>();
    let q = hull_query(&points);
    assert!((q.signed - 13f64.sqrt()).abs() < 1e-14, "{q:?}");
    let q = hull_query(&cube.vertices());
    assert!((q.signed + 0.5).abs() < 1e-14, "{q:?}");
    // A flat set (a square in z = 0) containing the origin: distance zero, not "inside".
    let square: Vec<V> = (0..4)
        .map(|i| V::new(f64::from(i & 1) - 0.5, f64::from(i >> 1) - 0.5, 0.0))
        .collect();
    assert!(hull_query(&square).signed.abs() < 1e-15);
    let lifted: Vec<V> = square.iter().map(|p| p + V::new(0.0, 0.0, 0.25)).collect();
    assert!((hull_query(&lifted).signed - 0.25).abs() < 1e-15);
}
