//! The scene reader: any text is either a valid scene or a one-line `SceneError`; a valid scene
//! runs through the one-shot queries and the pipeline without panicking.
#![no_main]

use libfuzzer_sys::fuzz_target;
use nphase::math::Real;
use nphase_cli::run::{contact_records, query_records};
use nphase_cli::scene::Scene;

fn check<T: Real>(text: &str) {
    match Scene::<T>::from_json(text) {
        Err(e) => {
            let message = e.to_string();
            assert!(
                !message.is_empty() && !message.contains('\n'),
                "{message:?}"
            );
        }
        Ok(scene) => {
            if scene.bodies.len() > 64 {
                return;
            }
            // Runtime failures (a pose that cannot be used) are errors, never panics.
            let _ = query_records(&scene);
            let _ = contact_records(&scene, 1);
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    check::<f64>(&text);
    check::<f32>(&text);
});
