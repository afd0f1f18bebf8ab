//! The generated forward pass: the net's layers as [`lower`] resolves them (one call of a
//! runtime layer kernel per layer, on this net's statics), turned into tokens.
//!
//! Registers become local variables named for what they hold (`fc0`, `fc1_in`, ...). Integer
//! steps on single values fold into one expression, with the engines' wrapping arithmetic.

use std::collections::HashMap;

use nnue_format::layers::step::{
    AffineF32, AffineI32, AffineI8, AffineI8Pairs, DequantF32, DotF32, DotI16, ShiftBias, Slice,
};
use nnue_format::layers::{Bucket, Layers, Param, Reg, Step, Transform};
use nnue_format::layout::{param_arrays, InputOrder as Order};
use nnue_format::lower::{lower, Call, Input, Kind, ListedSums, Part};
use nnue_format::BucketRule;
use proc_macro2::{Ident, Literal, TokenStream};
use quote::{format_ident, quote};

/// What the emitter needs beyond the description.
pub(crate) struct Net<'a> {
    /// The layers.
    pub layers: Layers,
    /// The dimensions of each weight array, by its layout name (`fc0_biases`).
    pub dims: HashMap<&'static str, &'a [usize]>,
    /// The order each layer's weights read their input in.
    pub order: &'a dyn Fn(Param) -> Order,
    /// A single-layer SCReLU net whose products `clamp(x, 0, qa) · w` all fit int16.
    pub screlu_in_i16: bool,
    /// The accumulator type.
    pub accumulator: TokenStream,
    /// Its width per perspective.
    pub l1: usize,
}

impl Net<'_> {
    /// The dimensions of `param`'s biases: `[bucket]` (one output each) or `[bucket][outputs]`.
    fn bias_dims(&self, param: Param) -> Option<&[usize]> {
        self.dims.get(format!("{}_biases", param_arrays(param)).as_str()).copied()
    }

    /// The outputs of `param`'s layer: the biases' last dimension (one when the biases are
    /// one per bucket).
    fn outputs(&self, param: Param) -> Option<usize> {
        let dims = self.bias_dims(param)?;
        Some(if dims.len() == 1 { 1 } else { *dims.last()? })
    }
}

/// A register's value while emitting.
#[derive(Clone)]
enum Val {
    /// Bound f32 values.
    F32 { name: Ident },
    /// One bound f32 value.
    Float { name: Ident },
    /// Bound int32 sums.
    I32 { name: Ident },
    /// One int32 value: a variable or an expression (`atomic`: usable as a method's receiver).
    Scalar { expr: TokenStream, atomic: bool },
    /// Bound bytes in an order.
    Bytes { name: Ident, order: Order },
}

struct Emitter<'a> {
    net: &'a Net<'a>,
    regs: HashMap<Reg, Val>,
    uses: HashMap<Reg, usize>,
    names: HashMap<Reg, String>,
    body: Vec<TokenStream>,
}

fn lit(n: usize) -> Literal {
    Literal::usize_unsuffixed(n)
}

/// The `forward` of the generated `Layers`, and the doc lines naming each layer.
pub(crate) fn emit(net: &Net<'_>) -> Result<TokenStream, String> {
    let layers = &net.layers;
    let lowered = lower(layers, &|p| net.outputs(p), net.order).map_err(|e| e.to_string())?;
    let mut uses = HashMap::new();
    for step in &layers.steps {
        for r in step.registers().0 {
            *uses.entry(r).or_insert(0) += 1;
        }
    }
    *uses.entry(layers.positional).or_insert(0) += 1;
    let names = names(layers);
    let mut e = Emitter { net, regs: HashMap::new(), uses, names, body: Vec::new() };

    let (bucket, pieces) = match layers.bucket {
        Bucket::Stockfish => (quote!(let bucket = l::stockfish_bucket(pieces);), quote!(pieces)),
        Bucket::Single => (quote!(let bucket = 0;), quote!(_pieces)),
        Bucket::Rule(BucketRule::Table(table), _) => {
            // The table as a constant: one load by piece count.
            let table = table.iter().map(|&b| Literal::u8_unsuffixed(b));
            let bucket = quote! {
                const BUCKETS: [u8; 33] = [#(#table),*];
                let bucket = usize::from(BUCKETS[pieces]);
            };
            (bucket, quote!(pieces))
        }
        Bucket::Rule(rule, buckets) => {
            let rule = match rule {
                BucketRule::Material => quote!(Material),
                BucketRule::Alexandria => quote!(Alexandria),
                BucketRule::Table(_) => unreachable!("matched above"),
            };
            let buckets = lit(buckets);
            (quote!(let bucket = rt::format::BucketRule::#rule.bucket(pieces, #buckets);), quote!(pieces))
        }
    };
    e.body.push(bucket);
    match (lowered.input, layers.transform) {
        (Input::Listed, Transform::Pairwise { max, shift, round }) => {
            let (max, shift) = (Literal::i16_unsuffixed(max as i16), Literal::u32_unsuffixed(shift));
            let (half, chunks) = (lit(net.l1 / 2), lit(net.l1 / 4));
            e.body.push(quote! {
                let mut scratch = l::PairwiseScratch::<#half, #chunks>::new();
                let ft = l::Pairwise::<#max, #shift, #round>::apply(k, acc, stm, &mut scratch);
            });
        }
        (Input::Clipped, _) => e.body.push(quote!(let ft = l::clipped_both(k, acc, stm);)),
        (Input::Accumulators { .. }, _) => {}
        (input, transform) => return Err(format!("{input:?} of the transform {transform:?}")),
    }
    for call in &lowered.calls {
        e.call(call)?;
    }

    let positional = e.scalar(lowered.positional)?;
    let psqt = match layers.psqt_div {
        Some(d) => {
            let d = Literal::i32_unsuffixed(d);
            quote!(l::psqt(acc, stm, bucket) / #d)
        }
        None => quote!(0),
    };
    let trace = e.trace(lowered.input, &lowered.traced)?;
    let body = &e.body;
    let acc = &net.accumulator;
    Ok(quote! {
        #[inline(always)]
        fn forward<K: rt::__private::Kernels>(
            &self,
            k: rt::__private::On<K>,
            acc: &#acc,
            stm: rt::Color,
            #pieces: usize,
            trace: Option<&mut rt::Trace>,
        ) -> rt::Evaluation {
            use rt::__private as l;
            #(#body)*
            let positional = #positional;
            #trace
            rt::Evaluation { bucket, psqt: #psqt, positional }
        }
    })
}

/// Each register's variable name: a layer's output by its weights (`fc0`), a layer's input by
/// the layer (`fc1_in`), the rest by number.
fn names(layers: &Layers) -> HashMap<Reg, String> {
    let mut names = HashMap::new();
    for step in &layers.steps {
        match step {
            Step::AffineI8(AffineI8 { param, input, out })
            | Step::AffineI8Pairs(AffineI8Pairs { param, input, out })
            | Step::AffineF32(AffineF32 { param, input, out })
            | Step::DotF32(DotF32 { param, input, out })
            | Step::AffineI32(AffineI32 { param, input, out })
            | Step::DotI16(DotI16 { param, input, out }) => {
                names.insert(*out, param.to_string());
                if *input != 0 {
                    names.insert(*input, format!("{param}_in"));
                }
            }
            Step::DequantF32(DequantF32 { param, out, .. }) | Step::ShiftBias(ShiftBias { param, out, .. }) => {
                names.insert(*out, format!("{param}_out"));
            }
            Step::Slice(Slice { input, start, len: 1, out }) => {
                // Named once its source is (sources come first).
                let src = names.get(input).cloned().unwrap_or_else(|| format!("r{input}"));
                names.insert(*out, format!("{src}_{start}"));
            }
            _ => {}
        }
    }
    names
}

impl Emitter<'_> {
    fn name(&self, reg: Reg) -> Ident {
        format_ident!("{}", self.names.get(&reg).cloned().unwrap_or_else(|| format!("r{reg}")))
    }

    fn get(&self, reg: Reg) -> Result<&Val, String> {
        self.regs.get(&reg).ok_or_else(|| format!("r{reg} is read before it is written"))
    }

    /// The static holding `param`'s `what` (`weights`, `biases`).
    fn array(&self, param: Param, what: &str) -> Ident {
        format_ident!("{}_{}", param_arrays(param).to_ascii_uppercase(), what.to_ascii_uppercase())
    }

    /// `param`'s bias of a single output, an expression.
    fn one_bias(&self, param: Param) -> TokenStream {
        let b = self.array(param, "biases");
        match self.net.bias_dims(param) {
            Some(dims) if dims.len() == 1 => quote!(#b[bucket]),
            _ => quote!(#b[bucket][0]),
        }
    }

    /// The biases of a layer of `n` outputs, or zeros.
    fn biases(&self, param: Param, bias: bool, n: usize) -> TokenStream {
        let b = self.array(param, "biases");
        let n = lit(n);
        if bias {
            quote!(&#b[bucket])
        } else {
            quote!(&[0; #n])
        }
    }

    /// The bound variable of a register (any kind but a single int32).
    fn var(&self, reg: Reg) -> Result<Ident, String> {
        match self.get(reg)? {
            Val::F32 { name } | Val::Float { name } | Val::I32 { name } | Val::Bytes { name, .. } => Ok(name.clone()),
            Val::Scalar { .. } => Err(format!("r{reg} is a single int32 value")),
        }
    }

    fn bind(&mut self, out: Reg, ty: TokenStream, expr: TokenStream, kind: Kind) -> Val {
        let name = self.name(out);
        self.body.push(quote!(let #name: #ty = #expr;));
        match kind {
            Kind::Int => Val::Scalar { expr: quote!(#name), atomic: true },
            Kind::Float => Val::Float { name },
            Kind::Ints(_) => Val::I32 { name },
            Kind::Floats(_) => Val::F32 { name },
            Kind::Bytes(_, order) => Val::Bytes { name, order },
        }
    }

    fn ints(&mut self, out: Reg, n: usize, expr: TokenStream) -> Val {
        let len = lit(n);
        self.bind(out, quote!([i32; #len]), expr, Kind::Ints(n))
    }

    fn floats(&mut self, out: Reg, n: usize, expr: TokenStream) -> Val {
        let len = lit(n);
        self.bind(out, quote!([f32; #len]), expr, Kind::Floats(n))
    }

    fn bytes(&mut self, out: Reg, n: usize, order: Order, expr: TokenStream) -> Val {
        let len = lit(n);
        self.bind(out, quote!([u8; #len]), expr, Kind::Bytes(n, order))
    }

    fn call(&mut self, call: &Call) -> Result<(), String> {
        use Call::*;
        let w = |p: &Param| self.array(*p, "weights");
        let (out, val) = match call {
            Listed { param, n, sums, bias, out } => {
                let (w, b) = (w(param), self.biases(*param, *bias, *n));
                let kernel = match sums {
                    ListedSums::Exact => quote!(affine_listed),
                    ListedSums::Pairs => quote!(affine_listed_pairs),
                    ListedSums::Fours => quote!(affine_listed_fours),
                };
                (*out, self.ints(*out, *n, quote!(l::#kernel(k, &ft, &#w[bucket], #b))))
            }
            Sparse { param, n, bias, out } => {
                let (w, b) = (w(param), self.biases(*param, *bias, *n));
                (*out, self.ints(*out, *n, quote!(l::affine_sparse(k, &ft, &#w[bucket], #b))))
            }
            Output { param, max, screlu, out } => {
                let (w, qa) = (w(param), Literal::i16_unsuffixed(*max as i16));
                let expr = if *screlu {
                    let in_i16 = self.net.screlu_in_i16;
                    quote!(l::screlu_output(k, acc, stm, &#w[bucket], #qa, #in_i16))
                } else {
                    quote!(l::crelu_output(k, acc, stm, &#w[bucket], #qa))
                };
                (*out, self.bind(*out, quote!(i32), expr, Kind::Int))
            }
            Dense { param, x, n, out, .. } => {
                let (w, b, x) = (w(param), self.array(*param, "biases"), self.var(*x)?);
                (*out, self.ints(*out, *n, quote!(l::affine_dense(k, &#x, &#w[bucket], &#b[bucket]))))
            }
            One { param, x, out, .. } => {
                let (w, b, x) = (w(param), self.one_bias(*param), self.var(*x)?);
                (*out, self.bind(*out, quote!(i32), quote!(l::affine_one(k, &#x, &#w[bucket], #b)), Kind::Int))
            }
            Fc0Act { x, out } => {
                let x = self.var(*x)?;
                (*out, self.bytes(*out, 32, Order::SfnnFc0Act, quote!(l::SfnnFc0Act::apply(k, &#x))))
            }
            Fc1Act { x, out } => {
                let x = self.var(*x)?;
                (*out, self.bytes(*out, 32, Order::SfnnFc1Act, quote!(l::SfnnFc1Act::apply(k, &#x))))
            }
            Clipped { x, n, shift, out } => {
                let (x, shift) = (self.var(*x)?, Literal::u32_unsuffixed(*shift));
                (*out, self.bytes(*out, *n, Order::Canonical, quote!(l::Clipped::<#shift>::apply(&#x))))
            }
            Concat { parts, n, out } => {
                let expr = self.concat(parts)?;
                (*out, self.bytes(*out, *n, Order::Canonical, expr))
            }
            Element { x, i, out } => {
                let (x, i) = (self.var(*x)?, lit(*i));
                (*out, self.scalar_val(*out, quote!(#x[#i]), true))
            }
            ConcatF32 { parts, n, out } => {
                let mut acc = self.var(parts[0].0)?;
                let mut len = parts[0].1;
                for (k, &(r, m)) in parts.iter().enumerate().skip(1) {
                    let x = self.var(r)?;
                    let name =
                        if k + 1 == parts.len() { self.name(*out) } else { format_ident!("{}_{k}", self.name(*out)) };
                    let total = lit(len + m);
                    self.body.push(quote!(let #name: [f32; #total] = l::concat_f32(&#acc, &#x);));
                    (acc, len) = (name, len + m);
                }
                debug_assert_eq!(len, *n);
                (*out, Val::F32 { name: acc })
            }
            Mul { x, k, out } => {
                let (x, k) = (self.receiver(*x)?, Literal::i32_unsuffixed(*k));
                (*out, self.scalar_val(*out, quote!(#x.wrapping_mul(#k)), true))
            }
            Div { x, k, out } => {
                let (x, k) = (self.scalar(*x)?, Literal::i32_unsuffixed(*k));
                (*out, self.scalar_val(*out, quote!(#x / #k), false))
            }
            Add { a, b, out } | Sub { a, b, out } => {
                let (x, y) = (self.receiver(*a)?, self.scalar(*b)?);
                let op = if matches!(call, Add { .. }) { quote!(wrapping_add) } else { quote!(wrapping_sub) };
                (*out, self.scalar_val(*out, quote!(#x.#op(#y)), true))
            }
            AddBiasI16 { param, x, out } => {
                let (x, b) = (self.receiver(*x)?, self.one_bias(*param));
                (*out, self.scalar_val(*out, quote!(#x.wrapping_add(i32::from(#b))), true))
            }
            Dequant { param, x, n, num, den, out } => {
                let (x, b) = (self.var(*x)?, self.array(*param, "biases"));
                let (num, den) = (Literal::u32_unsuffixed(*num), Literal::u32_unsuffixed(*den));
                (*out, self.floats(*out, *n, quote!(l::dequant(&#x, #num, #den, &#b[bucket]))))
            }
            DualF32 { x, n, out } => {
                let x = self.var(*x)?;
                (*out, self.floats(*out, 2 * n, quote!(l::dual_f32(&#x))))
            }
            ScreluF32 { x, n, out } => {
                let x = self.var(*x)?;
                (*out, self.floats(*out, *n, quote!(l::screlu_f32(&#x))))
            }
            ClampF32 { x, n, out } => {
                let x = self.var(*x)?;
                (*out, self.floats(*out, *n, quote!(l::crelu_f32(&#x))))
            }
            HardSwishF32 { x, n, out } => {
                let x = self.var(*x)?;
                (*out, self.floats(*out, *n, quote!(l::hard_swish_f32(&#x))))
            }
            SwigluF32 { x, n, out } => {
                let x = self.var(*x)?;
                (*out, self.floats(*out, *n, quote!(l::swiglu_f32(&#x))))
            }
            AddF32 { a, b, n, out } => {
                let (x, y) = (self.var(*a)?, self.var(*b)?);
                (*out, self.floats(*out, *n, quote!(l::add_f32(&#x, &#y))))
            }
            AffineF32 { param, x, n, out, .. } => {
                let (w, b, x) = (w(param), self.array(*param, "biases"), self.var(*x)?);
                (*out, self.floats(*out, *n, quote!(l::affine_f32(&#x, &#w[bucket], &#b[bucket]))))
            }
            DotF32 { param, x, out, .. } => {
                let (w, b, x) = (w(param), self.one_bias(*param), self.var(*x)?);
                (*out, self.bind(*out, quote!(f32), quote!(l::dot_f32(&#x, &#w[bucket], #b)), Kind::Float))
            }
            SignedSquareF32 { x, n, out } => {
                let x = self.var(*x)?;
                (*out, self.floats(*out, 2 * n, quote!(l::signed_square_f32(&#x))))
            }
            AffineChainsF32 { param, x, n, chains, out, .. } => {
                let (w, b, x, c) = (w(param), self.array(*param, "biases"), self.var(*x)?, lit(*chains as usize));
                (*out, self.floats(*out, *n, quote!(l::affine_chains_f32(&#x, &#w[bucket], &#b[bucket], #c))))
            }
            LanesF32 { param, x, lanes, skip, out, .. } => {
                let (w, b, x) = (w(param), self.one_bias(*param), self.var(*x)?);
                let (lanes, skip) = (lit(*lanes as usize), lit(*skip));
                let expr = quote!(l::lanes_f32(&#x, &#w[bucket], #b, #lanes, #skip));
                (*out, self.bind(*out, quote!(f32), expr, Kind::Float))
            }
            F32ToInt { x, scale, clamp, out } => {
                let (x, scale) = (self.var(*x)?, Literal::i32_unsuffixed(*scale));
                let clamp = match clamp {
                    Some(m) => {
                        let m = Literal::i32_unsuffixed(*m);
                        quote!(Some(#m))
                    }
                    None => quote!(None),
                };
                (*out, self.scalar_val(*out, quote!(l::f32_to_int(#x, #scale, #clamp)), true))
            }
            ShiftBias { param, x, n, shift, out } => {
                let (x, b, shift) = (self.var(*x)?, self.array(*param, "biases"), Literal::u32_unsuffixed(*shift));
                (*out, self.ints(*out, *n, quote!(l::shift_bias(&#x, #shift, &#b[bucket]))))
            }
            DualI32 { x, n, q_bits, out } => {
                let (x, q) = (self.var(*x)?, Literal::u32_unsuffixed(*q_bits));
                (*out, self.ints(*out, 2 * n, quote!(l::dual_i32(&#x, #q))))
            }
            ClampSquare { x, n, q_bits, out } => {
                let (x, q) = (self.var(*x)?, Literal::u32_unsuffixed(*q_bits));
                (*out, self.ints(*out, *n, quote!(l::clamp_square(&#x, #q))))
            }
            AffineI32 { param, x, n, out, .. } => {
                let (w, b, x) = (w(param), self.array(*param, "biases"), self.var(*x)?);
                (*out, self.ints(*out, *n, quote!(l::affine_i32(k, &#x, &#w[bucket], &#b[bucket]))))
            }
            DualWideI32 { x, n, q_bits, shift, out } => {
                let (x, q, s) = (self.var(*x)?, Literal::u32_unsuffixed(*q_bits), Literal::u32_unsuffixed(*shift));
                (*out, self.ints(*out, 2 * n, quote!(l::dual_wide_i32(&#x, #q, #s))))
            }
            SkipOutputWideI32 { param, x, s, max, scale, bits, out, .. } => {
                let (w, b, x, s) = (w(param), self.one_bias(*param), self.var(*x)?, self.var(*s)?);
                let (max, scale, bits) =
                    (Literal::i32_unsuffixed(*max), Literal::i32_unsuffixed(*scale), Literal::u32_unsuffixed(*bits));
                let expr = quote!(l::skip_output_wide_i32(&#x, #max, &#s, &#w[bucket], #b, #scale, #bits));
                (*out, self.bind(*out, quote!(i32), expr, Kind::Int))
            }
            ClampedDotI32 { param, x, max, out, .. } => {
                let (w, b, x, max) = (w(param), self.one_bias(*param), self.var(*x)?, Literal::i32_unsuffixed(*max));
                let expr = quote!(l::clamped_dot_i32(k, &#x, #max, &#w[bucket], #b));
                (*out, self.bind(*out, quote!(i32), expr, Kind::Int))
            }
        };
        self.regs.insert(out, val);
        Ok(())
    }

    /// A value read once stays an expression; one read more often (or traced) gets a name.
    fn scalar_val(&mut self, out: Reg, expr: TokenStream, atomic: bool) -> Val {
        if self.uses.get(&out).copied().unwrap_or(0) > 1 && out != self.net.layers.positional {
            let name = self.name(out);
            self.body.push(quote!(let #name: i32 = #expr;));
            Val::Scalar { expr: quote!(#name), atomic: true }
        } else {
            Val::Scalar { expr, atomic }
        }
    }

    fn scalar(&self, reg: Reg) -> Result<TokenStream, String> {
        match self.get(reg)? {
            Val::Scalar { expr, .. } => Ok(expr.clone()),
            _ => Err(format!("r{reg} is not a single int32 value")),
        }
    }

    /// The value as a method's receiver: in parentheses unless it binds tighter.
    fn receiver(&self, reg: Reg) -> Result<TokenStream, String> {
        match self.get(reg)? {
            Val::Scalar { expr, atomic: true } => Ok(expr.clone()),
            Val::Scalar { expr, atomic: false } => Ok(quote!((#expr))),
            _ => Err(format!("r{reg} is not a single int32 value")),
        }
    }

    /// A concatenation of bytes: each dual activation one kernel (bound as `<src>_act` unless
    /// it is the whole), the parts joined in order.
    fn concat(&mut self, parts: &[Part]) -> Result<TokenStream, String> {
        let mut exprs = Vec::new();
        for part in parts {
            exprs.push(match *part {
                Part::Dual { x, n, sqr, shift } => {
                    let x = self.var(x)?;
                    let (sqr, shift) = (Literal::u32_unsuffixed(sqr), Literal::u32_unsuffixed(shift));
                    let expr = quote!(l::SqrClippedAndClipped::<#sqr, #shift>::apply(&#x));
                    if parts.len() == 1 {
                        expr
                    } else {
                        let (act, len) = (format_ident!("{}_act", x), lit(2 * n));
                        self.body.push(quote!(let #act: [u8; #len] = #expr;));
                        quote!(#act)
                    }
                }
                Part::Bytes { x, .. } => {
                    let x = self.var(x)?;
                    quote!(#x)
                }
            });
        }
        let mut exprs = exprs.into_iter();
        let mut expr = exprs.next().ok_or("an empty concatenation")?;
        for next in exprs {
            expr = quote!(l::concat(&#expr, &#next));
        }
        Ok(expr)
    }

    /// `if let Some(t) = trace { .. }`: the transform's bytes, the traced sums and activations
    /// (activations back in the description's order).
    fn trace(&self, input: Input, traced: &[(Reg, bool)]) -> Result<TokenStream, String> {
        let ft = match input {
            Input::Listed => quote!(t.ft_out = ft.bytes().to_vec();),
            Input::Clipped => quote!(t.ft_out = ft.concat();),
            Input::Accumulators { .. } => quote!(),
        };
        let (mut dense, mut acts) = (Vec::new(), Vec::new());
        for &(reg, activation) in traced {
            let v = match self.get(reg)? {
                Val::I32 { name } => quote!(#name.to_vec()),
                Val::Scalar { expr, .. } => quote!(Vec::from([#expr])),
                Val::F32 { name } => quote!(l::f32_bits(&#name)),
                Val::Float { name } => quote!(l::f32_bits(&[#name])),
                Val::Bytes { name, order: Order::Canonical } => quote!(#name.to_vec()),
                Val::Bytes { name, order: Order::SfnnFc0Act } => quote!(l::unpack_sfnn_fc0_act(&#name)),
                Val::Bytes { name, order: Order::SfnnFc1Act } => quote!(l::unpack_sfnn_fc1_act(&#name)),
            };
            if activation {
                acts.push(v);
            } else {
                dense.push(v);
            }
        }
        let dense = (!dense.is_empty()).then(|| quote!(t.dense = Vec::from([#(#dense),*]);));
        let acts = (!acts.is_empty()).then(|| quote!(t.activations = Vec::from([#(#acts),*]);));
        Ok(quote! {
            if let Some(t) = trace {
                #ft
                #dense
                #acts
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nnue_format::layers::step::Square;
    use nnue_format::Architecture;

    fn net(text: &str, dims: &[(&'static str, &'static [usize])]) -> Net<'static> {
        let arch: Architecture = text.parse().unwrap();
        Net {
            layers: arch.layers(),
            dims: dims.iter().copied().collect(),
            order: &|_| Order::Canonical,
            screlu_in_i16: false,
            accumulator: quote!(Accumulator),
            l1: arch.l1(),
        }
    }

    /// HalfKP's layers: one kernel call per layer, named for what they hold, and the output
    /// folded into one expression.
    #[test]
    fn a_net_reads_as_its_layers() {
        let dims: &[(&str, &[usize])] = &[("fc0_biases", &[1, 32]), ("fc1_biases", &[1, 32]), ("fc2_biases", &[1, 1])];
        let code = emit(&net("HalfKP -> 256x2 -> 32 -> 32 -> 1", dims)).unwrap().to_string();
        for want in [
            "let ft = l :: clipped_both (k , acc , stm) ;",
            "let fc0 : [i32 ; 32] = l :: affine_sparse (k , & ft , & FC0_WEIGHTS [bucket] , & FC0_BIASES [bucket]) ;",
            "let fc1_in : [u8 ; 32] = l :: Clipped :: < 6 > :: apply (& fc0) ;",
            "let fc2 : i32 = l :: affine_one (k , & fc2_in , & FC2_WEIGHTS [bucket] , FC2_BIASES [bucket] [0]) ;",
            "let positional = fc2 / 16 ;",
        ] {
            assert!(code.contains(want), "{want}\n{code}");
        }
    }

    /// A step no kernel covers is an error naming it, not wrong code.
    #[test]
    fn a_step_without_a_kernel_is_an_error() {
        let dims: &[(&str, &[usize])] = &[("fc0_biases", &[1, 32]), ("fc1_biases", &[1, 32]), ("fc2_biases", &[1, 1])];
        let mut n = net("HalfKP -> 256x2 -> 32 -> 32 -> 1", dims);
        // fc_1 reading squared sums: no activation kernel writes those bytes.
        n.layers.steps[1] = Step::Square(Square { input: 1, out: 2 });
        let e = emit(&n).unwrap_err();
        assert!(e.contains("r2"), "{e}");
    }
}
