//! Markdown tables of the benches built on `benches/common/harness.rs`, with the parry/nphase
//! ratios, from criterion's saved estimates or from a `benches/callgrind.sh` run.
//!
//! ```text
//! cargo run --release --example bench_table -- criterion [group-prefix]
//! cargo run --release --example bench_table -- callgrind target/callgrind/<bench> [group-prefix]
//! cargo bench --bench <bench> -- --fastest > fastest.txt
//! cargo run --release --example bench_table -- fastest fastest.txt [group-prefix]
//! ```
//!
//! Rows are benchmark groups, columns the cases (nanoseconds per query: criterion's median
//! time per batch ÷ queries per batch; or instructions per query), then one ratio column per
//! parry case and nphase case of the same precision: `parry / nphase`, above 1 when nphase is
//! faster. Groups without a parry case get `plain / other case` instead (the acceleration
//! groups: above 1 when the accelerated variant is faster).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

/// One measured case: its group, its id and the cost per query.
struct Measurement {
    group: String,
    id: String,
    per_query: f64,
}

fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every `new/benchmark.json` below `dir`.
fn benchmark_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            if path.ends_with("new") && path.join("benchmark.json").is_file() {
                out.push(path.join("benchmark.json"));
            } else {
                benchmark_files(&path, out);
            }
        }
    }
}

fn criterion(prefix: &str) -> Vec<Measurement> {
    let target = std::env::var("CARGO_TARGET_DIR").unwrap_or_else(|_| "target".to_owned());
    let mut files = Vec::new();
    benchmark_files(&Path::new(&target).join("criterion"), &mut files);
    let mut out = Vec::new();
    for file in files {
        let bench = read_json(&file);
        let group = bench["group_id"].as_str().unwrap_or_default().to_owned();
        if !group.starts_with(prefix) {
            continue;
        }
        let queries = bench["throughput"]["Elements"].as_f64().unwrap_or(1.0);
        let estimates = read_json(&file.with_file_name("estimates.json"));
        let median = estimates["median"]["point_estimate"]
            .as_f64()
            .expect("a median");
        out.push(Measurement {
            group,
            id: bench["function_id"].as_str().unwrap_or_default().to_owned(),
            per_query: median / queries,
        });
    }
    out
}

fn callgrind(dir: &Path, prefix: &str) -> Vec<Measurement> {
    let cases = std::fs::read_to_string(dir.join("cases.txt")).expect("cases.txt");
    let mut out = Vec::new();
    for line in cases.lines().filter(|l| l.starts_with("CASE ")) {
        let field = |name: &str| {
            line.split_whitespace()
                .find_map(|f| f.strip_prefix(name))
                .unwrap_or_else(|| panic!("no {name} in {line}"))
        };
        let part = field("part=");
        let queries: f64 = field("queries=").parse().expect("a count");
        let case = field("case=");
        let (group, id) = case.rsplit_once('/').expect("group/id");
        if !group.starts_with(prefix) {
            continue;
        }
        let profile = std::fs::read_to_string(dir.join(format!("cg.out.{part}")))
            .unwrap_or_else(|e| panic!("part {part}: {e}"));
        let total: f64 = profile
            .lines()
            .find_map(|l| l.strip_prefix("totals: "))
            .and_then(|t| t.trim().parse().ok())
            .expect("a totals line");
        out.push(Measurement {
            group: group.to_owned(),
            id: id.to_owned(),
            per_query: total / queries,
        });
    }
    out
}

/// The `CASE case=<group>/<id> ns=<ns>` lines of a `--fastest` run.
fn fastest(file: &Path, prefix: &str) -> Vec<Measurement> {
    let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let mut out = Vec::new();
    for line in text.lines().filter(|l| l.starts_with("CASE ")) {
        let field = |name: &str| {
            line.split_whitespace()
                .find_map(|f| f.strip_prefix(name))
                .unwrap_or_else(|| panic!("no {name} in {line}"))
        };
        let (group, id) = field("case=").rsplit_once('/').expect("group/id");
        if group.starts_with(prefix) {
            out.push(Measurement {
                group: group.to_owned(),
                id: id.to_owned(),
                per_query: field("ns=").parse().expect("a time"),
            });
        }
    }
    out
}

fn format_value(v: f64) -> String {
    if v >= 100.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.1}")
    }
}

fn print_table(measurements: &[Measurement], unit: &str) {
    let mut ids: Vec<&str> = Vec::new();
    let mut groups: Vec<&str> = Vec::new();
    let mut value: BTreeMap<(&str, &str), f64> = BTreeMap::new();
    for m in measurements {
        if !ids.contains(&m.id.as_str()) {
            ids.push(&m.id);
        }
        if !groups.contains(&m.group.as_str()) {
            groups.push(&m.group);
        }
        value.insert((&m.group, &m.id), m.per_query);
    }
    groups.sort();
    // f32 cases before f64 ones, then by name.
    ids.sort_by_key(|id| (id.ends_with("_f64"), *id));
    // parry case P against nphase case N when N ends with P's suffix ("_f32", or "" for all).
    let mut ratios: Vec<(&str, &str)> = Vec::new();
    for parry in ids.iter().filter(|i| i.starts_with("parry")) {
        let suffix = &parry["parry".len()..];
        for nphase in ids
            .iter()
            .filter(|i| i.starts_with("nphase") && i.ends_with(suffix))
        {
            ratios.push((parry, nphase));
        }
    }
    if ratios.is_empty() {
        // The baseline is the `plain` case (GJK without acceleration) if there is one.
        let base = ids
            .iter()
            .copied()
            .find(|i| *i == "plain")
            .unwrap_or(ids[0]);
        ratios = ids
            .iter()
            .filter(|i| **i != base)
            .map(|other| (base, *other))
            .collect();
    }
    let mut header = format!("| group | {} ", ids.join(&format!(" ({unit}) | ")));
    header += &format!("({unit}) |");
    for (p, n) in &ratios {
        header += &format!(" {p} / {n} |");
    }
    println!("{header}");
    println!("|---|{}", "---:|".repeat(ids.len() + ratios.len()));
    for group in groups {
        let mut row = format!("| {group} |");
        for id in &ids {
            match value.get(&(group, *id)) {
                Some(v) => row += &format!(" {} |", format_value(*v)),
                None => row += " |",
            }
        }
        for (p, n) in &ratios {
            match (value.get(&(group, *p)), value.get(&(group, *n))) {
                (Some(p), Some(n)) => row += &format!(" {:.2} |", p / n),
                _ => row += " |",
            }
        }
        println!("{row}");
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("criterion") => {
            let prefix = args.get(1).map_or("", String::as_str);
            print_table(&criterion(prefix), "ns");
        }
        Some("callgrind") => {
            let dir = args.get(1).expect("the callgrind output directory");
            let prefix = args.get(2).map_or("", String::as_str);
            print_table(&callgrind(Path::new(dir), prefix), "Ir");
        }
        Some("fastest") => {
            let file = args.get(1).expect("the output of a --fastest run");
            let prefix = args.get(2).map_or("", String::as_str);
            print_table(&fastest(Path::new(file), prefix), "ns");
        }
        _ => eprintln!(
            "usage: bench_table criterion [prefix] | callgrind <dir> [prefix] | fastest <file> [prefix]"
        ),
    }
}
