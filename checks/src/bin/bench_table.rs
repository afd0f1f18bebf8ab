//! Prints the README's bench table from criterion's results (`target/criterion/`):
//!
//! ```text
//! cargo bench --bench eval && cargo run --release --example bench_table
//! ```
//!
//! One table per net: a row per measure, the time of each variant, and how many times faster
//! than the generic evaluator each generated path is.

use std::collections::BTreeMap;
use std::path::Path;

const VARIANTS: [&str; 5] = ["generic", "scalar", "avx2", "avxvnni", "avx512vnni"];
const MEASURES: [&str; 6] = ["forward", "refresh", "update_quiet", "update_capture", "update_castle", "games"];

/// The number after `"key":` following `after` in a JSON text (criterion's files are flat).
fn number_after(json: &str, after: &str, key: &str) -> Option<f64> {
    let rest = &json[json.find(after)?..];
    let rest = &rest[rest.find(&format!("\"{key}\":"))? + key.len() + 3..];
    let end = rest.find(|c: char| !(c.is_ascii_digit() || ".eE+-".contains(c)))?;
    rest[..end].parse().ok()
}

fn string_after(json: &str, key: &str) -> Option<String> {
    let rest = &json[json.find(&format!("\"{key}\":\""))? + key.len() + 4..];
    Some(rest[..rest.find('"')?].to_string())
}

fn format_time(ns: f64) -> String {
    match ns {
        n if n < 1e3 => format!("{n:.1} ns"),
        n if n < 1e6 => format!("{:.2} µs", n / 1e3),
        n => format!("{:.2} ms", n / 1e6),
    }
}

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/criterion");
    // net -> measure -> variant -> ns per operation
    let mut results: BTreeMap<String, BTreeMap<String, BTreeMap<String, f64>>> = BTreeMap::new();
    let groups = std::fs::read_dir(&root)
        .unwrap_or_else(|e| panic!("{}: {e} (run `cargo bench --bench eval` first)", root.display()));
    for group in groups.flatten() {
        for function in std::fs::read_dir(group.path()).into_iter().flatten().flatten() {
            let new = function.path().join("new");
            let (Ok(bench), Ok(est)) = (
                std::fs::read_to_string(new.join("benchmark.json")),
                std::fs::read_to_string(new.join("estimates.json")),
            ) else {
                continue;
            };
            let (Some(group_id), Some(variant)) =
                (string_after(&bench, "group_id"), string_after(&bench, "function_id"))
            else {
                continue;
            };
            let Some((net, measure)) = group_id.split_once('/') else { continue };
            let Some(mut ns) = number_after(&est, "\"median\"", "point_estimate") else { continue };
            if let Some(elements) = number_after(&bench, "\"throughput\"", "Elements") {
                ns /= elements;
            }
            results.entry(net.into()).or_default().entry(measure.into()).or_default().insert(variant, ns);
        }
    }
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|t| {
            t.lines()
                .find(|l| l.starts_with("model name"))
                .map(|l| l.split(':').nth(1).unwrap_or("").trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".into());
    let date = std::process::Command::new("date").arg("+%Y-%m-%d").output().ok();
    let date = date.map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string()).unwrap_or_default();
    println!("Measured {date} on {cpu} ({} cores), median per operation; ×N = generic time / path time.", num_cpus());
    println!("`games` is per ply: push the move's change, then evaluate through the accumulator stack.\n");
    for (net, measures) in &results {
        let present: Vec<&str> =
            VARIANTS.iter().copied().filter(|v| measures.values().any(|m| m.contains_key(*v))).collect();
        println!("**{net}**\n");
        println!("| measure | {} |", present.join(" | "));
        println!("|---|{}", "---|".repeat(present.len()));
        for measure in MEASURES {
            let Some(m) = measures.get(measure) else { continue };
            let generic = m.get("generic").copied();
            let cells: Vec<String> = present
                .iter()
                .map(|v| match (m.get(*v), generic) {
                    (Some(&t), Some(g)) if *v != "generic" => format!("{} (×{:.1})", format_time(t), g / t),
                    (Some(&t), _) => format_time(t),
                    (None, _) => "–".into(),
                })
                .collect();
            println!("| {measure} | {} |", cells.join(" | "));
        }
        println!();
    }
}

fn num_cpus() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}
