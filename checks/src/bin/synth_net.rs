//! Writes one of the synthetic engine-layout nets of `nnue_testkit::engine_nets` to a file, to
//! feed the engine that made its oracle:
//!
//! ```text
//! cargo run --release -p nnue-checks --bin synth-net -- alexandria /tmp/alexandria.nn
//! cargo run --release -p nnue-checks --bin synth-net -- stormphrax /tmp/sp.nnue padded
//! cargo run --release -p nnue-checks --bin synth-net -- stormphrax /tmp/sp.nnue zstd
//! ```
//!
//! A Stormphrax net can also be written with the last array's padding (`padded`, as its own
//! writer does) or zstd-compressed (`zstd`, as it ships its nets; `zstd3`: in three frames);
//! a Viridithas or cinder net zstd-compressed (`zstd`: one frame, as they ship and embed
//! their nets).

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (name, out, form) = match &args[..] {
        [name, out] => (name, out, ""),
        [name, out, form] => (name, out, form.as_str()),
        _ => {
            let names = nnue_testkit::engine_nets::ALL.map(|n| n.name);
            eprintln!("usage: synth-net <name> <out file> [padded|zstd|zstd3]; names: {names:?}");
            std::process::exit(2);
        }
    };
    let Some(net) = nnue_testkit::engine_nets::EngineNet::by_name(name) else {
        eprintln!("unknown net {name}; names: {:?}", nnue_testkit::engine_nets::ALL.map(|n| n.name));
        std::process::exit(2);
    };
    let mut net_value = net.net();
    let file = match &net_value.model {
        nnue_runtime::format::Model::Layered(a, _) => Some(a.file),
        _ => None,
    };
    let is_cbnf = file == Some(nnue_runtime::format::FileLayout::Cbnf);
    let whole_zstd = [nnue_runtime::format::FileLayout::Viridithas, nnue_runtime::format::FileLayout::Cinder];
    if file.is_some_and(|f| whole_zstd.contains(&f)) && matches!(form, "" | "zstd") {
        let bytes = if form.is_empty() { net_value.to_bytes() } else { net_value.to_zstd(1).expect("one frame") };
        if let Err(e) = std::fs::write(out, &bytes) {
            eprintln!("writing {out}: {e}");
            std::process::exit(1);
        }
        println!("{out}: {} bytes, {}", bytes.len(), net.arch);
        return;
    }
    if !form.is_empty() && !is_cbnf {
        eprintln!("{name}: `{form}` is a form of Stormphrax's CBNF files only");
        std::process::exit(2);
    }
    let bytes = match form {
        "" => net_value.to_bytes(),
        "padded" => {
            if let nnue_runtime::format::Model::Layered(_, p) = &mut net_value.model {
                p.padding = nnue_runtime::format::Padding::Zeros;
            }
            net_value.to_bytes()
        }
        "zstd" => nnue_runtime::format::synth::cbnf_zstd(&net_value, 1),
        "zstd3" => nnue_runtime::format::synth::cbnf_zstd(&net_value, 3),
        _ => {
            eprintln!("unknown form {form}: padded, zstd or zstd3");
            std::process::exit(2);
        }
    };
    if let Err(e) = std::fs::write(out, &bytes) {
        eprintln!("writing {out}: {e}");
        std::process::exit(1);
    }
    println!("{out}: {} bytes, {}", bytes.len(), net.arch);
}
