//! Scene-reader crashes found by the fuzz target `scene` (`fuzz/`, see its README), each fixed
//! and kept here in the normal test suite. (The shape and query ones are in
//! `crates/nphase-pipeline/tests/fuzz_regressions.rs`.)

use nphase_cli::scene::Scene;

/// Regression (fuzz target `scene`): a field name holding an escaped newline (`"poi\nts"` in
/// the JSON) came back inside serde's "unknown field" message, so `SceneError`'s `Display` —
/// documented as one line naming the entry — spanned two lines. Control characters in quoted
/// file text are now escaped.
#[test]
fn scene_errors_stay_on_one_line_whatever_the_file_names() {
    let text = r#"{"format": "nphase-scene/1",
        "shapes": {"rock": {"type": "convex", "poi\nts": [[0, 0, 0]]}},
        "bodies": []}"#;
    let message = Scene::<f64>::from_json(text)
        .map(|_| ())
        .expect_err("an unknown field")
        .to_string();
    assert_eq!(
        message,
        r"shapes.rock: unknown field `poi\nts`, expected `points`"
    );
    let tab = text.replace(r"poi\nts", r"po\tints\r");
    let message = Scene::<f64>::from_json(&tab)
        .map(|_| ())
        .expect_err("an unknown field")
        .to_string();
    assert!(!message.contains(['\n', '\r', '\t']), "{message:?}");
}
