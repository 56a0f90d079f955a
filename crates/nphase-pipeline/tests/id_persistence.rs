//! Contact ids across frames: a point keeps its id while it stays put, and its id names the
//! features that made it.
//!
//! Each scene is a resting pair run through the per-pair unit (`update_manifold`, one state and
//! manifold kept across frames) for 200 frames, B's pose jittered every frame around a fixed
//! pose by a random rotation of 2e-4 rad and a random translation of up to `noise` per axis
//! (the pose noise a solver leaves in a resting stack; the jitter does not accumulate).
//! Checks per frame:
//!
//! * **no flicker**: every point whose nearest point of the previous frame is within 1 cm
//!   (A's frame, unit-sized shapes) has that point's id, or that id is still in the manifold
//!   (a new point appearing next to one that kept its id, as the engine's census counts);
//! * **ids mean something**: the features an id names are where the point is — A's feature
//!   contains the point on A, B's the point on B (within the id rule's tolerance
//!   `FEATURE_SNAP × size`, doubled by its hysteresis);
//! * **the same points**: a resting pair keeps the same set of ids from frame to frame (the
//!   reduction does not swap between near-equal choices);
//! * **one name, one place** (where asked, `assert_steady_in_place`): no point keeps its id
//!   while moving more than 1 cm from where last frame's point with it was.
//!
//! Before feature-pair ids (ids that recorded how a point came out of clipping), 1 785 of
//! 2 388 points of the box-on-box case changed id while staying within 1 cm; where the boxes'
//! edges line up a corner's id cycled through 2–4 values.

mod common;

use common::{Iso, V, cuboid, random_unit, rng};
use nphase_math::Point;
use nphase_math::nalgebra::{Matrix3, Rotation3, UnitQuaternion};
use nphase_pipeline::{
    ContactManifold, DEPTH_HYSTERESIS, FEATURE_SNAP, FeatureId, PairInput, PairState,
    PairWorkspace, update_manifold,
};
use nphase_shapes::{
    Capsule, Cone, ConvexPolyhedron, Cuboid, Cylinder, DISC_POLYGON_VERTICES, Shape, SupportMap,
};
use rand::Rng;
use rand_pcg::Pcg64;

const FRAMES: usize = 200;
const NEAR: f64 = 0.01;
const PREDICTION: f64 = 0.01;

/// What a run saw.
#[derive(Debug, Default)]
struct Run {
    points: usize,
    compared: usize,
    flickers: Vec<String>,
    /// Points that kept last frame's id but moved more than [`NEAR`] from where it was (A's
    /// frame): one name for two places.
    jumps: Vec<(usize, String)>,
    /// How much shallower than the exact contact the deepest point was, at most.
    depth_gap: f64,
    ids: std::collections::BTreeSet<(FeatureId, FeatureId)>,
    /// Frames whose set of ids differs from the previous frame's.
    set_changes: Vec<usize>,
    /// Frames whose contact normal turned by more than [`NORMAL_JUMP`] from the previous
    /// frame's: the shapes touch along other features (not checked for flicker).
    normal_jumps: Vec<usize>,
}

/// A normal that turns by more than this (radians) between frames is a new contact: two
/// depths along different directions traded places as the shortest way out (a box corner in a
/// cylinder's rim goes out through the cap or through the side), so other features touch.
const NORMAL_JUMP: f64 = 0.1;

/// Runs `frames` frames of `a` (at the origin) against `b` at `pose(frame, rng)`, checking ids
/// against the previous frame and against the features they name.
fn run(
    a: &Shape<f64>,
    b: &Shape<f64>,
    frames: usize,
    mut pose: impl FnMut(usize, &mut Pcg64) -> Iso,
    seed: u64,
) -> Run {
    let mut rng = rng(seed);
    let (mut state, mut manifold) = (PairState::new(), ContactManifold::default());
    let mut workspace = PairWorkspace::new();
    let mut previous: Option<ContactManifold<f64>> = None;
    let mut out = Run::default();
    let size = a
        .local_aabb()
        .half_diagonal()
        .max(b.local_aabb().half_diagonal());
    for frame in 0..frames {
        let pos12 = pose(frame, &mut rng);
        let input = PairInput {
            shape1: a,
            shape2: b,
            pos12,
            prediction: PREDICTION,
        };
        update_manifold(&input, &mut state, &mut manifold, &mut workspace);
        let jumped = previous.as_ref().is_some_and(|last| {
            !last.points.is_empty()
                && !manifold.points.is_empty()
                && last.local_normal1.angle(&manifold.local_normal1) > NORMAL_JUMP
        });
        if jumped {
            out.normal_jumps.push(frame);
        }
        // The deepest point is the exact contact's depth, or, where last frame's points are
        // preferred within the persistence margin (the merge of equal ids, the reduction),
        // at most DEPTH_HYSTERESIS × the features' size shallower; never deeper.
        if let Some(deepest) = manifold.points.iter().map(|p| p.dist).reduce(f64::min) {
            let exact = nphase_pipeline::query::contact(&Iso::identity(), a, &pos12, b, PREDICTION)
                .expect("finite")
                .map_or(f64::INFINITY, |c| c.dist);
            let (tolerance, margin) = (1e-7 * size, DEPTH_HYSTERESIS * 2.0 * size);
            assert!(
                deepest >= exact - tolerance && deepest <= exact + margin + tolerance,
                "frame {frame}: deepest point at {deepest:e}, the exact contact at {exact:e}"
            );
            out.depth_gap = out.depth_gap.max(deepest - exact);
        }
        for p in &manifold.points {
            out.points += 1;
            out.ids.insert((p.id.a(), p.id.b()));
            let reach = 2.0 * FEATURE_SNAP * 2.0 * size + 1e-9;
            let on_a = feature_distance(a, p.id.a(), &p.local_point1);
            let on_b = feature_distance(b, p.id.b(), &p.local_point2);
            assert!(
                on_a <= reach && on_b <= reach,
                "frame {frame}: {} names features {on_a:e} and {on_b:e} away from its points \
                 ({:?} against {:?}: {manifold:?})",
                p.id,
                a.kind(),
                b.kind(),
            );
            let Some(last) = previous.as_ref().filter(|_| !jumped) else {
                continue;
            };
            if let Some(q) = last.points.iter().find(|q| q.id == p.id) {
                let moved = (q.local_point1 - p.local_point1).norm();
                if moved > NEAR {
                    out.jumps
                        .push((frame, format!("{} moved {moved:.4}", p.id)));
                }
            }
            let nearest = last.points.iter().min_by(|x, y| {
                let d = |q: &&nphase_pipeline::ContactPoint<f64>| {
                    (q.local_point1 - p.local_point1).norm()
                };
                d(x).total_cmp(&d(y))
            });
            if let Some(q) = nearest.filter(|q| (q.local_point1 - p.local_point1).norm() <= NEAR) {
                out.compared += 1;
                // Renamed: last frame's point is gone under its id (a new point next to one
                // that kept its id is a new point, not a rename).
                if q.id != p.id && manifold.points.iter().all(|m| m.id != q.id) {
                    out.flickers
                        .push(format!("frame {frame}: {} became {}", q.id, p.id));
                }
            }
        }
        if let Some(last) = &previous {
            let set = |m: &ContactManifold<f64>| {
                let mut ids: Vec<_> = m.points.iter().map(|p| p.id).collect();
                ids.sort();
                ids
            };
            if set(last) != set(&manifold) {
                out.set_changes.push(frame);
            }
        }
        previous = Some(manifold.clone());
    }
    out
}

/// The pose `(t, r)` jittered by a rotation of `2e-4` rad about a random axis and a translation
/// of up to `noise` per axis.
fn jitter(rng: &mut Pcg64, t: V, r: V, noise: f64) -> Iso {
    let dt = V::from_fn(|_, _| rng.random_range(-noise..=noise));
    let spin = UnitQuaternion::from_scaled_axis(random_unit(rng) * 2e-4);
    let base = Iso::new(t, r);
    Iso::from_parts((base.translation.vector + dt).into(), spin * base.rotation)
}

/// How far `p` (the shape's frame) is from the feature `id` of `shape`: the distance to a
/// vertex, to an edge's segment, or to a face's polygon (its plane, inside its edges); rounded
/// shapes (balls, capsules, `Round`) measure from their core's feature, less the radius; the
/// curved features of cylinders and cones (a side line or rim point in the query's azimuth)
/// from the surface they sweep.
fn feature_distance(shape: &Shape<f64>, id: FeatureId, p: &Point<f64>) -> f64 {
    let (polygon, radius) = match feature_geometry(shape, id, p) {
        Geometry::Polygon(polygon, radius) => (polygon, radius),
        Geometry::Distance(d) => return d,
    };
    let distance = match polygon.len() {
        1 => (polygon[0] - p).norm(),
        2 => common_segment_distance(&polygon[0], &polygon[1], p),
        _ => {
            let n = (polygon[1] - polygon[0])
                .cross(&(polygon[2] - polygon[0]))
                .normalize();
            let height = (p - polygon[0]).dot(&n).abs();
            let k = polygon.len();
            let inside = (0..k).all(|i| {
                let (a, b) = (polygon[i], polygon[(i + 1) % k]);
                (b - a).cross(&(p - a)).dot(&n) >= -1e-9
            });
            let edge = (0..k)
                .map(|i| common_segment_distance(&polygon[i], &polygon[(i + 1) % k], p))
                .fold(f64::INFINITY, f64::min);
            if inside { height } else { edge }
        }
    };
    (distance - radius).abs()
}

/// A feature as a polygon (1 to n points) with the radius around it, or already a distance.
enum Geometry {
    Polygon(Vec<Point<f64>>, f64),
    Distance(f64),
}

fn feature_geometry(shape: &Shape<f64>, id: FeatureId, p: &Point<f64>) -> Geometry {
    use FeatureId::{Edge, Face, Vertex};
    let n = DISC_POLYGON_VERTICES;
    let rim = |r: f64, y: f64, k: u32| {
        let a = std::f64::consts::TAU * f64::from(k % n) / f64::from(n);
        Point::new(r * a.cos(), y, -r * a.sin())
    };
    let radial = |p: &Point<f64>| V::new(p.x, 0.0, p.z).norm();
    let polygon = |points: Vec<Point<f64>>| Geometry::Polygon(points, 0.0);
    match (shape, id) {
        (Shape::Round(r), _) => match feature_geometry(r.inner(), id, p) {
            Geometry::Polygon(points, radius) => {
                Geometry::Polygon(points, radius + r.border_radius())
            }
            Geometry::Distance(d) => Geometry::Distance((d - r.border_radius()).abs()),
        },
        (Shape::Ball(b), Vertex(0)) => Geometry::Polygon(vec![Point::origin()], b.radius()),
        (Shape::Capsule(c), _) => match feature_geometry(&Shape::Segment(c.segment()), id, p) {
            Geometry::Polygon(points, _) => Geometry::Polygon(points, c.radius()),
            other => other,
        },
        (Shape::Segment(s), Vertex(v)) => polygon(vec![if v == 0 { s.a() } else { s.b() }]),
        (Shape::Segment(s), Edge(_)) => polygon(vec![s.a(), s.b()]),
        (Shape::Triangle(t), Vertex(v)) => polygon(vec![t.vertices()[v as usize]]),
        (Shape::Triangle(t), Edge(e)) => polygon(vec![
            t.vertices()[e as usize],
            t.vertices()[(e as usize + 1) % 3],
        ]),
        (Shape::Triangle(t), Face(_)) => polygon(t.vertices().to_vec()),
        (Shape::Cuboid(c), Vertex(v)) => polygon(vec![c.vertex(v)]),
        (Shape::Cuboid(c), Edge(e)) => {
            let (k, bits) = (e / 4, e % 4);
            let (u, w) = ((k + 1) % 3, (k + 2) % 3);
            let v = (bits & 1) << u | (bits >> 1) << w;
            polygon(vec![c.vertex(v), c.vertex(v | 1 << k)])
        }
        (Shape::Cuboid(c), Face(f)) => polygon(
            Cuboid::<f64>::face_vertex_ids(f)
                .iter()
                .map(|&v| c.vertex(v))
                .collect(),
        ),
        (Shape::Convex(h), Vertex(v)) => polygon(vec![h.vertices()[v as usize]]),
        (Shape::Convex(h), Edge(e)) => {
            let (v, w) = h.edge_vertices(e).expect("a hull edge");
            polygon(vec![h.vertices()[v as usize], h.vertices()[w as usize]])
        }
        (Shape::Convex(h), Face(f)) => polygon(
            h.face(f as usize)
                .vertex_ids
                .iter()
                .map(|&v| h.vertices()[v as usize])
                .collect(),
        ),
        (Shape::Cylinder(c), _) => {
            let (h, r) = (c.half_height(), c.radius());
            let y = |top: bool| if top { h } else { -h };
            match id {
                Vertex(v) if v < 2 * n => polygon(vec![rim(r, y(v < n), v)]),
                // The side line's ends, in the query's azimuth: on the rim circle.
                Vertex(v) => {
                    Geometry::Distance((radial(p) - r).abs().max((p.y - y(v == 2 * n + 1)).abs()))
                }
                Edge(e) if e < 2 * n => polygon(vec![rim(r, y(e < n), e), rim(r, y(e < n), e + 1)]),
                // The side line: on the side surface.
                Edge(_) => Geometry::Distance((radial(p) - r).abs().max((p.y.abs() - h).max(0.0))),
                Face(f) => {
                    Geometry::Distance((radial(p) - r).max(0.0).max((p.y - y(f == 0)).abs()))
                }
            }
        }
        (Shape::Cone(c), _) => {
            let (h, r) = (c.half_height(), c.radius());
            match id {
                Vertex(0) => polygon(vec![Point::new(0.0, h, 0.0)]),
                Vertex(v) if v <= n => polygon(vec![rim(r, -h, v - 1)]),
                Vertex(_) => Geometry::Distance((radial(p) - r).abs().max((p.y + h).abs())),
                Edge(0) => {
                    // On the lateral surface: radial distance r·(h − y)/(2h), y within the cone.
                    let expected = r * (h - p.y) / (2.0 * h);
                    Geometry::Distance((radial(p) - expected).abs().max((p.y.abs() - h).max(0.0)))
                }
                Edge(e) => polygon(vec![rim(r, -h, e - 1), rim(r, -h, e)]),
                Face(_) => Geometry::Distance((radial(p) - r).max(0.0).max((p.y + h).abs())),
            }
        }
        other => panic!("no feature geometry for {other:?}"),
    }
}

fn common_segment_distance(a: &Point<f64>, b: &Point<f64>, p: &Point<f64>) -> f64 {
    let ab = b - a;
    let t = ((p - a).dot(&ab) / ab.norm_squared()).clamp(0.0, 1.0);
    (a + ab * t - p).norm()
}

fn assert_steady(what: &str, run: &Run) {
    assert_steady_over(what, run, FRAMES + 1);
}

/// [`assert_steady`] with the guard at `min_compared` points compared (a run of one point a
/// frame compares `FRAMES − 1`).
fn assert_steady_over(what: &str, run: &Run, min_compared: usize) {
    eprintln!(
        "{what}: {} points, {} compared, {} flickers, {} jumps, depth gap {:e}, {} set changes, \
         ids {:?}",
        run.points,
        run.compared,
        run.flickers.len(),
        run.jumps.len(),
        run.depth_gap,
        run.set_changes.len(),
        run.ids
    );
    // Guard: the scene touched all along, and points were compared frame to frame.
    assert!(
        run.compared >= min_compared,
        "{what}: only {} compared",
        run.compared
    );
    assert!(
        run.flickers.is_empty(),
        "{what}: {} of {} points changed id within 1 cm: {:?}",
        run.flickers.len(),
        run.compared,
        &run.flickers[..run.flickers.len().min(8)]
    );
    assert!(
        run.set_changes.is_empty(),
        "{what}: the manifold's ids changed at frames {:?}",
        run.set_changes
    );
    assert!(
        run.normal_jumps.is_empty(),
        "{what}: the normal jumped at frames {:?}",
        run.normal_jumps
    );
}

/// [`assert_steady`], and from frame `settled` on no point keeps its id across a move of more
/// than [`NEAR`]: one name, one place (contacts whose geometry moves the point that far with
/// the noise — the crossing of two lines a few degrees apart — are not asked).
fn assert_steady_in_place(what: &str, run: &Run, settled: usize) {
    assert_steady(what, run);
    let jumps: Vec<_> = run.jumps.iter().filter(|(f, _)| *f >= settled).collect();
    assert!(
        jumps.is_empty(),
        "{what}: {} points kept their id across a move: {:?}",
        jumps.len(),
        &jumps[..jumps.len().min(8)]
    );
}

/// Two unit boxes face on face, 1 mm deep, B offset along x by 0, 0.25 and 0.5 — their edges
/// along x line up, and corners lie on edges (on edge midpoints at 0.5) — and, to leave no edge
/// aligned, along x and z, under every translation noise up to 2 mm.
#[test]
fn box_on_box_ids_do_not_flicker_under_pose_noise() {
    let unit = cuboid(0.5, 0.5, 0.5);
    for (offset, along_z) in [0.0, 0.25, 0.5]
        .into_iter()
        .flat_map(|o| [(o, 0.0), (o, 0.5 * o)])
    {
        for noise in [0.0, 5e-4, 1e-3, 2e-3] {
            let t = V::new(offset, 0.999, along_z);
            let r = run(
                &unit,
                &unit,
                FRAMES,
                |_, rng| jitter(rng, t, V::zeros(), noise),
                1,
            );
            let what = format!("offset ({offset}, {along_z}), noise {noise}");
            assert_steady_in_place(&what, &r, 0);
        }
    }
}

/// A box turned 45° on a box: the octagon of edge crossings, reduced to four alternate
/// corners; the reduction's persistence keeps the same four.
#[test]
fn box_turned_45_degrees_on_a_box_keeps_its_ids() {
    let unit = cuboid(0.5, 0.5, 0.5);
    let r = run(
        &unit,
        &unit,
        FRAMES,
        |_, rng| {
            jitter(
                rng,
                V::new(0.0, 0.999, 0.0),
                V::new(0.0, std::f64::consts::FRAC_PI_4, 0.0),
                2e-3,
            )
        },
        2,
    );
    assert_steady_in_place("box turned 45°", &r, 0);
}

/// A hexagonal prism resting on a slab (hulls both).
#[test]
fn hull_on_hull_keeps_its_ids() {
    let hexagon = |y: f64| {
        (0..6).map(move |k| {
            let a = std::f64::consts::TAU * f64::from(k) / 6.0;
            Point::new(0.4 * a.cos(), y, 0.4 * a.sin())
        })
    };
    let prism: Vec<Point<f64>> = hexagon(-0.3).chain(hexagon(0.3)).collect();
    let slab: Vec<Point<f64>> = (0..8)
        .map(|i| {
            let s = |bit: u32| if i & (1 << bit) == 0 { 1.0 } else { -1.0 };
            Point::new(s(0), 0.1 * s(1), s(2))
        })
        .collect();
    let (slab, prism) = (
        Shape::Convex(ConvexPolyhedron::from_points(&slab).expect("slab").into()),
        Shape::Convex(ConvexPolyhedron::from_points(&prism).expect("prism").into()),
    );
    let r = run(
        &slab,
        &prism,
        FRAMES,
        |_, rng| jitter(rng, V::new(0.1, 0.399, -0.2), V::zeros(), 2e-3),
        3,
    );
    assert_steady_in_place("hull on hull", &r, 0);
}

/// A cylinder standing on a box: its bottom cap's polygon, reduced to four rim vertices.
#[test]
fn cylinder_standing_on_a_box_keeps_its_ids() {
    let ground = cuboid(2.0, 0.5, 2.0);
    let can = Shape::Cylinder(Cylinder::new(0.5, 0.4).expect("valid"));
    let t = V::new(0.3, 0.999, 0.0);
    // From the second frame on (the first has no history: of a rim vertex and the exact
    // witness the id rule names alike — the witness swings round the rim with the tilt's
    // azimuth — it keeps the deeper, the witness; then the one nearer last frame's point).
    for seed in [4, 5, 6] {
        let r = run(
            &ground,
            &can,
            FRAMES,
            |_, rng| jitter(rng, t, V::zeros(), 2e-3),
            seed,
        );
        assert_steady_in_place(&format!("cylinder standing on a box, seed {seed}"), &r, 2);
    }
}

/// A capsule lying on a box: the two ends of its side line.
#[test]
fn capsule_lying_on_a_box_keeps_its_ids() {
    let ground = cuboid(2.0, 0.5, 2.0);
    let pill = Shape::Capsule(Capsule::new(0.5, 0.25).expect("valid"));
    let r = run(
        &ground,
        &pill,
        FRAMES,
        |_, rng| {
            jitter(
                rng,
                V::new(0.0, 0.749, 0.0),
                V::new(0.0, 0.0, std::f64::consts::FRAC_PI_2),
                2e-3,
            )
        },
        5,
    );
    assert_steady("capsule lying on a box", &r);
    assert_eq!(r.ids.len(), 2, "{:?}", r.ids);
}

/// The pose that lays a cone (half-height `h`, radius `r`) on its slant in the azimuth +x —
/// from the apex `(0, h, 0)` to the rim `(r, −h, 0)`, outward normal ∝ `(2h, r, 0)` — with the
/// slant along `slant`, its outward normal along `normal` (both unit, perpendicular) and the
/// slant's midpoint at `middle`.
fn cone_on_its_slant(h: f64, r: f64, slant: V, normal: V, middle: V) -> (V, UnitQuaternion<f64>) {
    let from_slant = V::new(r, -2.0 * h, 0.0).normalize();
    let from_normal = V::new(2.0 * h, r, 0.0).normalize();
    let frame = |s: V, n: V| Matrix3::from_columns(&[s, n, s.cross(&n)]);
    // Both frames are orthonormal and right-handed: their product is a rotation (possibly
    // near a half turn, where `from_matrix`'s iteration from the identity would stall).
    let rotation = UnitQuaternion::from_rotation_matrix(&Rotation3::from_matrix_unchecked(
        frame(slant, normal) * frame(from_slant, from_normal).transpose(),
    ));
    (middle - rotation * V::new(r / 2.0, 0.0, 0.0), rotation)
}

/// [`FRAMES`] frames of `shapes.1` at `(translation, scaled axis)` on `shapes.0`, jittered by
/// 1 mm per axis (`seed`) — from the second frame on if `exact_start` (the first frame then
/// decides at the pose itself, whatever the noise would have made of a borderline case).
fn jittered_run(
    shapes: (&Shape<f64>, &Shape<f64>),
    (translation, rotation): (V, V),
    seed: u64,
    exact_start: bool,
) -> Run {
    run(
        shapes.0,
        shapes.1,
        FRAMES,
        |frame, rng| {
            if exact_start && frame == 0 {
                Iso::new(translation, rotation)
            } else {
                jitter(rng, translation, rotation, 1e-3)
            }
        },
        seed,
    )
}

/// `shapes.1` resting on `shapes.0` at `pose` under jitter (1 mm, `seed`): steady ids and at
/// least `points` points a frame.
fn rests_steadily(
    what: &str,
    shapes: (&Shape<f64>, &Shape<f64>),
    (translation, rotation): (V, UnitQuaternion<f64>),
    seed: u64,
    points: usize,
) {
    let run = jittered_run(shapes, (translation, rotation.scaled_axis()), seed, false);
    assert_steady(what, &run);
    assert!(
        run.points >= points * FRAMES,
        "{what}: {} points in {FRAMES} frames, ids {:?}",
        run.points,
        run.ids
    );
}

/// `shapes.1` at `pose` (translation, scaled axis) on `shapes.0` under jitter (1 mm, `seed`,
/// from the second frame): steady ids and exactly `points` points every frame.
fn holds_points(
    what: &str,
    shapes: (&Shape<f64>, &Shape<f64>),
    pose: (V, V),
    seed: u64,
    points: usize,
) {
    let run = jittered_run(shapes, pose, seed, true);
    assert_steady_over(what, &run, points * (FRAMES - 1));
    assert_eq!(run.points, points * FRAMES, "{what}: {:?}", run.ids);
}

/// A cone lying along a cylinder's side, its slant crossing the side line at 7° in their common
/// tangent plane, 3 mm deep at the crossing: the slant's ends stay within the prediction
/// distance of the round side (the side falls away by only ~1.6 mm under them), so the manifold
/// holds both ends and the witness where the lines cross — not the witness alone, on which a
/// cone resting along a cylinder rocked in rapier (docs/engines.md) — and keeps their ids.
#[test]
fn cone_lying_across_a_cylinders_side_keeps_both_ends() {
    let can = Shape::Cylinder(Cylinder::new(0.35, 0.5).expect("valid"));
    let (h, r) = (0.3, 0.25);
    let cone = Shape::Cone(Cone::new(h, r).expect("valid"));
    let tilt = 7f64.to_radians();
    let (translation, rotation) = cone_on_its_slant(
        h,
        r,
        V::new(0.0, tilt.cos(), tilt.sin()),
        V::new(-1.0, 0.0, 0.0),
        V::new(0.5 - 3e-3, 0.0, 0.0),
    );
    let pose = (translation, rotation);
    rests_steadily(
        "cone lying across a cylinder's side",
        (&can, &cone),
        pose,
        11,
        3,
    );
}

/// A cone lying head to tail on another's slant, the slants crossing at 7° in their common
/// tangent plane, 3 mm deep 3 cm from the middle of the lower cone's slant: the upper cone's
/// apex, near the lower one's rim, stays within the prediction distance of the lower cone (its
/// surface falls away from the slant by about w²·cos β / 2ρ, 2–3 mm there); the upper cone's
/// rim end, near the lower one's apex, does not (the lower cone is sharp there) — the manifold
/// holds the apex end and the witness, with steady ids (the witness alone before).
#[test]
fn cone_lying_across_a_cones_slant_keeps_its_apex_end() {
    let (h, r) = (0.3, 0.25);
    let cone = Shape::Cone(Cone::new(h, r).expect("valid"));
    let slant = V::new(r, -2.0 * h, 0.0).normalize();
    let normal = V::new(2.0 * h, r, 0.0).normalize();
    let turn = UnitQuaternion::from_scaled_axis(normal * 7f64.to_radians());
    let (translation, rotation) = cone_on_its_slant(
        h,
        r,
        -(turn * slant),
        -normal,
        V::new(r / 2.0, 0.0, 0.0) - slant * 0.03 - normal * 3e-3,
    );
    let pose = (translation, rotation);
    rests_steadily(
        "cone lying across a cone's slant",
        (&cone, &cone),
        pose,
        12,
        2,
    );
}

/// A box edge and the direction `n` out of it, between the box's +x and +y faces (40° from
/// +x): the box's supporting face along `n` leans 40° or 50° away from it, and only the edge
/// (along z, through `(0.4, 0.2, 0)`) supports the box along `n`.
fn box_edge() -> (Shape<f64>, V, V) {
    let n = V::new(40f64.to_radians().cos(), 40f64.to_radians().sin(), 0.0);
    (cuboid(0.4, 0.2, 0.45), V::new(0.4, 0.2, 0.0), n)
}

/// A cone lying across a box's edge, its slant crossing the edge at 8° in their common tangent
/// plane, the edge 1 cm inside the cone (the rapier pile's deepest resting box–cone pair) and
/// 2 mm inside (a resting depth): the box's supporting feature is a face leaning 40° from the
/// normal, and its edge, clipped against that face, kept only the exact witness, about which
/// the box rocked. Taken as the edge it is, the edge crosses the round slant and stays within
/// the prediction distance of it toward the cone's rim (the surface falls away from the slant
/// by ~4 mm there): the manifold holds that end and the witness, with steady ids. At 2 mm the
/// end on the base plane is apart, and its partner along the normal falls below the base: the
/// point kept is the one whose partner is on the rim.
#[test]
fn cone_lying_across_a_box_edge_keeps_its_rim_end() {
    let (block, edge_middle, n) = box_edge();
    let (h, r) = (0.3, 0.25);
    let cone = Shape::Cone(Cone::new(h, r).expect("valid"));
    let (crossing, z) = (8f64.to_radians(), V::z());
    let slant = z * crossing.cos() + n.cross(&z) * crossing.sin();
    for (depth, seed) in [(0.01, 13), (0.002, 14)] {
        let pose = cone_on_its_slant(h, r, slant, -n, edge_middle - n * depth);
        let what = format!("cone lying across a box edge, {depth} m deep");
        rests_steadily(&what, (&block, &cone), pose, seed, 2);
    }
}

/// A capsule lying along a box's edge, 3 mm deep: the edge and the capsule's side are
/// parallel, so the manifold holds both ends of their overlap — where, clipped against the
/// box's leaning face, the side lay in the face's side plane through the edge and was kept or
/// cut by rounding.
#[test]
fn capsule_lying_along_a_box_edge_keeps_both_ends() {
    let (block, edge_middle, n) = box_edge();
    let (half, radius) = (0.3, 0.1);
    let pill = Shape::Capsule(Capsule::new(half, radius).expect("valid"));
    let axis = edge_middle + n * (radius - 3e-3);
    let along_z = UnitQuaternion::from_axis_angle(&V::x_axis(), std::f64::consts::FRAC_PI_2);
    rests_steadily(
        "capsule lying along a box edge",
        (&block, &pill),
        (axis, along_z),
        17,
        2,
    );
}

/// A box tipping over its bottom edge onto its side (0 to 90° about the edge at x = +0.5, 1 mm
/// deep, no noise): the two vertices of the edge it turns about keep their ids throughout; the
/// others leave; at the end the two vertices that land carry new ids — the ids change exactly
/// when the touching features do.
#[test]
fn ids_change_when_a_box_tips_over_an_edge() {
    let ground = cuboid(2.0, 0.5, 2.0);
    let unit = cuboid(0.5, 0.5, 0.5);
    let frames = 91;
    let pose = |frame: usize, _: &mut Pcg64| {
        // Turn about the edge (x = 0.5, y = 0.499) through −z.
        let angle = -std::f64::consts::FRAC_PI_2 * frame as f64 / (frames - 1) as f64;
        let pivot = V::new(0.5, 0.499, 0.0);
        let turn = UnitQuaternion::from_scaled_axis(V::z() * angle);
        let centre = pivot + turn * V::new(-0.5, 0.5, 0.0);
        Iso::from_parts(centre.into(), turn)
    };
    let mut rng = rng(6);
    let (mut state, mut manifold) = (PairState::new(), ContactManifold::default());
    let mut workspace = PairWorkspace::new();
    let mut history = Vec::new();
    for frame in 0..frames {
        let input = PairInput {
            shape1: &ground,
            shape2: &unit,
            pos12: pose(frame, &mut rng),
            prediction: PREDICTION,
        };
        update_manifold(&input, &mut state, &mut manifold, &mut workspace);
        let mut ids: Vec<(FeatureId, FeatureId)> = manifold
            .points
            .iter()
            .map(|p| (p.id.a(), p.id.b()))
            .collect();
        ids.sort();
        history.push(ids);
    }
    // The edge it turns about joins the cube's vertices with bits (x +, y −): 2 and 6.
    let pivot = [
        (FeatureId::Face(2), FeatureId::Vertex(2)),
        (FeatureId::Face(2), FeatureId::Vertex(6)),
    ];
    for (frame, ids) in history.iter().enumerate() {
        for id in &pivot {
            assert!(ids.contains(id), "frame {frame}: {ids:?} lost {id:?}");
        }
    }
    assert_eq!(history[0].len(), 4, "{:?}", history[0]);
    assert_eq!(history[frames / 2], pivot.to_vec(), "on its edge");
    // Lying on its side (−x face down): vertices 0 and 4 (x +, y +) landed.
    let landed = [
        (FeatureId::Face(2), FeatureId::Vertex(0)),
        (FeatureId::Face(2), FeatureId::Vertex(2)),
        (FeatureId::Face(2), FeatureId::Vertex(4)),
        (FeatureId::Face(2), FeatureId::Vertex(6)),
    ];
    assert_eq!(history[frames - 1], landed.to_vec());
    // Same features, same frame-to-frame continuity as the jittered runs.
    let r = run(&ground, &unit, frames, pose, 6);
    assert!(r.flickers.is_empty(), "{:?}", r.flickers);
}

/// Every pair of shape kinds (the zoo: ball, cuboid, capsule, cylinder, cone, segment,
/// triangle, hull, rounded variants), resting 1 mm deep in four random placements — two face
/// against face (aligned axes, as in a pile), two at random orientations — jittered for 100
/// frames (2e-4 rad, 0.2 mm: a 1 mm-deep contact on a vertex or a curved surface turns its
/// normal by more than the jump threshold under larger jitter): no point changes id while it
/// stays within 1 cm, except across a frame where the normal jumped (a new shortest way out:
/// other features touch; counted, and rare).
#[test]
fn every_pair_kind_keeps_its_ids_at_rest() {
    let (pairs, compared, jumps) = pairs_at_rest(7, |_, _, _| true);
    eprintln!("{pairs} pairs, {compared} points compared, {jumps} frames with a normal jump");
    // Guard: the pairs touched throughout (about a point per pair and frame at least), and
    // frames left out for a normal jump are the exception (under a tenth: they are 1 mm-deep
    // contacts at random orientations whose shortest way out is not unique — edges crossing
    // near a corner — and turns from one axis to another under the jitter).
    assert!(
        compared > pairs * 90,
        "{compared} points compared over {pairs} pairs"
    );
    assert!(
        jumps * 10 < pairs * 100,
        "{jumps} normal jumps over {pairs} pairs"
    );
}

/// Regression: the pairs of `every_pair_kind_keeps_its_ids_at_rest`'s scene, other seeds, that
/// renamed a point while a shape's supporting feature switched part — a box corner at a cone's
/// rim going out through the base one frame and the slant the next (the point named by a base
/// polygon vertex, then by the slant line's rim end), a cylinder's cap polygon against its side
/// line's end, a rounded box's face against its tilted face's edge (a corner's name against
/// the edge's). Each place now keeps last frame's name while the shape places that feature
/// within reach (`FeatureMap::local_feature_distance`); before, 18 renames in these 7 pairs.
#[test]
fn part_switches_keep_their_ids_at_rest() {
    // (seed, A, B, placement).
    let cases = [
        (14, "cone", "cuboid", 2),
        (26, "cylinder", "cuboid", 2),
        (29, "cone", "triangle", 1),
        (30, "cone", "cone", 0),
        (32, "cylinder", "cone", 2),
        (39, "segment", "round_cuboid", 1),
        (40, "cone", "cuboid", 1),
    ];
    for (seed, a, b, placement) in cases {
        // Frames across a normal jump are not compared (a triangle's corner in a cone's rim
        // turns its way out often): a few dozen points at least.
        let (pairs, compared, _) = pairs_at_rest(seed, |x, y, s| (x, y, s) == (a, b, placement));
        assert!(
            pairs == 1 && compared >= 20,
            "{a} · {b}: {compared} points compared"
        );
    }
}

/// Last frame's ids are the caller's data (`update_manifold` takes last frame's manifold as
/// given): ids naming features a shape does not have — up to `u32::MAX` — are not kept and
/// cause no panic, and an id naming a real feature of the other part of a curved shape is kept
/// only by a point within reach of it (a cone standing on its base: the apex names no point of
/// the base's rim, though the shape places it).
#[test]
fn last_frames_ids_name_only_features_within_reach() {
    let ground = cuboid(2.0, 0.5, 2.0);
    let cone = Shape::Cone(Cone::new(0.4, 0.3).expect("valid"));
    let pose = |dy: f64| Iso::translation(0.1, 0.5 + 0.4 - 1e-3 + dy, 0.0);
    let foreign = [
        nphase_pipeline::ContactId::new(FeatureId::Vertex(u32::MAX), FeatureId::Edge(u32::MAX)),
        nphase_pipeline::ContactId::new(FeatureId::Face(7), FeatureId::Face(u32::MAX)),
        // The ground's top face and the cone's apex, 0.8 above the rim.
        nphase_pipeline::ContactId::new(FeatureId::Face(2), FeatureId::Vertex(0)),
    ];
    for id in foreign {
        let (mut state, mut manifold) = (PairState::new(), ContactManifold::default());
        let mut workspace = PairWorkspace::new();
        let mut frame = |manifold: &mut ContactManifold<f64>, state: &mut PairState<f64>, dy| {
            let pos12 = pose(dy);
            let input = PairInput {
                shape1: &ground,
                shape2: &cone,
                pos12,
                prediction: PREDICTION,
            };
            update_manifold(&input, state, manifold, &mut workspace);
        };
        frame(&mut manifold, &mut state, 0.0);
        let named: Vec<_> = manifold.points.iter().map(|p| p.id).collect();
        assert_eq!(named.len(), 4, "{manifold:?}");
        for p in &mut manifold.points {
            p.id = id;
        }
        frame(&mut manifold, &mut state, 1e-5);
        let now: Vec<_> = manifold.points.iter().map(|p| p.id).collect();
        assert!(!now.contains(&id), "{id} was kept: {manifold:?}");
        assert_eq!(now, named, "the points take their own names again");
    }
}

/// Runs the at-rest scene of `every_pair_kind_keeps_its_ids_at_rest` for `seed`, the pairs
/// `which(A, B, placement)` picks (the others are drawn, not run), panicking on a renamed
/// point; returns the pairs run, the points compared and the frames with a normal jump.
fn pairs_at_rest(seed: u64, which: impl Fn(&str, &str, u64) -> bool) -> (usize, usize, usize) {
    let zoo = common::zoo();
    let mut rng = rng(seed);
    let (mut pairs, mut compared, mut jumps) = (0, 0, 0);
    for i in 0..zoo.len() {
        for j in 0..zoo.len() {
            for s in 0..4u64 {
                let k = (i * zoo.len() + j) as u64 * 4 + s;
                let (a, b) = common::random_pair(&zoo, (i, j), k, -1e-3, s < 2, &mut rng);
                if !which(zoo[i].0, zoo[j].0, s) {
                    continue;
                }
                let rest = a.pose.inv_mul(&b.pose);
                let (t, r) = (rest.translation.vector, rest.rotation.scaled_axis());
                let run = run(&a.shape, &b.shape, 100, |_, rng| jitter(rng, t, r, 2e-4), k);
                pairs += 1;
                compared += run.compared;
                jumps += run.normal_jumps.len();
                if !run.flickers.is_empty() {
                    panic!(
                        "seed {seed}: {} on {} (placement {s}): {} of {} points changed id \
                         within 1 cm: {:?}",
                        zoo[j].0,
                        zoo[i].0,
                        run.flickers.len(),
                        run.compared,
                        &run.flickers[..run.flickers.len().min(3)]
                    );
                }
            }
        }
    }
    (pairs, compared, jumps)
}

/// Regression (issue 12, part 4: the mixed pile of `docs/engines.md`): a round cuboid that
/// fell onto a cylinder's cap. At frame 32 it was 8 cm into the cap, and the exact witness lay
/// inside both faces, so its id named the two faces (`A face 0 · B face 5`). The id rule's
/// hysteresis then gave that id to every point of the next frames' clipped polygon — each lies
/// on both faces, and the faces are "within reach" of any of their points — and the points,
/// one id, merged into one point. One point named by two faces names every point of the next
/// frame too, so the manifold stayed at one point for good (it moved across the cap from frame
/// to frame), and the box, held at one point, sank 0.45 m into the cylinder over the next
/// 50 frames. The poses below are the engine's, frames 31 to 39 of seed 1 (f32, as rapier runs
/// them).
///
/// It passes since last frame's id is kept only by a point within `2τ` of where last frame's
/// point with that id was, on both shapes: two points of this frame may still merge under one
/// id while both are that near to it (frame 35 keeps one point of a fresh pair's two), but the
/// manifold does not stay one point — it has a fresh pair's points from frame 36 on.
#[test]
fn a_face_on_face_witness_does_not_swallow_the_next_frames_points() {
    use nphase_math::Isometry;
    use nphase_math::nalgebra::{Quaternion, Translation3};
    use nphase_shapes::{Cuboid as C, Cylinder as Cy};
    let cylinder = Shape::Cylinder(Cy::new(0.230_653_32_f32, 0.455_216_4).expect("valid"));
    let inner = C::new(nphase_math::Vector::new(
        0.397_118_57_f32,
        0.388_300_18,
        0.174_823_45,
    ));
    let round_cuboid = Shape::round(Shape::Cuboid(inner.expect("valid")), 0.05).expect("valid");
    // (w, x, y, z) and translation of B in A's frame.
    let frames: [([f32; 4], [f32; 3]); 9] = [
        (
            [0.06907445, -0.040799975, 0.428491, 0.8999777],
            [0.12934573, 0.6585359, 0.08863892],
        ),
        (
            [-0.014249131, -0.06984809, 0.43252388, 0.8988],
            [0.045413934, 0.6156187, 0.09489487],
        ),
        (
            [-0.018322825, -0.06744444, 0.4834093, 0.8726001],
            [0.04417087, 0.6094241, 0.04840886],
        ),
        (
            [-0.035647407, -0.072286576, 0.54305583, 0.8358196],
            [0.016284006, 0.5992516, -0.0014498625],
        ),
        (
            [-0.052302346, -0.08114001, 0.60603565, 0.7895578],
            [-0.012063209, 0.5848574, -0.055874918],
        ),
        (
            [-0.06513183, -0.09436059, 0.6644679, 0.738469],
            [-0.038645968, 0.565672, -0.10792387],
        ),
        (
            [-0.052794024, -0.096594304, 0.69553196, 0.71001256],
            [-0.040105585, 0.52981615, -0.103944935],
        ),
        (
            [-0.021746695, -0.084504336, 0.7222656, 0.68608946],
            [-0.019894, 0.489006, -0.08099138],
        ),
        (
            [0.031185597, -0.05539611, 0.73556733, 0.6744624],
            [0.006522959, 0.45829654, -0.060893733],
        ),
    ];
    let (mut state, mut manifold) = (PairState::new(), ContactManifold::default());
    let mut workspace = PairWorkspace::new();
    let mut counts = Vec::new();
    for (frame, ([w, x, y, z], [tx, ty, tz])) in (31..).zip(frames) {
        let rotation = UnitQuaternion::from_quaternion(Quaternion::new(w, x, y, z));
        let input = PairInput {
            shape1: &cylinder,
            shape2: &round_cuboid,
            pos12: Isometry::from_parts(Translation3::new(tx, ty, tz), rotation),
            prediction: 0.02,
        };
        update_manifold(&input, &mut state, &mut manifold, &mut workspace);
        let (mut fresh_state, mut fresh) = (PairState::new(), ContactManifold::default());
        update_manifold(
            &input,
            &mut fresh_state,
            &mut fresh,
            &mut PairWorkspace::new(),
        );
        counts.push((frame, manifold.points.len(), fresh.points.len()));
    }
    for &(frame, kept, fresh) in &counts {
        assert!(
            kept + 1 >= fresh && (frame < 36 || kept == fresh),
            "frame {frame}: {kept} points where a fresh pair has {fresh} (frame, kept, fresh: \
             {counts:?})"
        );
    }
}

/// A capsule perched along a box's top edge, its axis just beyond the edge so that the normal
/// leans from the top face's by −0.3° (the axis over the face, 0.5 mm inside the edge) to 1.9°
/// (1 mm of jitter swings it by ±0.6°): the contact is at the edge, and the manifold holds both
/// ends of the side over it. With the face kept up to a lean of 2°, the side lay in the face's
/// side plane through the edge: one end or two, by rounding (122 changes of the point set in
/// 200 frames at 1°). With the face giving way to its edge from a lean of 0.125° on, the
/// leans below that still did (19–35 changes at −0.3° to 0.4°). Now a side plane does not cut
/// an edge that lies along it, and the face stays up to `EDGE_LEAN` (2°).
#[test]
fn capsule_perched_along_a_box_edge_keeps_both_ends() {
    let (block, edge_middle, _) = box_edge();
    let (half, radius) = (0.3, 0.1);
    let pill = Shape::Capsule(Capsule::new(half, radius).expect("valid"));
    let along_z = UnitQuaternion::from_axis_angle(&V::x_axis(), std::f64::consts::FRAC_PI_2);
    for (lean, seed) in [
        (-0.3f64, 29),
        (0.0, 31),
        (0.05, 37),
        (0.125, 41),
        (0.4, 43),
        (1.0, 19),
        (1.9, 23),
    ] {
        let n = V::new(lean.to_radians().sin(), lean.to_radians().cos(), 0.0);
        let axis = edge_middle + n * (radius - 3e-3);
        let what = format!("capsule perched along a box edge, leaning {lean}°");
        rests_steadily(&what, (&block, &pill), (axis, along_z), seed, 2);
    }
}

/// The perched capsule (leans −0.3°, 0°, 1°) and a capsule lying across the box's top face
/// with one end over the edge, in f32 (the precision rapier runs in, whose contact normals
/// of curved pairs are off by up to a few tenths of a degree): two points every frame, the
/// same ids throughout, both points of the crossing capsule where they belong (its end on
/// the face, the other where it leaves the face at the edge).
#[test]
fn capsules_on_a_box_edge_keep_their_points_in_f32() {
    // box_edge()'s box, in f32.
    let (_, edge_middle, _) = box_edge();
    let half = nphase_math::Vector::<f32>::new(0.4, 0.2, 0.45);
    let block = Shape::Cuboid(Cuboid::new(half).expect("valid"));
    let pill = Shape::Capsule(Capsule::new(0.3f32, 0.1).expect("valid"));
    let along_z = UnitQuaternion::from_axis_angle(&V::x_axis(), std::f64::consts::FRAC_PI_2);
    let along_x = UnitQuaternion::from_axis_angle(&V::z_axis(), std::f64::consts::FRAC_PI_2);
    let mut rng = rng(47);
    let mut cases: Vec<(String, V, UnitQuaternion<f64>)> = [-0.3f64, 0.0, 1.0]
        .iter()
        .map(|&lean| {
            let n = V::new(lean.to_radians().sin(), lean.to_radians().cos(), 0.0);
            (
                format!("perched, leaning {lean}°"),
                edge_middle + n * 0.097,
                along_z,
            )
        })
        .collect();
    cases.push(("across".into(), edge_middle + V::y() * 0.097, along_x));
    for (what, t, r) in cases {
        let (mut state, mut manifold) = (PairState::new(), ContactManifold::<f32>::default());
        let mut workspace = PairWorkspace::new();
        let mut first: Option<Vec<_>> = None;
        for frame in 0..FRAMES {
            let pos12 = jitter(&mut rng, t, r.scaled_axis(), 1e-3).cast::<f32>();
            let input = PairInput {
                shape1: &block,
                shape2: &pill,
                pos12,
                prediction: PREDICTION as f32,
            };
            update_manifold(&input, &mut state, &mut manifold, &mut workspace);
            let mut ids: Vec<_> = manifold.points.iter().map(|p| p.id).collect();
            ids.sort();
            assert_eq!(ids.len(), 2, "{what}, frame {frame}: {manifold:?}");
            let first = first.get_or_insert(ids.clone());
            assert_eq!(&ids, first, "{what}, frame {frame}");
            if what == "across" {
                // A's frame: one point at the capsule's end on the face (x = 0.1), one at the
                // edge (x = 0.4).
                let mut xs: Vec<f32> = manifold.points.iter().map(|p| p.local_point1.x).collect();
                xs.sort_by(f32::total_cmp);
                assert!(
                    (xs[0] - 0.1).abs() < 3e-3 && (xs[1] - 0.4).abs() < 1e-4,
                    "{what}, frame {frame}: {xs:?}"
                );
            }
        }
    }
}

/// A round box (core 0.5 × 0.4 × 0.6, border 0.05) turned 45° about its long axis and laid on a
/// flat box and on a round box, 1 mm deep: the ends of its rounded edge's lowest line while the
/// edge lies flat (level, or tilted 1° — the far end 1 cm up, at the prediction distance), the
/// low end alone when tilted 5°, the corner when it stands on that; A and B swapped as well.
///
/// Before a rounded polytope's leaning face gave way to its edge against a face too, the face
/// the feature search reported (either of the two through the edge) was clipped: pushed out
/// along its own normal, its vertices lie 1.5 cm above the rounded edge's lowest line, beyond
/// the prediction distance, so the exact witness alone stood for the edge, wandering from one
/// end to the other under the jitter: one point, its id changing every other frame.
#[test]
fn round_box_lying_on_its_rounded_edge_keeps_both_ends() {
    let rbox = Shape::round(cuboid(0.25, 0.2, 0.3), 0.05).expect("valid");
    let turn = |x: f64| {
        UnitQuaternion::from_scaled_axis(V::new(x, 0.0, 0.0))
            * UnitQuaternion::from_scaled_axis(V::new(0.0, 0.0, std::f64::consts::FRAC_PI_4))
    };
    // Tilt about x, and the points expected: the edge's two ends, its low end, a corner.
    let cases = [(0.0, 2), (0.017, 2), (0.087, 1), (0.6155, 1), (-0.6155, 1)];
    let grounds = [
        cuboid(2.0, 0.5, 2.0),
        Shape::round(cuboid(1.9, 0.4, 1.9), 0.1).expect("valid"),
    ];
    for (ground, (tilt, expected)) in grounds
        .iter()
        .flat_map(|g| cases.iter().map(move |c| (g, *c)))
    {
        let rotation = turn(tilt);
        let low = rbox_lowest(&rbox, &rotation);
        let rest = Iso::from_parts(V::new(0.1, 0.5 - low - 1e-3, 0.0).into(), rotation);
        let (t, r) = (rest.translation.vector, rest.rotation.scaled_axis());
        for swap in [false, true] {
            let what = format!("tilt {tilt}, {:?} ground, swapped {swap}", ground.kind());
            let run = if swap {
                let back = rest.inverse();
                run(
                    &rbox,
                    ground,
                    FRAMES,
                    |_, rng| jitter(rng, V::zeros(), V::zeros(), 2e-4) * back,
                    9,
                )
            } else {
                run(ground, &rbox, FRAMES, |_, rng| jitter(rng, t, r, 2e-4), 9)
            };
            assert_steady_over(&what, &run, FRAMES - 1);
            assert_eq!(run.points, expected * FRAMES, "{what}: {:?}", run.ids);
        }
    }
}

/// The height of `shape`'s lowest point turned by `rotation` (at the origin).
fn rbox_lowest(shape: &Shape<f64>, rotation: &UnitQuaternion<f64>) -> f64 {
    (rotation
        * shape
            .local_support_point(&(rotation.inverse() * -V::y()))
            .coords)
        .y
}

/// A round box's rounded edge on a ridge — a round box's or a sharp box's, each turned about
/// 45° —, 1 mm deep, crossed (square or skewed: one point, named by the two edges) and nearly
/// parallel (1° and 3° apart: the two ends of the overlap, and the witness between where the
/// edges cross), with either shape as A: as many points whichever is A.
///
/// Before a rounded polytope's leaning face gave way to its edge against a face, both sides'
/// features were faces, and the crossed witness was named by them: by whichever of the two
/// faces through each edge the search reported, which the normal's noise decided — 148–158
/// of 200 frames changed the id. With the rule run once per side, a sharp ridge as A stayed a
/// face (B was not yet an edge) and clipped the nearly parallel edge to one point, where the
/// round box as A gave two.
#[test]
fn rounded_edges_on_ridges_keep_their_ids_whichever_shape_is_a() {
    let q45 = std::f64::consts::FRAC_PI_4;
    let rbox = Shape::round(cuboid(0.25, 0.2, 0.3), 0.05).expect("valid");
    let about = |v: V| UnitQuaternion::from_scaled_axis(v);
    let ridge = about(V::new(q45, 0.0, 0.0));
    let cases = [
        (ridge, about(V::new(0.0, 0.0, q45)), 1),
        (
            about(V::new(0.7, 0.0, 0.0)),
            about(V::new(0.0, 0.0, 0.87)),
            1,
        ),
        (
            ridge,
            about(V::new(0.0, 0.5, 0.0)) * about(V::new(0.0, 0.0, q45)),
            1,
        ),
        (ridge, about(V::new(0.0, 0.0175, 0.0)) * ridge, 2),
        (ridge, about(V::new(0.0, 0.05, 0.0)) * ridge, 2),
    ];
    for ground in [
        Shape::round(cuboid(0.5, 0.4, 0.45), 0.1).expect("valid"),
        cuboid(0.6, 0.5, 0.55),
    ] {
        for (qa, qb, expected) in cases {
            // A point along the ridge's top and one along the edge's lowest line, away from
            // their ends, one above the other, 1 mm deep.
            let along = |shape: &Shape<f64>, q: &UnitQuaternion<f64>, up: V| {
                let tips = [V::x(), -V::x(), V::z(), -V::z()].map(|d| {
                    q * shape
                        .local_support_point(&(q.inverse() * (up + d * 0.01)))
                        .coords
                });
                tips.iter().sum::<V>() / 4.0
            };
            let t = along(&ground, &qa, V::y()) - along(&rbox, &qb, -V::y()) - V::y() * 1e-3;
            let rest =
                Iso::from_parts(V::zeros().into(), qa).inverse() * Iso::from_parts(t.into(), qb);
            let (t, r) = (rest.translation.vector, rest.rotation.scaled_axis());
            let back = rest.inverse();
            let mut counts = Vec::new();
            for swap in [false, true] {
                let what = format!("{:?} {qa:?} against {qb:?}, swapped {swap}", ground.kind());
                let run = if swap {
                    run(
                        &rbox,
                        &ground,
                        FRAMES,
                        |_, rng| jitter(rng, V::zeros(), V::zeros(), 2e-4) * back,
                        11,
                    )
                } else {
                    run(&ground, &rbox, FRAMES, |_, rng| jitter(rng, t, r, 2e-4), 11)
                };
                assert_steady_over(&what, &run, FRAMES - 1);
                // Crossed: one point; nearly parallel: the ends (and the witness between).
                match expected {
                    1 => assert_eq!(run.points, FRAMES, "{what}: {:?}", run.ids),
                    _ => assert!(run.points >= expected * FRAMES, "{what}: {:?}", run.ids),
                }
                counts.push(run.points);
                if expected == 1 {
                    assert!(
                        run.ids.iter().all(|(a, b)| matches!(
                            (a, b),
                            (FeatureId::Edge(_), FeatureId::Edge(_))
                        )),
                        "{what}: {:?}",
                        run.ids
                    );
                }
            }
            assert_eq!(
                counts[0], counts[1],
                "{qa:?} against {qb:?}: A and B swapped"
            );
        }
    }
}

/// A capsule lying across a box face's corner, its side line at 45° to the face's edges and
/// cutting the corner off by a chord `2c` long (`c` from the corner), 1 mm deep; then a
/// cylinder lying the same way, and a long box standing on its edge: the incident edge crosses
/// two side planes near each other. At `c` = 3 cm and 8.5 mm the manifold holds the chord's
/// two ends, named by the face's edges and the line, with steady ids; at 8.5 mm both ends are
/// within `τ` (1.41 cm) of the corner (1.2 cm from it) but more than `τ` apart (1.7 cm), where
/// before the id rule named both by the corner and the two, one id, merged into one point
/// jumping from end to end with the pose noise. At 2 mm the ends are one place (4 mm apart):
/// one point, named by the corner.
#[test]
fn a_side_line_across_a_faces_corner_keeps_both_ends() {
    let block = cuboid(0.5, 0.5, 0.5);
    for (name, shape, lying_at) in &lines_across_a_corner() {
        for (c, points, seed) in [(0.03, 2, 51), (0.0085, 2, 53), (0.002, 1, 59)] {
            let what = format!("{name} across a face's corner, chord {c} m from it");
            holds_points(&what, (&block, shape), lying_at(c), seed, points);
        }
    }
}

/// A pose maker: where a shape lies across the corner (0.5, 0.5, 0.5) of a unit box's top face,
/// its lowest line along (1, 0, −1)/√2 cutting the corner off by a chord `2c` long (the
/// chord's middle `c` inside the corner along (−1, 0, −1)/√2), 1 mm deep: (translation, scaled
/// axis).
type LyingAt = Box<dyn Fn(f64) -> (V, V)>;

/// The shapes with a line to lie on (a capsule, a cylinder, a long box on its edge; half
/// length 0.3, radius or half side 0.1), each with where it lies across a unit box face's
/// corner ([`LyingAt`]). The capsule's and the cylinder's axis is y (turned onto x); the box
/// (long along x) is turned 45° about x onto its edge; then each turned 45° about y.
fn lines_across_a_corner() -> [(&'static str, Shape<f64>, LyingAt); 3] {
    let (half, radius) = (0.3, 0.1);
    let quarter = std::f64::consts::FRAC_PI_4;
    let diagonal = UnitQuaternion::from_scaled_axis(V::y() * quarter);
    let lying = diagonal * UnitQuaternion::from_scaled_axis(V::z() * 2.0 * quarter);
    let on_edge = diagonal * UnitQuaternion::from_scaled_axis(V::x() * quarter);
    // `below`: how far the lowest line lies below the shape's centre.
    let at = |below: f64, turn: UnitQuaternion<f64>| -> LyingAt {
        Box::new(move |c: f64| {
            let middle = V::new(0.5, 0.5, 0.5) - V::new(1.0, 0.0, 1.0) * (c / 2f64.sqrt());
            (middle + V::y() * (below - 1e-3), turn.scaled_axis())
        })
    };
    [
        (
            "capsule",
            Shape::Capsule(Capsule::new(half, radius).expect("valid")),
            at(radius, lying),
        ),
        (
            "cylinder",
            Shape::Cylinder(Cylinder::new(half, radius).expect("valid")),
            at(radius, lying),
        ),
        (
            "box on its edge",
            cuboid(half, radius, radius),
            at(radius * 2f64.sqrt(), on_edge),
        ),
    ]
}

/// A hull on its edge: the long box of [`lines_across_a_corner`] built as a hull of its eight
/// corners, standing on its edge across the unit box face's corner, the chord's middle 8.5 mm
/// and 9.5 mm from the corner — the corner lies 6.5–8.5 mm under one of the two faces through
/// the edge, within the 1 cm prediction distance. The two faces tie; the hull keeps the one it
/// reported (`FACE_TIE_HOLD`), and with it the corner's speculative point is there every frame
/// or never: steady ids, the same points every frame, none moving under its id. Before, the
/// hull had no such margin, the noise picked either face, and the corner's point came and went
/// (at 8.5 mm the set of ids changed at frame 1 on every seed).
#[test]
fn a_hull_on_its_edge_keeps_the_face_it_reported() {
    let block = cuboid(0.5, 0.5, 0.5);
    let [.., (_, _, lying_at)] = lines_across_a_corner();
    let hull = hull_box(0.3, 0.1, 0.1);
    for c in [0.0085, 0.0095] {
        for seed in [51, 52, 53] {
            let what = format!("hull box on its edge, chord {c} m from the corner, seed {seed}");
            let run = jittered_run((&block, &hull), lying_at(c), seed, true);
            assert_steady_in_place(&what, &run, 0);
        }
    }
}

/// Between `τ` and `2τ`: the capsule, cylinder and long box of the test above lie across the
/// face's corner with their chord's ends first 8 mm apart (4 mm from the corner: one place,
/// one point, named by the corner), then, from frame 40 on, 2.4 cm apart (1.2 cm from the
/// corner: more than `τ` = 1.41 cm apart, less than `2τ`). Both ends are within `2τ` of the
/// corner's point: the end nearer it keeps its id, the other becomes a point of its own with
/// its clipping label. From frame 41 on: two points every frame, steady ids, and no point
/// keeping its id across a move of more than 1 cm. Before, both ends inherited the corner's
/// id and stayed one point, jumping 2.3 cm from end to end with the pose noise, until they
/// were `2τ` apart. The other way (ends 1.7 cm apart, then 8 mm): two points throughout, each
/// keeping its id (they were two places when named).
#[test]
fn a_chord_growing_past_tau_parts_its_ends() {
    let block = cuboid(0.5, 0.5, 0.5);
    const SWITCH: usize = 40;
    for (name, shape, lying_at) in &lines_across_a_corner() {
        for (c0, c1, seed) in [(0.004, 0.012, 81), (0.0085, 0.004, 83)] {
            let run = run(
                &block,
                shape,
                FRAMES,
                |frame, rng| {
                    let (t, r) = lying_at(if frame < SWITCH { c0 } else { c1 });
                    if frame == 0 {
                        Iso::new(t, r)
                    } else {
                        jitter(rng, t, r, 1e-3)
                    }
                },
                seed,
            );
            let what = format!("{name} across a face's corner, chord {c0} then {c1} m from it");
            let first = if c0 < c1 { 1 } else { 2 };
            eprintln!(
                "{what}: {} points, {} flickers, jumps {:?}, set changes {:?}, ids {:?}",
                run.points,
                run.flickers.len(),
                run.jumps,
                run.set_changes,
                run.ids
            );
            assert!(run.flickers.is_empty(), "{what}: {:?}", run.flickers);
            assert_eq!(run.points, first * SWITCH + 2 * (FRAMES - SWITCH), "{what}");
            let after: Vec<_> = run.jumps.iter().filter(|(f, _)| *f > SWITCH).collect();
            assert!(after.is_empty(), "{what}: {after:?}");
            assert!(
                run.set_changes.iter().all(|&f| f == SWITCH),
                "{what}: {:?}",
                run.set_changes
            );
        }
    }
}

/// A unit box tilted on a 2 m wide box, its low edge 1 mm deep, its high edge `h` above the
/// face, with a 1 cm prediction distance and 1 mm of pose noise:
///
/// * `h` = 9.9 mm, just within the prediction distance, which the noise crosses back and forth:
///   the high edge's two points are held (last frame's manifold keeps a point up to
///   `min(τ, prediction)` — here 1 cm — past the prediction distance): four points every
///   frame, steady ids. Before, the two came and went (present in about half the frames);
/// * `h` = 1.3 cm from the start: beyond the prediction distance, the high edge never enters
///   (new points enter at the prediction distance only): two points every frame;
/// * `h` = 9.9 mm, then from frame 40 on 2.5 cm, past the prediction distance and its
///   allowance: four points, then two.
#[test]
fn a_speculative_edge_at_the_prediction_distance_stays() {
    let floor = cuboid(1.0, 0.5, 1.0);
    let unit = cuboid(0.5, 0.5, 0.5);
    // Tilted about x by asin(h + 1 mm): the high edge `h` above the face.
    let pose = |h: f64| {
        let tilt = (h + 1e-3).asin();
        let height = 0.5 + 0.5 * tilt.cos() + 0.5 * tilt.sin() - 1e-3;
        (V::new(0.0, height, 0.0), V::x() * tilt)
    };
    for seed in [91, 93, 97] {
        let what = "box tilted with its high edge at the prediction distance";
        holds_points(what, (&floor, &unit), pose(0.0099), seed, 4);
        let what = "box tilted with its high edge beyond the prediction distance";
        holds_points(what, (&floor, &unit), pose(0.013), seed, 2);
        const LIFT: usize = 40;
        let r = run(
            &floor,
            &unit,
            FRAMES,
            |frame, rng| {
                let (t, r) = pose(if frame < LIFT { 0.0099 } else { 0.025 });
                if frame == 0 {
                    Iso::new(t, r)
                } else {
                    jitter(rng, t, r, 1e-3)
                }
            },
            seed,
        );
        assert_eq!(
            r.points,
            4 * LIFT + 2 * (FRAMES - LIFT),
            "lifted: {:?}",
            r.ids
        );
        assert!(
            r.set_changes.iter().all(|&f| f == LIFT),
            "{:?}",
            r.set_changes
        );
    }
}

/// A unit box on a unit box, turned 45° about the normal and overhanging a corner, 1 mm
/// deep: its edge cuts the lower face's corner off by a chord `2c` long, and the contact is
/// the triangle of the corner and the chord's ends. At `c` = 3 cm three points, at 8.5 mm
/// three (the ends 1.2 cm from the corner, within `τ`, but 1.7 cm apart: two places, named by
/// their edges; the corner named by the upper box's edge within `τ` of it; before, the three
/// were one point), at 4 mm one, named by the corner. (Nearer than the 1 mm depth the shortest
/// way out is sideways, and the normal turns with the noise.)
#[test]
fn a_box_edge_cutting_a_faces_corner_keeps_the_triangle() {
    let unit = cuboid(0.5, 0.5, 0.5);
    let quarter = std::f64::consts::FRAC_PI_4;
    // Outward along the diagonal from the corner (0.5, 0.5, 0.5); the upper box's edge runs
    // across it, `c` inside the corner, and its face covers the corner.
    let out = V::new(1.0, 0.0, 1.0) / 2f64.sqrt();
    for (c, points, seed) in [(0.03, 3, 71), (0.0085, 3, 73), (0.004, 1, 79)] {
        let t = V::new(0.5, 0.999, 0.5) + out * (0.5 - c);
        let what = format!("box edge across a face's corner, {c} m from it");
        holds_points(&what, (&unit, &unit), (t, V::y() * quarter), seed, points);
    }
}

/// Two equal capsules, then two equal cylinders, side by side, parallel, their ends lined up
/// (and shifted along by 1 mm, within the pose noise): the reference side line's end planes
/// cut the incident line right at its ends, so the noise decides whether an end is the
/// incident vertex or its crossing with the end plane (the end planes have no slack). The id
/// rule names both the same — the two lines' end vertices, within `τ` —: both ends every
/// frame, steady ids.
#[test]
fn parallel_side_lines_with_ends_lined_up_keep_both_ends() {
    let (half, radius) = (0.3, 0.1);
    let shapes = [
        (
            "capsules",
            Shape::Capsule(Capsule::new(half, radius).expect("valid")),
        ),
        (
            "cylinders",
            Shape::Cylinder(Cylinder::new(half, radius).expect("valid")),
        ),
    ];
    for (name, shape) in &shapes {
        for (shift, seed) in [(0.0, 61), (1e-3, 67)] {
            // Side by side along x (the axes are y), 1 mm deep.
            let t = V::new(2.0 * radius - 1e-3, shift, 0.0);
            let what = format!("{name} side by side, ends lined up, shifted {shift}");
            holds_points(&what, (shape, shape), (t, V::zeros()), seed, 2);
        }
    }
}

/// A box of half extents `x`, `y`, `z` built as the hull of its eight corners.
fn hull_box(x: f64, y: f64, z: f64) -> Shape<f64> {
    let corners: Vec<Point<f64>> = (0..8)
        .map(|i| {
            let s = |bit: u32| if i & (1 << bit) == 0 { 1.0 } else { -1.0 };
            Point::new(x * s(0), y * s(1), z * s(2))
        })
        .collect();
    Shape::Convex(ConvexPolyhedron::from_points(&corners).expect("box").into())
}

/// Regression (found running `every_pair_kind_keeps_its_ids_at_rest` over 40 more seeds): on
/// a curved pair, 1 mm deep at a random orientation, the per-frame query's EPA — started from
/// the polytope the pair kept, restored at this frame's pose — reported a contact up to 0.4 mm
/// deeper than the exact one along a normal up to 33° off it, as converged: the restored
/// polytope was far from convex, the origin's projection fell off its closest face, and the
/// witness moved to an edge's direction with a gap of 0.17 mm — which EPA did not check
/// against its tolerance. It now does (a warm start that does not converge gives way to a cold
/// query), and these ten pairs' deepest points match the exact contact every frame (`run`
/// checks it). Each: A, B (of the zoo), the rest pose (translation, scaled axis) and the
/// jitter's seed.
#[test]
fn warm_epa_keeps_the_exact_depth_on_curved_pairs() {
    /// A, B, the rest pose (translation, scaled axis), the jitter's seed.
    type Replay = (&'static str, &'static str, [f64; 3], [f64; 3], u64);
    let zoo = common::zoo();
    let named = |name: &str| &zoo.iter().find(|(n, _)| *n == name).expect("in the zoo").1;
    let cases: [Replay; 10] = [
        (
            "cylinder",
            "cuboid",
            [0.6634891427126411, 0.903939730191436, 0.3054954431112489],
            [-1.1425272925873582, 1.1703090177477207, 2.4029576462087845],
            127,
        ),
        (
            "cylinder",
            "cone",
            [0.5149145339396869, 0.5786962713519817, 0.5119613489319562],
            [-2.170576077176361, 0.6152732389996529, 0.6006536103446192],
            139,
        ),
        (
            "cylinder",
            "cone",
            [
                -0.5823735089068485,
                -0.6436487626834904,
                0.20696482976626307,
            ],
            [
                -0.6869488558278979,
                -0.6055706430333734,
                -0.31300049740031466,
            ],
            138,
        ),
        (
            "cylinder",
            "segment",
            [0.21798824978405085, -0.5114903155065802, 0.7731355096293926],
            [-0.12840659143008226, 1.2619479350624243, 0.9011188906947571],
            142,
        ),
        (
            "cylinder",
            "segment",
            [-0.3010711312674703, -0.5092000107523947, 0.7615817437718111],
            [1.014351286486624, -2.345027937679127, 0.9854666123307647],
            142,
        ),
        (
            "cylinder",
            "segment",
            [
                -0.44902561501346766,
                -0.6135812130495102,
                -0.31404181695393896,
            ],
            [-0.5499740484771937, 1.51086600266776, -0.26515073965103836],
            143,
        ),
        (
            "cylinder",
            "triangle",
            [0.7129490941153268, 0.6660583747754705, 0.05918992374097562],
            [-1.1016738126226697, -2.0080361388388055, 1.679349200869804],
            147,
        ),
        (
            "cone",
            "segment",
            [
                -0.5900614159651385,
                -0.5529696922011882,
                -0.3617410328117141,
            ],
            [-1.147843765449381, -0.849355958940628, 0.30958064841606914],
            182,
        ),
        (
            "cone",
            "segment",
            [0.6731080592249611, -0.4885372504201345, 0.03959004315692238],
            [
                -0.012676204828566956,
                0.2658065854912586,
                -0.182482989194304,
            ],
            183,
        ),
        (
            "cone",
            "triangle",
            [0.3718912386296692, -0.7325588452208289, 0.6790139667827345],
            [-0.9040323262923685, 0.30327759867548115, -1.648717486570526],
            186,
        ),
    ];
    for (a, b, t, r, seed) in cases {
        let (t, r) = (V::from(t), V::from(r));
        let run = run(
            named(a),
            named(b),
            100,
            |_, rng| jitter(rng, t, r, 2e-4),
            seed,
        );
        assert!(run.points > 0, "{b} on {a}: no contact");
    }
}
