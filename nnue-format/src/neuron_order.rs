//! The order of a pairwise transform's neurons, which no evaluation depends on but the speed
//! of the sparse first layer does.
//!
//! The sparse layer reads the transform's output in 4-byte chunks and skips the all-zero ones
//! (Stockfish's `find_nnz`), so it costs one step per chunk holding any non-zero neuron. Neurons
//! that fire together should share chunks, and those that rarely fire should share the others.
//! Moving a neuron moves its two accumulator columns (`j` and `j + L1/2`, multiplied with each
//! other) and the sparse layer's two input columns that read its product (one per
//! perspective's half): the net computes exactly the same values.
//!
//! [`co_firing_order`] finds an order from activation samples (one perspective's half of the
//! transform's output per sample); [`Net::reorder_neurons`] applies it.

use std::io::Read;
use std::path::Path;

use crate::file::open_regular;
use crate::net::{Dense, FeatureTransformer, Model, Net, Stack};
use crate::FileErrorKind;

/// Why a neuron order can't be applied to a net.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NeuronOrderError {
    /// Only the pairwise transforms feed a chunked sparse layer.
    #[error("{0} has no pairwise transform feeding a sparse layer: its neurons have no order to choose")]
    NotPairwise(String),
    /// The order doesn't list each neuron once.
    #[error("the order must list each of the {neurons} neurons (0..{neurons}) once: {problem}")]
    NotAnOrder {
        /// Neurons per perspective's half (L1 / 2).
        neurons: usize,
        /// What is wrong with it.
        problem: String,
    },
    /// The net's sparse layer adds int16 pair sums (`l1sums=`), whose values depend on the
    /// neurons' order.
    #[error("{0} sums its sparse layer in int16 pairs (l1sums=), whose values depend on the neurons' order")]
    PairSums(String),
    /// The order's file could not be opened.
    #[error("can't open: {0}")]
    Open(String),
    /// The order's file is not one to read: not a regular file, too large, unreadable.
    #[error("{0}")]
    File(String),
    /// The text of an order has something else than neuron numbers.
    #[error("line {line}: expected neuron numbers separated by white space (`#` starts a comment), found `{found}`")]
    Text {
        /// 1-based.
        line: usize,
        /// The word that is not a number.
        found: String,
    },
}

/// An order as text, [`read_order`]'s form: a comment line, then the neuron numbers, 16 a line.
pub fn order_text(order: &[usize], comment: &str) -> String {
    let mut text: String = comment.lines().map(|l| format!("# {l}\n")).collect();
    for line in order.chunks(16) {
        text += &line.iter().map(usize::to_string).collect::<Vec<_>>().join(" ");
        text.push('\n');
    }
    text
}

/// The largest order file [`read_order_file`] reads: far more than any order takes (1536
/// neurons take under 10 KB).
pub const MAX_ORDER_BYTES: u64 = 1 << 20;

/// The order in the file at `path` ([`read_order`]'s form), read as net files are: only a regular
/// file of at most [`MAX_ORDER_BYTES`] (a FIFO is never opened, a device or a huge file never read).
pub fn read_order_file(path: impl AsRef<Path>) -> Result<Vec<usize>, NeuronOrderError> {
    let (file, _) = open_regular(path.as_ref(), MAX_ORDER_BYTES).map_err(|kind| match kind {
        FileErrorKind::Open(e) => NeuronOrderError::Open(e.to_string()),
        FileErrorKind::NotAFile(k) => NeuronOrderError::File(format!("expected a regular file, found {k}")),
        FileErrorKind::TooLarge { found, max } => {
            NeuronOrderError::File(format!("it has {found} bytes, more than an order takes ({max})"))
        }
        other => NeuronOrderError::File(other.to_string()),
    })?;
    let mut text = String::new();
    // Bounded even if the file grows.
    file.take(MAX_ORDER_BYTES + 1)
        .read_to_string(&mut text)
        .map_err(|e| NeuronOrderError::File(format!("can't read: {e}")))?;
    if text.len() as u64 > MAX_ORDER_BYTES {
        return Err(NeuronOrderError::File(format!("it grew past {MAX_ORDER_BYTES} bytes while read")));
    }
    read_order(&text)
}

/// The order of [`order_text`]'s form: neuron numbers separated by white space, `#` to the end
/// of a line a comment. Whether it is an order of the net's neurons is for
/// [`Net::reorder_neurons`] to check.
pub fn read_order(text: &str) -> Result<Vec<usize>, NeuronOrderError> {
    let mut order = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("");
        for word in line.split_whitespace() {
            let n = word.parse().map_err(|_| NeuronOrderError::Text { line: i + 1, found: word.to_string() })?;
            order.push(n);
        }
    }
    Ok(order)
}

impl Net {
    /// The number of neurons of each perspective's half (L1 / 2) whose order
    /// [`Net::reorder_neurons`] can choose: nets with a pairwise transform (Stockfish 15.1 and
    /// later, multi-layer bullet nets); `None` for the others.
    pub fn neurons(&self) -> Option<usize> {
        match &self.model {
            Model::Sfnn(_, p) => Some(p.ft.l1() / 2),
            Model::Threats(_, p) => Some(p.ft.l1() / 2),
            Model::Sf19(_, p) => Some(p.ft.l1() / 2),
            Model::Layered(_, p) => Some(p.ft_biases.len() / 2),
            Model::HalfKp(..) | Model::Chess768(..) => None,
        }
    }

    /// Puts neuron `order[q]` at position `q` (in both accumulator halves and in both
    /// perspectives' inputs of the sparse layer): the same net, its neurons in another order.
    /// Every evaluation is unchanged.
    pub fn reorder_neurons(&mut self, order: &[usize]) -> Result<(), NeuronOrderError> {
        if let crate::Architecture::Layered(a) = self.arch() {
            if a.l1_sums != crate::L1Sums::Exact {
                return Err(NeuronOrderError::PairSums(a.to_string()));
            }
        }
        self.reorder_any_neurons(order)
    }

    /// A net of `l1sums=viridithas-avx2` read (`file_to_engine`) or written: its neurons from
    /// the file's order to Viridithas's, which its loader applies and its sums follow
    /// ([`VIRIDITHAS_ORDER`](crate::layers::step::VIRIDITHAS_ORDER)), or back. Other nets are
    /// unchanged.
    pub(crate) fn viridithas_order(&mut self, file_to_engine: bool) {
        let Model::Layered(crate::LayeredArch { l1_sums: crate::L1Sums::ViridithasAvx2, .. }, _) = &self.model else {
            return;
        };
        let order = crate::layers::step::VIRIDITHAS_ORDER.map(usize::from);
        let order = if file_to_engine {
            order.to_vec()
        } else {
            let mut inverse = vec![0; order.len()];
            order.iter().enumerate().for_each(|(q, &n)| inverse[n] = q);
            inverse
        };
        self.reorder_any_neurons(&order).expect("the description checked L1 1024");
    }

    /// [`Net::reorder_neurons`] whatever the sums.
    pub(crate) fn reorder_any_neurons(&mut self, order: &[usize]) -> Result<(), NeuronOrderError> {
        let Some(neurons) = self.neurons() else {
            return Err(NeuronOrderError::NotPairwise(self.arch().to_string()));
        };
        check_order(order, neurons)?;
        match &mut self.model {
            Model::Sfnn(_, p) => reorder_stockfish(&mut p.ft, &mut [], &mut p.stacks, order),
            Model::Threats(_, p) => reorder_stockfish(&mut p.ft, &mut p.threat_weights, &mut p.stacks, order),
            Model::Sf19(_, p) => reorder_stockfish(&mut p.ft, &mut p.int8_weights, &mut p.stacks, order),
            Model::Layered(_, p) => {
                reorder_rows(&mut p.ft_biases, order);
                reorder_rows(&mut p.ft_weights, order);
                reorder_rows(&mut p.threat_weights, order);
                // `[bucket][l2][l1]`: each output's row reads both perspectives' halves.
                reorder_rows(&mut p.l1_weights, order);
            }
            Model::HalfKp(..) | Model::Chess768(..) => unreachable!("no neurons to order"),
        }
        Ok(())
    }
}

/// A Stockfish transformer (biases, int16 rows, the int8 rows of threat nets; the PSQT weights
/// don't depend on the neurons) and the fc_0 of each stack.
fn reorder_stockfish(ft: &mut FeatureTransformer, int8: &mut [i8], stacks: &mut [Stack], order: &[usize]) {
    reorder_rows(&mut ft.biases, order);
    reorder_rows(&mut ft.weights, order);
    reorder_rows(int8, order);
    stacks.iter_mut().for_each(|s| reorder_inputs(&mut s.fc0, order));
}

/// Every row of `2 · order.len()` columns in `rows`, reordered.
fn reorder_rows<T: Copy>(rows: &mut [T], order: &[usize]) {
    rows.chunks_exact_mut(2 * order.len()).for_each(|r| reorder(r, order));
}

fn check_order(order: &[usize], neurons: usize) -> Result<(), NeuronOrderError> {
    let fail = |problem: String| Err(NeuronOrderError::NotAnOrder { neurons, problem });
    if order.len() != neurons {
        return fail(format!("it has {} entries", order.len()));
    }
    let mut seen = vec![false; neurons];
    for &n in order {
        match seen.get_mut(n) {
            None => return fail(format!("{n} is not a neuron")),
            Some(true) => return fail(format!("{n} appears twice")),
            Some(s) => *s = true,
        }
    }
    Ok(())
}

/// Both halves of one row of `2 · order.len()` columns: column `q` (and `q + half`) takes the
/// old column `order[q]` (and `order[q] + half`).
fn reorder<T: Copy>(row: &mut [T], order: &[usize]) {
    let half = order.len();
    let old = row.to_vec();
    for (q, &n) in order.iter().enumerate() {
        row[q] = old[n];
        row[q + half] = old[n + half];
    }
}

/// The sparse layer's inputs: the first `inputs` columns of every (padded) row.
fn reorder_inputs(layer: &mut Dense, order: &[usize]) {
    let inputs = layer.inputs;
    debug_assert_eq!(inputs, 2 * order.len(), "the sparse layer reads both halves");
    layer.weights.chunks_exact_mut(layer.padded_inputs).for_each(|r| reorder(&mut r[..inputs], order));
}

/// Per neuron, the samples in which it is non-zero, as a bitset.
struct Firing {
    bits: Vec<Vec<u64>>,
}

impl Firing {
    fn new(samples: &[&[u8]], neurons: usize) -> Firing {
        let words = samples.len().div_ceil(64);
        let mut bits = vec![vec![0u64; words]; neurons];
        for (s, sample) in samples.iter().enumerate() {
            for (n, _) in sample.iter().enumerate().filter(|(_, &b)| b != 0) {
                bits[n][s / 64] |= 1 << (s % 64);
            }
        }
        Firing { bits }
    }

    /// The samples in which the chunk has a non-zero neuron.
    fn chunk(&self, c: &[usize; 4]) -> u32 {
        let [a, b, d, e] = c.map(|n| &self.bits[n]);
        a.iter().zip(b).zip(d).zip(e).map(|(((a, b), d), e)| (a | b | d | e).count_ones()).sum()
    }
}

/// The number of non-zero 4-byte chunks over `samples` (each one perspective's half of the
/// transform's output, in the net's current neuron order) if the neurons were put in `order`.
pub fn nonzero_chunks(samples: &[&[u8]], order: &[usize]) -> usize {
    samples.iter().map(|s| order.chunks_exact(4).filter(|c| c.iter().any(|&n| s[n] != 0)).count()).sum()
}

/// A neuron order with fewer non-zero chunks over `samples` (each one perspective's half of the
/// transform's output, in the net's current order; all of the same length, a multiple of 4):
/// from the current order, swaps of two neurons between two chunks that lower the count over
/// the samples, pass after pass until none does (at most `passes`). Deterministic; never more
/// chunks than the current order on the samples.
///
/// # Panics
/// When the samples differ in length, or their length is not a multiple of 4.
pub fn co_firing_order(samples: &[&[u8]], passes: usize) -> Vec<usize> {
    let neurons = samples.first().map_or(0, |s| s.len());
    assert!(
        neurons.is_multiple_of(4) && samples.iter().all(|s| s.len() == neurons),
        "co_firing_order: samples of one length, a multiple of 4"
    );
    let firing = Firing::new(samples, neurons);
    let mut chunks: Vec<[usize; 4]> = (0..neurons / 4).map(|c| [4 * c, 4 * c + 1, 4 * c + 2, 4 * c + 3]).collect();
    let mut cost: Vec<u32> = chunks.iter().map(|c| firing.chunk(c)).collect();
    for _ in 0..passes {
        let mut swapped = false;
        for a in 0..chunks.len() {
            for b in a + 1..chunks.len() {
                for i in 0..4 {
                    for j in 0..4 {
                        let (mut ca, mut cb) = (chunks[a], chunks[b]);
                        std::mem::swap(&mut ca[i], &mut cb[j]);
                        let (na, nb) = (firing.chunk(&ca), firing.chunk(&cb));
                        if na + nb < cost[a] + cost[b] {
                            (chunks[a], chunks[b], cost[a], cost[b]) = (ca, cb, na, nb);
                            swapped = true;
                        }
                    }
                }
            }
        }
        if !swapped {
            break;
        }
    }
    chunks.into_iter().flatten().collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{synth, Encoding};

    /// A synthetic net of every family with a pairwise transform.
    fn pairwise_nets() -> Vec<Net> {
        let layered = "(768x4hm -> 128)x2 -> pairwise>>10 -> (16 -> 32 -> 1)x8, f32, dual, l1mul=1024/4161600, scale=362, file=alexandria, kings=[0,0,0,0,1,1,1,1,2,2,2,2,2,2,2,2,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3]";
        let layered = match layered.parse() {
            Ok(crate::Architecture::Layered(l)) => l,
            other => panic!("{other:?}"),
        };
        vec![
            synth::sfnn(128, 3, Encoding::Leb128),
            synth::threats(128, 4, Encoding::Leb128),
            synth::sf19(128, crate::Sf19Inputs::Full, 5, Encoding::Leb128),
            synth::layered(&layered, 6),
        ]
    }

    #[test]
    fn an_order_and_its_inverse_give_back_the_net_byte_for_byte() {
        for net in pairwise_nets() {
            let neurons = net.neurons().unwrap();
            assert_eq!(neurons, 64);
            // A fixed shuffle of the neurons.
            let order: Vec<usize> = (0..neurons).map(|q| (q * 37 + 11) % neurons).collect();
            let mut inverse = vec![0; neurons];
            order.iter().enumerate().for_each(|(q, &n)| inverse[n] = q);
            let mut moved = net.clone();
            moved.reorder_neurons(&order).unwrap();
            assert_ne!(moved, net, "{}", net.arch());
            moved.reorder_neurons(&inverse).unwrap();
            assert_eq!(moved.to_bytes(), net.to_bytes(), "{}", net.arch());
        }
    }

    #[test]
    fn orders_that_are_not_permutations_and_nets_without_pairs_are_refused() {
        let mut net = synth::sfnn(128, 1, Encoding::Leb128);
        let err = |order: &[usize], net: &mut Net| net.reorder_neurons(order).unwrap_err().to_string();
        assert!(err(&[0, 1, 2], &mut net).contains("it has 3 entries"));
        let mut twice: Vec<usize> = (0..64).collect();
        twice[5] = 4;
        assert!(err(&twice, &mut net).contains("4 appears twice"));
        let mut out: Vec<usize> = (0..64).collect();
        out[0] = 64;
        assert!(err(&out, &mut net).contains("64 is not a neuron"));
        let mut halfkp = synth::halfkp(64, 1);
        assert_eq!(halfkp.neurons(), None);
        assert!(err(&[0], &mut halfkp).contains("no pairwise transform"));
    }

    #[test]
    fn an_order_reads_back_from_its_text_and_other_words_are_errors_naming_the_line() {
        let order: Vec<usize> = (0..40).rev().collect();
        let text = order_text(&order, "found by a test\nover nothing");
        assert!(text.starts_with("# found by a test\n# over nothing\n39 38"));
        assert_eq!(read_order(&text).unwrap(), order);
        assert_eq!(read_order("1 2 # 3\n\n  4\t5").unwrap(), [1, 2, 4, 5]);
        assert_eq!(
            read_order("1 2\n3 x4 5").unwrap_err().to_string(),
            "line 2: expected neuron numbers separated by white space (`#` starts a comment), found `x4`"
        );
        assert!(read_order("-1").is_err());
    }

    #[test]
    fn an_order_file_reads_as_its_text_and_what_is_not_a_file_is_refused() {
        let dir = std::env::temp_dir().join(format!("nnue-order-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("x.order");
        std::fs::write(&file, order_text(&[2, 0, 1, 3], "a test")).unwrap();
        assert_eq!(read_order_file(&file).unwrap(), [2, 0, 1, 3]);
        assert_eq!(read_order_file(&dir).unwrap_err().to_string(), "expected a regular file, found a directory");
        assert!(matches!(read_order_file(dir.join("none.order")), Err(NeuronOrderError::Open(_))));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn co_firing_neurons_end_up_in_one_chunk() {
        // 8 neurons: 0 and 5 fire together, the others never; in the given order every sample
        // has both chunks non-zero.
        let sample = [1u8, 0, 0, 0, 0, 1, 0, 0];
        let samples = vec![&sample[..]; 10];
        let identity: Vec<usize> = (0..8).collect();
        assert_eq!(nonzero_chunks(&samples, &identity), 20);
        let order = co_firing_order(&samples, 8);
        assert_eq!(nonzero_chunks(&samples, &order), 10);
        let mut sorted = order.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, identity);
    }

    #[test]
    fn the_search_never_adds_chunks_and_keeps_a_permutation() {
        let mut rng = synth::Rng::new(9);
        let samples: Vec<Vec<u8>> =
            (0..300).map(|_| (0..64).map(|n| u8::from(rng.range(0, 99) < (n as i64 % 7) * 12)).collect()).collect();
        let samples: Vec<&[u8]> = samples.iter().map(Vec::as_slice).collect();
        let identity: Vec<usize> = (0..64).collect();
        let order = co_firing_order(&samples, 16);
        assert!(nonzero_chunks(&samples, &order) < nonzero_chunks(&samples, &identity));
        check_order(&order, 64).unwrap();
    }
}
