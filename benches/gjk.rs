//! GJK closest points: nphase's `closest_points` against parry3d's `query::gjk::closest_points`
//! on the same poses, plus nphase warm-started, plus the acceleration comparison.
//!
//! * Groups `gjk/<pair>/<gap>/<precision>` — pairs cuboid–cuboid, capsule–cuboid (nphase on the
//!   capsule's segment core with its radius, parry on its capsule) and hulls of 32 to 1024
//!   vertices (points on a sphere against points on an ellipsoid); `gap` is `sep` (0.2 × scale)
//!   or `near` (1e-3 × scale). Inputs: 8 coherent trajectories of 16 frames (1e-3 units and
//!   1e-3 rad per frame, at the gap), each replayed forth and back: 256 queries per batch.
//!   Cases: `nphase_cold` (empty cache every query), `nphase_warm` (each trajectory keeps its
//!   cache from the previous frame), `parry` (cold: the simplex reset with the support point
//!   along the centre line, as parry's `contact` does). Both libraries use concrete shape types.
//! * Groups `gjk_accel/<pair>/<gap>/<precision>` — nphase cold on 128 random poses: plain GJK
//!   (`plain`, the default) against Nesterov momentum with (`nesterov_norm`) and without
//!   (`nesterov_raw`) normalisation, on hulls of 256 and 1024 vertices, cylinders and cones,
//!   and for reference on boxes and hulls of 32 vertices.
//!
//! Mean iterations of the same inputs: `cargo run --release --example iterations`.
//!
//! ```text
//! cargo bench --bench gjk -- --warm-up-time 1 --measurement-time 3 [filter]
//! benches/callgrind.sh gjk [filter]
//! ```

#[allow(dead_code)]
mod common;

use std::hint::black_box;

use common::harness::{Group, Harness};
use common::{Desc, Iso, acceleration_pairs, coherent_poses, gjk_pairs, iso, random_poses, scale};
use nalgebra::{Isometry3, Unit};
use nphase_gjk::{Acceleration, GjkInput, GjkOptions, SimplexCache, closest_points};
use nphase_math::Real;
use nphase_shapes::{Cone, ConvexPolyhedron, Cuboid, Cylinder, SupportMap};

/// Trajectories per batch and frames per trajectory (each replayed forth and back).
const TRAJECTORIES: usize = 8;
const FRAMES: usize = 16;
/// Random poses per batch of the acceleration groups.
const ACCEL_POSES: usize = 128;

/// The two gaps, in units of the pair's scale.
pub const GAPS: [(&str, f64); 2] = [("sep", 0.2), ("near", 1e-3)];

/// nphase cold: every query starts from an empty cache.
fn nphase_cold<T, A, B>(
    (a, radius_a): (A, T),
    (b, radius_b): (B, T),
    poses: Vec<Isometry3<T>>,
    options: GjkOptions,
) -> impl FnMut()
where
    T: Real,
    A: SupportMap<T>,
    B: SupportMap<T>,
{
    move || {
        for pos12 in &poses {
            let input = GjkInput::new(&a, &b, *black_box(pos12))
                .with_radii(radius_a, radius_b)
                .with_options(options);
            let mut cache = SimplexCache::EMPTY;
            black_box(closest_points(&input, &mut cache));
        }
    }
}

/// nphase warm: each trajectory keeps its cache from one frame to the next.
fn nphase_warm<T, A, B>(
    (a, radius_a): (A, T),
    (b, radius_b): (B, T),
    trajectories: Vec<Vec<Isometry3<T>>>,
) -> impl FnMut()
where
    T: Real,
    A: SupportMap<T>,
    B: SupportMap<T>,
{
    let mut caches = vec![SimplexCache::EMPTY; trajectories.len()];
    move || {
        for (poses, cache) in trajectories.iter().zip(&mut caches) {
            for pos12 in poses {
                let input = GjkInput::new(&a, &b, *black_box(pos12)).with_radii(radius_a, radius_b);
                black_box(closest_points(&input, cache));
            }
        }
    }
}

/// parry's GJK, cold, for parry crate `$parry` of scalar `$real`.
macro_rules! parry_gjk {
    ($name:ident, $parry:ident, $real:ty) => {
        fn $name<A, B>(a: A, b: B, poses: Vec<Isometry3<$real>>) -> impl FnMut()
        where
            A: $parry::shape::SupportMap,
            B: $parry::shape::SupportMap,
        {
            use $parry::query::gjk;
            let mut simplex = gjk::VoronoiSimplex::new();
            move || {
                for pos12 in &poses {
                    let pos12 = black_box(pos12);
                    // As parry's `contact_support_map_support_map` starts.
                    let dir =
                        Unit::try_new(pos12.translation.vector, $parry::math::DEFAULT_EPSILON)
                            .unwrap_or(nalgebra::Vector3::x_axis());
                    simplex.reset(gjk::CSOPoint::from_shapes(pos12, &a, &b, &dir));
                    black_box(gjk::closest_points(
                        pos12,
                        &a,
                        &b,
                        <$real>::MAX,
                        true,
                        &mut simplex,
                    ));
                }
            }
        }
    };
}

parry_gjk!(parry_gjk32, parry3d, f32);
parry_gjk!(parry_gjk64, parry3d_f64, f64);

/// The nphase core of a shape of the GJK pairs, with its radius, by concrete type.
enum Concrete<T: Real> {
    Cuboid(Cuboid<T>),
    Segment(nphase_shapes::Segment<T>, T),
    Hull(Box<ConvexPolyhedron<T>>),
    Cylinder(Cylinder<T>),
    Cone(Cone<T>),
}

fn concrete<T: Real>(d: &Desc) -> Concrete<T> {
    match d.nphase::<T>() {
        nphase_shapes::Shape::Cuboid(c) => Concrete::Cuboid(c),
        nphase_shapes::Shape::Capsule(c) => Concrete::Segment(c.segment(), c.radius()),
        nphase_shapes::Shape::Convex(c) => Concrete::Hull(Box::new((*c).clone())),
        nphase_shapes::Shape::Cylinder(c) => Concrete::Cylinder(c),
        nphase_shapes::Shape::Cone(c) => Concrete::Cone(c),
        other => panic!("no GJK case for {other:?}"),
    }
}

/// Calls `$body` with `$a` and `$b` bound to the concrete nphase cores (with radii) of `$da`,
/// `$db`: one monomorphised copy per shape-type pair of the bench.
macro_rules! with_cores {
    ($t:ty, $da:expr, $db:expr, |$a:ident, $b:ident| $body:expr) => {
        match (concrete::<$t>($da), concrete::<$t>($db)) {
            (Concrete::Cuboid(x), Concrete::Cuboid(y)) => {
                let ($a, $b) = ((x, <$t>::ZERO), (y, <$t>::ZERO));
                $body
            }
            (Concrete::Segment(x, r), Concrete::Cuboid(y)) => {
                let ($a, $b) = ((x, r), (y, <$t>::ZERO));
                $body
            }
            (Concrete::Hull(x), Concrete::Hull(y)) => {
                let ($a, $b) = ((*x, <$t>::ZERO), (*y, <$t>::ZERO));
                $body
            }
            (Concrete::Cylinder(x), Concrete::Cylinder(y)) => {
                let ($a, $b) = ((x, <$t>::ZERO), (y, <$t>::ZERO));
                $body
            }
            (Concrete::Cone(x), Concrete::Cone(y)) => {
                let ($a, $b) = ((x, <$t>::ZERO), (y, <$t>::ZERO));
                $body
            }
            (Concrete::Cylinder(x), Concrete::Cone(y)) => {
                let ($a, $b) = ((x, <$t>::ZERO), (y, <$t>::ZERO));
                $body
            }
            _ => panic!("no GJK case for {:?} – {:?}", $da, $db),
        }
    };
}

/// `fn $name(group, a, b, poses)`: registers the `parry` case of a GJK group, on parry's own
/// shape types (`common::$p`), with the cold GJK `$gjk`.
macro_rules! parry_cases {
    ($name:ident, $p:ident, $gjk:ident) => {
        fn $name(group: &mut Group<'static>, da: &Desc, db: &Desc, poses: &[Iso]) {
            use common::$p as p;
            let poses: Vec<_> = poses.iter().map(iso::<p::Real>).collect();
            match (da, db) {
                (Desc::Cuboid(x), Desc::Cuboid(y)) => {
                    group.case("parry", $gjk(p::cuboid(x), p::cuboid(y), poses))
                }
                (Desc::Capsule(h, r), Desc::Cuboid(y)) => {
                    group.case("parry", $gjk(p::capsule(*h, *r), p::cuboid(y), poses))
                }
                (Desc::Hull(_), Desc::Hull(_)) => {
                    group.case("parry", $gjk(p::hull(da), p::hull(db), poses))
                }
                _ => panic!("no parry GJK case for {da:?} – {db:?}"),
            };
        }
    };
}

parry_cases!(parry_cases32, p32, parry_gjk32);
parry_cases!(parry_cases64, p64, parry_gjk64);

fn main() {
    let mut harness = Harness::new();
    for (name, da, db) in gjk_pairs() {
        let scale = scale(&da, &db);
        for (gap, fraction) in GAPS {
            let trajectories = coherent_poses(&da, &db, fraction * scale, TRAJECTORIES, FRAMES, 7);
            let flat: Vec<Iso> = trajectories.iter().flatten().copied().collect();
            let queries = flat.len();

            let group = harness.group(&format!("gjk/{name}/{gap}/f32"), queries);
            let cold: Vec<Isometry3<f32>> = flat.iter().map(iso).collect();
            let warm: Vec<Vec<Isometry3<f32>>> = trajectories
                .iter()
                .map(|t| t.iter().map(iso).collect())
                .collect();
            with_cores!(f32, &da, &db, |a, b| group.case(
                "nphase_cold",
                nphase_cold(a, b, cold, GjkOptions::default())
            ));
            with_cores!(f32, &da, &db, |a, b| group
                .case("nphase_warm", nphase_warm(a, b, warm)));
            parry_cases32(group, &da, &db, &flat);

            let group = harness.group(&format!("gjk/{name}/{gap}/f64"), queries);
            with_cores!(f64, &da, &db, |a, b| group.case(
                "nphase_cold",
                nphase_cold(a, b, flat.clone(), GjkOptions::default())
            ));
            with_cores!(f64, &da, &db, |a, b| group
                .case("nphase_warm", nphase_warm(a, b, trajectories.clone())));
            parry_cases64(group, &da, &db, &flat);
        }
    }
    for (name, da, db) in acceleration_pairs() {
        let scale = scale(&da, &db);
        for (gap, fraction) in GAPS {
            let poses = random_poses(&da, &db, fraction * scale, ACCEL_POSES, 11);
            let poses32: Vec<Isometry3<f32>> = poses.iter().map(iso).collect();
            let variants = [
                ("plain", Acceleration::None),
                ("nesterov_norm", Acceleration::Nesterov { normalize: true }),
                ("nesterov_raw", Acceleration::Nesterov { normalize: false }),
            ];
            let group = harness.group(&format!("gjk_accel/{name}/{gap}/f32"), poses.len());
            for (id, acceleration) in variants {
                let options = GjkOptions {
                    acceleration,
                    ..GjkOptions::default()
                };
                with_cores!(f32, &da, &db, |a, b| group
                    .case(id, nphase_cold(a, b, poses32.clone(), options)));
            }
            let group = harness.group(&format!("gjk_accel/{name}/{gap}/f64"), poses.len());
            for (id, acceleration) in variants {
                let options = GjkOptions {
                    acceleration,
                    ..GjkOptions::default()
                };
                with_cores!(f64, &da, &db, |a, b| group
                    .case(id, nphase_cold(a, b, poses.clone(), options)));
            }
        }
    }
    harness.run();
}
