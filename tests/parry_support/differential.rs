// The differential tests for one precision, included twice by `parry_support.rs`: with
// `parry = parry3d, Real = f32` and with `parry = parry3d_f64, Real = f64`.

use crate::{Params, directions, margin, params, random_unit};
use nalgebra::{Point3, Vector3};
use nphase_shapes as ns;
use ns::SupportMap as NphaseSupport;
use parry::shape as ps;
use parry::shape::SupportMap as ParrySupport;
use rand::SeedableRng;
use rand_pcg::Pcg64;
type V = Vector3<Real>;
type P = Point3<Real>;

fn v(x: &Vector3<f64>) -> V {
    x.map(lit)
}
fn p(x: &Vector3<f64>) -> P {
    P::from(v(x))
}
fn wide(x: &P) -> Vector3<f64> {
    x.coords.map(w)
}
fn unit(d: &V) -> Vector3<f64> {
    let d = d.map(w);
    (d / d.amax()).normalize()
}
/// `x` in this precision (`as` would be a no-op cast in the f64 copy, which clippy rejects).
fn lit(x: f64) -> Real {
    nphase_math::Real::lit(x)
}
/// `x` widened to f64 (exact).
fn w(x: Real) -> f64 {
    nphase_math::Real::as_f64(x)
}
/// The machine epsilon of this precision.
fn epsilon() -> f64 {
    w(<Real as nphase_math::Real>::TOLERANCES.epsilon)
}

/// Statistics of one shape type's comparisons.
#[derive(Default)]
struct Tally {
    values: usize,
    points: usize,
}

/// Compares the four ways of asking for a support point — nphase natively, parry
/// natively, nphase shape through parry's trait, parry shape through nphase's
/// trait — along every direction. `candidates` are the support values of the
/// shape's possible maximisers along a unit direction (vertices, the apex and the
/// rim point, …): when the best beats the runner-up by more than the margin the
/// maximiser is unique and the points must agree.
fn compare<N, Q>(
    what: &str,
    ours: &N,
    theirs: &Q,
    scale: f64,
    dirs: &[Vector3<f64>],
    candidates: impl Fn(&Vector3<f64>) -> Vec<f64>,
    tally: &mut Tally,
) where
    N: NphaseSupport<Real> + ParrySupport,
    Q: NphaseSupport<Real> + ParrySupport,
{
    let tol = margin(epsilon(), scale);
    for d in dirs {
        let d = v(d);
        let du = unit(&d);
        let native = NphaseSupport::local_support_point(ours, &d);
        let parry = ParrySupport::local_support_point(theirs, &d);
        let ours_via_parry = ParrySupport::local_support_point(ours, &d);
        let theirs_via_nphase = NphaseSupport::local_support_point(theirs, &d);
        let reference = wide(&native).dot(&du);
        for (how, q) in [
            ("parry", parry),
            ("nphase shape through parry's trait", ours_via_parry),
            ("parry shape through nphase's trait", theirs_via_nphase),
        ] {
            let value = wide(&q).dot(&du);
            assert!(
                (value - reference).abs() <= tol,
                "{what} along {d:?}: nphase {native:?} (x·d = {reference}), \
                 {how} {q:?} (x·d = {value})"
            );
        }
        tally.values += 1;
        let mut c = candidates(&du);
        c.sort_by(|a, b| b.total_cmp(a));
        if c.len() == 1 || c[0] - c[1] > tol {
            for (how, q) in [("parry", parry), ("parry via nphase", theirs_via_nphase)] {
                assert!(
                    (wide(&q) - wide(&native)).amax() <= tol,
                    "{what} along {d:?}: unique maximiser, nphase {native:?}, \
                     {how} {q:?}"
                );
            }
            tally.points += 1;
        }
        assert_eq!(
            native, ours_via_parry,
            "the adapter must not change nphase's answer"
        );
        // The posed queries of parry's trait (its default methods) on nphase
        // shapes, against parry's own shape at the same pose.
        let pose = parry::math::Isometry::new(
            v(&Vector3::new(1.0, -2.0, 3.0)),
            v(&Vector3::new(0.3, 0.2, -0.4)),
        );
        let world_ours = ParrySupport::support_point(ours, &pose, &d);
        let world_theirs = ParrySupport::support_point(theirs, &pose, &d);
        let gap = (wide(&world_ours) - wide(&world_theirs)).dot(&du);
        assert!(
            gap.abs() <= margin(epsilon(), scale + 4.0),
            "{what} posed along {d:?}: {world_ours:?} vs {world_theirs:?}"
        );
    }
}

/// Per-type guard: most comparisons must be of unique maximisers (else the point
/// comparison proves little), and some must be ties (else the tie rules are
/// untested) where the type has faces or edges.
fn guard(what: &str, tally: &Tally, expect_ties: bool) {
    assert!(
        tally.values >= 2000,
        "{what}: only {} directions",
        tally.values
    );
    assert!(
        tally.points * 10 >= tally.values * 6,
        "{what}: only {} of {} maximisers unique",
        tally.points,
        tally.values
    );
    if expect_ties {
        assert!(
            tally.points < tally.values,
            "{what}: no tie among {} directions",
            tally.values
        );
    }
}

const SHAPES: usize = 24;
const DIRECTIONS: usize = 500;

fn run(seed: u64, mut f: impl FnMut(&Params, &[Vector3<f64>])) {
    let mut rng = Pcg64::seed_from_u64(seed);
    for _ in 0..SHAPES {
        let params = params(&mut rng);
        let dirs = directions(&mut rng, DIRECTIONS);
        f(&params, &dirs);
    }
}

fn dot_all(points: &[Vector3<f64>], d: &Vector3<f64>) -> Vec<f64> {
    points.iter().map(|x| x.dot(d)).collect()
}

fn cuboid_vertices(h: &Vector3<f64>) -> Vec<Vector3<f64>> {
    (0..8)
        .map(|i| Vector3::from_fn(|k, _| if i >> k & 1 == 0 { h[k] } else { -h[k] }))
        .collect()
}

/// The support values of the cylinder's two rim points in the azimuth of `d`, and of
/// the cap centre: when `d` is within the margin of the axis every point of the cap
/// nearly maximises, a tie.
fn cylinder_candidates(hh: f64, r: f64, d: &Vector3<f64>) -> Vec<f64> {
    let radial = d.x.hypot(d.z);
    let along = hh * d.y.abs();
    vec![along + r * radial, -along + r * radial, along]
}

/// The support values of the cone's apex, its rim point in the azimuth of `d` and
/// its base centre (a tie with the rim when `d` is within the margin of −y).
fn cone_candidates(hh: f64, r: f64, d: &Vector3<f64>) -> Vec<f64> {
    let radial = d.x.hypot(d.z);
    vec![hh * d.y, -hh * d.y + r * radial, -hh * d.y]
}

#[test]
fn ball() {
    let mut tally = Tally::default();
    run(1, |pr, dirs| {
        let r = lit(pr.radius);
        let ours = ns::Ball::new(r).expect("valid");
        let theirs = ps::Ball::new(r);
        compare(
            "ball",
            &ours,
            &theirs,
            pr.radius,
            dirs,
            |_| vec![0.0],
            &mut tally,
        );
    });
    guard("ball", &tally, false);
}

#[test]
fn cuboid() {
    let mut tally = Tally::default();
    run(2, |pr, dirs| {
        let h = v(&pr.half_extents);
        let ours = ns::Cuboid::new(h).expect("valid");
        let theirs = ps::Cuboid::new(h);
        let vertices = cuboid_vertices(&h.map(w));
        let scale = pr.half_extents.norm();
        compare(
            "cuboid",
            &ours,
            &theirs,
            scale,
            dirs,
            |d| dot_all(&vertices, d),
            &mut tally,
        );
    });
    guard("cuboid", &tally, true);
}

#[test]
fn capsule() {
    let mut tally = Tally::default();
    run(3, |pr, dirs| {
        let (hh, r) = (lit(pr.half_height), lit(pr.radius));
        let ours = ns::Capsule::new(hh, r).expect("valid");
        let theirs = ps::Capsule::new_y(hh, r);
        let (hh, r) = (w(hh), w(r));
        compare(
            "capsule",
            &ours,
            &theirs,
            hh + r,
            dirs,
            |d| vec![hh * d.y + r, -hh * d.y + r],
            &mut tally,
        );
    });
    guard("capsule", &tally, true);
}

#[test]
fn cylinder() {
    let mut tally = Tally::default();
    run(4, |pr, dirs| {
        let (hh, r) = (lit(pr.half_height), lit(pr.radius));
        let ours = ns::Cylinder::new(hh, r).expect("valid");
        let theirs = ps::Cylinder::new(hh, r);
        let (hh, r) = (w(hh), w(r));
        compare(
            "cylinder",
            &ours,
            &theirs,
            hh + r,
            dirs,
            |d| cylinder_candidates(hh, r, d),
            &mut tally,
        );
    });
    guard("cylinder", &tally, true);
}

#[test]
fn cone() {
    let mut tally = Tally::default();
    run(5, |pr, dirs| {
        let (hh, r) = (lit(pr.half_height), lit(pr.radius));
        let ours = ns::Cone::new(hh, r).expect("valid");
        let theirs = ps::Cone::new(hh, r);
        let (hh, r) = (w(hh), w(r));
        compare(
            "cone",
            &ours,
            &theirs,
            hh + r,
            dirs,
            |d| cone_candidates(hh, r, d),
            &mut tally,
        );
    });
    guard("cone", &tally, true);
}

#[test]
fn segment() {
    let mut tally = Tally::default();
    run(6, |pr, dirs| {
        let ours = ns::Segment::new(p(&pr.a), p(&pr.b)).expect("valid");
        let theirs = ps::Segment::new(p(&pr.a), p(&pr.b));
        let ends = [wide(&p(&pr.a)), wide(&p(&pr.b))];
        let scale = pr.a.norm().max(pr.b.norm());
        compare(
            "segment",
            &ours,
            &theirs,
            scale,
            dirs,
            |d| dot_all(&ends, d),
            &mut tally,
        );
    });
    guard("segment", &tally, false);
}

#[test]
fn triangle() {
    let mut tally = Tally::default();
    run(7, |pr, dirs| {
        let (a, b, c) = (p(&pr.a), p(&pr.b), p(&pr.c));
        let ours = ns::Triangle::new(a, b, c).expect("valid");
        let theirs = ps::Triangle::new(a, b, c);
        let corners = [wide(&a), wide(&b), wide(&c)];
        let scale = corners.iter().map(|x| x.norm()).fold(0.0, f64::max);
        compare(
            "triangle",
            &ours,
            &theirs,
            scale,
            dirs,
            |d| dot_all(&corners, d),
            &mut tally,
        );
    });
    guard("triangle", &tally, true);
}

#[test]
fn convex_polyhedron() {
    let mut tally = Tally::default();
    run(8, |pr, dirs| {
        let cloud: Vec<P> = pr.cloud.iter().map(p).collect();
        let ours = ns::ConvexPolyhedron::from_points(&cloud).expect("valid");
        let theirs = ps::ConvexPolyhedron::from_convex_hull(&cloud)
            .expect("a random cloud of ≥ 4 points is a solid");
        let wide_cloud: Vec<_> = cloud.iter().map(wide).collect();
        let scale = wide_cloud.iter().map(|x| x.norm()).fold(0.0, f64::max);
        compare(
            "convex polyhedron",
            &ours,
            &theirs,
            scale,
            dirs,
            |d| dot_all(&wide_cloud, d),
            &mut tally,
        );
    });
    guard("convex polyhedron", &tally, true);
}

/// Round shapes: parry's `RoundShape` of each inner shape the adapter covers, against
/// nphase's `Round` of the same inner shape. The candidates are the inner shape's,
/// shifted by the border radius (a tie of the inner shape is a tie of the rounded).
#[test]
fn round_shapes() {
    let mut tally = Tally::default();
    run(9, |pr, dirs| {
        let border = lit(pr.border);
        let br = w(border);
        let h = v(&pr.half_extents);
        let vertices = cuboid_vertices(&h.map(w));
        let ours = ns::Round::new(ns::Cuboid::new(h).expect("valid"), border).expect("valid");
        let theirs = ps::RoundShape {
            inner_shape: ps::Cuboid::new(h),
            border_radius: border,
        };
        let scale = pr.half_extents.norm() + br;
        compare(
            "round cuboid",
            &ours,
            &theirs,
            scale,
            dirs,
            |d| dot_all(&vertices, d),
            &mut tally,
        );

        let (hh, r) = (lit(pr.half_height), lit(pr.radius));
        let (hh64, r64) = (w(hh), w(r));
        let ours = ns::Round::new(ns::Cylinder::new(hh, r).expect("valid"), border).expect("valid");
        let theirs = ps::RoundShape {
            inner_shape: ps::Cylinder::new(hh, r),
            border_radius: border,
        };
        compare(
            "round cylinder",
            &ours,
            &theirs,
            hh64 + r64 + br,
            dirs,
            |d| cylinder_candidates(hh64, r64, d),
            &mut tally,
        );

        let ours = ns::Round::new(ns::Cone::new(hh, r).expect("valid"), border).expect("valid");
        let theirs = ps::RoundShape {
            inner_shape: ps::Cone::new(hh, r),
            border_radius: border,
        };
        compare(
            "round cone",
            &ours,
            &theirs,
            hh64 + r64 + br,
            dirs,
            |d| cone_candidates(hh64, r64, d),
            &mut tally,
        );

        let (a, b, c) = (p(&pr.a), p(&pr.b), p(&pr.c));
        let ours =
            ns::Round::new(ns::Triangle::new(a, b, c).expect("valid"), border).expect("valid");
        let theirs = ps::RoundShape {
            inner_shape: ps::Triangle::new(a, b, c),
            border_radius: border,
        };
        let corners = [wide(&a), wide(&b), wide(&c)];
        let scale = corners.iter().map(|x| x.norm()).fold(0.0, f64::max) + br;
        compare(
            "round triangle",
            &ours,
            &theirs,
            scale,
            dirs,
            |d| dot_all(&corners, d),
            &mut tally,
        );

        let cloud: Vec<P> = pr.cloud.iter().map(p).collect();
        let ours = ns::Round::new(
            ns::ConvexPolyhedron::from_points(&cloud).expect("valid"),
            border,
        )
        .expect("valid");
        let theirs = ps::RoundShape {
            inner_shape: ps::ConvexPolyhedron::from_convex_hull(&cloud).expect("solid"),
            border_radius: border,
        };
        let wide_cloud: Vec<_> = cloud.iter().map(wide).collect();
        let scale = wide_cloud.iter().map(|x| x.norm()).fold(0.0, f64::max) + br;
        compare(
            "round convex",
            &ours,
            &theirs,
            scale,
            dirs,
            |d| dot_all(&wide_cloud, d),
            &mut tally,
        );
    });
    guard("round shapes", &tally, true);
}

/// The `Shape` enum and a core through parry's trait answer as the shapes they hold.
#[test]
fn shape_enum_and_core_through_parrys_trait() {
    let mut rng = Pcg64::seed_from_u64(10);
    let h = v(&Vector3::new(0.5, 1.0, 2.0));
    let shape = ns::Shape::round(ns::Shape::Cuboid(ns::Cuboid::new(h).expect("valid")), 0.25)
        .expect("valid");
    let theirs = ps::RoundShape {
        inner_shape: ps::Cuboid::new(h),
        border_radius: 0.25,
    };
    let (core, _) = shape.core();
    for d in directions(&mut rng, 500) {
        let d = v(&d);
        let du = unit(&d);
        let a = wide(&ParrySupport::local_support_point(&shape, &d)).dot(&du);
        let b = wide(&ParrySupport::local_support_point(&theirs, &d)).dot(&du);
        assert!((a - b).abs() <= margin(epsilon(), 3.0), "{d:?}: {a} vs {b}");
        let core_value = wide(&ParrySupport::local_support_point(&core, &d)).dot(&du);
        assert!(
            (a - core_value - 0.25).abs() <= margin(epsilon(), 3.0),
            "{d:?}: core {core_value}"
        );
    }
}

/// The documented differences: zero and tiny directions (see the module doc).
#[test]
fn parry_differs_where_documented() {
    let r: Real = 1.5;
    let ours = ns::Ball::new(r).expect("valid");
    let theirs = ps::Ball::new(r);
    let round = ps::RoundShape {
        inner_shape: ps::Cuboid::new(V::repeat(1.0)),
        border_radius: r,
    };
    let zero = V::zeros();
    // parry: NaN for a zero direction (ball and round shapes), and NaN or infinity
    // for a tiny one whose squared length underflows.
    assert!(ParrySupport::local_support_point(&theirs, &zero).x.is_nan());
    assert!(ParrySupport::local_support_point(&round, &zero).x.is_nan());
    let tiny = V::new(Real::MIN_POSITIVE, 0.0, 0.0);
    assert!(
        ParrySupport::local_support_point(&theirs, &tiny)
            .iter()
            .any(|c| !c.is_finite())
    );
    assert_eq!(
        NphaseSupport::local_support_point(&ours, &tiny),
        P::new(r, 0.0, 0.0)
    );
    assert_eq!(
        NphaseSupport::local_support_point(&theirs, &tiny),
        P::new(r, 0.0, 0.0)
    );
    // nphase, natively, through parry's trait, and parry's shapes through nphase's
    // trait: the +y point.
    let top = P::new(0.0, r, 0.0);
    assert_eq!(NphaseSupport::local_support_point(&ours, &zero), top);
    assert_eq!(ParrySupport::local_support_point(&ours, &zero), top);
    assert_eq!(NphaseSupport::local_support_point(&theirs, &zero), top);
    assert_eq!(
        NphaseSupport::local_support_point(&round, &zero),
        P::new(1.0, 1.0 + r, 1.0)
    );
    // parry's cylinder normalises the radial part of `d` through its squared length:
    // when that is subnormal the rim point comes out off the rim. nphase rescales.
    let d = V::new(Real::MIN_POSITIVE.sqrt() * 1e-3, 1.0, 0.0);
    let ours = ns::Cylinder::new(1.0, r).expect("valid");
    let theirs = ps::Cylinder::new(1.0, r);
    let rim = NphaseSupport::local_support_point(&ours, &d);
    assert_eq!(rim, P::new(r, 1.0, 0.0));
    let off = ParrySupport::local_support_point(&theirs, &d);
    assert!((w(off.x) - w(r)).abs() > 1e3 * epsilon(), "{off:?}");
}

/// Tiny directions (their squared length underflows: `√MIN_POSITIVE` and below, to
/// the smallest subnormal) and huge ones (their squared length overflows): nphase's
/// ball and parry's ball *through the adapter* both answer `r·unit(d)` exactly.
/// parry's ball alone does not (NaN, or a point off the sphere), which is why the
/// adapter normalises robustly before handing the direction to parry.
///
/// Regression: the adapter used to pass `d` through unchanged unless `|d|²` was
/// exactly zero, so a direction of length 1e-300 (f64) or 1e-23 (f32) — whose `|d|²`
/// underflows to zero — came back as the +y point whatever its direction, and a
/// huge one as the origin. It now hands parry `normalize_robust(d)`.
#[test]
fn tiny_and_huge_directions_through_the_adapter() {
    let r: Real = 1.5;
    let ours = ns::Ball::new(r).expect("valid");
    let theirs = ps::Ball::new(r);
    let round = ps::RoundShape {
        inner_shape: ps::Cuboid::new(V::repeat(1.0)),
        border_radius: r,
    };
    let tol = margin(epsilon(), 3.0);
    let mut rng = Pcg64::seed_from_u64(11);
    let min = Real::MIN_POSITIVE;
    for m in [
        min.sqrt() * 4.0,
        min.sqrt() / 4.0,
        min,
        min * Real::EPSILON,
        Real::MAX.sqrt() * 4.0,
        Real::MAX / 4.0,
    ] {
        for _ in 0..20 {
            let d = v(&random_unit(&mut rng)) * m;
            if d.amax() == 0.0 {
                continue;
            }
            let du = unit(&d);
            let want = du * w(r);
            for (how, got) in [
                ("nphase ball", NphaseSupport::local_support_point(&ours, &d)),
                (
                    "parry ball through nphase's trait",
                    NphaseSupport::local_support_point(&theirs, &d),
                ),
            ] {
                assert!(
                    (wide(&got) - want).amax() <= tol,
                    "{how} along {d:?}: {got:?}, want {want:?}"
                );
            }
            let got = wide(&NphaseSupport::local_support_point(&round, &d));
            let value = got.dot(&du);
            let want = du.abs().sum() + w(r);
            assert!(
                (value - want).abs() <= tol,
                "parry round cuboid through nphase's trait along {d:?}: {got:?}, x·d = {value}, want {want}"
            );
        }
    }
}
