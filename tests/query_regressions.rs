//! Regressions of the per-pair query (`nphase::query::contact`) on geometry where parry3d 0.25.3
//! fails, each with a paragraph saying what failed, where, and why nphase gets it right. Every
//! case runs in f64 and f32, with the tolerances of docs/accuracy.md (f64: 1e-9 × scale, 1e-7 × scale
//! with a cylinder or cone; f32: 1e-4 × scale; scale = the larger local half-diagonal).
//!
//! Expected values come from the independent oracle (`../shared/oracle`, `oracle truth`) or
//! from closed forms; a normal is checked by what makes it right — the support gap of the two
//! shapes along it equals the signed distance — so a valid normal is accepted where the
//! minimiser is not unique.

use nphase::math::nalgebra::{Quaternion, Translation3, Unit, UnitQuaternion, convert};
use nphase::math::{Isometry, Point, Real, Vector};
use nphase::pipeline::query::{Contact, contact};
use nphase::shapes::{Cone, Cuboid, Cylinder, Shape, SupportMap, Triangle};

/// A posed shape of the test, built in precision `T` from f64 data.
struct Posed<T: Real> {
    shape: Shape<T>,
    pose: Isometry<T>,
}

fn pose<T: Real>(translation: [f64; 3], euler: [f64; 3]) -> Isometry<T> {
    let [x, y, z] = translation.map(T::lit);
    let [r, p, w] = euler.map(T::lit);
    Isometry::from_parts(
        Translation3::new(x, y, z),
        UnitQuaternion::from_euler_angles(r, p, w),
    )
}

fn cuboid<T: Real>(h: [f64; 3]) -> Shape<T> {
    Shape::Cuboid(Cuboid::new(Vector::from(h.map(T::lit))).expect("valid cuboid"))
}

fn cylinder<T: Real>(half_height: f64, radius: f64) -> Shape<T> {
    Shape::Cylinder(Cylinder::new(T::lit(half_height), T::lit(radius)).expect("valid cylinder"))
}

fn cone<T: Real>(half_height: f64, radius: f64) -> Shape<T> {
    Shape::Cone(Cone::new(T::lit(half_height), T::lit(radius)).expect("valid cone"))
}

fn point<T: Real>(p: [f64; 3]) -> Point<T> {
    Point::from(p.map(T::lit))
}

/// The larger local half-diagonal of the two shapes (the oracle's `scale`).
fn scale<T: Real>(a: &Posed<T>, b: &Posed<T>) -> f64 {
    let half = |s: &Shape<T>| s.local_aabb().half_diagonal().as_f64();
    half(&a.shape).max(half(&b.shape))
}

/// docs/accuracy.md's tolerance for this pair in precision `T`.
fn tolerance<T: Real>(a: &Posed<T>, b: &Posed<T>, curved: bool) -> f64 {
    let relative = if size_of::<T>() == 4 {
        1e-4
    } else if curved {
        1e-7
    } else {
        1e-9
    };
    relative * scale(a, b)
}

fn query<T: Real>(a: &Posed<T>, b: &Posed<T>, prediction: f64) -> Option<Contact<T>> {
    contact(&a.pose, &a.shape, &b.pose, &b.shape, T::lit(prediction)).expect("finite input")
}

/// `h_A(n) + h_B(−n)`: minus the separation of the shapes along the world direction `n`.
fn support_gap<T: Real>(a: &Posed<T>, b: &Posed<T>, n: &Vector<T>) -> f64 {
    let h = |p: &Posed<T>, d: &Vector<T>| p.shape.support_point(&p.pose, d).coords.dot(d).as_f64();
    h(a, n) + h(b, &-n)
}

/// Checks a contact against a known signed distance: the distance, a unit normal along which
/// the support gap is that distance, and witness points with `p2 − p1 = dist · n`.
fn check_contact<T: Real>(a: &Posed<T>, b: &Posed<T>, c: &Contact<T>, dist: f64, tol: f64) {
    let n = c.normal1.into_inner();
    assert!(
        (c.dist.as_f64() - dist).abs() <= tol,
        "dist {} vs {dist} (tol {tol:e})",
        c.dist
    );
    assert!((n.norm().as_f64() - 1.0).abs() <= tol.max(1e-6));
    let gap = support_gap(a, b, &n);
    assert!(
        (gap + dist).abs() <= tol,
        "normal {n:?} is not a minimiser: support gap {gap} vs {}",
        -dist
    );
    let witness = ((c.point2 - c.point1) - n * c.dist).norm().as_f64();
    assert!(witness <= tol, "witness pair off dist·n by {witness:e}");
}

/// Two unit cubes side by side, faces flush (x = 1). parry3d 0.25.3 answers dist 0 but with
/// box 1's centre as the witness point and +y as the normal. nphase's GJK stops on the touch
/// test, EPA finds the flat face of the Minkowski difference that contains the origin, and its
/// normal is that face's: (1, 0, 0), with both witness points on the shared face.
fn flush_cuboids<T: Real>() {
    let a = Posed {
        shape: cuboid::<T>([0.5; 3]),
        pose: pose([0.5, 0.5, 0.5], [0.0; 3]),
    };
    let b = Posed {
        shape: cuboid::<T>([0.5; 3]),
        pose: pose([1.5, 0.5, 0.5], [0.0; 3]),
    };
    let tol = tolerance(&a, &b, false);
    let c = query(&a, &b, 0.0).expect("touching shapes get a contact");
    check_contact(&a, &b, &c, 0.0, tol);
    assert!(
        (c.normal1.x.as_f64() - 1.0).abs() <= tol,
        "normal {:?}",
        c.normal1
    );
    for p in [c.point1, c.point2] {
        let [x, y, z] = [p.x, p.y, p.z].map(|v| v.as_f64());
        assert!(
            (x - 1.0).abs() <= tol,
            "witness {p:?} not on the shared face"
        );
        assert!((-tol..=1.0 + tol).contains(&y) && (-tol..=1.0 + tol).contains(&z));
    }
}

#[test]
fn flush_cuboids_touch_on_their_shared_face() {
    flush_cuboids::<f64>();
    flush_cuboids::<f32>();
}

/// A cylinder tilted onto a thin slab rotated 0.2 rad about x. parry3d 0.25.3 reports the
/// shapes separated by 0.00285: its GJK accepts a lower bound it never certified. nphase runs
/// GJK to a closed duality gap (here it encloses the origin) and EPA on the cylinder's exact
/// support function to the curved-shape tolerance; the oracle's depth and normal are met.
fn cylinder_on_tilted_slab<T: Real>() {
    let a = Posed {
        shape: cylinder::<T>(0.5, 0.5),
        pose: pose([0.04483144, 0.48931825, 0.32123703], [0.15, 0.045, 0.105]),
    };
    let b = Posed {
        shape: cuboid::<T>([100.1, 0.1, 100.1]),
        pose: pose([0.0, -0.1, 0.0], [0.2, 0.0, 0.0]),
    };
    // Oracle truth (certified): dist −0.009999993505697136, normal (0, −0.98007, −0.19867).
    let c = query(&a, &b, 0.0).expect("penetrating shapes get a contact");
    // The slab's half-diagonal (~141.6) is the scale, which makes docs/accuracy.md's tolerance loose
    // here; hold the answer to the cylinder's own size instead.
    let tol = if size_of::<T>() == 4 { 1e-5 } else { 1e-9 };
    check_contact(&a, &b, &c, -0.009999993505697136, tol);
    let n = c.normal1.into_inner();
    assert!(
        (n - Vector::new(0.0, -0.9800665778412415, -0.19866933079506124).map(T::lit))
            .norm()
            .as_f64()
            <= tol.sqrt()
    );
}

#[test]
fn cylinder_on_tilted_slab_is_penetrating_with_the_oracles_depth() {
    cylinder_on_tilted_slab::<f64>();
    cylinder_on_tilted_slab::<f32>();
}

/// A tall cylinder against a thin box beside it, 61 units from the origin. parry3d 0.25.3 gets
/// the depth wrong. The pair is solved in the cylinder's frame (so the offset costs nothing)
/// and EPA converges on the cylinder's side: depth 0.019584 with the radial normal (no y part).
fn cylinder_beside_box<T: Real>() {
    let a = Posed {
        shape: cylinder::<T>(0.925, 0.5),
        pose: pose([10.97, 0.925, 61.02], [0.0; 3]),
    };
    let b = Posed {
        shape: cuboid::<T>([0.05, 0.75, 0.5]),
        pose: pose([11.50, 0.75, 60.5], [0.0; 3]),
    };
    let tol = tolerance(&a, &b, true);
    let c = query(&a, &b, 0.0).expect("penetrating shapes get a contact");
    check_contact(&a, &b, &c, -0.019583514021427828, tol);
    assert!(
        c.normal1.y.as_f64().abs() <= 1e-3,
        "normal {:?} is not radial",
        c.normal1
    );
}

#[test]
fn cylinder_beside_box_has_the_radial_normal() {
    cylinder_beside_box::<f64>();
    cylinder_beside_box::<f32>();
}

/// Two triangles, one flat at y = 1 and one vertical, whose closest points are 2.04e-7 apart,
/// queried with prediction 0.01. nphase's GJK certifies the tiny gap (a stall on these nearly
/// touching features goes to EPA, whose face normals do not suffer from the rounding) and the
/// contact is reported within the prediction distance with the oracle's distance.
fn triangles_within_prediction<T: Real>() {
    let a = Posed {
        shape: Shape::Triangle(
            Triangle::new(
                point::<T>([-13.174434, 1.0, 8.736801]),
                point::<T>([3.5251038, 1.0, 12.1]),
                point::<T>([3.2048466, 1.0, 12.218325]),
            )
            .expect("valid triangle"),
        ),
        pose: Isometry::identity(),
    };
    let b = Posed {
        shape: Shape::Triangle(
            Triangle::new(
                point::<T>([-1.63, 0.0, 11.19]),
                point::<T>([-2.349647, 0.0, 11.037681]),
                point::<T>([-2.349647, 1.0, 11.037681]),
            )
            .expect("valid triangle"),
        ),
        pose: Isometry::identity(),
    };
    let c = query(&a, &b, 0.01).expect("within the prediction distance");
    // Oracle truth: separated by 2.0373232878512226e-7.
    let tol = if size_of::<T>() == 4 {
        // The vertices themselves round by ~5e-7 in f32 at |x| ≈ 13.
        2e-6
    } else {
        tolerance(&a, &b, false)
    };
    check_contact(&a, &b, &c, 2.0373232878512226e-7, tol);
}

#[test]
fn nearly_touching_triangles_are_within_the_prediction() {
    triangles_within_prediction::<f64>();
    triangles_within_prediction::<f32>();
}

/// Identical shapes at the same pose: the depth is the shape's smallest width, and every normal
/// attaining it is valid. parry3d takes 6× longer on coincident cones than on offset ones. For
/// the cuboid the answer is exact; the cylinder's and the cone's minima are a whole valley
/// (every radial direction), where EPA cannot certify the global gap cheaply: after half its
/// budget it refines along the best normal found, which gives a valid answer in bounded work.
fn coincident<T: Real>() {
    let at = pose([1.0, 2.0, 3.0], [0.3, -0.2, 0.1]);
    // Cone of half-height h and radius r: the smallest width is 2r / √(1 + (r / 2h)²).
    let (h, r) = (0.5f64, 0.3f64);
    let cone_width = 2.0 * r / (1.0 + (r / (2.0 * h)).powi(2)).sqrt();
    let cases: [(Shape<T>, f64, bool); 3] = [
        (cuboid([0.5, 0.3, 0.2]), 0.4, false),
        (cylinder(0.5, 0.3), 0.6, true),
        (cone(h, r), cone_width, true),
    ];
    for (shape, width, curved) in cases {
        let a = Posed {
            shape: shape.clone(),
            pose: at,
        };
        let b = Posed { shape, pose: at };
        let tol = match (size_of::<T>() == 4, curved) {
            (true, _) => 1e-4 * scale(&a, &b),
            // The oracle itself certifies coincident cones only to 3.3e-5 (a valley);
            // nphase's local refinement is held to 1e-6 of the scale there.
            (false, true) => 1e-6 * scale(&a, &b),
            (false, false) => tolerance(&a, &b, false),
        };
        let c = query(&a, &b, 0.0).expect("coincident shapes get a contact");
        check_contact(&a, &b, &c, -width, tol);
    }
}

#[test]
fn coincident_identical_shapes_get_a_minimal_depth_normal() {
    coincident::<f64>();
    coincident::<f32>();
}

/// docs/accuracy.md's small-on-large tolerance for this pair: `1e-9 × small + 1e-12 × scale`
/// (f64) or `1e-4 × small + 5e-7 × scale` (f32), `small` the smaller local half-diagonal, with
/// the oracle's absolute term (1e-12, 1e-6).
fn small_on_large_tolerance<T: Real>(a: &Posed<T>, b: &Posed<T>) -> f64 {
    let half = |s: &Shape<T>| s.local_aabb().half_diagonal().as_f64();
    let small = half(&a.shape).min(half(&b.shape));
    if size_of::<T>() == 4 {
        1e-6 + 1e-4 * small + 5e-7 * scale(a, b)
    } else {
        1e-12 + 1e-9 * small + 1e-12 * scale(a, b)
    }
}

/// A cylinder (radius and half-height 0.5) tilted by 0.02–1.2 rad resting 0.01 deep on a rim
/// point on a slab of half-extents (100, 0.1, 100), in 2 000 seeded orientations of the slab, at
/// random places on its top face, both orders: the depth is the rim point's, 0.01, along the
/// slab's normal. In f32 one orientation came out with depth 0.0244 and a normal 50° off, and the
/// others' witness points were off by up to 7e-4 against the small-on-large tolerance (1.6e-4):
/// GJK's and EPA's tolerances were relative to the Minkowski difference's size (the slab's, 141)
/// instead of the cylinder's, so EPA stopped on facets of the cylinder's rim far coarser than
/// the cylinder, and a sliver face over the slab handed over an uncertified edge normal. The
/// tolerances are now relative to the smaller shape above a rounding floor of the coordinates,
/// an edge normal is certified by a support query before it replaces the face's, and a witness
/// pair off its planes is rebuilt from the separated pair's closest points; every orientation
/// meets the tolerance in both precisions.
fn cylinder_resting_on_slabs<T: Real>() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_pcg::Pcg64::seed_from_u64(14);
    let (depth, h, r) = (0.01, 0.5, 0.5);
    for _ in 0..2000 {
        let q: [f64; 4] = core::array::from_fn(|_| rng.random_range(-1.0..1.0));
        let slab_rotation =
            UnitQuaternion::from_quaternion(Quaternion::new(q[0], q[1], q[2], q[3]));
        let slab_pose = Isometry::from_parts(Translation3::identity(), slab_rotation);
        // The cylinder's axis tilted by `tilt` from the slab's normal; its lowest point lies
        // `h·cos(tilt) + r·sin(tilt)` below its centre.
        let tilt: f64 = rng.random_range(0.02..1.2);
        let heading: f64 = rng.random_range(0.0..6.3);
        let turn = UnitQuaternion::from_axis_angle(
            &Unit::new_normalize(Vector::new(heading.cos(), 0.0, heading.sin())),
            tilt,
        ) * UnitQuaternion::from_euler_angles(0.0, rng.random_range(0.0..6.3), 0.0);
        let on_face = Isometry::from_parts(
            Translation3::new(
                rng.random_range(-90.0..90.0),
                0.1 - depth + h * tilt.cos() + r * tilt.sin(),
                rng.random_range(-90.0..90.0),
            ),
            turn,
        );
        let cast = |p: &Isometry<f64>| -> Isometry<T> { convert(*p) };
        let slab = Posed {
            shape: cuboid::<T>([100.0, 0.1, 100.0]),
            pose: cast(&slab_pose),
        };
        let cylinder = Posed {
            shape: cylinder::<T>(0.5, 0.5),
            pose: cast(&(slab_pose * on_face)),
        };
        let up = slab_rotation * Vector::y();
        for (a, b, normal) in [(&slab, &cylinder, up), (&cylinder, &slab, -up)] {
            let tol = small_on_large_tolerance(a, b);
            let c = query(a, b, 0.0).expect("penetrating shapes get a contact");
            check_contact(a, b, &c, -depth, tol);
            let n = c.normal1.into_inner().map(|x| x.as_f64());
            assert!(
                (n - normal).norm() <= 1e-3,
                "normal {n:?} is not the slab's {normal:?}"
            );
            for (p, s) in [(c.point1, a), (c.point2, b)] {
                let n = if core::ptr::eq(s, a) { n } else { -n };
                let h = s
                    .shape
                    .support_point(&s.pose, &n.map(T::lit))
                    .coords
                    .map(|x| x.as_f64())
                    .dot(&n);
                let off = (h - p.coords.map(|x| x.as_f64()).dot(&n)).abs();
                assert!(off <= tol, "witness {p:?} is {off:e} off its support plane");
            }
        }
    }
}

#[test]
fn cylinder_resting_on_tilted_slabs_meets_the_small_on_large_tolerance() {
    cylinder_resting_on_slabs::<f64>();
    cylinder_resting_on_slabs::<f32>();
}
