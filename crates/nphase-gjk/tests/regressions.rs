//! Named regression tests: configurations where a GJK (ours or parry3d's) once gave a wrong
//! answer. Each test says what failed, on what geometry, and why it passes now.

mod common;

use common::*;
use nphase_gjk::{
    GjkInput, GjkOptions, GjkStatus, Simplex, SimplexCache, closest_points_with_simplex,
};
use nphase_math::nalgebra::{Quaternion, Translation3, UnitQuaternion};
use nphase_math::{Isometry, Real, Vector};
use nphase_shapes::{Capsule, Cone};

/// `pose_a⁻¹ · pose_b` computed in precision `T` from world poses given in `f64`: the world
/// translations are rounded to `T` first, as a physics engine storing its poses in `T` would.
fn pos12_from_world<T: Real>(pose_a: &Iso, pose_b: &Iso) -> Isometry<T> {
    iso_to_t::<T>(pose_a).inverse() * iso_to_t::<T>(pose_b)
}

/// The rounding a world translation of magnitude `offset` brings into `pos12` in precision
/// `T` (a few ulps of the offset), added to the tolerances of the far-from-origin variants.
fn world_rounding<T: Real>(offset: f64) -> f64 {
    4.0 * T::TOLERANCES.epsilon.as_f64() * offset.abs()
}

fn translation(x: f64, y: f64, z: f64) -> Iso {
    Iso::translation(x, y, z)
}

// ---------------------------------------------------------------------------------------------
// (a) A capsule resting in a huge box.

/// A capsule whose core is the segment `(0, ±0.5, 0)` with radius 0.5, centred at `(0, y, 0)`,
/// against a box of half-extents 50 centred at `(0, −50, 0)` (its top face is `y = 0`), for 200
/// values of `y` in `[−0.5, 0.5]`, the whole scene translated by `offset`.
///
/// **What failed:** parry3d 0.25 reports the pair as separated in 116 of the 200 positions: its
/// GJK stops on a relative tolerance that a 1:100 size ratio defeats, and an iteration cap that
/// it turns into "not touching". The core's lower end is at `y − 0.5 ≤ 0`, so the cores overlap
/// (or touch at `y = 0.5`) everywhere and the capsule sinks into the box by `1 − y ≥ 0.5`.
///
/// **Why it passes:** nphase's tolerances are relative to the Minkowski difference's size and
/// the duality gap, every exit is reported, and touching cores (`|v|` within the touch
/// tolerance of the size) are `Intersecting`. So the query must say `Intersecting` or, only at
/// the touching end, `Separated` with the rounded parts' depth (distance ≈ −0.5); never a
/// positive distance, never `BeyondMaxDist` (with `max_dist` 0, the pipeline's no-prediction
/// query), and `intersection_test` must say true.
fn capsule_in_huge_box<T: Real>(offset: f64) {
    let capsule = Capsule::new(0.5, 0.5).expect("valid capsule");
    let core = Core::Segment(capsule.segment().a().coords, capsule.segment().b().coords);
    let capsule = Body::new(core, capsule.radius());
    let cuboid = Body::bare(Core::Cuboid(V::repeat(50.0)));
    let pair = Pair::new(capsule, cuboid, Iso::identity());
    let tol = rel_tol::<T>(false) * pair.scale() + world_rounding::<T>(offset);
    let mut problems = Vec::new();
    for i in 0..200 {
        let y = -0.5 + f64::from(i) / 199.0;
        let pose_capsule = translation(offset, offset + y, -offset);
        let pose_cuboid = translation(offset, offset - 50.0, -offset);
        for (pair, pos12) in [
            (pair, pos12_from_world::<T>(&pose_capsule, &pose_cuboid)),
            (
                pair.swapped(),
                pos12_from_world::<T>(&pose_cuboid, &pose_capsule),
            ),
        ] {
            for max_dist in [f64::INFINITY, 0.0] {
                let mut cache = SimplexCache::EMPTY;
                let out = pair.gjk_at(&pos12, GjkOptions::default(), max_dist, &mut cache);
                match &out.status {
                    GjkStatus::Intersecting => {}
                    GjkStatus::Separated(c)
                        if 0.5 - y <= tol && (c.distance.as_f64() + 0.5).abs() <= tol => {}
                    other => problems.push(format!(
                        "y = {y}, max_dist {max_dist}: {}",
                        status_name(other)
                    )),
                }
            }
            let mut cache = SimplexCache::EMPTY;
            if !pair.intersects_at(&pos12, GjkOptions::default(), &mut cache) {
                problems.push(format!("y = {y}: intersection_test says apart"));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn capsule_in_huge_box_f64() {
    capsule_in_huge_box::<f64>(0.0);
}

#[test]
fn capsule_in_huge_box_f32() {
    capsule_in_huge_box::<f32>(0.0);
}

// ---------------------------------------------------------------------------------------------
// (b) A long segment through a thin slab.

/// The segment `(60, 10, 0)–(10, 0, 0)` against a box centred at `(50, 50, 0)` with
/// half-extents `(10, 100, 1)` (the slab `40 ≤ x ≤ 60`, `−50 ≤ y ≤ 150`, `|z| ≤ 1`), the whole
/// scene translated by `offset`. The segment starts on the slab's `x = 60` face and runs through
/// it for 20 units of x, in its middle plane `z = 0`.
///
/// **What failed:** parry3d 0.25 says they are separated by 2e-6: its GJK starts on the face
/// the endpoint lies on, its simplex stalls there and it returns the stalled estimate as a
/// separation.
///
/// **Why it passes:** a stall is never a verdict of "apart" in nphase, and the touching test
/// is relative to the size. The segment is given in its own frame centred on its midpoint
/// `(35, 5, 0)`, so the query's `pos12` carries the rounding of both world poses.
fn segment_through_slab<T: Real>(offset: f64) {
    let half = V::new(25.0, 5.0, 0.0);
    let segment = Body::bare(Core::Segment(half, -half));
    let slab = Body::bare(Core::Cuboid(V::new(10.0, 100.0, 1.0)));
    let pose_segment = translation(offset + 35.0, offset + 5.0, -offset);
    let pose_slab = translation(offset + 50.0, offset + 50.0, -offset);
    let pair = Pair::new(segment, slab, Iso::identity());
    for (pair, pos12) in [
        (pair, pos12_from_world::<T>(&pose_segment, &pose_slab)),
        (
            pair.swapped(),
            pos12_from_world::<T>(&pose_slab, &pose_segment),
        ),
    ] {
        let mut cache = SimplexCache::EMPTY;
        let out = pair.gjk_at(&pos12, GjkOptions::default(), f64::INFINITY, &mut cache);
        assert!(
            matches!(out.status, GjkStatus::Intersecting),
            "{}",
            status_name(&out.status)
        );
        let mut cache = SimplexCache::EMPTY;
        assert!(pair.intersects_at(&pos12, GjkOptions::default(), &mut cache));
    }
}

#[test]
fn segment_through_slab_f64() {
    segment_through_slab::<f64>(0.0);
}

#[test]
fn segment_through_slab_f32() {
    segment_through_slab::<f32>(0.0);
}

// ---------------------------------------------------------------------------------------------
// (c) The same, far from the world origin.

/// (a) and (b) translated by 1e4 and 1e6 in f64 and by 1e4 in f32. `pos12` is built as
/// `pose_a⁻¹ · pose_b` from the rounded world poses, so the far translation cancels except for
/// its rounding (≤ 1e-10 at 1e6 in f64, ~1e-3 at 1e4 in f32). Working in A's frame keeps the
/// answer as good as at the origin; a query run on world coordinates would lose the capsule's
/// touching end to rounding in f32.
#[test]
fn far_from_the_origin_f64() {
    for offset in [1e4, 1e6] {
        capsule_in_huge_box::<f64>(offset);
        segment_through_slab::<f64>(offset);
    }
}

#[test]
fn far_from_the_origin_f32() {
    capsule_in_huge_box::<f32>(1e4);
    segment_through_slab::<f32>(1e4);
}

// ---------------------------------------------------------------------------------------------
// (d) Size ratio 1e6.

/// A box of half-extents ~1e-3 above the top face of a box of half-extents 1e3, separated by a
/// known gap, at a random orientation and a random place over the face, in both orders.
///
/// **What failed:** GJK's tolerances are relative to the size of the Minkowski difference
/// (~1.7e3 here), so an absolute epsilon would call a 1e-5 gap touching; and `v/|v|` is accurate
/// only to ε·size/|v| (~4e-8 rad at that gap) — enough to tilt the normal of a face 1e3 wide by
/// 4e-5 in support gap. ed3d7d2 searched along that noisy `v` and took a repeated vertex as
/// proof (2 of 300 f64 cases off by 27%); 5ea5f01 reports such exits `Stalled` (164 of 300 in
/// f64, 169 of 200 in f32).
///
/// **Why it passes:** the search follows the face's own normal (a cross product of its edges,
/// exact to ~ε) once the simplex spans it, so the repeated vertex comes with the gap closed.
fn tiny_near_huge<T: Real>(gaps: &[f64], seed: u64) {
    use rand::SeedableRng;
    let mut rng = rand_pcg::Pcg64::seed_from_u64(seed);
    let huge = Body::bare(Core::Cuboid(V::repeat(1e3)));
    let mut failures = Failures::default();
    let mut total = 0;
    for &gap in gaps {
        for _ in 0..50 {
            let h = V::new(
                uniform(&mut rng, 5e-4, 1.5e-3),
                uniform(&mut rng, 5e-4, 1.5e-3),
                uniform(&mut rng, 5e-4, 1.5e-3),
            );
            let tiny = Body::bare(Core::Cuboid(h));
            let rotation = random_rotation(&mut rng);
            let extent = rotation
                .to_rotation_matrix()
                .matrix()
                .row(1)
                .transpose()
                .abs()
                .dot(&h);
            let centre = V::new(
                uniform(&mut rng, -900.0, 900.0),
                1e3 + gap + extent,
                uniform(&mut rng, -900.0, 900.0),
            );
            let pair = Pair::new(
                huge,
                tiny,
                Iso::from_parts(Translation3::from(centre), rotation),
            );
            let rel = rel_tol::<T>(false);
            for (pair, normal) in [
                (pair, V::y()),
                (pair.swapped(), -(rotation.inverse() * V::y())),
            ] {
                total += 1;
                let rounded = pair.through::<T>();
                let out = pair.gjk_cold::<T>();
                let result = separated(&out).and_then(|c| {
                    rounded.check(c, Some(gap), rel)?;
                    let err = (to_f64(c.normal.as_ref()) - normal).norm();
                    if err > rel.sqrt() {
                        return Err(format!("normal error {err:e}"));
                    }
                    Ok(())
                });
                failures.check(result, || format!("gap {gap}: {pair:?}"));
                if pair.intersects::<T>() {
                    failures.push(format!("intersection_test true at gap {gap}: {pair:?}"));
                }
            }
        }
    }
    failures.assert_none("tiny box near a huge box", total);
}

#[test]
fn tiny_near_huge_f64() {
    tiny_near_huge::<f64>(&[1.0, 1e-3, 1e-5], 30);
}

#[test]
fn tiny_near_huge_f32() {
    // The f32 tolerance is 1e-4 × 1.7e3 = 0.17: only gaps above it are meaningful.
    tiny_near_huge::<f32>(&[2.0, 0.5], 31);
}

// ---------------------------------------------------------------------------------------------
// (e) Identical coincident shapes.

/// Each shape against itself at `pos12 = identity`.
///
/// **What could fail:** the Minkowski difference is symmetric about the origin, the cold-start
/// axis `−pos12.translation` is zero, and the first support points come in opposite pairs, so
/// the simplex goes through the origin exactly: a projection that divides by a zero length, or a
/// "no progress" test that fires on `|v| = 0`, would report a separation or NaN. The cores
/// coincide, so the answer is `Intersecting`, and `intersection_test` is true.
fn coincident<T: Real>() {
    let bodies = [
        Body::bare(Core::Cuboid(V::new(0.5, 1.0, 2.0))),
        Body::bare(Core::Segment(
            V::new(-1.0, 0.5, 0.2),
            V::new(1.0, -0.3, 0.1),
        )),
        Body::new(
            Core::Segment(V::new(0.0, -0.5, 0.0), V::new(0.0, 0.5, 0.0)),
            0.3,
        ),
        Body::new(Core::Point, 0.5),
        Body::new(
            Core::Segment(V::new(0.3, 0.2, 0.1), V::new(0.3, 0.2, 0.1)),
            0.5,
        ),
        Body::bare(Core::Cylinder {
            half_height: 1.0,
            radius: 0.5,
        }),
        Body::bare(Core::Cone {
            half_height: 1.0,
            radius: 0.5,
        }),
        Body::bare(Core::Triangle([
            V::new(0.0, 0.0, 0.0),
            V::new(1.0, 0.0, 0.0),
            V::new(0.0, 1.0, 0.0),
        ])),
        Body::new(Core::Cuboid(V::new(0.5, 0.5, 0.5)), 0.1),
    ];
    for body in bodies {
        let pair = Pair::new(body, body, Iso::identity());
        let out = pair.gjk_cold::<T>();
        assert!(
            matches!(out.status, GjkStatus::Intersecting),
            "{body:?}: {}",
            status_name(&out.status)
        );
        assert!(pair.intersects::<T>(), "{body:?}");
    }
}

#[test]
fn coincident_shapes_f64() {
    coincident::<f64>();
}

#[test]
fn coincident_shapes_f32() {
    coincident::<f32>();
}

// ---------------------------------------------------------------------------------------------
// Bugs found by this suite. Each names the commit it was found on: ed3d7d2 (the first GJK)
// or 5ea5f01 (main when this suite was rebased onto it).

/// `(w, i, j, k)` of a rotation printed by nalgebra as `[i, j, k, w]`.
fn quaternion(i: f64, j: f64, k: f64, w: f64) -> UnitQuaternion<f64> {
    UnitQuaternion::new_normalize(Quaternion::new(w, i, j, k))
}

/// Requires `Separated` with the full certificate of [`Pair::check`] at the design's tolerance.
/// Like [`assert_resolved`], but also accepts the documented hand-over: an honest `Stalled`
/// whose bounds bracket the true distance within `tol` (the pair query then settles it with
/// EPA).
fn assert_resolved_or_honest_stall<T: Real>(pair: &Pair, truth: f64, tol: f64) {
    let mut cache = SimplexCache::EMPTY;
    let out = pair.gjk::<T>(GjkOptions::default(), f64::INFINITY, &mut cache);
    match &out.status {
        GjkStatus::Stalled { estimate, .. } => {
            let mut failures = Failures::default();
            failures.stall(estimate, &pair.through::<T>(), Some(truth), tol, || {
                format!("{:?}", out.stats)
            });
            failures.assert_none_within("stall", 1, 1.0);
        }
        _ => assert_resolved::<T>(pair, Some(truth), GjkOptions::default()),
    }
}

fn assert_resolved<T: Real>(pair: &Pair, expected: Option<f64>, options: GjkOptions) {
    let mut cache = SimplexCache::EMPTY;
    let out = pair.gjk::<T>(options, f64::INFINITY, &mut cache);
    let c = separated(&out).unwrap_or_else(|e| panic!("{e}"));
    if let Err(e) = pair
        .through::<T>()
        .check(c, expected, rel_tol::<T>(pair.is_curved()))
    {
        panic!("{e} ({:?})", out.stats);
    }
}

/// Two triangles whose vertices nearly touch (3.8e-7 apart, from the brute-force test's
/// near-touching family), in f32.
///
/// **What failed (ed3d7d2):** GJK found the vertex pair as its first support point,
/// `|v| = 8.8e-7`. The touch test (`|v| ≤ 1e-5 · size`) ran only right after a point was added,
/// with `size` the largest support seen *so far* — this first point itself — so it could not
/// fire. On the next iteration the support grew `size` to ~2, and the duality-gap test, whose
/// absolute floor (1e-6 · size) exceeds `|v|`, closed first: `Separated` at distance 8.8e-7
/// with a normal that is rounding noise (support gap −2.5 along it).
///
/// **Why it passes:** the touch test is repeated against the grown size before the result is
/// reported (5ea5f01): the cores touch (`Intersecting`), the documented answer below the touch
/// tolerance.
#[test]
fn vertex_pair_within_touch_tolerance_is_not_separated_f32() {
    let a = Body::bare(Core::Triangle([
        V::new(0.290075015331567, 0.9169369118999837, -0.18206419153039777),
        V::new(
            0.27071161496143104,
            -0.4307918324528188,
            -0.5204043793089888,
        ),
        V::new(
            -0.7545651983523656,
            -0.37389203500567625,
            -0.5042790592576347,
        ),
    ]));
    let b = Body::bare(Core::Triangle([
        V::new(
            -0.3050299627307802,
            0.04501780068453742,
            -0.5693729056350474,
        ),
        V::new(
            -0.40717687014058424,
            -0.7229720166968434,
            0.47607354480711583,
        ),
        V::new(
            -0.5307170651730724,
            -0.2660982182314755,
            -0.5510069237668329,
        ),
    ]));
    let pos12 = Iso::from_parts(
        Translation3::new(
            -1.6524523326398426,
            -0.07299243435892416,
            -0.6398712980697601,
        ),
        quaternion(
            0.11403998762734377,
            -0.6689179405607504,
            -0.3920998282542736,
            -0.6211291288459179,
        ),
    );
    let pair = Pair::new(a, b, pos12);
    let out = pair.gjk_cold::<f32>();
    match &out.status {
        GjkStatus::Intersecting => {}
        GjkStatus::Separated(c) => {
            if let Err(e) = pair.through::<f32>().check(c, None, rel_tol::<f32>(false)) {
                panic!("{e}");
            }
        }
        other => panic!("{}", status_name(other)),
    }
}

/// A triangle 1.15e-6 from a rotated box (the brute-force test's near-touching family), f32.
///
/// **What failed:** GJK's simplex reached a face triangle of the Minkowski difference whose
/// plane is 3.0e-4 from the origin; the closest face is another one, 1.15e-6 away. With
/// `|v| = 3.0e-4` next to a size of ~2, `v/|v|` is off by ~ε·size/|v| ≈ 6e-4 rad, and the
/// support along that noisy `−v` returned a vertex already in the simplex (along the face's
/// exact normal it is a new, closer vertex). ed3d7d2 took the repeated vertex as proof of
/// optimality (`Separated` at 2.96e-4, 2.5× the f32 tolerance off); 5ea5f01 reports `Stalled`.
///
/// **Why it passes:** every plain iteration now searches along the refined direction (the
/// simplex triangle's normal when it is the more accurate), which is `v`'s direction in exact
/// arithmetic but is not rounding noise when `|v|` is small. The truth is within the touch
/// tolerance, so `Intersecting` is right too.
#[test]
fn near_touching_support_follows_the_face_normal_f32() {
    let a = Body::bare(Core::Triangle([
        V::new(0.34286336293054953, -0.4655782335848282, 0.6745882596799784),
        V::new(0.4419029546605895, -0.472432524313692, -0.3832148074226498),
        V::new(0.7865124020915428, 0.7923626892978168, 0.356257344954392),
    ]));
    let b = Body::bare(Core::Cuboid(V::new(
        0.35383597247255816,
        0.6442196956198037,
        0.3845951586162183,
    )));
    let pos12 = Iso::from_parts(
        Translation3::new(
            0.8629591525401878,
            0.45928714560790657,
            -0.24564397810283684,
        ),
        quaternion(
            -0.33909141009220695,
            -0.7022685775305818,
            -0.021083942372413882,
            -0.625612762009287,
        ),
    );
    let pair = Pair::new(a, b, pos12);
    // The distance of the f32-rounded pair, from the brute-force oracle of brute_force.rs.
    let expected = 1.1485478013132857e-6;
    let out = pair.gjk_cold::<f32>();
    match &out.status {
        GjkStatus::Intersecting => {}
        GjkStatus::Separated(c) => {
            if let Err(e) = pair
                .through::<f32>()
                .check(c, Some(expected), rel_tol::<f32>(false))
            {
                panic!("{e}");
            }
        }
        other => panic!("{}", status_name(other)),
    }
}

/// Two boxes 1.28e-3 apart face to face (analytic.rs's face family), in f32.
///
/// **What failed (5ea5f01):** `Stalled` (repeated vertex with the gap open) on 1311 of the 2000
/// f32 face contacts of analytic.rs, and on most f32 edge and vertex contacts: the support along
/// the noisy `v/|v|` (off by ~ε·size/|v| ≈ 2e-4 rad here) dips to a vertex of the simplex whose
/// support value is lower by ~2e-4 × the face's width, so the gap cannot close to `ε_rel`.
///
/// **Why it passes:** the search follows the simplex triangle's normal, exact to ~ε, so the
/// repeated vertex comes with the gap closed.
#[test]
fn box_face_contact_is_separated_f32() {
    let ha = V::new(0.6856521552894832, 4.886198707915753, 3.2066717693130933);
    let hb = V::new(0.19013375636690782, 1.283147238733983, 1.4214409185413013);
    let t = V::new(0.8770651880998185, 2.338713170006176, -0.05029840422436216);
    let rotation = quaternion(-0.9985676086357408, 0.0, 0.0, 0.05350449498404699);
    let pair = Pair::new(
        Body::bare(Core::Cuboid(ha)),
        Body::bare(Core::Cuboid(hb)),
        Iso::from_parts(Translation3::from(t), rotation),
    );
    // B is turned about x only: its extent along x is its half-extent.
    assert_resolved::<f32>(&pair, Some(t.x - ha.x - hb.x), GjkOptions::default());
    assert_resolved::<f32>(
        &pair.swapped(),
        Some(t.x - ha.x - hb.x),
        GjkOptions::default(),
    );
}

/// A cone 0.216 from a capsule, in f64 (acceleration.rs's far curved family).
///
/// `Stalled` with bounds [0.216340710351349, 0.2163407103528039]: the repeated-vertex exit (the
/// cone's apex and the capsule core's end) leaves a duality gap of 1.45e-12, just above
/// `ε_rel · (|v| + size)` = 1.2e-12. Classifying such stalls by the looser accuracy target
/// (`Tolerances::accuracy`) would call them `Separated`, but in f32 some of those come with a
/// normal outside the tolerance, so the strict threshold stays and the stall is handed over.
/// **Why it is right:** the `Stalled` answer is honest (its bounds bracket the truth) and the
/// pair query settles it with EPA (`tests/conformance.rs`).
#[test]
fn curved_pair_within_the_accuracy_stalls_honestly_f64() {
    let pair = Pair::new(
        Body::bare(Core::Cone {
            half_height: 0.2418474464423427,
            radius: 0.5287738632227008,
        }),
        Body::new(
            Core::Segment(
                V::new(0.0, -0.2910485713824895, 0.0),
                V::new(0.0, 0.2910485713824895, 0.0),
            ),
            0.11619787068475591,
        ),
        Iso::from_parts(
            Translation3::new(
                -0.8805271672549679,
                0.17882066238038502,
                0.22720085668586393,
            ),
            quaternion(
                -0.5089775740081302,
                0.7170049886761267,
                0.1317906366738441,
                0.45768646850813577,
            ),
        ),
    );
    assert_resolved_or_honest_stall::<f64>(&pair, 0.21634071035, 1e-7);
}

/// A box 1.25e-6 from a cone, in f64 (acceleration.rs's near-touching family).
///
/// **What failed (ed3d7d2):** near touching, GJK's simplex on a curved shape collapses into a
/// sliver triangle (two rim points of the cone 1.6e-7 apart, and a third vertex 1.6 away). The
/// sliver's normal is not trusted, so the direction is `v/|v|` — yet the distance was computed as
/// the plane distance `w0·direction`, off by the lean of `v` times the triangle's size: the
/// query said `Separated` at distance 0, below its own lower bound 1.2461e-6, with witness
/// points 1.2461e-6 apart.
///
/// **Why it passes:** the plane distance is used only along the triangle's own normal (5ea5f01).
/// Whatever the status (`Separated`, or `Stalled` — see `curved_sliver_near_touching_f64`), the
/// estimate is consistent: within its bounds, equal to its witnesses' separation, and right.
#[test]
fn sliver_triangle_estimate_is_consistent_f64() {
    let pair = cuboid_near_cone();
    let out = pair.gjk_cold::<f64>();
    let c = match &out.status {
        GjkStatus::Separated(c) | GjkStatus::Stalled { estimate: c, .. } => c,
        other => panic!("{}", status_name(other)),
    };
    let tol = rel_tol::<f64>(true) * pair.scale();
    let (d, lower, upper) = (c.distance, c.lower_bound, c.upper_bound);
    assert!(
        lower <= d + tol && d <= upper + tol,
        "{d:e} not in [{lower:e}, {upper:e}]"
    );
    // The true distance, to ~1e-11 from the bounds of a converged query.
    assert!((d - 1.2461e-6).abs() < tol && lower <= 1.2461e-6 + tol && upper >= 1.2461e-6 - tol);
    let witnessed = (c.point2 - c.point1).norm();
    assert!(
        (witnessed - d).abs() < tol,
        "witnesses {witnessed:e} apart, distance {d:e}"
    );
}

fn cuboid_near_cone() -> Pair {
    Pair::new(
        Body::bare(Core::Cuboid(V::new(
            0.8938695925556936,
            0.47126492024317923,
            0.7291660727393721,
        ))),
        Body::bare(Core::Cone {
            half_height: 0.7823203968691965,
            radius: 0.41175370226835684,
        }),
        Iso::from_parts(
            Translation3::new(0.7909808448668549, 0.49778060429989135, 1.021053511586008),
            quaternion(
                0.5259661683908007,
                0.738710721497598,
                -0.3825905695428511,
                -0.17689125402256284,
            ),
        ),
    )
}

/// The same box and cone. The simplex is a sliver triangle (two rim points 1.6e-7 apart, a
/// third vertex 1.6 away) whose interior projection is ill-conditioned: `v` leans by ~1e-5 rad,
/// the support along it misses the closer rim points, and the repeated-vertex exit leaves a gap
/// of 8e-10. ed3d7d2 reported `Separated` with a normal whose support gap is −1.3e-5 against a
/// distance of 1.25e-6. **Why it is right now:** the exit is `Stalled` with honest bounds, and
/// the pair query settles it with EPA (dropping the sliver's redundant vertex instead was
/// tried: it breaks more f32 curved pairs than it fixes).
#[test]
fn curved_sliver_near_touching_stalls_honestly_f64() {
    assert_resolved_or_honest_stall::<f64>(&cuboid_near_cone(), 1.2461e-6, 1e-7);
}

/// A point 1e-3 above the top face of the cube `[−1, 1]³`, 1e-11 off the face's diagonal, f64.
///
/// GJK's simplex reaches the face diagonal (a segment of the Minkowski difference whose
/// closest point is 1e-11 to the side of the true foot, so `v` leans by 1e-8 rad). The next
/// support is the face's third corner; the triangle's closest point is the exact foot, but
/// `|v|²` decreases by (1e-11)² = 1e-22 against |v|² = 1e-6 — below rounding — so the progress
/// test restores the segment and exits with `NoProgress`. ed3d7d2 reported that `Separated`
/// (the gap was within its `√ε_rel` acceptance, 1000× the design's tolerance): a normal whose
/// support gap misses the distance by 1.4e-8 (tolerance 1.7e-9). 5ea5f01 reports it `Stalled`,
/// honest but unresolved on a configuration as plain as a ball resting on a box. **Why it
/// passes:** on no progress GJK keeps the larger simplex when its `|v|²` is within rounding of
/// the previous one (at least as good in exact arithmetic; its triangle normal is exact) and
/// takes one more support along the refined direction, whose lower bound closes the gap.
#[test]
fn point_over_a_face_diagonal_f64() {
    let delta = 1e-11 / 2f64.sqrt();
    let pair = Pair::new(
        Body::bare(Core::Cuboid(V::repeat(1.0))),
        Body::bare(Core::Point),
        translation(-0.95 + delta, -0.95 - delta, 1.001),
    );
    assert_resolved::<f64>(&pair, Some(1e-3), GjkOptions::default());
}

/// The f32 face of the same bug (analytic.rs, ball – cuboid: 5 of 6000 f32 cases): a ball of
/// radius 1.16 whose centre is 1.34 from a box's face. In f32 `|v|²` cannot resolve the last
/// improvement (2.7e-8 relative) once `v` leans by 1.6e-4 rad; ed3d7d2 reported `Separated`
/// with a support gap 3.4e-4 off (tolerance 2.5e-4), 5ea5f01 `Stalled`. Passes for the same
/// reason as the f64 case above.
#[test]
fn ball_over_a_box_face_f32() {
    let cuboid = Body::bare(Core::Cuboid(V::new(
        1.3724757725887624,
        1.453997919372621,
        1.5091556373745842,
    )));
    let ball = Body::new(Core::Point, 1.1624177682291712);
    let pos12 = Iso::from_parts(
        Translation3::new(-2.7107702119598005, 0.3810242822639036, 0.39579621769609585),
        quaternion(
            -0.1146578106116969,
            0.2506304296971007,
            0.3833263536439571,
            0.8815321212398372,
        ),
    );
    let pair = Pair::new(cuboid, ball, pos12);
    let rounded = pair.through::<f32>();
    let expected = rounded.a.signed_distance(&rounded.pos12.translation.vector) - ball.radius;
    assert_resolved::<f32>(&pair, Some(expected), GjkOptions::default());
}

/// A cylinder 0.97 from a cone, in f64. **Open bug.** Plain GJK converges in 23 iterations;
/// Nesterov momentum (either variant) is still running at the cap of 128 and reports
/// `IterationLimit` (uncapped it needs 217 / 253). The momentum phase ends only when the duality
/// gap closes to `ε_rel = 1e-12` along the momentum directions, a vertex repeats (never, on a
/// curved surface: no vertex ids) or a step fails to descend (never: each momentum support point
/// is closer than `v`); the simplex stays a single point, so the momentum iterates crawl
/// (gap 1e-3 → 1e-8 in 50 iterations). Montaut et al. switch to plain GJK once the momentum
/// direction's Frank–Wolfe gap is small; a handover at `√ε_rel`, or after a few iterations
/// without simplex growth, would do.
#[test]
fn nesterov_converges_on_a_cylinder_and_a_cone_f64() {
    let pair = Pair::new(
        Body::bare(Core::Cylinder {
            half_height: 0.8788360365383663,
            radius: 0.4556103711914241,
        }),
        Body::bare(Core::Cone {
            half_height: 0.10714092050797447,
            radius: 0.9930945644770336,
        }),
        Iso::from_parts(
            Translation3::new(1.784118950167743, -0.8252785386730159, -0.46243578031303095),
            quaternion(
                -0.5181545198776437,
                0.4350592240906206,
                0.2848395058168778,
                0.6790477310101496,
            ),
        ),
    );
    let plain = pair.gjk_cold::<f64>();
    let expected = separated(&plain).expect("plain converges").distance;
    for normalize in [true, false] {
        let options = GjkOptions {
            acceleration: nphase_gjk::Acceleration::Nesterov { normalize },
            ..GjkOptions::default()
        };
        assert_resolved::<f64>(&pair, Some(expected), options);
        let mut cache = SimplexCache::EMPTY;
        let out = pair.gjk::<f64>(options, f64::INFINITY, &mut cache);
        assert!(
            out.stats.iterations <= 2 * plain.stats.iterations,
            "{:?} vs plain {:?}",
            out.stats,
            plain.stats
        );
    }
}

/// A triangle 0.0348 from a cone, in f32 (intersection.rs's random family). **Open bug.**
///
/// The duality gap closes (`Separated`, exit `DualityGap`) and the distance is right, but the
/// normal is `v/|v|` of a sliver simplex (two nearly equal rim points of the cone): it leans by
/// ~1e-3 rad, and the support gap along it misses the distance by 2.7e-4 (tolerance 1.5e-4;
/// 1.1e-3 at 5ea5f01 without this branch's search direction). The certified axis of the best
/// lower bound is not used because swapping it in would move the witness pair by more than the
/// accuracy target. About 1 in 4000 random f32 pairs with a cone or cylinder is affected; none
/// in f64.
#[test]
fn curved_sliver_normal_f32() {
    let a = Body::bare(Core::Triangle([
        V::new(0.8571832412575207, 0.6722083679413351, -0.155218294413209),
        V::new(-0.4275956744044067, 0.8597008657276048, 0.2440664636522274),
        V::new(-0.9870581373957434, -0.7415845791878777, 0.8634557662149192),
    ]));
    let b = Body::bare(Core::Cone {
        half_height: 0.6031486999925829,
        radius: 0.7193984164066478,
    });
    let pos12 = Iso::from_parts(
        Translation3::new(0.5813291721390413, -0.3174149286738637, -0.1944080783484915),
        quaternion(
            0.4532957588283148,
            0.6095949576356662,
            -0.1010851078902313,
            -0.6424163319968235,
        ),
    );
    let pair = Pair::new(a, b, pos12);
    // The f64 answer (certified by the same checks) is the reference distance.
    let reference = separated(&pair.gjk_cold::<f64>())
        .expect("f64 converges")
        .distance;
    assert_resolved::<f32>(&pair, Some(reference), GjkOptions::default());
}

/// A needle (a cone of half-height 9.9e-5 and radius 0) at the axis of a thin cone (half-height
/// 9.94, radius 0.547) turned half a turn, 0.27 below its slant, in f32, searched from the
/// axis a pair keeps from its last frame (fuzz target `adapter`: the kept pair reported the
/// needle touching where a fresh one found it 0.27 deep).
///
/// **What failed:** from that seed the simplex became a meridian triangle of the cone, a
/// sliver 20 long and 1 wide through the origin. `|v|` carried its projection's rounding
/// (4e-6, beyond the touch distance of 1.2e-6, the rounding floor of the size), the triangle's
/// plane lay 5e-7 from the origin, and GJK stopped on no progress as `Stalled`; EPA from the
/// sliver ended 0.27 deep, outside GJK's bracket, and the stalled pair fell back to "touching".
///
/// **Why it passes:** a stall whose refined distance (the plane's) is within the touch distance
/// is an overlap, handed to EPA as one, as the cold start's query (whose simplex is a similar
/// sliver with `|v|` within the touch distance) already was.
#[test]
fn needle_at_a_thin_cones_axis_is_an_overlap_from_any_seed_f32() {
    let needle = Cone::new(9.898071e-5_f32, 0.0).expect("valid cone");
    let cone = Cone::new(9.938_66_f32, 0.546875).expect("valid cone");
    let rotation = UnitQuaternion::new_normalize(Quaternion::new(
        -0.005772364_f32,
        -0.5773417,
        -0.57734066,
        -0.57733965,
    ));
    let pos12 = Isometry::from_parts(Translation3::new(4.619446e-5, 3.6148074e-5, 0.0), rotation);
    let input = GjkInput::new(&needle, &cone, pos12).with_shape_sizes(9.898071e-5, 9.938_66);
    let last_axis = Vector::new(-0.66871935, 0.08538548, 0.73859584);
    for seed in [None, Some(last_axis)] {
        let mut cache = SimplexCache::EMPTY;
        if let Some(axis) = seed {
            cache.store_axis(&axis);
        }
        let mut simplex = Simplex::default();
        let out = closest_points_with_simplex(&input, &mut cache, &mut simplex);
        assert!(
            matches!(out.status, GjkStatus::Intersecting),
            "seed {seed:?}: {:?} {:?}",
            out.status,
            out.stats
        );
    }
}

/// A cylinder's cap rim 0.14 from a triangle's edge, in f32 (warm_start.rs's curved coherent
/// motion, seed 48, pair 20, frame 119).
///
/// **What failed (da309b0):** GJK stalled (no progress) with the gap open and `v` 4.8e-3 rad
/// off the axis of its best lower bound. `settle_normal` swapped that certified axis in and
/// shared the witnesses' mismatch (6.8e-4) between the shapes by their sizes: the triangle's
/// witness, on its edge, moved 2.9e-4 past it (the f32 tolerance 1.1e-4).
///
/// **Why it passes:** a stall's mismatch beyond the accuracy is left where the simplex put it:
/// each witness stays on its surface, and the estimate's bounds bracket the f64 distance.
#[test]
fn cylinder_rim_over_a_triangle_edge_stalls_honestly_f32() {
    let a = Body::bare(Core::Cylinder {
        half_height: 0.2714489606974717,
        radius: 0.10221962614499701,
    });
    let b = Body::bare(Core::Triangle([
        V::new(0.31339978136275715, -0.8129275893195493, -0.830229998441983),
        V::new(-0.8284389311556342, 0.5513933271461244, 0.2845367181783036),
        V::new(
            -0.4710546508148985,
            -0.07920719198443749,
            -0.9499703806970166,
        ),
    ]));
    let pos12 = Iso::from_parts(
        Translation3::new(
            -0.45635348803831055,
            -0.5448909187068223,
            -0.7659769315080642,
        ),
        quaternion(
            -0.7839141026960239,
            0.37691962456448946,
            -0.4386884597995607,
            -0.2257492224818321,
        ),
    );
    let pair = Pair::new(a, b, pos12);
    let reference = separated(&pair.gjk_cold::<f64>())
        .expect("f64 converges")
        .distance;
    let tol = rel_tol::<f32>(true) * pair.scale();
    assert_resolved_or_honest_stall::<f32>(&pair, reference, tol);
}

/// Two cones 0.029 apart, in f32 (warm_start.rs's curved coherent motion at seed 100 and up:
/// 11 of 880 000 queries over seeds 100–139, 9 of them warm).
///
/// **What failed (da309b0):** the iteration cap, 128 iterations. A segment of D, grown by a
/// support on a cone's rim to a triangle whose `|v|²` was `2.3e-10` larger (within its rounding,
/// which the loop tolerates on a grown simplex), was cut back by the next support to the same
/// segment, and the two traded places to the cap: `IterationLimit`, an estimate, after 128
/// support calls.
///
/// **Why it passes:** the loop tolerates a grown simplex that did not bring `v` closer a few
/// times a run (`TOLERATED_NON_DECREASES`), then calls it a stall: the answer is `Separated`
/// or an honest `Stalled`, in a few dozen iterations.
#[test]
fn cone_rims_do_not_cycle_to_the_iteration_cap_f32() {
    let a = Body::bare(Core::Cone {
        half_height: 0.6964619821318125,
        radius: 0.3817165053168037,
    });
    let b = Body::bare(Core::Cone {
        half_height: 0.7238941926251485,
        radius: 0.5474792486367789,
    });
    let pos12 = Iso::from_parts(
        Translation3::new(
            -0.2000615579899766,
            -0.4295547765592166,
            -0.7288706168305152,
        ),
        quaternion(
            0.5755497365710142,
            -0.7583502642747371,
            0.13719870794486141,
            0.2735395619389166,
        ),
    );
    let pair = Pair::new(a, b, pos12);
    let reference = separated(&pair.gjk_cold::<f64>())
        .expect("f64 converges")
        .distance;
    let out = pair.gjk_cold::<f32>();
    assert!(out.stats.iterations < 64, "{:?}", out.stats);
    let tol = rel_tol::<f32>(true) * pair.scale();
    assert_resolved_or_honest_stall::<f32>(&pair, reference, tol);
}
