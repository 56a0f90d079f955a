//! Differential test of GJK against parry3d-f64's `query::distance` and `query::closest_points`
//! on random separated pairs of every convex shape type, in f64.
//!
//! parry3d 0.25 is a reference with known weaknesses (it stops after 100 iterations, and its
//! curved-shape distances carry errors up to ~5e-6 of the scale — docs/performance.md), so the
//! pairs are kept clearly apart (a gap of 1e-3 to 1 × the scale) and the two libraries must
//! agree to 1e-8 × scale between polytopes, or 1e-5 × scale where a curved shape takes part
//! (parry's own error there: it runs GJK on the curved support of balls, capsules, cylinders
//! and cones, while nphase runs balls and capsules on their point and segment cores); the exact checks against the independent oracle are `tests/conformance.rs`.
//! Where they differ, nphase's distance is the smaller one (both are realised by points of the
//! shapes, so the smaller is the better upper bound). Both run on the same shapes (nphase's
//! shapes through the adapter, so the geometry is identical bit for bit).

use nphase::math::{Isometry, Point, Vector};
use nphase::pipeline::query;
use nphase::shapes::{Ball, Capsule, Cone, Cuboid, Cylinder, Segment, Shape, Triangle};
use parry3d_f64::shape::{
    Ball as PBall, Capsule as PCapsule, Cone as PCone, ConvexPolyhedron as PHull,
    Cuboid as PCuboid, Cylinder as PCylinder, Segment as PSegment, SharedShape,
    Triangle as PTriangle,
};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;

/// A random shape of kind `kind`, as nphase and parry shapes of the same geometry.
fn random_shape(rng: &mut Pcg64, kind: usize) -> (Shape<f64>, SharedShape) {
    let mut s = || rng.random_range(0.1..1.0);
    match kind {
        0 => {
            let r = s();
            (
                Shape::Ball(Ball::new(r).expect("valid")),
                SharedShape::new(PBall::new(r)),
            )
        }
        1 => {
            let h = Vector::new(s(), s(), s());
            (
                Shape::Cuboid(Cuboid::new(h).expect("valid")),
                SharedShape::new(PCuboid::new(h)),
            )
        }
        2 => {
            let (h, r) = (s(), s());
            (
                Shape::Capsule(Capsule::new(h, r).expect("valid")),
                SharedShape::new(PCapsule::new_y(h, r)),
            )
        }
        3 => {
            let (h, r) = (s(), s());
            (
                Shape::Cylinder(Cylinder::new(h, r).expect("valid")),
                SharedShape::new(PCylinder::new(h, r)),
            )
        }
        4 => {
            let (h, r) = (s(), s());
            (
                Shape::Cone(Cone::new(h, r).expect("valid")),
                SharedShape::new(PCone::new(h, r)),
            )
        }
        5 => {
            let (a, b) = (Point::new(s(), s(), s()), Point::new(-s(), -s(), s()));
            (
                Shape::Segment(Segment::new(a, b).expect("valid")),
                SharedShape::new(PSegment::new(a, b)),
            )
        }
        6 => {
            let (a, b, c) = (
                Point::new(s(), s(), 0.0),
                Point::new(-s(), s(), s()),
                Point::new(0.0, -s(), -s()),
            );
            (
                Shape::Triangle(Triangle::new(a, b, c).expect("valid")),
                SharedShape::new(PTriangle::new(a, b, c)),
            )
        }
        _ => {
            let points: Vec<Point<f64>> = (0..12)
                .map(|_| Point::new(s() - 0.55, s() - 0.55, s() - 0.55))
                .collect();
            let hull = PHull::from_convex_hull(&points).expect("a 3-D cloud");
            (
                Shape::convex(&points).expect("valid"),
                SharedShape::new(hull),
            )
        }
    }
}

fn random_rotation(rng: &mut Pcg64) -> Vector<f64> {
    Vector::new(
        rng.random_range(-3.0..3.0),
        rng.random_range(-3.0..3.0),
        rng.random_range(-3.0..3.0),
    )
}

#[test]
fn distances_agree_with_parry3d_f64_on_separated_pairs() {
    let mut rng = Pcg64::seed_from_u64(2026);
    let mut compared = 0;
    let mut per_kind = [0usize; 8];
    for trial in 0..4000 {
        let (a, pa) = random_shape(&mut rng, trial % 8);
        let (b, pb) = random_shape(&mut rng, (trial / 8) % 8);
        let pos1 = Isometry::new(Vector::zeros(), random_rotation(&mut rng));
        // Place B along a random direction, then back it off until clearly apart: bisect the
        // offset so that the gap is a random fraction of the scale.
        let dir = Vector::new(
            rng.random_range(-1.0..1.0),
            rng.random_range(-1.0..1.0),
            rng.random_range(-1.0..1.0),
        )
        .normalize();
        let rotation2 = random_rotation(&mut rng);
        let scale = a
            .local_aabb()
            .half_diagonal()
            .max(b.local_aabb().half_diagonal());
        let target_gap = scale * 10f64.powf(rng.random_range(-3.0..0.0));
        let at = |t: f64| Isometry::new(dir * t, rotation2);
        let (mut lo, mut hi) = (0.0, 10.0 * scale);
        for _ in 0..60 {
            let mid = 0.5 * (lo + hi);
            let d = query::distance(&pos1, &a, &at(mid), &b).expect("finite");
            if d < target_gap { lo = mid } else { hi = mid }
        }
        let pos2 = at(hi);
        let ours = query::distance(&pos1, &a, &pos2, &b).expect("finite");
        if ours < 1e-3 * scale {
            continue;
        }
        let theirs =
            parry3d_f64::query::distance(&pos1, &*pa.0, &pos2, &*pb.0).expect("supported pair");
        // parry runs GJK on the full curved support of balls and capsules as well.
        let curved = |s: &Shape<f64>| {
            !matches!(
                s,
                Shape::Cuboid(_) | Shape::Segment(_) | Shape::Triangle(_) | Shape::Convex(_)
            )
        };
        let tol = if curved(&a) || curved(&b) { 1e-5 } else { 1e-8 } * scale;
        assert!(
            ours <= theirs + 1e-9 * scale,
            "trial {trial}: nphase {ours} above parry3d-f64 {theirs}"
        );
        assert!(
            (ours - theirs).abs() <= tol,
            "trial {trial}: nphase {ours} vs parry3d-f64 {theirs} ({:?} – {:?})",
            a.kind(),
            b.kind()
        );
        // The closest points agree with the distance in both libraries.
        if let query::ClosestPoints::WithinMargin(p1, p2) =
            query::closest_points(&pos1, &a, &pos2, &b, f64::MAX).expect("finite")
        {
            assert!(((p2 - p1).norm() - ours).abs() <= 1e-9 * scale);
        }
        compared += 1;
        per_kind[trial % 8] += 1;
    }
    // The sample is representative: most pairs are compared, every shape type among them.
    assert!(compared > 3000, "only {compared} pairs compared");
    assert!(per_kind.iter().all(|&n| n > 300), "{per_kind:?}");
}
