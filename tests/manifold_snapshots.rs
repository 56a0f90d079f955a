//! Snapshot tests of the contact manifolds of canonical resting scenes (insta).
//!
//! Each scene goes through a fresh [`NarrowPhase`] (f64, prediction 0 unless stated) and its
//! manifolds are written in world space with every number rounded to 1e-6 (and `-0` printed as
//! `0`), so the text is the same on every run, platform and thread count: the exact answers are
//! round numbers, and the pipeline's rounding errors (≤ 1e-12 here) are far below the printed
//! precision. The same scene run with 1 and 3 threads must print the same text before it is
//! compared with the snapshot.
//!
//! Every snapshot was checked by eye once; the review is in the comment of its test. A
//! snapshot that changes means the manifold changed: if that is intended, run
//! `INSTA_UPDATE=always cargo test -p nphase --test manifold_snapshots` (or `cargo insta
//! review`), read the diff of `tests/snapshots/*.snap` against the review notes, and update
//! the notes with the snapshot.

use std::fmt::Write as _;

use nphase::math::{Isometry, Point, Vector};
use nphase::shapes::{Ball, Capsule, Cone, Cuboid, Cylinder};
use nphase::{Collider, NarrowPhase, NarrowPhaseConfig, Shape};

const HOW_TO_UPDATE: &str = "Manifold snapshot: reviewed by eye (see the test's comment). If the \
change is intended, run `INSTA_UPDATE=always cargo test -p nphase --test manifold_snapshots`, \
review the diff of tests/snapshots/*.snap and update the review notes in the test's comment.";

fn cuboid(x: f64, y: f64, z: f64) -> Shape<f64> {
    Shape::Cuboid(Cuboid::new(Vector::new(x, y, z)).expect("valid cuboid"))
}

/// The ground: a 4 × 1 × 4 box whose top face is the plane y = 0.
fn ground() -> Collider<f64> {
    Collider {
        id: 0,
        shape: cuboid(2.0, 0.5, 2.0),
        pose: Isometry::translation(0.0, -0.5, 0.0),
    }
}

fn at(id: u64, shape: Shape<f64>, pose: Isometry<f64>) -> Collider<f64> {
    Collider { id, shape, pose }
}

/// A pose: translation, then a rotation vector (axis × angle).
fn pose(t: [f64; 3], axis_angle: [f64; 3]) -> Isometry<f64> {
    Isometry::new(Vector::from(t), Vector::from(axis_angle))
}

/// `x` rounded to 1e-6, without a sign on zero.
fn r(x: f64) -> String {
    let v = (x * 1e6).round() / 1e6;
    let v = if v == 0.0 { 0.0 } else { v };
    format!("{v:.6}")
}

fn r3(p: &Vector<f64>) -> String {
    format!("[{}, {}, {}]", r(p.x), r(p.y), r(p.z))
}

/// The manifolds of frame 0 as text (world frame, rounded), with `threads` threads.
fn manifold_text(colliders: &[Collider<f64>], pairs: &[(usize, usize)], threads: usize) -> String {
    let mut narrow = NarrowPhase::new(NarrowPhaseConfig {
        prediction: 0.0,
        threads,
        chunk_size: 64,
    })
    .expect("valid config");
    let manifolds = narrow.update(colliders, pairs).expect("valid input");
    let mut out = String::new();
    for (&(a, b), m) in pairs.iter().zip(manifolds) {
        let (ca, cb) = (&colliders[a], &colliders[b]);
        writeln!(
            out,
            "pair {} -> {}: {} point(s), normal {}",
            ca.id,
            cb.id,
            m.points.len(),
            r3(&m.world_normal(&ca.pose))
        )
        .expect("write to a string");
        for p in &m.points {
            let pa: Point<f64> = ca.pose * p.local_point1;
            let pb: Point<f64> = cb.pose * p.local_point2;
            writeln!(
                out,
                "  dist {:>10}  a {}  b {}  id {}",
                r(p.dist),
                r3(&pa.coords),
                r3(&pb.coords),
                p.id
            )
            .expect("write to a string");
        }
    }
    out
}

/// Checks thread independence, then the snapshot.
fn check(name: &str, colliders: &[Collider<f64>], pairs: &[(usize, usize)]) {
    let text = manifold_text(colliders, pairs, 1);
    assert_eq!(
        text,
        manifold_text(colliders, pairs, 3),
        "{name}: the manifolds depend on the thread count"
    );
    insta::with_settings!({ description => HOW_TO_UPDATE, omit_expression => true }, {
        insta::assert_snapshot!(name, text);
    });
}

/// A unit cube resting on the ground, 0.01 deep.
///
/// Review: 1 manifold, normal +y (ground → cube), 4 points at the cube's bottom corners
/// (±0.5, 0, ±0.5) on the ground's top face (point a at y = 0) and the cube's bottom face
/// (point b at y = −0.01), each with dist −0.01 = the overlap. Ids: the ground's top face
/// (face 2, +y) against the cube's bottom vertices 2, 3, 7, 6 — (+x,+z), (−x,+z), (−x,−z),
/// (+x,−z), bit 1 (−y) set in each.
#[test]
fn box_resting_on_a_box() {
    let cube = at(1, cuboid(0.5, 0.5, 0.5), pose([0.0, 0.49, 0.0], [0.0; 3]));
    check("box_on_box", &[ground(), cube], &[(0, 1)]);
}

/// The same cube turned 45° about the vertical.
///
/// Review: normal +y, 4 points at the turned corners (±0.707107, 0, 0) and (0, 0, ±0.707107)
/// (half-diagonal √2/2), dist −0.01 each; ids the same as unrotated (face 2 against vertices
/// 2, 3, 7, 6: the rotation changes no feature).
#[test]
fn box_resting_on_a_box_turned_45_degrees() {
    let turn = core::f64::consts::FRAC_PI_4;
    let cube = at(
        1,
        cuboid(0.5, 0.5, 0.5),
        pose([0.0, 0.49, 0.0], [0.0, turn, 0.0]),
    );
    check("box_on_box_turned_45", &[ground(), cube], &[(0, 1)]);
}

/// A ball of radius 0.5 resting on the ground, 0.01 deep.
///
/// Review: 1 point, normal +y, a = (0, 0, 0) on the ground, b = (0, −0.01, 0) the ball's
/// lowest point, dist −0.01; id face 2 against the ball's only feature, vertex 0.
#[test]
fn ball_resting_on_a_box() {
    let ball = at(
        1,
        Shape::Ball(Ball::new(0.5).expect("valid ball")),
        pose([0.0, 0.49, 0.0], [0.0; 3]),
    );
    check("ball_on_box", &[ground(), ball], &[(0, 1)]);
}

/// A capsule (half-height 0.5, radius 0.25) lying along x on the ground, 0.01 deep.
///
/// Review: 2 points, normal +y, at the ends of the capsule's core segment projected on the
/// ground: x = ±0.5, z = 0; a at y = 0, b at y = −0.01; dist −0.01 each. Ids: face 2 against
/// the core's vertex 0 (its −y end, turned to +x) and vertex 1.
#[test]
fn capsule_lying_on_a_box() {
    let capsule = at(
        1,
        Shape::Capsule(Capsule::new(0.5, 0.25).expect("valid capsule")),
        pose([0.0, 0.24, 0.0], [0.0, 0.0, core::f64::consts::FRAC_PI_2]),
    );
    check("capsule_lying_on_box", &[ground(), capsule], &[(0, 1)]);
}

/// A cylinder (half-height 0.5, radius 0.4) standing on its cap, 0.01 deep.
///
/// Review: normal +y, 4 points on the rim of the bottom cap: of the 16-gon's vertices the
/// reduction keeps the square (±0.4, 0, 0), (0, 0, ±0.4) — the largest quad; a at y = 0, b at
/// y = −0.01, dist −0.01 each. The exact witness is not added (the clipped points are as deep
/// as it). Ids: face 2 against the bottom polygon's vertices 16, 24, 28, 20 (16 + k at angle
/// 2πk/16 from +x towards −z: k = 0, 8, 12, 4).
#[test]
fn cylinder_standing_on_a_box() {
    let can = at(
        1,
        Shape::Cylinder(Cylinder::new(0.5, 0.4).expect("valid cylinder")),
        pose([0.0, 0.49, 0.0], [0.0; 3]),
    );
    check("cylinder_standing_on_box", &[ground(), can], &[(0, 1)]);
}

/// The same cylinder lying on its side along z (turned 90° about x), 0.01 deep.
///
/// Review: normal +y, 2 points at the ends of the bottom side line, z = ±0.5, x = 0, dist
/// −0.01 each; ids face 2 against the side line's ends, vertices 32 (bottom) and 33 (top).
#[test]
fn cylinder_lying_on_a_box() {
    let can = at(
        1,
        Shape::Cylinder(Cylinder::new(0.5, 0.4).expect("valid cylinder")),
        pose([0.0, 0.39, 0.0], [core::f64::consts::FRAC_PI_2, 0.0, 0.0]),
    );
    check("cylinder_lying_on_box", &[ground(), can], &[(0, 1)]);
}

/// A cone (half-height 0.5, radius 0.4) standing on its base, 0.01 deep.
///
/// Review: normal +y, 4 points on the base rim, (±0.4, 0, 0) and (0, 0, ±0.4), dist −0.01
/// each, like the standing cylinder; ids face 2 against base vertices 1, 9, 13, 5 (1 + k).
#[test]
fn cone_on_its_base_on_a_box() {
    let cone = at(
        1,
        Shape::Cone(Cone::new(0.5, 0.4).expect("valid cone")),
        pose([0.0, 0.49, 0.0], [0.0; 3]),
    );
    check("cone_on_base_on_box", &[ground(), cone], &[(0, 1)]);
}

/// The same cone upside down, balanced on its apex, 0.01 deep.
///
/// Review: 1 point at the apex, a = (0, 0, 0), b = (0, −0.01, 0), normal +y, dist −0.01; id
/// face 2 against the apex, vertex 0.
#[test]
fn cone_on_its_tip_on_a_box() {
    let cone = at(
        1,
        Shape::Cone(Cone::new(0.5, 0.4).expect("valid cone")),
        pose([0.0, 0.49, 0.0], [core::f64::consts::PI, 0.0, 0.0]),
    );
    check("cone_on_tip_on_box", &[ground(), cone], &[(0, 1)]);
}

/// A hexagonal prism (hull of 12 points, circumradius 0.4, half-height 0.3) resting on a
/// slab hull (hull of the 8 corners of a 2 × 0.5 × 2 box, top face at y = 0), 0.01 deep.
///
/// Review: normal +y, 4 of the 6 bottom hexagon vertices: (±0.4, 0, 0), (0.2, 0, 0.34641) and
/// (−0.2, 0, −0.34641) (radius 0.4 at 0°, 180°, 60°, 240° — a rectangle, the largest quad
/// inscribed in the hexagon), a at y = 0, b at y = −0.01, dist −0.01 each; ids the slab's top
/// face against the prism's bottom vertices 0, 3, 1, 4.
#[test]
fn hull_resting_on_a_hull() {
    let hexagon = |y: f64| {
        (0..6).map(move |k| {
            let a = core::f64::consts::TAU * f64::from(k) / 6.0;
            Point::new(0.4 * a.cos(), y, 0.4 * a.sin())
        })
    };
    let prism: Vec<Point<f64>> = hexagon(-0.3).chain(hexagon(0.3)).collect();
    let slab: Vec<Point<f64>> = (0..8)
        .map(|k| {
            let s = |bit: u32| if k & (1 << bit) != 0 { -1.0 } else { 1.0 };
            Point::new(s(0), 0.25 * s(1) - 0.25, s(2))
        })
        .collect();
    let colliders = [
        at(
            0,
            Shape::convex(&slab).expect("valid hull"),
            Isometry::identity(),
        ),
        at(
            1,
            Shape::convex(&prism).expect("valid hull"),
            pose([0.0, 0.29, 0.0], [0.0; 3]),
        ),
    ];
    check("hull_on_hull", &colliders, &[(0, 1)]);
}

/// Three unit cubes stacked on the ground, each pair 0.01 deep, the middle one turned 0.3 rad
/// about the vertical.
///
/// Review: 3 manifolds, each normal +y, 4 points, dist −0.01. Ground–cube 1: the corners
/// (±0.5, 0, ±0.5), the same ids as `box_on_box`. Cube 1–cube 2: cube 2 is turned, so the
/// overlap of the two squares is an octagon, vertices (±0.5, ±0.368708), (±0.368708, ±0.5)
/// and (±0.5, ∓0.075568), (±0.075568, ±0.5) (edge crossings); reduced to 4 of them spanning
/// it, a at y = 0.99, b at y = 0.98; every id an edge of each cube (the crossings of cube 2's
/// bottom edges with cube 1's top edges), four distinct pairs. Cube 2–cube 3: the same
/// octagon, a at y = 1.98, b at y = 1.97; the reduction picks another spread quad (one vertex of
/// the other orbit) because the reference face is now the turned cube's (the octagon is walked
/// from another start); two of its points are crossings of the same edge of cube 3 (edge 1,
/// its bottom x-edge at +z) with two edges of cube 2.
#[test]
fn stack_of_three_boxes() {
    let unit = || cuboid(0.5, 0.5, 0.5);
    let colliders = [
        ground(),
        at(1, unit(), pose([0.0, 0.49, 0.0], [0.0; 3])),
        at(2, unit(), pose([0.0, 1.48, 0.0], [0.0, 0.3, 0.0])),
        at(3, unit(), pose([0.0, 2.47, 0.0], [0.0; 3])),
    ];
    check(
        "stack_of_three_boxes",
        &colliders,
        &[(0, 1), (1, 2), (2, 3)],
    );
}

/// Two unit cubes side by side along x, touching face to face (distance exactly 0).
///
/// Review: 4 points at the shared face's corners (0.5, ±0.5, ±0.5), a = b, dist 0, normal +x
/// (A → B). parry3d 0.25 reports 8 points here, duplicates of these four. The corners coincide,
/// so the id rule names each by a vertex of each cube: A's +x corners 0, 4, 6, 2 against B's −x
/// corners 1, 5, 7, 3.
#[test]
fn two_flush_unit_cubes() {
    let colliders = [
        at(0, cuboid(0.5, 0.5, 0.5), Isometry::identity()),
        at(
            1,
            cuboid(0.5, 0.5, 0.5),
            Isometry::translation(1.0, 0.0, 0.0),
        ),
    ];
    check("flush_unit_cubes", &colliders, &[(0, 1)]);
}
