//! Finds an order of a net's neurons in which those that fire together share the sparse
//! layer's 4-byte chunks (fewer non-zero chunks, a faster first layer), and writes it for
//! `nnue_net!(…, neuron_order = "FILE")` (`--order FILE`), or the net reordered (`OUT.nnue`):
//! either way the same net, every evaluation bit for bit as before.
//!
//! ```text
//! cargo run --release --example neuron_order -- IN.nnue [OUT.nnue] [--order FILE] [--fens FILE]... [--arch DESCRIPTION]
//! ```
//!
//! Positions: the FEN files given (one FEN a line, or the `fen` column of a TSV), else the
//! committed `data/positions.txt`. The order is searched on the first half of them first, to
//! report the change on positions it was not found from (the second half), then on all of
//! them. Nets with a pairwise transform (Stockfish 15.1 and later, multi-layer bullet nets);
//! `--arch` for a net without a header, as `nnue_net!` takes it.

use nnue_runtime::format::neuron_order::{co_firing_order, nonzero_chunks};
use nnue_runtime::{Evaluator, Position};

/// Swap passes of the search: the count barely moves after the first few.
const PASSES: usize = 8;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = || -> ! {
        eprintln!(
            "usage: cargo run --release --example neuron_order -- IN.nnue [OUT.nnue] [--order FILE] [--fens FILE]... \
             [--arch DESCRIPTION]"
        );
        std::process::exit(2)
    };
    let (mut files, mut fens, mut arch, mut order_file) = (Vec::new(), Vec::new(), None, None);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--fens" => fens.push(it.next().unwrap_or_else(|| usage()).clone()),
            "--arch" => arch = Some(it.next().unwrap_or_else(|| usage()).as_str()),
            "--order" => order_file = Some(it.next().unwrap_or_else(|| usage()).clone()),
            _ if a.starts_with("--") => usage(),
            _ => files.push(a.clone()),
        }
    }
    let (input, output) = match &files[..] {
        [input] if order_file.is_some() => (input, None),
        [input, output] => (input, Some(output)),
        _ => usage(),
    };
    let net = nnue_testkit::read_net(input, arch);
    let Some(neurons) = net.neurons() else {
        eprintln!("{input}: {} has no pairwise transform: nothing to reorder", net.arch());
        std::process::exit(1)
    };
    if fens.is_empty() {
        fens.push(nnue_testkit::root().join("data/positions.txt").display().to_string());
    }
    let positions: Vec<Position> = fens.iter().flat_map(nnue_testkit::read_fens).collect();

    let samples = nnue_testkit::transform_halves(&net, &positions);
    let samples: Vec<&[u8]> = samples.iter().map(Vec::as_slice).collect();
    let identity: Vec<usize> = (0..neurons).collect();
    let per_sample = |set: &[&[u8]], order: &[usize]| nonzero_chunks(set, order) as f64 / set.len() as f64;

    // Found from the first half of the positions, counted on the second.
    let (first, second) = samples.split_at(samples.len() / 4 * 2);
    let held_out = co_firing_order(first, PASSES);
    println!(
        "{} positions; non-zero chunks per perspective (of {}): on the positions an order was not found from {:.1} -> {:.1}",
        positions.len(),
        neurons / 4,
        per_sample(second, &identity),
        per_sample(second, &held_out)
    );

    let order = co_firing_order(&samples, PASSES);
    let mut moved = net.clone();
    moved.reorder_neurons(&order).unwrap_or_else(|e| panic!("{e}"));
    let (plain, reordered) = (Evaluator::new(&net), Evaluator::new(&moved));
    if let Some(pos) = positions.iter().find(|p| reordered.evaluate(p) != plain.evaluate(p)) {
        panic!("the reordered net evaluates {pos:?} differently: a bug, nothing written");
    }
    let (before, after) = (per_sample(&samples, &identity), per_sample(&samples, &order));
    println!("on all of them {before:.1} -> {after:.1}; every evaluation unchanged");
    if let Some(file) = &order_file {
        let name = std::path::Path::new(input).file_name().map_or(input.clone(), |n| n.to_string_lossy().into_owned());
        let comment = format!(
            "Neuron order of {name} ({}): neuron order[q] at position q.\n\
             Non-zero chunks per perspective over {} positions: {before:.1} -> {after:.1}.",
            net.arch(),
            positions.len()
        );
        let text = nnue_runtime::format::neuron_order::order_text(&order, &comment);
        std::fs::write(file, text).unwrap_or_else(|e| panic!("{file}: {e}"));
        println!("order written to {file}");
    }
    if let Some(output) = output {
        std::fs::write(output, moved.to_bytes()).unwrap_or_else(|e| panic!("{output}: {e}"));
        println!("reordered net written to {output}");
    }
}
