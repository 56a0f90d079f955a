//! Shape constructors: any parameters either build a shape or give a one-line error naming the
//! field; a built shape answers support, feature and AABB queries without panicking, and with
//! finite values when its parameters are within the supported range.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use nphase::math::{Isometry, Real, Vector};
use nphase::shapes::{FeatureMap, Shape, SupportFeature, SupportMap};
use nphase_fuzz::{Num, PoseSpec, ShapeSpec, all_finite};

#[derive(Debug, Arbitrary)]
struct Input {
    shape: ShapeSpec,
    pose: PoseSpec,
    directions: Vec<[Num; 3]>,
}

fn check<T: Real>(input: &Input) {
    let Some(shape) = input.shape.build::<T>() else {
        return;
    };
    let in_range = within_range(&input.shape);
    let pose: Isometry<T> = input.pose.build();
    let pose_ok =
        PoseSpec::is_finite(&pose) && input.pose.translation.iter().all(|n| n.0.abs() <= 1e7);
    let mut feature = SupportFeature::default();
    for d in input.directions.iter().take(8) {
        let dir = Vector::new(T::lit(d[0].0), T::lit(d[1].0), T::lit(d[2].0));
        let p = shape.local_support_point(&dir);
        shape.local_support_feature(&dir, &mut feature);
        if in_range && all_finite(dir.iter().copied()) {
            assert!(
                all_finite(p.iter().copied()),
                "{shape:?} along {dir:?}: {p:?}"
            );
            assert!(all_finite(feature.normal.iter().copied()), "{feature:?}");
            assert!(!feature.vertices.is_empty());
        }
    }
    let aabb = shape.aabb(&pose);
    if in_range && pose_ok {
        assert!(
            all_finite(aabb.mins.iter().chain(aabb.maxs.iter()).copied()),
            "{aabb:?}"
        );
    }
    let _ = Shape::kind(&shape).name();
}

/// Sizes and coordinates within 1e7 (no lower bound: zero and tiny values are in range).
fn within_range(spec: &ShapeSpec) -> bool {
    let ok = |n: &Num| n.0.is_finite() && n.0.abs() <= 1e7;
    match spec {
        ShapeSpec::Ball(r) => ok(r),
        ShapeSpec::Cuboid(h) => h.iter().all(ok),
        ShapeSpec::Capsule(a, b) | ShapeSpec::Cylinder(a, b) | ShapeSpec::Cone(a, b) => {
            ok(a) && ok(b)
        }
        ShapeSpec::Segment(a, b) => a.iter().chain(b).all(ok),
        ShapeSpec::Triangle(a, b, c) => a.iter().chain(b).chain(c).all(ok),
        ShapeSpec::Convex(points) => points.iter().take(64).flatten().all(ok),
        ShapeSpec::Round(inner, r) => ok(r) && within_range(inner),
    }
}

fuzz_target!(|input: Input| {
    check::<f32>(&input);
    check::<f64>(&input);
});
