//! Mean iteration counts (and accuracy) on the inputs of `benches/gjk.rs` and
//! `benches/contact.rs`, for `docs/performance.md`:
//!
//! 1. GJK, cold against warm on coherent motion (hull pairs and the other GJK pairs, and curved
//!    pairs, moving 1e-3 units and 1e-3 rad per frame at a fixed gap): nphase iterations and
//!    support calls, parry's support calls (counted through a wrapper), and the largest distance
//!    error of each against the gap the poses were placed at (bisection on nphase's f64
//!    distance, so nphase f64 is the reference and is not listed).
//! 2. Acceleration: mean iterations of plain GJK and Nesterov momentum (normalised or not) on
//!    the random poses of the `gjk_accel` groups.
//! 3. EPA on curved pairs (cylinder or cone against box or cylinder), deep and shallow: nphase's
//!    GJK and EPA iterations (mean and largest), EPA support calls and largest polytope, parry's
//!    support calls for the whole contact query, and the depth errors.
//! 4. The same for every pair and depth of `benches/contact.rs` (prediction 0.2 × scale), to
//!    read its time ratios against: the work each library does, and how exact its answer is.
//!
//! ```text
//! cargo run --release --example iterations
//! ```

#[allow(dead_code)]
#[path = "../benches/common/mod.rs"]
mod common;

use std::cell::Cell;

use common::{
    Desc, Iso, acceleration_pairs, coherent_poses, curved_gjk_pairs, gjk_pairs, iso, random_poses,
    scale,
};
use nalgebra::{Isometry3, Point3, Unit, Vector3};
use nphase_epa::{EpaOptions, EpaWorkspace};
use nphase_gjk::{
    Acceleration, GjkInput, GjkOptions, GjkStatus, Simplex, SimplexCache, closest_points,
    closest_points_with_simplex,
};
use nphase_math::Real;
use nphase_shapes::{Core, Shape};

/// GJK gaps and contact depths, as in the benches (units of the pair's scale).
const GAPS: [(&str, f64); 2] = [("sep", 0.2), ("near", 1e-3)];
const DEPTHS: [(&str, f64); 2] = [("deep", -0.2), ("shallow", -0.01)];
/// The contact bench's depths and prediction (units of the scale).
const CONTACT_DEPTHS: [(&str, f64); 3] = [("deep", -0.2), ("shallow", -0.01), ("sep", 0.1)];
const PREDICTION: f64 = 0.2;

/// Running mean and maximum.
#[derive(Default)]
struct Stat {
    sum: f64,
    max: f64,
    n: usize,
}

impl Stat {
    fn add(&mut self, x: f64) {
        self.sum += x;
        self.max = self.max.max(x);
        self.n += 1;
    }
    fn mean(&self) -> f64 {
        self.sum / self.n.max(1) as f64
    }
}

/// A parry support map that counts its calls (only shape 1 is wrapped: one count per support
/// point of the Minkowski difference).
macro_rules! counted {
    ($name:ident, $parry:ident) => {
        struct $name<'a>(&'a dyn $parry::shape::SupportMap, &'a Cell<u64>);

        impl $parry::shape::SupportMap for $name<'_> {
            fn local_support_point(
                &self,
                dir: &Vector3<$parry::math::Real>,
            ) -> Point3<$parry::math::Real> {
                self.1.set(self.1.get() + 1);
                self.0.local_support_point(dir)
            }
            fn local_support_point_toward(
                &self,
                dir: &Unit<Vector3<$parry::math::Real>>,
            ) -> Point3<$parry::math::Real> {
                self.1.set(self.1.get() + 1);
                self.0.local_support_point_toward(dir)
            }
        }
    };
}

counted!(Counted32, parry3d);
counted!(Counted64, parry3d_f64);

/// parry's cold GJK (as `benches/gjk.rs` runs it): `(support calls, distance)`.
macro_rules! parry_gjk {
    ($name:ident, $parry:ident, $p:ident, $counted:ident) => {
        fn $name(a: &Desc, b: &Desc, pos12: &Iso) -> (u64, f64) {
            use $parry::query::gjk;
            let (sa, sb) = (common::$p::shape(a), common::$p::shape(b));
            let calls = Cell::new(0);
            let g1 = $counted(sa.as_support_map().expect("a support map"), &calls);
            let g2 = sb.as_support_map().expect("a support map");
            let pos12 = iso(pos12);
            let dir = Unit::try_new(pos12.translation.vector, $parry::math::DEFAULT_EPSILON)
                .unwrap_or(Vector3::x_axis());
            let mut simplex = gjk::VoronoiSimplex::new();
            simplex.reset(gjk::CSOPoint::from_shapes(&pos12, &g1, g2, &dir));
            let result =
                gjk::closest_points(&pos12, &g1, g2, $parry::math::Real::MAX, true, &mut simplex);
            let distance = match result {
                gjk::GJKResult::ClosestPoints(p1, p2, _) => f64::from((p2 - p1).norm()),
                _ => f64::NAN,
            };
            (calls.get(), distance)
        }
    };
}

parry_gjk!(parry_gjk32, parry3d, p32, Counted32);
parry_gjk!(parry_gjk64, parry3d_f64, p64, Counted64);

/// parry's `contact`: `(support calls, signed distance)`. The calls are counted on the
/// support-map path (GJK, then EPA) its dispatcher takes for these pairs; a ball against a box
/// takes parry's closed form instead (no support calls).
macro_rules! parry_contact {
    ($name:ident, $parry:ident, $p:ident, $counted:ident) => {
        fn $name(a: &Desc, b: &Desc, pos12: &Iso, prediction: f64) -> (u64, f64) {
            let (sa, sb) = (common::$p::shape(a), common::$p::shape(b));
            let (pos12, prediction) = (iso(pos12), prediction as $parry::math::Real);
            let contact =
                $parry::query::contact(&Isometry3::identity(), &*sa, &pos12, &*sb, prediction)
                    .expect("a supported pair");
            let calls = Cell::new(0);
            if !matches!(a, Desc::Ball(_)) && !matches!(b, Desc::Ball(_)) {
                let g1 = $counted(sa.as_support_map().expect("a support map"), &calls);
                let g2 = sb.as_support_map().expect("a support map");
                $parry::query::details::contact_support_map_support_map(
                    &pos12, &g1, g2, prediction,
                );
            }
            (calls.get(), contact.map_or(f64::NAN, |c| f64::from(c.dist)))
        }
    };
}

parry_contact!(parry_contact32, parry3d, p32, Counted32);
parry_contact!(parry_contact64, parry3d_f64, p64, Counted64);

/// nphase GJK on the cores: `(iterations, support calls, signed distance)`.
fn nphase_gjk<T: Real>(
    (core1, radius1): &(Core<'_, T>, T),
    (core2, radius2): &(Core<'_, T>, T),
    pos12: &Iso,
    options: GjkOptions,
    cache: &mut SimplexCache<T>,
) -> (u32, u32, f64) {
    let input = GjkInput::new(core1, core2, iso(pos12))
        .with_radii(*radius1, *radius2)
        .with_options(options);
    let out = closest_points(&input, cache);
    let distance = match out.status {
        GjkStatus::Separated(c) => c.distance.as_f64(),
        _ => f64::NAN,
    };
    (out.stats.iterations, out.stats.support_calls, distance)
}

fn gjk_cold_warm() {
    println!(
        "## GJK, cold vs warm on coherent motion (8 trajectories × 32 frames, forth and back)"
    );
    println!();
    println!(
        "| pair | gap | prec | nphase cold it | nphase cold calls | nphase warm it | nphase warm calls | parry calls | nphase max err/scale | parry max err/scale |"
    );
    println!("|---|---|---|---:|---:|---:|---:|---:|---:|---:|");
    for (name, da, db) in gjk_pairs().into_iter().chain(curved_gjk_pairs()) {
        let scale = scale(&da, &db);
        for (gap, fraction) in GAPS {
            let trajectories = coherent_poses(&da, &db, fraction * scale, 8, 32, 7);
            let target = fraction * scale;
            row::<f32>(&name, gap, &da, &db, &trajectories, target, scale);
            row::<f64>(&name, gap, &da, &db, &trajectories, target, scale);
        }
    }
    println!();
}

fn row<T: Real>(
    name: &str,
    gap: &str,
    da: &Desc,
    db: &Desc,
    trajectories: &[Vec<Iso>],
    target: f64,
    scale: f64,
) {
    let (sa, sb) = (da.nphase::<T>(), db.nphase::<T>());
    let (ca, cb) = (sa.core(), sb.core());
    let f64_run = T::TOLERANCES.epsilon.as_f64() < 1e-10;
    let [
        mut cold,
        mut cold_calls,
        mut warm,
        mut warm_calls,
        mut parry,
    ] = <[Stat; 5]>::default();
    let (mut err, mut parry_err) = (Stat::default(), Stat::default());
    for poses in trajectories {
        let mut cache = SimplexCache::EMPTY;
        for pos12 in poses {
            let mut empty = SimplexCache::EMPTY;
            let (it, calls, d) = nphase_gjk(&ca, &cb, pos12, GjkOptions::default(), &mut empty);
            cold.add(f64::from(it));
            cold_calls.add(f64::from(calls));
            err.add((d - target).abs() / scale);
            let (it, calls, _) = nphase_gjk(&ca, &cb, pos12, GjkOptions::default(), &mut cache);
            warm.add(f64::from(it));
            warm_calls.add(f64::from(calls));
            let (calls, d) = if f64_run {
                parry_gjk64(da, db, pos12)
            } else {
                parry_gjk32(da, db, pos12)
            };
            parry.add(calls as f64);
            parry_err.add((d - target).abs() / scale);
        }
    }
    let nphase_err = if f64_run {
        "(reference)".to_owned()
    } else {
        format!("{:.1e}", err.max)
    };
    println!(
        "| {name} | {gap} | {} | {:.2} | {:.2} | {:.2} | {:.2} | {:.2} | {nphase_err} | {:.1e} |",
        if f64_run { "f64" } else { "f32" },
        cold.mean(),
        cold_calls.mean(),
        warm.mean(),
        warm_calls.mean(),
        parry.mean(),
        parry_err.max,
    );
}

fn acceleration() {
    println!("## GJK acceleration: mean iterations (max), 128 random poses, cold");
    println!();
    println!("| pair | gap | prec | plain | nesterov normalised | nesterov raw |");
    println!("|---|---|---|---:|---:|---:|");
    for (name, da, db) in acceleration_pairs() {
        let scale = scale(&da, &db);
        for (gap, fraction) in GAPS {
            let poses = random_poses(&da, &db, fraction * scale, 128, 11);
            accel_row::<f32>(&name, gap, &da, &db, &poses);
            accel_row::<f64>(&name, gap, &da, &db, &poses);
        }
    }
    println!();
}

fn accel_row<T: Real>(name: &str, gap: &str, da: &Desc, db: &Desc, poses: &[Iso]) {
    let (sa, sb) = (da.nphase::<T>(), db.nphase::<T>());
    let (ca, cb) = (sa.core(), sb.core());
    let mut cells = Vec::new();
    for acceleration in [
        Acceleration::None,
        Acceleration::Nesterov { normalize: true },
        Acceleration::Nesterov { normalize: false },
    ] {
        let options = GjkOptions {
            acceleration,
            ..GjkOptions::default()
        };
        let mut it = Stat::default();
        for pos12 in poses {
            let mut cache = SimplexCache::EMPTY;
            it.add(f64::from(
                nphase_gjk(&ca, &cb, pos12, options, &mut cache).0,
            ));
        }
        cells.push(format!("{:.2} ({})", it.mean(), it.max));
    }
    let prec = if T::TOLERANCES.epsilon.as_f64() < 1e-10 {
        "f64"
    } else {
        "f32"
    };
    println!("| {name} | {gap} | {prec} | {} |", cells.join(" | "));
}

/// The header of the tables of `epa_row`.
fn epa_header() {
    println!(
        "| pair | depth | prec | GJK it | EPA runs | EPA it (max) | EPA calls | max faces | parry calls | nphase max err/scale | parry max err/scale |"
    );
    println!("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|");
}

fn epa() {
    println!("## EPA on curved pairs: 64 random configurations per row, cold");
    println!();
    epa_header();
    let cuboid = Desc::Cuboid(Vector3::new(0.5, 0.5, 0.3));
    let pairs = [
        ("cylinder-box", Desc::Cylinder(0.5, 0.4), cuboid.clone()),
        ("cone-box", Desc::Cone(0.5, 0.4), cuboid),
        (
            "cylinder-cylinder",
            Desc::Cylinder(0.5, 0.4),
            Desc::Cylinder(0.4, 0.3),
        ),
        (
            "cone-cylinder",
            Desc::Cone(0.5, 0.4),
            Desc::Cylinder(0.4, 0.3),
        ),
    ];
    for (name, da, db) in pairs {
        let scale = scale(&da, &db);
        for (depth, fraction) in DEPTHS {
            let poses = random_poses(&da, &db, fraction * scale, 64, 13);
            let case = Case {
                name,
                depth,
                target: fraction * scale,
                scale,
                prediction: 0.0,
            };
            epa_row::<f32>(&case, &da, &db, &poses);
            epa_row::<f64>(&case, &da, &db, &poses);
        }
    }
    println!();
}

fn contact_work() {
    println!(
        "## The contact bench's pairs: work per query and accuracy, 64 configurations per row, cold"
    );
    println!();
    epa_header();
    for (name, da, db) in common::contact_pairs() {
        let scale = scale(&da, &db);
        for (depth, fraction) in CONTACT_DEPTHS {
            let poses = random_poses(&da, &db, fraction * scale, 64, 13);
            let case = Case {
                name: &name,
                depth,
                target: fraction * scale,
                scale,
                prediction: PREDICTION * scale,
            };
            epa_row::<f32>(&case, &da, &db, &poses);
            epa_row::<f64>(&case, &da, &db, &poses);
        }
    }
    println!();
}

/// A row of the EPA tables: the pair, the depth label, the signed distance the poses were
/// placed at, the scale and the prediction distance.
struct Case<'a> {
    name: &'a str,
    depth: &'a str,
    target: f64,
    scale: f64,
    prediction: f64,
}

fn epa_row<T: Real>(case: &Case<'_>, da: &Desc, db: &Desc, poses: &[Iso]) {
    let Case {
        name,
        depth,
        target,
        scale,
        prediction,
    } = *case;
    let (sa, sb): (Shape<T>, Shape<T>) = (da.nphase(), db.nphase());
    let ((c1, r1), (c2, r2)) = (sa.core(), sb.core());
    let f64_run = T::TOLERANCES.epsilon.as_f64() < 1e-10;
    let mut workspace = EpaWorkspace::new();
    let [mut gjk_it, mut runs, mut epa_it, mut epa_calls, mut faces] = <[Stat; 5]>::default();
    let [mut parry, mut err, mut parry_err] = <[Stat; 3]>::default();
    let curved = |c: &Core<'_, T>| matches!(c, Core::Cylinder(_) | Core::Cone(_));
    let options = EpaOptions {
        curved: curved(&c1) || curved(&c2),
        ..EpaOptions::default()
    };
    for pos12 in poses {
        let pose: Isometry3<T> = iso(pos12);
        let input = GjkInput::new(&c1, &c2, pose)
            .with_radii(r1, r2)
            .with_max_dist(T::lit(prediction));
        let mut cache = SimplexCache::EMPTY;
        // A point core against a cuboid core has a closed form in `query_pair`: no GJK.
        let closed_form = matches!(
            (&c1, &c2),
            (Core::Cuboid(_), Core::Point) | (Core::Point, Core::Cuboid(_))
        );
        let mut simplex = Simplex::default();
        let gjk = closest_points_with_simplex(&input, &mut cache, &mut simplex);
        gjk_it.add(if closed_form {
            0.0
        } else {
            f64::from(gjk.stats.iterations)
        });
        let epa_runs = !closed_form
            && matches!(
                gjk.status,
                GjkStatus::Intersecting | GjkStatus::Stalled { .. }
            );
        runs.add(f64::from(u8::from(epa_runs)));
        if epa_runs {
            let out = nphase_epa::penetration(&input, &simplex, &options, &mut workspace);
            epa_it.add(f64::from(out.stats.iterations));
            epa_calls.add(f64::from(out.stats.support_calls));
            faces.add(f64::from(out.stats.max_faces));
        }
        let d = nphase_pipeline::query::distance(&Isometry3::identity(), &sa, &pose, &sb)
            .expect("finite");
        err.add((d.as_f64() - target).abs() / scale);
        let (calls, d) = if f64_run {
            parry_contact64(da, db, pos12, prediction)
        } else {
            parry_contact32(da, db, pos12, prediction)
        };
        parry.add(calls as f64);
        parry_err.add((d - target).abs() / scale);
    }
    let nphase_err = if f64_run {
        "(reference)".to_owned()
    } else {
        format!("{:.1e}", err.max)
    };
    println!(
        "| {name} | {depth} | {} | {:.2} | {:.2} | {:.2} ({}) | {:.2} | {:.0} | {:.2} | {nphase_err} | {:.1e} |",
        if f64_run { "f64" } else { "f32" },
        gjk_it.mean(),
        runs.mean(),
        epa_it.mean(),
        epa_it.max,
        epa_calls.mean(),
        faces.max,
        parry.mean(),
        parry_err.max,
    );
}

fn main() {
    gjk_cold_warm();
    acceleration();
    epa();
    contact_work();
}
