//! nphase shapes as parry shapes (`AsParry<Shape<f32>>`): the bounding volumes, mass
//! properties and ray casts of the equivalent parry shapes, and a rapier collider that nphase
//! answers without any conversion.

use nphase_math::{Point, Vector as NaVector};
use nphase_parry::{AsParry, Dispatcher};
use nphase_shapes::{Cuboid, Cylinder, Shape};
use parry3d_031::math::Vector;
use parry3d_031::query::{Ray, RayCast};
use parry3d_031::shape::{self as ps, Shape as _, SharedShape};
use rapier3d::prelude::*;

fn cube() -> (Shape<f32>, ps::Cuboid) {
    let half = NaVector::new(0.5, 0.25, 1.0);
    (
        Shape::Cuboid(Cuboid::new(half).expect("valid")),
        ps::Cuboid::new(Vector::new(0.5, 0.25, 1.0)),
    )
}

/// The AABB, mass properties and a ray cast of an nphase cuboid, a cylinder and a hull match
/// the parry shape of the same geometry (f32 rounding: 1e-5 relative).
#[test]
fn geometry_and_mass_are_parrys() {
    let points: Vec<Point<f32>> = (0..16)
        .map(|k| {
            let a = k as f32 * 2.4;
            Point::new(a.cos(), (k as f32 / 8.0) - 1.0, a.sin())
        })
        .collect();
    let hull = Shape::convex(&points).expect("a hull");
    let parry_points: Vec<Vector> = points.iter().map(|p| Vector::new(p.x, p.y, p.z)).collect();
    let (cube, parry_cube) = cube();
    let cases: Vec<(&str, Shape<f32>, Box<dyn ps::Shape>)> = vec![
        ("cuboid", cube, Box::new(parry_cube)),
        (
            "cylinder",
            Shape::Cylinder(Cylinder::new(0.7, 0.3).expect("valid")),
            Box::new(ps::Cylinder::new(0.7, 0.3)),
        ),
        (
            "convex",
            hull,
            Box::new(ConvexPolyhedron::from_convex_hull(&parry_points).expect("a hull")),
        ),
    ];
    for (name, nphase, parry) in cases {
        let ours = AsParry(nphase);
        let close = |a: Vector, b: Vector| (a - b).length() <= 1e-5 * (1.0 + b.length());
        let (a, b) = (ours.compute_local_aabb(), parry.compute_local_aabb());
        assert!(
            close(a.mins, b.mins) && close(a.maxs, b.maxs),
            "{name}: {a:?} vs {b:?}"
        );
        let (m, n) = (ours.mass_properties(2.0), parry.mass_properties(2.0));
        assert!(
            (m.mass() - n.mass()).abs() <= 1e-5 * n.mass(),
            "{name}: mass"
        );
        assert!(close(m.local_com, n.local_com), "{name}: centre of mass");
        let ray = Ray::new(Vector::new(0.05, 5.0, 0.02), Vector::new(0.0, -1.0, 0.0));
        let hit = |s: &dyn RayCast| s.cast_local_ray(&ray, 100.0, true).expect("a hit");
        assert!(
            (hit(&ours) - hit(parry.as_ref())).abs() < 1e-4,
            "{name}: ray"
        );
        assert_eq!(ours.shape_type(), ShapeType::Custom);
    }
}

/// An nphase shape as a rapier collider: a rounded cylinder standing on a ground box comes to
/// rest on its cap, and every pair went through nphase (the custom shape was recognised).
#[test]
fn an_nphase_collider_in_rapier() {
    let dispatcher = Dispatcher::default();
    let mut world = PhysicsWorld::new();
    world.narrow_phase = NarrowPhase::with_query_dispatcher(dispatcher.clone());
    world.insert_collider(ColliderBuilder::cuboid(5.0, 0.5, 5.0), None);
    let cylinder = Shape::round(
        Shape::Cylinder(Cylinder::new(0.4, 0.3).expect("valid")),
        0.05,
    )
    .expect("valid");
    let collider = ColliderBuilder::new(SharedShape::new(AsParry(cylinder)));
    let body = RigidBodyBuilder::dynamic().translation(Vector::new(0.0, 1.5, 0.0));
    let (body, _) = world.insert(body, collider);
    for _ in 0..180 {
        world.step();
    }
    // The cap (half-height 0.4 + border 0.05) rests on the ground's top at y = 0.5.
    let y = world.bodies[body].translation().y;
    assert!((y - 0.95).abs() < 0.01, "rests at {y}");
    let stats = dispatcher.stats();
    assert!(stats.nphase_pairs > 0, "{stats:?}");
    assert_eq!((stats.parry_pairs, stats.refused_pairs), (0, 0));
}
