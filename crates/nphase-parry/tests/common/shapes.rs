//! Random parry 0.31 convex shapes, one of each type, for the tests.

use parry3d_031::math::Vector;
use parry3d_031::shape as ps;
use rand::Rng;
use rand_pcg::Pcg64;

/// How many convex shape types parry 0.31 has (and [`random_shapes`] returns).
pub const CONVEX_TYPES: usize = 14;

pub fn vector(rng: &mut Pcg64, range: f32) -> Vector {
    Vector::new(
        rng.random_range(-range..range),
        rng.random_range(-range..range),
        rng.random_range(-range..range),
    )
}

fn size(rng: &mut Pcg64) -> f32 {
    rng.random_range(0.05..2.0)
}

/// A random shape of each convex type parry 0.31 has, named for the failure message.
pub fn random_shapes(rng: &mut Pcg64) -> Vec<(&'static str, Box<dyn ps::Shape>)> {
    let cloud: Vec<Vector> = (0..rng.random_range(4..40))
        .map(|_| vector(rng, 1.5))
        .collect();
    let hull = ps::ConvexPolyhedron::from_convex_hull(&cloud).expect("a random cloud is 3-d");
    let half = Vector::new(size(rng), size(rng), size(rng));
    let triangle = ps::Triangle::new(vector(rng, 1.0), vector(rng, 1.0), vector(rng, 1.0));
    let round = |rng: &mut Pcg64| rng.random_range(0.0..0.5);
    vec![
        ("ball", Box::new(ps::Ball::new(size(rng)))),
        ("cuboid", Box::new(ps::Cuboid::new(half))),
        (
            "capsule_y",
            Box::new(ps::Capsule::new_y(size(rng), size(rng))),
        ),
        (
            "capsule",
            Box::new(ps::Capsule::new(
                vector(rng, 1.0),
                vector(rng, 1.0),
                size(rng),
            )),
        ),
        (
            "cylinder",
            Box::new(ps::Cylinder::new(size(rng), size(rng))),
        ),
        ("cone", Box::new(ps::Cone::new(size(rng), size(rng)))),
        (
            "segment",
            Box::new(ps::Segment::new(vector(rng, 1.0), vector(rng, 1.0))),
        ),
        ("triangle", Box::new(triangle)),
        ("convex_polyhedron", Box::new(hull.clone())),
        (
            "round_cuboid",
            Box::new(ps::RoundCuboid {
                inner_shape: ps::Cuboid::new(half),
                border_radius: round(rng),
            }),
        ),
        (
            "round_cylinder",
            Box::new(ps::RoundCylinder {
                inner_shape: ps::Cylinder::new(size(rng), size(rng)),
                border_radius: round(rng),
            }),
        ),
        (
            "round_cone",
            Box::new(ps::RoundCone {
                inner_shape: ps::Cone::new(size(rng), size(rng)),
                border_radius: round(rng),
            }),
        ),
        (
            "round_triangle",
            Box::new(ps::RoundTriangle {
                inner_shape: triangle,
                border_radius: round(rng),
            }),
        ),
        (
            "round_convex_polyhedron",
            Box::new(ps::RoundConvexPolyhedron {
                inner_shape: hull,
                border_radius: round(rng),
            }),
        ),
    ]
}
