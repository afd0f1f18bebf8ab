//! Finding, reading and checking the net file; the cache does the rest.

use std::path::{Path, PathBuf};

use nnue_format::layers::{Layers, LayersError};
use nnue_format::neuron_order::{self, NeuronOrderError};
use nnue_format::{layout, Architecture, Evaluator, ExpectError, FileErrorKind, Net};
use syn::LitStr;

use crate::cache::{self, Entry};
use crate::input::{Expect, NetInput, Source};

/// A checked net ready to emit.
pub struct Loaded {
    /// Absolute path, for `include_bytes!` (so editing the net rebuilds the crate).
    pub file: PathBuf,
    /// The path as the user gave it, for messages and docs.
    pub shown: String,
    /// The environment variable consulted, for rebuild tracking.
    pub env_var: Option<String>,
    /// The cache key (a hash of the net's bytes and description).
    pub key: String,
    /// `nnue_format::hash::file_hash` of the file's bytes, for the module's `FILE_HASH`.
    pub file_hash: u64,
    pub entry: Entry,
    /// `compute = "…"`: the layers to compile in place of the description's, checked to fit
    /// the net's arrays.
    pub compute: Option<Layers>,
    /// `neuron_order = "…"`.
    pub neuron_order: Option<NeuronOrder>,
}

/// The file of `neuron_order = "…"` (or of `<VAR>_NEURON_ORDER` for a net from `env`), read.
pub struct NeuronOrder {
    /// Where errors point: the literal, or the `env` variable's.
    lit: LitStr,
    /// The path as the user gave it, and where it came from for messages.
    pub shown: String,
    /// Absolute, for `include_bytes!` (editing the order rebuilds the crate).
    pub file: PathBuf,
    order: Vec<usize>,
}

fn err(span: &impl syn::spanned::Spanned, msg: impl std::fmt::Display) -> syn::Error {
    syn::Error::new(span.span(), format!("nnue_net!: {msg}"))
}

pub fn load(input: &NetInput) -> syn::Result<Loaded> {
    let span = input.span();
    let manifest_dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    // With `env`, a file from the environment takes its description from `<VAR>_ARCH` and its
    // neuron order from `<VAR>_NEURON_ORDER` (if any); `arch`, `neuron_order` and `expect` are
    // the default file's, or, without a `default`, those of the file the variable names (they
    // would otherwise describe no file).
    let no_default = matches!(input.source, Source::Env { default: None, .. });
    let (shown, env_var, arch_lit, from_env) = match &input.source {
        Source::Path(p) => (p.value(), None, input.arch.clone(), false),
        Source::Env { var, default } => {
            let name = var.value();
            match (std::env::var(&name), default) {
                // Set but empty is a mistake (a script's unset variable), not "the default".
                (Ok(v), _) if v.is_empty() => {
                    let unset = if default.is_some() { "unset it to build the default net" } else { "unset it" };
                    return Err(err(
                        var,
                        format!("environment variable {name} is set but empty: name a net file, or {unset}"),
                    ));
                }
                (Err(std::env::VarError::NotUnicode(v)), _) => {
                    return Err(err(
                        var,
                        format!("environment variable {name} is not valid UTF-8 ({})", v.to_string_lossy()),
                    ))
                }
                (Ok(v), _) => {
                    let arch = std::env::var(format!("{name}_ARCH")).ok().map(|a| LitStr::new(&a, var.span()));
                    (v, Some(name), arch, true)
                }
                (Err(_), Some(d)) => (d.value(), Some(name), input.arch.clone(), false),
                (Err(_), None) => {
                    return Err(err(var, format!("environment variable {name} is not set and no `default` is given")))
                }
            }
        }
    };
    let file = resolve(&manifest_dir, &shown);
    let arch_from_var = from_env && arch_lit.is_some();
    let arch_lit = if from_env && !arch_from_var && no_default { input.arch.clone() } else { arch_lit };
    // Where the path came from, for messages: the user may not know an environment variable
    // chose it, or that its description comes from another.
    let (origin, arch_hint) = match (&env_var, from_env) {
        (Some(var), true) => {
            (
                format!(" (named by ${var})"),
                match (&arch_lit, arch_from_var) {
                    (Some(_), true) => format!(" (its description came from ${var}_ARCH)"),
                    (Some(_), false) => String::new(),
                    (None, _) if no_default => {
                        format!(" (a headerless net's description goes in `arch` or ${var}_ARCH, neither of which is given)")
                    }
                    (None, _) => format!(" (a headerless net's description goes in ${var}_ARCH, which is not set)"),
                },
            )
        }
        _ => (String::new(), String::new()),
    };
    let arch_text = arch_lit.as_ref().map(LitStr::value);
    let given: Option<Architecture> = match (&arch_lit, &arch_text) {
        (Some(lit), Some(text)) => Some(text.parse().map_err(|e| match &env_var {
            Some(var) if arch_from_var => err(lit, format!("${var}_ARCH: {e}")),
            _ => err(lit, e),
        })?),
        _ => None,
    };
    let bytes = nnue_format::read_file_bytes(&file, given.as_ref()).map_err(|e| match e.kind {
        FileErrorKind::Open(e) => syn::Error::new(
            span,
            format!(
                "nnue_net!: can't read {shown}{origin}: {e} (paths are relative to the crate's manifest directory {})",
                manifest_dir.display()
            ),
        ),
        kind => err(&span, format!("{shown}{origin}: {kind}{arch_hint}")),
    })?;
    // The order's file, spanned where errors about it point, and where its name came from.
    let literal = || input.neuron_order.clone().map(|lit| (lit, String::new()));
    let order_lit = match (&env_var, from_env, &input.source) {
        (Some(name), true, Source::Env { var, .. }) => std::env::var(format!("{name}_NEURON_ORDER"))
            .ok()
            .filter(|v| !v.is_empty())
            .map(|v| (LitStr::new(&v, var.span()), format!(" (named by ${name}_NEURON_ORDER)")))
            .or_else(|| if no_default { literal() } else { None }),
        _ => literal(),
    };
    let neuron_order = order_lit.map(|(lit, origin)| read_neuron_order(lit, &origin, &manifest_dir)).transpose()?;
    // The order is part of what is compiled: another order, another cache entry.
    let described = match &neuron_order {
        Some(o) => Some(format!("{}\nneuron_order: {:?}", arch_text.as_deref().unwrap_or(""), o.order)),
        None => arch_text.clone(),
    };
    let key = cache::key(&bytes, described.as_deref());
    let file_hash = nnue_format::hash::file_hash(&bytes);
    let net_hash = cache::net_hash(&bytes, described.as_deref());
    let root = cache::dir().map_err(|e| err(&span, e))?;
    let decode = |bytes: &[u8]| {
        Net::from_bytes(bytes, given.as_ref()).map_err(|e| err(&span, format!("{shown}{origin}: {e}{arch_hint}")))
    };
    // `expect`: the values are the default file's, not those of a net the environment names
    // (without a `default`, the named file is the only one).
    let mut decoded = None;
    if let (Some(expect), true) = (&input.expect, !from_env || no_default) {
        let net = decode(&bytes)?;
        check_expected(&net, expect, input.compute.as_ref(), &shown)?;
        decoded = Some(net);
    }
    let entry = match root.as_ref().and_then(|root| cache::lookup(&root.path, &key, &net_hash)) {
        Some(entry) => entry,
        None => {
            let mut net = match decoded.take() {
                Some(net) => net,
                None => decode(&bytes)?,
            };
            // Each copy is dropped as soon as the next exists: the file's bytes, the decoded
            // net, the fast layout (written to the cache one array at a time).
            drop(bytes);
            if let Some(o) = &neuron_order {
                net.reorder_neurons(&o.order).map_err(|e| err(&o.lit, format!("{}: {e}", o.shown)))?;
            }
            layout::check(&net).map_err(|e| err(&span, format!("{shown}{origin}: {e}")))?;
            let fast = layout::fast_layout_pruned(&net);
            let description = std::mem::take(&mut net.description);
            drop(net);
            let pending = match &root {
                Some(root) => cache::begin(root, &key, &net_hash, &cache::REAL_FS).map_err(|e| err(&span, e))?,
                None => None,
            };
            match (pending, &root) {
                (Some(pending), Some(root)) => pending
                    .finish(&description, fast, &cache::REAL_FS)
                    .map_err(|e| err(&span, format!("can't write the weight cache in {}: {e}", root.shown())))?,
                // No cache folder, or one that can't be written: the weights stay in memory.
                _ => cache::in_memory(&description, fast),
            }
        }
    };
    check_block(input, &entry.layout.arch(), &shown)?;
    if let Some(layers) = &input.layers {
        check_layers(layers, &entry.layout.arch())?;
    }
    let compute = input.compute.as_ref().map(|text| own_layers(text, &entry.layout.arch())).transpose()?;
    Ok(Loaded { file, shown, env_var, key, file_hash, entry, compute, neuron_order })
}

/// `block = PATH` is given exactly when the description names an engine-defined input block.
fn check_block(input: &NetInput, arch: &Architecture, shown: &str) -> syn::Result<()> {
    let custom = match arch {
        Architecture::Layered(a) => match a.threats {
            Some(threats) => threats.custom().map(|block| block.inputs()),
            None => None,
        },
        _ => None,
    };
    match (custom, &input.block) {
        (Some(n), None) => Err(syn::Error::new(
            input.span(),
            format!(
                "nnue_net!: {shown}: the description names an engine-defined input block of {n} features (threats=custom:{n}): \
                 give its implementation, `block = PATH` (a static implementing nnue_runtime::features::InputBlock)"
            ),
        )),
        (None, Some(path)) => Err(err(path, "`block` is for a description with an engine-defined input block (threats=custom:N)")),
        _ => Ok(()),
    }
}

/// `expect = [("FEN", value), …]`: the reference evaluator on the net as described (with the
/// `compute` layers, if given) must give each value; else the error points at the first FEN
/// that differs and names the value the description gives.
fn check_expected(net: &Net, expect: &Expect, compute: Option<&LitStr>, shown: &str) -> syn::Result<()> {
    if net.has_unbound_block() {
        return Err(err(
            &expect.key,
            "`expect` can't be checked with an engine-defined input block (threats=custom:N): its code runs in the \
             engine, not while the crate compiles (check the values in the engine's tests)",
        ));
    }
    let layers = compute.map(|text| own_layers(text, &net.arch())).transpose()?;
    let evaluator = match layers {
        Some(layers) => Evaluator::with_layers(net, layers).map_err(|e| err(&expect.key, e))?,
        None => Evaluator::new(net),
    };
    let fens: Vec<String> = expect.pairs.iter().map(|(fen, _)| fen.value()).collect();
    match evaluator.check_expected(fens.iter().map(String::as_str).zip(expect.pairs.iter().map(|p| p.1))) {
        Ok(_) => Ok(()),
        Err(e) => {
            let number = match &e {
                ExpectError::Fen { number, .. } | ExpectError::Differs { number, .. } => *number,
            };
            Err(err(&expect.pairs[number - 1].0, format!("{shown} as `{}`: {e}", net.arch())))
        }
    }
}

/// The neuron order file `lit` names (`origin`: where the name came from, for messages), read
/// as net files are (`read_order_file`: a regular file, bounded); errors at `lit`.
fn read_neuron_order(lit: LitStr, origin: &str, manifest_dir: &Path) -> syn::Result<NeuronOrder> {
    let shown = format!("{}{origin}", lit.value());
    let file = resolve(manifest_dir, &lit.value());
    let order = neuron_order::read_order_file(&file).map_err(|e| match e {
        NeuronOrderError::Open(_) => {
            let dir = manifest_dir.display();
            err(
                &lit,
                format!("the neuron order {shown}: {e} (paths are relative to the crate's manifest directory {dir})"),
            )
        }
        e => err(&lit, format!("the neuron order {shown}: {e}")),
    })?;
    Ok(NeuronOrder { lit, shown, file, order })
}

/// `layers = "…"`: the net must compute exactly the layers written there (their trace steps
/// aside); else an error at the string naming the first line that differs.
fn check_layers(text: &LitStr, arch: &Architecture) -> syn::Result<()> {
    let (value, given) = (text.value(), read_layers(text, "layers")?);
    let actual = arch.layers();
    if given.computes_as(&actual) {
        return Ok(());
    }
    let (given_text, actual_text) = (given.to_string(), actual.to_string());
    let line = given_text
        .lines()
        .zip(actual_text.lines())
        .position(|(g, a)| g != a)
        .unwrap_or_else(|| given_text.lines().count().min(actual_text.lines().count()));
    let show = |t: &str| t.lines().nth(line).map_or("(nothing)".to_string(), |l| format!("`{l}`"));
    // The line as the string numbers it (the parser skips blank lines).
    let number = text_line(&value, line + 1);
    Err(err(
        text,
        format!(
            "`layers`, line {number}: the net `{arch}` computes {}, `layers` says {}; its layers are:\n{actual_text}",
            show(&actual_text),
            show(&given_text)
        ),
    ))
}

/// `compute = "…"`: a layer sequence of one's own, read and checked against the arrays of
/// `arch`'s nets; errors at the string, naming its line.
fn own_layers(text: &LitStr, arch: &Architecture) -> syn::Result<Layers> {
    let layers = read_layers(text, "compute")?;
    layers.check_fits(arch).map_err(|e| {
        // `check_fits` counts stages, the parser skips blank lines: the line as written.
        let line = text_line(&text.value(), e.line);
        let own = arch.layers();
        err(text, format!("`compute`, line {line}: {} (the net `{arch}` computes:\n{own})", e.message))
    })?;
    Ok(layers)
}

/// The layer sequence of `key = "…"`, or an error at the string naming the line that isn't one.
fn read_layers(text: &LitStr, key: &str) -> syn::Result<Layers> {
    text.value().parse().map_err(|e: LayersError| err(text, format!("`{key}`, line {}: {}", e.line, e.message)))
}

/// The line number, in `text`, of its `stage`-th non-blank line.
fn text_line(text: &str, stage: usize) -> usize {
    let written: Vec<usize> =
        text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()).map(|(i, _)| i + 1).collect();
    written.get(stage.saturating_sub(1)).copied().unwrap_or_else(|| written.last().map_or(1, |n| n + 1))
}

/// Relative paths are taken from the manifest directory, then from the working directory.
fn resolve(manifest_dir: &Path, path: &str) -> PathBuf {
    let p = Path::new(path);
    if p.is_absolute() {
        return p.to_path_buf();
    }
    let from_manifest = manifest_dir.join(p);
    if from_manifest.exists() {
        return from_manifest;
    }
    std::env::current_dir().map(|d| d.join(p)).ok().filter(|p| p.exists()).unwrap_or(from_manifest)
}

#[cfg(test)]
mod tests {
    /// A 49 KB CBNF file whose zstd stream decodes to the 1.6 GB its description (L1 16384, 64
    /// king buckets) implies once made the build allocate gigabytes and abort: an error now.
    #[test]
    fn a_zstd_bomb_is_a_compile_error_not_an_abort() {
        let (text, bytes) = (nnue_format::synth::zstd_bomb_description(), nnue_format::synth::zstd_bomb());
        let dir = std::env::temp_dir().join(format!("nnue-macros-zstd-bomb-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("bomb.nnue");
        std::fs::write(&path, &bytes).unwrap();
        let input: crate::input::NetInput =
            syn::parse_str(&format!("path = {:?}, arch = {:?}", path.to_str().unwrap(), text)).unwrap();
        let result = super::load(&input);
        std::fs::remove_dir_all(&dir).unwrap();
        let Err(e) = result else { panic!("a zstd bomb was accepted") };
        let msg = e.to_string();
        assert!(msg.contains("zstd-compressed arrays") && msg.contains("more than the 1073741824 bytes"), "{msg}");
    }

    /// `expect = [...]`: a net whose values match builds; the first that differs fails naming
    /// the position, the value the description gives and the description; so does a bad FEN.
    #[test]
    fn expect_fails_naming_the_first_position_that_differs() {
        use nnue_format::{synth, Encoding, Evaluator, Position};
        let net = synth::sfnn(64, 1, Encoding::Raw);
        let dir = std::env::temp_dir().join(format!("nnue-macros-expect-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("sfnn64.nnue");
        std::fs::write(&path, net.to_bytes()).unwrap();
        let fens = ["rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "4k3/8/8/8/8/8/8/4K2R b K - 0 1"];
        let eval = Evaluator::new(&net);
        let values = fens.map(|f| eval.evaluate(&Position::from_fen(f).unwrap()).total());
        let run = |expect: &str| {
            let input: crate::input::NetInput =
                syn::parse_str(&format!("path = {:?}, expect = {expect}", path.to_str().unwrap()))?;
            super::load(&input).map(|_| ())
        };
        let pairs = |second: i32| format!("[({:?}, {}), ({:?}, {second})]", fens[0], values[0], fens[1]);
        let right = run(&pairs(values[1]));
        let wrong = run(&pairs(values[1] + 1)).map_err(|e| e.to_string());
        let bad_fen = run("[(\"8/8/8 w - - 0 1\", 3)]").map_err(|e| e.to_string());
        let empty = run("[]").map_err(|e| e.to_string());
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(right.is_ok(), "{:?}", right.err().map(|e| e.to_string()));
        let msg = wrong.unwrap_err();
        let want = format!(
            "expected position 2 ({:?}): the description gives {}, expected {}",
            fens[1],
            values[1],
            values[1] + 1
        );
        assert!(msg.contains(&want) && msg.contains("HalfKAv2_hm"), "{msg}");
        assert!(bad_fen.unwrap_err().contains("expected position 1 (\"8/8/8 w - - 0 1\") is not a position"));
        assert!(empty.unwrap_err().contains("checks nothing"));
    }
}
