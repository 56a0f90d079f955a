//! Regression tests of the manifold stage: each names what failed, on what geometry, and why
//! it now passes. The poses are the failing samples of `manifold_geometry.rs` before the fix.

mod common;

use common::*;
use nphase_math::nalgebra::{Quaternion, Translation3, UnitQuaternion};
use nphase_pipeline::query::{contact, distance};
use nphase_pipeline::{Collider, NarrowPhase, NarrowPhaseConfig};
use nphase_shapes::{Ball, Capsule, Cylinder, Shape};

/// A pose from nalgebra's debug print: quaternion `[i, j, k, w]`, translation.
fn pose(q: [f64; 4], t: [f64; 3]) -> Iso {
    Iso::from_parts(
        Translation3::new(t[0], t[1], t[2]),
        UnitQuaternion::new_normalize(Quaternion::new(q[3], q[0], q[1], q[2])),
    )
}

/// The manifold of one pair (prediction 0.05), checked against the exact contact: the
/// deepest point agrees with it, no point is deeper, and every point is on its surface
/// (`tol` absolute).
fn check_pair(a: Collider<f64>, b: Collider<f64>, tol: f64) -> usize {
    let prediction = 0.05;
    let mut narrow = NarrowPhase::new(NarrowPhaseConfig {
        prediction,
        threads: 1,
        chunk_size: 64,
    })
    .expect("valid config");
    let colliders = [a, b];
    let m = narrow.update(&colliders, &[(0, 1)]).expect("valid")[0].clone();
    let [a, b] = &colliders;
    let exact = contact(&a.pose, &a.shape, &b.pose, &b.shape, prediction)
        .expect("finite")
        .expect("touching");
    let deepest = m.deepest().expect("points");
    assert!(
        (deepest.dist - exact.dist).abs() <= tol,
        "deepest {} vs exact {}",
        deepest.dist,
        exact.dist
    );
    let point = Shape::Ball(Ball::new(0.0).expect("valid"));
    for p in &m.points {
        assert!(
            p.dist >= exact.dist - tol,
            "{} deeper than {}",
            p.dist,
            exact.dist
        );
        for (q, c) in [(a.pose * p.local_point1, a), (b.pose * p.local_point2, b)] {
            let d = distance(&Iso::translation(q.x, q.y, q.z), &point, &c.pose, &c.shape)
                .expect("finite");
            assert!(
                d.abs() <= tol,
                "{q:?} is {d:e} off the {:?}",
                c.shape.kind()
            );
        }
    }
    m.points.len()
}

/// Two boxes in an edge-to-face contact whose normal (the exact minimiser, 0.0657 deep) is
/// tilted from both faces: the incident face was clipped by side planes perpendicular to the
/// reference face, and its points measured along the normal down to the reference plane, so a
/// surviving corner was paired with a point of the plane outside the face and came out 0.072
/// deep — deeper than the shapes overlap, pushing them apart too hard. The side planes now
/// contain the normal: a surviving point's partner is on the face, and by the support property
/// no point is deeper than the exact contact.
#[test]
fn tilted_box_contact_is_not_deeper_than_the_overlap() {
    let shape = cuboid(0.5, 0.3, 0.4);
    let a = Collider {
        id: 0,
        shape: shape.clone(),
        pose: pose(
            [
                0.26238749509613635,
                0.6085830804024449,
                0.7254816232625774,
                0.1856228729799804,
            ],
            [-0.7558787332593226, -4.751658199532718, -1.1701445013369294],
        ),
    };
    let b = Collider {
        id: 1,
        shape,
        pose: pose(
            [
                0.17181731505592196,
                0.304990595511395,
                0.12967435619659096,
                0.9277090644386193,
            ],
            [
                -0.5003556375496506,
                -3.8635447526620137,
                -1.8083736386196216,
            ],
        ),
    };
    check_pair(a, b, 1e-9);
}

/// A capsule touching a hull face with its side, the normal 1–2° off perpendicular to its
/// axis: the capsule's side line was pushed out by its radius along the normal, which puts the
/// line's ends inside the capsule (by 4.5e-7 here, up to radius·(1 − cos 2°)). Edges are now
/// pushed out perpendicularly to themselves (`SupportFeature::push_out`), onto the capsule's
/// cylindrical side; the clipped points are then no deeper than the exact contact, which joins
/// as the deepest point.
#[test]
fn capsule_side_points_are_on_the_capsule() {
    let hull = zoo().remove(7);
    assert_eq!(hull.0, "convex");
    let a = Collider {
        id: 0,
        shape: hull.1,
        pose: pose(
            [
                -0.29531859920020054,
                0.01135377131416769,
                -0.25073473038433197,
                0.9218406108555173,
            ],
            [-2.061977041678187, -1.1033043162713008, -4.45299734586248],
        ),
    };
    let b = Collider {
        id: 1,
        shape: Shape::Capsule(Capsule::new(0.4, 0.2).expect("valid")),
        pose: pose(
            [
                0.5416827736298839,
                -0.7175112377681495,
                0.3682918245901109,
                0.2368934958354517,
            ],
            [-1.5435902826709147, -1.5200853909443255, -4.720801846388875],
        ),
    };
    check_pair(a, b, 1e-9);
}

/// A capsule lying along a cylinder's side, about 1° out of parallel: both supporting features
/// are edges (the side lines), and the incident edge's ends were paired with points straight
/// below them along the normal on the plane through the reference edge — up to 7e-4 beside the
/// cylinder. Parallel edges now pair each clipped end with the closest point of the reference
/// edge, so both points are on their surfaces (`dist` is their separation along the normal).
#[test]
fn nearly_parallel_side_lines_pair_points_on_both_surfaces() {
    let a = Collider {
        id: 0,
        shape: Shape::Cylinder(Cylinder::new(0.35, 0.4).expect("valid")),
        pose: pose(
            [
                -0.49371010606421045,
                -0.3599685647893866,
                -0.09953751604611402,
                0.7853440306215518,
            ],
            [-4.1114833216394775, 2.300139061497788, -2.1107018961703794],
        ),
    };
    let b = Collider {
        id: 1,
        shape: Shape::Capsule(Capsule::new(0.4, 0.2).expect("valid")),
        pose: pose(
            [
                -0.35845753357477905,
                0.49213814335861406,
                0.7870397978789727,
                0.09938108989967985,
            ],
            [-3.585483836355491, 1.9911908605256499, -2.2724906459835688],
        ),
    };
    assert_eq!(
        check_pair(a, b, 1e-7),
        2,
        "two points along the parallel sides"
    );
}

/// Two capsules crossed at right angles, one on the other: their side lines are both
/// supporting edges. The incident edge used to be clipped against the reference edge's end
/// planes and both of its ends kept, paired with points beside the reference capsule — two
/// points where the capsules touch at one. Crossed edges now give the exact witness alone.
#[test]
fn crossed_capsules_touch_at_one_point() {
    let capsule = Shape::Capsule(Capsule::new(0.5, 0.2).expect("valid"));
    let a = Collider {
        id: 0,
        shape: capsule.clone(),
        pose: Iso::new(V::zeros(), V::new(0.0, 0.0, std::f64::consts::FRAC_PI_2)),
    };
    let b = Collider {
        id: 1,
        shape: capsule,
        pose: Iso::new(
            V::new(0.0, 0.39, 0.0),
            V::new(std::f64::consts::FRAC_PI_2, 0.0, 0.0),
        ),
    };
    assert_eq!(check_pair(a, b, 1e-9), 1);
}
