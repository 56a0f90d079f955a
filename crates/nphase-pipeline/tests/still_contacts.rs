//! The `Still` shortcut in f32, the precision engines run in, as a resting pile meets it: every
//! pair of shape kinds (the zoo) placed touching or up to 3 % of a unit deep, then 30 frames in
//! which B creeps by a random step of up to 1e-6 units and turns by up to 1e-6 rad (the
//! size of a resting rapier pile's per-step motion, docs/engines.md), 10 in which it walks by
//! 1e-5 units and turns by 1e-5 rad a frame in one direction (a `δ` or two a frame: the
//! shortcut stands for a few frames, up to its allowance and then, verified at each pose, up
//! to `8 δ`, and a full computation follows), and 10 in which it drifts by 8e-5 units a frame
//! (more than `8 δ`: full computations).
//! Each frame the shortcut answers is checked against a cold, full query of the same pose that
//! converged, with docs/accuracy.md's f32 tolerance (`tol = 1e-4 × scale`) as `reuse.rs` uses it:
//! the deepest point never deeper than the exact contact by more than `2 tol`, nor shallower than
//! it by more than the manifold's depth margin (`2 × DEPTH_HYSTERESIS × scale`: the points are
//! history's) and `2 tol`; the lower bound reported at most the cold distance (up to `tol`);
//! the kept normal a minimiser (its support gap within `3 tol` of the cold distance: both
//! answers' own errors and the tolerance). And sharper, the bound the shortcut is derived
//! to keep (`pair.rs`): in f64, on the same pose, the kept normal's support gap within
//! `8 δ` of the exact distance (`δ = accuracy × small`, up to the f32 rounding of the shapes
//! and the normal), and the deepest point no deeper than the exact distance by more than `8 δ`
//! either; every standing point's distance the separation of its two ends along the kept
//! normal at this pose (up to rounding: the distances follow the pose). The largest gap seen
//! is 5.2 δ off and the deepest point 5.1 δ deeper than the exact distance (each case prints
//! its largest with `--nocapture`; 3.8 δ and 2.6 δ at stop 50, before the fresher upper bound
//! of stop 51; 1.8 δ off before the verified stretch past the allowance).
//! A guard checks that the shortcut answered most creeping frames, some walking frames and
//! none of the drifting ones, and that a full computation answered some walking frames.

mod common;

use common::{
    close_gap, half_diagonal, hull64_in, random_pair, random_rotation, random_unit, rng, scale,
    support_gap, zoo, zoo_in,
};
use nphase_gjk::SimplexCache;
use nphase_math::nalgebra::UnitQuaternion;
use nphase_math::{Isometry, Real, Vector};
use nphase_pipeline::{
    ContactManifold, ContactQuality, DEPTH_HYSTERESIS, PairInput, PairState, PairWorkspace, Reuse,
    query_pair, update_manifold,
};
use nphase_shapes::{Cuboid, Shape};
use proptest::prelude::*;
use rand::Rng;
use rand_pcg::Pcg64;

const PREDICTION: f32 = 0.02;
const FRAMES: usize = 50;
/// The frames B creeps on, then walks on; it drifts on the others.
const CREEPING: usize = 30;
const WALKING: usize = 10;

/// Frames answered by `Still` and by a full computation, over a case.
#[derive(Debug, Default)]
struct Counts {
    still: usize,
    computed: usize,
    /// `Still` answers on walking frames, and full computations there.
    still_walking: usize,
    computed_walking: usize,
    /// `Still` answers on drifting frames (none may be).
    still_drifting: usize,
    /// `Still` frames whose cold query did not converge (not checked).
    cold_estimates: usize,
    /// The largest kept normal's gap off the exact distance, and the largest excess of the
    /// deepest point's depth over the exact one, in `δ` (printed, for the module doc).
    worst_gap: f64,
    worst_deepest: f64,
}

fn check_case(seed: u64) -> Result<Counts, TestCaseError> {
    let (zoo64, zoo32) = (zoo(), zoo_in::<f32>());
    let mut rng = rng(seed);
    let mut counts = Counts::default();
    for i in 0..zoo64.len() {
        for j in 0..zoo64.len() {
            let target = rng.random_range(-0.03..0.0);
            let (a64, b64) = random_pair(&zoo64, (i, j), 0, target, rng.random_bool(0.5), &mut rng);
            let pair = Pair {
                name: format!("{} on {}", zoo32[i].0, zoo32[j].0),
                shapes64: (&a64.shape, &b64.shape),
                shapes: (&zoo32[i].1, &zoo32[j].1),
                pos12: a64.pose.inv_mul(&b64.pose).cast::<f32>(),
                // The f32 rounding of the shapes (their parameters rounded) and of the normal
                // (a unit vector to ε) in the sharp check.
                rounding: 16.0 * f64::from(f32::EPSILON) * scale(&a64.shape, &b64.shape),
            };
            check_frames(&pair, &mut rng, &mut counts)?;
        }
    }
    Ok(counts)
}

/// A pair as [`check_frames`] plays it: its shapes in f64 (the sharp check's reference) and
/// in f32, B's pose in A's frame at the start, and the rounding the sharp check allows.
struct Pair<'a> {
    name: String,
    shapes64: (&'a Shape<f64>, &'a Shape<f64>),
    shapes: (&'a Shape<f32>, &'a Shape<f32>),
    pos12: Isometry<f32>,
    rounding: f64,
}

/// The module doc's frames of one pair (creeping, walking, drifting), every `Still` answer
/// checked against cold queries; the paths taken are added to `counts`.
fn check_frames(
    pair: &Pair<'_>,
    rng: &mut Pcg64,
    counts: &mut Counts,
) -> Result<(), TestCaseError> {
    let ((a64, b64), (a, b), rounding) = (pair.shapes64, pair.shapes, pair.rounding);
    let mut workspace = PairWorkspace::new();
    let mut workspace64 = PairWorkspace::new();
    // docs/accuracy.md's f32 tolerance, on the f64 shapes' scale (the same sizes).
    let tol = 1e-4 * scale(a64, b64) as f32;
    let margin = DEPTH_HYSTERESIS as f32 * 2.0 * scale(a64, b64) as f32;
    // The allowance's unit `δ`.
    let delta = f64::from(f32::TOLERANCES.accuracy) * half_diagonal(a64).min(half_diagonal(b64));
    let mut pos12 = pair.pos12;
    let (mut state, mut manifold) = (PairState::new(), ContactManifold::default());
    let drift = random_unit(rng).cast::<f32>();
    let axis = random_unit(rng).cast::<f32>();
    for frame in 0..FRAMES {
        // Creeping; walking by a `δ` or two a frame; then drifting by 8e-5 a frame
        // (more than the farthest a standing manifold is verified, `8 δ` with `δ` at
        // most 1e-5 × 0.87 here: each of these frames is a full computation).
        let (step, turn) = if frame < CREEPING {
            (
                random_unit(rng).cast::<f32>() * rng.random_range(0.0..1e-6f32),
                random_unit(rng).cast::<f32>() * rng.random_range(0.0..1e-6f32),
            )
        } else if frame < CREEPING + WALKING {
            (drift * 1e-5, axis * 1e-5)
        } else {
            (drift * 8e-5, Vector::zeros())
        };
        pos12.translation.vector += step;
        pos12.rotation = UnitQuaternion::from_scaled_axis(turn) * pos12.rotation;
        let input = PairInput {
            shape1: a,
            shape2: b,
            pos12,
            prediction: PREDICTION,
        };
        let outcome = update_manifold(&input, &mut state, &mut manifold, &mut workspace);
        let walking = (CREEPING..CREEPING + WALKING).contains(&frame);
        match outcome.reuse {
            Reuse::Computed if walking => counts.computed_walking += 1,
            Reuse::Computed => counts.computed += 1,
            Reuse::Still if walking => counts.still_walking += 1,
            Reuse::Still if frame >= CREEPING => counts.still_drifting += 1,
            Reuse::Still => counts.still += 1,
            _ => continue,
        }
        if outcome.reuse != Reuse::Still {
            continue;
        }
        let cold = query_pair(
            a,
            b,
            &pos12,
            PREDICTION,
            &mut SimplexCache::EMPTY.clone(),
            &mut workspace,
        );
        let name = format!("{}, frame {frame}", pair.name);
        let Some(deepest) = manifold.deepest() else {
            return Err(TestCaseError::fail(format!("{name}: still, no points")));
        };
        // A cold query that did not converge is no reference (f32 EPA on two cones can
        // end on its cap with an estimate 1.4e-4 off).
        if cold.quality != ContactQuality::Converged {
            counts.cold_estimates += 1;
            continue;
        }
        let Some(c) = cold.contact else {
            prop_assert!(
                cold.lower_bound <= PREDICTION + tol,
                "{}: still {:?}, cold apart by {}",
                name,
                manifold,
                cold.lower_bound
            );
            continue;
        };
        prop_assert!(
            deepest.dist >= c.dist - 2.0 * tol && deepest.dist <= c.dist + margin + 2.0 * tol,
            "{}: deepest {} vs cold {}",
            name,
            deepest.dist,
            c.dist
        );
        prop_assert!(
            outcome.lower_bound <= c.dist + tol,
            "{}: lower bound {} vs cold {}",
            name,
            outcome.lower_bound,
            c.dist
        );
        let along = support_gap(a, b, &pos12, &manifold.local_normal1.into_inner());
        prop_assert!(
            (along - c.dist).abs() <= 3.0 * tol,
            "{}: the kept normal's gap {} vs cold {}",
            name,
            along,
            c.dist
        );
        // The sharp check, in f64 on the same pose: the exact distance is the cold
        // f64 query's within its bracket.
        let pos64 = pos12.cast::<f64>();
        let cold64 = query_pair(
            a64,
            b64,
            &pos64,
            f64::from(PREDICTION),
            &mut SimplexCache::EMPTY.clone(),
            &mut workspace64,
        );
        let Some(c64) = cold64
            .contact
            .filter(|_| cold64.quality == ContactQuality::Converged)
        else {
            continue;
        };
        let n64 = manifold.local_normal1.into_inner().cast::<f64>();
        let along64 = support_gap(a64, b64, &pos64, &n64);
        let off = (along64 - c64.dist).abs() - (c64.upper_bound - c64.lower_bound);
        counts.worst_gap = counts.worst_gap.max(off / delta);
        let excess = c64.lower_bound - f64::from(deepest.dist);
        counts.worst_deepest = counts.worst_deepest.max(excess / delta);
        prop_assert!(
            off <= 8.0 * delta + rounding,
            "{}: the kept normal's gap is {:e} = {:.2} δ off the exact distance",
            name,
            off,
            off / delta
        );
        prop_assert!(
            f64::from(deepest.dist) >= c64.lower_bound - 8.0 * delta - rounding,
            "{}: deepest {} vs exact {}",
            name,
            deepest.dist,
            c64.dist
        );
        let n = manifold.local_normal1.into_inner();
        for p in &manifold.points {
            let along = (pos12 * p.local_point2 - p.local_point1).dot(&n);
            prop_assert!(
                (p.dist - along).abs() <= 1e-6 * scale(a64, b64) as f32,
                "{}: a standing point at {} where its ends are {} apart",
                name,
                p.dist,
                along
            );
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(common::fixed_config(4, 0x7374_696c_6c00))]

    #[test]
    fn still_contacts_agree_with_cold_queries_in_f32(seed in any::<u64>()) {
        let counts = check_case(seed)?;
        eprintln!("{counts:?}");
        // Most creeping frames stand, walking ones both stand and are computed, and every
        // drifting frame is a full computation.
        let pairs = zoo().len() * zoo().len();
        prop_assert!(
            counts.still * 4 > CREEPING * pairs * 3
                && counts.still_walking * 10 > WALKING * pairs
                && counts.computed_walking * 10 > WALKING * pairs
                && counts.still_drifting == 0
                && counts.computed >= (FRAMES - CREEPING - WALKING) * pairs
                && counts.cold_estimates * 20 < counts.still,
            "{:?}",
            counts
        );
    }
}

/// B resting on A, up to 0.03 deep, face to face or turned at random, from `start` (B's
/// origin, A's frame) brought down onto A, played through [`check_frames`] as `name`; the sharp
/// check's rounding is f32's relative to `size`.
fn check_resting(
    name: String,
    (a64, b64): (&Shape<f64>, &Shape<f64>),
    (a, b): (&Shape<f32>, &Shape<f32>),
    (start, size): (Vector<f64>, f64),
    rng: &mut Pcg64,
    counts: &mut Counts,
) -> Result<(), String> {
    let turn = if rng.random_bool(0.5) {
        UnitQuaternion::from_scaled_axis(random_unit(rng) * 0.005)
    } else {
        random_rotation(rng)
    };
    let start = Isometry::from_parts(start.into(), turn);
    let target = rng.random_range(-0.03..0.0);
    let pose = close_gap(a64, &Isometry::identity(), b64, start, target);
    let pair = Pair {
        name,
        shapes64: (a64, b64),
        shapes: (a, b),
        pos12: pose.cast::<f32>(),
        rounding: 16.0 * f64::from(f32::EPSILON) * size,
    };
    check_frames(&pair, rng, counts).map_err(|e| e.to_string())
}

/// The guard of a test's pairs (`pairs` of them, their paths in `counts`, printed): most
/// creeping frames stood, more than one in `share` of the walking ones, no drifting one.
fn assert_stood(counts: &Counts, pairs: usize, share: usize) {
    eprintln!("{counts:?}");
    assert!(
        counts.still_walking * share > WALKING * pairs
            && counts.still * 4 > CREEPING * pairs * 3
            && counts.still_drifting == 0,
        "{pairs} pairs: {counts:?}"
    );
}

/// The same frames on a floor as A, in f32: a 40 × 1 × 40 box, every zoo shape as B resting
/// on it up to 0.03 deep, up to 15 from its centre (the floor's support corner 28 from its
/// origin, B's origin up to 21), face to face or turned at random; every `Still` answer
/// checked as above, the sharp check's rounding B's alone (the floor is exact in f32, and the
/// reference is the same pose). Past the allowance, the verified check rounds each dot product
/// relative to its own terms, so the floor's far corner and B's distance from the floor's
/// origin cost it little: most walking frames stand. (Rounded relative to the points'
/// distances from the floor's origin, as up to stop 53, no walking frame stood.)
#[test]
fn shapes_on_a_large_floor_verify_in_f32() -> Result<(), String> {
    let floor64 = Shape::Cuboid(Cuboid::new(Vector::new(20.0, 0.5, 20.0)).expect("valid"));
    let floor = Shape::Cuboid(Cuboid::new(Vector::new(20.0f32, 0.5, 20.0)).expect("valid"));
    let (zoo64, zoo32) = (zoo(), zoo_in::<f32>());
    let mut rng = rng(0x0066_6c6f_6f72);
    let mut counts = Counts::default();
    let mut pairs = 0;
    for _ in 0..3 {
        for j in 0..zoo64.len() {
            let b64 = &zoo64[j].1;
            let (x, z) = (rng.random_range(-15.0..15.0), rng.random_range(-15.0..15.0));
            check_resting(
                format!("{} on the floor at ({x:.1}, {z:.1})", zoo32[j].0),
                (&floor64, b64),
                (&floor, &zoo32[j].1),
                (Vector::new(x, 3.0, z), half_diagonal(b64)),
                &mut rng,
                &mut counts,
            )?;
            pairs += 1;
        }
    }
    assert_stood(&counts, pairs, 2);
    Ok(())
}

/// The same frames with a hull of 64 vertices on either side (on itself, on a box and on the
/// zoo's 20-point hull, and under them), in f32, every `Still` answer checked as above. Past
/// the allowance a verified `Still` reads such a hull's support point by a climb from a vertex
/// of its supporting feature at the last full computation (`hull_start` in `pair.rs`; a hull
/// of fewer than 32 vertices, the zoo's, is scanned whatever the start). That the climb finds
/// the support point from any vertex, and that the start is a vertex of the feature, are the
/// shapes crate's tests (`climbing_leaves_rounding_plateaus_along_face_normals`,
/// `feature_vertices_lie_on_their_features`); these frames are the pipeline's side of it.
#[test]
fn hulls_of_64_vertices_verify_from_their_features_in_f32() -> Result<(), String> {
    let mut rng = rng(0x6875_6c6c_3634);
    let (hull64, hull) = (hull64_in::<f64>(), hull64_in::<f32>());
    let (zoo64, zoo32) = (zoo(), zoo_in::<f32>());
    let mut shapes: Vec<(&str, &Shape<f64>, &Shape<f32>)> = vec![("hull64", &hull64, &hull)];
    for name in ["cuboid", "convex"] {
        let k = zoo64
            .iter()
            .position(|(n, _)| *n == name)
            .expect("in the zoo");
        shapes.push((name, &zoo64[k].1, &zoo32[k].1));
    }
    let mut counts = Counts::default();
    let mut pairs = 0;
    // (A, B): the hull on itself, and on and under each other shape, four poses each.
    for (i, j) in [(0, 0), (1, 0), (0, 1), (2, 0), (0, 2)] {
        let ((name_a, a64, a), (name_b, b64, b)) = (shapes[i], shapes[j]);
        for _ in 0..4 {
            check_resting(
                format!("{name_b} on {name_a}"),
                (a64, b64),
                (a, b),
                (Vector::new(0.05, 2.0, -0.05), scale(a64, b64)),
                &mut rng,
                &mut counts,
            )?;
            pairs += 1;
        }
    }
    assert_stood(&counts, pairs, 10);
    Ok(())
}

/// A standing manifold's distances follow the pose, and come back with it: a unit box 1e-3
/// deep on a 4 × 1 × 4 box (f64, `δ` about 9e-11), computed at `P₁` (twice, so that it
/// stands), then B rises by 1e-10 along the normal (`Still`: every distance 1e-10 larger), then
/// returns to `P₁` bit for bit (`Unchanged`: the distances are `P₁`'s again, to rounding — not
/// the risen ones). An `Unchanged` pose right after the computation keeps its distances bit for
/// bit.
#[test]
fn distances_follow_the_pose_and_come_back_with_it() {
    let (mut state, mut manifold) = (PairState::new(), ContactManifold::default());
    let mut step = cube_on(Vector::new(2.0, 0.5, 2.0), &mut state);
    let distances = |m: &ContactManifold<f64>| m.points.iter().map(|p| p.dist).collect::<Vec<_>>();
    assert_eq!(step(at(0.1, 0.999), &mut manifold), Reuse::Computed);
    let p1 = at(0.1001, 0.999);
    assert_eq!(step(p1, &mut manifold), Reuse::Computed);
    let computed = distances(&manifold);
    assert_eq!(computed.len(), 4);
    assert_eq!(step(p1, &mut manifold), Reuse::Unchanged);
    assert_eq!(
        distances(&manifold),
        computed,
        "unchanged right after: bit for bit"
    );
    assert_eq!(step(at(0.1001, 0.999 + 1e-10), &mut manifold), Reuse::Still);
    for (d, c) in distances(&manifold).iter().zip(&computed) {
        assert!((d - c - 1e-10).abs() < 1e-14, "risen: {d} from {c}");
    }
    assert_eq!(step(p1, &mut manifold), Reuse::Unchanged);
    for (d, c) in distances(&manifold).iter().zip(&computed) {
        assert!((d - c).abs() < 1e-14, "back: {d}, computed there {c}");
    }
}

/// Past the allowance, a standing manifold stands where its normal's support gap, measured at
/// the pose, verifies it: a unit box 1e-3 deep on a 4 × 1 × 4 box (f64, `δ` = 1e-10 × 0.866,
/// answers exact to rounding: an allowance of `3 δ`). Sliding 5 `δ` along the faces keeps the
/// gap (`U + m − g` = 5 `δ`): `Still`, every distance as it was. Sinking 5 `δ` moves the gap
/// by as much (`U + m − g` = 10 `δ`), but the box's lowest corner lies inside the ground, as
/// deep as the gap says: `Still`, every distance 5 `δ` less. On a beam narrower than the box
/// (half-width 0.2: every corner of the box overhangs it, and the beam's top corners are far
/// outside the box) nothing is inside the other shape and the same sinking is computed.
/// Sliding 9 `δ`, past `8 δ`: computed. Each from a fresh computation at the start pose.
#[test]
fn a_standing_manifold_past_its_allowance_stands_where_its_gap_verifies_it() {
    let delta = 1e-10 * 0.75f64.sqrt();
    let p1 = at(0.1001, 0.999);
    let (ground, beam) = (Vector::new(2.0, 0.5, 2.0), Vector::new(0.2, 0.5, 2.0));
    for (on, to, expected, by) in [
        (ground, at(0.1001 + 5.0 * delta, 0.999), Reuse::Still, 0.0),
        (
            ground,
            at(0.1001, 0.999 - 5.0 * delta),
            Reuse::Still,
            -5.0 * delta,
        ),
        (beam, at(0.1001, 0.999 - 5.0 * delta), Reuse::Computed, 0.0),
        (
            ground,
            at(0.1001 + 9.0 * delta, 0.999),
            Reuse::Computed,
            0.0,
        ),
    ] {
        let (mut state, mut manifold) = (PairState::new(), ContactManifold::default());
        let mut step = cube_on(on, &mut state);
        assert_eq!(step(at(0.1, 0.999), &mut manifold), Reuse::Computed);
        assert_eq!(step(p1, &mut manifold), Reuse::Computed);
        assert!(!manifold.points.is_empty());
        let computed: Vec<_> = manifold.points.iter().map(|p| p.dist).collect();
        assert_eq!(step(to, &mut manifold), expected, "on {on:?} to {to:?}");
        if expected == Reuse::Still {
            for (p, c) in manifold.points.iter().zip(&computed) {
                assert!((p.dist - c - by).abs() < 1e-14, "{} from {c}", p.dist);
            }
        }
    }
}

/// A unit box's pose on the ground of [`cube_on`]: at `(x, y, 0.2)`, turned by 0.3 rad
/// about y (`y = 0.999`: 1e-3 deep).
/// The same on hulls of 64 vertices, whose depth inside the other shape is not read (it is a
/// scan of their triangles, `pair.rs`): one resting 1e-3 deep on another (f64, answers exact to
/// rounding: an allowance of `3 δ`). Where sliding 5 `δ` across the normal stands (it keeps
/// the gap; 13 of the 16 poses), sinking 5 `δ` along it lowers the gap by as much (`U + m − g`
/// = 10 `δ`), and nothing stands in for the upper bound: computed. The check reads the hulls'
/// support points by a climb from their supporting features; a point short of either hull's
/// support along the normal (tried: the feature's start vertex itself, or any vertex, on A or
/// on B) raises the gap and lets the sinking stand, and this test fails.
#[test]
fn hulls_sinking_past_the_allowance_are_computed_again() {
    let hull = hull64_in::<f64>();
    let mut workspace = PairWorkspace::new();
    let mut rng = rng(0x7369_6e6b);
    let mut checked = 0;
    for _ in 0..16 {
        let turn = random_rotation(&mut rng);
        let start = Isometry::from_parts(Vector::new(0.03, 2.0, -0.02).into(), turn);
        let rest = close_gap(&hull, &Isometry::identity(), &hull, start, -1e-3);
        let (mut state, mut manifold) = (PairState::new(), ContactManifold::default());
        let mut step = |pos12: Isometry<f64>, state: &mut PairState<f64>, manifold: &mut _| {
            let input = PairInput {
                shape1: &hull,
                shape2: &hull,
                pos12,
                prediction: 0.02,
            };
            update_manifold(&input, state, manifold, &mut workspace).reuse
        };
        let mut near = rest;
        near.translation.vector.x += 1e-4;
        assert_eq!(step(near, &mut state, &mut manifold), Reuse::Computed);
        assert_eq!(step(rest, &mut state, &mut manifold), Reuse::Computed);
        let last = state.last.expect("a computation");
        // Only a manifold that stands (the same ids twice) is looked at past its allowance.
        if !last.stands || last.still_eighths != 24 {
            continue;
        }
        let delta = last.still_within;
        let n = manifold.local_normal1.into_inner();
        let across = n.cross(&Vector::x()).normalize();
        let mut moved_by = |shift: Vector<f64>| {
            let (mut state, mut manifold) = (state.clone(), manifold.clone());
            let mut moved = rest;
            moved.translation.vector += shift * delta;
            step(moved, &mut state, &mut manifold)
        };
        // Where sliding stands (a manifold whose deepest point the last computation left
        // shallower than the distance, within its depth hysteresis, is computed again either
        // way), sinking as far is computed.
        if moved_by(across * 5.0) == Reuse::Still {
            assert_eq!(moved_by(-n * 5.0), Reuse::Computed, "sinking from {rest:?}");
            checked += 1;
        }
    }
    assert!(checked >= 4, "{checked} of 16 poses stood sliding");
}

fn at(x: f64, y: f64) -> Isometry<f64> {
    Isometry::from_parts(
        Vector::new(x, y, 0.2).into(),
        UnitQuaternion::from_scaled_axis(Vector::new(0.0, 0.3, 0.0)),
    )
}

/// One frame of a unit box (B) on a box (A) of half extents `ground` at a pose, f64, prediction
/// 0.02, with `state` and the manifold handed in: the path the frame took.
fn cube_on(
    ground: Vector<f64>,
    state: &mut PairState<f64>,
) -> impl FnMut(Isometry<f64>, &mut ContactManifold<f64>) -> Reuse + '_ {
    use nphase_shapes::{Cuboid, Shape};
    let ground = Shape::Cuboid(Cuboid::new(ground).expect("valid"));
    let cube = Shape::Cuboid(Cuboid::new(Vector::new(0.5, 0.5, 0.5)).expect("valid"));
    let mut workspace = PairWorkspace::new();
    move |pos12, manifold| {
        let input = PairInput {
            shape1: &ground,
            shape2: &cube,
            pos12,
            prediction: 0.02,
        };
        update_manifold(&input, state, manifold, &mut workspace).reuse
    }
}
