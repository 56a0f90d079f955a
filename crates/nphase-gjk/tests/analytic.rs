//! Closed-form cases: GJK against distances, normals and witness points known exactly.
//!
//! Every case runs in f64 and f32 through one generic helper. The answer is checked with
//! [`Pair::check`] (distance, unit normal A → B, witness points on the surfaces,
//! `point2 − point1 = distance·normal`, bounds bracketing the distance, support gap along the
//! normal) at the design's tolerance (1e-9 × scale in f64, 1e-4 × scale in f32), and the normal
//! against the known one.

mod common;

use common::*;
use nphase_gjk::GjkStatus;
use nphase_math::nalgebra::{Translation3, UnitQuaternion};
use nphase_math::{Point, Real};
use nphase_shapes::Capsule;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;

/// Tolerance on the normal where it is unique. A unit normal from GJK is `v/|v|` or a
/// triangle's cross product, accurate to ~ε·size/distance; with the distances used here
/// (≥ 1e-3 of the size) that is ~1e-12 in f64 and ~1e-4 in f32, so these bounds leave a margin of
/// ~100 while still catching a normal taken from the wrong feature.
fn normal_tol<T: Real>() -> f64 {
    if is_f64::<T>() { 1e-9 } else { 1e-3 }
}

/// Runs the cold plain query on `pair` in precision `T` and checks it against the closed form.
fn check_case<T: Real>(
    pair: &Pair,
    expected: f64,
    normal: Option<V>,
    failures: &mut Failures,
    label: &str,
) {
    let rounded = pair.through::<T>();
    let out = pair.gjk_cold::<T>();
    let rel = rel_tol::<T>(pair.is_curved());
    let context = || format!("{label}: {pair:?}");
    match &out.status {
        GjkStatus::Separated(c) => {
            let result = rounded.check(c, Some(expected), rel).and_then(|()| {
                let Some(n) = normal else { return Ok(()) };
                let err = (to_f64(c.normal.as_ref()) - n).norm();
                if err > normal_tol::<T>() {
                    return Err(format!(
                        "normal {:?} vs expected {n:?} (error {err:e})",
                        c.normal
                    ));
                }
                Ok(())
            });
            failures.check(result, context);
        }
        GjkStatus::Stalled { estimate, .. } => {
            failures.stall(
                estimate,
                &rounded,
                Some(expected),
                rel * pair.scale(),
                context,
            );
        }
        other => failures.push(format!(
            "{} ({:?})\n    on {}",
            status_name(other),
            out.stats,
            context()
        )),
    }
}

fn translation(v: V) -> Translation3<f64> {
    Translation3::from(v)
}

// ---------------------------------------------------------------------------------------------
// Ball – ball.

/// Two balls (point cores with radii, the core sometimes off the local origin), separated or
/// with overlapping rounded parts (negative distance, computed without EPA).
fn ball_ball<T: Real>(seed: u64) {
    let mut rng = Pcg64::seed_from_u64(seed);
    let mut failures = Failures::default();
    let total = 2000;
    let mut overlapping = 0;
    for i in 0..total {
        let (r1, r2) = (uniform(&mut rng, 0.05, 2.0), uniform(&mut rng, 0.05, 2.0));
        let (pa, pb) = if i % 3 == 0 {
            (random_vector(&mut rng, 1.0), random_vector(&mut rng, 1.0))
        } else {
            (V::zeros(), V::zeros())
        };
        let dir = random_unit(&mut rng);
        let centre_distance = if i % 2 == 0 {
            r1 + r2 + uniform(&mut rng, 1e-3, 3.0)
        } else {
            uniform(&mut rng, 0.02 * (r1 + r2), r1 + r2)
        };
        // Place B so that its centre pos12·pb sits at pa + dir·centre_distance.
        let rotation = random_rotation(&mut rng);
        let t = pa + dir * centre_distance - rotation * pb;
        let pos12 = Iso::from_parts(translation(t), rotation);
        let core = |p: V| {
            if p == V::zeros() {
                Core::Point
            } else {
                Core::Segment(p, p)
            }
        };
        let pair = Pair::new(Body::new(core(pa), r1), Body::new(core(pb), r2), pos12);
        let expected = centre_distance - r1 - r2;
        overlapping += usize::from(expected < 0.0);
        check_case::<T>(&pair, expected, Some(dir), &mut failures, "ball-ball");
    }
    failures.assert_none("ball-ball", total);
    // Representative: about half the pairs have overlapping rounded parts.
    assert!(
        (total * 2 / 5..total * 3 / 5).contains(&overlapping),
        "{overlapping} of {total}"
    );

    // Concentric balls: the cores coincide, which is EPA's business.
    let ball = Body::new(Core::Point, 1.0);
    let out = Pair::new(ball, ball, Iso::identity()).gjk_cold::<T>();
    assert!(
        matches!(out.status, GjkStatus::Intersecting),
        "{}",
        status_name(&out.status)
    );
}

#[test]
fn ball_ball_f64() {
    ball_ball::<f64>(1);
}

#[test]
fn ball_ball_f32() {
    ball_ball::<f32>(2);
}

// ---------------------------------------------------------------------------------------------
// Ball – cuboid.

/// A ball whose centre lies in the Voronoi region of a face (one coordinate beyond the box), an
/// edge (two) or a corner (three) of a box, at a random rotation; the box is shape A in one query
/// and shape B (rotated in the ball's frame) in the swapped one.
fn ball_cuboid<T: Real>(seed: u64) {
    let mut rng = Pcg64::seed_from_u64(seed);
    let mut failures = Failures::default();
    let total = 3000;
    let mut by_region = [0usize; 3];
    for i in 0..total {
        let h = V::new(
            uniform(&mut rng, 0.1, 2.0),
            uniform(&mut rng, 0.1, 2.0),
            uniform(&mut rng, 0.1, 2.0),
        );
        let beyond_count = 1 + i % 3;
        // Which axes are beyond the box: a random choice of `beyond_count` of the three.
        let first = rng.random_range(0..3usize);
        let beyond = |k: usize| (k + 3 - first) % 3 < beyond_count;
        let mut centre = V::zeros();
        let mut offset = V::zeros();
        for k in 0..3 {
            let sign = if rng.random_bool(0.5) { 1.0 } else { -1.0 };
            if beyond(k) {
                let g = uniform(&mut rng, 1e-3, 1.5);
                centre[k] = sign * (h[k] + g);
                offset[k] = sign * g;
            } else {
                centre[k] = uniform(&mut rng, -h[k], h[k]);
            }
        }
        let core_distance = offset.norm();
        let normal = offset / core_distance;
        let r = if i % 4 == 0 {
            0.0
        } else {
            uniform(&mut rng, 0.0, 2.0 * core_distance)
        };
        let pos12 = Iso::from_parts(translation(centre), random_rotation(&mut rng));
        let pair = Pair::new(
            Body::bare(Core::Cuboid(h)),
            Body::new(Core::Point, r),
            pos12,
        );
        let expected = core_distance - r;
        by_region[beyond_count - 1] += 1;
        check_case::<T>(&pair, expected, Some(normal), &mut failures, "cuboid-ball");
        // The ball as shape A: the box is rotated in the ball's frame and the normal flips.
        let swapped_normal = -(pair.pos12.inverse().rotation * normal);
        check_case::<T>(
            &pair.swapped(),
            expected,
            Some(swapped_normal),
            &mut failures,
            "ball-cuboid",
        );
    }
    failures.assert_none("ball-cuboid", 2 * total);
    assert!(
        by_region.iter().all(|&n| n >= total / 4),
        "regions {by_region:?}"
    );
}

#[test]
fn ball_cuboid_f64() {
    ball_cuboid::<f64>(3);
}

#[test]
fn ball_cuboid_f32() {
    ball_cuboid::<f32>(4);
}

// ---------------------------------------------------------------------------------------------
// Segment – segment and capsule – capsule.

/// The families of segment pairs, so that the rare configurations are not left to chance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SegmentFamily {
    General,
    Parallel,
    Collinear,
    NearlyParallel,
    Crossing,
    PointAndSegment,
    TwoPoints,
}

const FAMILIES: [SegmentFamily; 7] = [
    SegmentFamily::General,
    SegmentFamily::Parallel,
    SegmentFamily::Collinear,
    SegmentFamily::NearlyParallel,
    SegmentFamily::Crossing,
    SegmentFamily::PointAndSegment,
    SegmentFamily::TwoPoints,
];

/// A random pair of segments of `family`: A's endpoints in its frame, B's endpoints chosen in A's
/// frame and carried into B's frame through a random `pos12`.
fn segment_pair(rng: &mut Pcg64, family: SegmentFamily) -> (V, V, V, V, Iso) {
    let p1 = random_vector(rng, 1.0);
    let mut q1 = random_vector(rng, 1.0);
    let d1 = q1 - p1;
    let (p2, q2) = match family {
        SegmentFamily::General => (random_vector(rng, 1.5), random_vector(rng, 1.5)),
        SegmentFamily::Parallel => {
            let p2 = random_vector(rng, 1.5);
            (p2, p2 + d1 * uniform(rng, -1.5, 1.5))
        }
        SegmentFamily::Collinear => {
            // Same line; overlapping, touching or apart along it.
            (
                p1 + d1 * uniform(rng, -1.0, 2.0),
                p1 + d1 * uniform(rng, -1.0, 2.0),
            )
        }
        SegmentFamily::NearlyParallel => {
            let p2 = random_vector(rng, 1.5);
            let tilt = random_vector(rng, 1.0) * 10f64.powf(uniform(rng, -9.0, -3.0));
            (p2, p2 + (d1 + tilt) * uniform(rng, -1.5, 1.5))
        }
        SegmentFamily::Crossing => {
            // Through a point of A's segment, optionally lifted off its line.
            let m = p1 + d1 * uniform(rng, 0.0, 1.0);
            let w = random_vector(rng, 1.0);
            let lift = if rng.random_bool(0.5) {
                d1.cross(&w).normalize() * uniform(rng, 0.0, 0.3)
            } else {
                V::zeros()
            };
            (m + w + lift, m - w * uniform(rng, 0.1, 1.0) + lift)
        }
        SegmentFamily::PointAndSegment => {
            let p2 = random_vector(rng, 1.5);
            (p2, p2)
        }
        SegmentFamily::TwoPoints => {
            q1 = p1;
            let p2 = random_vector(rng, 1.5);
            (p2, p2)
        }
    };
    let pos12 = random_pose(rng, 2.0);
    let inv = pos12.inverse();
    let to_b = |p: V| (inv * Point::from(p)).coords;
    (p1, q1, to_b(p2), to_b(q2), pos12)
}

/// Thousands of segment pairs, with radii (capsules) or without, against the independent
/// closed form of `segment_segment_distance`. Where the cores come within the band of touching
/// (`rel · scale`) GJK may report `Intersecting`; elsewhere it must report `Separated` with the
/// exact distance.
fn segment_segment<T: Real>(seed: u64, with_radii: bool) {
    let mut rng = Pcg64::seed_from_u64(seed);
    let mut failures = Failures::default();
    let per_family = 600;
    let mut touching = 0;
    let mut overlap_by_radii = 0;
    for family in FAMILIES {
        for _ in 0..per_family {
            let (p1, q1, p2, q2, pos12) = segment_pair(&mut rng, family);
            let (r1, r2) = if with_radii {
                (uniform(&mut rng, 0.0, 0.5), uniform(&mut rng, 0.0, 0.5))
            } else {
                (0.0, 0.0)
            };
            let pair = Pair::new(
                Body::new(Core::Segment(p1, q1), r1),
                Body::new(Core::Segment(p2, q2), r2),
                pos12,
            );
            let rounded = pair.through::<T>();
            let bv = rounded.b_vertices();
            let Core::Segment(ra, rb) = rounded.a.core else {
                unreachable!()
            };
            let core_distance = segment_segment_distance(&ra, &rb, &bv[0], &bv[1]);
            let expected = core_distance - rounded.a.radius - rounded.b.radius;
            let tol = rel_tol::<T>(false) * pair.scale();
            let out = pair.gjk_cold::<T>();
            let context = || format!("{family:?}: core distance {core_distance:e}, {pair:?}");
            match &out.status {
                GjkStatus::Intersecting if core_distance <= tol => touching += 1,
                GjkStatus::Separated(c) => {
                    overlap_by_radii += usize::from(expected < 0.0);
                    failures.check(
                        rounded.check(c, Some(expected), rel_tol::<T>(false)),
                        context,
                    );
                }
                GjkStatus::Stalled { estimate, .. } => {
                    failures.stall(estimate, &rounded, Some(expected), tol, context);
                }
                other => failures.push(format!("{}\n    on {}", status_name(other), context())),
            }
        }
    }
    let total = FAMILIES.len() * per_family;
    failures.assert_none("segment-segment", total);
    // Representative: the collinear and crossing families put a fair share of the pairs in
    // contact, and with radii a fair share overlap through their rounded parts only.
    assert!(
        touching > total / 20,
        "only {touching} touching pairs of {total}"
    );
    if with_radii {
        assert!(
            overlap_by_radii > total / 20,
            "only {overlap_by_radii} rounded overlaps of {total}"
        );
    }
}

#[test]
fn segment_segment_f64() {
    segment_segment::<f64>(5, false);
}

#[test]
fn segment_segment_f32() {
    segment_segment::<f32>(6, false);
}

#[test]
fn capsule_capsule_f64() {
    segment_segment::<f64>(7, true);
}

#[test]
fn capsule_capsule_f32() {
    segment_segment::<f32>(8, true);
}

/// Capsules built with the library's `Capsule` (its `segment()` core along y and its radius),
/// side by side, crossed and end to end, against the closed form.
fn capsules_from_the_shape<T: Real>() {
    let mut rng = Pcg64::seed_from_u64(9);
    let mut failures = Failures::default();
    let total = 1000;
    for _ in 0..total {
        let c1 =
            Capsule::new(uniform(&mut rng, 0.0, 1.0), uniform(&mut rng, 0.05, 0.5)).expect("valid");
        let c2 =
            Capsule::new(uniform(&mut rng, 0.0, 1.0), uniform(&mut rng, 0.05, 0.5)).expect("valid");
        let seg = |c: &Capsule<f64>| Core::Segment(c.segment().a().coords, c.segment().b().coords);
        let pos12 = random_pose(&mut rng, 2.0);
        let pair = Pair::new(
            Body::new(seg(&c1), c1.radius()),
            Body::new(seg(&c2), c2.radius()),
            pos12,
        );
        let bv = pair.b_vertices();
        let core_distance = segment_segment_distance(
            &c1.segment().a().coords,
            &c1.segment().b().coords,
            &bv[0],
            &bv[1],
        );
        if core_distance <= 1e-3 {
            continue;
        }
        check_case::<T>(
            &pair,
            core_distance - c1.radius() - c2.radius(),
            None,
            &mut failures,
            "capsule",
        );
    }
    failures.assert_none("capsule shapes", total);
}

#[test]
fn capsules_from_the_shape_f64() {
    capsules_from_the_shape::<f64>();
}

#[test]
fn capsules_from_the_shape_f32() {
    capsules_from_the_shape::<f32>();
}

// ---------------------------------------------------------------------------------------------
// Cuboid – cuboid.

#[derive(Clone, Copy, Debug)]
enum Presenting {
    Face,
    Edge,
    Vertex,
}

/// Box B presents a face, an edge (rotated 45° about z) or a vertex (its diagonal turned onto
/// −x) to the +x face of box A, then spins by a random angle about x (which keeps its extent
/// along x); A's face is wide enough that B's nearest point projects inside it. The distance is
/// the gap `g` and the normal is +x, exactly.
fn cuboid_cuboid<T: Real>(seed: u64, presenting: Presenting) {
    let mut rng = Pcg64::seed_from_u64(seed);
    let mut failures = Failures::default();
    let total = 1000;
    for _ in 0..total {
        let hb = V::new(
            uniform(&mut rng, 0.1, 1.5),
            uniform(&mut rng, 0.1, 1.5),
            uniform(&mut rng, 0.1, 1.5),
        );
        let reach = hb.norm();
        let ha = V::new(
            uniform(&mut rng, 0.1, 2.0),
            reach + uniform(&mut rng, 0.5, 3.0),
            reach + uniform(&mut rng, 0.5, 3.0),
        );
        let spin = UnitQuaternion::from_axis_angle(&V::x_axis(), uniform(&mut rng, -3.2, 3.2));
        let present = match presenting {
            Presenting::Face => UnitQuaternion::identity(),
            Presenting::Edge => {
                UnitQuaternion::from_axis_angle(&V::z_axis(), std::f64::consts::FRAC_PI_4)
            }
            Presenting::Vertex => UnitQuaternion::rotation_between(&V::new(1.0, 1.0, 1.0), &V::x())
                .expect("not opposite"),
        };
        let rotation = spin * present;
        let row = rotation.to_rotation_matrix().matrix().row(0).transpose();
        let extent = row.abs().dot(&hb);
        let gap = 10f64.powf(uniform(&mut rng, -3.0, 0.3));
        let lateral = ha.yz() - V::new(0.0, reach, reach).yz();
        let t = V::new(
            ha.x + gap + extent,
            uniform(&mut rng, -lateral.x, lateral.x),
            uniform(&mut rng, -lateral.y, lateral.y),
        );
        let pair = Pair::new(
            Body::bare(Core::Cuboid(ha)),
            Body::bare(Core::Cuboid(hb)),
            Iso::from_parts(translation(t), rotation),
        );
        check_case::<T>(&pair, gap, Some(V::x()), &mut failures, "A's face");
        let swapped_normal = -(pair.pos12.inverse().rotation * V::x());
        check_case::<T>(
            &pair.swapped(),
            gap,
            Some(swapped_normal),
            &mut failures,
            "B's face",
        );
    }
    failures.assert_none(&format!("cuboid-cuboid, {presenting:?}"), 2 * total);
}

#[test]
fn cuboid_cuboid_face_f64() {
    cuboid_cuboid::<f64>(10, Presenting::Face);
}

#[test]
fn cuboid_cuboid_edge_f64() {
    cuboid_cuboid::<f64>(11, Presenting::Edge);
}

#[test]
fn cuboid_cuboid_vertex_f64() {
    cuboid_cuboid::<f64>(12, Presenting::Vertex);
}

#[test]
fn cuboid_cuboid_face_f32() {
    cuboid_cuboid::<f32>(13, Presenting::Face);
}

#[test]
fn cuboid_cuboid_edge_f32() {
    cuboid_cuboid::<f32>(14, Presenting::Edge);
}

#[test]
fn cuboid_cuboid_vertex_f32() {
    cuboid_cuboid::<f32>(15, Presenting::Vertex);
}
