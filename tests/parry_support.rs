//! Differential tests of nphase's support functions against parry3d 0.25 (f32, `parry3d`) and
//! parry3d-f64 (f64, `parry3d-f64`), natively and through the adapters of
//! `nphase_shapes::parry_interop` (nphase shapes as parry `SupportMap`s, parry shapes as nphase
//! `SupportMap`s).
//!
//! For every shape type and thousands of random directions the two libraries must agree on the
//! support *value* `x·d`; where the maximiser is unique (no face, edge or slant line within the
//! tolerance of facing `d`) on the support *point* too. The tie-breaking rules differ on purpose:
//!
//! * cone: along a slant line's normal nphase returns the apex, parry the rim point;
//! * convex polyhedron: on a face or edge facing `d` each library returns its own lowest-index
//!   vertex, and the two number the hull's vertices differently.
//!
//! Where parry differs beyond ties (checked in `parry_differs_where_documented`):
//!
//! * a zero direction: parry's ball and round shapes return NaN (they normalise the direction);
//!   nphase returns the +y point, and so do parry shapes used through the adapter;
//! * tiny and huge directions: parry's ball and round shapes normalise through `|d|²`, which
//!   underflows (NaN or infinity, or for a subnormal `|d|²` a point off the surface) or overflows
//!   (the origin); nphase's shapes and the adapter rescale first. parry's cylinder and cone do
//!   the same with the radial part of `d`.

use nalgebra::Vector3;
use rand::Rng;
use rand_pcg::Pcg64;

fn random_unit(rng: &mut Pcg64) -> Vector3<f64> {
    loop {
        let v = Vector3::from_fn(|_, _| rng.random_range(-1.0..1.0));
        let n: f64 = v.norm();
        if n > 0.1 && n <= 1.0 {
            break v / n;
        }
    }
}

/// Random directions of random lengths (1e-3 to 1e3), a fifth of them snapped to the axis and
/// diagonal directions (−1, 0, 1 components) so that the tie rules are exercised too.
fn directions(rng: &mut Pcg64, n: usize) -> Vec<Vector3<f64>> {
    (0..n)
        .map(|_| {
            let mut d = random_unit(rng);
            if rng.random_bool(0.2) {
                d = d.map(|x| x.round());
                if d == Vector3::zeros() {
                    d = Vector3::y();
                }
            }
            d * 10f64.powf(rng.random_range(-3.0..3.0))
        })
        .collect()
}

/// A log-uniform length in [0.05, 5].
fn length(rng: &mut Pcg64) -> f64 {
    10f64.powf(rng.random_range(-1.3..0.7))
}

fn point(rng: &mut Pcg64) -> Vector3<f64> {
    Vector3::from_fn(|_, _| rng.random_range(-2.0..2.0))
}

/// The random shape parameters both libraries are built from.
struct Params {
    a: Vector3<f64>,
    b: Vector3<f64>,
    c: Vector3<f64>,
    half_extents: Vector3<f64>,
    half_height: f64,
    radius: f64,
    border: f64,
    cloud: Vec<Vector3<f64>>,
}

/// Random parameters. A third of the triangles lie in a plane `z = const` and a third of the
/// clouds are a box's corners plus inner points, so that the snapped directions meet faces
/// (ties) on those shapes too; the other clouds are in a box or on a sphere.
fn params(rng: &mut Pcg64) -> Params {
    let half_extents = Vector3::from_fn(|_, _| length(rng));
    let (a, mut b, mut c) = (point(rng), point(rng), point(rng));
    if rng.random_bool(1.0 / 3.0) {
        (b.z, c.z) = (a.z, a.z);
    }
    let n = rng.random_range(4..48);
    let cloud = match rng.random_range(0..3) {
        0 => (0..n).map(|_| random_unit(rng) * 2.0).collect(),
        1 => (0..n).map(|_| point(rng)).collect(),
        _ => (0..8)
            .map(|i| Vector3::from_fn(|k, _| if i >> k & 1 == 0 { 1.0 } else { -1.0 }))
            .chain((0..n).map(|_| Vector3::from_fn(|_, _| rng.random_range(-0.9..0.9))))
            .map(|x: Vector3<f64>| x.component_mul(&half_extents))
            .collect(),
    };
    Params {
        a,
        b,
        c,
        half_extents,
        half_height: length(rng),
        radius: length(rng),
        border: length(rng) * 0.3,
        cloud,
    }
}

/// The tie margin: a second maximiser within this (relative to the shape's size) counts as a
/// tie, and the points are then not compared. Support points are a few roundings of
/// numbers of the shape's size, so 64 ε · size is a wide margin; a maximiser that beats the
/// runner-up by more is found by both libraries.
fn margin(epsilon: f64, scale: f64) -> f64 {
    64.0 * epsilon * scale
}

// The differential tests, compiled once per precision. `include!` rather than a module file
// because the same text must see a different `parry` and `Real` in each; rustfmt does not reach
// included files, so format it with `rustfmt --edition 2024 tests/parry_support/differential.rs`.

/// f32: parry3d.
mod f32_parry3d {
    use parry3d as parry;
    type Real = f32;
    include!("parry_support/differential.rs");
}

/// f64: parry3d-f64.
mod f64_parry3d {
    use parry3d_f64 as parry;
    type Real = f64;
    include!("parry_support/differential.rs");
}
