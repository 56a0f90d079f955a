//! The one-shot queries (`contact`, `distance`, `closest_points`, `intersection_test`): a
//! non-finite pose or prediction, or a translation beyond the input range, is refused with a
//! typed error; finite input never panics, and
//! within the supported range gives finite answers, `contact` with an unbounded prediction
//! always answers, and the four queries agree on the sign.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use nphase::math::{Isometry, Real};
use nphase::pipeline::query::{
    ClosestPoints, QueryError, closest_points, contact, distance, intersection_test,
};
use nphase_fuzz::{Num, PoseSpec, ShapeSpec, all_finite, magnitude};

#[derive(Debug, Arbitrary)]
struct Input {
    a: ShapeSpec,
    b: ShapeSpec,
    pose_a: PoseSpec,
    pose_b: PoseSpec,
    prediction: Num,
}

fn check<T: Real>(input: &Input, limit: f64) {
    let (Some(a), Some(b)) = (input.a.build::<T>(), input.b.build::<T>()) else {
        return;
    };
    let (pa, pb): (Isometry<T>, Isometry<T>) = (input.pose_a.build(), input.pose_b.build());
    let poses_finite = PoseSpec::is_finite(&pa) && PoseSpec::is_finite(&pb);
    let poses_in_range = PoseSpec::in_range(&pa) && PoseSpec::in_range(&pb);
    let prediction = T::lit(input.prediction.0);
    let prediction_ok = num_traits::Float::is_finite(prediction) && prediction >= T::zero();

    let c = contact(&pa, &a, &pb, &b, prediction);
    match (&c, poses_finite, prediction_ok) {
        // The first bad pose is named (pos1's range before pos2's finiteness).
        (Err(QueryError::NonFinitePose(_) | QueryError::PoseOutOfRange { .. }), _, true)
            if !(poses_finite && poses_in_range) =>
        {
            return;
        }
        (Err(QueryError::InvalidPrediction), _, false) => {}
        (Ok(_), true, true) if poses_in_range => {}
        other => panic!("contact: unexpected {other:?}"),
    }
    if !poses_finite || !poses_in_range {
        return;
    }
    let in_range = magnitude(&input.a).max(magnitude(&input.b)) <= limit
        && input
            .pose_a
            .translation
            .iter()
            .chain(&input.pose_b.translation)
            .all(|n| n.0.abs() <= limit);
    let d = distance(&pa, &a, &pb, &b).expect("finite poses");
    let touching = intersection_test(&pa, &a, &pb, &b).expect("finite poses");
    let full = contact(&pa, &a, &pb, &b, <T as num_traits::Float>::max_value())
        .expect("finite poses and prediction");
    let margin = T::one();
    let closest = closest_points(&pa, &a, &pb, &b, margin).expect("finite input");
    if !in_range {
        return;
    }
    let full = full.expect("an unbounded prediction always gives a contact");
    assert!(
        all_finite(full.point1.iter().chain(full.point2.iter()).copied())
            && all_finite(full.normal1.iter().copied())
            && all_finite([full.dist, d]),
        "non-finite answer {full:?} / {d:?}"
    );
    // A unit normal (found by the `adapter` target: tiny cores made one of length 0.97).
    let unit = num_traits::Float::abs(full.normal1.into_inner().norm() - T::one());
    assert!(unit < T::lit(1e-4), "normal not of unit length: {full:?}");
    if let Ok(Some(c)) = &c {
        assert!(
            all_finite([c.dist]) && c.dist <= prediction,
            "{c:?} beyond {prediction:?}"
        );
    }
    if let ClosestPoints::WithinMargin(p, q) = closest {
        assert!(all_finite(p.iter().chain(q.iter()).copied()));
    }
    // Signs agree away from the boundary (1e-3 of the scene's size covers either precision).
    let size = T::lit(magnitude(&input.a).max(magnitude(&input.b)).max(1e-12));
    if num_traits::Float::abs(d) > size * T::lit(1e-3) {
        assert_eq!(
            touching,
            d < T::zero(),
            "intersection_test vs distance {d:?}"
        );
    }
}

fuzz_target!(|input: Input| {
    check::<f32>(&input, 1e4);
    check::<f64>(&input, 1e6);
});
