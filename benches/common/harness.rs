//! A list of benchmark cases run either by criterion or, with `--callgrind`, once each between
//! markers so that callgrind can count instructions per case.
//!
//! Every case is a closure that answers one *batch* of pre-generated queries; a group holds the
//! cases measured against each other (nphase and parry3d on the same inputs), so criterion's
//! report and the ratio tables compare like with like.
//!
//! ```text
//! cargo bench --bench gjk -- --warm-up-time 1 --measurement-time 3 [filter]
//! cargo bench --bench gjk -- --fastest [--rounds 30] [filter]   # interleaved, see below
//! benches/callgrind.sh gjk [filter]       # instruction counts, stable under load
//! ```
//!
//! With `--fastest` the cases of each group run round by round, interleaved, and each keeps its
//! fastest round: a busy machine then slows every case of a group alike instead of whichever
//! criterion happened to be measuring (as `hull_crossover.rs` does). It prints one
//! `CASE case=<group>/<id> ns=<nanoseconds per query>` line per case, which
//! `examples/bench_table.rs` turns into a table.
//!
//! In `--callgrind` mode each selected case runs once unmeasured, then `--reps` times (default
//! 10), with a call to [`callgrind_marker`] before each of the two phases. Under
//! `valgrind --tool=callgrind --dump-before='*callgrind_marker*'` every marker starts a new
//! profile part; the mode prints which part holds which case's measured runs.

use std::hint::black_box;
use std::time::Instant;

use criterion::{Criterion, Throughput};

/// The cases of one benchmark binary, by group.
pub struct Harness<'a> {
    groups: Vec<Group<'a>>,
}

/// One criterion benchmark group: cases answering the same batch of `queries` queries.
pub struct Group<'a> {
    name: String,
    queries: usize,
    cases: Vec<(String, Box<dyn FnMut() + 'a>)>,
}

impl<'a> Group<'a> {
    /// Adds a case: `run` answers the group's batch of queries once.
    pub fn case(&mut self, id: &str, run: impl FnMut() + 'a) -> &mut Self {
        self.cases.push((id.to_owned(), Box::new(run)));
        self
    }
}

impl<'a> Harness<'a> {
    /// No groups yet.
    pub fn new() -> Self {
        Harness { groups: Vec::new() }
    }

    /// Starts a group whose cases each answer `queries` queries per run.
    pub fn group(&mut self, name: &str, queries: usize) -> &mut Group<'a> {
        self.groups.push(Group {
            name: name.to_owned(),
            queries,
            cases: Vec::new(),
        });
        self.groups.last_mut().expect("just pushed")
    }

    /// Runs the cases: under criterion, or between callgrind markers with `--callgrind`.
    pub fn run(self) {
        let args: Vec<String> = std::env::args().skip(1).collect();
        if args.iter().any(|a| a == "--callgrind") {
            self.run_callgrind(&args);
        } else if args.iter().any(|a| a == "--fastest") {
            self.run_fastest(&args);
        } else {
            self.run_criterion();
        }
    }

    fn run_criterion(self) {
        let mut criterion = Criterion::default().configure_from_args();
        for group in self.groups {
            let mut g = criterion.benchmark_group(&group.name);
            g.throughput(Throughput::Elements(group.queries as u64));
            for (id, mut run) in group.cases {
                g.bench_function(&id, |b| b.iter(&mut run));
            }
            g.finish();
        }
        criterion.final_summary();
    }

    fn run_fastest(mut self, args: &[String]) {
        let (rounds, filter) = count_and_filter(args, "--rounds", 30);
        for group in &mut self.groups {
            let selected: Vec<usize> = (0..group.cases.len())
                .filter(|&i| {
                    let case = format!("{}/{}", group.name, group.cases[i].0);
                    filter.as_ref().is_none_or(|f| case.contains(f.as_str()))
                })
                .collect();
            let mut best = vec![f64::INFINITY; selected.len()];
            for round in 0..=rounds {
                for (k, &i) in selected.iter().enumerate() {
                    let start = Instant::now();
                    (group.cases[i].1)();
                    // Round 0 warms up.
                    if round > 0 {
                        best[k] = best[k].min(start.elapsed().as_secs_f64());
                    }
                }
            }
            for (k, &i) in selected.iter().enumerate() {
                let ns = best[k] * 1e9 / group.queries as f64;
                println!("CASE case={}/{} ns={ns:.2}", group.name, group.cases[i].0);
            }
        }
    }

    fn run_callgrind(mut self, args: &[String]) {
        let (reps, filter) = count_and_filter(args, "--reps", 10);
        // Part 1 is everything before the first marker (input generation); each case then
        // takes two parts, its unmeasured run and its measured ones. Nothing else runs between
        // the markers: the selection is made before, the report printed after.
        let mut selected = Vec::new();
        for group in &mut self.groups {
            for (id, run) in &mut group.cases {
                let case = format!("{}/{}", group.name, id);
                if filter.as_ref().is_none_or(|f| case.contains(f.as_str())) {
                    selected.push((case, group.queries * reps, run));
                }
            }
        }
        let mut part = 1;
        let mut report = Vec::with_capacity(selected.len());
        for (case, queries, run) in selected {
            callgrind_marker();
            run();
            callgrind_marker();
            for _ in 0..reps {
                run();
            }
            part += 2;
            report.push((part, queries, case));
        }
        callgrind_marker();
        for (part, queries, case) in report {
            println!("CASE part={part} queries={queries} case={case}");
        }
    }
}

/// The value of option `name` (or `default`) and the first argument that is not an option.
fn count_and_filter(args: &[String], name: &str, default: usize) -> (usize, Option<String>) {
    let mut count = default;
    let mut filter = None;
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            a if a == name => {
                count = rest
                    .next()
                    .and_then(|r| r.parse().ok())
                    .unwrap_or_else(|| panic!("{name} takes a count"));
            }
            a if a.starts_with("--") => {}
            a => filter = Some(a.to_owned()),
        }
    }
    (count, filter)
}

/// Starts a new callgrind profile part (see the module doc); does nothing otherwise.
#[inline(never)]
pub fn callgrind_marker() {
    black_box(());
}
