//! Shared by the integration tests and the `engines` example.
#![allow(dead_code)] // each test binary uses part of it

pub mod scenes;
pub mod shapes;
