//! `nnue_net!`: compiles an NNUE net file into a const-dimensioned evaluator.
//!
//! Use it through `nnue_runtime::nnue_net!`; see that crate (and the README) for the forms.

mod cache;
mod emit;
mod forward;
mod input;
mod load;

use proc_macro::TokenStream;

/// Compiles an NNUE net file into the calling crate: a module with the net's weights (laid
/// out for the SIMD kernels, as static data), a const-dimensioned `NETWORK` and `evaluate`.
///
/// Crates call it as `nnue_runtime::nnue_net!` (the code it generates uses `nnue_runtime`),
/// whose documentation has an example that runs. Its forms:
///
/// ```text
/// nnue_runtime::nnue_net!("nets/nn-37f18f62d772.nnue");  // a Stockfish net: module `net`
/// nnue_runtime::nnue_net! {
///     name = small,                                       // module name (default `net`)
///     path = "nets/default.nnue",                         // or: env = "EVALFILE", default = "…"
///     arch = "(768 -> 32)x2 -> 1, crelu, qa=255, qb=64, scale=400", // headerless nets only
///     layers = "bucket 0 \n r0 = clamp(acc, 0, 255), side to move first \n …", // optional
///     // or: compute = "…",                              // layers of one's own, see below
///     expect = [("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R1BQKBNR w KQkq - 0 1", -289)], // optional
/// }
/// ```
///
/// `expect`, if given, lists positions with the value the engine gives them
/// (`evaluate(&pos).total()`): the reference evaluator runs on the net as described while the
/// crate compiles, and the build fails at the first position that differs, naming the value the
/// description gives. A headerless file can't prove its own shape; a few known evaluations
/// catch a wrong activation, a missing `hm` or the other output order. With `env`, it checks
/// the default file only (a net from the environment has other values), or, without a
/// `default`, the file the variable names.
///
/// With `env`, a file the variable names takes its description from `<VAR>_ARCH` and its
/// neuron order from `<VAR>_NEURON_ORDER`; `arch` and `neuron_order` are the `default` file's,
/// or, without a `default`, the named file's unless those variables are set.
///
/// `layers`, if given, is the net's forward pass after the accumulators in the text that
/// `nnue_format::layers::Layers` prints (one line per stage; the README shows the forms): the
/// net must compute exactly that, or the build fails naming the first line that differs.
/// `compute`, in the same text, replaces the description's layers by one's own over the same
/// arrays (checked to fit them, `Layers::check_fits`); the module's `LAYERS` holds the text
/// compiled in, for `Evaluator::with_layers`.
///
/// A Stockfish net's header describes it; a headerless net (such as the committed
/// `nets/default.nnue`) needs its description in `arch`. Paths are relative to the calling
/// crate's manifest directory (`CARGO_MANIFEST_DIR`). A bad or unsupported net is a compile
/// error naming the file, the section, the offset and what was expected.
#[proc_macro]
pub fn nnue_net(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as input::NetInput);
    load::load(&input).map(|net| emit::emit(&input, &net)).unwrap_or_else(syn::Error::into_compile_error).into()
}
