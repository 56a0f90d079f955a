//! Shared helpers of the pipeline's integration tests: a zoo with every type of shape, seeded
//! random poses, pairs placed near contact, and the tolerances of docs/accuracy.md.

#![allow(dead_code)] // each test file uses a subset of the helpers

use nphase_math::nalgebra::{Translation3, UnitQuaternion};
use nphase_math::{Isometry, Point, Real, Vector};
use nphase_pipeline::query::contact;
use nphase_pipeline::{
    Collider, ContactPoint, ManifoldInput, ManifoldWorkspace, SupportHints, build_manifold,
};
use nphase_shapes::{Ball, Capsule, Cone, Cuboid, Cylinder, Segment, Shape, Triangle};
use rand::Rng;
use rand_pcg::Pcg64;

pub type V = Vector<f64>;
pub type Iso = Isometry<f64>;

pub fn rng(seed: u64) -> Pcg64 {
    use rand::SeedableRng;
    Pcg64::seed_from_u64(seed)
}

pub fn cuboid(x: f64, y: f64, z: f64) -> Shape<f64> {
    Shape::Cuboid(Cuboid::new(V::new(x, y, z)).expect("valid cuboid"))
}

/// One shape of every type (and rounded variants of a polytope and a curved shape), named.
pub fn zoo() -> Vec<(&'static str, Shape<f64>)> {
    zoo_in::<f64>()
}

/// [`zoo`] in precision `T` (the same parameters, rounded to `T`).
pub fn zoo_in<T: Real>() -> Vec<(&'static str, Shape<T>)> {
    let l = T::lit;
    let p = |x: f64, y: f64, z: f64| Point::new(l(x), l(y), l(z));
    let cuboid =
        |x, y, z| Shape::Cuboid(Cuboid::new(Vector::new(l(x), l(y), l(z))).expect("valid"));
    let hull_points: Vec<Point<T>> = {
        // A fixed irregular hull: 20 points on a squashed sphere.
        let mut r = rng(99);
        (0..20)
            .map(|_| {
                let d = random_unit(&mut r).component_mul(&V::new(0.5, 0.35, 0.45));
                p(d.x, d.y, d.z)
            })
            .collect()
    };
    vec![
        ("ball", Shape::Ball(Ball::new(l(0.4)).expect("valid"))),
        ("cuboid", cuboid(0.5, 0.3, 0.4)),
        (
            "capsule",
            Shape::Capsule(Capsule::new(l(0.4), l(0.2)).expect("valid")),
        ),
        (
            "cylinder",
            Shape::Cylinder(Cylinder::new(l(0.35), l(0.4)).expect("valid")),
        ),
        (
            "cone",
            Shape::Cone(Cone::new(l(0.4), l(0.35)).expect("valid")),
        ),
        (
            "segment",
            Shape::Segment(Segment::new(p(-0.5, 0.0, 0.1), p(0.4, 0.1, -0.2)).expect("valid")),
        ),
        (
            "triangle",
            Shape::Triangle(
                Triangle::new(
                    p(-0.45, 0.0, -0.3),
                    p(0.45, 0.05, -0.25),
                    p(0.0, -0.05, 0.45),
                )
                .expect("valid"),
            ),
        ),
        ("convex", Shape::convex(&hull_points).expect("valid hull")),
        (
            "round_cuboid",
            Shape::round(cuboid(0.3, 0.25, 0.35), l(0.08)).expect("valid"),
        ),
        (
            "round_cylinder",
            Shape::round(
                Shape::Cylinder(Cylinder::new(l(0.3), l(0.3)).expect("valid")),
                l(0.06),
            )
            .expect("valid"),
        ),
    ]
}

/// Whether the shape's core is a cylinder or a cone (docs/accuracy.md's looser tolerance).
pub fn is_curved(shape: &Shape<f64>) -> bool {
    match shape {
        Shape::Cylinder(_) | Shape::Cone(_) => true,
        Shape::Round(r) => is_curved(r.inner()),
        _ => false,
    }
}

/// docs/accuracy.md's `scale`: the larger half-diagonal of the two shapes' local bounding boxes.
pub fn scale(a: &Shape<f64>, b: &Shape<f64>) -> f64 {
    half_diagonal(a).max(half_diagonal(b))
}

/// The half-diagonal of a shape's local bounding box (docs/accuracy.md's size of a shape;
/// `small` is the smaller one of a pair).
pub fn half_diagonal(s: &Shape<f64>) -> f64 {
    let bb = s.local_aabb();
    ((bb.maxs - bb.mins) * 0.5).norm()
}

/// docs/accuracy.md's f64 accuracy relative to `scale`: 1e-9, or 1e-7 where a cylinder or cone takes
/// part.
pub fn rel_tol(a: &Shape<f64>, b: &Shape<f64>) -> f64 {
    if is_curved(a) || is_curved(b) {
        1e-7
    } else {
        1e-9
    }
}

pub fn random_unit(rng: &mut Pcg64) -> V {
    loop {
        let v = V::from_fn(|_, _| rng.random_range(-1.0..1.0));
        let n = v.norm();
        if n > 0.1 && n <= 1.0 {
            return v / n;
        }
    }
}

pub fn random_rotation(rng: &mut Pcg64) -> UnitQuaternion<f64> {
    UnitQuaternion::from_scaled_axis(random_unit(rng) * rng.random_range(0.0..std::f64::consts::PI))
}

/// A hull of 64 points on a sphere of radius 0.45 (seeded), in precision `T` (the f64 points
/// rounded): every vertex a hull vertex, enough of them that support searches climb.
pub fn hull64_in<T: Real>() -> Shape<T> {
    let mut r = rng(64);
    let sphere: Vec<Point<T>> = (0..64)
        .map(|_| Point::from(random_unit(&mut r) * 0.45).map(T::lit))
        .collect();
    Shape::convex(&sphere).expect("valid")
}

/// The polytopes of the separating-axis tests, named: box, rounded box, triangle, a 20-point
/// and a 64-point hull, a flat hull (a polygon).
pub fn polytopes() -> Vec<(&'static str, Shape<f64>)> {
    let zoo = zoo();
    let pick = |name: &str| {
        zoo.iter()
            .find(|(n, _)| *n == name)
            .map(|(_, s)| s.clone())
            .expect("in the zoo")
    };
    let polygon: Vec<Point<f64>> = (0..7)
        .map(|k| {
            let a = f64::from(k) * 0.9;
            Point::new(0.5 * a.cos(), 0.02 * a.sin(), 0.4 * a.sin())
        })
        .collect();
    let polygon: Vec<Point<f64>> = polygon.iter().map(|p| Point::new(p.x, 0.0, p.z)).collect();
    vec![
        ("cuboid", pick("cuboid")),
        ("round_cuboid", pick("round_cuboid")),
        ("triangle", pick("triangle")),
        ("convex", pick("convex")),
        ("hull64", hull64_in()),
        ("polygon", Shape::convex(&polygon).expect("valid")),
    ]
}

/// The support gap of `a` (at the origin) and `b` (at `pos12`) along `n` (A → B): the signed
/// distance when `n` is a minimising normal.
pub fn support_gap<T: Real>(a: &Shape<T>, b: &Shape<T>, pos12: &Isometry<T>, n: &Vector<T>) -> T {
    use nphase_shapes::SupportMap;
    -a.local_support_point(n).coords.dot(n) - b.support_point(pos12, &-n).coords.dot(&-n)
}

/// Whether a shortcut's contact agrees with a cold query's within `tol`: both or neither
/// (unless the distance is within `tol` of `prediction`), the same signed distance, and the
/// shortcut's normal a minimiser (its support gap is the cold distance).
pub fn agrees_with_cold(
    (a, b, pos12): (&Shape<f64>, &Shape<f64>, &Iso),
    contact: Option<nphase_pipeline::LocalContact<f64>>,
    cold: Option<nphase_pipeline::LocalContact<f64>>,
    prediction: f64,
    tol: f64,
) -> Result<(), String> {
    match (contact, cold) {
        (Some(c), Some(k)) => {
            if (c.dist - k.dist).abs() > tol {
                return Err(format!("{c:?} vs cold {k:?}"));
            }
            let along = support_gap(a, b, pos12, &c.normal.into_inner());
            if (along - k.dist).abs() > tol {
                return Err(format!("the normal's gap {along} vs cold {}", k.dist));
            }
            Ok(())
        }
        (None, None) => Ok(()),
        (c, k) => {
            let dist = c.or(k).map_or(f64::NAN, |x| x.dist);
            if (dist - prediction).abs() <= tol {
                Ok(())
            } else {
                Err(format!("{c:?} vs cold {k:?}"))
            }
        }
    }
}

/// B's pose for shapes A (at `pose_a`) and B (rotated by `rot_b`) whose signed distance is
/// about `target` (negative: penetrating): B starts far along unit `dir` (world) and is moved
/// along the contact normal to close the gap.
pub fn place_near(
    shape_a: &Shape<f64>,
    pose_a: &Iso,
    shape_b: &Shape<f64>,
    rot_b: UnitQuaternion<f64>,
    target: f64,
    dir: V,
) -> Iso {
    let start = Iso::from_parts(
        Translation3::from(pose_a.translation.vector + dir * 4.0),
        rot_b,
    );
    close_gap(shape_a, pose_a, shape_b, start, target)
}

/// B's pose `pose_b` moved along the contact normal until the signed distance of A (at
/// `pose_a`) and B is about `target` (three steps of the contact's own distance).
pub fn close_gap(
    shape_a: &Shape<f64>,
    pose_a: &Iso,
    shape_b: &Shape<f64>,
    mut pose_b: Iso,
    target: f64,
) -> Iso {
    for _ in 0..3 {
        let c = contact(pose_a, shape_a, &pose_b, shape_b, f64::MAX)
            .expect("finite input")
            .expect("unbounded prediction");
        pose_b.translation.vector -= c.normal1.into_inner() * (c.dist - target);
    }
    pose_b
}

/// A random pair of zoo shapes placed near contact: `(a, b)` colliders with ids `2k`, `2k + 1`.
/// `aligned`: B's axes are A's, permuted by quarter turns and tilted by at most 0.5°, as in a
/// resting pile (face against face); otherwise B's rotation is uniform.
pub fn random_pair(
    zoo: &[(&'static str, Shape<f64>)],
    (i, j): (usize, usize),
    k: u64,
    target: f64,
    aligned: bool,
    rng: &mut Pcg64,
) -> (Collider<f64>, Collider<f64>) {
    let (shape_a, shape_b) = (&zoo[i].1, &zoo[j].1);
    let rot_a = random_rotation(rng);
    let pose_a = Iso::from_parts(
        Translation3::from(V::from_fn(|_, _| rng.random_range(-5.0..5.0))),
        rot_a,
    );
    let rot_b = if aligned {
        let quarter =
            |rng: &mut Pcg64| f64::from(rng.random_range(0..4u8)) * std::f64::consts::FRAC_PI_2;
        let turns = UnitQuaternion::from_euler_angles(quarter(rng), quarter(rng), quarter(rng));
        let tilt =
            UnitQuaternion::from_scaled_axis(random_unit(rng) * rng.random_range(0.0..0.0087));
        rot_a * turns * tilt
    } else {
        random_rotation(rng)
    };
    // Aligned pairs approach along one of A's axes (give or take 0.1 rad): face against face.
    let dir = if aligned {
        let mut axis = V::zeros();
        axis[rng.random_range(0..3usize)] = if rng.random_bool(0.5) { 1.0 } else { -1.0 };
        (rot_a * (axis + random_unit(rng) * rng.random_range(0.0..0.1))).normalize()
    } else {
        random_unit(rng)
    };
    let pose_b = place_near(shape_a, &pose_a, shape_b, rot_b, target, dir);
    (
        Collider {
            id: 2 * k,
            shape: shape_a.clone(),
            pose: pose_a,
        },
        Collider {
            id: 2 * k + 1,
            shape: shape_b.clone(),
            pose: pose_b,
        },
    )
}

/// A property test's configuration: `cases` cases (or `PROPTEST_CASES`), drawn from a fixed
/// seed so that CI runs the same cases every time (explore with other seeds by changing it),
/// and no failure files written next to the sources.
pub fn fixed_config(cases: u32, seed: u64) -> proptest::test_runner::Config {
    proptest::test_runner::Config {
        cases: std::env::var("PROPTEST_CASES")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(cases),
        rng_seed: proptest::test_runner::RngSeed::Fixed(seed),
        failure_persistence: None,
        ..proptest::test_runner::Config::default()
    }
}

/// One frame of B's motion in A's frame, as the coherence tests play it: `0` moving (`drift`,
/// and a turn of 1e-3 rad about `axis`), `1` at rest under the test's own `jitter`, `2`
/// tumbling (0.05 rad about `axis`).
pub fn move_one_frame(
    pos12: &mut Iso,
    motion: u8,
    (axis, drift): (V, V),
    jitter: impl FnOnce(&mut Iso),
) {
    match motion {
        0 => {
            pos12.translation.vector += drift;
            pos12.rotation = UnitQuaternion::from_scaled_axis(axis * 1e-3) * pos12.rotation;
        }
        1 => jitter(pos12),
        _ => pos12.rotation = UnitQuaternion::from_scaled_axis(axis * 0.05) * pos12.rotation,
    }
}

/// What a manifold decided for the next frame, its turn budgets aside: a search's budget is
/// the allowance of the face it found, a hand-over or a kept face carries another (or none),
/// and either way the next frame's feature is the search's.
pub fn same_decisions(
    h: nphase_pipeline::ManifoldHistory,
) -> (
    Option<(nphase_pipeline::FeatureId, nphase_pipeline::FeatureId)>,
    Option<nphase_pipeline::ReferenceSide>,
) {
    (h.features, h.reference)
}

/// Builds `input`'s manifold again without the query's hand-over ([`SupportHints`]: every
/// supporting feature searched for, the witness left on a face's plane still found by clipping) and checks that `points` and `history` — built with it —
/// are the same: positions, distances, ids and history bit for bit (impulses aside, which the
/// per-pair unit carries over after building).
pub fn same_without_hand_over(
    input: &ManifoldInput<'_, f64>,
    points: &[ContactPoint<f64>],
    history: nphase_pipeline::ManifoldHistory,
    workspace: &mut ManifoldWorkspace<f64>,
) -> Result<(), String> {
    let mut searched = arrayvec::ArrayVec::new();
    let searched_history = build_manifold(
        &ManifoldInput {
            // Every feature searched for; a witness the query left on a face's plane is still
            // the manifold's to find (that is not a search the hand-over saves).
            supports: SupportHints {
                witness_on_plane: input.supports.witness_on_plane,
                ..SupportHints::default()
            },
            ..*input
        },
        workspace,
        &mut searched,
    );
    let key = |p: &ContactPoint<f64>| (p.local_point1, p.local_point2, p.dist, p.id, p.persisted);
    let (with, without): (Vec<_>, Vec<_>) = (
        points.iter().map(key).collect(),
        searched.iter().map(key).collect(),
    );
    if same_decisions(history) != same_decisions(searched_history) || with != without {
        return Err(format!(
            "with the hand-over {with:?}, {history:?}; searched {without:?}, {searched_history:?}"
        ));
    }
    Ok(())
}
