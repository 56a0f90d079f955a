//! The rapier3d 0.36 scenes of `docs/engines.md`, shared by the engine tests and the
//! `engines` example: a 16-box stack, a 210-box pyramid (base 20) and 25 towers of 4 cylinders
//! on a ground cuboid, and ~1000 mixed convex shapes dropped into a container of cuboids.
//!
//! f32, 60 Hz (rapier's default `dt`), sleeping off on every body and rapier's contact
//! recycling off, so every pair goes through the narrowphase at every step. Run with stock
//! rapier (`Engine::Rapier`), with nphase's dispatcher (`Engine::Nphase`), or with stock rapier
//! giving each place of a manifold to its solver once (`Engine::RapierMerged`, the control for
//! issue 12's mixed-pile bars); everything else is identical, including what the seed decides:
//!
//! * stack and towers: each box or cylinder is moved sideways (x and z) by up to
//!   [`PLACEMENT_JITTER`] and turned about the vertical by up to [`YAW_JITTER`] (uniform,
//!   independent);
//! * pyramid: each box is moved along z (across the pyramid's plane, where it has no
//!   neighbour) by up to [`PLACEMENT_JITTER`] and turned about the vertical by up to
//!   [`YAW_JITTER`] — its corners then reach up to 0.5 mm into a neighbour's (a 1e-3 turn of a
//!   unit box); a shift along x would push whole faces 2 mm into each other;
//! * mixed: the shapes' turns and sizes (a `Pcg64` seeded with the seed).
//!
//! A [`Report`] also measures the mixed scene's pairs by their curved member ([`Curved`]).

use std::collections::HashMap;
use std::time::{Duration, Instant};

use nphase_parry::{DispatchStats, Dispatcher};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;
use rapier3d::parry::shape::PackedFeatureId;
use rapier3d::prelude::*;

/// The three scenes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scene {
    /// 16 unit boxes stacked on a ground cuboid.
    Stack,
    /// 210 unit boxes, base 20, side by side on a ground cuboid.
    Pyramid,
    /// 25 towers (5 × 5, 1 apart) of 4 cylinders (radius 0.3, height 0.8) standing cap on cap
    /// on a ground cuboid.
    Towers,
    /// 1000 mixed convex shapes dropped into a box of five cuboids.
    Mixed,
}

impl Scene {
    pub const ALL: [Scene; 4] = [Scene::Stack, Scene::Pyramid, Scene::Towers, Scene::Mixed];

    pub fn name(self) -> &'static str {
        match self {
            Scene::Stack => "16-box stack",
            Scene::Pyramid => "210-box pyramid",
            Scene::Towers => "25 towers of 4 cylinders",
            Scene::Mixed => "1000 mixed shapes in a container",
        }
    }
}

/// Whose narrowphase answers the convex pairs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// rapier's own (parry's `DefaultQueryDispatcher`).
    Rapier,
    /// [`nphase_parry::Dispatcher`].
    Nphase,
    /// rapier's own, its solver given each place of a manifold once: solver contacts within
    /// [`COINCIDENT`] of an earlier one of their manifold are dropped ([`MergeCoincident`]).
    /// parry appends its exact witness to the clipped points of a convex manifold, and on a
    /// curved pair it mostly lands on one of them: a place held by two soft constraints, which
    /// rest shallower under a load than one. nphase names each place once, so this is stock's
    /// contacts with nphase's multiplicity — what issue 12's mixed-pile bars compare against in
    /// `tests/engines.rs` besides stock itself. A control for a measurement, not a
    /// configuration to ship.
    RapierMerged,
}

impl Engine {
    pub fn name(self) -> &'static str {
        match self {
            Engine::Rapier => "rapier",
            Engine::Nphase => "rapier + nphase",
            Engine::RapierMerged => "rapier, each place once",
        }
    }
}

/// The examples' command line: steps (600 without it), rounds (3, at least 1), and the scenes
/// whose name contains the third argument (all without it).
pub fn command_line() -> (usize, usize, Vec<Scene>) {
    let arg = |k: usize, default: usize| {
        std::env::args()
            .nth(k)
            .and_then(|s| s.parse().ok())
            .unwrap_or(default)
    };
    let only = std::env::args().nth(3);
    let scenes = Scene::ALL
        .into_iter()
        .filter(|s| only.as_deref().is_none_or(|o| s.name().contains(o)))
        .collect();
    (arg(1, 600), arg(2, 3).max(1), scenes)
}

/// The seeds the tests and the example run.
pub const SEEDS: [u64; 3] = [1, 2, 3];

/// The largest sideways shift of a box of the stack or the pyramid (m; see the module doc).
pub const PLACEMENT_JITTER: f32 = 1e-3;
/// The largest turn of a box of the stack or the pyramid about the vertical (rad).
pub const YAW_JITTER: f32 = 1e-3;

/// The resting depth is measured over this many last steps of a run ([`KindReport`]).
pub const RESTING_STEPS: usize = 100;

/// The curved shapes of the mixed scene, by which its pairs are measured apart. A pair counts
/// for each curved kind among its two shapes: a cylinder on a box is a cylinder pair, a
/// cylinder on a cone is a cylinder pair and a cone pair, a cylinder on a cylinder one cylinder
/// pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Curved {
    Cylinder,
    Cone,
    Capsule,
}

impl Curved {
    pub const ALL: [Curved; 3] = [Curved::Cylinder, Curved::Cone, Curved::Capsule];

    pub fn name(self) -> &'static str {
        match self {
            Curved::Cylinder => "cylinder",
            Curved::Cone => "cone",
            Curved::Capsule => "capsule",
        }
    }

    fn of(shape: &dyn Shape) -> Option<Curved> {
        use rapier3d::parry::shape::ShapeType;
        match shape.shape_type() {
            ShapeType::Cylinder | ShapeType::RoundCylinder => Some(Curved::Cylinder),
            ShapeType::Cone | ShapeType::RoundCone => Some(Curved::Cone),
            ShapeType::Capsule => Some(Curved::Capsule),
            _ => None,
        }
    }
}

/// Solver contacts of one manifold closer together than this (m, world frame) are one place:
/// parry's convex manifolds (`contact_manifold_pfm_pfm`) append the exact GJK/EPA witness to
/// the clipped points, and in most curved manifolds it lands on one of them (mostly within
/// 10 µm), so stock rapier's solver gets that point twice.
pub const COINCIDENT: f32 = 1e-4;

/// A contact point whose id is new in its manifold, while a point of the same manifold's
/// previous step whose id is gone lies within this distance of it (m, on collider 1, in its
/// frame), was renamed: it is the same point under another id, and its warm start was lost
/// (issue 12, part 1, in the engine: [`Renames`]).
pub const RENAME_REACH: f32 = 0.01;

/// Contact points renamed between consecutive steps ([`RENAME_REACH`]): every point of a
/// manifold that existed the step before, with or without points (`followed`), and those
/// renamed, over the whole run and over its last [`RESTING_STEPS`] steps. A manifold is its
/// pair's by its place among the pair's manifolds (one for the convex pairs of these scenes).
/// Each new point is judged on its own: two new points near one vanished point both count,
/// and a genuinely new point within reach of a vanished one counts as renamed (an upper
/// bound).
#[derive(Clone, Copy, Debug, Default)]
pub struct Renames {
    pub followed: u64,
    pub renamed: u64,
    pub resting_followed: u64,
    pub resting_renamed: u64,
}

impl Renames {
    /// Renamed points per followed point, over the run and at rest.
    pub fn rates(&self) -> (f64, f64) {
        (
            self.renamed as f64 / self.followed.max(1) as f64,
            self.resting_renamed as f64 / self.resting_followed.max(1) as f64,
        )
    }
}

/// A contact point as [`Renames`] follows it: where it is on collider 1 (its frame) and its
/// feature ids.
type Followed = (Vector, PackedFeatureId, PackedFeatureId);

/// The pairs of one [`Curved`] kind over a run.
///
/// * `solver_points`: rapier's solver contacts (`ContactManifoldData::solver_contacts`, the at
///   most four points the solver gets of a manifold) per manifold that has any, over every
///   step; `distinct_points` counts solver contacts within [`COINCIDENT`] of an earlier one of
///   the same manifold once;
/// * `resting_depth`: over the last [`RESTING_STEPS`] steps, the mean over those manifolds of
///   each one's deepest penetration (`max(0, −dist)` of its deepest point, 0 for a manifold
///   whose points are all within the prediction distance but apart): how deep the settled
///   pile rests, not the impact of the first fall.
#[derive(Clone, Copy, Debug, Default)]
pub struct KindReport {
    /// Manifolds with at least one solver contact, summed over the steps.
    pub manifolds: u64,
    /// Their solver contacts.
    pub points: u64,
    /// Their solver contacts, those within [`COINCIDENT`] of an earlier one left out.
    pub distinct: u64,
    /// Manifolds with a solver contact in the last [`RESTING_STEPS`] steps, summed over those
    /// steps.
    pub resting_manifolds: u64,
    /// The sum of their deepest penetrations.
    pub resting_depth_sum: f64,
    /// The deepest of them.
    pub resting_deepest: f32,
    /// The resting manifolds split by how many distinct places (see [`COINCIDENT`]) and how
    /// many solver contacts they have: `[places − 1][contacts − 1]` (rapier's solver gets at
    /// most four contacts of a manifold). It shows how rapier's soft contacts rest by how many
    /// constraints share one place, apart from the contact geometry.
    pub resting_split: [[RestingCell; 4]; 4],
}

/// Resting manifolds of one kind of [`KindReport::resting_split`].
#[derive(Clone, Copy, Debug, Default)]
pub struct RestingCell {
    /// Manifolds, summed over the resting steps.
    pub manifolds: u64,
    /// The sum of their deepest penetrations.
    pub depth_sum: f64,
}

impl RestingCell {
    /// The mean deepest penetration of these manifolds.
    pub fn depth(&self) -> f64 {
        self.depth_sum / self.manifolds.max(1) as f64
    }
}

impl KindReport {
    /// Solver contacts per manifold that has any.
    pub fn solver_points(&self) -> f64 {
        self.points as f64 / self.manifolds.max(1) as f64
    }

    /// Distinct solver contacts (see [`COINCIDENT`]) per manifold that has any.
    pub fn distinct_points(&self) -> f64 {
        self.distinct as f64 / self.manifolds.max(1) as f64
    }

    /// The mean deepest penetration of the manifolds of the last [`RESTING_STEPS`] steps.
    pub fn resting_depth(&self) -> f64 {
        self.resting_depth_sum / self.resting_manifolds.max(1) as f64
    }
}

/// Half-size of the unit boxes.
const HALF: f32 = 0.5;
/// The towers' cylinders, and how many stand in a tower.
const CYLINDER_HALF_HEIGHT: f32 = 0.4;
const CYLINDER_RADIUS: f32 = 0.3;
const TOWER_HEIGHT: usize = 4;
/// Inner half-width of the container (x and z) and its wall height.
const CONTAINER_HALF: f32 = 6.0;
const WALL_HEIGHT: f32 = 40.0;

/// A built scene, ready to step.
pub struct World {
    pub world: PhysicsWorld,
    /// The body whose displacement is recorded (the top box; the first body for the mixed
    /// scene).
    pub tracked: RigidBodyHandle,
    /// Where every dynamic body started (the tracked one among them).
    starts: Vec<(RigidBodyHandle, Vector)>,
    pub scene: Scene,
    pub dispatcher: Option<Dispatcher>,
    /// Whether the solver gets each place once ([`Engine::RapierMerged`]).
    merge_coincident: bool,
    /// Each collider's curved kind, if it has one (the mixed scene's statistics).
    curved: HashMap<ColliderHandle, Curved>,
}

/// Per-step motion of the dynamic bodies at rest ([`Report::resting_motion`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct RestingMotion {
    pub translation_p50: f32,
    pub translation_p90: f32,
    pub turn_p50: f32,
    pub turn_p90: f32,
}

/// What a run measured.
#[derive(Clone, Debug, Default)]
pub struct Report {
    pub steps: usize,
    pub step_time: Duration,
    pub narrow_phase_time: Duration,
    /// The part of `narrow_phase_time` spent in the last [`RESTING_STEPS`] steps.
    pub resting_narrow_phase_time: Duration,
    /// How far the tracked body ended from where it started.
    pub top_displacement: f32,
    /// How far the dynamic body that moved most ended from where it started.
    pub largest_displacement: f32,
    /// Σ ½mv² + ½ωᵀIω over the dynamic bodies after the last step.
    pub kinetic_energy: f32,
    /// The deepest penetration of any contact point at any step (a positive depth).
    pub deepest_penetration: f32,
    /// Contact points per manifold with at least one point, averaged over every step.
    pub points_per_manifold: f64,
    /// rapier's solver contacts per manifold with at least one, averaged over every step.
    pub solver_points_per_manifold: f64,
    /// The pairs involving each [`Curved`] kind, in the order of [`Curved::ALL`].
    pub kinds: [KindReport; 3],
    /// Points renamed from step to step.
    pub renames: Renames,
    /// Over the last [`RESTING_STEPS`] steps, how far the dynamic bodies move in a step: the
    /// median and the 90th percentile over the bodies of each step's translation (m) and turn
    /// (rad), averaged over those steps — what a narrowphase at rest sees from one step to
    /// the next.
    pub resting_motion: RestingMotion,
    /// A body position or velocity was NaN or infinite at some step.
    pub non_finite: bool,
    /// Bodies outside the container (or fallen through the ground) after the last step.
    pub escaped: usize,
    pub dynamic_bodies: usize,
    pub dispatch: Option<DispatchStats>,
}

/// The scene for `seed` (see the module doc for what the seed decides).
pub fn build(scene: Scene, engine: Engine, seed: u64) -> World {
    let mut world = PhysicsWorld::new();
    world.integration_parameters.contact_recycling = false;
    let dispatcher = match engine {
        Engine::Rapier | Engine::RapierMerged => None,
        Engine::Nphase => {
            let d = Dispatcher::default();
            world.narrow_phase = NarrowPhase::with_query_dispatcher(d.clone());
            Some(d)
        }
    };
    let ground = |world: &mut PhysicsWorld, half: Vector, at: Vector| {
        world.insert_collider(
            ColliderBuilder::cuboid(half.x, half.y, half.z).translation(at),
            None,
        );
    };
    let body = |at: Vector| RigidBodyBuilder::dynamic().translation(at).can_sleep(false);
    let mut rng = Pcg64::seed_from_u64(seed);
    // A box of the stack or the pyramid, moved by `shift` (scaled by PLACEMENT_JITTER) and turned
    // about the vertical by up to YAW_JITTER.
    let mut jittered = |at: Vector, shift: Vector| {
        let mut u = || rng.random_range(-1.0f32..=1.0);
        let offset = Vector::new(shift.x * u(), 0.0, shift.z * u()) * PLACEMENT_JITTER;
        body(at + offset).rotation(Vector::new(0.0, YAW_JITTER * u(), 0.0))
    };
    let mut tracked = None;
    match scene {
        Scene::Stack => {
            ground(
                &mut world,
                Vector::new(20.0, 0.5, 20.0),
                Vector::new(0.0, -0.5, 0.0),
            );
            for i in 0..16 {
                let at = Vector::new(0.0, HALF + 2.0 * HALF * i as f32, 0.0);
                let rb = jittered(at, Vector::new(1.0, 0.0, 1.0));
                let (h, _) = world.insert(rb, ColliderBuilder::cuboid(HALF, HALF, HALF));
                tracked = Some(h);
            }
        }
        Scene::Towers => {
            ground(
                &mut world,
                Vector::new(20.0, 0.5, 20.0),
                Vector::new(0.0, -0.5, 0.0),
            );
            for k in 0..25 * TOWER_HEIGHT {
                let (i, j, level) = (k % 5, (k / 5) % 5, k / 25);
                let at = Vector::new(
                    i as f32 - 2.0,
                    CYLINDER_HALF_HEIGHT * (1.0 + 2.0 * level as f32),
                    j as f32 - 2.0,
                );
                let rb = jittered(at, Vector::new(1.0, 0.0, 1.0));
                let cylinder = ColliderBuilder::cylinder(CYLINDER_HALF_HEIGHT, CYLINDER_RADIUS);
                let (h, _) = world.insert(rb, cylinder);
                tracked = Some(h);
            }
        }
        Scene::Pyramid => {
            ground(
                &mut world,
                Vector::new(40.0, 0.5, 40.0),
                Vector::new(0.0, -0.5, 0.0),
            );
            let base = 20;
            for row in 0..base {
                let count = base - row;
                for i in 0..count {
                    let x = (i as f32 - (count - 1) as f32 / 2.0) * 2.0 * HALF;
                    let at = Vector::new(x, HALF + 2.0 * HALF * row as f32, 0.0);
                    let rb = jittered(at, Vector::new(0.0, 0.0, 1.0));
                    let (h, _) = world.insert(rb, ColliderBuilder::cuboid(HALF, HALF, HALF));
                    tracked = Some(h);
                }
            }
        }
        Scene::Mixed => {
            let c = CONTAINER_HALF;
            let t = 0.5;
            ground(
                &mut world,
                Vector::new(c + 2.0 * t, t, c + 2.0 * t),
                Vector::new(0.0, -t, 0.0),
            );
            for (half, at) in [
                (
                    Vector::new(t, WALL_HEIGHT / 2.0, c + 2.0 * t),
                    Vector::new(c + t, WALL_HEIGHT / 2.0, 0.0),
                ),
                (
                    Vector::new(t, WALL_HEIGHT / 2.0, c + 2.0 * t),
                    Vector::new(-c - t, WALL_HEIGHT / 2.0, 0.0),
                ),
                (
                    Vector::new(c + 2.0 * t, WALL_HEIGHT / 2.0, t),
                    Vector::new(0.0, WALL_HEIGHT / 2.0, c + t),
                ),
                (
                    Vector::new(c + 2.0 * t, WALL_HEIGHT / 2.0, t),
                    Vector::new(0.0, WALL_HEIGHT / 2.0, -c - t),
                ),
            ] {
                ground(&mut world, half, at);
            }
            // A 10 × 10 × 10 lattice, 1.1 apart, its lowest layer 1 above the floor.
            for k in 0..1000 {
                let (i, j, l) = (k % 10, (k / 10) % 10, k / 100);
                let at = Vector::new(
                    (i as f32 - 4.5) * 1.1,
                    1.0 + l as f32 * 1.1,
                    (j as f32 - 4.5) * 1.1,
                );
                let rotation = Vector::new(
                    rng.random_range(-3.0..3.0),
                    rng.random_range(-3.0..3.0),
                    rng.random_range(-3.0..3.0),
                );
                let rb = body(at).rotation(rotation);
                let (h, _) = world.insert(rb, mixed_shape(k, &mut rng));
                if k == 0 {
                    tracked = Some(h);
                }
            }
        }
    }
    let tracked = tracked.unwrap_or_else(RigidBodyHandle::invalid);
    let curved = world
        .colliders
        .iter()
        .filter_map(|(h, c)| Some((h, Curved::of(c.shape())?)))
        .collect();
    let starts = world
        .bodies
        .iter()
        .filter(|(_, b)| b.is_dynamic())
        .map(|(h, b)| (h, b.translation()))
        .collect();
    let merge_coincident = engine == Engine::RapierMerged;
    if merge_coincident {
        for (_, collider) in world.colliders.iter_mut() {
            collider.set_active_hooks(ActiveHooks::MODIFY_SOLVER_CONTACTS);
        }
    }
    World {
        world,
        tracked,
        starts,
        scene,
        dispatcher,
        merge_coincident,
        curved,
    }
}

/// The hook of [`Engine::RapierMerged`]: a manifold's solver contacts within [`COINCIDENT`] of
/// an earlier one are dropped, the first of each place kept (parry's witness comes after the
/// clipped points). The anchors are world points inside the hook; the distance between two is
/// the same in either body's frame.
struct MergeCoincident;

impl PhysicsHooks for MergeCoincident {
    fn modify_solver_contacts(&self, context: &mut ContactModificationContext) {
        let Some(manifold) = context.rigid_mut() else {
            return;
        };
        let contacts = &mut *manifold.solver_contacts;
        let mut kept = 0;
        for i in 0..contacts.len() {
            let contact = contacts[i];
            let apart = |k: &SolverContact| (k.anchor1 - contact.anchor1).length() >= COINCIDENT;
            if contacts[..kept].iter().all(apart) {
                contacts[kept] = contact;
                kept += 1;
            }
        }
        contacts.truncate(kept);
    }
}

/// The `k`-th shape of the mixed scene: each of seven convex types in turn, sizes 0.2–0.5.
fn mixed_shape(k: usize, rng: &mut Pcg64) -> ColliderBuilder {
    let mut s = || rng.random_range(0.2f32..0.5);
    match k % 7 {
        0 => ColliderBuilder::ball(s()),
        1 => ColliderBuilder::cuboid(s(), s(), s()),
        2 => ColliderBuilder::capsule_y(s() * 0.8, s() * 0.6),
        3 => ColliderBuilder::cylinder(s() * 0.8, s()),
        4 => ColliderBuilder::cone(s() * 0.8, s()),
        5 => ColliderBuilder::round_cuboid(s() * 0.8, s() * 0.8, s() * 0.8, 0.05),
        _ => {
            let r = s();
            let points: Vec<Vector> = (0..12)
                .map(|n| {
                    let a = n as f32 * 2.4;
                    let y = 1.0 - 2.0 * (n as f32 + 0.5) / 12.0;
                    let ring = (1.0 - y * y).sqrt();
                    Vector::new(ring * a.cos(), y, ring * a.sin()) * r
                })
                .collect();
            ColliderBuilder::convex_hull(&points).unwrap_or_else(|| ColliderBuilder::ball(r))
        }
    }
}

/// Of a manifold's points `now`, how many the step before had a manifold to follow them from
/// (all of them) and how many were renamed ([`RENAME_REACH`]).
fn count_renamed(last: &[Followed], now: &[Followed]) -> (u64, u64) {
    let ids = |p: &Followed| (p.1, p.2);
    let gone = |q: &&Followed| !now.iter().any(|p| ids(p) == ids(q));
    let renamed = now
        .iter()
        .filter(|p| !last.iter().any(|q| ids(q) == ids(p)))
        .filter(|p| {
            last.iter()
                .filter(gone)
                .any(|q| (q.0 - p.0).length() < RENAME_REACH)
        })
        .count();
    (now.len() as u64, renamed as u64)
}

impl World {
    /// Steps `steps` times, measuring (see [`Report`]).
    pub fn run(&mut self, steps: usize) -> Report {
        let mut report = Report::default();
        let (mut manifolds, mut points) = (0u64, 0u64);
        let (mut solver_manifolds, mut solver_points) = (0u64, 0u64);
        let mut last_points: HashMap<(ColliderHandle, ColliderHandle, usize), Vec<Followed>> =
            HashMap::new();
        let mut points_now = HashMap::new();
        for step in 0..steps {
            let resting = step + RESTING_STEPS >= steps;
            let before: Vec<_> = if resting {
                self.world
                    .bodies
                    .iter()
                    .filter(|(_, b)| b.is_dynamic())
                    .map(|(h, b)| (h, *b.position()))
                    .collect()
            } else {
                Vec::new()
            };
            let start = Instant::now();
            if self.merge_coincident {
                self.world.step_with_events(&MergeCoincident, &());
            } else {
                self.world.step();
            }
            report.step_time += start.elapsed();
            if resting {
                self.measure_motion(&before, &mut report.resting_motion);
            }
            let narrow_phase_time = self
                .world
                .physics_pipeline
                .counters
                .cd
                .narrow_phase_time
                .time();
            report.narrow_phase_time += narrow_phase_time;
            if resting {
                report.resting_narrow_phase_time += narrow_phase_time;
            }
            points_now.clear();
            for pair in self.world.narrow_phase.contact_pairs() {
                let kinds = [pair.collider1, pair.collider2].map(|c| self.curved.get(&c).copied());
                for (k, m) in pair.manifolds().iter().enumerate() {
                    let now: Vec<Followed> = m
                        .points
                        .iter()
                        .map(|p| (p.local_p1, p.fid1, p.fid2))
                        .collect();
                    let key = (pair.collider1, pair.collider2, k);
                    if let Some(last) = last_points.get(&key) {
                        let (followed, renamed) = count_renamed(last, &now);
                        let r = &mut report.renames;
                        r.followed += followed;
                        r.renamed += renamed;
                        if resting {
                            r.resting_followed += followed;
                            r.resting_renamed += renamed;
                        }
                    }
                    points_now.insert(key, now);
                    if !m.points.is_empty() {
                        manifolds += 1;
                        points += m.points.len() as u64;
                    }
                    let deepest = m.points.iter().fold(0.0f32, |d, p| d.max(-p.dist));
                    report.deepest_penetration = report.deepest_penetration.max(deepest);
                    let solver = m.data.solver_contacts.len() as u64;
                    if solver == 0 {
                        continue;
                    }
                    solver_manifolds += 1;
                    solver_points += solver;
                    let contacts = &m.data.solver_contacts;
                    let distinct = (0..contacts.len())
                        .filter(|&i| {
                            contacts[..i]
                                .iter()
                                .all(|c| (c.anchor1 - contacts[i].anchor1).length() >= COINCIDENT)
                        })
                        .count() as u64;
                    for (kind, stats) in Curved::ALL.iter().zip(&mut report.kinds) {
                        if kinds.contains(&Some(*kind)) {
                            stats.manifolds += 1;
                            stats.points += solver;
                            stats.distinct += distinct;
                            if resting {
                                stats.resting_manifolds += 1;
                                stats.resting_depth_sum += f64::from(deepest);
                                stats.resting_deepest = stats.resting_deepest.max(deepest);
                                let cell = &mut stats.resting_split[distinct.min(4) as usize - 1]
                                    [solver.min(4) as usize - 1];
                                cell.manifolds += 1;
                                cell.depth_sum += f64::from(deepest);
                            }
                        }
                    }
                }
            }
            std::mem::swap(&mut last_points, &mut points_now);
            let finite = self.world.bodies.iter().all(|(_, b)| {
                b.translation().is_finite() && b.linvel().is_finite() && b.angvel().is_finite()
            });
            if !finite {
                report.non_finite = true;
                break;
            }
        }
        report.steps = steps;
        let m = &mut report.resting_motion;
        let resting = RESTING_STEPS.min(steps).max(1) as f32;
        for x in [
            &mut m.translation_p50,
            &mut m.translation_p90,
            &mut m.turn_p50,
            &mut m.turn_p90,
        ] {
            *x /= resting;
        }
        report.points_per_manifold = points as f64 / manifolds.max(1) as f64;
        report.solver_points_per_manifold = solver_points as f64 / solver_manifolds.max(1) as f64;
        let dynamic: Vec<&RigidBody> = self
            .world
            .bodies
            .iter()
            .map(|(_, b)| b)
            .filter(|b| b.is_dynamic())
            .collect();
        report.dynamic_bodies = dynamic.len();
        report.kinetic_energy = dynamic.iter().map(|b| b.kinetic_energy()).sum();
        report.escaped = dynamic
            .iter()
            .filter(|b| self.escaped(b.translation()))
            .count();
        // How far each dynamic body ended from where it started.
        let moved = self.starts.iter().filter_map(|(h, start)| {
            Some((
                *h,
                (self.world.bodies.get(*h)?.translation() - *start).length(),
            ))
        });
        report.largest_displacement = moved.clone().fold(0.0, |m, (_, d)| m.max(d));
        report.top_displacement = moved
            .into_iter()
            .find(|(h, _)| *h == self.tracked)
            .map_or(f32::NAN, |(_, d)| d);
        report.dispatch = self.dispatcher.as_ref().map(Dispatcher::stats);
        report
    }

    /// Adds this step's quantiles of the dynamic bodies' motion since `before` (their poses
    /// before the step) to `sum`.
    fn measure_motion(&self, before: &[(RigidBodyHandle, Pose)], sum: &mut RestingMotion) {
        let quantiles = |mut v: Vec<f32>| {
            v.sort_by(f32::total_cmp);
            let at = |q: usize| v.get(v.len() * q / 10).copied().unwrap_or(0.0);
            (at(5), at(9))
        };
        let (moved, turned): (Vec<f32>, Vec<f32>) = before
            .iter()
            .filter_map(|(h, p)| {
                let q = self.world.bodies.get(*h)?.position();
                let turn = (q.rotation * p.rotation.inverse()).to_axis_angle().1.abs();
                Some(((q.translation - p.translation).length(), turn))
            })
            .unzip();
        let ((t50, t90), (r50, r90)) = (quantiles(moved), quantiles(turned));
        sum.translation_p50 += t50;
        sum.translation_p90 += t90;
        sum.turn_p50 += r50;
        sum.turn_p90 += r90;
    }

    /// Below the ground, or (mixed scene) outside the container's walls.
    fn escaped(&self, p: Vector) -> bool {
        let below = p.y < -0.5;
        match self.scene {
            Scene::Mixed => below || p.x.abs() > CONTAINER_HALF || p.z.abs() > CONTAINER_HALF,
            _ => below,
        }
    }
}
