//! Support functions per shape type: nphase's `SupportMap::local_support_point` against
//! parry3d's (f32) and parry3d-f64's, on the same 256 pre-generated directions (random unit
//! directions scaled by random lengths in [0.5, 2], so shapes that normalise do so).
//!
//! Groups `support/<shape>`, cases `nphase_f32`, `parry_f32`, `nphase_f64`, `parry_f64`. The hull
//! is 32 random points on a sphere (all vertices; nphase climbs from the axis extreme, parry
//! scans — see `hull_support.rs` for the crossover).
//!
//! ```text
//! cargo bench --bench support -- --warm-up-time 1 --measurement-time 3 [filter]
//! benches/callgrind.sh support [filter]
//! ```

#[allow(dead_code)]
mod common;

use std::hint::black_box;

use common::harness::Harness;
use common::{Desc, random_unit, rng, sphere_hull};
use nalgebra::{Point3, Vector3};
use nphase_math::Real;
use nphase_shapes::{Ball, Capsule, Cone, Cuboid, Cylinder, Round, Segment, SupportMap, Triangle};
use rand::Rng;

const DIRECTIONS: usize = 256;

fn nphase<T: Real, S: SupportMap<T>>(shape: S, dirs: &[Vector3<f64>]) -> impl FnMut() {
    let dirs: Vec<Vector3<T>> = dirs.iter().map(|d| d.map(T::lit)).collect();
    move || {
        for d in &dirs {
            black_box(shape.local_support_point(black_box(d)));
        }
    }
}

/// `fn $name(shape, dirs)`: the support loop of parry crate `$parry` (scalar `$real`).
macro_rules! parry_support {
    ($name:ident, $parry:ident, $real:ty) => {
        fn $name<S: $parry::shape::SupportMap>(shape: S, dirs: &[Vector3<f64>]) -> impl FnMut() {
            let dirs: Vec<Vector3<$real>> = dirs.iter().map(|d| d.cast()).collect();
            move || {
                for d in &dirs {
                    black_box(shape.local_support_point(black_box(d)));
                }
            }
        }
    };
}

parry_support!(parry32, parry3d, f32);
parry_support!(parry64, parry3d_f64, f64);

/// The nphase shape of `$desc` in precision `$t`, concrete type (not the `Shape` enum).
macro_rules! nphase_shape {
    ($t:ty, $desc:expr, |$s:ident| $body:expr) => {
        match $desc {
            Desc::Ball(r) => {
                let $s = Ball::<$t>::new(*r as $t).expect("valid");
                $body
            }
            Desc::Cuboid(h) => {
                let $s = Cuboid::<$t>::new(h.cast()).expect("valid");
                $body
            }
            Desc::Capsule(h, r) => {
                let $s = Capsule::<$t>::new(*h as $t, *r as $t).expect("valid");
                $body
            }
            Desc::Cylinder(h, r) => {
                let $s = Cylinder::<$t>::new(*h as $t, *r as $t).expect("valid");
                $body
            }
            Desc::Cone(h, r) => {
                let $s = Cone::<$t>::new(*h as $t, *r as $t).expect("valid");
                $body
            }
            Desc::Segment(a, b) => {
                let $s = Segment::<$t>::new(a.cast(), b.cast()).expect("valid");
                $body
            }
            Desc::Triangle([a, b, c]) => {
                let $s = Triangle::<$t>::new(a.cast(), b.cast(), c.cast()).expect("valid");
                $body
            }
            Desc::Hull(points) => {
                let points: Vec<Point3<$t>> = points.iter().map(|p| p.cast()).collect();
                let $s = nphase_shapes::ConvexPolyhedron::from_points(&points).expect("valid");
                $body
            }
            Desc::RoundCuboid(h, r) => {
                let inner = Cuboid::<$t>::new(h.cast()).expect("valid");
                let $s = Round::new(inner, *r as $t).expect("valid");
                $body
            }
        }
    };
}

/// The parry shape of `$desc` from crate `$parry`, concrete type.
macro_rules! parry_shape {
    ($parry:ident, $t:ty, $desc:expr, |$s:ident| $body:expr) => {{
        use $parry::shape as ps;
        match $desc {
            Desc::Ball(r) => {
                let $s = ps::Ball::new(*r as $t);
                $body
            }
            Desc::Cuboid(h) => {
                let $s = ps::Cuboid::new(h.cast());
                $body
            }
            Desc::Capsule(h, r) => {
                let $s = ps::Capsule::new_y(*h as $t, *r as $t);
                $body
            }
            Desc::Cylinder(h, r) => {
                let $s = ps::Cylinder::new(*h as $t, *r as $t);
                $body
            }
            Desc::Cone(h, r) => {
                let $s = ps::Cone::new(*h as $t, *r as $t);
                $body
            }
            Desc::Segment(a, b) => {
                let $s = ps::Segment::new(a.cast(), b.cast());
                $body
            }
            Desc::Triangle([a, b, c]) => {
                let $s = ps::Triangle::new(a.cast(), b.cast(), c.cast());
                $body
            }
            Desc::Hull(points) => {
                let points: Vec<Point3<$t>> = points.iter().map(|p| p.cast()).collect();
                let $s = ps::ConvexPolyhedron::from_convex_hull(&points).expect("parry hull");
                $body
            }
            Desc::RoundCuboid(h, r) => {
                let $s = ps::RoundShape {
                    inner_shape: ps::Cuboid::new(h.cast()),
                    border_radius: *r as $t,
                };
                $body
            }
        }
    }};
}

fn main() {
    let shapes = [
        ("ball", Desc::Ball(0.5)),
        ("cuboid", Desc::Cuboid(Vector3::new(0.6, 0.4, 0.5))),
        ("capsule", Desc::Capsule(0.5, 0.3)),
        ("cylinder", Desc::Cylinder(0.5, 0.4)),
        ("cone", Desc::Cone(0.5, 0.4)),
        (
            "segment",
            Desc::Segment(Point3::new(-0.3, -0.5, 0.1), Point3::new(0.4, 0.5, -0.2)),
        ),
        (
            "triangle",
            Desc::Triangle([
                Point3::new(-0.6, -0.1, -0.4),
                Point3::new(0.7, 0.1, -0.3),
                Point3::new(-0.1, 0.0, 0.6),
            ]),
        ),
        ("hull32", sphere_hull(32)),
        (
            "roundcuboid",
            Desc::RoundCuboid(Vector3::new(0.5, 0.3, 0.4), 0.1),
        ),
    ];
    let mut rng = rng(5);
    let dirs: Vec<Vector3<f64>> = (0..DIRECTIONS)
        .map(|_| random_unit(&mut rng) * rng.random_range(0.5..2.0))
        .collect();

    let mut harness = Harness::new();
    for (name, desc) in &shapes {
        let group = harness.group(&format!("support/{name}"), DIRECTIONS);
        nphase_shape!(f32, desc, |s| group.case("nphase_f32", nphase(s, &dirs)));
        parry_shape!(parry3d, f32, desc, |s| group
            .case("parry_f32", parry32(s, &dirs)));
        nphase_shape!(f64, desc, |s| group.case("nphase_f64", nphase(s, &dirs)));
        parry_shape!(parry3d_f64, f64, desc, |s| group
            .case("parry_f64", parry64(s, &dirs)));
    }
    harness.run();
}
