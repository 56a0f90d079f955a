//! A list of benchmark cases run either by criterion or, with `--callgrind`, once each between
//! markers so that callgrind can count instructions per case.
//!
//! Every case is a closure that answers one *batch* of pre-generated queries; a group holds the
//! cases measured against each other (nphase and parry3d on the same inputs), so criterion's
//! report and the ratio tables compare like with like.
//!
//! ```text
//! cargo bench --bench gjk -- --warm-up-time 1 --measurement-time 3 [filter]
//! benches/callgrind.sh gjk [filter]       # instruction counts, stable under load
//! ```
//!
//! In `--callgrind` mode each selected case runs once unmeasured, then `--reps` times (default
//! 10), with a call to [`callgrind_marker`] before each of the two phases. Under
//! `valgrind --tool=callgrind --dump-before='*callgrind_marker*'` every marker starts a new
//! profile part; the mode prints which part holds which case's measured runs.

use std::hint::black_box;

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

    fn run_callgrind(mut self, args: &[String]) {
        let mut reps = 10;
        let mut filter = None;
        let mut rest = args.iter();
        while let Some(arg) = rest.next() {
            match arg.as_str() {
                "--reps" => {
                    reps = rest
                        .next()
                        .and_then(|r| r.parse().ok())
                        .expect("--reps takes a count");
                }
                a if a.starts_with("--") => {}
                a => filter = Some(a.to_owned()),
            }
        }
        // Part 1 is everything before the first marker (input generation); each case then
        // takes two parts, its unmeasured run and its measured ones. Nothing else runs between
        // the markers (the report is printed at the end).
        let mut part = 1;
        let mut report = Vec::new();
        for group in &mut self.groups {
            for (id, run) in &mut group.cases {
                let full = format!("{}/{}", group.name, id);
                if filter.as_ref().is_some_and(|f| !full.contains(f.as_str())) {
                    continue;
                }
                callgrind_marker();
                run();
                callgrind_marker();
                for _ in 0..reps {
                    run();
                }
                part += 2;
                report.push((part, group.queries * reps, full));
            }
        }
        callgrind_marker();
        for (part, queries, case) in report {
            println!("CASE part={part} queries={queries} case={case}");
        }
    }
}

/// Starts a new callgrind profile part (see the module doc); does nothing otherwise.
#[inline(never)]
pub fn callgrind_marker() {
    black_box(());
}
