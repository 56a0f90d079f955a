//! Per-pair contact: nphase's `query_pair` (a kept `PairWorkspace`, an empty cache per query)
//! and one-shot `query::contact` against `parry3d::query::contact`, on the same world poses.
//!
//! Groups `contact/<pair>/<depth>/<precision>`: box–box, box–ball, capsule–box,
//! capsule–capsule, ball–capsule, ball–cylinder, ball–cone, cylinder–box, cone–box, hull–hull
//! (32 points on a sphere and on an ellipsoid), round box–box, triangle–box; `deep` (signed
//! distance −0.2 × scale), `shallow` (−0.01 × scale) and `sep` (+0.1 × scale), 64 random
//! configurations each (random orientations, directions and world placement within ±2 units).
//! Every query passes a prediction of 0.2 × scale, so every case reports a contact.
//! Cases:
//! * `nphase_pair` — `pos1⁻¹·pos2`, then `query_pair` (the allocation-free per-pair entry of the
//!   pipeline) with a workspace kept across queries and `SimplexCache::EMPTY`;
//! * `nphase_oneshot` — `query::contact` (builds a fresh workspace per call);
//! * `parry` — `parry3d::query::contact` (or parry3d-f64) on parry's own shapes.
//!
//! ```text
//! cargo bench --bench contact -- --warm-up-time 1 --measurement-time 3 [filter]
//! benches/callgrind.sh contact [filter]
//! ```

#[allow(dead_code)]
mod common;

use std::hint::black_box;

use common::harness::Harness;
use common::{Iso, contact_pairs, iso, random_poses, random_rotation, rng, scale};
use nalgebra::{Isometry3, Translation3, Vector3};
use nphase_gjk::SimplexCache;
use nphase_math::Real;
use nphase_pipeline::{PairWorkspace, query, query_pair};
use nphase_shapes::Shape;
use rand::Rng;

/// Configurations per group.
const POSES: usize = 64;

/// The depths, as signed distances in units of the pair's scale.
pub const DEPTHS: [(&str, f64); 3] = [("deep", -0.2), ("shallow", -0.01), ("sep", 0.1)];
/// The prediction distance of every query, in units of the scale.
pub const PREDICTION: f64 = 0.2;

/// The world poses `(pos1, pos2)` of each configuration.
type WorldPoses<T> = Vec<(Isometry3<T>, Isometry3<T>)>;

fn nphase_pair<T: Real>(
    s1: Shape<T>,
    s2: Shape<T>,
    poses: WorldPoses<T>,
    prediction: T,
) -> impl FnMut() {
    let mut workspace = PairWorkspace::new();
    move || {
        for (pos1, pos2) in black_box(&poses) {
            let pos12 = pos1.inv_mul(pos2);
            let mut cache = SimplexCache::EMPTY;
            black_box(query_pair(
                &s1,
                &s2,
                &pos12,
                prediction,
                &mut cache,
                &mut workspace,
            ));
        }
    }
}

fn nphase_oneshot<T: Real>(
    s1: Shape<T>,
    s2: Shape<T>,
    poses: WorldPoses<T>,
    prediction: T,
) -> impl FnMut() {
    move || {
        for (pos1, pos2) in black_box(&poses) {
            black_box(query::contact(pos1, &s1, pos2, &s2, prediction).expect("finite input"));
        }
    }
}

/// `fn $name(s1, s2, poses, prediction)`: the contact loop of parry crate `$parry`.
macro_rules! parry_contact {
    ($name:ident, $parry:ident, $real:ty) => {
        fn $name(
            s1: Box<dyn $parry::shape::Shape>,
            s2: Box<dyn $parry::shape::Shape>,
            poses: WorldPoses<$real>,
            prediction: $real,
        ) -> impl FnMut() {
            move || {
                for (pos1, pos2) in black_box(&poses) {
                    black_box(
                        $parry::query::contact(pos1, &*s1, pos2, &*s2, prediction)
                            .expect("supported pair"),
                    );
                }
            }
        }
    };
}

parry_contact!(parry32, parry3d, f32);
parry_contact!(parry64, parry3d_f64, f64);

fn main() {
    let mut harness = Harness::new();
    for (name, da, db) in contact_pairs() {
        let scale = scale(&da, &db);
        let prediction = PREDICTION * scale;
        for (depth, fraction) in DEPTHS {
            let mut rng = rng(3);
            let world: Vec<(Iso, Iso)> = random_poses(&da, &db, fraction * scale, POSES, 13)
                .into_iter()
                .map(|pos12| {
                    let t = Vector3::from_fn(|_, _| rng.random_range(-2.0..2.0));
                    let pos1 = Iso::from_parts(Translation3::from(t), random_rotation(&mut rng));
                    (pos1, pos1 * pos12)
                })
                .collect();
            let cast = |w: &(Iso, Iso)| (iso::<f32>(&w.0), iso::<f32>(&w.1));
            let world32: WorldPoses<f32> = world.iter().map(cast).collect();

            let group = harness.group(&format!("contact/{name}/{depth}/f32"), POSES);
            let (s1, s2) = (da.nphase::<f32>(), db.nphase::<f32>());
            let p32 = prediction as f32;
            group.case(
                "nphase_pair",
                nphase_pair(s1.clone(), s2.clone(), world32.clone(), p32),
            );
            group.case(
                "nphase_oneshot",
                nphase_oneshot(s1, s2, world32.clone(), p32),
            );
            let (p1, p2) = (common::p32::shape(&da), common::p32::shape(&db));
            group.case("parry", parry32(p1, p2, world32, p32));

            let group = harness.group(&format!("contact/{name}/{depth}/f64"), POSES);
            let (s1, s2) = (da.nphase::<f64>(), db.nphase::<f64>());
            group.case(
                "nphase_pair",
                nphase_pair(s1.clone(), s2.clone(), world.clone(), prediction),
            );
            group.case(
                "nphase_oneshot",
                nphase_oneshot(s1, s2, world.clone(), prediction),
            );
            let (p1, p2) = (common::p64::shape(&da), common::p64::shape(&db));
            group.case("parry", parry64(p1, p2, world, prediction));
        }
    }
    harness.run();
}
