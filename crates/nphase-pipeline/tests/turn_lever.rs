//! The motion bound of the certified shortcuts measured in B's frame (pair.rs, "Certified
//! reuse"): every zoo shape as A over or on a ground box 40 × 1 × 40 as B (the order an
//! engine gets when the ground was made after the bodies), within 3 of the ground's origin, B
//! fixed and A turning about its own centre. In A's frame the ground's far corners swing
//! through the turn times 28; in B's frame A's points move by the turn times A's size. In
//! f32, the precision engines run in:
//!
//! * hovering 0.05 above the ground (prediction 0.02), turning by up to 1e-3 rad and moving by
//!   up to 1e-4 a frame: `Apart` answers most frames (measured in A's frame, none would), and
//!   never one where a cold query finds a contact;
//! * resting 1 % of A's size deep and creeping (1e-6 and 1e-6 rad a frame, rapier's resting
//!   motion), then drifting by 4e-5 a frame: `Still`, measured in A's frame alone, answers
//!   only where B's far corners moved within its allowance there — checked against a cold
//!   query of the same pose as `still_contacts.rs` does, and in f64 the kept normal's support
//!   gap within the derivation's `8 δ` of the exact distance (up to the f32 rounding of a
//!   normal on a shape 28 across). Measured in B's frame, it answered here with the normal's
//!   gap 14 δ off: a turn of A tilts the ground's face under the kept normal.

mod common;

use common::{half_diagonal, random_unit, rng, support_gap, zoo, zoo_in};
use nphase_gjk::SimplexCache;
use nphase_math::nalgebra::{Translation3, UnitQuaternion};
use nphase_math::{Isometry, Real, Vector};
use nphase_pipeline::{
    ContactManifold, ContactQuality, DEPTH_HYSTERESIS, PairInput, PairState, PairWorkspace, Reuse,
    query_pair, update_manifold,
};
use nphase_shapes::{Cuboid, Shape, SupportMap};
use rand::Rng;
use rand_pcg::Pcg64;

const PREDICTION: f32 = 0.02;
const CREEPING: usize = 30;
const FRAMES: usize = 40;

/// The ground, B: its top face at y = 0.5.
fn ground<T: Real>() -> Shape<T> {
    let l = T::lit;
    Shape::Cuboid(Cuboid::new(Vector::new(l(20.0), l(0.5), l(20.0))).expect("valid"))
}

/// A's world pose: turned at random, its lowest point `height` above the ground's top, within
/// 3 of the ground's origin along x and z.
fn place(a: &Shape<f64>, height: f64, rng: &mut Pcg64) -> Isometry<f64> {
    let rotation = UnitQuaternion::from_scaled_axis(random_unit(rng) * rng.random_range(0.0..3.0));
    let down = rotation.inverse_transform_vector(&-Vector::y());
    let lowest = (rotation * a.local_support_point(&down)).y;
    let c = Vector::new(
        rng.random_range(-3.0..3.0),
        0.5 + height - lowest,
        rng.random_range(-3.0..3.0),
    );
    Isometry::from_parts(Translation3::from(c), rotation)
}

/// Moves A's world pose by `step` and turns it by `turn` about its centre; returns B's pose in
/// A's frame, in f32.
fn advance(pose: &mut Isometry<f64>, step: Vector<f64>, turn: Vector<f64>) -> Isometry<f32> {
    *pose = Isometry::from_parts(
        Translation3::from(pose.translation.vector + step),
        UnitQuaternion::from_scaled_axis(turn) * pose.rotation,
    );
    pose.inverse().cast::<f32>()
}

/// Counts over all shapes.
#[derive(Debug, Default)]
struct Counts {
    still: usize,
    still_drifting: usize,
    creeping: usize,
    apart: usize,
    hovering: usize,
}

#[test]
fn small_shapes_over_a_ground_made_after_them_stay_apart_and_stand_only_where_certified() {
    let (zoo64, zoo32) = (zoo(), zoo_in::<f32>());
    let (b64, b32) = (ground::<f64>(), ground::<f32>());
    let mut rng = rng(0x006c_6576_6572);
    let (mut workspace, mut workspace64) = (PairWorkspace::new(), PairWorkspace::new());
    let mut counts = Counts::default();
    for ((name, a64), (_, a32)) in zoo64.iter().zip(&zoo32) {
        let size = half_diagonal(a64);
        let delta = f64::from(f32::TOLERANCES.accuracy) * size.min(half_diagonal(&b64));
        let scale = half_diagonal(&b64);
        let tol = 1e-4 * scale as f32;
        let margin = DEPTH_HYSTERESIS as f32 * 2.0 * scale as f32;
        // A unit normal in f32 is off by ε in direction: across the ground that is ε × 28.
        let rounding = 8.0 * f64::from(f32::EPSILON) * scale;
        let update = |pos12, state: &mut _, manifold: &mut _, workspace: &mut _| {
            let input = PairInput {
                shape1: a32,
                shape2: &b32,
                pos12,
                prediction: PREDICTION,
            };
            update_manifold(&input, state, manifold, workspace)
        };
        let cold = |pos12: &Isometry<f32>, workspace: &mut _| {
            query_pair(
                a32,
                &b32,
                pos12,
                PREDICTION,
                &mut SimplexCache::EMPTY.clone(),
                workspace,
            )
        };
        // Resting, then drifting.
        let mut pose = place(a64, -0.01 * size, &mut rng);
        let (mut state, mut manifold) = (PairState::new(), ContactManifold::default());
        let drift = random_unit(&mut rng) * 4e-5;
        for frame in 0..FRAMES {
            let (step, turn) = if frame < CREEPING {
                (
                    random_unit(&mut rng) * rng.random_range(0.0..1e-6),
                    random_unit(&mut rng) * rng.random_range(0.0..1e-6),
                )
            } else {
                (drift, Vector::zeros())
            };
            let pos12 = advance(&mut pose, step, turn);
            let outcome = update(pos12, &mut state, &mut manifold, &mut workspace);
            counts.creeping += usize::from(frame < CREEPING);
            if outcome.reuse != Reuse::Still {
                continue;
            }
            if frame >= CREEPING {
                counts.still_drifting += 1;
            } else {
                counts.still += 1;
            }
            let cold = cold(&pos12, &mut workspace);
            let (Some(c), Some(deepest)) = (cold.contact, manifold.deepest()) else {
                panic!("{name}, frame {frame}: still {manifold:?}, cold {cold:?}");
            };
            assert!(
                deepest.dist >= c.dist - 2.0 * tol && deepest.dist <= c.dist + margin + 2.0 * tol,
                "{name}, frame {frame}: deepest {} vs cold {}",
                deepest.dist,
                c.dist
            );
            assert!(outcome.lower_bound <= c.dist + tol, "{name}, frame {frame}");
            let pos64 = pos12.cast::<f64>();
            let cold64 = query_pair(
                a64,
                &b64,
                &pos64,
                f64::from(PREDICTION),
                &mut SimplexCache::EMPTY.clone(),
                &mut workspace64,
            );
            let c64 = cold64.contact.expect("a contact in f64 too");
            assert_eq!(cold64.quality, ContactQuality::Converged, "{name}");
            let n64 = manifold.local_normal1.into_inner().cast::<f64>();
            let off = (support_gap(a64, &b64, &pos64, &n64) - c64.dist).abs()
                - (c64.upper_bound - c64.lower_bound);
            assert!(
                off <= 8.0 * delta + rounding,
                "{name}, frame {frame}: the kept normal's gap is {off:e} = {:.2} δ off",
                off / delta
            );
        }
        // Hovering, turning and moving faster: apart every frame.
        let mut pose = place(a64, 0.05, &mut rng);
        let (mut state, mut manifold) = (PairState::new(), ContactManifold::default());
        for frame in 0..FRAMES {
            let step = random_unit(&mut rng) * rng.random_range(0.0..1e-4);
            let turn = random_unit(&mut rng) * rng.random_range(0.0..1e-3);
            let pos12 = advance(&mut pose, step, turn);
            let outcome = update(pos12, &mut state, &mut manifold, &mut workspace);
            counts.hovering += 1;
            if outcome.reuse != Reuse::Apart {
                continue;
            }
            counts.apart += 1;
            let cold = cold(&pos12, &mut workspace);
            assert!(
                cold.contact.is_none() && manifold.points.is_empty(),
                "{name}, frame {frame}: apart, cold {cold:?}"
            );
        }
    }
    // The first frame of a hovering phase is a full computation.
    assert!(
        counts.still_drifting == 0 && counts.apart * 10 > counts.hovering * 9,
        "{counts:?}"
    );
}
