//! Stock rapier3d 0.36 and rapier + nphase side by side on the scenes of `docs/engines.md`, in
//! one run: prints the Markdown table of that document.
//!
//! ```sh
//! cargo run --release -p nphase-parry --example engines            # 600 steps per scene
//! cargo run --release -p nphase-parry --example engines -- 120     # fewer steps
//! ```
//!
//! Each scene is run once per engine, interleaved (rapier, nphase, rapier, nphase, …) so that
//! both see the same machine state.

#[path = "../tests/common/scenes.rs"]
mod scenes;

use scenes::{Engine, Report, Scene, build};

fn main() {
    let steps = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(600);
    println!("{steps} steps at 60 Hz, f32, sleeping and contact recycling off.\n");
    println!(
        "| scene | engine | ms / step | narrowphase ms / step | top-body displacement | \
         final kinetic energy | deepest penetration | points / manifold | escaped | NaN |"
    );
    println!("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |");
    let mut dispatch = Vec::new();
    for scene in Scene::ALL {
        for engine in [Engine::Rapier, Engine::Nphase] {
            let report = build(scene, engine).run(steps);
            row(scene, engine, &report);
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
