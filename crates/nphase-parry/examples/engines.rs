//! Stock rapier3d 0.36 and rapier + nphase side by side on the scenes of `docs/engines.md`, in
//! one run: prints the Markdown table of that document.
//!
//! ```sh
//! cargo run --release -p nphase-parry --example engines              # 600 steps, 3 rounds
//! cargo run --release -p nphase-parry --example engines -- 120 1     # steps, rounds
//! ```
//!
//! Each scene runs `rounds` times per engine, interleaved (rapier, nphase, rapier, nphase, …)
//! so that both see the same machine state; the times are each case's fastest round (the
//! machine is shared: the fastest round is the one least disturbed). The physics is
//! deterministic (one thread), so every round measures the same motion; the table shows the
//! first round's, and the example checks that the others agree.

#[path = "../tests/common/scenes.rs"]
mod scenes;

use scenes::{Engine, Report, Scene, build};

fn main() {
    let arg = |k: usize, default: usize| {
        std::env::args()
            .nth(k)
            .and_then(|s| s.parse().ok())
            .unwrap_or(default)
    };
    let (steps, rounds) = (arg(1, 600), arg(2, 3).max(1));
    println!(
        "{steps} steps at 60 Hz, f32, sleeping and contact recycling off; \
         times: fastest of {rounds} interleaved rounds.\n"
    );
    println!(
        "| scene | engine | ms / step | narrowphase ms / step | top-body displacement | \
         final kinetic energy | deepest penetration | points / manifold | escaped | NaN |"
    );
    println!("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |");
    let mut dispatch = Vec::new();
    for scene in Scene::ALL {
        let engines = [Engine::Rapier, Engine::Nphase];
        let mut best: [Option<Report>; 2] = [None, None];
        for _ in 0..rounds {
            for (engine, best) in engines.iter().zip(&mut best) {
                let report = build(scene, *engine).run(steps);
                *best = Some(match best.take() {
                    None => report,
                    Some(first) => fastest(first, &report),
                });
            }
        }
        for (engine, report) in engines.iter().zip(best.iter().flatten()) {
            row(scene, *engine, report);
            if let Some(stats) = report.dispatch {
                dispatch.push((scene, stats));
            }
        }
    }
    println!();
    for (scene, stats) in dispatch {
        println!("{}: {stats:?}", scene.name());
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
    first
}

fn row(scene: Scene, engine: Engine, r: &Report) {
    let per_step = |d: std::time::Duration| d.as_secs_f64() * 1e3 / r.steps as f64;
    println!(
        "| {} | {} | {:.3} | {:.3} | {:.4} | {:.4} | {:.4} | {:.2} | {} / {} | {} |",
        scene.name(),
        engine.name(),
        per_step(r.step_time),
        per_step(r.narrow_phase_time),
        r.top_displacement,
        r.kinetic_energy,
        r.deepest_penetration,
        r.points_per_manifold,
        r.escaped,
        r.dynamic_bodies,
        if r.non_finite { "yes" } else { "no" },
    );
}
