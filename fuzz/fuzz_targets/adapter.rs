//! `nphase_parry::Dispatcher` as rapier calls it: parry 0.31 shapes built from fuzzed
//! parameters, `contact_manifolds` for several frames with the pair's manifolds and workspace
//! kept (B moved and turned between frames, sometimes not at all, sometimes handed a different
//! shape), then the one-shot queries. Only pairs nphase answers are driven (both shapes convert,
//! the pose is within the input range, the prediction valid): parry's own paths are not under
//! test. Asserts: no panic; one manifold with at most four finite points, each within the
//! prediction (or within the kept hysteresis of `min(τ, prediction)` beyond it), distinct
//! feature ids and a unit normal; its deepest point that of a full recomputation (a fresh
//! dispatcher and workspace) within a few thousandths of the scale; `distance` is
//! non-negative, and `intersection_test` agrees with it.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use nphase::math::Isometry;
use nphase_fuzz::{Num, PoseSpec, ShapeSpec, magnitude};
use nphase_parry::Dispatcher;
use nphase_parry::glam_nalgebra::{pose_from_na, pose_in_range};
use parry3d::math::{Pose, Vector};
use parry3d::query::{
    ContactManifold, ContactManifoldsWorkspace, PersistentQueryDispatcher, QueryDispatcher,
};
use parry3d::shape::{self as ps, SharedShape};

#[derive(Debug, Arbitrary)]
struct Input {
    shape1: ShapeSpec,
    shape2: ShapeSpec,
    /// B's pose in A's frame at the first frame.
    pose: PoseSpec,
    prediction: Num,
    /// Per-frame motion of B: a translation step and a turn (the step's tenth, radians).
    step: [Num; 3],
    /// Which frames B stands still: bit k set, frame k + 1 repeats frame k's pose.
    still: u8,
    /// Which frames B's shape is replaced by A's (bit k: frame k), and back: the pair's
    /// converted shapes and state must follow both ways.
    swap: u8,
}

fn cylinder(h: &Num, r: &Num) -> ps::Cylinder {
    ps::Cylinder {
        half_height: h.0 as f32,
        radius: r.0 as f32,
    }
}

fn cone(h: &Num, r: &Num) -> ps::Cone {
    ps::Cone {
        half_height: h.0 as f32,
        radius: r.0 as f32,
    }
}

/// The parry 0.31 shape a description stands for, when parry takes its parameters and nphase
/// converts it (`None` otherwise: that pair is parry's, not under test).
fn parry_shape(spec: &ShapeSpec) -> Option<SharedShape> {
    let f = |n: &Num| n.0 as f32;
    let v = |p: &[Num; 3]| Vector::new(f(&p[0]), f(&p[1]), f(&p[2]));
    let shape = match spec {
        ShapeSpec::Ball(r) => SharedShape::ball(f(r)),
        ShapeSpec::Cuboid(h) => SharedShape::cuboid(f(&h[0]), f(&h[1]), f(&h[2])),
        ShapeSpec::Capsule(h, r) => SharedShape::capsule_y(f(h), f(r)),
        // Literals: parry's constructors assert, a user's literal does not.
        ShapeSpec::Cylinder(h, r) => SharedShape::new(cylinder(h, r)),
        ShapeSpec::Cone(h, r) => SharedShape::new(cone(h, r)),
        ShapeSpec::Segment(a, b) => SharedShape::segment(v(a), v(b)),
        ShapeSpec::Triangle(a, b, c) => SharedShape::triangle(v(a), v(b), v(c)),
        ShapeSpec::Convex(points) => {
            // parry's hull builder is not under test: finite points of moderate size only.
            let points: Vec<Vector> = points.iter().take(32).map(v).collect();
            let sane = points
                .iter()
                .all(|p| p.is_finite() && p.abs().max_element() <= 1e3);
            if !sane || points.len() < 4 {
                return None;
            }
            SharedShape::convex_hull(&points)?
        }
        ShapeSpec::Round(inner, r) => {
            let r = f(r);
            match &**inner {
                ShapeSpec::Cuboid(h) => SharedShape::round_cuboid(f(&h[0]), f(&h[1]), f(&h[2]), r),
                ShapeSpec::Cylinder(h, radius) => SharedShape::new(ps::RoundShape {
                    inner_shape: cylinder(h, radius),
                    border_radius: r,
                }),
                ShapeSpec::Cone(h, radius) => SharedShape::new(ps::RoundShape {
                    inner_shape: cone(h, radius),
                    border_radius: r,
                }),
                ShapeSpec::Triangle(a, b, c) => SharedShape::round_triangle(v(a), v(b), v(c), r),
                _ => return None,
            }
        }
    };
    nphase_parry::to_nphase(&*shape.0).ok().map(|_| shape)
}

fn check(input: &Input) {
    let (Some(a), Some(b)) = (parry_shape(&input.shape1), parry_shape(&input.shape2)) else {
        return;
    };
    let prediction = input.prediction.0 as f32;
    if !(prediction.is_finite() && prediction >= 0.0) {
        return;
    }
    // Within f32's supported sizes (docs/accuracy.md), answers must be finite.
    let in_range = magnitude(&input.shape1) <= 1e4
        && magnitude(&input.shape2) <= 1e4
        && prediction <= 1e4
        && input
            .step
            .iter()
            .all(|n| n.0.is_finite() && n.0.abs() <= 1e3);
    let iso: Isometry<f32> = input.pose.build();
    let mut pose: Pose = pose_from_na(&iso);
    let step = Vector::new(
        input.step[0].0 as f32,
        input.step[1].0 as f32,
        input.step[2].0 as f32,
    );
    let turn = parry3d::math::Rotation::from_scaled_axis(step * 0.1);

    let dispatcher = Dispatcher::default();
    let mut manifolds: Vec<ContactManifold<(), ()>> = Vec::new();
    let mut workspace: Option<ContactManifoldsWorkspace> = None;
    for frame in 0..6u8 {
        if !pose_in_range(&pose) {
            return;
        }
        let b_now = if input.swap & (1 << frame) != 0 {
            &a
        } else {
            &b
        };
        dispatcher
            .contact_manifolds(
                &pose,
                &*a.0,
                &*b_now.0,
                prediction,
                &mut manifolds,
                &mut workspace,
            )
            .expect("convex pairs are answered");
        assert!(manifolds.len() <= 1, "{manifolds:?}");
        // The pair's size and where it is, for tolerances relative to them.
        let scale = magnitude(&input.shape1)
            .max(magnitude(&input.shape2))
            .max(f64::from(pose.translation.length()))
            .max(1e-6) as f32;
        if in_range && let Some(m) = manifolds.first() {
            assert!(m.points.len() <= 4, "{m:?}");
            if !m.points.is_empty() {
                let n = m.local_n1;
                assert!(n.is_finite() && (n.length() - 1.0).abs() < 1e-3, "{m:?}");
            }
            for (i, p) in m.points.iter().enumerate() {
                assert!(
                    p.local_p1.is_finite() && p.local_p2.is_finite() && p.dist.is_finite(),
                    "{m:?}"
                );
                // A kept point may lie up to min(τ, prediction) beyond the prediction, and a
                // standing manifold's distances follow the pose for a few `δ` (1e-5 of the
                // size each) more.
                assert!(
                    p.dist <= prediction + prediction + 1e-3 + 1e-4 * scale,
                    "{m:?}"
                );
                for q in &m.points[i + 1..] {
                    assert!((p.fid1, p.fid2) != (q.fid1, q.fid2), "{m:?}");
                }
            }
        }
        // Against a full recomputation: the same pose through a fresh dispatcher and
        // workspace. The kept pair may keep a point up to the prediction's hysteresis beyond
        // it, and its deepest point up to DEPTH_HYSTERESIS × the size above the exact depth;
        // anything beyond a few thousandths of the scale is a shortcut gone wrong.
        let mut cold: Vec<ContactManifold<(), ()>> = Vec::new();
        Dispatcher::default()
            .contact_manifolds(&pose, &*a.0, &*b_now.0, prediction, &mut cold, &mut None)
            .expect("convex pairs are answered");
        if in_range {
            let deepest = |ms: &[ContactManifold<(), ()>]| {
                ms.iter()
                    .flat_map(|m| m.points.iter().map(|p| p.dist))
                    .fold(f32::INFINITY, f32::min)
            };
            let (warm, full) = (deepest(&manifolds), deepest(&cold));
            let tol = 5e-3 * scale;
            if full < prediction - tol || warm < prediction - tol {
                assert!(
                    (warm - full).abs() <= tol,
                    "frame {frame}: kept pair's deepest {warm}, recomputed {full}\n\
                     {manifolds:?}\n{cold:?}"
                );
            }
        }
        if input.still & (1 << frame) == 0 {
            pose.translation += step;
            pose.rotation = turn * pose.rotation;
        }
    }
    // The one-shot queries at the last pose (one out of range is parry's).
    if !pose_in_range(&pose) {
        return;
    }
    let Ok(d) = dispatcher.distance(&pose, &*a.0, &*b.0) else {
        return;
    };
    assert!(d.distance >= 0.0 || !in_range, "{d:?}");
    let hit = dispatcher.intersection_test(&pose, &*a.0, &*b.0);
    if in_range && let Ok(hit) = hit {
        // Signs agree away from the boundary (1e-3 of the pair's size, as the `contact`
        // target: f32's accuracy band, docs/accuracy.md).
        let size = magnitude(&input.shape1)
            .max(magnitude(&input.shape2))
            .max(1e-12) as f32;
        if d.distance > size * 1e-3 {
            assert!(!hit.intersecting, "distance {d:?} but intersecting");
        }
    }
    if let Ok(Some(c)) = dispatcher.contact(&pose, &*a.0, &*b.0, prediction)
        && in_range
    {
        assert!((c.normal1.length() - 1.0).abs() < 1e-3, "{c:?}");
        assert!(c.dist <= prediction, "{c:?}");
    }
    let _ = dispatcher.closest_points(&pose, &*a.0, &*b.0, prediction);
}

fuzz_target!(|input: Input| check(&input));
