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

/// Identical boxes at the same pose: the depth is the box's smallest width (an exact answer).
/// The curved cases are [`coincident_curved`]'s.
fn coincident<T: Real>() {
    let at = pose([1.0, 2.0, 3.0], [0.3, -0.2, 0.1]);
    let a = Posed {
        shape: cuboid::<T>([0.5, 0.3, 0.2]),
        pose: at,
    };
    let b = Posed {
        shape: a.shape.clone(),
        pose: at,
    };
    let tol = tolerance(&a, &b, false);
    let c = query(&a, &b, 0.0).expect("coincident shapes get a contact");
    check_contact(&a, &b, &c, -0.4, tol);
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

/// The meridian profile of a body of revolution about +y (half-height `h`, radius `r`): its
/// support value along a direction at angle `φ` from +y (any sign: the profile is symmetric).
#[derive(Clone, Copy)]
enum Profile {
    Cylinder(f64, f64),
    Cone(f64, f64),
}

impl Profile {
    fn shape<T: Real>(self) -> Shape<T> {
        match self {
            Profile::Cylinder(h, r) => cylinder(h, r),
            Profile::Cone(h, r) => cone(h, r),
        }
    }

    /// `h(φ)`: cylinder `r|sin φ| + h|cos φ|`; cone (apex at +h) `max(h cos φ, r|sin φ| −
    /// h cos φ)`.
    fn support(self, phi: f64) -> f64 {
        let (s, c) = phi.sin_cos();
        match self {
            Profile::Cylinder(h, r) => r * s.abs() + h * c.abs(),
            Profile::Cone(h, r) => (h * c).max(r * s.abs() - h * c),
        }
    }

    /// The angle from +y where the support point jumps (the profile's kink): π/2 for the
    /// cylinder's rims, `atan(2h/r)` for the cone's apex against its rim.
    fn kink(self) -> f64 {
        match self {
            Profile::Cylinder(..) => core::f64::consts::FRAC_PI_2,
            Profile::Cone(h, r) => (2.0 * h).atan2(r),
        }
    }

    /// The meridian section, a convex polygon in (radial, axial) coordinates, counter-clockwise.
    fn section(self) -> Vec<[f64; 2]> {
        match self {
            Profile::Cylinder(h, r) => vec![[r, -h], [r, h], [-r, h], [-r, -h]],
            Profile::Cone(h, r) => vec![[r, -h], [0.0, h], [-r, -h]],
        }
    }
}

/// The exact depth of `a` (at the origin) against `b` moved by `offset` (same orientation):
/// the distance from `offset` to the boundary of `A − B`, a body of revolution whose meridian
/// section is the Minkowski sum of A's section and B's mirrored one (support functions add, and
/// the point of the boundary nearest to `offset` lies in `offset`'s meridian plane). For a point
/// inside a convex polygon that distance is the smallest, over the edges, of the edge line's
/// offset minus the point's projection on its outward normal.
fn shifted_depth(a: Profile, b: Profile, offset: &Vector<f64>) -> f64 {
    let mut points = Vec::new();
    for p in a.section() {
        for q in b.section() {
            points.push([p[0] - q[0], p[1] - q[1]]);
        }
    }
    // The convex hull of the sums (gift wrapping; a dozen points).
    let start = (0..points.len())
        .min_by(|&i, &j| points[i].partial_cmp(&points[j]).expect("finite"))
        .expect("points");
    let mut hull = vec![start];
    loop {
        let last = points[*hull.last().expect("non-empty")];
        let mut next = (start + 1) % points.len();
        for (k, p) in points.iter().enumerate() {
            let (u, v) = (
                [points[next][0] - last[0], points[next][1] - last[1]],
                [p[0] - last[0], p[1] - last[1]],
            );
            let cross = u[0] * v[1] - u[1] * v[0];
            let longer = u[0] * u[0] + u[1] * u[1] < v[0] * v[0] + v[1] * v[1];
            if cross < 0.0 || (cross == 0.0 && longer) {
                next = k;
            }
        }
        if next == start {
            break;
        }
        hull.push(next);
    }
    let y = offset.y;
    let radial = (offset.x * offset.x + offset.z * offset.z).sqrt();
    (0..hull.len())
        .map(|i| {
            let (p, q) = (points[hull[i]], points[hull[(i + 1) % hull.len()]]);
            let (dx, dy) = (q[0] - p[0], q[1] - p[1]);
            let len = (dx * dx + dy * dy).sqrt();
            let normal = [dy / len, -dx / len];
            normal[0] * p[0] + normal[1] * p[1] - (normal[0] * radial + normal[1] * y)
        })
        .fold(f64::INFINITY, f64::min)
}

/// The exact depth of `a` against `b` turned about their common centre so that B's axis is at
/// angle `tilt` from A's. With `F(n) = h_A(n) + h_B(−n)` and `β` the angle from `n` to B's
/// reversed axis, `F` depends on `∠(n, A's axis)` and `β` only; a minimum inside the angle pairs
/// a unit `n` realises is a kink of both profiles (feasible when `|α − β| ≤ π − tilt ≤ α + β ≤
/// π + tilt`), and on their boundary `n` lies in the plane of the axes, where
/// `F(ω) = h_A(ω) + h_B(ω + π − tilt)` is a sinusoid between the profiles' breakpoints
/// (0, π, ±kink relative to each axis), positive and therefore concave: its minimum is at one of
/// them.
fn tilted_depth(a: Profile, b: Profile, tilt: f64) -> f64 {
    use core::f64::consts::PI;
    let plane = |omega: f64| a.support(omega) + b.support(omega + PI - tilt);
    let mut best = f64::INFINITY;
    for (at, kink) in [(0.0, a.kink()), (tilt - PI, b.kink())] {
        for offset in [0.0, PI, kink, -kink, PI / 2.0, -PI / 2.0] {
            best = best.min(plane(at + offset));
        }
    }
    let (alpha, beta) = (a.kink(), b.kink());
    if (alpha - beta).abs() <= PI - tilt && PI - tilt <= alpha + beta && alpha + beta <= PI + tilt {
        best = best.min(a.support(alpha) + b.support(beta));
    }
    best
}

/// Coincident and nearly coincident curved shapes: cylinder–cylinder (radius below and above
/// the half-height), cone–cone and cylinder–cone, identical, shifted by 1e-12, 1e-9 and 1e-6
/// along a skew direction, and turned by 1e-9, 1e-8 and 1e-7 rad about a skew axis through the
/// common centre, placed away from the world origin; f64 and f32, checked against the exact
/// depths above at docs/accuracy.md's curved tolerance (1e-7 × scale in f64, 1e-4 × scale in
/// f32), and every answer converged.
///
/// What failed: the depth of such pairs is attained along a whole circle of normals (or, shifted
/// or turned, nearly so). EPA had to refine its polytope all around the circle before its lower
/// bound certified anything; it ended on its iteration cap, refining locally, 6× (cylinders) and
/// 31× (cones) the curved tolerance too deep, reported as an iteration limit. Why it passes:
/// cylinder and cone cores whose axes are parallel or meet go to the exact solution of
/// `collide/revolution.rs` (the plane of the axes and the profiles' kinks), certified by the
/// distance to the exactly parallel or meeting configuration.
fn coincident_curved<T: Real>() {
    let (h, r) = (0.5, 0.3);
    let pairs = [
        (
            "cylinders, r < h",
            Profile::Cylinder(h, r),
            Profile::Cylinder(h, r),
        ),
        (
            "cylinders, h < r",
            Profile::Cylinder(r, h),
            Profile::Cylinder(r, h),
        ),
        ("cones", Profile::Cone(h, r), Profile::Cone(h, r)),
        (
            "cylinder and cone",
            Profile::Cylinder(h, r),
            Profile::Cone(h, r),
        ),
    ];
    let skew = Vector::new(0.3, 0.5, 0.8).normalize();
    let at = Isometry::from_parts(
        Translation3::new(1.0, 2.0, 3.0),
        UnitQuaternion::from_euler_angles(0.3, -0.2, 0.1),
    );
    for (name, pa, pb) in pairs {
        let mut placements: Vec<(String, Isometry<f64>)> =
            vec![("identical".to_owned(), Isometry::identity())];
        for d in [1e-12, 1e-9, 1e-6] {
            let v = skew * d;
            placements.push((
                format!("shifted by {d:e}"),
                Isometry::translation(v.x, v.y, v.z),
            ));
        }
        for t in [1e-9, 1e-8, 1e-7] {
            let turn = UnitQuaternion::from_axis_angle(&Unit::new_normalize(skew), t);
            placements.push((
                format!("turned by {t:e}"),
                Isometry::from_parts(Translation3::identity(), turn),
            ));
        }
        for (placement, local) in placements {
            let axis: Vector<f64> = local.rotation * Vector::y();
            let tilt = axis.cross(&Vector::y()).norm().atan2(axis.y);
            let depth = if tilt > 0.0 {
                tilted_depth(pa, pb, tilt)
            } else {
                shifted_depth(pa, pb, &local.translation.vector)
            };
            let cast = |p: &Isometry<f64>| -> Isometry<T> { convert(*p) };
            let a = Posed {
                shape: pa.shape::<T>(),
                pose: cast(&at),
            };
            let b = Posed {
                shape: pb.shape::<T>(),
                pose: cast(&(at * local)),
            };
            let tol = tolerance(&a, &b, true);
            let c = query(&a, &b, 0.0).expect("overlapping shapes get a contact");
            let context = format!(
                "{name} {placement}, {}",
                if size_of::<T>() == 4 { "f32" } else { "f64" }
            );
            assert!(
                c.quality == nphase::pipeline::ContactQuality::Converged,
                "{context}: {:?}",
                c.quality
            );
            assert!(
                (c.dist.as_f64() + depth).abs() <= tol,
                "{context}: dist {} vs exact {}",
                c.dist,
                -depth
            );
            check_contact(&a, &b, &c, -depth, tol);
        }
    }
}

#[test]
fn coincident_cylinders_and_cones_converge_to_their_exact_depths() {
    coincident_curved::<f64>();
    coincident_curved::<f32>();
}
