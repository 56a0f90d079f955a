//! End-to-end tests of the `nphase` binary: the result formats on the example scene, thread
//! independence of the contacts output, each result's quality (estimates are marked and
//! counted), where `-o` writes, the bench's machine lines, the demo, and one test per kind of
//! bad input (exit code, a one-line message naming the entry, no output file).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

const EXAMPLE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../tests/data/scenes/example.json"
);

fn nphase(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_nphase"))
        .args(args)
        .output()
        .expect("the nphase binary runs")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Runs a command that must succeed and returns its stdout.
fn ok(args: &[&str]) -> String {
    let out = nphase(args);
    assert!(
        out.status.success(),
        "nphase {args:?} failed: {}",
        stderr(&out)
    );
    stdout(&out)
}

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("invalid JSON ({e}):\n{text}"))
}

fn vec3(v: &Value) -> [f64; 3] {
    let a = v.as_array().expect("a 3-vector");
    assert_eq!(a.len(), 3, "{v}");
    [0, 1, 2].map(|i| a[i].as_f64().expect("a number"))
}

fn norm(v: [f64; 3]) -> f64 {
    (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt()
}

/// `|(b − a) − dist·n|`.
fn witness_gap(a: [f64; 3], b: [f64; 3], dist: f64, n: [f64; 3]) -> f64 {
    norm([0, 1, 2].map(|i| b[i] - a[i] - dist * n[i]))
}

/// The example scene's pairs as body ids.
fn example_pairs() -> Vec<(u64, u64)> {
    let scene = json(&std::fs::read_to_string(EXAMPLE).expect("example scene"));
    scene["pairs"]
        .as_array()
        .expect("explicit pairs")
        .iter()
        .map(|p| (p[0].as_u64().expect("id"), p[1].as_u64().expect("id")))
        .collect()
}

fn bound(r: &Value, key: &str) -> f64 {
    r[key]
        .as_f64()
        .unwrap_or_else(|| panic!("`{key}` is a number: {r}"))
}

/// Checks an `nphase-query/1` document against the example scene; `tol` absorbs the
/// precision (the shapes are of size ~1).
fn check_query(doc: &Value, tol: f64) {
    assert_eq!(doc["format"], "nphase-query/1");
    let results = doc["results"].as_array().expect("results");
    let pairs = example_pairs();
    assert_eq!(results.len(), pairs.len(), "one result per pair");
    for (r, &(a, b)) in results.iter().zip(&pairs) {
        assert_eq!(
            (r["a"].as_u64(), r["b"].as_u64()),
            (Some(a), Some(b)),
            "pair order kept"
        );
        let dist = r["dist"].as_f64().expect("dist");
        let n = vec3(&r["normal"]);
        assert!((norm(n) - 1.0).abs() < tol, "unit normal: {r}");
        assert!(
            witness_gap(vec3(&r["point_a"]), vec3(&r["point_b"]), dist, n) < tol,
            "{r}"
        );
        assert_eq!(r["intersecting"].as_bool(), Some(dist <= 0.0), "{r}");
        // The example's pairs are all ordinary: every answer converged, its certified bounds
        // hold its distance (up to rounding) and lie within the accuracy of it.
        assert_eq!(r["quality"], "converged", "{r}");
        let (lo, hi) = (bound(r, "lower_bound"), bound(r, "upper_bound"));
        assert!(lo <= dist + tol && dist <= hi + tol, "{r}");
        assert!(hi - lo <= tol, "{r}");
    }
    // The scene was built with known answers for a few pairs: crate 0.01 into the floor, the
    // capsule 0.01 above it, the stick 0.04 above the capsule.
    let dist = |i: usize| results[i]["dist"].as_f64().unwrap_or(f64::NAN);
    assert!((dist(0) + 0.01).abs() < tol, "crate on floor: {}", dist(0));
    assert!(
        (dist(1) - 0.01).abs() < tol,
        "capsule above floor: {}",
        dist(1)
    );
    assert!(
        (dist(9) - 0.04).abs() < tol,
        "stick above capsule: {}",
        dist(9)
    );
}

#[test]
fn query_on_the_example_scene() {
    check_query(&json(&ok(&["query", EXAMPLE])), 1e-9);
}

#[test]
fn query_writes_the_output_file_and_f32_works() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("q.json");
    let printed = ok(&[
        "query",
        EXAMPLE,
        "-o",
        out.to_str().expect("utf-8 path"),
        "--precision",
        "f32",
    ]);
    assert!(printed.is_empty(), "nothing on stdout with -o");
    let text = std::fs::read_to_string(&out).expect("output written");
    // f32 tolerance: 1e-4 × scale (docs/accuracy.md), scale ~1.
    check_query(&json(&text), 1e-4);
    let f64_text = ok(&["query", EXAMPLE, "--precision", "f64"]);
    assert_ne!(text, f64_text, "the precisions differ in the last digits");
}

#[test]
fn contacts_on_the_example_scene() {
    let doc = json(&ok(&["contacts", EXAMPLE]));
    assert_eq!(doc["format"], "nphase-contacts/1");
    let manifolds = doc["manifolds"].as_array().expect("manifolds");
    let pairs = example_pairs();
    // The touching pairs all have manifolds; the three far-apart ones do not.
    assert_eq!(manifolds.len(), pairs.len() - 3);
    let prediction = 0.05;
    let mut next = 0;
    for m in manifolds {
        let key = (m["a"].as_u64().expect("a"), m["b"].as_u64().expect("b"));
        // Manifolds come in pair order (a subsequence of the pairs).
        let at = pairs[next..]
            .iter()
            .position(|p| *p == key)
            .expect("in pair order");
        next += at + 1;
        let n = vec3(&m["normal"]);
        assert!((norm(n) - 1.0).abs() < 1e-9, "unit normal: {m}");
        assert_eq!(m["quality"], "converged", "{m}");
        let points = m["points"].as_array().expect("points");
        assert!((1..=4).contains(&points.len()), "{m}");
        for p in points {
            let dist = p["dist"].as_f64().expect("dist");
            assert!(dist <= prediction + 1e-9, "{p}");
            assert!(
                witness_gap(vec3(&p["point_a"]), vec3(&p["point_b"]), dist, n) < 1e-9,
                "{p}"
            );
            // The packed id and the spelled-out features say the same.
            let id = p["id"].as_u64().expect("an integer id");
            let spelled = |code: u64| nphase::shapes::FeatureId::from_code(code as u32).to_string();
            assert_eq!(
                p["feature_a"].as_str(),
                Some(spelled(id >> 32).as_str()),
                "{p}"
            );
            assert_eq!(
                p["feature_b"].as_str(),
                Some(spelled(id & 0xffff_ffff).as_str()),
                "{p}"
            );
        }
    }
}

#[test]
fn contacts_output_does_not_depend_on_threads() {
    // A scene large enough for several parallel chunks: the demo pile, saved by the tool.
    let dir = tempfile::tempdir().expect("temp dir");
    let scene = dir.path().join("pile.json");
    let scene = scene.to_str().expect("utf-8 path");
    ok(&[
        "demo",
        "--frames",
        "0",
        "--bodies",
        "400",
        "--write-scene",
        scene,
    ]);
    let one = ok(&["contacts", scene, "--threads", "1"]);
    let two = ok(&["contacts", scene, "--threads", "2"]);
    let three = ok(&["contacts", scene, "--threads", "3"]);
    let manifolds = json(&one)["manifolds"].as_array().map_or(0, Vec::len);
    assert!(manifolds > 200, "a pile has contacts: {manifolds}");
    assert!(
        one == two && one == three,
        "byte-identical for 1, 2 and 3 threads"
    );
    let example = ok(&["contacts", EXAMPLE, "--threads", "1"]);
    assert_eq!(example, ok(&["contacts", EXAMPLE, "--threads", "2"]));
}

// ---------------------------------------------------------------------------------------------
// Quality: an estimate is never printed like a converged answer.
// ---------------------------------------------------------------------------------------------

/// Coincident identical shapes 10 away from the origin: cylinders, cones, capsules (their
/// deepest normals form a whole valley, where EPA may stop on its iteration cap), and a box on
/// a box (a closed form, always converged). Cylinders of radius 0.3 and half height 0.5 overlap
/// by 0.6 whatever normal is chosen among the deepest.
const COINCIDENT: &str = r#"{
  "format": "nphase-scene/1",
  "shapes": {
    "can": { "type": "cylinder", "half_height": 0.5, "radius": 0.3 },
    "spike": { "type": "cone", "half_height": 0.5, "radius": 0.3 },
    "pill": { "type": "capsule", "half_height": 0.5, "radius": 0.3 },
    "crate": { "type": "cuboid", "half_extents": [0.5, 0.5, 0.5] }
  },
  "bodies": [
    { "id": 0, "shape": "can", "position": [10, -2, 3] },
    { "id": 1, "shape": "can", "position": [10, -2, 3] },
    { "id": 2, "shape": "spike", "position": [10, -2, 3] },
    { "id": 3, "shape": "spike", "position": [10, -2, 3] },
    { "id": 4, "shape": "pill", "position": [10, -2, 3] },
    { "id": 5, "shape": "pill", "position": [10, -2, 3] },
    { "id": 6, "shape": "crate", "position": [10, -2, 3] },
    { "id": 7, "shape": "crate", "position": [10, -1.1, 3] }
  ],
  "pairs": [[0, 1], [2, 3], [4, 5], [0, 2], [6, 7]]
}"#;

/// The quality names of the formats, by the library's variants.
fn quality_name(q: nphase::pipeline::ContactQuality) -> &'static str {
    use nphase::pipeline::ContactQuality;
    match q {
        ContactQuality::Converged => "converged",
        ContactQuality::IterationLimit => "iteration_limit",
        ContactQuality::Fallback => "fallback",
    }
}

/// The one warning line of a run, if any, and the estimates it counts.
fn warned_estimates(stderr: &str) -> usize {
    let lines: Vec<&str> = stderr.lines().collect();
    match lines.as_slice() {
        [] => 0,
        [line] => {
            assert!(line.starts_with("warning: "), "{stderr:?}");
            line["warning: ".len()..]
                .split(' ')
                .next()
                .and_then(|n| n.parse().ok())
                .unwrap_or_else(|| panic!("a count first: {line:?}"))
        }
        _ => panic!("at most one line: {stderr:?}"),
    }
}

#[test]
fn query_marks_estimates_and_their_certified_bounds() {
    use nphase::math::Isometry;
    use nphase_cli::scene::Scene;

    let (_dir, scene_path) = write_temp(COINCIDENT);
    for precision in ["f64", "f32"] {
        let out = nphase(&["query", &scene_path, "--precision", precision]);
        assert!(out.status.success(), "{}", stderr(&out));
        let doc = json(&stdout(&out));
        let results = doc["results"].as_array().expect("results");
        // The library's own answer for each pair, in f64 (the CLI solves each pair in A's frame).
        let scene = Scene::<f64>::from_json(COINCIDENT).expect("valid");
        let pairs = scene.pairs.clone().expect("explicit pairs");
        let mut estimates = 0;
        for (r, &(a, b)) in results.iter().zip(&pairs) {
            let (body_a, body_b) = (&scene.bodies[a], &scene.bodies[b]);
            let library = nphase::pipeline::query::contact(
                &Isometry::identity(),
                scene.shape_of(body_a),
                &body_a.exact_pose.inv_mul(&body_b.exact_pose),
                scene.shape_of(body_b),
                f64::MAX,
            )
            .expect("valid input")
            .expect("a contact");
            let quality = r["quality"].as_str().expect("a quality");
            if precision == "f64" {
                assert_eq!(quality, quality_name(library.quality), "{r}");
            }
            assert!(
                ["converged", "iteration_limit", "fallback"].contains(&quality),
                "{r}"
            );
            estimates += usize::from(quality != "converged");
            let dist = r["dist"].as_f64().expect("dist");
            let (lo, hi) = (bound(r, "lower_bound"), bound(r, "upper_bound"));
            // f32 rounding on shapes of size 1 (docs/accuracy.md).
            let slack = if precision == "f32" { 1e-4 } else { 1e-9 };
            assert!(lo <= dist + slack && dist <= hi + slack, "{r}");
            if a == 0 && b == 1 {
                // The truth, -0.6, lies within the certified bounds whatever the quality; a
                // converged answer is within the tolerance of it.
                assert!(lo - slack <= -0.6 && -0.6 <= hi + slack, "{r}");
                if quality == "converged" {
                    assert!((dist + 0.6).abs() <= 1e-7 + slack, "{r}");
                }
            }
            if a == 6 {
                assert_eq!(quality, "converged", "a closed form: {r}");
                assert_eq!((lo, hi), (dist, dist), "a closed form is exact: {r}");
            }
        }
        assert_eq!(
            warned_estimates(&stderr(&out)),
            estimates,
            "{precision}: the warning counts the estimates: {}",
            stderr(&out)
        );
        if estimates > 0 {
            assert!(
                stderr(&out).contains(&format!("{estimates} of 5 results did not converge")),
                "{}",
                stderr(&out)
            );
        }
    }
}

#[test]
fn contacts_mark_manifolds_from_estimates() {
    use nphase::pipeline::{NarrowPhase, NarrowPhaseConfig};
    use nphase_cli::scene::Scene;

    let (_dir, scene_path) = write_temp(COINCIDENT);
    let out = nphase(&["contacts", &scene_path, "--threads", "1"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let doc = json(&stdout(&out));
    let manifolds = doc["manifolds"].as_array().expect("manifolds");
    assert_eq!(manifolds.len(), 5, "every pair overlaps");
    // The pipeline's own per-pair qualities.
    let scene = Scene::<f64>::from_json(COINCIDENT).expect("valid");
    let mut narrow = NarrowPhase::new(NarrowPhaseConfig {
        threads: 1,
        ..NarrowPhaseConfig::default()
    })
    .expect("valid");
    let pairs = scene.pairs.clone().expect("explicit pairs");
    narrow
        .update(&scene.colliders_at(0), &pairs)
        .expect("valid input");
    let expected: Vec<&str> = narrow
        .qualities()
        .iter()
        .map(|&q| quality_name(q))
        .collect();
    let got: Vec<&str> = manifolds
        .iter()
        .map(|m| m["quality"].as_str().expect("a quality"))
        .collect();
    assert_eq!(got, expected);
    assert_eq!(got[4], "converged", "box on box");
    let estimates = got.iter().filter(|q| **q != "converged").count();
    assert_eq!(
        warned_estimates(&stderr(&out)),
        estimates,
        "{}",
        stderr(&out)
    );
}

// ---------------------------------------------------------------------------------------------
// Where -o writes.
// ---------------------------------------------------------------------------------------------

#[test]
fn dash_is_standard_output_and_dot_slash_dash_a_file() {
    let (dir, scene) = write_temp(VALID);
    let out = Command::new(env!("CARGO_BIN_EXE_nphase"))
        .args(["query", &scene, "-o", "-"])
        .current_dir(dir.path())
        .output()
        .expect("runs");
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(json(&stdout(&out))["format"], "nphase-query/1");
    assert!(!dir.path().join("-").exists(), "no file named -");
    let out = Command::new(env!("CARGO_BIN_EXE_nphase"))
        .args(["contacts", &scene, "-o", "./-"])
        .current_dir(dir.path())
        .output()
        .expect("runs");
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).is_empty());
    let text = std::fs::read_to_string(dir.path().join("-")).expect("a file named -");
    assert_eq!(json(&text)["format"], "nphase-contacts/1");
    // The demo's scene too.
    let out = nphase(&[
        "demo",
        "--frames",
        "0",
        "--bodies",
        "5",
        "--write-scene",
        "-",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(json(&stdout(&out))["format"], "nphase-scene/1");
}

#[cfg(unix)]
#[test]
fn a_link_to_a_file_is_written_through() {
    let (dir, scene) = write_temp(VALID);
    let real = dir.path().join("results.json");
    std::fs::write(&real, "old").expect("write");
    let link = dir.path().join("latest.json");
    std::os::unix::fs::symlink("results.json", &link).expect("symlink");
    ok(&["query", &scene, "-o", path(&link)]);
    assert!(
        std::fs::symlink_metadata(&link)
            .expect("still there")
            .file_type()
            .is_symlink(),
        "the link stays a link"
    );
    let text = std::fs::read_to_string(&real).expect("read");
    assert_eq!(json(&text)["format"], "nphase-query/1");
}

#[test]
fn bench_machine_lines() {
    let out = ok(&[
        "bench",
        "--scene",
        EXAMPLE,
        "--frames",
        "3",
        "--reps",
        "2",
        "--threads",
        "2",
        "--machine",
    ]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    let pairs = example_pairs().len().to_string();
    for (line, variant) in lines.iter().zip(["contact", "manifold-1t", "manifold-2t"]) {
        let tokens: Vec<&str> = line.split(' ').collect();
        assert_eq!(tokens.len(), 9, "{line}");
        assert_eq!(tokens[0], "RESULT");
        let expected_prefix = [
            ("workload", "example"),
            ("runner", "nphase-f64"),
            ("variant", variant),
            ("pairs", pairs.as_str()),
            ("reps", "2"),
        ];
        for (token, (key, value)) in tokens[1..6].iter().zip(expected_prefix) {
            assert_eq!(*token, format!("{key}={value}"), "{line}");
        }
        let ns: Vec<f64> = tokens[6..]
            .iter()
            .zip(["median_ns=", "min_ns=", "max_ns="])
            .map(|(t, key)| {
                t.strip_prefix(key)
                    .and_then(|v| v.parse().ok())
                    .unwrap_or_else(|| panic!("{key} in {line}"))
            })
            .collect();
        assert!(
            ns[1] > 0.0 && ns[1] <= ns[0] && ns[0] <= ns[2],
            "min ≤ median ≤ max: {line}"
        );
    }
    // One thread: no parallel variant; f32 names its runner.
    let out = ok(&[
        "bench",
        "--scene",
        EXAMPLE,
        "--frames",
        "2",
        "--reps",
        "1",
        "--threads",
        "1",
        "--machine",
        "--precision",
        "f32",
    ]);
    assert_eq!(out.lines().count(), 2, "{out}");
    assert!(
        out.lines().all(|l| l.contains(" runner=nphase-f32 ")),
        "{out}"
    );
    // The human table.
    let table = ok(&[
        "bench",
        "--scene",
        EXAMPLE,
        "--frames",
        "2",
        "--reps",
        "1",
        "--threads",
        "1",
    ]);
    assert!(
        table.contains("manifold-1t") && table.contains("median ns/pair"),
        "{table}"
    );
}

#[test]
fn demo_runs_and_summarises() {
    let out = ok(&["demo", "--frames", "3", "--bodies", "60", "--threads", "2"]);
    for key in [
        "61 bodies",
        "3 frames",
        "pairs per frame",
        "GJK iterations/pair",
        "warm-start hit rate",
        "EPA runs",
        "separating-axis tests",
        "ms/frame",
    ] {
        assert!(out.contains(key), "{key:?} in\n{out}");
    }
}

// ---------------------------------------------------------------------------------------------
// Bad input: exit code 2 (1 for an unwritable output), one line `error: …` naming the entry,
// and no output file.
// ---------------------------------------------------------------------------------------------

/// A valid two-ball scene; the cases below break it one way each.
const VALID: &str = r#"{
  "format": "nphase-scene/1",
  "shapes": {
    "ball": { "type": "ball", "radius": 0.5 },
    "rock": { "type": "convex", "points": [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]] }
  },
  "bodies": [
    { "id": 0, "shape": "ball", "position": [0, 0, 0] },
    { "id": 4, "shape": "rock", "position": [0, 0.9, 0] }
  ],
  "pairs": [[0, 4]]
}"#;

/// Runs `query` (and `contacts`) on `text` with `-o`, expecting a refusal whose one-line message
/// contains `expected`, and checks no output file appears.
fn refuses(text: &str, expected: &str) {
    assert_ne!(text, VALID, "the case must change the scene");
    let dir = tempfile::tempdir().expect("temp dir");
    let scene = dir.path().join("scene.json");
    std::fs::write(&scene, text).expect("write the scene");
    for command in ["query", "contacts"] {
        let out_path = dir.path().join("out.json");
        let out = nphase(&[command, path(&scene), "-o", path(&out_path)]);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{command}: exit code; stderr: {}",
            stderr(&out)
        );
        let err = stderr(&out);
        assert_eq!(err.lines().count(), 1, "one line: {err:?}");
        assert!(err.starts_with("error: "), "{err:?}");
        assert!(
            err.contains(expected),
            "{err:?} should contain {expected:?}"
        );
        assert!(stdout(&out).is_empty());
        assert!(!out_path.exists(), "no output file");
        let left: Vec<_> = std::fs::read_dir(dir.path()).expect("list").collect();
        assert_eq!(left.len(), 1, "only the scene remains (no temporary files)");
    }
}

fn path(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

#[test]
fn the_valid_base_scene_is_accepted() {
    let doc = json(&ok(&["query", &write_temp(VALID).1]));
    assert_eq!(doc["results"].as_array().map(Vec::len), Some(1));
}

fn write_temp(text: &str) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().expect("temp dir");
    let p: PathBuf = dir.path().join("scene.json");
    std::fs::write(&p, text).expect("write");
    let s = path(&p).to_owned();
    (dir, s)
}

#[test]
fn refuses_an_unknown_shape_type() {
    refuses(
        &VALID.replace(r#""type": "ball""#, r#""type": "sphere""#),
        r#"shapes.ball: unknown type "sphere""#,
    );
}

#[test]
fn refuses_a_missing_field() {
    refuses(
        &VALID.replace(r#", "radius": 0.5"#, ""),
        "shapes.ball: missing field `radius`",
    );
    refuses(
        &VALID.replace(
            r#""shape": "rock", "position": [0, 0.9, 0]"#,
            r#""shape": "rock""#,
        ),
        "bodies[1] (id 4): missing field `position`",
    );
}

#[test]
fn refuses_a_negative_radius() {
    refuses(
        &VALID.replace(r#""radius": 0.5"#, r#""radius": -0.5"#),
        "shapes.ball: ball: `radius` must be non-negative (got -0.5)",
    );
}

#[test]
fn refuses_an_overflowing_number() {
    refuses(
        &VALID.replace("[0, 0.9, 0]", "[0, 1e999, 0]"),
        "bodies[1] (id 4): position.y is not finite",
    );
    refuses(
        &VALID.replace(r#""radius": 0.5"#, r#""radius": 1e999"#),
        "shapes.ball: ball: `radius` must be finite",
    );
}

#[test]
fn refuses_an_empty_hull() {
    refuses(
        &VALID.replace("[[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]]", "[]"),
        "shapes.rock: convex: `points` must hold at least one point (got none)",
    );
}

#[test]
fn refuses_a_body_naming_a_missing_shape() {
    refuses(
        &VALID.replace(r#""shape": "rock""#, r#""shape": "crate2""#),
        r#"bodies[1] (id 4): unknown shape "crate2""#,
    );
}

#[test]
fn refuses_a_pair_naming_a_missing_body() {
    refuses(
        &VALID.replace("[[0, 4]]", "[[0, 4], [9, 0]]"),
        "pairs[1]: body 9 does not exist",
    );
}

#[test]
fn refuses_a_self_pair() {
    refuses(
        &VALID.replace("[[0, 4]]", "[[4, 4]]"),
        "pairs[0]: a body cannot pair with itself",
    );
}

#[test]
fn refuses_a_duplicate_body_id() {
    refuses(
        &VALID.replace(r#""id": 4"#, r#""id": 0"#),
        "bodies[1] (id 0): duplicate body id",
    );
}

#[test]
fn refuses_malformed_json() {
    refuses(
        &VALID.replace("\"pairs\": [[0, 4]]", "\"pairs\": [[0, 4]"),
        "malformed JSON at line 12",
    );
}

#[test]
fn refuses_a_wrong_format() {
    refuses(
        &VALID.replace("nphase-scene/1", "nphase-query/1"),
        r#"format: expected "nphase-scene/1", found "nphase-query/1""#,
    );
}

#[test]
fn refuses_a_zero_quaternion() {
    refuses(
        &VALID.replace(
            "[0, 0.9, 0] }",
            r#"[0, 0.9, 0], "rotation": { "quaternion": [0, 0, 0, 0] } }"#,
        ),
        "bodies[1] (id 4): rotation.quaternion has norm zero",
    );
}

#[test]
fn a_failed_run_leaves_an_existing_output_untouched() {
    let (dir, _) = write_temp(VALID);
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, VALID.replace("[[0, 4]]", "[[4, 4]]")).expect("write");
    let out_path = dir.path().join("out.json");
    std::fs::write(&out_path, "keep me").expect("write");
    let out = nphase(&["query", path(&bad), "-o", path(&out_path)]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(std::fs::read_to_string(&out_path).expect("read"), "keep me");
}

#[test]
fn refuses_an_unwritable_output_path() {
    let (dir, scene) = write_temp(VALID);
    for target in [
        dir.path().join("missing/dir/out.json"),
        dir.path().to_path_buf(),
    ] {
        let out = nphase(&["query", &scene, "-o", path(&target)]);
        assert_eq!(
            out.status.code(),
            Some(1),
            "runtime failure: {}",
            stderr(&out)
        );
        let err = stderr(&out);
        assert_eq!(err.lines().count(), 1, "{err:?}");
        assert!(err.starts_with("error: cannot write "), "{err:?}");
    }
    assert!(!dir.path().join("missing").exists());
    let left: Vec<_> = std::fs::read_dir(dir.path()).expect("list").collect();
    assert_eq!(left.len(), 1, "only the scene remains");
}

#[test]
fn refuses_a_missing_scene_file() {
    let out = nphase(&["query", "/nonexistent/scene.json"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).starts_with("error: cannot read "),
        "{}",
        stderr(&out)
    );
}

/// A body whose velocity carries it beyond the input range of the precision during a
/// multi-frame run is refused at the first frame that places it there, naming the frame and
/// the collider; the frames before it are valid (docs/scene-format.md).
#[test]
fn bench_refuses_a_body_moved_beyond_the_input_range() {
    let dir = tempfile::tempdir().expect("temp dir");
    let scene = dir.path().join("scene.json");
    std::fs::write(
        &scene,
        r#"{
  "format": "nphase-scene/1",
  "shapes": { "ball": { "type": "ball", "radius": 0.5 } },
  "bodies": [
    { "id": 0, "shape": "ball", "position": [0, 0, 0] },
    { "id": 4, "shape": "ball", "position": [0, 0.9, 0],
      "velocity": { "linear": [1e7, 0, 0], "angular": [0, 0, 0] } }
  ],
  "pairs": [[0, 4]]
}"#,
    )
    .expect("write the scene");
    let scene = scene.to_str().expect("utf-8 path");
    ok(&[
        "bench",
        "--scene",
        scene,
        "--frames",
        "10",
        "--precision",
        "f32",
    ]);
    let out = nphase(&[
        "bench",
        "--scene",
        scene,
        "--frames",
        "20",
        "--precision",
        "f32",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        "error: frame 11: collider 4: translation component 1.1e8 is beyond the largest length \
         of this precision (1e8; docs/accuracy.md, \"Input range\")\n"
    );
}
