//! Writes one of the synthetic engine-layout nets of `nnue_testkit::engine_nets` to a file, to
//! feed the engine that made its oracle:
//!
//! ```text
//! cargo run --release -p nnue-checks --bin synth-net -- alexandria /tmp/alexandria.nn
//! ```

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [name, out] = &args[..] else {
        eprintln!("usage: synth-net <name> <out file>; names: {:?}", nnue_testkit::engine_nets::ALL.map(|n| n.name));
        std::process::exit(2);
    };
    let Some(net) = nnue_testkit::engine_nets::EngineNet::by_name(name) else {
        eprintln!("unknown net {name}; names: {:?}", nnue_testkit::engine_nets::ALL.map(|n| n.name));
        std::process::exit(2);
    };
    let bytes = net.net().to_bytes();
    if let Err(e) = std::fs::write(out, &bytes) {
        eprintln!("writing {out}: {e}");
        std::process::exit(1);
    }
    println!("{out}: {} bytes, {}", bytes.len(), net.arch);
}
