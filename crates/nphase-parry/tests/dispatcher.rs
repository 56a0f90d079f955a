//! The dispatcher against parry's own: which pairs nphase answers, that its answers agree with
//! parry's on random convex pairs, that everything else is parry's answer unchanged, that bad
//! input is refused without a panic, and that the engine's per-point data follows the features
//! from frame to frame.

mod common;

use common::shapes::{random_shapes, vector};
use nphase_parry::Dispatcher;
use parry3d_031::math::{Pose, Vector};
use parry3d_031::query::{
    ClosestPoints, ContactManifold, ContactManifoldsWorkspace, DefaultQueryDispatcher,
    PersistentQueryDispatcher, QueryDispatcher, TypedWorkspaceData,
};
use parry3d_031::shape::{self as ps, SharedShape};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;

type Manifolds = Vec<ContactManifold<(), u64>>;

/// One frame of a pair through `dispatcher`.
fn manifolds(
    dispatcher: &dyn PersistentQueryDispatcher<(), u64>,
    pos12: &Pose,
    g1: &dyn ps::Shape,
    g2: &dyn ps::Shape,
    prediction: f32,
    state: &mut (Manifolds, Option<ContactManifoldsWorkspace>),
) {
    dispatcher
        .contact_manifolds(pos12, g1, g2, prediction, &mut state.0, &mut state.1)
        .expect("both dispatchers take every pair of these shapes");
}

fn random_pose(rng: &mut Pcg64, reach: f32) -> Pose {
    Pose::new(vector(rng, reach), vector(rng, 3.0))
}

/// The support gap of the pair along unit `n` (A's frame, from A toward B): how far B's lowest
/// point along `n` lies beyond A's highest. Every direction's gap is a lower bound on the signed
/// distance, and the signed distance of two convex shapes is the largest of them — so a normal
/// whose gap is the reported distance is a true minimiser, and no other direction's gap may
/// exceed it. Computed with parry's support maps, independently of nphase.
fn support_gap(pos12: &Pose, g1: &dyn ps::Shape, g2: &dyn ps::Shape, n: Vector) -> f32 {
    let (s1, s2) = (
        g1.as_support_map().expect("convex"),
        g2.as_support_map().expect("convex"),
    );
    let top1 = s1.local_support_point(n).dot(n);
    let bottom2 = (pos12 * s2.local_support_point(pos12.rotation.inverse() * -n)).dot(n);
    bottom2 - top1
}

fn extent(shape: &dyn ps::Shape) -> f32 {
    let aabb = shape.compute_local_aabb();
    aabb.mins.abs().max(aabb.maxs.abs()).max_element()
}

/// Random pairs of every convex type (each against a random shape of every type), placed
/// within reach of each other: the deepest manifold point's distance is the support gap along
/// the manifold's normal (a true minimiser), and no smaller than the gap along parry's normal
/// (parry found no better direction); the two agree on which pairs are within the prediction;
/// every point is consistent (`(pos12·p2 − p1)·n1 = dist`); all of it went through nphase.
///
/// Tolerance: `2e-4 × scale` (`scale` = the sum of the shapes' extents), docs/accuracy.md's
/// f32 accuracy (`1e-4 × scale`) with a factor 2 for the gap's own f32 rounding. parry's
/// distance itself is not the oracle: its EPA on curved shapes stops ~1e-3 short. The sample is
/// checked to hold both overlapping and separated pairs (30–70 % with a contact).
#[test]
fn convex_pairs_agree_with_parry() {
    let mut rng = Pcg64::seed_from_u64(41);
    let dispatcher = Dispatcher::default();
    let prediction = 0.05;
    let (mut pairs, mut touching, mut worst) = (0u64, 0u64, 0.0f32);
    for _ in 0..20 {
        let shapes = random_shapes(&mut rng);
        let others = random_shapes(&mut rng);
        for (name1, g1) in &shapes {
            for (name2, g2) in &others {
                let reach = extent(g1.as_ref()) + extent(g2.as_ref());
                let pos12 = random_pose(&mut rng, reach * 0.7);
                let mut state = (Manifolds::new(), None);
                manifolds(
                    &dispatcher,
                    &pos12,
                    g1.as_ref(),
                    g2.as_ref(),
                    prediction,
                    &mut state,
                );
                pairs += 1;
                let expected = DefaultQueryDispatcher
                    .contact(&pos12, g1.as_ref(), g2.as_ref(), prediction)
                    .expect("parry takes convex pairs");
                let manifold = &state.0[0];
                let deepest = manifold.find_deepest_contact();
                let scale = reach;
                let tol = 2e-4 * scale;
                // parry's contact distance is only ~1e-3 accurate on curved shapes.
                let loose = 2e-3 * scale;
                match (deepest, expected) {
                    (Some(p), Some(c)) => {
                        touching += 1;
                        let own = support_gap(&pos12, g1.as_ref(), g2.as_ref(), manifold.local_n1);
                        let parrys = support_gap(&pos12, g1.as_ref(), g2.as_ref(), c.normal1);
                        worst = worst.max((p.dist - own).abs() / scale);
                        assert!(
                            (p.dist - own).abs() <= tol,
                            "{name1}–{name2}: distance {} but gap {own} at {pos12:?}",
                            p.dist
                        );
                        assert!(
                            own >= parrys - tol,
                            "{name1}–{name2}: parry's normal has gap {parrys} > {own} at {pos12:?}"
                        );
                    }
                    (None, None) => {}
                    // One side just inside the prediction, the other just outside.
                    (Some(p), None) => assert!(p.dist >= prediction - loose, "{name1}–{name2}"),
                    (None, Some(c)) => assert!(c.dist >= prediction - loose, "{name1}–{name2}"),
                }
                let n1 = manifold.local_n1;
                assert!((n1.length() - 1.0).abs() < 1e-5 || manifold.points.is_empty());
                for p in &manifold.points {
                    let gap = (pos12 * p.local_p2 - p.local_p1).dot(n1);
                    assert!(
                        (gap - p.dist).abs() <= 1e-4 * scale,
                        "{name1}–{name2}: {gap} vs {}",
                        p.dist
                    );
                    assert!(p.dist <= prediction + 1e-4 * scale);
                }
            }
        }
    }
    let stats = dispatcher.stats();
    assert_eq!(stats.nphase_pairs, pairs);
    assert_eq!((stats.parry_pairs, stats.refused_pairs), (0, 0));
    let share = touching as f64 / pairs as f64;
    assert!(
        (0.3..0.7).contains(&share),
        "{touching} of {pairs} pairs touch"
    );
    eprintln!("{pairs} pairs, {touching} touching, worst minimiser error {worst:e} × scale");
}

/// Half-spaces, meshes and compounds are parry's: the very same manifolds as parry's own
/// dispatcher, counted as parry pairs.
#[test]
fn other_pairs_are_parrys() {
    let ball = ps::Ball::new(0.5);
    let cube = ps::Cuboid::new(Vector::splat(0.5));
    let ground = ps::HalfSpace::new(Vector::Y);
    let mesh = ps::TriMesh::new(
        vec![
            Vector::new(-5.0, 0.0, -5.0),
            Vector::new(5.0, 0.0, -5.0),
            Vector::new(0.0, 0.0, 5.0),
        ],
        vec![[0, 2, 1]],
    )
    .expect("one triangle");
    let compound = ps::Compound::new(vec![
        (Pose::translation(-1.0, 0.0, 0.0), SharedShape::ball(0.5)),
        (
            Pose::translation(1.0, 0.0, 0.0),
            SharedShape::cuboid(0.5, 0.5, 0.5),
        ),
    ]);
    let dispatcher = Dispatcher::default();
    let pos12 = Pose::translation(0.1, 0.45, 0.0);
    let cases: [(&str, &dyn ps::Shape, &dyn ps::Shape); 4] = [
        ("half-space–ball", &ground, &ball),
        ("cube–half-space", &cube, &ground),
        ("trimesh–cube", &mesh, &cube),
        ("compound–ball", &compound, &ball),
    ];
    for (name, g1, g2) in cases {
        let mut ours = (Manifolds::new(), None);
        let mut theirs = (Manifolds::new(), None);
        for _ in 0..3 {
            manifolds(&dispatcher, &pos12, g1, g2, 0.01, &mut ours);
            manifolds(&DefaultQueryDispatcher, &pos12, g1, g2, 0.01, &mut theirs);
        }
        let dists = |m: &Manifolds| -> Vec<Vec<f32>> {
            m.iter()
                .map(|m| m.points.iter().map(|p| p.dist).collect())
                .collect()
        };
        assert_eq!(dists(&ours.0), dists(&theirs.0), "{name}");
        assert!(
            ours.0.iter().any(|m| !m.points.is_empty()),
            "{name}: touching"
        );
    }
    let stats = dispatcher.stats();
    assert_eq!((stats.nphase_pairs, stats.parry_pairs), (0, 12));
}

/// A shape nphase refuses, or a non-finite pose or one beyond the input range, goes to parry by
/// name (counted as refused), never a panic; a later valid frame of the same pair is nphase's
/// again.
#[test]
fn refused_input_goes_to_parry() {
    let dispatcher = Dispatcher::default();
    let cube = ps::Cuboid::new(Vector::splat(0.5));
    // parry's constructors assert; the fields are public.
    let nan_ball = ps::Ball { radius: f32::NAN };
    let mut state = (Manifolds::new(), None);
    let pos12 = Pose::translation(0.0, 0.9, 0.0);
    manifolds(&dispatcher, &pos12, &cube, &nan_ball, 0.0, &mut state);
    assert_eq!(dispatcher.stats().refused_pairs, 1);
    let mut state = (Manifolds::new(), None);
    let bad_pose = Pose::translation(f32::NAN, 0.9, 0.0);
    manifolds(&dispatcher, &bad_pose, &cube, &cube, 0.0, &mut state);
    manifolds(&dispatcher, &pos12, &cube, &cube, f32::NAN, &mut state);
    assert_eq!(dispatcher.stats().refused_pairs, 3);
    // Beyond f32's input range (docs/accuracy.md): a pose 2e8 away, a ball of radius 2e8.
    let far = Pose::translation(0.0, 2e8, 0.0);
    manifolds(&dispatcher, &far, &cube, &cube, 0.0, &mut state);
    let huge_ball = ps::Ball { radius: 2e8 };
    manifolds(
        &dispatcher,
        &pos12,
        &cube,
        &huge_ball,
        0.0,
        &mut (Manifolds::new(), None),
    );
    assert_eq!(dispatcher.stats().refused_pairs, 5);
    manifolds(&dispatcher, &pos12, &cube, &cube, 0.0, &mut state);
    let stats = dispatcher.stats();
    assert_eq!((stats.nphase_pairs, stats.parry_pairs), (1, 5));
    assert_eq!(state.0[0].points.len(), 4, "a cube 0.1 deep on a cube");
}

/// A box resting on a ground box, sliding a little each frame: the ground's points are on its
/// top face (`fid1` a face, or an edge or vertex of it), the box's are its bottom corners
/// (`fid2` vertices), all pairs distinct; the data the engine wrote into each point comes back
/// on the point with the same features; the pair's state sits in parry's workspace.
#[test]
fn point_data_follows_the_features() {
    let dispatcher = Dispatcher::default();
    let ground = ps::Cuboid::new(Vector::new(5.0, 0.5, 5.0));
    let cube = ps::Cuboid::new(Vector::splat(0.5));
    let mut state = (Manifolds::new(), None);
    for frame in 0..10u64 {
        let pos12 = Pose::translation(0.01 * frame as f32, 0.999, 0.0);
        manifolds(&dispatcher, &pos12, &ground, &cube, 0.01, &mut state);
        let manifold = &mut state.0[0];
        assert_eq!(manifold.points.len(), 4);
        for (k, p) in manifold.points.iter().enumerate() {
            assert!(p.fid2.is_vertex(), "{:?}", p.fid2);
            assert!(!p.fid1.is_unknown() && !p.fid1.is_vertex(), "{:?}", p.fid1);
            assert!((p.dist + 0.001).abs() < 1e-5);
            for q in &manifold.points[..k] {
                assert_ne!((p.fid1, p.fid2), (q.fid1, q.fid2));
            }
            if frame > 0 {
                // Written last frame for the point on this corner of the cube.
                assert_eq!(p.data, 1000 + u64::from(p.fid2.0 & 0xff));
            }
        }
        for p in &mut manifold.points {
            p.data = 1000 + u64::from(p.fid2.0 & 0xff);
        }
    }
    let stats = dispatcher.stats();
    assert_eq!((stats.points, stats.carried_points), (40, 36));
    let workspace = state
        .1
        .as_ref()
        .expect("nphase keeps its pair state in the workspace");
    assert!(matches!(
        workspace.0.as_typed_workspace_data(),
        TypedWorkspaceData::Custom
    ));
}

/// A box at rest on a ground box, creeping by 1e-7 a frame (a resting pile's motion, far
/// within nphase's `Still` allowance): from the third frame the pair stands, and parry's
/// manifold keeps its points as they were written (bit for bit) with the engine's data, and
/// B's normal follows the pose. Where the engine changed the points in between — cleared them
/// (frame 8), rewrote a point's distance (frame 12) or moved a point (frame 14) — the standing
/// manifold is written again.
#[test]
fn standing_pairs_keep_the_points_the_engine_holds() {
    let dispatcher = Dispatcher::default();
    let ground = ps::Cuboid::new(Vector::new(5.0, 0.5, 5.0));
    let cube = ps::Cuboid::new(Vector::splat(0.5));
    let mut state = (Manifolds::new(), None);
    let mut standing = Vec::new();
    let key = |p: &parry3d_031::query::TrackedContact<u64>| {
        (p.fid1, p.fid2, p.local_p1, p.local_p2, p.dist)
    };
    for frame in 0..17u64 {
        let creep = 1e-7 * frame as f32;
        let pos12 = Pose::new(
            Vector::new(0.1 + creep, 0.999, 0.0),
            Vector::new(0.0, creep, 0.0),
        );
        manifolds(&dispatcher, &pos12, &ground, &cube, 0.01, &mut state);
        let manifold = &mut state.0[0];
        assert_eq!(manifold.points.len(), 4, "frame {frame}");
        let now: Vec<_> = manifold.points.iter().map(key).collect();
        if frame == 2 {
            standing = now.clone();
        } else if frame > 2 {
            assert_eq!(
                now, standing,
                "frame {frame}: the standing points, as written"
            );
        }
        // The engine's data: carried over on every frame but the one after it cleared them.
        for p in &manifold.points {
            if frame > 0 && frame != 9 {
                assert_eq!(p.data, 1000 + u64::from(p.fid2.0 & 0xff), "frame {frame}");
            }
        }
        let n2 = pos12.rotation.inverse() * -manifold.local_n1;
        assert!(
            (manifold.local_n2 - n2).length() < 1e-6,
            "frame {frame}: B's normal {:?}, not {n2:?}",
            manifold.local_n2
        );
        for p in &mut manifold.points {
            p.data = 1000 + u64::from(p.fid2.0 & 0xff);
        }
        if frame == 8 {
            manifold.points.clear();
        }
        if frame == 12 {
            manifold.points[1].dist += 0.25;
        }
        if frame == 14 {
            manifold.points[2].local_p2.x += 0.25;
        }
    }
}

/// A box resting on a large floor under a solver's jitter (1e-6 m and rad a step), handed to
/// the dispatcher with the floor first and, in another dispatcher, with the box first (the
/// order rapier hands a pair in is its own): nphase takes the box-first pair the other way
/// round (the floor reaches 30 × as far), so both stand alike — on most steps nphase's
/// certified `Still`, where with the small box as nphase's A the floor's far corners swing past
/// the allowance at every step and every step is computed again — and the box-first manifold
/// is the floor-first one mirrored: `(fid1, fid2)`, the local points and the normals swapped,
/// the distances the same (up to the f32 rounding of the pose's inverse), the engine's data
/// carried over by feature as in the other order.
#[test]
fn a_small_shape_on_a_large_one_stands_in_either_order() {
    let (floor_first, box_first) = (Dispatcher::default(), Dispatcher::default());
    let floor = ps::Cuboid::new(Vector::new(20.0, 0.5, 20.0));
    let cube = ps::Cuboid::new(Vector::splat(0.5));
    let (mut direct, mut mirrored) = ((Manifolds::new(), None), (Manifolds::new(), None));
    let steps = 40;
    for step in 0..steps {
        let k = step as f32;
        let jitter = |phase: f32| 1e-6 * (k * 0.7 + phase).sin();
        let pos12 = Pose::new(
            Vector::new(15.0 + jitter(0.0), 0.999 + jitter(1.0), 3.0 + jitter(2.0)),
            Vector::new(jitter(3.0), jitter(4.0), jitter(5.0)),
        );
        manifolds(&floor_first, &pos12, &floor, &cube, 0.01, &mut direct);
        manifolds(
            &box_first,
            &pos12.inverse(),
            &cube,
            &floor,
            0.01,
            &mut mirrored,
        );
        let (d, m) = (&direct.0[0], &mirrored.0[0]);
        assert_eq!(d.points.len(), 4, "step {step}");
        assert_eq!(m.points.len(), d.points.len(), "step {step}");
        assert!((m.local_n1 - d.local_n2).length() < 1e-5, "step {step}");
        assert!((m.local_n2 - d.local_n1).length() < 1e-5, "step {step}");
        for p in &d.points {
            let q = m
                .points
                .iter()
                .find(|q| (q.fid1, q.fid2) == (p.fid2, p.fid1))
                .unwrap_or_else(|| panic!("step {step}: no mirror of {p:?} in {m:?}"));
            assert!((q.local_p1 - p.local_p2).length() < 1e-4, "step {step}");
            assert!((q.local_p2 - p.local_p1).length() < 1e-4, "step {step}");
            assert!((q.dist - p.dist).abs() < 1e-5, "step {step}");
            if step > 0 {
                assert_eq!(q.data, u64::from(q.fid1.0 ^ q.fid2.0), "step {step}");
            }
        }
        for q in &mut mirrored.0[0].points {
            q.data = u64::from(q.fid1.0 ^ q.fid2.0);
        }
    }
    let (d, m) = (floor_first.stats(), box_first.stats());
    assert_eq!(m.nphase_pairs, steps);
    assert!(
        d.still_pairs > steps / 2 && m.still_pairs == d.still_pairs,
        "steps standing: floor first {}, box first {}",
        d.still_pairs,
        m.still_pairs
    );
}

/// One conversion per distinct hull, however many pairs and frames meet it; a shape edited in
/// place (a ball's radius) is converted again.
#[test]
fn hulls_convert_once_and_edits_are_noticed() {
    let dispatcher = Dispatcher::default();
    let points: Vec<Vector> = (0..20)
        .map(|k| {
            let a = k as f32 * 2.4;
            let y = 1.0 - 2.0 * (k as f32 + 0.5) / 20.0;
            let ring = (1.0 - y * y).sqrt();
            Vector::new(ring * a.cos(), y, ring * a.sin()) * 0.5
        })
        .collect();
    let hull = SharedShape::convex_hull(&points).expect("a hull");
    let other = hull.clone();
    let mut ball = ps::Ball::new(0.5);
    let (mut a, mut b, mut c) = (
        (Manifolds::new(), None),
        (Manifolds::new(), None),
        (Manifolds::new(), None),
    );
    for _ in 0..5 {
        let pos12 = Pose::translation(0.0, 0.9, 0.0);
        manifolds(&dispatcher, &pos12, &*hull, &*other, 0.0, &mut a);
        manifolds(&dispatcher, &pos12, &*other, &*hull, 0.0, &mut b);
        manifolds(&dispatcher, &pos12, &*hull, &ball, 0.0, &mut c);
    }
    assert_eq!(dispatcher.stats().cached_hulls, 1);
    let before = c.0[0]
        .find_deepest_contact()
        .map(|p| p.dist)
        .expect("touching");
    ball.radius = 0.6;
    manifolds(
        &dispatcher,
        &Pose::translation(0.0, 0.9, 0.0),
        &*hull,
        &ball,
        0.0,
        &mut c,
    );
    let after = c.0[0]
        .find_deepest_contact()
        .map(|p| p.dist)
        .expect("touching");
    assert!((before - after - 0.1).abs() < 1e-5, "{before} → {after}");
}

/// The one-shot queries on random convex pairs: parry's meanings (frames, signs, distance 0
/// when overlapping), nphase's answers; distances within `2e-3 × scale` of parry's (parry's
/// accuracy on curved shapes, see `convex_pairs_agree_with_parry`).
#[test]
fn one_shot_queries_agree_with_parry() {
    let mut rng = Pcg64::seed_from_u64(43);
    let dispatcher = Dispatcher::default();
    let mut asked = 0;
    for _ in 0..10 {
        let shapes = random_shapes(&mut rng);
        for (name1, g1) in &shapes {
            let (name2, g2) = &shapes[rng.random_range(0..shapes.len())];
            let reach = extent(g1.as_ref()) + extent(g2.as_ref());
            let pos12 = random_pose(&mut rng, reach * 0.8);
            let tol = 2e-3 * reach;
            let (g1, g2) = (g1.as_ref(), g2.as_ref());
            let ours = dispatcher
                .distance(&pos12, g1, g2)
                .expect("convex")
                .distance;
            let theirs = DefaultQueryDispatcher
                .distance(&pos12, g1, g2)
                .expect("convex")
                .distance;
            assert!(
                (ours - theirs).abs() <= tol,
                "{name1}–{name2}: {ours} vs {theirs}"
            );
            let hit = dispatcher
                .intersection_test(&pos12, g1, g2)
                .expect("convex")
                .intersecting;
            if theirs.abs() > tol {
                assert_eq!(hit, theirs == 0.0, "{name1}–{name2}");
            }
            let c = dispatcher.contact(&pos12, g1, g2, 0.1).expect("convex");
            let e = DefaultQueryDispatcher
                .contact(&pos12, g1, g2, 0.1)
                .expect("convex");
            if let (Some(c), Some(e)) = (c, e) {
                assert!((c.dist - e.dist).abs() <= tol, "{name1}–{name2}");
                // The exact check, independent of parry's own (approximate) answer: the gap of
                // the two shapes' supports along the normal is the distance (f32 accuracy,
                // 1e-4 × scale; ×4 for the rounding of parry's support maps).
                let exact = 4e-4 * reach;
                let gap = support_gap(&pos12, g1, g2, c.normal1);
                assert!(
                    (gap - c.dist).abs() <= exact,
                    "{name1}–{name2}: {gap} vs {}",
                    c.dist
                );
                // Each point in its own shape's frame, on its surface along its normal:
                // normal2 is in B's frame, −normal1 seen from B.
                let n2 = pos12.rotation * c.normal2;
                assert!((n2 + c.normal1).length() < 1e-5);
                let (s1, s2) = (
                    g1.as_support_map().expect("convex"),
                    g2.as_support_map().expect("convex"),
                );
                let on1 =
                    s1.local_support_point(c.normal1).dot(c.normal1) - c.point1.dot(c.normal1);
                let on2 =
                    s2.local_support_point(c.normal2).dot(c.normal2) - c.point2.dot(c.normal2);
                assert!(
                    on1.abs() <= exact && on2.abs() <= exact,
                    "{name1}–{name2}: {on1} {on2}"
                );
                assert!(
                    (((pos12 * c.point2) - c.point1).dot(c.normal1) - c.dist).abs() <= exact,
                    "{name1}–{name2}"
                );
            }
            match dispatcher
                .closest_points(&pos12, g1, g2, 0.1)
                .expect("convex")
            {
                ClosestPoints::WithinMargin(p1, p2) => {
                    let gap = (pos12 * p2 - p1).length();
                    assert!(
                        (gap - theirs).abs() <= tol,
                        "{name1}–{name2}: {gap} vs {theirs}"
                    );
                }
                ClosestPoints::Intersecting => assert!(theirs <= tol),
                ClosestPoints::Disjoint => assert!(theirs >= 0.1 - tol),
            }
            asked += 4;
        }
    }
    let stats = dispatcher.stats();
    assert_eq!((stats.nphase_queries, stats.parry_queries), (asked, 0));
}

/// Found by fuzzing the adapter (`fuzz/fuzz_targets/adapter.rs`): a cylinder of radius −0
/// (a segment along y) and a capsule of radius −0 lying along the same line, touching (signed
/// distance 0). When B's offset changed only in the sign of a zero, the pair was recomputed
/// from GJK's warm simplex; its segment's axis normalised to 0.99999994, and EPA's flat start
/// took the rounding residue of B's offset along that axis for the normal: 0.062 deep along
/// the line, reported converged. Each frame must agree with a full recomputation.
#[test]
fn collinear_segments_touching_stay_touching_when_a_zero_changes_sign() {
    let a = SharedShape::new(ps::Cylinder {
        half_height: 0.061_785_888,
        radius: -0.0,
    });
    let b = SharedShape::capsule_y(-0.000_379_150_38, -0.0);
    let dispatcher = Dispatcher::default();
    let mut kept = (Manifolds::new(), None);
    for x in [-0.0, 0.0, -0.0, 0.0] {
        let pose = Pose::from_translation(Vector::new(x, -9.221_802e-5, 0.0));
        manifolds(&dispatcher, &pose, &*a.0, &*b.0, 0.0, &mut kept);
        let mut cold = (Manifolds::new(), None);
        manifolds(&Dispatcher::default(), &pose, &*a.0, &*b.0, 0.0, &mut cold);
        for (what, state) in [("kept", &kept), ("cold", &cold)] {
            let m = &state.0[0];
            assert!(!m.points.is_empty(), "{what}: touching");
            for p in &m.points {
                assert!(p.dist.abs() <= 1e-6, "{what} at x = {x:?}: {m:?}");
            }
            assert!(
                m.local_n1.y.abs() <= 1e-6,
                "{what}: normal along the segments: {m:?}"
            );
        }
    }
}

/// Found by fuzzing the adapter (`fuzz/README.md`, stop 60): a cone 1 mm across and 2.6e-7
/// thick sunk 0.48 mm into the flat hull parry builds of a sliver's points (a triangle 680
/// long), f32. The adapter takes the hull as nphase's A (the larger), and there EPA capped with
/// an estimate 5.1 deep; from the cone's side it converges. A fresh pair (a cold query, as
/// every pair's first frame is) and a kept one answer the oracle's depth, 4.832e-4
/// (`oracle expect` on the scene of these shapes and pose), within the small-on-large
/// tolerance of docs/accuracy.md (`1e-4 × small + 5e-7 × scale`: 1.7e-4).
#[test]
fn a_thin_cone_in_a_flat_hull_answers_from_either_side() {
    let points: Vec<Vector> = [
        [-392.181_4, -392.181_4, -392.181_4],
        [0.009_646_911, 0.004_646_912, 0.009_646_911],
        [0.009_646_911, 0.009_646_911, -48.632_81],
    ]
    .iter()
    .map(|p| Vector::new(p[0], p[1], p[2]))
    .collect();
    let hull = SharedShape::convex_hull(&points).expect("a flat hull");
    let cone = SharedShape::new(ps::Cone {
        half_height: 1.281_738_3e-7,
        radius: 4.967_041e-4,
    });
    let turn = parry3d_031::math::Rotation::from_xyzw(
        0.000_474_431_78,
        0.000_474_431_78,
        0.309_368_97,
        0.950_941_86,
    );
    let pose = Pose::from_parts(Vector::new(0.006_537_78, 0.009_646_923, 6.290_588_4), turn);
    let prediction = 0.009_646_911;
    let truth = -4.832_06e-4;
    let deepest = |ms: &Manifolds| {
        ms.iter()
            .flat_map(|m| m.points.iter().map(|p| p.dist))
            .fold(f32::INFINITY, f32::min)
    };
    let dispatcher = Dispatcher::default();
    let mut kept: (Manifolds, Option<ContactManifoldsWorkspace>) = (Vec::new(), None);
    for frame in 0..3 {
        let mut fresh: (Manifolds, Option<ContactManifoldsWorkspace>) = (Vec::new(), None);
        let d = Dispatcher::default();
        manifolds(&d, &pose, &*cone.0, &*hull.0, prediction, &mut fresh);
        manifolds(
            &dispatcher,
            &pose,
            &*cone.0,
            &*hull.0,
            prediction,
            &mut kept,
        );
        for (what, ms) in [("fresh", &fresh.0), ("kept", &kept.0)] {
            let got = deepest(ms);
            assert!(
                (got - truth).abs() <= 1.7e-4,
                "frame {frame}, {what}: deepest {got} against {truth}: {ms:?}"
            );
        }
    }
}

/// Found by fuzzing the adapter (`fuzz/README.md`, stop 60): a needle cone 19 km long and 6 mm
/// wide through the middle of a 2 cm cone, f32. In the small cone's frame the needle's
/// coordinates round by ~1e-3, GJK stalled and its estimate said 19.3 apart (a `Fallback`,
/// bracket [−0.10, 19.3]); from the needle's frame the query ends 4.0e-3 deep on its iteration
/// cap with a bracket of 4.8e-3 (f64: 4.036e-3 deep, converged). `distance` is 0 where
/// `intersection_test` says they intersect (parry's answer too), and the contact is the
/// overlap, within the small-on-large tolerance (`1e-4 × small + 5e-7 × scale`: 4.9e-3).
#[test]
fn a_needle_cone_through_a_small_one_is_not_reported_apart() {
    let small = SharedShape::new(ps::Cone {
        half_height: 0.098_733_52,
        radius: 0.009_725_037,
    });
    let needle = SharedShape::new(ps::Cone {
        half_height: 9_646.912,
        radius: 0.003_215_637,
    });
    let turn = parry3d_031::math::Rotation::from_xyzw(
        0.000_166_640_11,
        0.577_516_9,
        0.577_350_26,
        0.577_183_6,
    );
    let pose = Pose::from_parts(Vector::new(0.002_983_093_3, 0.005_772_582_7, 0.0), turn);
    let dispatcher = Dispatcher::default();
    let hit = dispatcher
        .intersection_test(&pose, &*small.0, &*needle.0)
        .expect("answered");
    let d = dispatcher
        .distance(&pose, &*small.0, &*needle.0)
        .expect("answered");
    assert!(hit.intersecting && d.distance == 0.0, "{hit:?}, {d:?}");
    let c = dispatcher
        .contact(&pose, &*small.0, &*needle.0, 1.0)
        .expect("answered")
        .expect("within the prediction");
    assert!((c.dist + 4.036e-3).abs() <= 4.9e-3, "{c:?}");
}
