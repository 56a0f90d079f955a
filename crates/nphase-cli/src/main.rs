//! The `nphase` command-line tool (see `scene-format.md` for the file formats).
//!
//! * `nphase` — the built-in demo (a pile of 3000 mixed shapes, 300 frames) and its summary;
//! * `nphase demo [--frames F] [--bodies N] [--write-scene FILE] …` — the same with parameters;
//! * `nphase query SCENE.json [-o OUT.json] [--precision f32|f64]` — `nphase-query/1`;
//! * `nphase contacts SCENE.json [-o OUT.json] [--threads T] [--precision f32|f64]` —
//!   `nphase-contacts/1` of frame 0 (the bytes do not depend on `--threads`);
//! * `nphase bench --scene SCENE.json [--frames F] [--threads T] [--reps R] [--machine] …`.
//!
//! Errors are one line on stderr, `error: <message>`. Exit codes: 0 success, 2 bad input
//! (command line, unreadable or invalid scene), 1 runtime failure (the pipeline refused a
//! frame, the output could not be written). Results that are estimates rather than converged
//! answers are counted in one `warning:` line on stderr. `-o -` is standard output; an output
//! file is written whole or not at all (see [`nphase_cli::output`]): a failed or interrupted
//! run leaves no file and an existing one untouched, and a target that is not a regular file
//! (a directory, a FIFO, a device) is refused.

use std::io::{self, Write};
use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use clap::{Args, Parser, Subcommand, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};
use nphase::Real;
use nphase_cli::bench::{BenchConfig, VariantResult, run_bench};
use nphase_cli::demo::{DEFAULT_BODIES, DEFAULT_FRAMES, DEFAULT_SEED, RunSummary, demo_scene};
use nphase_cli::output::{AtomicFile, OutputError, Target, install_signal_cleanup};
use nphase_cli::report::{QualityCounts, contacts_json, query_json};
use nphase_cli::run::{RunError, Simulation, contact_records, query_records};
use nphase_cli::scene::{Scene, SceneDoc};
use nphase_pipeline::{NarrowPhaseConfig, PipelineError};

#[derive(Parser, Debug)]
#[command(
    name = "nphase",
    version,
    about = "Narrowphase collision queries and contact manifolds (GJK, EPA) over nphase-scene/1 files.",
    long_about = "Narrowphase collision queries and contact manifolds (GJK, EPA) over nphase-scene/1 \
                  files.\n\nWithout a command, runs the built-in demo: a pile of 3000 mixed shapes \
                  for 300 frames, then prints a summary."
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// One exact query per pair (signed distance, normal, witness points) → nphase-query/1.
    Query(QueryArgs),
    /// Contact manifolds of frame 0 through the pipeline → nphase-contacts/1.
    Contacts(ContactsArgs),
    /// Time one-shot queries and the warm-started pipeline on a scene.
    Bench(BenchArgs),
    /// Run the built-in demo pile (the default command).
    Demo(DemoArgs),
}

/// Floating-point precision of the computation (files are always f64).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Precision {
    F32,
    F64,
}

impl Precision {
    fn name(self) -> &'static str {
        match self {
            Precision::F32 => "f32",
            Precision::F64 => "f64",
        }
    }
}

#[derive(Args, Debug)]
struct QueryArgs {
    /// The scene (nphase-scene/1).
    scene: PathBuf,
    /// Write the result here (whole or not at all) instead of stdout; `-` is stdout.
    #[arg(short, long, value_name = "OUT.json")]
    output: Option<PathBuf>,
    /// Computation precision.
    #[arg(long, value_enum, default_value_t = Precision::F64)]
    precision: Precision,
}

#[derive(Args, Debug)]
struct ContactsArgs {
    /// The scene (nphase-scene/1).
    scene: PathBuf,
    /// Write the result here (whole or not at all) instead of stdout; `-` is stdout.
    #[arg(short, long, value_name = "OUT.json")]
    output: Option<PathBuf>,
    /// Pipeline threads, at most 1024 (the output does not depend on it).
    #[arg(long, default_value_t = default_threads(), value_parser = clap::value_parser!(u32).range(1..))]
    threads: u32,
    /// Computation precision.
    #[arg(long, value_enum, default_value_t = Precision::F64)]
    precision: Precision,
}

#[derive(Args, Debug)]
struct BenchArgs {
    /// The scene (nphase-scene/1); its file stem names the workload.
    #[arg(long, value_name = "SCENE.json")]
    scene: PathBuf,
    /// Frames of the pipeline variants (frame 0 is an untimed warm-up).
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u64).range(2..))]
    frames: u64,
    /// Threads of the parallel variant (`manifold-<T>t`, run when T > 1), at most 1024.
    #[arg(long, default_value_t = default_threads(), value_parser = clap::value_parser!(u32).range(1..))]
    threads: u32,
    /// Repetitions of each variant.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..))]
    reps: u32,
    /// Computation precision.
    #[arg(long, value_enum, default_value_t = Precision::F64)]
    precision: Precision,
    /// Print one `RESULT …` line per variant instead of a table.
    #[arg(long)]
    machine: bool,
}

#[derive(Args, Debug)]
struct DemoArgs {
    /// Frames to run (0: only generate, e.g. with --write-scene).
    #[arg(long, default_value_t = DEFAULT_FRAMES)]
    frames: u64,
    /// Bodies in the pile (plus one ground box).
    #[arg(long, default_value_t = DEFAULT_BODIES as u32, value_parser = clap::value_parser!(u32).range(0..=1_000_000))]
    bodies: u32,
    /// Pipeline threads, at most 1024.
    #[arg(long, default_value_t = default_threads(), value_parser = clap::value_parser!(u32).range(1..))]
    threads: u32,
    /// Computation precision.
    #[arg(long, value_enum, default_value_t = Precision::F64)]
    precision: Precision,
    /// Seed of the pile.
    #[arg(long, default_value_t = DEFAULT_SEED)]
    seed: u64,
    /// Also save the demo scene as nphase-scene/1 (`-`: stdout).
    #[arg(long, value_name = "FILE")]
    write_scene: Option<PathBuf>,
}

impl Default for DemoArgs {
    fn default() -> Self {
        DemoArgs {
            frames: DEFAULT_FRAMES,
            bodies: DEFAULT_BODIES as u32,
            threads: default_threads(),
            precision: Precision::F64,
            seed: DEFAULT_SEED,
            write_scene: None,
        }
    }
}

/// The most threads the pipeline accepts.
const MAX_THREADS: usize = NarrowPhaseConfig::<f64>::MAX_THREADS;

fn default_threads() -> u32 {
    std::thread::available_parallelism()
        .map_or(1, |n: NonZeroUsize| n.get().min(MAX_THREADS) as u32)
}

/// A `--threads` value the pipeline accepts, or the pipeline's reason as bad input.
fn threads(value: u32) -> Result<usize, Failure> {
    let requested = value as usize;
    if requested > MAX_THREADS {
        let error = PipelineError::TooManyThreads {
            requested,
            max: MAX_THREADS,
        };
        return Err(Failure::Input(format!("--threads: {error}")));
    }
    Ok(requested)
}

/// A failure, with its exit code.
#[derive(Debug)]
enum Failure {
    /// Bad input: exit code 2.
    Input(String),
    /// Runtime failure: exit code 1.
    Runtime(String),
}

impl From<RunError> for Failure {
    fn from(e: RunError) -> Self {
        Failure::Runtime(e.to_string())
    }
}

fn main() -> ExitCode {
    if let Err(e) = install_signal_cleanup() {
        let _ = writeln!(
            io::stderr(),
            "warning: cannot watch for signals ({e}): an interrupted run may leave a .nphase-*.tmp file"
        );
    }
    let cli = Cli::parse();
    let result = match cli.command {
        None => demo(&DemoArgs::default()),
        Some(Command::Demo(args)) => demo(&args),
        Some(Command::Query(args)) => query(&args),
        Some(Command::Contacts(args)) => contacts(&args),
        Some(Command::Bench(args)) => bench(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            let (message, code) = match failure {
                Failure::Input(m) => (m, 2),
                Failure::Runtime(m) => (m, 1),
            };
            // One line, whatever the message holds.
            let message = message.replace(['\n', '\r'], " ");
            let _ = writeln!(io::stderr(), "error: {message}");
            ExitCode::from(code)
        }
    }
}

/// Reads and validates a scene in precision `T`.
fn load<T: Real>(path: &Path) -> Result<Scene<T>, Failure> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Failure::Input(format!("cannot read {path:?}: {e}")))?;
    Scene::from_json(&text).map_err(|e| Failure::Input(e.to_string()))
}

/// Where a result goes, opened before the work starts: an unwritable output file is reported
/// before a long run, and its temporary file exists (and is removed on a signal) from now on.
enum Sink {
    Stdout,
    File { path: PathBuf, file: AtomicFile },
}

impl Sink {
    /// The sink of an `-o` argument (`None` or `-`: stdout).
    fn open(output: Option<&Path>) -> Result<Sink, Failure> {
        match Target::from_arg(output) {
            Target::Stdout => Ok(Sink::Stdout),
            Target::File(path) => match AtomicFile::create(&path) {
                Ok(file) => Ok(Sink::File { path, file }),
                Err(e) => Err(cannot_write(&path, &e)),
            },
        }
    }

    /// Writes the whole result.
    fn write(self, text: &str) -> Result<(), Failure> {
        match self {
            Sink::File { path, file } => file
                .commit(text.as_bytes())
                .map_err(|e| cannot_write(&path, &e)),
            Sink::Stdout => {
                let mut out = io::stdout().lock();
                match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
                    // A reader that stopped early (`| head`) is not a failure of ours.
                    Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
                    Err(e) => Err(Failure::Runtime(format!("cannot write to stdout: {e}"))),
                    Ok(()) => Ok(()),
                }
            }
        }
    }
}

fn cannot_write(path: &Path, e: &OutputError) -> Failure {
    Failure::Runtime(format!("cannot write {path:?}: {e}"))
}

/// Writes a result to stdout.
fn emit(text: &str) -> Result<(), Failure> {
    Sink::Stdout.write(text)
}

/// One `warning:` line when some results are estimates rather than converged answers.
fn warn_estimates(counts: &QualityCounts, noun: &str, fields: &str) {
    if counts.estimates() > 0 {
        let _ = writeln!(
            io::stderr(),
            "warning: {}; see their {fields}",
            counts.summary(noun)
        );
    }
}

fn warn_non_finite(count: usize, what: &str) {
    if count > 0 {
        let _ = writeln!(
            io::stderr(),
            "warning: {count} {what} hold non-finite numbers (written as null)"
        );
    }
}

fn query(args: &QueryArgs) -> Result<(), Failure> {
    fn go<T: Real>(args: &QueryArgs) -> Result<(), Failure> {
        let scene = load::<T>(&args.scene)?;
        let sink = Sink::open(args.output.as_deref())?;
        let records = query_records(&scene)?;
        warn_non_finite(
            records.iter().filter(|r| !r.is_finite()).count(),
            "result(s)",
        );
        warn_estimates(
            &QualityCounts::of(records.iter().map(|r| r.quality)),
            "results",
            "\"quality\", \"lower_bound\" and \"upper_bound\"",
        );
        sink.write(&query_json(&records))
    }
    match args.precision {
        Precision::F32 => go::<f32>(args),
        Precision::F64 => go::<f64>(args),
    }
}

fn contacts(args: &ContactsArgs) -> Result<(), Failure> {
    fn go<T: Real>(args: &ContactsArgs) -> Result<(), Failure> {
        let threads = threads(args.threads)?;
        let scene = load::<T>(&args.scene)?;
        let sink = Sink::open(args.output.as_deref())?;
        let records = contact_records(&scene, threads)?;
        warn_non_finite(
            records.iter().filter(|r| !r.is_finite()).count(),
            "manifold(s)",
        );
        warn_estimates(
            &QualityCounts::of(records.iter().map(|r| r.quality)),
            "manifolds",
            "\"quality\"",
        );
        sink.write(&contacts_json(&records))
    }
    match args.precision {
        Precision::F32 => go::<f32>(args),
        Precision::F64 => go::<f64>(args),
    }
}

fn progress_bar(len: u64, unit: &str) -> ProgressBar {
    let bar = ProgressBar::new(len);
    let template = format!(
        "{{elapsed_precise}} [{{bar:40.cyan/blue}}] {{pos}}/{{len}} {unit} ({{per_sec}}, eta {{eta}})"
    );
    if let Ok(style) = ProgressStyle::with_template(&template) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar
}

fn bench(args: &BenchArgs) -> Result<(), Failure> {
    fn go<T: Real>(args: &BenchArgs) -> Result<(), Failure> {
        let threads = threads(args.threads)?;
        let scene = load::<T>(&args.scene)?;
        let config = BenchConfig {
            frames: args.frames,
            threads,
            reps: args.reps as usize,
        };
        let variants = 2 + u64::from(args.threads > 1);
        let bar = progress_bar(variants * u64::from(args.reps), "repetitions");
        let results = run_bench(&scene, &config, || bar.inc(1))?;
        bar.finish_and_clear();

        let workload = workload_name(&args.scene);
        let runner = format!("nphase-{}", args.precision.name());
        let text = if args.machine {
            results
                .iter()
                .map(|r| r.machine_line(&workload, &runner) + "\n")
                .collect::<String>()
        } else {
            bench_table(&workload, &runner, &config, scene.bodies.len(), &results)
        };
        emit(&text)
    }
    match args.precision {
        Precision::F32 => go::<f32>(args),
        Precision::F64 => go::<f64>(args),
    }
}

/// The scene file's stem, with characters that would break `key=value` parsing replaced.
fn workload_name(path: &Path) -> String {
    let stem = path
        .file_stem()
        .map_or_else(|| "scene".into(), |s| s.to_string_lossy());
    stem.chars()
        .map(|c| {
            if c.is_whitespace() || c == '=' || c.is_control() {
                '_'
            } else {
                c
            }
        })
        .collect()
}

fn bench_table(
    workload: &str,
    runner: &str,
    config: &BenchConfig,
    bodies: usize,
    results: &[VariantResult],
) -> String {
    let mut out = format!(
        "nphase bench: workload={workload} runner={runner} bodies={bodies} frames={} reps={}\n\
         {:<14} {:>9} {:>14} {:>11} {:>11} {:>12} {:>8} {:>9}\n",
        config.frames,
        config.reps,
        "variant",
        "pairs",
        "median ns/pair",
        "min",
        "max",
        "GJK it/pair",
        "warm %",
        "EPA/frame"
    );
    for r in results {
        let (gjk, warm, epa) = match &r.stats {
            Some(s) if s.pairs > 0 => (
                format!("{:.2}", s.gjk_iterations as f64 / s.pairs as f64),
                format!("{:.1}", 100.0 * s.warm_starts as f64 / s.pairs as f64),
                format!(
                    "{:.1}",
                    s.epa_runs as f64 / (config.frames - 1).max(1) as f64
                ),
            ),
            _ => ("-".to_owned(), "-".to_owned(), "-".to_owned()),
        };
        out.push_str(&format!(
            "{:<14} {:>9} {:>14.1} {:>11.1} {:>11.1} {:>12} {:>8} {:>9}\n",
            r.variant, r.pairs, r.median_ns, r.min_ns, r.max_ns, gjk, warm, epa
        ));
    }
    out.push_str("(ns per pair; per pair per frame for manifold-*: frames 1.. timed after an untimed frame 0)\n");
    out
}

fn demo(args: &DemoArgs) -> Result<(), Failure> {
    fn go<T: Real>(args: &DemoArgs, doc: &SceneDoc) -> Result<(), Failure> {
        let scene =
            Scene::<T>::from_doc(doc).map_err(|e| Failure::Runtime(format!("demo scene: {e}")))?;
        let threads = threads(args.threads)?;
        let mut summary = RunSummary::new(scene.bodies.len(), threads, args.precision.name());
        let bar = progress_bar(args.frames, "frames");
        let start = Instant::now();
        let mut sim = Simulation::new(&scene, threads)?;
        for _ in 0..args.frames {
            summary.add(&sim.step()?);
            bar.inc(1);
        }
        summary.wall = start.elapsed();
        bar.finish_and_clear();
        emit(&format!("{summary}\n"))
    }
    threads(args.threads)?;
    let doc = demo_scene(args.bodies as usize, args.seed);
    if let Some(path) = &args.write_scene {
        let sink = Sink::open(Some(path))?;
        let to_file = matches!(sink, Sink::File { .. });
        sink.write(&doc.to_json())?;
        if to_file {
            let _ = writeln!(io::stderr(), "wrote the demo scene to {}", path.display());
        }
    }
    if args.frames == 0 {
        return Ok(());
    }
    match args.precision {
        Precision::F32 => go::<f32>(args, &doc),
        Precision::F64 => go::<f64>(args, &doc),
    }
}
