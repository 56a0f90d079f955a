//! The `nphase` command-line tool (replaced by the CLI branch).
fn main() {}
