//! `NarrowPhase` with a small shape listed before a large one: the pair is computed with the
//! large one as A (`mirrored_pair.rs`) and handed back mirrored.
//!
//! A unit box rests 1 mm deep on a 40-wide floor, 15 from its centre, under jitter of position
//! and turn (1e-6 in f32, a tenth of the accuracy in either precision): one pipeline lists the
//! floor first, the other the box first. Every step the box-first manifold must be the
//! floor-first one mirrored point by point (ids flipped, local points exchanged, distances
//! equal, the world normal and first tangent reversed, the second tangent the same), the
//! engine's impulses written into either must come back next step by id, and the box-first
//! pair must stand (`Still`) as often as the floor-first one.
//! Without the mirroring, in f32, the box-first pair never stands: the box's jitter swings
//! the floor's far corners past the allowance in the box's frame.

use nphase_math::nalgebra::{Translation3, UnitQuaternion};
use nphase_math::{Isometry, Real, Vector};
use nphase_pipeline::{Collider, ContactManifold, NarrowPhase, NarrowPhaseConfig};
use nphase_shapes::{Cuboid, Shape};

/// The impulses an engine would write at a point: distinct per id and step.
fn impulses<T: Real>(id: u64, step: usize) -> (T, [T; 2]) {
    let k = (id % 97) as f64 + step as f64;
    (T::lit(k), [T::lit(0.5 * k + 1.0), T::lit(-0.25 * k - 2.0)])
}

fn either_order<T: Real>() {
    let floor = Shape::Cuboid(
        Cuboid::new(Vector::new(T::lit(20.0), T::lit(0.5), T::lit(20.0))).expect("valid"),
    );
    let cube = Shape::Cuboid(Cuboid::new(Vector::repeat(T::lit(0.5))).expect("valid"));
    let config = NarrowPhaseConfig {
        prediction: T::lit(0.01),
        threads: 1,
        chunk_size: 64,
    };
    let mut pipelines = [0, 1].map(|_| NarrowPhase::new(config).expect("valid configuration"));
    let steps = 40u64;
    let mut standing = [0, 0];
    for step in 0..steps as usize {
        // A tenth of the precision's accuracy: 1e-6 in f32.
        let amplitude = 0.1 * T::TOLERANCES.accuracy.as_f64();
        let jitter = |phase: f64| T::lit(amplitude * (step as f64 * 0.7 + phase).sin());
        let cube_pose = Isometry::from_parts(
            Translation3::new(
                T::lit(15.0) + jitter(0.0),
                T::lit(0.999) + jitter(1.0),
                T::lit(3.0) + jitter(2.0),
            ),
            UnitQuaternion::from_scaled_axis(Vector::new(jitter(3.0), jitter(4.0), jitter(5.0))),
        );
        let floor_pose = Isometry::identity();
        let collider = |id: u64, shape: &Shape<T>, pose| Collider {
            id,
            shape: shape.clone(),
            pose,
        };
        let orders = [
            [
                collider(0, &floor, floor_pose),
                collider(1, &cube, cube_pose),
            ],
            [
                collider(0, &cube, cube_pose),
                collider(1, &floor, floor_pose),
            ],
        ];
        for (k, (pipeline, colliders)) in pipelines.iter_mut().zip(&orders).enumerate() {
            pipeline.update(colliders, &[(0, 1)]).expect("valid input");
            standing[k] += pipeline.stats().reused_still;
        }
        let [direct, mirrored] = [0, 1].map(|k| pipelines[k].manifolds()[0].clone());
        check_mirror(&direct, &mirrored, (&floor_pose, &cube_pose), step);
        // The engine writes its impulses; next step they come back by id.
        for pipeline in &mut pipelines {
            for p in &mut pipeline.manifolds_mut()[0].points {
                (p.normal_impulse, p.tangent_impulse) = impulses(p.id.pack(), step);
            }
        }
    }
    assert!(
        standing[0] > steps / 2 && standing[1] == standing[0],
        "steps standing: floor first {}, box first {}",
        standing[0],
        standing[1]
    );
}

/// `mirrored` (box first) is `direct` (floor first) seen from the box; at `step > 0` every
/// point of each carries the impulses written into it at the step before.
fn check_mirror<T: Real>(
    direct: &ContactManifold<T>,
    mirrored: &ContactManifold<T>,
    (floor_pose, cube_pose): (&Isometry<T>, &Isometry<T>),
    step: usize,
) {
    let tol = if size_of::<T>() == 4 { 1e-4 } else { 1e-12 };
    let close = |u: &Vector<T>, v: &Vector<T>| (u - v).norm().as_f64() <= tol;
    assert_eq!(direct.points.len(), 4, "step {step}");
    assert_eq!(mirrored.points.len(), 4, "step {step}");
    let world = |pose: &Isometry<T>, v: &Vector<T>| pose.rotation * v;
    let (n, t1) = (
        world(floor_pose, &direct.local_normal1),
        world(floor_pose, &direct.local_tangent1),
    );
    let (m, m1) = (
        world(cube_pose, &mirrored.local_normal1),
        world(cube_pose, &mirrored.local_tangent1),
    );
    assert!(
        close(&m, &-n) && close(&m1, &-t1),
        "step {step}: {n:?} {t1:?} / {m:?} {m1:?}"
    );
    // The second tangents, `n × t₁`, are the same world direction.
    assert!(close(&m.cross(&m1), &n.cross(&t1)), "step {step}");
    for p in &direct.points {
        let q = mirrored
            .points
            .iter()
            .find(|q| q.id == p.id.flipped())
            .unwrap_or_else(|| panic!("step {step}: no mirror of {p:?} in {mirrored:?}"));
        assert!(
            close(&q.local_point1.coords, &p.local_point2.coords),
            "step {step}"
        );
        assert!(
            close(&q.local_point2.coords, &p.local_point1.coords),
            "step {step}"
        );
        assert!(
            (q.dist.as_f64() - p.dist.as_f64()).abs() <= tol,
            "step {step}"
        );
        assert_eq!(q.persisted, p.persisted, "step {step}");
    }
    if step > 0 {
        for p in direct.points.iter().chain(&mirrored.points) {
            assert!(p.persisted, "step {step}: {p:?}");
            let (normal, tangent) = impulses::<T>(p.id.pack(), step - 1);
            assert_eq!(
                (p.normal_impulse, p.tangent_impulse),
                (normal, tangent),
                "step {step}"
            );
        }
    }
}

#[test]
fn a_small_shape_on_a_large_one_stands_in_either_order() {
    either_order::<f32>();
    either_order::<f64>();
}

/// Small shapes resting on a floor listed after them, through `NarrowPhase` and, beside it,
/// through `update_manifold` with the public mirroring helpers (`carry_engine_data`,
/// `write_mirrored`) and a state and kept manifold per pair: every frame, bit for bit, while
/// the pairs are reordered, one is dropped and listed again (a fresh start), the engine
/// writes impulses and empties one manifold (a reset), and the shapes creep (within the
/// allowance) or move (past it).
#[test]
fn mirrored_pairs_follow_reorders_drops_and_resets_as_the_unit() {
    use nphase_pipeline::{
        PairInput, PairState, PairWorkspace, carry_engine_data, computes_other_way_round,
        update_manifold, write_mirrored,
    };
    use nphase_shapes::{Ball, Cylinder};
    let floor = Shape::Cuboid(Cuboid::new(Vector::new(20.0, 0.5, 20.0)).expect("valid"));
    let shapes = [
        Shape::Cuboid(Cuboid::new(Vector::new(0.5, 0.3, 0.4)).expect("valid")),
        Shape::Ball(Ball::new(0.4).expect("valid")),
        Shape::Cylinder(Cylinder::new(0.35, 0.4).expect("valid")),
        Shape::Cuboid(Cuboid::new(Vector::repeat(0.5)).expect("valid")),
    ];
    // Resting 1 mm deep: each shape's lowest point at y = 0.499.
    let heights = [0.3, 0.4, 0.35, 0.5].map(|h| 0.499 + h);
    let pipeline_config = NarrowPhaseConfig {
        prediction: 0.01,
        threads: 1,
        chunk_size: 2,
    };
    let mut pipeline = NarrowPhase::new(pipeline_config).expect("valid configuration");
    let floor_index = shapes.len();
    type Unit = (PairState<f64>, ContactManifold<f64>, ContactManifold<f64>);
    let mut units: Vec<Option<Unit>> = vec![None; shapes.len()];
    let mut ws = PairWorkspace::new();
    let (mut standing, mut computed) = (0, 0);
    for frame in 0..24usize {
        // Creep (1e-12) on most frames, a move past the allowance (1e-6) on every fourth.
        let step = if frame % 4 == 3 { 1e-6 } else { 1e-12 };
        let mut colliders: Vec<Collider<f64>> = shapes
            .iter()
            .zip(heights)
            .enumerate()
            .map(|(k, (shape, y))| {
                let wobble = step * ((frame * 7 + k * 3) as f64).sin();
                Collider {
                    id: k as u64,
                    shape: shape.clone(),
                    pose: Isometry::from_parts(
                        Translation3::new(3.0 * k as f64 - 4.0 + wobble, y + wobble, 2.0),
                        UnitQuaternion::from_scaled_axis(Vector::new(wobble, -wobble, wobble)),
                    ),
                }
            })
            .collect();
        colliders.push(Collider {
            id: 100,
            shape: floor.clone(),
            pose: Isometry::identity(),
        });
        let mut listed: Vec<usize> = (0..shapes.len()).collect();
        if frame % 5 == 2 {
            listed.reverse();
        }
        if (7..9).contains(&frame) {
            listed.retain(|&k| k != 2);
            units[2] = None;
        }
        let pairs: Vec<(usize, usize)> = listed.iter().map(|&k| (k, floor_index)).collect();
        let manifolds = pipeline
            .update(&colliders, &pairs)
            .expect("valid input")
            .to_vec();
        let stats = pipeline.stats();
        standing += stats.reused_still;
        computed += stats.pairs - stats.reused_still - stats.reused_unchanged - stats.reused_apart;
        for (&k, manifold) in listed.iter().zip(&manifolds) {
            let (a, b) = (&colliders[k], &colliders[floor_index]);
            assert!(computes_other_way_round(&a.shape, &b.shape));
            let (state, kept, caller) = units[k].get_or_insert_with(|| {
                (
                    PairState::new(),
                    ContactManifold::default(),
                    ContactManifold::default(),
                )
            });
            carry_engine_data(caller, kept);
            let input = PairInput {
                shape1: &b.shape,
                shape2: &a.shape,
                pos12: b.pose.inv_mul(&a.pose),
                prediction: 0.01,
            };
            update_manifold(&input, state, kept, &mut ws);
            write_mirrored(kept, &input.pos12.rotation, caller);
            assert_eq!(manifold, caller, "frame {frame}, shape {k}");
        }
        // The engine writes impulses into both, and on frame 12 empties shape 0's manifold.
        for (&k, manifold) in listed.iter().zip(pipeline.manifolds_mut()) {
            let caller = &mut units[k].as_mut().expect("updated").2;
            for m in [manifold, caller] {
                if frame == 12 && k == 0 {
                    m.points.clear();
                }
                m.twist_impulse = frame as f64;
                for p in &mut m.points {
                    (p.normal_impulse, p.tangent_impulse) = impulses(p.id.pack(), frame);
                }
            }
        }
    }
    // Both paths taken: manifolds that stood, and full computations past the allowance.
    assert!(
        standing > 30 && computed > 20,
        "{standing} standing, {computed} computed"
    );
}
