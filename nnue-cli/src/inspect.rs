//! `nnue inspect`: what a net file is.

use nnue_runtime::format::formats::{Chess768File, OutputStore};
use nnue_runtime::format::{
    Architecture, Dense, Encoding, FeatureTransformer, Model, Net, Numbers, Padding, Sf19Inputs, VERSION_HALFKP,
    VERSION_SF19, VERSION_SFNN,
};
use nnue_runtime::{Evaluator, Position};

use crate::identify;
use crate::{load, Failure, Outcome};

/// Prints what `file` is; `stats`: the L1 sparsity over the positions of `fens` (or the
/// built-in ones).
pub fn run(file: &str, arch: Option<&str>, fens: Option<&str>, stats: bool) -> Outcome {
    let given = load::arch(arch)?;
    let bytes = load::bytes(file, given.as_ref()).or_else(|e| match given {
        // Without a description the library refuses a headerless file at once: identify it.
        None => std::fs::read(file).map_err(|_| e),
        Some(_) => Err(e),
    })?;
    say!("file: {file}");
    say!("size: {} bytes", group(bytes.len()));
    let sha = sha256_hex(&bytes);
    say!("sha256: {sha} (nn-{}.nnue in Stockfish's naming)", &sha[..12]);
    let (net, how) = match given {
        Some(a) => (Net::from_bytes(&bytes, Some(&a)).map_err(|e| Failure(format!("{file}: {e}")))?, "given"),
        None if has_stockfish_header(&bytes) => {
            (Net::from_bytes(&bytes, None).map_err(|e| Failure(format!("{file}: {e}")))?, "the header's")
        }
        None => match identified(&bytes) {
            Identified::Net(net) => (*net, "the first candidate's, which reads"),
            Identified::Shapes => {
                say!("no complete description among them: give one with --arch (a shape above, its ?s filled in)");
                return Ok(());
            }
            Identified::Nothing => {
                return Err(Failure(format!(
                    "{file}: no description given, and no known layout both fits its size and reads it: describe it with --arch"
                )))
            }
        },
    };
    describe(&bytes, &net, how);
    if stats && net.has_unbound_block() {
        say!("(no sparsity: the net's engine-defined input block is computed by the engine's code)");
    } else if stats {
        let positions = load::positions(fens)?;
        sparsity(&net, &positions);
    }
    Ok(())
}

fn has_stockfish_header(bytes: &[u8]) -> bool {
    bytes.get(..4).is_some_and(|b| nnue_runtime::format::is_known_version(u32::from_le_bytes([b[0], b[1], b[2], b[3]])))
}

/// What the candidates of a file without a description come to.
enum Identified {
    /// The net, read with the first complete candidate that reads it.
    Net(Box<Net>),
    /// Shapes that read, none with a complete description.
    Shapes,
    /// No candidate reads the file.
    Nothing,
}

/// Lists the candidates of a file without a description and reads the net with the first
/// complete one that reads, if any.
fn identified(bytes: &[u8]) -> Identified {
    let mut found = identify::candidates(bytes);
    let first = identify::verify(bytes, &mut found);
    let cbnf = bytes.starts_with(b"CBNF");
    say!(
        "format: {}; no --arch given, so {}",
        if cbnf {
            "Stormphrax's CBNF (a 64-byte header naming the shape)"
        } else {
            "headerless (no Stockfish or CBNF header)"
        },
        if cbnf { "from the header:" } else { "by size (known layouts first, exact sizes before padded ones):" }
    );
    if found.is_empty() {
        say!("  no known layout fits {} bytes", group(bytes.len()));
    }
    for (i, c) in found.iter().take(identify::MAX_LISTED).enumerate() {
        let size = match c.padded {
            _ if cbnf => "",
            true => ", padded size",
            false => ", exact size",
        };
        let reads = match &c.reads {
            Some(Ok(())) => "reads".to_string(),
            Some(Err(e)) => format!("doesn't read: {e}"),
            None => "not tried".to_string(),
        };
        say!("  {}. {}{size}: {reads}", i + 1, c.who);
        let what = if c.complete { "--arch" } else { "shape (the size doesn't tell the ?s)" };
        say!("     {what} \"{}\"", c.description);
    }
    if found.len() > identify::MAX_LISTED {
        say!("  ... and {} more of bullet's generic form", found.len() - identify::MAX_LISTED);
    }
    match first {
        Some(net) => {
            let what = if cbnf { "the header" } else { "the size" };
            say!("({what} tells the shape, not the arithmetic: check the description against values your engine computes, `nnue check`)");
            say!();
            Identified::Net(Box::new(net))
        }
        None if found.iter().any(|c| matches!(c.reads, Some(Ok(())))) => Identified::Shapes,
        None => Identified::Nothing,
    }
}

/// 1234567 as "1,234,567".
pub fn group(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn describe(bytes: &[u8], net: &Net, how: &str) {
    let arch = net.arch();
    let word = |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
    match arch {
        Architecture::Sfnn(_) | Architecture::Threats(_) | Architecture::Sf19(_) | Architecture::HalfKp(_) => {
            let version = word(0);
            let which = match version {
                VERSION_SFNN => "Stockfish 15.1 to 18, SFNN",
                VERSION_HALFKP => "Stockfish 12 and 13, HalfKP",
                VERSION_SF19 => "Stockfish 19",
                _ => "unknown",
            };
            say!("format: Stockfish NNUE, version {version:#010X} ({which})");
            let mut hashes = vec![format!("file {:#010X}", word(4))];
            if let Some([ft, network]) = arch.stockfish_hashes() {
                let stacks = if matches!(arch, Architecture::HalfKp(_)) { "network" } else { "each stack" };
                hashes.push(format!("transformer {ft:#010X}"));
                hashes.push(format!("{stacks} {network:#010X}"));
            }
            say!("hashes: {} (all as the architecture's)", hashes.join(", "));
            say!("description: {:?}", net.description);
        }
        Architecture::Layered(a) if a.file == nnue_runtime::format::FileLayout::Cbnf => {
            let zstd = bytes.get(6).is_some_and(|f| f & 1 != 0);
            say!("format: Stormphrax's CBNF{}", if zstd { ", the arrays zstd-compressed" } else { "" });
            say!("name: {:?}", net.description);
        }
        Architecture::Layered(a) => say!("format: headerless, {:?}'s file layout", a.file),
        Architecture::Chess768(a) if a.file == Chess768File::Bullet => {
            say!("format: headerless (bullet's single-layer form)")
        }
        Architecture::Chess768(a) => say!("format: the `{}` single-layer file (`file={0}`)", a.file.format().name),
    }
    say!("architecture ({how}): {arch}");
    say!("family: {}, {} inputs, L1 {} per perspective", arch.family(), group(arch.inputs()), arch.l1());
    say!("layers:");
    for line in arch.layers().to_string().lines() {
        say!("  {line}");
    }
    say!("arrays:");
    let mut total = 0;
    for (name, elem, dims, count, note) in arrays(&net.model) {
        let elem_bytes = match elem {
            "int8" => 1,
            "int16" => 2,
            _ => 4,
        };
        total += count * elem_bytes;
        let shape: Vec<String> = dims.iter().map(|d| d.to_string()).collect();
        say!(
            "  {name:<24} {elem:<6} [{}] = {} values{}",
            shape.join("]["),
            group(count),
            if note.is_empty() { String::new() } else { format!(", {note}") }
        );
    }
    say!("  {} parameter bytes in all, unpacked; {} in the file", group(total), group(bytes.len()));
}

type ArrayLine = (String, &'static str, Vec<usize>, usize, String);

fn encoding(e: Encoding) -> String {
    match e {
        Encoding::Raw => "raw".into(),
        Encoding::Leb128 => "LEB128".into(),
    }
}

fn transformer(out: &mut Vec<ArrayLine>, ft: &FeatureTransformer, rows: usize, psqt_rows: usize, psqt: usize) {
    let l1 = ft.l1();
    out.push(("transformer biases".into(), "int16", vec![l1], ft.biases.len(), encoding(ft.encoding[0])));
    out.push(("transformer weights".into(), "int16", vec![rows, l1], ft.weights.len(), encoding(ft.encoding[1])));
    if psqt > 0 {
        out.push(("PSQT weights".into(), "int32", vec![psqt_rows, psqt], ft.psqt.len(), encoding(ft.encoding[2])));
    }
}

fn dense(out: &mut Vec<ArrayLine>, name: &str, stacks: usize, d: &Dense) {
    let (count, note) = if stacks > 1 { (stacks, format!(" x{stacks}")) } else { (1, String::new()) };
    out.push((
        format!("{name} weights{note}"),
        "int8",
        vec![d.outputs, d.padded_inputs],
        d.weights.len() * count,
        format!("{} inputs, rows padded to {}", d.inputs, d.padded_inputs),
    ));
    out.push((format!("{name} biases{note}"), "int32", vec![d.outputs], d.biases.len() * count, String::new()));
}

fn padding(p: Padding) -> String {
    match p {
        Padding::None => "no padding after the arrays".into(),
        Padding::Zeros => "padded with zeros".into(),
        Padding::Bullet => "padded with `bulletbullet...`".into(),
    }
}

/// Each array: name, element, shape, values, a note.
fn arrays(model: &Model) -> Vec<ArrayLine> {
    let mut out = Vec::new();
    match model {
        Model::Sfnn(_, p) => {
            transformer(&mut out, &p.ft, p.ft.weights.len() / p.ft.l1(), p.ft.psqt.len() / 8, 8);
            let s = &p.stacks[0];
            dense(&mut out, "fc0", p.stacks.len(), &s.fc0);
            dense(&mut out, "fc1", p.stacks.len(), &s.fc1);
            dense(&mut out, "fc2", p.stacks.len(), &s.fc2);
        }
        Model::Threats(_, p) => {
            transformer(&mut out, &p.ft, p.ft.weights.len() / p.ft.l1(), p.ft.psqt.len() / 8, 8);
            let rows = p.threat_weights.len() / p.ft.l1();
            out.push(("threat weights".into(), "int8", vec![rows, p.ft.l1()], p.threat_weights.len(), "raw".into()));
            let s = &p.stacks[0];
            dense(&mut out, "fc0", p.stacks.len(), &s.fc0);
            dense(&mut out, "fc1", p.stacks.len(), &s.fc1);
            dense(&mut out, "fc2", p.stacks.len(), &s.fc2);
        }
        Model::Sf19(a, p) => {
            transformer(&mut out, &p.ft, p.ft.weights.len() / p.ft.l1(), p.ft.psqt.len() / 8, 8);
            if a.inputs == Sf19Inputs::Full {
                let rows = p.int8_weights.len() / p.ft.l1();
                let note = format!(
                    "raw; their PSQT blocks {} and {}",
                    encoding(p.int8_psqt_encoding[0]),
                    encoding(p.int8_psqt_encoding[1])
                );
                out.push(("threat+pair weights".into(), "int8", vec![rows, p.ft.l1()], p.int8_weights.len(), note));
            }
            let s = &p.stacks[0];
            dense(&mut out, "fc0", p.stacks.len(), &s.fc0);
            dense(&mut out, "fc1", p.stacks.len(), &s.fc1);
            dense(&mut out, "fc2", p.stacks.len(), &s.fc2);
        }
        Model::HalfKp(_, p) => {
            transformer(&mut out, &p.ft, p.ft.weights.len() / p.ft.l1(), 0, 0);
            dense(&mut out, "fc0", 1, &p.fc0);
            dense(&mut out, "fc1", 1, &p.fc1);
            dense(&mut out, "fc2", 1, &p.fc2);
        }
        Model::Chess768(a, p) => {
            let (n, b) = (a.hidden, a.output_buckets);
            out.push(("l0 weights".into(), "int16", vec![a.inputs(), n], p.l0w.len(), String::new()));
            out.push(("l0 biases".into(), "int16", vec![n], p.l0b.len(), String::new()));
            let order = match a.output_order {
                nnue_runtime::format::OutputOrder::NeuronMajor => vec![2 * n, b],
                _ => vec![b, 2 * n],
            };
            let structs = matches!(a.file.format().output, OutputStore::Structs { .. });
            let stored = if structs { "per bucket with its bias, in structs" } else { "as stored" };
            out.push(("l1 weights".into(), "int16", order, p.l1w.len(), stored.into()));
            let note = if structs { "int32 in the file".into() } else { padding(p.padding) };
            out.push(("l1 biases".into(), "int16", vec![b], p.l1b.len(), note));
        }
        Model::Layered(a, p) => {
            let later = match a.numbers {
                Numbers::F32 { .. } => "f32",
                Numbers::I32 { .. } => "int32",
            };
            let b = a.buckets;
            if !p.threat_weights.is_empty() {
                let rows = a.int8_inputs();
                out.push(("threat weights".into(), "int8", vec![rows, a.l1], p.threat_weights.len(), String::new()));
            }
            out.push((
                "transformer weights".into(),
                "int16",
                vec![a.int16_inputs(), a.l1],
                p.ft_weights.len(),
                String::new(),
            ));
            out.push(("transformer biases".into(), "int16", vec![a.l1], p.ft_biases.len(), String::new()));
            out.push(("l1 weights".into(), "int8", vec![b, a.l2, a.l1], p.l1_weights.len(), "canonical order".into()));
            out.push(("l1 biases".into(), later, vec![b, a.l2], p.l1_biases.len(), String::new()));
            out.push(("l2 weights".into(), later, vec![b, a.l3, a.l2_full()], p.l2_weights.len(), String::new()));
            out.push(("l2 biases".into(), later, vec![b, a.l3], p.l2_biases.len(), String::new()));
            out.push(("l3 weights".into(), later, vec![b, a.l3_inputs()], p.l3_weights.len(), String::new()));
            out.push(("l3 biases".into(), later, vec![b], p.l3_biases.len(), padding(p.padding)));
        }
    }
    out
}

/// The fraction of zero L1 activations (the transform's output, both perspectives) over
/// `positions`, and the neurons that are zero on every one.
fn sparsity(net: &Net, positions: &[Position]) {
    if positions.is_empty() {
        return;
    }
    let eval = Evaluator::new(net);
    let (mut zeros, mut total) = (0usize, 0usize);
    let mut ever: Vec<bool> = Vec::new();
    for pos in positions {
        let acc = eval.refresh(pos);
        let (_, trace) = eval.forward(&acc, pos.side_to_move(), pos.piece_count());
        // A chess-768 net's activation is the clamped accumulator (not traced): zero where the
        // sum is at most 0.
        let active: Vec<bool> = if trace.ft_out.is_empty() {
            let stm = pos.side_to_move().index();
            acc.values[stm].iter().chain(&acc.values[1 - stm]).map(|&v| v > 0).collect()
        } else {
            trace.ft_out.iter().map(|&v| v != 0).collect()
        };
        total += active.len();
        ever.resize(active.len(), false);
        zeros += active.iter().filter(|a| !**a).count();
        for (e, a) in ever.iter_mut().zip(&active) {
            *e |= a;
        }
    }
    let dead = ever.iter().filter(|e| !**e).count();
    let what = match net.arch() {
        Architecture::Chess768(_) => "clamped accumulator values",
        _ => "transform outputs (the sparse layer's input bytes)",
    };
    say!(
        "L1 sparsity: {:.1}% of the {what} are zero over {} positions; {} of {} never non-zero",
        100.0 * zeros as f64 / total.max(1) as f64,
        group(positions.len()),
        group(dead),
        group(ever.len())
    );
}

/// SHA-256 of `data`, in hex (FIPS 180-4).
pub fn sha256_hex(data: &[u8]) -> String {
    const K: [u32; 64] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
        0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
        0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
        0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
        0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
        0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
        0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
        0xc67178f2,
    ];
    let mut h: [u32; 8] =
        [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
    let mut tail = data[data.len() / 64 * 64..].to_vec();
    tail.push(0x80);
    while tail.len() % 64 != 56 {
        tail.push(0);
    }
    tail.extend_from_slice(&((data.len() as u64) * 8).to_be_bytes());
    let blocks = data[..data.len() / 64 * 64].chunks_exact(64).chain(tail.chunks_exact(64));
    for block in blocks {
        let mut w = [0u32; 64];
        for (i, word) in block.chunks_exact(4).enumerate() {
            w[i] = u32::from_be_bytes([word[0], word[1], word[2], word[3]]);
        }
        for i in 16..64 {
            let s0 = w[i - 15].rotate_right(7) ^ w[i - 15].rotate_right(18) ^ (w[i - 15] >> 3);
            let s1 = w[i - 2].rotate_right(17) ^ w[i - 2].rotate_right(19) ^ (w[i - 2] >> 10);
            w[i] = w[i - 16].wrapping_add(s0).wrapping_add(w[i - 7]).wrapping_add(s1);
        }
        let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut hh] = h;
        for i in 0..64 {
            let s1 = e.rotate_right(6) ^ e.rotate_right(11) ^ e.rotate_right(25);
            let ch = (e & f) ^ (!e & g);
            let t1 = hh.wrapping_add(s1).wrapping_add(ch).wrapping_add(K[i]).wrapping_add(w[i]);
            let s0 = a.rotate_right(2) ^ a.rotate_right(13) ^ a.rotate_right(22);
            let maj = (a & b) ^ (a & c) ^ (b & c);
            let t2 = s0.wrapping_add(maj);
            (hh, g, f, e, d, c, b, a) = (g, f, e, d.wrapping_add(t1), c, b, a, t1.wrapping_add(t2));
        }
        for (x, y) in h.iter_mut().zip([a, b, c, d, e, f, g, hh]) {
            *x = x.wrapping_add(y);
        }
    }
    h.iter().map(|x| format!("{x:08x}")).collect()
}
