//! `docs/errors.md` is the table of every kind of bad input and its message; this test runs
//! every row of it, so the page cannot drift from the code:
//!
//! * **Library calls**: each row's call is looked up (by its exact text) among the runners
//!   below, run, and its error's message compared with the row. Every runner must appear in the
//!   table and every row must have a runner.
//! * **Scene files**: each row's change is applied to the page's base scene; the result must be
//!   refused by `Scene::<f64>::from_json` and `Scene::<f32>::from_json` with the row's message,
//!   and by `nphase query` and `nphase contacts` with exit code 2, `error: <message>` as the
//!   only line on stderr, nothing on stdout and no output file (nor any temporary file).
//! * **The command line**: each row's command is run in a fresh directory holding the base
//!   scene; exit code and message must match.
//! * **Output files** (Unix): each row's setup (a shell command: `mkfifo`, `mkdir`, `ln -s`)
//!   prepares the directory, the command must be refused with the row's exit code and message,
//!   and every entry of the directory must keep its kind and contents.
//! * **Interrupted runs** (Unix): each row's signal is sent to a long `nphase query -o`, while it
//!   computes and while it writes; it must end by that signal, leave no temporary file and the
//!   existing output as it was.

use std::path::Path;
use std::process::Command;

use nphase::math::{Isometry, Point, Vector};
use nphase::pipeline::query;
use nphase::pipeline::{Collider, NarrowPhase, NarrowPhaseConfig};
use nphase::shapes::{Ball, Capsule, ConvexPolyhedron, Cuboid, Segment, Shape, ShapeError};
use nphase_cli::scene::Scene;

const DOC: &str = include_str!("../../../docs/errors.md");

/// The table rows under the heading `## {section}`: cells with their code spans unwrapped.
fn rows(section: &str) -> Vec<Vec<String>> {
    let start = DOC
        .find(&format!("\n## {section}\n"))
        .unwrap_or_else(|| panic!("docs/errors.md has no section {section:?}"));
    let body = &DOC[start + 1..];
    let body = &body[..body[3..].find("\n## ").map_or(body.len(), |i| i + 3)];
    body.lines()
        .filter(|l| l.starts_with('|'))
        .skip(2) // header and separator
        .map(|l| {
            l.trim()
                .trim_matches('|')
                .split(" | ")
                .map(|cell| cell.trim().to_owned())
                .collect()
        })
        .collect()
}

/// The text of a cell that is one code span (`` `x` `` or ``` `` x `` ```).
fn code(cell: &str) -> String {
    // A double-backtick span may pad its text with a space on either side (Markdown strips it).
    if let Some(inner) = cell.strip_prefix("``").and_then(|c| c.strip_suffix("``")) {
        inner.trim().to_owned()
    } else if let Some(inner) = cell.strip_prefix('`').and_then(|c| c.strip_suffix('`')) {
        inner.to_owned()
    } else {
        panic!("expected a code span, found {cell:?}")
    }
}

/// The base scene: the page's only `json` block.
fn base_scene() -> String {
    let start = DOC.find("```json\n").expect("a base scene") + "```json\n".len();
    let end = start + DOC[start..].find("```").expect("closed");
    DOC[start..end].to_owned()
}

// ---------------------------------------------------------------------------------------------
// Library calls.
// ---------------------------------------------------------------------------------------------

fn message<T, E: std::fmt::Display>(result: Result<T, E>) -> String {
    match result {
        Ok(_) => "(accepted)".to_owned(),
        Err(e) => e.to_string(),
    }
}

fn ball() -> Shape<f64> {
    Shape::Ball(Ball::new(0.5).expect("valid"))
}

fn cube() -> Shape<f64> {
    Shape::Cuboid(Cuboid::new(Vector::new(0.5, 0.5, 0.5)).expect("valid"))
}

fn p() -> Point<f64> {
    Point::new(1.0, 2.0, 3.0)
}

fn nan_pose() -> Isometry<f64> {
    Isometry::translation(f64::NAN, 0.0, 0.0)
}

fn far_pose() -> Isometry<f64> {
    Isometry::translation(1e155, 0.0, 0.0)
}

fn narrow() -> NarrowPhase<f64> {
    NarrowPhase::new(NarrowPhaseConfig {
        threads: 1,
        ..NarrowPhaseConfig::default()
    })
    .expect("valid")
}

fn colliders(bad: bool) -> Vec<Collider<f64>> {
    colliders_with(if bad {
        nan_pose()
    } else {
        Isometry::translation(0.9, 0.0, 0.0)
    })
}

/// Collider 0 (a ball at the origin) and collider 7 (a cube at `pose`).
fn colliders_with(pose: Isometry<f64>) -> Vec<Collider<f64>> {
    vec![
        Collider {
            id: 0,
            shape: ball(),
            pose: Isometry::identity(),
        },
        Collider {
            id: 7,
            shape: cube(),
            pose,
        },
    ]
}

type Runner = (&'static str, fn() -> String);

/// One runner per row of "Library calls", keyed by the row's call text.
const LIBRARY: &[Runner] = &[
    ("Ball::new(-1.0)", || message(Ball::<f64>::new(-1.0))),
    ("Capsule::new(0.5, -0.1)", || {
        message(Capsule::<f64>::new(0.5, -0.1))
    }),
    ("Shape::round(ball, -0.1)", || {
        message(Shape::round(ball(), -0.1))
    }),
    ("Cuboid::new(Vector::new(0.5, f64::NAN, 0.5))", || {
        message(Cuboid::new(Vector::new(0.5, f64::NAN, 0.5)))
    }),
    (
        "Segment::new(p, Point::new(0.0, f64::INFINITY, 0.0))",
        || message(Segment::new(p(), Point::new(0.0, f64::INFINITY, 0.0))),
    ),
    (
        "ConvexPolyhedron::from_points(&[p, p, Point::new(f64::NAN, 0.0, 0.0)])",
        || {
            message(ConvexPolyhedron::from_points(&[
                p(),
                p(),
                Point::new(f64::NAN, 0.0, 0.0),
            ]))
        },
    ),
    ("Ball::new(1e61)", || message(Ball::<f64>::new(1e61))),
    ("Ball::<f32>::new(2e8)", || message(Ball::<f32>::new(2e8))),
    (
        "ConvexPolyhedron::from_points(&[p, Point::new(0.0, -2e60, 0.0)])",
        || {
            message(ConvexPolyhedron::from_points(&[
                p(),
                Point::new(0.0, -2e60, 0.0),
            ]))
        },
    ),
    ("Cuboid::new(Vector::new(1e-61, 0.0, 5e-62))", || {
        message(Cuboid::new(Vector::new(1e-61, 0.0, 5e-62)))
    }),
    (
        "Segment::<f32>::new(Point::origin(), Point::new(0.0, 0.0, 1e-7))",
        || {
            message(Segment::<f32>::new(
                Point::origin(),
                Point::new(0.0, 0.0, 1e-7),
            ))
        },
    ),
    ("ConvexPolyhedron::from_points(&[])", || {
        message(ConvexPolyhedron::<f64>::from_points(&[]))
    }),
    ("Shape::Ball(Ball::new(0.0)?).require_extent()", || {
        message(Ball::new(0.0).and_then(|b| Shape::<f64>::Ball(b).require_extent()))
    }),
    (
        "Shape::Cuboid(Cuboid::new(Vector::zeros())?).require_extent()",
        || {
            message(
                Cuboid::new(Vector::zeros()).and_then(|c| Shape::<f64>::Cuboid(c).require_extent()),
            )
        },
    ),
    (
        "Shape::Segment(Segment::new(p, p)?).require_extent()",
        || message(Segment::new(p(), p()).and_then(|s| Shape::Segment(s).require_extent())),
    ),
    ("Shape::convex(&[p, p, p])?.require_extent()", || {
        message(Shape::convex(&[p(), p(), p()]).and_then(|s| s.require_extent()))
    }),
    ("query::contact(&nan_pose, &ball, &id, &cube, 0.0)", || {
        message(query::contact(
            &nan_pose(),
            &ball(),
            &Isometry::identity(),
            &cube(),
            0.0,
        ))
    }),
    ("query::distance(&id, &ball, &nan_pose, &cube)", || {
        message(query::distance(
            &Isometry::identity(),
            &ball(),
            &nan_pose(),
            &cube(),
        ))
    }),
    (
        "query::intersection_test(&nan_pose, &ball, &id, &cube)",
        || {
            message(query::intersection_test(
                &nan_pose(),
                &ball(),
                &Isometry::identity(),
                &cube(),
            ))
        },
    ),
    ("query::contact(&far_pose, &ball, &id, &cube, 0.0)", || {
        message(query::contact(
            &far_pose(),
            &ball(),
            &Isometry::identity(),
            &cube(),
            0.0,
        ))
    }),
    (
        "query::intersection_test(&id, &ball, &far_pose, &cube)",
        || {
            message(query::intersection_test(
                &Isometry::identity(),
                &ball(),
                &far_pose(),
                &cube(),
            ))
        },
    ),
    ("query::contact(&id, &ball, &id, &cube, -1.0)", || {
        let id = Isometry::identity();
        message(query::contact(&id, &ball(), &id, &cube(), -1.0))
    }),
    (
        "query::closest_points(&id, &ball, &id, &cube, f64::NAN)",
        || {
            let id = Isometry::identity();
            message(query::closest_points(&id, &ball(), &id, &cube(), f64::NAN))
        },
    ),
    (
        "NarrowPhase::new(NarrowPhaseConfig { prediction: -1.0, .. })",
        || {
            message(NarrowPhase::new(NarrowPhaseConfig {
                prediction: -1.0,
                ..NarrowPhaseConfig::default()
            }))
        },
    ),
    (
        "NarrowPhase::new(NarrowPhaseConfig { threads: 100_000, .. })",
        || {
            message(NarrowPhase::<f64>::new(NarrowPhaseConfig {
                threads: 100_000,
                ..NarrowPhaseConfig::default()
            }))
        },
    ),
    ("narrow.update(&colliders, &[(0, 1)])", || {
        message(narrow().update(&colliders(true), &[(0, 1)]).map(|_| ()))
    }),
    ("narrow.update(&far_colliders, &[(0, 1)])", || {
        message(
            narrow()
                .update(&colliders_with(far_pose()), &[(0, 1)])
                .map(|_| ()),
        )
    }),
    ("narrow.update(&colliders, &[(0, 1), (1, 1)])", || {
        message(
            narrow()
                .update(&colliders(false), &[(0, 1), (1, 1)])
                .map(|_| ()),
        )
    }),
    ("narrow.update(&colliders, &[(0, 5)])", || {
        message(narrow().update(&colliders(false), &[(0, 5)]).map(|_| ()))
    }),
];

#[test]
fn library_rows_match_the_errors() {
    let rows = rows("Library calls");
    assert!(!rows.is_empty());
    let mut seen = Vec::new();
    for row in &rows {
        let [_, call, expected] = row.as_slice() else {
            panic!("a library row has 3 cells: {row:?}");
        };
        let (call, expected) = (code(call), code(expected));
        let (_, run) = LIBRARY
            .iter()
            .find(|(text, _)| *text == call)
            .unwrap_or_else(|| {
                panic!("no runner for `{call}`: add one to crates/nphase-cli/tests/errors_doc.rs")
            });
        assert_eq!(run(), expected, "docs/errors.md, `{call}`");
        seen.push(call);
    }
    for (text, _) in LIBRARY {
        assert!(
            seen.iter().any(|c| c == text),
            "runner `{text}` has no row in docs/errors.md"
        );
    }
    // The shape errors are typed and name the culprit (not just a message).
    assert!(matches!(
        Ball::<f64>::new(-1.0),
        Err(ShapeError::Negative { shape: "ball", .. })
    ));
}

// ---------------------------------------------------------------------------------------------
// Scene files, through the library and the CLI.
// ---------------------------------------------------------------------------------------------

fn nphase(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_nphase"))
        .args(args)
        .output()
        .expect("the nphase binary runs")
}

fn path(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

#[test]
fn base_scene_is_valid() {
    let base = base_scene();
    Scene::<f64>::from_json(&base).expect("the base scene of docs/errors.md is valid");
    let dir = tempfile::tempdir().expect("temp dir");
    let scene = dir.path().join("scene.json");
    std::fs::write(&scene, &base).expect("write");
    let out = nphase(&["query", path(&scene)]);
    assert!(out.status.success(), "{:?}", out);
}

#[test]
fn scene_rows_are_refused_with_their_message() {
    let base = base_scene();
    let rows = rows("Scene files");
    assert!(rows.len() >= 20, "{} rows", rows.len());
    let mut failures = Vec::new();
    for row in &rows {
        let [case, change, expected] = row.as_slice() else {
            panic!("a scene row has 3 cells: {row:?}");
        };
        let (from, to) = change
            .split_once(" → ")
            .unwrap_or_else(|| panic!("change `a` → `b`: {change:?}"));
        let from = code(from);
        let to = if to == "*(nothing)*" {
            String::new()
        } else {
            code(to)
        };
        assert_eq!(
            base.matches(&from).count(),
            1,
            "{case}: `{from}` must occur once in the base scene"
        );
        let text = base.replacen(&from, &to, 1);
        let expected = code(expected);

        let got64 = message(Scene::<f64>::from_json(&text));
        let got32 = message(Scene::<f32>::from_json(&text));
        if got64 != expected || got32 != expected {
            failures.push(format!(
                "{case}: expected\n    {expected}\n  got (f64)\n    {got64}\n  got (f32)\n    {got32}"
            ));
            continue;
        }

        let dir = tempfile::tempdir().expect("temp dir");
        let scene = dir.path().join("scene.json");
        std::fs::write(&scene, &text).expect("write the scene");
        for command in ["query", "contacts"] {
            let out_path = dir.path().join("out.json");
            let out = nphase(&[command, path(&scene), "-o", path(&out_path)]);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{case}, {command}: {stderr}");
            assert_eq!(stderr, format!("error: {expected}\n"), "{case}, {command}");
            assert!(out.stdout.is_empty(), "{case}, {command}: stdout");
            assert!(!out_path.exists(), "{case}, {command}: an output file");
            let left = std::fs::read_dir(dir.path()).expect("list").count();
            assert_eq!(left, 1, "{case}, {command}: only the scene remains");
        }
    }
    assert!(
        failures.is_empty(),
        "docs/errors.md disagrees with the code:\n{}",
        failures.join("\n")
    );
}

#[test]
fn scene_rows_beyond_the_range_are_refused_per_precision() {
    let base = base_scene();
    let rows = rows("Scene files beyond the input range");
    assert!(rows.len() >= 6, "{} rows", rows.len());
    for row in &rows {
        let [case, change, expected64, expected32] = row.as_slice() else {
            panic!("a range row has 4 cells: {row:?}");
        };
        let (from, to) = change
            .split_once(" → ")
            .unwrap_or_else(|| panic!("change `a` → `b`: {change:?}"));
        let (from, to) = (code(from), code(to));
        assert_eq!(base.matches(&from).count(), 1, "{case}: `{from}` once");
        let text = base.replacen(&from, &to, 1);
        let (expected64, expected32) = (code(expected64), code(expected32));
        assert_eq!(
            message(Scene::<f64>::from_json(&text)),
            expected64,
            "{case} (f64)"
        );
        assert_eq!(
            message(Scene::<f32>::from_json(&text)),
            expected32,
            "{case} (f32)"
        );
        let dir = tempfile::tempdir().expect("temp dir");
        let scene = dir.path().join("scene.json");
        std::fs::write(&scene, &text).expect("write the scene");
        for (precision, expected) in [("f64", &expected64), ("f32", &expected32)] {
            if expected.as_str() == "(accepted)" {
                continue;
            }
            let out_path = dir.path().join("out.json");
            let out = nphase(&[
                "contacts",
                path(&scene),
                "-o",
                path(&out_path),
                "--precision",
                precision,
            ]);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{case}, {precision}: {stderr}");
            assert_eq!(
                stderr,
                format!("error: {expected}\n"),
                "{case}, {precision}"
            );
            assert!(!out_path.exists(), "{case}, {precision}: an output file");
        }
    }
}

#[test]
fn command_line_rows_match() {
    let rows = rows("The command line");
    assert!(!rows.is_empty());
    for row in &rows {
        let [case, command, exit, expected] = row.as_slice() else {
            panic!("a command-line row has 4 cells: {row:?}");
        };
        let dir = tempfile::tempdir().expect("temp dir");
        let d = path(dir.path()).to_owned();
        std::fs::write(dir.path().join("scene.json"), base_scene()).expect("write");
        let command = code(command).replace("{dir}", &d);
        let expected = code(expected).replace("{dir}", &d);
        let args: Vec<&str> = command.split_whitespace().collect();
        assert_eq!(args[0], "nphase", "{case}");
        let before: Vec<_> = walk(dir.path());
        let out = nphase(&args[1..]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            out.status.code().map(|c| c.to_string()),
            Some(exit.clone()),
            "{case}: {stderr}"
        );
        assert_eq!(stderr, format!("error: {expected}\n"), "{case}");
        assert_eq!(walk(dir.path()), before, "{case}: no file written");
    }
}

/// Every path under `dir`, sorted.
fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).expect("list").flatten() {
            let p = entry.path();
            if p.is_dir() {
                stack.push(p.clone());
            }
            out.push(p);
        }
    }
    out.sort();
    out
}

// ---------------------------------------------------------------------------------------------
// Output files and interrupted runs (Unix: FIFOs, symbolic links, signals).
// ---------------------------------------------------------------------------------------------

/// What an entry of a directory is, as far as a test can tell without opening a FIFO.
#[cfg(unix)]
#[derive(Debug, PartialEq)]
enum Kind {
    File(Vec<u8>),
    Dir,
    Link(std::path::PathBuf),
    Fifo,
    Other,
}

/// Every entry under `dir` (links not followed), sorted, with its kind and contents.
#[cfg(unix)]
fn snapshot(dir: &Path) -> Vec<(std::path::PathBuf, Kind)> {
    use std::os::unix::fs::FileTypeExt;
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).expect("list").flatten() {
            let p = entry.path();
            let t = std::fs::symlink_metadata(&p).expect("metadata").file_type();
            let kind = if t.is_symlink() {
                Kind::Link(std::fs::read_link(&p).expect("link"))
            } else if t.is_dir() {
                stack.push(p.clone());
                Kind::Dir
            } else if t.is_fifo() {
                Kind::Fifo
            } else if t.is_file() {
                Kind::File(std::fs::read(&p).expect("read"))
            } else {
                Kind::Other
            };
            out.push((p, kind));
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

#[cfg(unix)]
#[test]
fn output_file_rows_are_refused_and_left_as_they_were() {
    let rows = rows("Output files");
    assert!(rows.len() >= 5, "{} rows", rows.len());
    for row in &rows {
        let [case, setup, command, exit, expected] = row.as_slice() else {
            panic!("an output-file row has 5 cells: {row:?}");
        };
        let dir = tempfile::tempdir().expect("temp dir");
        let d = path(dir.path()).to_owned();
        std::fs::write(dir.path().join("scene.json"), base_scene()).expect("write");
        let setup = code(setup).replace("{dir}", &d);
        let status = Command::new("sh")
            .args(["-c", &setup])
            .status()
            .expect("sh runs");
        assert!(status.success(), "{case}: setup `{setup}` failed");
        let command = code(command).replace("{dir}", &d);
        let expected = code(expected).replace("{dir}", &d);
        let args: Vec<&str> = command.split_whitespace().collect();
        assert_eq!(args[0], "nphase", "{case}");
        let before = snapshot(dir.path());
        let out = nphase(&args[1..]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            out.status.code().map(|c| c.to_string()),
            Some(exit.clone()),
            "{case}: {stderr}"
        );
        assert_eq!(stderr, format!("error: {expected}\n"), "{case}");
        assert!(out.stdout.is_empty(), "{case}: stdout");
        assert_eq!(snapshot(dir.path()), before, "{case}: left as it was");
    }
}

/// The temporary files of the CLI in `dir`, with their sizes.
#[cfg(unix)]
fn temporaries(dir: &Path) -> Vec<(String, u64)> {
    std::fs::read_dir(dir)
        .expect("list")
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let len = e.metadata().map_or(0, |m| m.len());
            name.starts_with(".nphase-").then_some((name, len))
        })
        .collect()
}

/// Sends `signal` to `nphase query pile.json -o out.json` once its temporary file exists and
/// holds at least `min_bytes`. Returns how the process ended, or `None` when it finished before
/// the moment came (nothing was tested).
#[cfg(unix)]
fn interrupt(dir: &Path, signal: &str, min_bytes: u64) -> Option<std::process::ExitStatus> {
    use std::time::{Duration, Instant};
    let mut child = Command::new(env!("CARGO_BIN_EXE_nphase"))
        .args(["query", "pile.json", "-o", "out.json"])
        .current_dir(dir)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the nphase binary runs");
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("wait") {
            assert!(status.success(), "the run failed by itself: {status:?}");
            return None;
        }
        if temporaries(dir).iter().any(|(_, len)| *len >= min_bytes) {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "no temporary file appeared"
        );
    }
    let sent = Command::new("kill")
        .args(["-s", signal, &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(sent.success(), "kill -s {signal}");
    Some(child.wait().expect("wait"))
}

#[cfg(unix)]
#[test]
fn interrupted_runs_remove_their_temporary_file() {
    use std::os::unix::process::ExitStatusExt;
    let rows = rows("Interrupted runs");
    assert!(rows.len() >= 2, "{} rows", rows.len());
    let dir = tempfile::tempdir().expect("temp dir");
    let made = nphase(&[
        "demo",
        "--frames",
        "0",
        "--bodies",
        "20000",
        "--write-scene",
        path(&dir.path().join("pile.json")),
    ]);
    assert!(made.status.success(), "{made:?}");
    let out_path = dir.path().join("out.json");
    std::fs::write(&out_path, "keep").expect("write");
    for row in &rows {
        let [signal, exit] = row.as_slice() else {
            panic!("an interrupted-run row has 2 cells: {row:?}");
        };
        let signal = code(signal);
        let number = match signal.as_str() {
            "SIGINT" => 2,
            "SIGHUP" => 1,
            "SIGTERM" => 15,
            other => panic!("unknown signal {other}"),
        };
        assert_eq!(exit, &format!("killed by {signal}"));
        let name = signal.trim_start_matches("SIG");
        // While computing: the temporary file exists (empty) for most of the run. While
        // writing: it holds bytes for a tenth of a second or so; a run that finishes before the
        // signal arrives tested nothing and is tried again.
        for (phase, min_bytes) in [("computing", 0), ("writing", 1)] {
            let status = (0..5)
                .find_map(|_| interrupt(dir.path(), name, min_bytes))
                .unwrap_or_else(|| panic!("{signal} {phase}: the run always finished first"));
            assert_eq!(
                status.signal(),
                Some(number),
                "{signal} {phase}: {status:?}"
            );
            assert_eq!(
                temporaries(dir.path()),
                [],
                "{signal} {phase}: temporary file left"
            );
            assert_eq!(
                std::fs::read_to_string(&out_path).expect("read"),
                "keep",
                "{signal} {phase}: the output was replaced"
            );
        }
    }
}
