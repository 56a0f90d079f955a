//! # nphase-cli
//!
//! The `nphase` command-line tool over the JSON formats of `docs/scene-format.md`, as a library
//! (for its tests, the benches and the fuzz targets) and the `nphase` binary. An engine that
//! depends on `nphase` compiles none of this.
//!
//! * [`scene`] — `nphase-scene/1` files: reading, validation, motion; [`broadphase`] finds the
//!   pairs of scenes that list none; [`duplicate_keys`] finds the keys an object repeats.
//! * [`report`] — `nphase-query/1` and `nphase-contacts/1` records (with each result's
//!   quality) and writers; [`output`] — standard output or a file written whole or not at all,
//!   its temporary file removed on SIGINT, SIGTERM and SIGHUP.
//! * [`run`], [`bench`](mod@bench), [`demo`] — what the `nphase` command runs.

pub mod bench;
pub mod broadphase;
pub mod demo;
pub mod duplicate_keys;
pub mod output;
pub mod report;
pub mod run;
pub mod scene;
