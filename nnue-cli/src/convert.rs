//! `nnue convert`: the same net in another file layout the writer knows. The parameters are
//! the same; what changes is how the file stores them. The result is read back and compared
//! before it is written.

use std::path::Path;

use nnue_runtime::format::formats::{Chess768File, End, OutputStore, Zstd, CHESS768_FORMATS, FORMATS};
use nnue_runtime::format::{Architecture, Encoding, FileLayout, Model, Net, OutputOrder, Padding};

use crate::{load, Failure, Outcome};

/// The changes `--to` asks for.
#[derive(Debug, Default)]
struct Changes {
    order: Option<OutputOrder>,
    padding: Option<Padding>,
    zstd: Option<bool>,
    encoding: Option<Encoding>,
    /// A file layout's name: a multi-layer one or a single-layer one, by the net's kind.
    file: Option<String>,
}

fn parse(to: &str) -> Result<Changes, Failure> {
    let mut c = Changes::default();
    let bad = |item: &str, expected: &str| Failure(format!("--to: `{item}`: expected {expected}"));
    // `out=[2N][B]` holds no comma, so the list splits on commas.
    for item in to.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let (key, value) = item.split_once('=').ok_or_else(|| bad(item, "key=value"))?;
        let value = value.trim().to_ascii_lowercase();
        match key.trim() {
            "out" => {
                c.order = Some(match value.as_str() {
                    "[2n][b]" => OutputOrder::NeuronMajor,
                    "[b][2n]" => OutputOrder::BucketMajor,
                    _ => return Err(bad(item, "out=[2N][B] or out=[B][2N]")),
                })
            }
            "pad" | "padding" => {
                c.padding = Some(match value.as_str() {
                    "none" => Padding::None,
                    "zeros" => Padding::Zeros,
                    "bullet" => Padding::Bullet,
                    _ => return Err(bad(item, "pad=none, pad=zeros or pad=bullet")),
                })
            }
            "zstd" => {
                c.zstd = Some(match value.as_str() {
                    "on" | "yes" | "true" => true,
                    "off" | "no" | "false" => false,
                    _ => return Err(bad(item, "zstd=on or zstd=off")),
                })
            }
            "encoding" => {
                c.encoding = Some(match value.as_str() {
                    "raw" => Encoding::Raw,
                    "leb128" => Encoding::Leb128,
                    _ => return Err(bad(item, "encoding=raw or encoding=leb128")),
                })
            }
            "file" => {
                if FileLayout::named(&value).is_none() && Chess768File::by_name(&value).is_none() {
                    return Err(bad(item, &format!("file= one of {}", file_names(true, true))));
                }
                c.file = Some(value);
            }
            _ => return Err(bad(item, "out=, pad=, zstd=, encoding= or file=")),
        }
    }
    Ok(c)
}

/// The `file=` names of the multi-layer and/or the single-layer records, each once.
fn file_names(multi: bool, single: bool) -> String {
    let multi = FORMATS.iter().map(|f| f.name).filter(|_| multi);
    let single = CHESS768_FORMATS.iter().map(|f| f.name).filter(|_| single);
    let mut names: Vec<&str> = Vec::new();
    for name in multi.chain(single) {
        if !names.contains(&name) {
            names.push(name);
        }
    }
    names.join(", ")
}

/// The paddings a multi-layer layout can have.
fn paddings(file: FileLayout) -> &'static [Padding] {
    file.format().paddings()
}

/// The net with the changes applied, or why they don't apply to it.
fn apply(net: &Net, c: &Changes) -> Result<Net, Failure> {
    let mut net = net.clone();
    let family = net.arch().family();
    let no = |what: &str| Failure(format!("{what} doesn't apply to a {family} net"));
    match &mut net.model {
        Model::Chess768(a, p) => {
            if let Some(order) = c.order {
                a.output_order = order;
            }
            if let Some(padding) = c.padding {
                p.padding = padding;
            }
            if c.zstd.is_some() || c.encoding.is_some() {
                return Err(no("zstd= or encoding="));
            }
            if let Some(name) = &c.file {
                a.file = Chess768File::by_name(name).ok_or_else(|| {
                    Failure(format!("file={name} isn't a single-layer file: file= one of {}", file_names(false, true)))
                })?;
                // A record that stores the output per bucket has one order (out= asking for the
                // other is refused); one with no room after the last array takes no padding.
                if a.file.format().output != OutputStore::Arrays {
                    if c.order == Some(OutputOrder::NeuronMajor) {
                        return Err(Failure(format!(
                            "out=[2N][B] doesn't apply to file={name}: its output layer is stored bucket by bucket"
                        )));
                    }
                    a.output_order = OutputOrder::BucketMajor;
                }
            }
            if a.file.format().end == End::Exact && p.padding != Padding::None {
                if c.padding.is_some() {
                    let name = a.file.format().name;
                    return Err(Failure(format!("pad= doesn't apply to file={name}: its files end at the last array")));
                }
                p.padding = Padding::None;
            }
            Architecture::Chess768(*a).validate().map_err(|e| Failure(format!("the new layout: {e}")))?;
        }
        Model::Layered(a, p) => {
            if c.order.is_some() || c.encoding.is_some() {
                return Err(no("out= or encoding="));
            }
            if let Some(name) = &c.file {
                let file = FileLayout::named(name).ok_or_else(|| {
                    Failure(format!("file={name} isn't a multi-layer file: file= one of {}", file_names(true, false)))
                })?;
                a.file = file;
                if !paddings(file).contains(&p.padding) {
                    p.padding = Padding::None;
                }
                if file != FileLayout::Cbnf {
                    net.description.clear();
                }
            }
            if let Some(padding) = c.padding {
                if !paddings(a.file).contains(&padding) {
                    return Err(Failure(format!("pad={padding:?} isn't a padding of the {:?} layout", a.file)));
                }
                p.padding = padding;
            }
            if c.zstd.is_some() && a.file.format().zstd == Zstd::No {
                let shipped: Vec<&str> = FORMATS.iter().filter(|f| f.zstd != Zstd::No).map(|f| f.name).collect();
                return Err(Failure(format!(
                    "zstd= applies to the layouts shipped compressed only: file={}",
                    shipped.join(", file=")
                )));
            }
            Architecture::Layered(*a).validate().map_err(|e| Failure(format!("the new layout: {e}")))?;
        }
        model => {
            if c.order.is_some() || c.padding.is_some() || c.zstd.is_some() || c.file.is_some() {
                return Err(no("out=, pad=, zstd= or file="));
            }
            if let Some(e) = c.encoding {
                match model {
                    Model::Sfnn(_, p) => p.ft.encoding = [e; 3],
                    Model::Threats(_, p) => p.ft.encoding = [e; 3],
                    Model::Sf19(_, p) => {
                        p.ft.encoding = [e; 3];
                        p.int8_psqt_encoding = [e; 2];
                    }
                    Model::HalfKp(_, p) => p.ft.encoding = [e; 3],
                    _ => {}
                }
            }
        }
    }
    Ok(net)
}

/// Converts `file` as `to` says into `out`.
pub fn run(file: &str, arch: Option<&str>, to: &str, out: &str, force: bool) -> Outcome {
    let changes = parse(to)?;
    let net = load::net(file, arch)?;
    let input = load::bytes(file, Some(&net.arch()))?;
    let was_zstd = match net.arch() {
        Architecture::Layered(a) => a.is_zstd(&input),
        _ => false,
    };
    let converted = apply(&net, &changes)?;
    let zstd = changes.zstd.unwrap_or(was_zstd && changes.file.is_none());
    let bytes = if zstd {
        converted
            .to_zstd(1)
            .ok_or_else(|| Failure("--zstd writes Stormphrax's, Viridithas's and cinder's layouts only".into()))?
    } else {
        converted.to_bytes()
    };
    // Read back: the same parameters, whatever the layout.
    let arch = converted.arch();
    let back = Net::from_bytes(&bytes, Some(&arch))
        .map_err(|e| Failure(format!("the converted net doesn't read back ({e}): not written")))?;
    let unpadded = |m: &Model| {
        let mut m = m.clone();
        match &mut m {
            Model::Chess768(_, p) => p.padding = Padding::None,
            Model::Layered(_, p) => p.padding = Padding::None,
            _ => {}
        }
        m
    };
    let same = unpadded(&back.model) == unpadded(&converted.model);
    if !same {
        return Err(Failure("the converted net reads back with other parameters: not written".into()));
    }
    if Path::new(out).exists() {
        if !force {
            return Err(Failure(format!("{out} exists: give --force to replace it")));
        }
        let same_file = std::fs::canonicalize(out).ok() == std::fs::canonicalize(file).ok();
        if same_file {
            return Err(Failure(format!("{out} is the input file")));
        }
    }
    std::fs::write(out, &bytes).map_err(|e| Failure(format!("{out}: {e}")))?;
    say!("wrote {out}: {} bytes ({} before)", crate::inspect::group(bytes.len()), crate::inspect::group(input.len()));
    match arch {
        Architecture::Chess768(_) | Architecture::Layered(_) => say!("read it with --arch \"{arch}\""),
        _ => say!("its header describes it"),
    }
    Ok(())
}
