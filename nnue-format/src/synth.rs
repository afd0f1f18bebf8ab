//! Seeded synthetic nets of every family, with weights in the ranges trainers produce and
//! spread so that every clamp, saturation and rounding edge is hit on ordinary positions.

use crate::arch::{Chess768Arch, HalfKpArch, Sf19Arch, Sf19Inputs, SfnnArch, ThreatsArch};
use crate::net::{
    Chess768Params, Dense, Encoding, FeatureTransformer, HalfKpParams, Model, Net, Padding, Sf19Params, SfnnParams,
    Stack, ThreatsParams,
};

pub use crate::rng::Rng;

fn fill<T>(rng: &mut Rng, n: usize, mut f: impl FnMut(&mut Rng) -> T) -> Vec<T> {
    (0..n).map(|_| f(rng)).collect()
}

fn dense(rng: &mut Rng, inputs: usize, outputs: usize, bias: i64) -> Dense {
    let mut layer = Dense::zeroed(inputs, outputs);
    layer.biases = fill(rng, outputs, |r| r.range(-bias, bias) as i32);
    for o in 0..outputs {
        for i in 0..inputs {
            // Full int8 range, -128 included: maddubs must not saturate even there.
            layer.weights[o * layer.padded_inputs + i] = rng.weight(100, if i % 2 == 0 { 127 } else { -128 }) as i8;
        }
    }
    layer
}

fn feature_transformer(rng: &mut Rng, inputs: usize, l1: usize, psqt: usize, encoding: Encoding) -> FeatureTransformer {
    FeatureTransformer {
        // Biases around the ClippedReLU window so that both clamps and the middle occur.
        biases: fill(rng, l1, |r| r.range(-40, 120) as i16),
        // ~30 active features of spread 60 move an accumulator by a few hundred: it saturates
        // sometimes, and never comes near the int16 limits (even doubled, as the fast path does).
        weights: fill(rng, inputs * l1, |r| r.weight(60, 300) as i16),
        psqt: fill(rng, inputs * psqt, |r| r.weight(4000, 20000) as i32),
        encoding: [encoding; 3],
    }
}

/// A Stockfish SFNNv5+ net of width `l1`.
pub fn sfnn(l1: usize, seed: u64, encoding: Encoding) -> Net {
    let arch = SfnnArch { l1 };
    let mut rng = Rng::new(seed);
    let ft = feature_transformer(&mut rng, SfnnArch::INPUTS, l1, SfnnArch::PSQT_BUCKETS, encoding);
    let stacks = (0..SfnnArch::STACKS)
        .map(|_| Stack {
            fc0: dense(&mut rng, l1, SfnnArch::FC0_OUT, 20000),
            fc1: dense(&mut rng, SfnnArch::FC1_IN, SfnnArch::FC1_OUT, 8000),
            fc2: dense(&mut rng, SfnnArch::FC1_OUT, 1, 4000),
        })
        .collect();
    Net {
        description: format!("synthetic SFNN L1={l1} seed={seed}"),
        model: Model::Sfnn(arch, SfnnParams { ft, stacks }),
    }
}

fn stacks(rng: &mut Rng, l1: usize) -> Vec<Stack> {
    (0..SfnnArch::STACKS)
        .map(|_| Stack {
            fc0: dense(rng, l1, SfnnArch::FC0_OUT, 20000),
            fc1: dense(rng, SfnnArch::FC1_IN, SfnnArch::FC1_OUT, 8000),
            fc2: dense(rng, SfnnArch::FC1_OUT, 1, 4000),
        })
        .collect()
}

/// A Stockfish 18 threat-input net of width `l1` (`encoding`: biases, HalfKAv2_hm weights and
/// PSQT; the threat weights are always raw).
pub fn threats(l1: usize, seed: u64, encoding: Encoding) -> Net {
    let mut rng = Rng::new(seed);
    let mut ft = feature_transformer(&mut rng, ThreatsArch::PIECE_INPUTS, l1, 0, encoding);
    // Accumulators start near the 0..255 window of the transform; ~15-40 threat rows of spread
    // 30 then move them by about as much as the piece rows do.
    for b in &mut ft.biases {
        *b = b.wrapping_add(60);
    }
    ft.psqt = fill(&mut rng, ThreatsArch::INPUTS * SfnnArch::PSQT_BUCKETS, |r| r.weight(4000, 20000) as i32);
    let threat_weights = fill(&mut rng, ThreatsArch::THREAT_INPUTS * l1, |r| r.weight(30, 127) as i8);
    let stacks = stacks(&mut rng, l1);
    Net {
        description: format!("synthetic HalfKAv2_hm+Threats L1={l1} seed={seed}"),
        model: Model::Threats(ThreatsArch { l1 }, ThreatsParams { ft, threat_weights, stacks }),
    }
}

/// A Stockfish 19 net of width `l1` (`encoding`: biases, int16 weights and every PSQT block;
/// the int8 rows are always raw). Its fc_0 outputs are spread so that both activations of
/// fc_1 and fc_2 (squared `>> 21` / `>> 19`, clipped `>> 7` / `>> 6`) see their whole range.
pub fn sf19(l1: usize, inputs: Sf19Inputs, seed: u64, encoding: Encoding) -> Net {
    let arch = Sf19Arch { l1, inputs, psqt: true };
    let mut rng = Rng::new(seed);
    let mut ft = feature_transformer(&mut rng, arch.int16_inputs(), l1, 0, encoding);
    for b in &mut ft.biases {
        *b = b.wrapping_add(60);
    }
    ft.psqt = fill(&mut rng, arch.inputs() * Sf19Arch::PSQT_BUCKETS, |r| r.weight(4000, 20000) as i32);
    let int8_weights = fill(&mut rng, arch.int8_inputs() * l1, |r| r.weight(30, 127) as i8);
    let stacks = (0..Sf19Arch::STACKS)
        .map(|_| Stack {
            fc0: dense(&mut rng, l1, Sf19Arch::FC0_OUT, 40000),
            fc1: dense(&mut rng, Sf19Arch::FC1_IN, Sf19Arch::FC1_OUT, 8000),
            fc2: dense(&mut rng, Sf19Arch::FC2_IN, 1, 4000),
        })
        .collect();
    let name = crate::Architecture::Sf19(arch).family();
    Net {
        description: format!("synthetic {name} L1={l1} seed={seed}"),
        model: Model::Sf19(arch, Sf19Params { ft, int8_weights, int8_psqt_encoding: [encoding; 2], stacks }),
    }
    .with_canonical_int8_encodings()
}

impl Net {
    /// A lite Stockfish 19 net has no int8 blocks: their encodings read as LEB128.
    fn with_canonical_int8_encodings(mut self) -> Net {
        if let Model::Sf19(a, p) = &mut self.model {
            if a.inputs == Sf19Inputs::Lite {
                p.int8_psqt_encoding = [Encoding::Leb128; 2];
            }
        }
        self
    }
}

/// A Stockfish 19 net as Stockfish master's SFNNv17 has it: the same net with its PSQT
/// blocks cut out (its parameters hold zero PSQT weights, the encodings of those blocks their
/// canonical LEB128). Its value is the positional part of the Stockfish 19 net's. Other nets
/// come back unchanged.
pub fn without_psqt(mut net: Net) -> Net {
    if let Model::Sf19(a, p) = &mut net.model {
        a.psqt = false;
        p.ft.psqt.fill(0);
        p.ft.encoding[2] = Encoding::Leb128;
        p.int8_psqt_encoding = [Encoding::Leb128; 2];
    }
    net
}

/// A Stockfish 12-13 HalfKP net of width `l1`.
pub fn halfkp(l1: usize, seed: u64) -> Net {
    let mut rng = Rng::new(seed);
    let ft = feature_transformer(&mut rng, HalfKpArch::INPUTS, l1, 0, Encoding::Raw);
    Net {
        description: format!("synthetic HalfKP L1={l1} seed={seed}"),
        model: Model::HalfKp(
            HalfKpArch { l1 },
            HalfKpParams {
                ft,
                fc0: dense(&mut rng, 2 * l1, HalfKpArch::L2, 20000),
                fc1: dense(&mut rng, HalfKpArch::L2, HalfKpArch::L3, 8000),
                fc2: dense(&mut rng, HalfKpArch::L3, 1, 4000),
            },
        ),
    }
}

/// A headerless net of the given shape.
pub fn chess768(arch: &Chess768Arch, seed: u64) -> Net {
    let mut rng = Rng::new(seed);
    let (n, qa) = (arch.hidden, i64::from(arch.qa));
    let params = Chess768Params {
        l0w: fill(&mut rng, arch.inputs() * n, |r| r.weight(qa / 3, qa) as i16),
        l0b: fill(&mut rng, n, |r| r.range(-qa / 4, qa / 2) as i16),
        // Clipped as trainers do (|w| <= 127), so `v * w` fits an int16 for v <= QA = 255.
        l1w: fill(&mut rng, arch.output_buckets * 2 * n, |r| r.weight(90, 127) as i16),
        l1b: fill(&mut rng, arch.output_buckets, |r| r.range(-2000, 2000) as i16),
        // bullet's files end in padding; Caissa's struct has its own.
        padding: match arch.file.format().end {
            crate::layered::format::End::Bullet => Padding::Zeros,
            _ => Padding::None,
        },
    };
    Net { description: String::new(), model: Model::Chess768(*arch, params) }
}

/// A multi-layer net of `arch`, with magnitudes as trained nets have (most evaluations within a
/// few thousand, activations spread over both clamps and the middle).
pub fn layered(arch: &crate::LayeredArch, seed: u64) -> Net {
    const I16_PAIRS_BIAS: i64 = 300;
    const I16_PAIRS_SPREAD: i64 = 127;
    let mut rng = Rng::new(seed);
    let (l1, l2, l3, l2f, b) = (arch.l1, arch.l2, arch.l3, arch.l2_full(), arch.buckets);
    // Bell-shaped real in -spread..spread.
    let real = |r: &mut Rng, spread: f32| {
        (r.range(-1 << 20, 1 << 20) + r.range(-1 << 20, 1 << 20)) as f32 / (1 << 21) as f32 * spread
    };
    // `n` f32 values (as their bits) drawn in `lo..hi`.
    let floats = |rng: &mut Rng, n: usize, lo: f32, hi: f32| {
        fill(rng, n, |r| (lo + (real(r, 1.0) + 1.0) / 2.0 * (hi - lo)).to_bits() as i32)
    };
    let ft_weights = fill(&mut rng, arch.int16_inputs() * l1, |r| r.weight(40, 255) as i16);
    // Integral-style sums (`l1sums=i16pairs`): activations and weights large enough that two
    // groups' int16 lanes do wrap on ordinary positions, as they can on a trained net.
    let wide = arch.l1_sums != crate::layered::L1Sums::Exact;
    let (bias_hi, l1_spread) = if wide { (I16_PAIRS_BIAS, I16_PAIRS_SPREAD) } else { (140, 12) };
    let ft_biases = fill(&mut rng, l1, |r| r.range(0, bias_hi) as i16);
    let l1_weights = fill(&mut rng, b * l2 * l1, |r| {
        let extreme = if r.next_u64().is_multiple_of(2) { 127 } else { -128 };
        r.weight(l1_spread, extreme) as i8
    });
    let (l1_biases, l2_weights, l2_biases, l3_weights, l3_biases) = match arch.numbers {
        crate::Numbers::F32 { .. } => {
            let mut f = |n: usize, lo: f32, hi: f32| floats(&mut rng, n, lo, hi);
            // Squares compound (cinder's signed squares): smaller weights after them.
            let (dense, out) = if arch.l1_act == crate::layered::Act::SignedSquare { (0.2, 0.5) } else { (0.6, 2.0) };
            (
                f(b * l2, -0.3, 0.5),
                f(b * l3 * l2f, -dense, dense),
                f(b * l3, -0.3, 0.5),
                f(b * arch.l3_inputs(), -out, out),
                f(b, -0.5, 0.5),
            )
        }
        crate::Numbers::I32 { q_bits, wide, .. } => {
            let q = 1i64 << q_bits;
            let mut f = |n: usize, lo: i64, hi: i64| fill(&mut rng, n, |r| r.range(lo, hi) as i32);
            // `wide`: the sparse layer's output (its bias) in Q² units.
            let one = if wide { q * q } else { q };
            (
                f(b * l2, -one * 3 / 10, one / 2),
                f(b * l3 * l2f, -q * 6 / 10, q * 6 / 10),
                f(b * l3, -q * q * q * 3 / 10, q * q * q / 2),
                f(b * arch.l3_inputs(), -q, q),
                f(b, -q * q * q * q / 2, q * q * q * q / 2),
            )
        }
    };
    // Threat rows: a position has some 30–60 active threats per perspective, so smaller than
    // the piece rows (drawn last: nets without threats keep their values for a seed).
    let threat_weights = fill(&mut rng, arch.int8_inputs() * l1, |r| r.weight(12, 127) as i8);
    // A second dense layer (cinder's), drawn after everything else for the same reason.
    let (l3b_weights, l3b_biases) = match arch.l3b {
        Some(n) => (floats(&mut rng, b * n * arch.dense_act_width(), -0.2, 0.2), floats(&mut rng, b * n, -0.3, 0.5)),
        None => (Vec::new(), Vec::new()),
    };
    let params = crate::LayeredParams {
        l3b_weights,
        l3b_biases,
        threat_weights,
        ft_weights,
        ft_biases,
        l1_weights,
        l1_biases,
        l2_weights,
        l2_biases,
        l3_weights,
        l3_biases,
        // As each engine's own files are: bullet pads, Obsidian's `struct Net` ends aligned.
        padding: arch.file.format().synth_padding,
    };
    // Headerless layouts have no description; CBNF names the net in its header.
    let description = match arch.file.format().header {
        crate::layered::format::Header::None => String::new(),
        crate::layered::format::Header::Cbnf => format!("synthetic {seed}"),
    };
    let mut net = Net { description, model: Model::Layered(*arch, params) };
    // Drawn in the file's order: in the engine's, as a read would give it.
    net.viridithas_order(true);
    net
}

/// `net` with its first layer redrawn so large (SFNN transformers, which Stockfish doubles, in
/// -2600..=2600, as in `../shared/nets/overflow-small.nnue`; the other families' in
/// -9000..=9000) that accumulator sums leave int16 on ordinary positions and wrap. Still
/// within what the fast layout takes exactly (SFNN values stay doubleable).
pub fn with_wrapping_first_layer(mut net: Net, seed: u64) -> Net {
    let mut rng = Rng::new(seed ^ 0x5752_4150);
    let mut redraw = |v: &mut [i16], spread: i64| v.iter_mut().for_each(|x| *x = rng.weight(spread, spread) as i16);
    match &mut net.model {
        Model::Sfnn(_, p) => {
            redraw(&mut p.ft.biases, 2600);
            redraw(&mut p.ft.weights, 2600);
        }
        Model::HalfKp(_, p) => {
            redraw(&mut p.ft.biases, 9000);
            redraw(&mut p.ft.weights, 9000);
        }
        Model::Chess768(_, p) => {
            redraw(&mut p.l0b, 9000);
            redraw(&mut p.l0w, 9000);
        }
        // Not doubled, and threat rows are int8: the HalfKAv2_hm part carries the wrap.
        Model::Threats(_, p) => {
            redraw(&mut p.ft.biases, 9000);
            redraw(&mut p.ft.weights, 9000);
        }
        Model::Sf19(_, p) => {
            redraw(&mut p.ft.biases, 9000);
            redraw(&mut p.ft.weights, 9000);
        }
        Model::Layered(_, p) => {
            redraw(&mut p.ft_biases, 9000);
            redraw(&mut p.ft_weights, 9000);
        }
    }
    if !net.description.is_empty() {
        net.description += " (wrapping first layer)";
    }
    net
}

/// A single-layer `net` with `dead` of its accumulator columns (spread over the width) made
/// never positive (bias and weights at most 0, no sum below -32768), as trained nets have
/// some, and as many again that are negative in most positions but not all (one positive
/// weight lifts the sum above 0): what `layout::fast_layout_pruned` must tell apart.
///
/// # Panics
/// If `net` is not a single-layer net or has fewer than `2 * dead` columns.
pub fn with_dead_columns(mut net: Net, dead: usize, seed: u64) -> Net {
    let mut rng = Rng::new(seed ^ 0x4445_4144);
    let Model::Chess768(_, p) = &mut net.model else { panic!("with_dead_columns: a single-layer net") };
    let n = p.hidden();
    assert!(2 * dead <= n, "with_dead_columns: {dead} dead and {dead} nearly dead of {n} columns");
    let step = n / (2 * dead);
    for k in 0..2 * dead {
        let j = k * step;
        p.l0b[j] = -(rng.range(1, 400) as i16);
        for row in p.l0w.chunks_exact_mut(n) {
            row[j] = -(rng.range(0, 60) as i16);
        }
        if k % 2 == 1 {
            // Nearly dead: one feature (a white pawn on some square) lifts it above 0.
            let row = rng.range(8, 56) as usize;
            p.l0w[row * n + j] = 500;
        }
    }
    net
}

/// `net`, a multi-layer net of Stormphrax's layout, as Stormphrax ships its nets: the `CBNF`
/// header with the zstd flag, then its arrays back to back (no padding) as a zstd stream of
/// `frames` frames (one is what `zstd` writes; Stormphrax reads any number).
///
/// # Panics
/// When `net` is not in Stormphrax's layout, or `frames` is 0.
pub fn cbnf_zstd(net: &Net, frames: usize) -> Vec<u8> {
    let cbnf = matches!(&net.model, Model::Layered(a, _) if a.file == crate::FileLayout::Cbnf);
    assert!(cbnf, "a CBNF net");
    net.to_zstd(frames).expect("at least one frame")
}

/// A Viridithas net's file as Viridithas ships and embeds it: its bytes as one zstd frame.
///
/// # Panics
/// When `net` is not in Viridithas's layout.
pub fn viridithas_zstd(net: &Net) -> Vec<u8> {
    let viridithas = matches!(&net.model, Model::Layered(a, _) if a.file == crate::FileLayout::Viridithas);
    assert!(viridithas, "a net in Viridithas's layout");
    net.to_zstd(1).expect("one frame")
}

/// The description of [`zstd_bomb`]'s file: a `CBNF` net whose arrays (L1 16384, 64 king
/// buckets) take 1,612,778,016 bytes, more than [`crate::MAX_FILE_BYTES`].
pub fn zstd_bomb_description() -> String {
    let kings: Vec<String> = (0..64).map(|k| k.to_string()).collect();
    format!(
        "(768x64 -> 16384)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x8, i32, dual, q=64, l1shift=8, scale=400, \
         file=cbnf, kings=[{}]",
        kings.join(",")
    )
}

/// The 49 KB `CBNF` file of [`zstd_bomb_description`] whose zstd stream decodes to the 1.6 GB
/// its arrays take: once decoded whole (2.9 GB of memory, then an abort), now refused first.
pub fn zstd_bomb() -> Vec<u8> {
    let text = zstd_bomb_description();
    let Ok(crate::Architecture::Layered(arch)) = text.parse() else { unreachable!("a multi-layer description") };
    cbnf_zstd_rle(&arch, &text, crate::layered::file::param_bytes(&arch))
}

/// A `CBNF` file of `arch` (named `description`) with the zstd flag, whose stream decodes to
/// `decoded` zero bytes in RLE blocks of 128 KiB (4 bytes each; a frame with no content size
/// and a 128 KiB window): a tiny file that decodes to as much as asked.
pub fn cbnf_zstd_rle(arch: &crate::LayeredArch, description: &str, decoded: usize) -> Vec<u8> {
    cbnf_zstd_rle_window(arch, description, decoded, 17)
}

/// [`cbnf_zstd_rle`] with a frame that declares a window of `2^window_log` bytes (10..=41; a
/// decoder keeps up to that much of what it decoded before it hands any of it out).
///
/// # Panics
/// When `window_log` is out of that range.
pub fn cbnf_zstd_rle_window(arch: &crate::LayeredArch, description: &str, decoded: usize, window_log: u8) -> Vec<u8> {
    const BLOCK: usize = 128 << 10;
    assert!((10..=41).contains(&window_log), "a zstd window of 2^10 to 2^41 bytes");
    let mut out = Vec::new();
    crate::layered::header::write(&mut out, arch, description);
    out[6] |= 1;
    // Frame header descriptor 0 (no content size, a window descriptor), then the window's
    // exponent (mantissa 0).
    out.extend([0x28, 0xb5, 0x2f, 0xfd, 0x00, (window_log - 10) << 3]);
    let mut left = decoded;
    while left > 0 {
        let size = left.min(BLOCK);
        left -= size;
        // An RLE block, the last one flagged.
        let header = (size as u32) << 3 | 1 << 1 | u32::from(left == 0);
        out.extend_from_slice(&header.to_le_bytes()[..3]);
        out.push(0);
    }
    out
}
