//! `nnue_net!`: compiles an NNUE net file into a const-dimensioned evaluator.
//!
//! Use it through `nnue_runtime::nnue_net!`; see that crate (and the README) for the forms.

mod cache;
mod emit;
mod input;
mod load;

use proc_macro::TokenStream;

/// Compiles a net file into a module holding its weights (in the kernels' layout, as static
/// data) and a `NETWORK` of const dimensions.
///
/// ```ignore
/// nnue_runtime::nnue_net!("nets/default.nnue");              // module `net`
/// nnue_runtime::nnue_net! {
///     name = big,                                            // module name
///     env = "EVALFILE", default = "nets/default.nnue",       // or: path = "..."
///     arch = "(768 -> 1024)x2 -> 1, screlu, qa=255, qb=64, scale=400", // headerless nets
/// }
/// ```
///
/// Paths are relative to the calling crate's manifest directory (`CARGO_MANIFEST_DIR`).
/// A bad or unsupported net is a compile error naming the file, the section, the offset and
/// what was expected.
#[proc_macro]
pub fn nnue_net(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as input::NetInput);
    load::load(&input).map(|net| emit::emit(&input, &net)).unwrap_or_else(syn::Error::into_compile_error).into()
}
