//! The turn budgets of the manifold's supporting features (`manifold.rs`, `supporting_feature`)
//! against the search they stand in for.
//!
//! A hull's face found by a search is kept, without searching, while the search direction has
//! turned less than the face's certified allowance since. Coherent sequences of hull pairs
//! (64-point and 12-point hulls, against each other, a box and a triangle; both orders), placed
//! near contact — face against face or at random — run through the per-pair unit in three
//! motions: *moving* (B drifts 1e-3 and turns 1e-3 rad a frame), *jitter* (B shaken by up to
//! 1e-5 and 1e-5 rad a frame, as a resting body under a solver) and *tumbling* (0.05 rad a
//! frame). Every frame runs twice from the same state: as it is, and with the budgets zeroed
//! (every feature searched for). The two manifolds must be the same bit for bit — points, ids,
//! distances, normal, tangent — and so must the features and reference side the next frame
//! leans toward; f32 and f64. Halfway through, B jumps to A's other side and the manifold is
//! emptied with the state kept, its normal set to the new one (a caller's reset: A's turn
//! measured from it would be none); the budgets must not be fooled. A guard checks that budgets were there to use on at least 40 % of the
//! computed frames (about 60 % in this run), so the test cannot pass by never keeping a face.

mod common;

use common::{random_rotation, random_unit, rng};
use nphase_math::nalgebra::{Quaternion, Translation3, UnitQuaternion};
use nphase_math::{Isometry, Point, Real, Vector};
use nphase_pipeline::{
    ContactManifold, FeatureId, PairInput, PairState, PairWorkspace, Reuse, update_manifold,
};
use nphase_shapes::{Cuboid, Shape, Triangle};
use rand::Rng;
use rand_pcg::Pcg64;

const PREDICTION: f64 = 0.02;
const FRAMES: usize = 40;

/// The shapes, as coordinates (so that both precisions get the same ones).
enum Kind {
    Hull(Vec<[f64; 3]>),
    Cuboid([f64; 3]),
    Triangle([[f64; 3]; 3]),
}

fn kinds(rng: &mut Pcg64) -> Vec<Kind> {
    let mut sphere = |n: usize, r: f64| -> Vec<[f64; 3]> {
        (0..n)
            .map(|_| (random_unit(rng).component_mul(&Vector::new(r, 0.8 * r, 1.1 * r))).into())
            .collect()
    };
    vec![
        Kind::Hull(sphere(64, 0.5)),
        Kind::Hull(sphere(12, 0.4)),
        Kind::Cuboid([0.5, 0.3, 0.4]),
        Kind::Triangle([[-0.6, 0.0, -0.4], [0.6, 0.05, -0.3], [0.0, -0.02, 0.7]]),
    ]
}

fn shape<T: Real>(kind: &Kind) -> Shape<T> {
    let v = |p: &[f64; 3]| Vector::new(T::lit(p[0]), T::lit(p[1]), T::lit(p[2]));
    match kind {
        Kind::Hull(points) => {
            let points: Vec<Point<T>> = points.iter().map(|p| Point::from(v(p))).collect();
            Shape::convex(&points).expect("valid hull")
        }
        Kind::Cuboid(h) => Shape::Cuboid(Cuboid::new(v(h)).expect("valid box")),
        Kind::Triangle([a, b, c]) => Shape::Triangle(
            Triangle::new(v(a).into(), v(b).into(), v(c).into()).expect("valid triangle"),
        ),
    }
}

fn pose<T: Real>(p: &Isometry<f64>) -> Isometry<T> {
    let t = p.translation.vector.map(T::lit);
    let q = p.rotation.coords.map(T::lit);
    Isometry::from_parts(
        Translation3::from(t),
        UnitQuaternion::new_normalize(Quaternion::from(q)),
    )
}

/// How often each path answered, over a run.
#[derive(Debug, Default)]
struct Counts {
    /// Frames computed in full (not reused) with a contact.
    computed: usize,
    /// Of those, frames that entered with a usable budget on a side whose feature is a face.
    budgeted: usize,
}

/// One pair in `motion` (0 moving, 1 jitter, 2 tumbling): every frame as it is and with the
/// budgets zeroed, compared.
fn check_sequence<T: Real>(
    a: &Shape<T>,
    b: &Shape<T>,
    start: Isometry<f64>,
    motion: u8,
    rng: &mut Pcg64,
    counts: &mut Counts,
) {
    let (mut state, mut manifold) = (PairState::<T>::new(), ContactManifold::default());
    let mut workspace = PairWorkspace::new();
    let axis = random_unit(rng);
    let drift = random_unit(rng) * 1e-3;
    let mut pos12 = start;
    for frame in 0..FRAMES {
        common::move_one_frame(&mut pos12, motion, (axis, drift), |p| {
            p.translation.vector += random_unit(rng) * rng.random_range(0.0..1e-5);
            let turn = random_unit(rng) * rng.random_range(0.0..1e-5);
            p.rotation = UnitQuaternion::from_scaled_axis(turn) * p.rotation;
        });
        if frame == FRAMES / 2 {
            // A caller that empties the manifold and keeps the state, with a normal that is
            // not last frame's — this frame's, B having jumped to A's other side: measured from
            // it, A's turn would look like none. Budgets must not be measured from it.
            pos12.translation.vector = -pos12.translation.vector;
            let mut probe = (state.clone(), manifold.clone());
            probe.0.history.turn_budgets = [0, 0];
            let input = PairInput {
                shape1: a,
                shape2: b,
                pos12: pose::<T>(&pos12),
                prediction: T::lit(PREDICTION),
            };
            update_manifold(&input, &mut probe.0, &mut probe.1, &mut workspace);
            manifold = ContactManifold {
                local_normal1: probe.1.local_normal1,
                ..ContactManifold::default()
            };
        }
        let input = PairInput {
            shape1: a,
            shape2: b,
            pos12: pose::<T>(&pos12),
            prediction: T::lit(PREDICTION),
        };
        let entering = state.history;
        let (mut searched_state, mut searched) = (state.clone(), manifold.clone());
        searched_state.history.turn_budgets = [0, 0];
        let outcome = update_manifold(&input, &mut state, &mut manifold, &mut workspace);
        update_manifold(&input, &mut searched_state, &mut searched, &mut workspace);
        assert_eq!(
            manifold, searched,
            "frame {frame}, motion {motion}: kept faces changed the manifold"
        );
        assert_eq!(
            (state.history.features, state.history.reference),
            (
                searched_state.history.features,
                searched_state.history.reference
            ),
            "frame {frame}, motion {motion}: kept faces changed the decisions"
        );
        if outcome.reuse == Reuse::Computed && outcome.contact.is_some() {
            counts.computed += 1;
            let faces = entering.features.map_or([false; 2], |(f1, f2)| {
                [f1, f2].map(|f| matches!(f, FeatureId::Face(_)))
            });
            let usable = entering.turn_budgets.map(|b| b > 1);
            counts.budgeted += usize::from((faces[0] && usable[0]) || (faces[1] && usable[1]));
        }
    }
}

fn check_all<T: Real>(seed: u64) -> Counts {
    let mut rng = rng(seed);
    let kinds = kinds(&mut rng);
    let mut counts = Counts::default();
    for kind_a in &kinds {
        for kind_b in &kinds {
            if ![kind_a, kind_b].iter().any(|k| matches!(k, Kind::Hull(_))) {
                continue;
            }
            let (a64, b64) = (shape::<f64>(kind_a), shape::<f64>(kind_b));
            let (a, b) = (shape::<T>(kind_a), shape::<T>(kind_b));
            for case in 0..6 {
                let target = rng.random_range(-0.05..0.015);
                let aligned = case % 2 == 0;
                let rot_b = if aligned {
                    UnitQuaternion::from_scaled_axis(random_unit(&mut rng) * 0.01)
                } else {
                    random_rotation(&mut rng)
                };
                let dir = if aligned {
                    (Vector::y() + random_unit(&mut rng) * 0.05).normalize()
                } else {
                    random_unit(&mut rng)
                };
                let start =
                    common::place_near(&a64, &Isometry::identity(), &b64, rot_b, target, dir);
                check_sequence(&a, &b, start, (case % 3) as u8, &mut rng, &mut counts);
            }
        }
    }
    assert!(counts.computed > 600, "{counts:?}");
    assert!(
        counts.budgeted * 5 > counts.computed * 2,
        "kept faces too rare to test: {counts:?}"
    );
    counts
}

#[test]
fn kept_faces_give_the_searched_manifold_f64() {
    check_all::<f64>(81);
}

#[test]
fn kept_faces_give_the_searched_manifold_f32() {
    check_all::<f32>(82);
}
