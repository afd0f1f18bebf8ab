//! Layer texts of one's own, mutated at random (numbers, registers, lines dropped, repeated
//! or swapped): whatever the reference accepts for a net and a loaded view runs computes the
//! reference's values on every path, and nothing panics on the way (parse, check, lowering,
//! loading, evaluating). A text is user input (`compute = "…"`, `FastWeights::with_layers`).

use nnue_format::synth;
use nnue_format::{Encoding, Layers, Net, Sf19Inputs};
use nnue_runtime::loaded::FastWeights;
use nnue_runtime::position::random_positions;
use nnue_runtime::reference::verify_with;
use nnue_runtime::{Evaluator, Network, Position};
use proptest::prelude::*;

/// The numbers a mutation puts in place of one: edges of the arithmetic and of the widths.
const NUMBERS: [&str; 14] =
    ["0", "1", "-1", "2", "6", "7", "9", "15", "31", "32", "64", "127", "2147483647", "4294967295"];

/// A small generator, so that a case is its seed.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

/// `text` with `count` random changes.
fn mutate(text: &str, seed: u64, count: usize) -> String {
    let mut rng = Rng(seed);
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    for _ in 0..count {
        let i = rng.below(lines.len());
        match rng.below(5) {
            // A number (a run of digits) replaced by another.
            0 | 1 => {
                let line = lines[i].clone();
                let runs: Vec<(usize, usize)> = digit_runs(&line);
                if let Some(&(a, b)) = runs.get(rng.below(runs.len().max(1))) {
                    lines[i] = format!("{}{}{}", &line[..a], NUMBERS[rng.below(NUMBERS.len())], &line[b..]);
                }
            }
            // A register read or written replaced by another.
            2 => {
                let line = lines[i].clone();
                let regs: Vec<usize> = line.match_indices('r').map(|(k, _)| k).collect();
                if let Some(&k) = regs.get(rng.below(regs.len().max(1))) {
                    let end = line[k + 1..].find(|c: char| !c.is_ascii_digit()).map_or(line.len(), |e| k + 1 + e);
                    if end > k + 1 {
                        lines[i] = format!("{}r{}{}", &line[..k], rng.below(16), &line[end..]);
                    }
                }
            }
            3 if lines.len() > 2 => {
                lines.remove(i);
            }
            3 => {}
            _ => {
                let j = rng.below(lines.len());
                if rng.below(2) == 0 {
                    lines.swap(i, j);
                } else {
                    let line = lines[i].clone();
                    lines.insert(j, line);
                }
            }
        }
    }
    lines.join("\n")
}

/// The byte ranges of `line`'s runs of ASCII digits.
fn digit_runs(line: &str) -> Vec<(usize, usize)> {
    let bytes = line.as_bytes();
    let mut runs = Vec::new();
    let mut k = 0;
    while k < bytes.len() {
        if bytes[k].is_ascii_digit() {
            let start = k;
            while k < bytes.len() && bytes[k].is_ascii_digit() {
                k += 1;
            }
            runs.push((start, k));
        } else {
            k += 1;
        }
    }
    runs
}

/// Whether `text` ran on net `which` (refused somewhere is fine); if it ran, it must equal the
/// reference on every path.
fn run(which: usize, text: &str, positions: &[Position]) -> bool {
    let net = &nets()[which].0;
    let Ok(layers) = text.parse::<Layers>() else { return false };
    let Ok(reference) = Evaluator::with_layers(net, layers.clone()) else { return false };
    let Ok(weights) = FastWeights::with_layers(net, layers) else { return false };
    match which {
        0 => same(weights.sf19::<64, 32, 16, 8, 64368, 22528, 86896>(), &reference, positions, text),
        1 => same(weights.layered::<64, 32, 16, 1536, 16, 32, 32, 8>(), &reference, positions, text),
        2 => same(weights.layered::<64, 32, 16, 768, 16, 32, 32, 8>(), &reference, positions, text),
        3 => same(weights.halfkp::<64, 32>(), &reference, positions, text),
        _ => same(weights.chess768::<64, 1536, 8>(), &reference, positions, text),
    }
}

/// Whether the view loaded; if it did, it equals `reference` on every path.
fn same<N: Network, E>(view: Result<N, E>, reference: &Evaluator<'_>, positions: &[Position], text: &str) -> bool {
    let Ok(view) = view else { return false };
    if let Err(m) = verify_with(reference, &view, positions) {
        panic!("the loaded view differs from the reference on:\n{text}\nfirst difference: {m:?}");
    }
    true
}

fn nets() -> &'static [(Net, String)] {
    use std::sync::OnceLock;
    static NETS: OnceLock<Vec<(Net, String)>> = OnceLock::new();
    NETS.get_or_init(|| {
        let sf19 = synth::sf19(64, Sf19Inputs::Full, 45, Encoding::Raw);
        let arch = "(768x2hm -> 64)x2 -> pairwise>>10 -> (16 -> 32 -> 1)x8, f32, dual, l1mul=1024/4161600, \
                    scale=362, buckets=(63-p)(32-p)/225, file=alexandria, \
                    kings=[0,0,1,1,0,0,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]";
        let nnue_format::Architecture::Layered(arch) = arch.parse().unwrap() else { unreachable!() };
        let layered = synth::layered(&arch, 46);
        let i32s =
            "(768 -> 64)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x8, i32, dual, q=64, l1shift=10, scale=400, file=cbnf";
        let nnue_format::Architecture::Layered(arch) = i32s.parse().unwrap() else { unreachable!() };
        let i32s = synth::layered(&arch, 47);
        let halfkp = synth::halfkp(64, 48);
        let single = "(768x2hm -> 64)x2 -> 1x8, screlu, qa=255, qb=64, scale=400, \
                      kings=[0,0,1,1,0,0,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]";
        let nnue_format::Architecture::Chess768(arch) = single.parse().unwrap() else { unreachable!() };
        let single = synth::chess768(&arch, 49);
        [sf19, layered, i32s, halfkp, single].into_iter().map(|n| (n.clone(), n.arch().layers().to_string())).collect()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn mutated_layer_texts_run_as_the_reference_or_are_refused(seed in any::<u64>(), count in 1usize..4, which in 0usize..5) {
        let text = mutate(&nets()[which].1, seed, count);
        run(which, &text, &random_positions(seed, 8));
    }
}

/// The unmutated texts run (the property above is not vacuous), and some mutations of each do.
#[test]
fn the_texts_and_some_mutations_run() {
    let positions = random_positions(9, 8);
    for (which, (_, text)) in nets().iter().enumerate() {
        assert!(run(which, text, &positions), "{text}");
        let ran = (0..200).filter(|&seed| run(which, &mutate(text, seed, 1), &positions)).count();
        assert!(ran >= 10, "{ran} of 200 single mutations ran on net {which}");
    }
}
