//! The `serde` feature: shapes, manifolds and pair states survive a round trip through JSON,
//! and a pair restored from a saved state goes on exactly as the one that was never saved
//! (same manifolds, ids and impulses, bit for bit), EPA's kept polytope included; a kept
//! polytope that is not a closed surface is refused. The separating-axis certificate is not
//! saved (it is not re-checked when used): a restored hull pair runs its next test in full,
//! which certifies the same winner, and goes on the same.

use nphase::math::Point;
use nphase::math::{Isometry, Vector};
use nphase::pipeline::{ContactManifold, PairInput, PairState, PairWorkspace, update_manifold};
use nphase::shapes::{Cuboid, Cylinder, Shape};

fn step(
    shapes: &(Shape<f64>, Shape<f64>),
    frame: u32,
    state: &mut PairState<f64>,
    manifold: &mut ContactManifold<f64>,
) {
    let t = f64::from(frame);
    let input = PairInput {
        shape1: &shapes.0,
        shape2: &shapes.1,
        pos12: Isometry::new(
            Vector::new(0.01 * t, 0.998, 0.0),
            Vector::new(0.0, 0.02 * t, 0.001 * t),
        ),
        prediction: 0.02,
    };
    update_manifold(&input, state, manifold, &mut PairWorkspace::new());
    for p in &mut manifold.points {
        p.normal_impulse = t + 1.0;
        p.tangent_impulse = [0.5 * t, -t];
    }
}

/// A hull of 32 points on a sphere of radius 0.5 (a golden-angle spiral) and its two poles.
fn hull() -> Shape<f64> {
    let mut points: Vec<Point<f64>> = (0..32)
        .map(|k| {
            let y = 1.0 - 2.0 * (f64::from(k) + 0.5) / 32.0;
            let r = (1.0 - y * y).sqrt();
            let a = 2.399_963 * f64::from(k);
            Point::new(0.5 * r * a.cos(), 0.5 * y, 0.5 * r * a.sin())
        })
        .collect();
    points.extend([Point::new(0.0, 0.5, 0.0), Point::new(0.0, -0.5, 0.0)]);
    Shape::convex(&points).expect("valid hull")
}

#[test]
fn a_restored_pair_goes_on_as_if_never_saved() {
    for shapes in [
        (
            Shape::Cuboid(Cuboid::new(Vector::new(2.0, 0.5, 2.0)).expect("valid")),
            Shape::Cuboid(Cuboid::new(Vector::new(0.5, 0.5, 0.5)).expect("valid")),
        ),
        (
            Shape::Cuboid(Cuboid::new(Vector::new(2.0, 0.5, 2.0)).expect("valid")),
            Shape::Cylinder(Cylinder::new(0.5, 0.4).expect("valid")),
        ),
        (
            Shape::Cuboid(Cuboid::new(Vector::new(2.0, 0.5, 2.0)).expect("valid")),
            hull(),
        ),
    ] {
        let text = serde_json::to_string(&shapes).expect("shapes serialize");
        let restored_shapes: (Shape<f64>, Shape<f64>) =
            serde_json::from_str(&text).expect("shapes deserialize");
        assert_eq!(restored_shapes, shapes);

        let (mut state, mut manifold) = (PairState::new(), ContactManifold::default());
        for frame in 0..5 {
            step(&shapes, frame, &mut state, &mut manifold);
        }
        assert!(!manifold.points.is_empty());
        // The cylinder stands 2 mm deep in the box: its state keeps EPA's polytope, which must
        // survive the trip too (a state without it would start EPA cold and differ in the last
        // bits).
        assert_eq!(
            state.epa.is_some(),
            matches!(shapes.1, Shape::Cylinder(_)),
            "kept polytope"
        );
        // The hull rests 2 mm deep on the box: a polytope pair, which keeps a certificate.
        assert_eq!(
            state.sat_certificate.is_some(),
            matches!(shapes.1, Shape::Convex(_)),
            "certificate"
        );
        let saved = serde_json::to_string(&(&state, manifold.clone())).expect("state serializes");
        let (mut state2, mut manifold2): (PairState<f64>, ContactManifold<f64>) =
            serde_json::from_str(&saved).expect("state deserializes");
        assert!(
            state2.sat_certificate.is_none(),
            "the certificate is not saved"
        );
        let unsaved = PairState {
            sat_certificate: None,
            epa: state.epa.clone(),
            ..state
        };
        assert_eq!((&state2, &manifold2), (&unsaved, &manifold));
        for frame in 5..10 {
            step(&shapes, frame, &mut state, &mut manifold);
            step(&restored_shapes, frame, &mut state2, &mut manifold2);
            assert_eq!(manifold2, manifold, "frame {frame}");
        }
    }
}

#[test]
fn a_kept_polytope_that_is_not_closed_is_refused() {
    let shapes = (
        Shape::Cuboid(Cuboid::new(Vector::new(2.0, 0.5, 2.0)).expect("valid")),
        Shape::Cylinder(Cylinder::new(0.5, 0.4).expect("valid")),
    );
    let (mut state, mut manifold) = (PairState::new(), ContactManifold::default());
    step(&shapes, 0, &mut state, &mut manifold);
    let text = serde_json::to_string(&state).expect("state serializes");
    let value: serde_json::Value = serde_json::from_str(&text).expect("json");
    // Point the first face's first neighbour at a face that does not exist.
    let mut broken = value.clone();
    broken["epa"]["faces"][0]["adj"][0] = serde_json::json!(250);
    let error = serde_json::from_value::<PairState<f64>>(broken).expect_err("refused");
    assert!(error.to_string().contains("closed"), "{error}");
    assert!(serde_json::from_value::<PairState<f64>>(value).is_ok());
}

/// A pair state saved before the manifold's history had turn budgets (no `turn_budgets`
/// field) still reads, with no budget (every feature searched for again), and goes on to the
/// same manifolds as the state it was saved from.
#[test]
fn a_state_without_turn_budgets_reads_with_none() {
    let shapes = (
        Shape::Cuboid(Cuboid::new(Vector::new(2.0, 0.5, 2.0)).expect("valid")),
        hull(),
    );
    let (mut state, mut manifold) = (PairState::new(), ContactManifold::default());
    for frame in 0..3 {
        step(&shapes, frame, &mut state, &mut manifold);
    }
    assert_ne!(state.history.turn_budgets, [0, 0], "a budget to lose");
    let mut value = serde_json::to_value(&state).expect("state serializes");
    let history = value["history"].as_object_mut().expect("an object");
    assert!(history.remove("turn_budgets").is_some(), "{history:?}");
    let mut old: PairState<f64> = serde_json::from_value(value).expect("state deserializes");
    assert_eq!(old.history.turn_budgets, [0, 0]);
    let mut old_manifold = manifold.clone();
    for frame in 3..8 {
        step(&shapes, frame, &mut state, &mut manifold);
        step(&shapes, frame, &mut old, &mut old_manifold);
        assert_eq!(old_manifold, manifold, "frame {frame}");
    }
}

/// A pair state saved before the `Still` shortcut (no `still_within`, `stands`,
/// `still_eighths` or `distances_moved` in its last computation) still reads, with none (the
/// allowance measured again, in the eighths of `δ` it was saved with, and the manifold not
/// standing until the next full computations), and goes on to the same manifolds as the state
/// it was saved from once those have run.
#[test]
fn a_state_without_the_still_allowance_reads_without_it() {
    let shapes = (
        Shape::Cuboid(Cuboid::new(Vector::new(2.0, 0.5, 2.0)).expect("valid")),
        Shape::Cuboid(Cuboid::new(Vector::new(0.5, 0.5, 0.5)).expect("valid")),
    );
    let (mut state, mut manifold) = (PairState::new(), ContactManifold::default());
    for frame in 0..3 {
        step(&shapes, frame, &mut state, &mut manifold);
    }
    let last = state.last.expect("computed");
    assert!(last.still_within > 0.0 && last.stands, "{last:?}");
    let mut value = serde_json::to_value(&state).expect("state serializes");
    let fields = value["last"].as_object_mut().expect("an object");
    for field in ["still_within", "stands", "still_eighths", "distances_moved"] {
        assert!(fields.remove(field).is_some(), "{field}");
    }
    let mut old: PairState<f64> = serde_json::from_value(value).expect("state deserializes");
    let old_last = old.last.expect("kept");
    assert!(
        old_last.still_within == 0.0
            && !old_last.stands
            && old_last.still_eighths == 8
            && !old_last.distances_moved,
        "{old_last:?}"
    );
    let mut old_manifold = manifold.clone();
    for frame in 3..8 {
        step(&shapes, frame, &mut state, &mut manifold);
        step(&shapes, frame, &mut old, &mut old_manifold);
        assert_eq!(old_manifold, manifold, "frame {frame}");
    }
    assert_eq!(old.last, state.last);
}
