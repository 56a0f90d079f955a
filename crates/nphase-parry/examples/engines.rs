//! Stock rapier3d 0.36 and rapier + nphase side by side on the scenes of `docs/engines.md`, for
//! each of the seeds, in one run: prints the Markdown tables of that document.
//!
//! ```sh
//! cargo run --release -p nphase-parry --example engines              # 600 steps, 3 rounds
//! cargo run --release -p nphase-parry --example engines -- 120 1     # steps, rounds
//! cargo run --release -p nphase-parry --example engines -- 100 1 towers  # scenes named so
//! cargo run --release -p nphase-parry --example engines -- 600 1 mixed merged
//! ```
//!
//! With `merged` after the scene filter (`""` for every scene), the stock column is stock
//! rapier with its solver given each place of a manifold once (`Engine::RapierMerged`: the
//! solver contacts within `COINCIDENT` of an earlier one dropped) — the control of
//! docs/engines.md for issue 12's mixed-pile bars.
//!
//! Each scene and seed runs `rounds` times per engine, interleaved (rapier, nphase, rapier,
//! nphase, …) so that both see the same machine state; the times are each case's fastest round
//! (the machine is shared: the fastest round is the one least disturbed). The physics is
//! deterministic (one thread), so every round measures the same motion; the tables show the
//! first round's, and the example checks that the others agree.

#[path = "../tests/common/scenes.rs"]
mod scenes;

use scenes::{
    COINCIDENT, Curved, Engine, RENAME_REACH, RESTING_STEPS, Report, RestingCell, SEEDS, Scene,
    build, command_line,
};

fn main() {
    let (steps, rounds, scenes) = command_line();
    let stock = match std::env::args().nth(4).as_deref() {
        Some("merged") => Engine::RapierMerged,
        _ => Engine::Rapier,
    };
    let engines = [stock, Engine::Nphase];
    println!(
        "{steps} steps at 60 Hz, f32, sleeping and contact recycling off, seeds {SEEDS:?}; \
         times: fastest of {rounds} interleaved rounds; stock: {}.\n",
        stock.name()
    );
    println!(
        "| scene | seed | engine | ms / step | narrowphase ms / step | at rest | \
         top-body displacement | \
         largest displacement | final kinetic energy | deepest penetration | points / manifold \
         | solver points / manifold | escaped | NaN |"
    );
    println!(
        "| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: \
         | --- |"
    );
    let mut dispatch = Vec::new();
    let mut mixed = Vec::new();
    let mut renames = Vec::new();
    let mut motions = Vec::new();
    for scene in scenes {
        for seed in SEEDS {
            let mut best: [Option<Report>; 2] = [None, None];
            for _ in 0..rounds {
                for (engine, best) in engines.iter().zip(&mut best) {
                    let report = build(scene, *engine, seed).run(steps);
                    *best = Some(match best.take() {
                        None => report,
                        Some(first) => fastest(first, &report),
                    });
                }
            }
            let [Some(stock), Some(nphase)] = best else {
                unreachable!("rounds >= 1")
            };
            for (engine, report) in engines.iter().zip([&stock, &nphase]) {
                row(scene, seed, *engine, report);
            }
            renames.push((scene, seed, stock.renames, nphase.renames));
            motions.push((scene, seed, stock.resting_motion, nphase.resting_motion));
            if let Some(stats) = nphase.dispatch {
                dispatch.push((scene, seed, stats));
            }
            if scene == Scene::Mixed {
                mixed.push((seed, stock, nphase));
            }
        }
    }

    println!(
        "\nMixed scene by curved member: solver points per manifold (all steps; distinct: those \
         within {COINCIDENT} m of another counted once), resting depth (mean deepest \
         penetration per manifold, last {RESTING_STEPS} steps) and the deepest manifold of \
         those steps.\n"
    );
    println!(
        "| seed | pairs with | manifolds (stock / nphase) | solver points: stock | nphase | \
         distinct: stock | nphase | resting depth: stock | nphase | ratio | deepest at rest: \
         stock | nphase |"
    );
    println!(
        "| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
    );
    for (seed, stock, nphase) in &mixed {
        for (k, kind) in Curved::ALL.iter().enumerate() {
            let (r, n) = (stock.kinds[k], nphase.kinds[k]);
            println!(
                "| {seed} | {} | {} / {} | {:.2} | {:.2} | {:.2} | {:.2} | {:.5} | {:.5} | {:.2} | \
                 {:.4} | {:.4} |",
                kind.name(),
                r.manifolds,
                n.manifolds,
                r.solver_points(),
                n.solver_points(),
                r.distinct_points(),
                n.distinct_points(),
                r.resting_depth(),
                n.resting_depth(),
                n.resting_depth() / r.resting_depth(),
                r.resting_deepest,
                n.resting_deepest,
            );
        }
    }

    resting_split(&mixed);

    println!(
        "\nHow far the dynamic bodies move in a step over the last {RESTING_STEPS} steps: the \
         median and 90th percentile over the bodies of each step (translation in m, turn in \
         rad), averaged over the steps — what a narrowphase sees of a scene at rest.\n"
    );
    println!(
        "| scene | seed | translation p50: stock | nphase | p90: stock | nphase | turn p50: \
         stock | nphase | p90: stock | nphase |"
    );
    println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for (scene, seed, r, n) in &motions {
        println!(
            "| {} | {seed} | {:.1e} | {:.1e} | {:.1e} | {:.1e} | {:.1e} | {:.1e} | {:.1e} | \
             {:.1e} |",
            scene.name(),
            r.translation_p50,
            n.translation_p50,
            r.translation_p90,
            n.translation_p90,
            r.turn_p50,
            n.turn_p50,
            r.turn_p90,
            n.turn_p90,
        );
    }

    println!(
        "\nContact points renamed from one step to the next (a new id within {RENAME_REACH} m \
         of a point whose id is gone, on collider 1), per contact point that had a manifold the \
         step before: all steps, and the last {RESTING_STEPS}.\n"
    );
    println!(
        "| scene | seed | points: stock | nphase | renamed: stock | nphase | at rest: stock | \
         nphase |"
    );
    println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for (scene, seed, r, n) in &renames {
        println!(
            "| {} | {seed} | {} | {} | {} ({:.3} %) | {} ({:.3} %) | {} / {} | {} / {} |",
            scene.name(),
            r.followed,
            n.followed,
            r.renamed,
            100.0 * r.rates().0,
            n.renamed,
            100.0 * n.rates().0,
            r.resting_renamed,
            r.resting_followed,
            n.resting_renamed,
            n.resting_followed,
        );
    }

    println!();
    for (scene, seed, stats) in dispatch {
        println!("{} (seed {seed}): {stats:?}", scene.name());
    }
}

/// The mixed scene's resting manifolds by curved member, split by distinct places and solver
/// contacts (`KindReport::resting_split`), all seeds together: each cell's share of its
/// engine's resting manifolds of the kind and their mean deepest penetration. Cells under 1 %
/// for both engines are left out.
fn resting_split(mixed: &[(u64, Report, Report)]) {
    println!(
        "\nMixed scene, last {RESTING_STEPS} steps, seeds {SEEDS:?} together: resting manifolds \
         by distinct places and solver contacts (share of the kind's resting manifolds, mean \
         deepest penetration).\n"
    );
    println!(
        "| pairs with | places | solver contacts | share: stock | nphase | resting depth: stock \
         | nphase |"
    );
    println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
    for (k, kind) in Curved::ALL.iter().enumerate() {
        let sum = |pick: fn(&(u64, Report, Report)) -> &Report| {
            let mut cells = [[RestingCell::default(); 4]; 4];
            for run in mixed {
                for (row, split) in cells.iter_mut().zip(&pick(run).kinds[k].resting_split) {
                    for (cell, add) in row.iter_mut().zip(split) {
                        cell.manifolds += add.manifolds;
                        cell.depth_sum += add.depth_sum;
                    }
                }
            }
            let total = cells
                .iter()
                .flatten()
                .map(|c| c.manifolds)
                .sum::<u64>()
                .max(1);
            (cells, total as f64)
        };
        let (stock, stock_total) = sum(|run| &run.1);
        let (nphase, nphase_total) = sum(|run| &run.2);
        for places in 0..4 {
            for contacts in places..4 {
                let (r, n) = (stock[places][contacts], nphase[places][contacts]);
                let (r_share, n_share) = (
                    r.manifolds as f64 / stock_total,
                    n.manifolds as f64 / nphase_total,
                );
                if r_share.max(n_share) < 0.01 {
                    continue;
                }
                let depth = |c: RestingCell| {
                    if c.manifolds == 0 {
                        "–".to_string()
                    } else {
                        format!("{:.5}", c.depth())
                    }
                };
                println!(
                    "| {} | {} | {} | {:.1} % | {:.1} % | {} | {} |",
                    kind.name(),
                    places + 1,
                    contacts + 1,
                    100.0 * r_share,
                    100.0 * n_share,
                    depth(r),
                    depth(n),
                );
            }
        }
    }
}

/// `first` with the faster of the two rounds' times; the motion must be the same.
fn fastest(mut first: Report, other: &Report) -> Report {
    assert_eq!(
        (first.top_displacement, first.kinetic_energy),
        (other.top_displacement, other.kinetic_energy),
        "one thread: every round simulates the same motion"
    );
    first.step_time = first.step_time.min(other.step_time);
    first.narrow_phase_time = first.narrow_phase_time.min(other.narrow_phase_time);
    first.resting_narrow_phase_time = first
        .resting_narrow_phase_time
        .min(other.resting_narrow_phase_time);
    first
}

fn row(scene: Scene, seed: u64, engine: Engine, r: &Report) {
    let per_step = |d: std::time::Duration| d.as_secs_f64() * 1e3 / r.steps as f64;
    let resting_steps = RESTING_STEPS.min(r.steps).max(1) as f64;
    println!(
        "| {} | {seed} | {} | {:.3} | {:.3} | {:.3} | {:.4} | {:.4} | {:.4} | {:.4} | {:.2} | \
         {:.2} | {} / {} | {} |",
        scene.name(),
        engine.name(),
        per_step(r.step_time),
        per_step(r.narrow_phase_time),
        r.resting_narrow_phase_time.as_secs_f64() * 1e3 / resting_steps,
        r.top_displacement,
        r.largest_displacement,
        r.kinetic_energy,
        r.deepest_penetration,
        r.points_per_manifold,
        r.solver_points_per_manifold,
        r.escaped,
        r.dynamic_bodies,
        if r.non_finite { "yes" } else { "no" },
    );
}
