//! The generated module: weights as aligned statics in the kernels' layout, a `NETWORK` whose
//! type carries every dimension, and a few entry points.

use nnue_format::features::threats::ThreatSet;
use nnue_format::features::{BoardBlock, FeatureSet, PieceSet};
use nnue_format::layers::Layers;
use nnue_format::layout::{Elem, FastLayout, TransformerArrays};
use nnue_format::Architecture;
use proc_macro2::{Ident, Literal, TokenStream};
use quote::{format_ident, quote};

use crate::cache::{BlobFile, Source};
use crate::forward;
use crate::input::NetInput;
use crate::load::Loaded;

fn lit(n: usize) -> Literal {
    Literal::usize_unsuffixed(n)
}

/// `[[i8; 4]; 16]`-style nested array type, outermost dimension first.
fn array_type(elem: Elem, dims: &[usize]) -> TokenStream {
    let elem = format_ident!("{}", elem.rust_name());
    dims.iter().rev().fold(quote!(#elem), |inner, &d| {
        let d = lit(d);
        quote!([#inner; #d])
    })
}

/// The static holding the layout's array `name` (`ft_biases`: `FT_BIASES`).
fn static_ident(name: &str) -> Ident {
    format_ident!("{}", name.to_ascii_uppercase())
}

/// A `static NAME: &[..]` for one weight array.
///
/// Where the target's assembler takes `.incbin` (ELF, Mach-O and COFF on x86-64 and AArch64),
/// the bytes go straight from the cache file into the object: neither rustc's const evaluator
/// nor LLVM ever sees them, which keeps a 140 MB net to seconds of build time. Elsewhere the
/// array is `include_bytes!` cast in a constant.
fn weight_static(blob: &BlobFile, symbol_prefix: &str) -> TokenStream {
    let (path, hash) = match &blob.source {
        Source::File(path, hash) => (path.to_string_lossy().into_owned(), hash),
        Source::Bytes(bytes) => return weight_literal(blob, bytes),
    };
    let name = static_ident(blob.name);
    let raw = format_ident!("{name}_BYTES");
    let ty = array_type(blob.elem, &blob.dims);
    let bytes = blob.dims.iter().product::<usize>() * blob.elem.size();
    let symbol = format!("{symbol_prefix}_{name}");
    // `end`: the label after the bytes. On Mach-O it is assembler-local (`L…`), so that it
    // doesn't start an atom of its own: the difference then lies within one atom, a constant to
    // every assembler (LLVM 14's refuses a difference across atoms; rustc's accepts both).
    let incbin = |section: &str, prefix: &str, end: &str| {
        let escaped = path.replace('\\', "\\\\").replace('"', "\\\"");
        let shown = path.replace("*/", "* /");
        vec![
            format!(".pushsection {section}"),
            ".balign 64".to_string(),
            format!(".globl {prefix}{symbol}"),
            format!("{prefix}{symbol}:"),
            // Exactly the array's size: more is cut off, and less makes the `.skip` below
            // negative, which the assembler refuses ("invalid number of bytes").
            // The hash makes the text differ whenever the bytes do, so incremental builds
            // don't reuse an object assembled from other bytes at the same path.
            format!(".incbin \"{escaped}\", 0, {bytes} /* content hash {hash} */"),
            format!("{end}{prefix}{symbol}_end:"),
            format!(
                ".skip {end}{prefix}{symbol}_end - {prefix}{symbol} - {bytes} \
                 /* nnue_net!: the weight file {shown} must have {bytes} bytes: rebuild to rewrite it */"
            ),
            ".popsection".to_string(),
        ]
    };
    let (elf, macho, coff) =
        (incbin(".rodata.nnue,\"a\"", "", ""), incbin("__DATA,__const", "_", "L"), incbin(".rdata,\"dr\"", "", ""));
    let doc = format!(" `{name}`: {bytes} bytes, little-endian, in the kernels' layout.");
    // Comments don't survive into the expansion; the reasoning behind each `unsafe` does, here.
    let safety_incbin = " SAFETY: the symbol is exactly the array's size of the cache file's bytes (the \
                         assembler fails on a shorter file), 64-byte aligned; any bits are valid integers.";
    let safety_include = " SAFETY: a zero-copy cast of exactly the array's size in bytes (rustc checks the \
                          sizes agree); any bits are valid integers.";
    let incbin = quote!(all(
        any(target_arch = "x86_64", target_arch = "aarch64"),
        any(
            target_os = "linux",
            target_os = "android",
            target_os = "freebsd",
            target_vendor = "apple",
            target_os = "windows"
        )
    ));
    quote! {
        #[cfg(all(#incbin, any(target_os = "linux", target_os = "android", target_os = "freebsd")))]
        ::core::arch::global_asm!(#(#elf),*);
        #[cfg(all(#incbin, target_vendor = "apple"))]
        ::core::arch::global_asm!(#(#macho),*);
        #[cfg(all(#incbin, target_os = "windows"))]
        ::core::arch::global_asm!(#(#coff),*);
        #[cfg(#incbin)]
        extern "C" {
            #[link_name = #symbol]
            static #raw: #ty;
        }
        #[doc = #doc]
        #[doc = ""]
        #[doc = #safety_incbin]
        #[cfg(#incbin)]
        static #name: &#ty = unsafe { &#raw };
        #[doc = #doc]
        #[doc = ""]
        #[doc = #safety_include]
        #[cfg(not(#incbin))]
        static #name: &#ty = &rt::Aligned(unsafe { ::core::mem::transmute(*include_bytes!(#path)) }).0;
    }
}

/// The array as a byte-string literal, when there is no cache folder to hold its file.
fn weight_literal(blob: &BlobFile, bytes: &[u8]) -> TokenStream {
    let name = static_ident(blob.name);
    let ty = array_type(blob.elem, &blob.dims);
    let doc = format!(" `{name}`: {} bytes, little-endian, in the kernels' layout.", bytes.len());
    let safety = " SAFETY: a zero-copy cast of exactly the array's size in bytes (rustc checks the sizes \
                  agree); any bits are valid integers.";
    let literal = Literal::byte_string(bytes);
    quote! {
        #[doc = #doc]
        #[doc = ""]
        #[doc = #safety]
        static #name: &#ty = &rt::Aligned(unsafe { ::core::mem::transmute(*#literal) }).0;
    }
}

/// The network's transformer type, its accumulator and its value: `rt::nets::Transformer` with
/// the layout's transformer arrays ([`FastLayout::transformer`]), each field the static of the
/// array's name, and the module's `Features`.
fn network(layout: &FastLayout<BlobFile>, width: usize) -> (TokenStream, TokenStream, TokenStream) {
    let TransformerArrays { biases, int8_rows, int16_rows, psqt } = layout.transformer();
    let name = |b: &BlobFile| static_ident(b.name);
    let l1 = lit(width);
    let psqt_buckets = lit(psqt.map_or(0, |b| b.dims[1]));
    let (int8, int16) = (lit(int8_rows.map_or(0, |b| b.dims[0])), lit(int16_rows.dims[0]));
    let (biases, int16_rows) = (name(biases), name(int16_rows));
    // A net without int8 rows or PSQT outputs: empty arrays of the field's type.
    let or_empty = |b: Option<&BlobFile>| {
        b.map_or(quote!(&[]), |b| {
            let b = name(b);
            quote!(#b)
        })
    };
    let (int8_rows, psqt) = (or_empty(int8_rows), or_empty(psqt));
    (
        quote!(rt::nets::Transformer<'static, #l1, #psqt_buckets, #int8, #int16, Features>),
        quote!(rt::Accumulator<#l1, #psqt_buckets>),
        quote! {
            rt::nets::Transformer {
                biases: #biases,
                int8_rows: #int8_rows,
                int16_rows: #int16_rows,
                psqt: #psqt,
                features: Features,
            }
        },
    )
}

/// `rt::features::FeatureSet::new(..)`: the value [`FeatureSet::for_arch`] gives for `arch`
/// (the function the run-time paths use), as a constant expression; an engine-defined block
/// is `block`'s (`block = PATH`, checked to be given).
fn feature_set(arch: &Architecture, engine_block: Option<&syn::Path>) -> TokenStream {
    let set = FeatureSet::for_arch(arch);
    let blocks = set.blocks().iter().map(|block| match block {
        BoardBlock::Threats(threats) => {
            let threats = match threats {
                ThreatSet::Sf18 => quote!(Sf18),
                ThreatSet::Sf19 => quote!(Sf19),
                ThreatSet::Reckless => quote!(Reckless),
            };
            quote!(rt::features::BoardBlock::Threats(rt::features::threats::ThreatSet::#threats))
        }
        BoardBlock::PawnPairs => quote!(rt::features::BoardBlock::PawnPairs),
        BoardBlock::Custom(custom) => {
            let inputs = Literal::usize_unsuffixed(custom.inputs());
            quote!(rt::features::BoardBlock::Custom(rt::features::CustomBlock::described(#inputs, &#engine_block)))
        }
    });
    let pieces = match set.piece_set() {
        PieceSet::HalfKav2Hm => quote!(HalfKav2Hm),
        PieceSet::HalfKp => quote!(HalfKp),
        PieceSet::Psq768Hm => quote!(Psq768Hm),
        PieceSet::Chess768(kings) => {
            let kings = king_buckets(kings);
            quote!(Chess768(#kings))
        }
        PieceSet::Chess704(kings) => {
            let kings = king_buckets(kings);
            quote!(Chess704(#kings))
        }
    };
    quote!(rt::features::FeatureSet::new(&[#(#blocks),*], rt::features::PieceSet::#pieces))
}

/// `rt::features::KingBuckets { .. }`.
fn king_buckets(kings: &nnue_format::KingBuckets) -> TokenStream {
    let (mirrored, count) = (kings.mirrored, Literal::u8_unsuffixed(kings.count));
    let table = if kings.table.iter().all(|&b| b == 0) {
        quote!([0; 64])
    } else {
        let entries = kings.table.iter().map(|&b| Literal::u8_unsuffixed(b));
        quote!([#(#entries),*])
    };
    quote!(rt::features::KingBuckets { mirrored: #mirrored, count: #count, table: #table })
}

pub fn emit(input: &NetInput, loaded: &Loaded) -> TokenStream {
    let module = &input.name;
    let layout = &loaded.entry.layout;
    let width = accumulator_width(layout);
    let (network_ty, accumulator_ty, value) = network(layout, width);
    let features = feature_set(&layout.arch(), input.block.as_ref());
    // `compute = "…"`: a sequence of one's own, checked to fit the arrays while loading.
    let own = loaded.compute.is_some();
    let layers = loaded.compute.clone().unwrap_or_else(|| layout.arch().layers());
    let layers_text = layers.to_string();
    let layers = match composed(layout, &accumulator_ty, layers, own) {
        Ok(layers) => layers,
        // A sequence of one's own can fit the arrays and still need a kernel no path has.
        Err(e) if own => {
            let span = input.compute.as_ref().map_or_else(proc_macro2::Span::call_site, |c| c.span());
            let e = format!("nnue_net!: `compute`: no kernel computes it: {e}");
            failed(syn::Error::new(span, e).into_compile_error(), &accumulator_ty)
        }
        Err(e) => {
            let e = format!("nnue_net!: internal error, no forward pass for this net's layers: {e}");
            failed(quote!(compile_error!(#e);), &accumulator_ty)
        }
    };
    let network_ty = quote!(rt::nets::Composed<#network_ty, Layers>);
    let value = quote!(rt::nets::Composed { net: #value, layers: Layers });
    let prefix = symbol_prefix(&loaded.key);
    let statics = layout.arrays().into_iter().map(|(_, b)| weight_static(b, &prefix));
    let net_file = loaded.file.to_string_lossy().into_owned();
    let arch = layout.arch().to_string();
    let l1 = lit(width);
    let mut doc = format!(" The NNUE net `{}`: `{arch}`.", loaded.shown);
    if let FastLayout::Chess768(_, l) = layout {
        if l.config.screlu && l.config.screlu_in_i16 {
            doc += "\n\n Compiled for its weights: every output weight times QA fits int16, so SCReLU's \
                    `v · (v · w)` runs in SIMD with `v · w` in int16 (without that, in the exact portable form).";
        }
    }
    if width < layout.arch().l1() {
        doc += &format!(
            "\n\n Compiled for its weights: {} of its {} accumulator columns are left out, because no \
             position can make them positive (the bias plus the column's 32 largest weights is at \
             most 0, and the sum can't wrap), so their activation is always 0 and the evaluation is \
             the same integers: the accumulators are {width} wide.",
            layout.arch().l1() - width,
            layout.arch().l1()
        );
    }
    if let Some(order) = &loaded.neuron_order {
        doc += &format!(
            "\n\n Compiled for its weights: its pairwise transform's neurons in the order of `{}` (each \
             neuron's two accumulator columns and the sparse layer's two inputs that read it moved \
             together), so that neurons that fire together share the sparse layer's 4-byte chunks \
             and fewer chunks are non-zero; the evaluation is the same integers, the transform's \
             output in that order.",
            order.shown
        );
    }
    if !loaded.entry.description.is_empty() {
        doc += &format!("\n\n Its description: {}", loaded.entry.description);
    }
    let file_hash = proc_macro2::Literal::u64_suffixed(loaded.file_hash);
    let order_file = loaded.neuron_order.as_ref().map(|o| o.file.to_string_lossy().into_owned());
    let order_const = match &order_file {
        Some(f) => quote!(Some(#f)),
        None => quote!(None),
    };
    let order_tracking = order_file.map(|f| {
        quote!(
            const _: &[u8] = include_bytes!(#f);
        )
    });
    let env_tracking = loaded.env_var.as_ref().map(|var| {
        let (arch_var, order_var) = (format!("{var}_ARCH"), format!("{var}_NEURON_ORDER"));
        quote! {
            // Makes rustc rebuild the crate when the variables change.
            const _: Option<&str> = option_env!(#var);
            const _: Option<&str> = option_env!(#arch_var);
            const _: Option<&str> = option_env!(#order_var);
        }
    });
    quote! {
        #[doc = #doc]
        pub mod #module {
            use ::nnue_runtime as rt;

            #[cfg(target_endian = "big")]
            compile_error!("nnue_net! stores its weights little-endian: big-endian targets are not supported");

            #env_tracking

            /// The architecture, in the form `nnue_runtime::Architecture` parses.
            pub const ARCHITECTURE: &str = #arch;
            /// The net file compiled in, as the macro resolved it (after `env`/`default`, made
            /// absolute): to read the same net at run time, e.g. for the generic evaluator.
            pub const PATH: &str = #net_file;
            /// `nnue_runtime::format::hash::file_hash` of the file at [`PATH`] as it was compiled
            /// in: compare before reading that file at run time. Cargo rebuilds when the file
            /// gets a newer modification time only, so a net copied over it with an older one
            /// (`cp -p`, `tar x`, `rsync -a`) leaves this binary with the old net.
            pub const FILE_HASH: u64 = #file_hash;
            /// The file of `neuron_order = "…"`, made absolute, if given: the order of the
            /// transform's neurons compiled in (`nnue_runtime::format::neuron_order::read_order_file`
            /// reads it, `Net::reorder_neurons` applies it to the net read from [`PATH`]).
            pub const NEURON_ORDER: Option<&str> = #order_const;
            /// Accumulator width per perspective (the columns compiled in; see the module's docs).
            pub const L1: usize = #l1;
            /// What the net computes after its accumulators, in the text form
            /// `nnue_runtime::format::Layers` reads (for the reference evaluator:
            /// `Evaluator::with_layers`).
            pub const LAYERS: &str = #layers_text;

            /// The network type: every dimension of this net is a parameter of it.
            pub type Network = #network_ty;
            /// An accumulator of exactly this net's width (both perspectives).
            pub type Accumulator = #accumulator_ty;

            /// The network, with its weights baked into the binary.
            pub static NETWORK: Network = #value;

            /// The features this net reads, as a constant of its type (so that compiled code
            /// folds every `match` on them).
            #[derive(Debug, Clone, Copy)]
            pub struct Features;

            impl rt::nets::Features for Features {
                #[inline(always)]
                fn set(&self) -> rt::features::FeatureSet {
                    // Evaluated by the compiler: a call of the const fn here would run at
                    // every use (it isn't inlined), and no `match` on the set would fold.
                    const SET: rt::features::FeatureSet = #features;
                    SET
                }
            }

            #layers

            /// Evaluates `pos` from scratch on the fastest path this CPU has.
            pub fn evaluate(pos: &rt::Position) -> rt::Evaluation {
                rt::Network::evaluate(&NETWORK, pos)
            }

            #(#statics)*

            /// Reads the net file so that rustc lists it as an input: editing the net
            /// rebuilds the crate. (Nothing of it is used; the weights come from the cache.)
            mod rebuild_when_the_net_changes {
                const _: &[u8] = include_bytes!(#net_file);
                #order_tracking
            }
        }
    }
}

/// The accumulator columns the layout holds: the architecture's, or fewer for a single-layer
/// net whose dead columns were dropped.
fn accumulator_width(layout: &FastLayout<BlobFile>) -> usize {
    match layout {
        FastLayout::Chess768(_, l) => l.l0_biases.dims[0],
        _ => layout.arch().l1(),
    }
}

/// The `Layers` of a net: its forward pass composed from `layers`, its description's or (`own`)
/// a sequence of one's own given with `compute = "…"`.
fn composed(
    layout: &FastLayout<BlobFile>,
    accumulator: &TokenStream,
    layers: Layers,
    own: bool,
) -> Result<TokenStream, String> {
    let input_order = |param| layout.input_order(param);
    let screlu_in_i16 = layout.screlu_in_i16();
    let whose =
        if own { "as `compute` gives them, in place of the description's" } else { "as the description has them" };
    let heading = format!(" The layers after the accumulators, {whose}:");
    let described: Vec<String> = layers.to_string().lines().map(|l| format!(" {l}")).collect();
    // Proven from the layers, here: the relaxed-SIMD path runs its own kernels for this net
    // only if every value its int8 layers read is at most 127.
    let fit_7_bits = layers.int8_inputs_fit_7_bits();
    let dims = layout.arrays().into_iter().map(|(name, blob)| (name, blob.dims.as_slice())).collect();
    let (accumulator, l1) = (accumulator.clone(), accumulator_width(layout));
    let net = forward::Net { layers, dims, order: &input_order, screlu_in_i16, accumulator, l1 };
    forward::emit(&net).map(|forward| {
        quote! {
            #[doc = #heading]
            ///
            /// ```text
            #(#[doc = #described])*
            /// ```
            #[derive(Debug, Clone, Copy)]
            pub struct Layers;

            impl rt::__private::Forward<Accumulator> for Layers {
                #forward

                fn int8_inputs_fit_7_bits(&self) -> bool {
                    #fit_7_bits
                }
            }
        }
    })
}

/// The error, and a `Layers` that only keeps the rest of the module compiling (no other
/// error follows the one that names the problem).
fn failed(error: TokenStream, accumulator: &TokenStream) -> TokenStream {
    quote! {
        #error
        #[derive(Debug, Clone, Copy)]
        pub struct Layers;
        impl rt::__private::Forward<#accumulator> for Layers {
            fn forward<K: rt::__private::Kernels>(
                &self,
                _: rt::__private::On<K>,
                _: &#accumulator,
                _: rt::Color,
                _: usize,
                _: Option<&mut rt::Trace>,
            ) -> rt::Evaluation {
                unreachable!("the build failed")
            }
        }
    }
}

/// Symbols must be unique in the final link: the crate, a hash of this compilation (a
/// package's lib and bin have the same crate name), the net's cache key and a count of the
/// expansions in this compilation (the same net may be compiled in twice).
fn symbol_prefix(key: &str) -> String {
    static EXPANSIONS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = EXPANSIONS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let krate: String = std::env::var("CARGO_CRATE_NAME")
        .unwrap_or_default()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    format!("nnue_{krate}_{}_{}_{n}", compilation_id(std::env::args()), &key[..16])
}

/// Tells crates compiled with the same name apart (a package's lib and bin, its tests): a hash
/// of rustc's command line, which names the source file, the crate type and cargo's
/// `-C metadata=…` hash of the unit, and of the variables cargo sets per target.
pub(crate) fn compilation_id(args: impl IntoIterator<Item = String>) -> String {
    let mut h = crate::cache::ContentHasher::default();
    for a in args {
        h.update(a.as_bytes());
        h.update(&[0]);
    }
    for var in ["CARGO_CRATE_NAME", "CARGO_BIN_NAME", "CARGO_MANIFEST_DIR", "CARGO_PKG_NAME"] {
        h.update(std::env::var(var).unwrap_or_default().as_bytes());
        h.update(&[0]);
    }
    h.finish()[..16].to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A short cache file once linked (the missing bytes read past the array): the `.incbin`
    /// takes exactly the array's size, and a `.skip` of (bytes included - size) is negative,
    /// an assembler error, when the file is shorter.
    #[test]
    fn incbin_pins_the_length() {
        let source = Source::File("/cache/k/FT_BIASES.bin".into(), "0123abcd".into());
        let blob = BlobFile { name: "ft_biases", elem: Elem::I16, dims: vec![4], source };
        let text = weight_static(&blob, "nnue_x").to_string();
        assert!(text.contains(r#".incbin \"/cache/k/FT_BIASES.bin\", 0, 8 /* content hash 0123abcd */"#), "{text}");
        assert!(text.contains(".skip nnue_x_FT_BIASES_end - nnue_x_FT_BIASES - 8 "), "{text}");
        assert!(text.contains(".skip L_nnue_x_FT_BIASES_end - _nnue_x_FT_BIASES - 8 "), "{text}");
    }

    /// The string literals of the expansion's `n`th `global_asm!` (ELF, Mach-O, COFF), one line each.
    fn nth_asm(text: &str, n: usize) -> String {
        let args = text.split("global_asm !").nth(n + 1).expect("a global_asm! per object format");
        let args = &args[..args.find(';').expect("end of global_asm")];
        // Unescape the literals' `\"` and `\\`; a line ends where its literal does.
        let (mut asm, mut inside, mut chars) = (String::new(), false, args.chars());
        while let Some(c) = chars.next() {
            match (c, inside) {
                ('"', _) => {
                    if inside {
                        asm.push('\n');
                    }
                    inside = !inside;
                }
                ('\\', true) => asm.extend(chars.next()),
                (c, true) => asm.push(c),
                _ => {}
            }
        }
        asm
    }

    /// The ELF and Mach-O forms assemble, and refuse a file shorter than the array, with LLVM's
    /// assembler (`llvm-mc`, where installed): no Apple target can be built here, so this is
    /// the check of the Mach-O form. (Debian 12's llvm-mc 14 has no `.pushsection` for COFF,
    /// which rustc's LLVM has: the COFF form is not checked here.)
    #[test]
    fn incbin_assembles_for_each_object_format() {
        let dir = std::env::temp_dir().join(format!("nnue-incbin-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("w.bin");
        let source = Source::File(file.clone(), "0123abcd".into());
        let blob = BlobFile { name: "ft_biases", elem: Elem::I16, dims: vec![64], source };
        let text = weight_static(&blob, "nnue_x").to_string();
        let forms = [
            ("aarch64-linux-gnu", 0),
            ("x86_64-linux-gnu", 0),
            ("arm64-apple-macos11", 1),
            ("x86_64-apple-macos11", 1),
        ];
        for (len, ok) in [(128, true), (200, true), (64, false)] {
            std::fs::write(&file, vec![7u8; len]).unwrap();
            for (triple, n) in forms {
                let asm = dir.join("t.s");
                std::fs::write(&asm, nth_asm(&text, n)).unwrap();
                let run = std::process::Command::new("llvm-mc")
                    .args(["-filetype=obj", &format!("-triple={triple}"), "-o"])
                    .arg(dir.join("t.o"))
                    .arg(&asm)
                    .output();
                let Ok(out) = run else {
                    // As `nnue_testkit::skip` reports it (the package has no testkit): `.ci/run`
                    // counts the line.
                    use std::io::Write;
                    let _ = writeln!(std::io::stderr(), "SKIPPED incbin assembly test: llvm-mc is not installed");
                    return;
                };
                assert_eq!(
                    out.status.success(),
                    ok,
                    "{triple}, {len}-byte file:\n{}",
                    String::from_utf8_lossy(&out.stderr)
                );
            }
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_compilation_id_tells_a_lib_from_a_bin() {
        let args = |kind: &str, file: &str| {
            ["rustc", "--crate-name", "two_nets", "--crate-type", kind, file].map(String::from).to_vec()
        };
        let lib = compilation_id(args("lib", "src/lib.rs"));
        assert_eq!(lib, compilation_id(args("lib", "src/lib.rs")));
        assert_ne!(lib, compilation_id(args("bin", "src/main.rs")));
    }
}
