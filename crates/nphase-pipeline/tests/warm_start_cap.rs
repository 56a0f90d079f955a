//! A pair's warm GJK that ends on its iteration cap gives way to a cold query.
//!
//! Found in rapier's mixed pile (docs/engines.md, f32): a cone 1 cm from a box, the pair's
//! cache holding last frame's search axis (cones have no vertex ids to rebuild a simplex from,
//! so the axis seeds the first direction). From that seed GJK circled the optimum for all 128
//! iterations without closing its gap, and the pair was reported as an estimate
//! (`ContactQuality::IterationLimit`) — 8 to 21 such pairs per 3.4 million pair-frames. From
//! B's centre, as a one-shot query starts, it converges in 18. The states below are the
//! engine's (shapes, pose and cached axis printed at the failing step).

use nphase_math::Isometry;
use nphase_math::nalgebra::{Quaternion, Translation3, UnitQuaternion, Vector3};
use nphase_pipeline::{
    ContactManifold, ContactQuality, PairInput, PairState, PairWorkspace, update_manifold,
};
use nphase_shapes::{Cone, Cuboid, Shape};

/// A cone (`half_height`, `radius`) and a box (`half_extents`) at the pose `[i, j, k, w]`, `t`,
/// with the pair's cache holding `axis`.
struct Case {
    cone: [f32; 2],
    half_extents: [f32; 3],
    rotation: [f32; 4],
    translation: [f32; 3],
    axis: [f32; 3],
}

#[test]
fn a_warm_gjk_on_its_iteration_cap_gives_way_to_a_cold_query() {
    let cases = [
        Case {
            cone: [0.310_532_5, 0.489_811_78],
            half_extents: [0.319_040_72, 0.272_273_18, 0.270_955_15],
            rotation: [0.712_586_46, 0.241_885_2, -0.268_677_6, -0.601_269_1],
            translation: [0.805_147_5, -0.318_251_52, 0.473_281_7],
            axis: [-0.663_483_3, 0.696_179_75, -0.274_086_9],
        },
        Case {
            cone: [0.331_220_5, 0.419_557_3],
            half_extents: [0.288_178_92, 0.334_620_06, 0.300_317_76],
            rotation: [-0.408_108_35, 0.785_210_97, 0.409_022_7, -0.222_692_25],
            translation: [0.106_048_8, -0.765_848_04, 0.474_128_87],
            axis: [0.003_882_995_6, 0.928_198_2, -0.372_065_93],
        },
    ];
    for (k, case) in cases.iter().enumerate() {
        let cone = Shape::Cone(Cone::new(case.cone[0], case.cone[1]).expect("valid"));
        let cuboid = Shape::Cuboid(Cuboid::new(Vector3::from(case.half_extents)).expect("valid"));
        let [i, j, kk, w] = case.rotation;
        let rotation = UnitQuaternion::from_quaternion(Quaternion::new(w, i, j, kk));
        let pos12 = Isometry::from_parts(
            Translation3::from(Vector3::from(case.translation)),
            rotation,
        );
        let mut state = PairState::new();
        state.cache.store_axis(&Vector3::from(case.axis));
        let mut manifold = ContactManifold::default();
        let input = PairInput {
            shape1: &cone,
            shape2: &cuboid,
            pos12,
            prediction: 0.02,
        };
        let outcome = update_manifold(&input, &mut state, &mut manifold, &mut PairWorkspace::new());
        assert_eq!(outcome.quality, ContactQuality::Converged, "case {k}");
        // The exact distance, in f64 on the same (f32) values.
        let exact = nphase_pipeline::query::contact(
            &Isometry::identity(),
            &Shape::Cone(
                Cone::new(f64::from(case.cone[0]), f64::from(case.cone[1])).expect("valid"),
            ),
            &pos12.cast::<f64>(),
            &Shape::Cuboid(
                Cuboid::new(Vector3::from(case.half_extents).cast::<f64>()).expect("valid"),
            ),
            0.02,
        )
        .expect("finite")
        .expect("within the prediction")
        .dist;
        // docs/accuracy.md's f32 tolerance: 1e-4 × scale, the cone's half-diagonal (about 0.6).
        let dist = manifold.deepest().expect("a point").dist;
        assert!(
            (f64::from(dist) - exact).abs() <= 1e-4 * 0.6,
            "case {k}: {dist} against {exact}"
        );
    }
}
