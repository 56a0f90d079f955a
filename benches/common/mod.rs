//! Shared by the criterion benches (`support`, `gjk`, `contact`) and `examples/iterations.rs`:
//! the shapes of every case described once and built in nphase (f32, f64) and parry3d
//! (parry3d, parry3d-f64) form, seeded random inputs, and poses placed at a prescribed signed
//! distance (bisection on nphase's f64 distance, the reference).
//!
//! Conventions: shape A sits at the origin, B at `pos12`; `scale` is the larger half-diagonal of
//! the two shapes' local bounding boxes (the oracle's scale), and gaps are given in it.

pub mod harness;
pub mod scenes;

use std::sync::Arc;

use nalgebra::{Isometry3, Point3, Translation3, UnitQuaternion, Vector3};
use nphase_math::Real;
use nphase_shapes::{Ball, Capsule, Cone, Cuboid, Cylinder, Segment, Shape, Triangle};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;

/// A pose in f64, the precision inputs are generated in.
pub type Iso = Isometry3<f64>;

/// Motion per frame of the coherent trajectories: this many units of translation and radians
/// of rotation.
pub const FRAME_STEP: f64 = 1e-3;

/// The generator every input comes from.
pub fn rng(seed: u64) -> Pcg64 {
    Pcg64::seed_from_u64(seed)
}

/// A uniformly distributed unit vector.
pub fn random_unit(rng: &mut Pcg64) -> Vector3<f64> {
    loop {
        let v = Vector3::from_fn(|_, _| rng.random_range(-1.0..1.0));
        let n = v.norm();
        if n > 0.1 && n <= 1.0 {
            break v / n;
        }
    }
}

/// A uniformly distributed rotation.
pub fn random_rotation(rng: &mut Pcg64) -> UnitQuaternion<f64> {
    loop {
        let q = nalgebra::Vector4::from_fn(|_, _| rng.random_range(-1.0..1.0));
        let n = q.norm();
        if n > 0.1 && n <= 1.0 {
            break UnitQuaternion::from_quaternion(nalgebra::Quaternion::from(q / n));
        }
    }
}

/// `n` random points on the ellipsoid of semi-axes `radii` (all of them hull vertices).
pub fn ellipsoid_points(n: usize, radii: Vector3<f64>, seed: u64) -> Vec<Point3<f64>> {
    let mut rng = rng(seed);
    (0..n)
        .map(|_| Point3::from(random_unit(&mut rng).component_mul(&radii)))
        .collect()
}

/// A shape by its parameters, buildable in both libraries and both precisions.
#[derive(Clone, Debug)]
pub enum Desc {
    /// Radius.
    Ball(f64),
    /// Half-extents.
    Cuboid(Vector3<f64>),
    /// Half-height of the core segment, radius.
    Capsule(f64, f64),
    /// Half-height, radius.
    Cylinder(f64, f64),
    /// Half-height, base radius.
    Cone(f64, f64),
    /// Endpoints.
    Segment(Point3<f64>, Point3<f64>),
    /// Vertices.
    Triangle([Point3<f64>; 3]),
    /// The convex hull of these points.
    Hull(Arc<Vec<Point3<f64>>>),
    /// A cuboid of these half-extents grown by the border radius.
    RoundCuboid(Vector3<f64>, f64),
}

fn cast<T: Real>(v: Vector3<f64>) -> Vector3<T> {
    v.map(T::lit)
}

fn cast_point<T: Real>(p: Point3<f64>) -> Point3<T> {
    p.map(T::lit)
}

impl Desc {
    /// The nphase shape in precision `T`.
    pub fn nphase<T: Real>(&self) -> Shape<T> {
        match self {
            Desc::Ball(r) => Shape::Ball(Ball::new(T::lit(*r)).expect("valid")),
            Desc::Cuboid(h) => Shape::Cuboid(Cuboid::new(cast(*h)).expect("valid")),
            Desc::Capsule(h, r) => {
                Shape::Capsule(Capsule::new(T::lit(*h), T::lit(*r)).expect("valid"))
            }
            Desc::Cylinder(h, r) => {
                Shape::Cylinder(Cylinder::new(T::lit(*h), T::lit(*r)).expect("valid"))
            }
            Desc::Cone(h, r) => Shape::Cone(Cone::new(T::lit(*h), T::lit(*r)).expect("valid")),
            Desc::Segment(a, b) => {
                Shape::Segment(Segment::new(cast_point(*a), cast_point(*b)).expect("valid"))
            }
            Desc::Triangle([a, b, c]) => Shape::Triangle(
                Triangle::new(cast_point(*a), cast_point(*b), cast_point(*c)).expect("valid"),
            ),
            Desc::Hull(points) => {
                let points: Vec<Point3<T>> = points.iter().map(|p| cast_point(*p)).collect();
                Shape::convex(&points).expect("valid cloud")
            }
            Desc::RoundCuboid(h, r) => Shape::round(
                Shape::Cuboid(Cuboid::new(cast(*h)).expect("valid")),
                T::lit(*r),
            )
            .expect("valid"),
        }
    }

    /// The half-diagonal of the shape's local bounding box.
    pub fn half_diagonal(&self) -> f64 {
        self.nphase::<f64>().local_aabb().half_diagonal()
    }
}

/// `max` of the two shapes' half-diagonals: the unit gaps and depths are measured in.
pub fn scale(a: &Desc, b: &Desc) -> f64 {
    a.half_diagonal().max(b.half_diagonal())
}

/// A hull of `n` points on a sphere of radius 0.5.
pub fn sphere_hull(n: usize) -> Desc {
    Desc::Hull(Arc::new(ellipsoid_points(
        n,
        Vector3::repeat(0.5),
        n as u64,
    )))
}

/// A hull of `n` points on an ellipsoid of semi-axes (0.6, 0.45, 0.3).
pub fn ellipsoid_hull(n: usize) -> Desc {
    Desc::Hull(Arc::new(ellipsoid_points(
        n,
        Vector3::new(0.6, 0.45, 0.3),
        1000 + n as u64,
    )))
}

/// The shape pairs of the GJK bench, by name.
pub fn gjk_pairs() -> Vec<(String, Desc, Desc)> {
    let mut pairs = vec![
        (
            "cuboid-cuboid".to_owned(),
            Desc::Cuboid(Vector3::new(0.6, 0.4, 0.5)),
            Desc::Cuboid(Vector3::new(0.5, 0.5, 0.3)),
        ),
        (
            "capsule-cuboid".to_owned(),
            Desc::Capsule(0.5, 0.3),
            Desc::Cuboid(Vector3::new(0.5, 0.5, 0.3)),
        ),
    ];
    for n in [32, 64, 256, 1024] {
        pairs.push((format!("hull{n}"), sphere_hull(n), ellipsoid_hull(n)));
    }
    pairs
}

/// Curved pairs for the cold/warm iteration counts of `examples/iterations.rs`: GJK's cache
/// keeps their simplex as the directions its vertices were found along (no vertex ids).
pub fn curved_gjk_pairs() -> Vec<(String, Desc, Desc)> {
    let cuboid = Desc::Cuboid(Vector3::new(0.5, 0.5, 0.3));
    vec![
        (
            "cylinder-cuboid".to_owned(),
            Desc::Cylinder(0.5, 0.4),
            cuboid.clone(),
        ),
        ("cone-cuboid".to_owned(), Desc::Cone(0.5, 0.4), cuboid),
        (
            "cylinder-capsule".to_owned(),
            Desc::Cylinder(0.5, 0.4),
            Desc::Capsule(0.5, 0.3),
        ),
    ]
}

/// The shape pairs of the acceleration comparison: large smooth hulls, cylinders and cones,
/// and for reference two small polytope pairs (boxes, hulls of 32 vertices).
pub fn acceleration_pairs() -> Vec<(String, Desc, Desc)> {
    let mut pairs = vec![(
        "cuboid-cuboid".to_owned(),
        Desc::Cuboid(Vector3::new(0.6, 0.4, 0.5)),
        Desc::Cuboid(Vector3::new(0.5, 0.5, 0.3)),
    )];
    for n in [32, 256, 1024] {
        pairs.push((format!("hull{n}"), sphere_hull(n), ellipsoid_hull(n)));
    }
    pairs.push((
        "cylinder-cylinder".to_owned(),
        Desc::Cylinder(0.5, 0.4),
        Desc::Cylinder(0.4, 0.3),
    ));
    pairs.push((
        "cone-cone".to_owned(),
        Desc::Cone(0.5, 0.4),
        Desc::Cone(0.4, 0.5),
    ));
    pairs.push((
        "cylinder-cone".to_owned(),
        Desc::Cylinder(0.5, 0.4),
        Desc::Cone(0.4, 0.5),
    ));
    pairs
}

/// The shape pairs of the contact bench, by name.
pub fn contact_pairs() -> Vec<(String, Desc, Desc)> {
    let cuboid = Desc::Cuboid(Vector3::new(0.5, 0.5, 0.3));
    let triangle = Desc::Triangle([
        Point3::new(-0.6, -0.1, -0.4),
        Point3::new(0.7, 0.1, -0.3),
        Point3::new(-0.1, 0.0, 0.6),
    ]);
    vec![
        (
            "box-box".to_owned(),
            Desc::Cuboid(Vector3::new(0.6, 0.4, 0.5)),
            cuboid.clone(),
        ),
        ("box-ball".to_owned(), cuboid.clone(), Desc::Ball(0.5)),
        (
            "capsule-box".to_owned(),
            Desc::Capsule(0.5, 0.3),
            cuboid.clone(),
        ),
        (
            "capsule-capsule".to_owned(),
            Desc::Capsule(0.5, 0.3),
            Desc::Capsule(0.4, 0.2),
        ),
        (
            "ball-capsule".to_owned(),
            Desc::Ball(0.5),
            Desc::Capsule(0.5, 0.3),
        ),
        (
            "ball-cylinder".to_owned(),
            Desc::Ball(0.5),
            Desc::Cylinder(0.5, 0.4),
        ),
        (
            "ball-cone".to_owned(),
            Desc::Ball(0.5),
            Desc::Cone(0.5, 0.4),
        ),
        (
            "cylinder-box".to_owned(),
            Desc::Cylinder(0.5, 0.4),
            cuboid.clone(),
        ),
        ("cone-box".to_owned(), Desc::Cone(0.5, 0.4), cuboid.clone()),
        ("hull-hull".to_owned(), sphere_hull(32), ellipsoid_hull(32)),
        (
            "roundbox-box".to_owned(),
            Desc::RoundCuboid(Vector3::new(0.5, 0.3, 0.4), 0.1),
            cuboid.clone(),
        ),
        ("triangle-box".to_owned(), triangle, cuboid),
    ]
}

/// The reference signed distance (nphase, f64) of A at the origin and B at `pos12`.
pub fn signed_distance(a: &Shape<f64>, b: &Shape<f64>, pos12: &Iso) -> f64 {
    nphase_pipeline::query::distance(&Iso::identity(), a, pos12, b).expect("finite poses")
}

/// B's pose with orientation `rotation` and its centre on the ray from A's centre along unit
/// `u`, where the signed distance is `target`: bisection on the centre distance (the signed
/// distance along the ray is convex, so there is one crossing above its value at 0). `None`
/// when the value at 0 is not below `target`.
pub fn place(
    a: &Shape<f64>,
    b: &Shape<f64>,
    rotation: UnitQuaternion<f64>,
    u: Vector3<f64>,
    target: f64,
    scale: f64,
) -> Option<Iso> {
    let at = |t: f64| Iso::from_parts(Translation3::from(u * t), rotation);
    if signed_distance(a, b, &at(0.0)) >= target {
        return None;
    }
    let (mut lo, mut hi) = (0.0, scale);
    while signed_distance(a, b, &at(hi)) < target {
        (lo, hi) = (hi, 2.0 * hi);
    }
    for _ in 0..80 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if signed_distance(a, b, &at(mid)) < target {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some(at(0.5 * (lo + hi)))
}

/// `count` poses of B at signed distance `target` from A, with random orientations and
/// directions.
pub fn random_poses(a: &Desc, b: &Desc, target: f64, count: usize, seed: u64) -> Vec<Iso> {
    let (sa, sb) = (a.nphase::<f64>(), b.nphase::<f64>());
    let scale = scale(a, b);
    let mut rng = rng(seed);
    let mut poses = Vec::with_capacity(count);
    while poses.len() < count {
        let (rotation, u) = (random_rotation(&mut rng), random_unit(&mut rng));
        poses.extend(place(&sa, &sb, rotation, u, target, scale));
    }
    poses
}

/// `trajectories` coherent motions of B around A keeping the signed distance at `target`:
/// each frame B turns by [`FRAME_STEP`] rad about a fixed axis and its centre moves about
/// [`FRAME_STEP`] units sideways (then is placed back at the distance). Each trajectory is
/// returned in ping-pong order (frames `0..frames`, then back), so a batch can be replayed
/// without a jump.
pub fn coherent_poses(
    a: &Desc,
    b: &Desc,
    target: f64,
    trajectories: usize,
    frames: usize,
    seed: u64,
) -> Vec<Vec<Iso>> {
    let (sa, sb) = (a.nphase::<f64>(), b.nphase::<f64>());
    let scale = scale(a, b);
    let mut rng = rng(seed);
    let mut out = Vec::with_capacity(trajectories);
    'trajectory: while out.len() < trajectories {
        let (rotation, u) = (random_rotation(&mut rng), random_unit(&mut rng));
        let spin = random_unit(&mut rng);
        let sideways = u.cross(&random_unit(&mut rng)).normalize();
        let Some(start) = place(&sa, &sb, rotation, u, target, scale) else {
            continue;
        };
        let radius = start.translation.vector.norm();
        let mut forth = Vec::with_capacity(frames);
        for k in 0..frames {
            let step = k as f64 * FRAME_STEP;
            let rotation = UnitQuaternion::from_scaled_axis(spin * step) * rotation;
            let u = UnitQuaternion::from_scaled_axis(sideways * (step / radius)) * u;
            match place(&sa, &sb, rotation, u, target, scale) {
                Some(pose) => forth.push(pose),
                None => continue 'trajectory,
            }
        }
        let back: Vec<Iso> = forth.iter().rev().copied().collect();
        forth.extend(back);
        out.push(forth);
    }
    out
}

/// Casts an f64 pose to precision `T`.
pub fn iso<T: Real>(pose: &Iso) -> Isometry3<T> {
    nalgebra::convert_ref(pose)
}

/// parry3d shapes (module `p32`, f32) and parry3d-f64 shapes (module `p64`) from a [`Desc`].
macro_rules! parry_shapes {
    ($m:ident, $parry:ident, $real:ty) => {
        /// Shapes of this parry crate.
        pub mod $m {
            use $parry::shape as ps;

            use super::Desc;

            /// The scalar of this parry crate.
            pub type Real = $real;

            fn v(v: &nalgebra::Vector3<f64>) -> nalgebra::Vector3<Real> {
                v.cast()
            }

            fn p(p: &nalgebra::Point3<f64>) -> nalgebra::Point3<Real> {
                p.cast()
            }

            /// The shape behind parry's dynamic `Shape` trait (what `query::contact` takes).
            pub fn shape(d: &Desc) -> Box<dyn ps::Shape> {
                match d {
                    Desc::Ball(r) => Box::new(ps::Ball::new(*r as Real)),
                    Desc::Cuboid(h) => Box::new(ps::Cuboid::new(v(h))),
                    Desc::Capsule(h, r) => Box::new(ps::Capsule::new_y(*h as Real, *r as Real)),
                    Desc::Cylinder(h, r) => Box::new(ps::Cylinder::new(*h as Real, *r as Real)),
                    Desc::Cone(h, r) => Box::new(ps::Cone::new(*h as Real, *r as Real)),
                    Desc::Segment(a, b) => Box::new(ps::Segment::new(p(a), p(b))),
                    Desc::Triangle([a, b, c]) => Box::new(ps::Triangle::new(p(a), p(b), p(c))),
                    Desc::Hull(_) => Box::new(hull(d)),
                    Desc::RoundCuboid(h, r) => Box::new(ps::RoundShape {
                        inner_shape: ps::Cuboid::new(v(h)),
                        border_radius: *r as Real,
                    }),
                }
            }

            /// A cuboid of half-extents `h`.
            pub fn cuboid(h: &nalgebra::Vector3<f64>) -> ps::Cuboid {
                ps::Cuboid::new(v(h))
            }

            /// A capsule along y.
            pub fn capsule(half_height: f64, radius: f64) -> ps::Capsule {
                ps::Capsule::new_y(half_height as Real, radius as Real)
            }

            /// The convex hull of a `Desc::Hull`.
            pub fn hull(d: &Desc) -> ps::ConvexPolyhedron {
                let Desc::Hull(points) = d else {
                    panic!("not a hull: {d:?}")
                };
                let points: Vec<_> = points.iter().map(p).collect();
                ps::ConvexPolyhedron::from_convex_hull(&points).expect("parry builds the hull")
            }
        }
    };
}

parry_shapes!(p32, parry3d, f32);
parry_shapes!(p64, parry3d_f64, f64);
