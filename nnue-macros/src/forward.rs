//! The generated forward pass: the description's layers ([`Architecture::layers`]) as one
//! call of a runtime layer kernel per layer, on this net's statics.
//!
//! Registers become local variables named for what they hold (`fc0`, `fc1_in`, ...). Steps
//! that only reshape bytes (activations, slices, concatenations) are kept pending until a
//! layer reads them: the layer's stored weights say in which byte order it wants its input,
//! and the activation kernel that writes that order is chosen then (Stockfish 15.1–18's
//! fc_1 and fc_2 read their inputs in the order the SIMD packs leave them). Integer steps on
//! single values fold into one expression, with the engines' wrapping arithmetic.

use std::collections::HashMap;

use nnue_format::layers::{Bucket, Layers, Param, Reg, Step, Transform};
use nnue_format::layout::{param_arrays, InputOrder as Order};
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

/// A register's value while emitting.
#[derive(Clone)]
enum Val {
    /// `r0`: the transform's output, `ft`.
    Ft { listed: bool },
    /// `r0` of a single-layer net: the accumulators themselves, clamped to `0..=max` by the
    /// output layer's kernel.
    Acc { max: i32 },
    /// Bound f32 values.
    F32 { name: Ident, len: usize },
    /// One bound f32 value.
    Float { name: Ident },
    /// Bound int32 sums.
    I32 { name: Ident, len: usize },
    /// One int32 value: a variable or an expression (`atomic`: usable as a method's receiver).
    Scalar { expr: TokenStream, atomic: bool },
    /// Bound bytes in an order.
    Bytes { name: Ident, len: usize, order: Order },
    /// A byte-shaping step not emitted yet.
    Pending(Step),
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
    let listed = match layers.transform {
        Transform::Pairwise { max, shift } => {
            let (max, shift) = (Literal::i16_unsuffixed(max as i16), Literal::u32_unsuffixed(shift));
            let (half, chunks) = (lit(net.l1 / 2), lit(net.l1 / 4));
            e.body.push(quote! {
                let mut scratch = l::PairwiseScratch::<#half, #chunks>::new();
                let ft = l::Pairwise::<#max, #shift>::apply(k, acc, stm, &mut scratch);
            });
            true
        }
        Transform::Clipped { max: 127, bytes: true } => {
            e.body.push(quote!(let ft = l::clipped_both(k, acc, stm);));
            false
        }
        Transform::Clipped { max, bytes: false } => {
            e.regs.insert(0, Val::Acc { max });
            false
        }
        Transform::Clipped { max, .. } => return Err(format!("a byte transform clamped at {max}")),
    };
    e.regs.entry(0).or_insert(Val::Ft { listed });

    let mut traced = Vec::new();
    for step in &layers.steps {
        if let Step::Trace { reg, activation } = *step {
            traced.push((reg, activation));
        } else {
            e.step(step)?;
        }
    }

    let positional = e.scalar(layers.positional)?;
    let psqt = match layers.psqt_div {
        Some(d) => {
            let d = Literal::i32_unsuffixed(d);
            quote!(l::psqt(acc, stm, bucket) / #d)
        }
        None => quote!(0),
    };
    let trace = e.trace(&traced)?;
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
            Step::AffineI8 { param, input, out }
            | Step::AffineI8Pairs { param, input, out }
            | Step::AffineF32 { param, input, out }
            | Step::DotF32 { param, input, out }
            | Step::AffineI32 { param, input, out }
            | Step::DotI16 { param, input, out } => {
                names.insert(*out, param.to_string());
                if *input != 0 {
                    names.insert(*input, format!("{param}_in"));
                }
            }
            Step::DequantF32 { param, out, .. } | Step::ShiftBias { param, out, .. } => {
                names.insert(*out, format!("{param}_out"));
            }
            Step::Slice { input, start, len: 1, out } => {
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

    /// The outputs of `param`'s layer: the biases' last dimension (one when the biases are
    /// one per bucket).
    fn len(&self, param: Param) -> Result<usize, String> {
        let dims = self.bias_dims(param)?;
        Ok(if dims.len() == 1 { 1 } else { *dims.last().expect("arrays have dimensions") })
    }

    /// The dimensions of `param`'s biases: `[bucket]` (one output each) or `[bucket][outputs]`.
    fn bias_dims(&self, param: Param) -> Result<&[usize], String> {
        let name = format!("{}_biases", param_arrays(param));
        self.net.dims.get(name.as_str()).copied().ok_or_else(|| format!("no array {name}"))
    }

    /// `param`'s bias of a single output, an expression.
    fn one_bias(&self, param: Param) -> TokenStream {
        let b = self.array(param, "biases");
        match self.bias_dims(param) {
            Ok(dims) if dims.len() == 1 => quote!(#b[bucket]),
            _ => quote!(#b[bucket][0]),
        }
    }

    fn f32s(&self, reg: Reg) -> Result<(Ident, usize), String> {
        match self.get(reg)? {
            Val::F32 { name, len } => Ok((name.clone(), *len)),
            _ => Err(format!("r{reg} is not f32 values")),
        }
    }

    fn bind_f32(&mut self, name: &Ident, len: usize, expr: TokenStream) -> Val {
        let n = lit(len);
        self.body.push(quote!(let #name: [f32; #n] = #expr;));
        Val::F32 { name: name.clone(), len }
    }

    fn step(&mut self, step: &Step) -> Result<(), String> {
        use Step::*;
        let (out, val) = match step {
            AffineI8 { param, input, out } => {
                let (w, b) = (self.array(*param, "weights"), self.array(*param, "biases"));
                let len = self.len(*param)?;
                let name = self.name(*out);
                // The multi-layer nets' sparse layer adds its bias after rescaling the sums.
                let biases = if *param == Param::L1 {
                    let n = lit(len);
                    quote!(&[0; #n])
                } else {
                    quote!(&#b[bucket])
                };
                let val = match self.get(*input)?.clone() {
                    Val::Ft { listed } => {
                        let kernel = if listed { quote!(affine_listed) } else { quote!(affine_sparse) };
                        self.bind_i32(&name, len, quote!(l::#kernel(k, &ft, &#w[bucket], #biases)))
                    }
                    _ => {
                        let x = self.bytes(*input, (self.net.order)(*param))?;
                        if len == 1 {
                            let b = self.one_bias(*param);
                            self.body.push(quote!(let #name: i32 = l::affine_one(k, &#x, &#w[bucket], #b);));
                            Val::Scalar { expr: quote!(#name), atomic: true }
                        } else {
                            self.bind_i32(&name, len, quote!(l::affine_dense(k, &#x, &#w[bucket], &#b[bucket])))
                        }
                    }
                };
                (*out, val)
            }
            AffineI8Pairs { param, input, out } => {
                let (w, len, name) = (self.array(*param, "weights"), self.len(*param)?, self.name(*out));
                let Val::Ft { listed: true } = self.get(*input)? else {
                    return Err(format!("r{out}: int16 pair sums read the pairwise transform's listed bytes"));
                };
                let n = lit(len);
                (*out, self.bind_i32(&name, len, quote!(l::affine_listed_pairs(k, &ft, &#w[bucket], &[0; #n]))))
            }
            Slice { input, start, len: 1, out } => {
                let Val::I32 { name, len } = self.get(*input)?.clone() else {
                    return Err(format!("r{out}: a slice of r{input}, which isn't int32 sums"));
                };
                if *start >= len {
                    return Err(format!("r{out}: r{input}[{start}] is past its {len} values"));
                }
                let i = lit(*start);
                (*out, self.scalar_val(*out, quote!(#name[#i]), true))
            }
            // f32 values joined at once (a skip connection); bytes wait for the kernel that
            // makes them in the order the reading layer wants.
            Concat { inputs, out } if inputs.iter().all(|&r| matches!(self.regs.get(&r), Some(Val::F32 { .. }))) => {
                let (mut acc, mut len) = self.f32s(inputs[0])?;
                for (k, &r) in inputs.iter().enumerate().skip(1) {
                    let (x, n) = self.f32s(r)?;
                    let name =
                        if k + 1 == inputs.len() { self.name(*out) } else { format_ident!("{}_{k}", self.name(*out)) };
                    let total = lit(len + n);
                    self.body.push(quote!(let #name: [f32; #total] = l::concat_f32(&#acc, &#x);));
                    (acc, len) = (name, len + n);
                }
                (*out, Val::F32 { name: acc, len })
            }
            Slice { out, .. } | ClippedShift { out, .. } | SqrClippedShift { out, .. } | Concat { out, .. } => {
                (*out, Val::Pending(step.clone()))
            }
            Mul { input, k, out } => {
                let (x, k) = (self.receiver(*input)?, Literal::i32_unsuffixed(*k));
                (*out, self.scalar_val(*out, quote!(#x.wrapping_mul(#k)), true))
            }
            Div { input, k, out } => {
                let (x, k) = (self.scalar(*input)?, Literal::i32_unsuffixed(*k));
                (*out, self.scalar_val(*out, quote!(#x / #k), false))
            }
            // Stormphrax 8's skip: clamped values plus the activation, read by the output layer.
            Add { a, out, .. } if matches!(self.regs.get(a), Some(Val::Pending(Clamp { .. }))) => {
                (*out, Val::Pending(step.clone()))
            }
            Add { a, b, out } | Sub { a, b, out } => {
                let (x, y) = (self.receiver(*a)?, self.scalar(*b)?);
                let op = if matches!(step, Add { .. }) { quote!(wrapping_add) } else { quote!(wrapping_sub) };
                (*out, self.scalar_val(*out, quote!(#x.#op(#y)), true))
            }
            DotI16 { param, input, out } => {
                let w = self.array(*param, "weights");
                let name = self.name(*out);
                let expr = match (self.get(*input)?, self.regs.get(&0)) {
                    (Val::Acc { max }, _) => {
                        let qa = Literal::i16_unsuffixed(*max as i16);
                        quote!(l::crelu_output(k, acc, stm, &#w[bucket], #qa))
                    }
                    (Val::Pending(Square { input: 0, .. }), Some(Val::Acc { max })) => {
                        let (qa, in_i16) = (Literal::i16_unsuffixed(*max as i16), self.net.screlu_in_i16);
                        quote!(l::screlu_output(k, acc, stm, &#w[bucket], #qa, #in_i16))
                    }
                    _ => return Err(format!("r{out}: an int16 output layer reads the accumulators or their squares")),
                };
                self.body.push(quote!(let #name: i32 = #expr;));
                (*out, Val::Scalar { expr: quote!(#name), atomic: true })
            }
            Square { out, .. } | Clamp { out, .. } => (*out, Val::Pending(step.clone())),
            AddBiasI16 { param, input, out } => {
                let (x, b) = (self.receiver(*input)?, self.one_bias(*param));
                (*out, self.scalar_val(*out, quote!(#x.wrapping_add(i32::from(#b))), true))
            }
            DequantF32 { param, input, num, den, out } => {
                let ((x, len), b) = (self.i32s(*input)?, self.array(*param, "biases"));
                let (num, den) = (Literal::u32_unsuffixed(*num), Literal::u32_unsuffixed(*den));
                let name = self.name(*out);
                (*out, self.bind_f32(&name, len, quote!(l::dequant(&#x, #num, #den, &#b[bucket]))))
            }
            DualF32 { input, out } => {
                let ((x, len), name) = (self.f32s(*input)?, self.name(*out));
                (*out, self.bind_f32(&name, 2 * len, quote!(l::dual_f32(&#x))))
            }
            ScreluF32 { input, out } => {
                let ((x, len), name) = (self.f32s(*input)?, self.name(*out));
                (*out, self.bind_f32(&name, len, quote!(l::screlu_f32(&#x))))
            }
            ClampF32 { input, out } => {
                let ((x, len), name) = (self.f32s(*input)?, self.name(*out));
                (*out, self.bind_f32(&name, len, quote!(l::crelu_f32(&#x))))
            }
            AffineF32 { param, input, out } => {
                let (w, b) = (self.array(*param, "weights"), self.array(*param, "biases"));
                let ((x, _), len, name) = (self.f32s(*input)?, self.len(*param)?, self.name(*out));
                (*out, self.bind_f32(&name, len, quote!(l::affine_f32(&#x, &#w[bucket], &#b[bucket]))))
            }
            DotF32 { param, input, out } => {
                let ((x, _), w, b, name) =
                    (self.f32s(*input)?, self.array(*param, "weights"), self.one_bias(*param), self.name(*out));
                self.body.push(quote!(let #name: f32 = l::dot_f32(&#x, &#w[bucket], #b);));
                (*out, Val::Float { name })
            }
            F32ToInt { input, scale, out } => {
                let Val::Float { name: x } = self.get(*input)?.clone() else {
                    return Err(format!("r{input} is not one f32 value"));
                };
                let scale = Literal::i32_unsuffixed(*scale);
                (*out, self.scalar_val(*out, quote!(l::f32_to_int(#x, #scale)), true))
            }
            ShiftBias { param, input, shift, out } => {
                let ((x, len), b, name) = (self.i32s(*input)?, self.array(*param, "biases"), self.name(*out));
                let shift = Literal::u32_unsuffixed(*shift);
                (*out, self.bind_i32(&name, len, quote!(l::shift_bias(&#x, #shift, &#b[bucket]))))
            }
            DualWideI32 { input, q_bits, shift, out } => {
                let ((x, len), name) = (self.i32s(*input)?, self.name(*out));
                let (q, s) = (Literal::u32_unsuffixed(*q_bits), Literal::u32_unsuffixed(*shift));
                (*out, self.bind_i32(&name, 2 * len, quote!(l::dual_wide_i32(&#x, #q, #s))))
            }
            DualI32 { input, q_bits, out } => {
                let ((x, len), name, q) = (self.i32s(*input)?, self.name(*out), Literal::u32_unsuffixed(*q_bits));
                (*out, self.bind_i32(&name, 2 * len, quote!(l::dual_i32(&#x, #q))))
            }
            OutputWideI32 { param, input, scale, q_bits, out } => {
                // Stormphrax 8's output layer: its input clamped plus the skip.
                let Val::Pending(Add { a, b: s, .. }) = self.get(*input)?.clone() else {
                    return Err(format!("r{out}: Stormphrax 8's output layer reads clamped values plus the skip"));
                };
                let Val::Pending(Clamp { input: y, max, .. }) = self.get(a)?.clone() else {
                    return Err(format!("r{out}: Stormphrax 8's output layer reads clamped values plus the skip"));
                };
                let ((y, _), (s, _)) = (self.i32s(y)?, self.i32s(s)?);
                let (w, b, name) = (self.array(*param, "weights"), self.one_bias(*param), self.name(*out));
                let (max, scale, bits) = (
                    Literal::i32_unsuffixed(max),
                    Literal::i32_unsuffixed(*scale),
                    Literal::u32_unsuffixed(4 * q_bits),
                );
                self.body.push(quote!(
                    let #name: i32 = l::skip_output_wide_i32(&#y, #max, &#s, &#w[bucket], #b, #scale, #bits);
                ));
                (*out, Val::Scalar { expr: quote!(#name), atomic: true })
            }
            ClampSquare { input, q_bits, out } => {
                let ((x, len), name, q) = (self.i32s(*input)?, self.name(*out), Literal::u32_unsuffixed(*q_bits));
                (*out, self.bind_i32(&name, len, quote!(l::clamp_square(&#x, #q))))
            }
            AffineI32 { param, input, out } => {
                let (w, len, name) = (self.array(*param, "weights"), self.len(*param)?, self.name(*out));
                if len == 1 {
                    // The output layer reads its input clamped: one kernel.
                    let Val::Pending(Clamp { input: y, max, .. }) = self.get(*input)?.clone() else {
                        return Err(format!("r{out}: an int32 output layer reads clamped values"));
                    };
                    let ((y, _), b, max) = (self.i32s(y)?, self.one_bias(*param), Literal::i32_unsuffixed(max));
                    self.body.push(quote!(let #name: i32 = l::clamped_dot_i32(k, &#y, #max, &#w[bucket], #b);));
                    (*out, Val::Scalar { expr: quote!(#name), atomic: true })
                } else {
                    let ((x, _), b) = (self.i32s(*input)?, self.array(*param, "biases"));
                    (*out, self.bind_i32(&name, len, quote!(l::affine_i32(k, &#x, &#w[bucket], &#b[bucket]))))
                }
            }
            Trace { .. } => return Ok(()),
        };
        self.regs.insert(out, val);
        Ok(())
    }

    fn bind_i32(&mut self, name: &Ident, len: usize, expr: TokenStream) -> Val {
        let n = lit(len);
        self.body.push(quote!(let #name: [i32; #n] = #expr;));
        Val::I32 { name: name.clone(), len }
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

    /// Register `reg` as bound bytes in `order`, emitting the kernels that make them.
    fn bytes(&mut self, reg: Reg, order: Order) -> Result<Ident, String> {
        let step = match self.get(reg)?.clone() {
            Val::Bytes { name, order: o, .. } if o == order => return Ok(name),
            Val::Bytes { order: o, .. } => return Err(format!("r{reg} is in {o:?} order, a layer wants {order:?}")),
            Val::Pending(step) => step,
            _ => return Err(format!("r{reg} is not bytes")),
        };
        let name = self.name(reg);
        let (expr, len) = match (&step, order) {
            (Step::Concat { inputs, .. }, _) => self.concat(inputs, order)?,
            (Step::ClippedShift { input, shift, .. }, Order::SfnnFc1Act) => {
                let (x, len) = self.i32s(*input)?;
                if (len, *shift) != (32, 6) {
                    return Err(format!("r{reg}: Stockfish's fc_1 activation is clamp(x >> 6) of 32 sums"));
                }
                (quote!(l::SfnnFc1Act::apply(k, &#x)), 32)
            }
            (Step::ClippedShift { input, shift, .. }, Order::Canonical) => {
                let (x, len) = self.i32s(*input)?;
                let shift = Literal::u32_unsuffixed(*shift);
                (quote!(l::Clipped::<#shift>::apply(&#x)), len)
            }
            _ => return Err(format!("no kernel writes r{reg} ({step:?}) in {order:?} order")),
        };
        let n = lit(len);
        self.body.push(quote!(let #name: [u8; #n] = #expr;));
        self.regs.insert(reg, Val::Bytes { name: name.clone(), len, order });
        Ok(name)
    }

    fn i32s(&self, reg: Reg) -> Result<(Ident, usize), String> {
        match self.get(reg)? {
            Val::I32 { name, len } => Ok((name.clone(), *len)),
            _ => Err(format!("r{reg} is not int32 sums")),
        }
    }

    /// A concatenation: each pair `min(127, x² >> a), clamp(x >> b, 0, 127)` of one source is
    /// one dual activation kernel; other parts are bytes already.
    fn concat(&mut self, inputs: &[Reg], order: Order) -> Result<(TokenStream, usize), String> {
        let pending = |e: &Self, r: Reg| match e.regs.get(&r) {
            Some(Val::Pending(s)) => Some(s.clone()),
            _ => None,
        };
        let mut parts: Vec<(TokenStream, usize)> = Vec::new();
        let mut i = 0;
        while i < inputs.len() {
            let pair = (pending(self, inputs[i]), inputs.get(i + 1).and_then(|&r| pending(self, r)));
            if let (
                Some(Step::SqrClippedShift { input: a, shift: sqr, .. }),
                Some(Step::ClippedShift { input: b, shift, .. }),
            ) = pair
            {
                if a != b {
                    return Err(format!("r{} and r{} activate different sums", inputs[i], inputs[i + 1]));
                }
                parts.push(self.dual(a, sqr, shift, order, parts.is_empty() && inputs.len() == 2)?);
                i += 2;
            } else {
                let x = self.bytes(inputs[i], Order::Canonical)?;
                let Some(Val::Bytes { len, .. }) = self.regs.get(&inputs[i]) else { unreachable!() };
                parts.push((quote!(#x), *len));
                i += 1;
            }
        }
        if order != Order::Canonical && parts.len() != 1 {
            return Err(format!("{order:?} is one activation kernel's order, not a concatenation's"));
        }
        let mut parts = parts.into_iter();
        let (mut expr, mut len) = parts.next().ok_or("an empty concatenation")?;
        for (next, n) in parts {
            expr = quote!(l::concat(&#expr, &#next));
            len += n;
        }
        Ok((expr, len))
    }

    /// The squared and clipped activations of `src` (`whole`: they are the whole register,
    /// bound under its name by the caller; otherwise bound here as `<src>_act`).
    fn dual(
        &mut self,
        src: Reg,
        sqr: u32,
        shift: u32,
        order: Order,
        whole: bool,
    ) -> Result<(TokenStream, usize), String> {
        if order == Order::SfnnFc0Act {
            // Stockfish 15.1–18: fc_0's first 15 outputs; the 16th skips to the output.
            let Some(Val::Pending(Step::Slice { input, start: 0, len: 15, .. })) = self.regs.get(&src).cloned() else {
                return Err(format!("Stockfish's fc_0 activation reads fc_0's first 15 sums, not r{src}"));
            };
            let (x, len) = self.i32s(input)?;
            if (len, sqr, shift) != (16, 19, 6) {
                return Err("Stockfish's fc_0 activation is x² >> 19 and x >> 6 of 16 sums".into());
            }
            return Ok((quote!(l::SfnnFc0Act::apply(k, &#x)), 32));
        }
        let (x, len) = self.i32s(src)?;
        let (sqr, shift) = (Literal::u32_unsuffixed(sqr), Literal::u32_unsuffixed(shift));
        let expr = quote!(l::SqrClippedAndClipped::<#sqr, #shift>::apply(&#x));
        if whole {
            return Ok((expr, 2 * len));
        }
        let act = format_ident!("{}_act", x);
        let n = lit(2 * len);
        self.body.push(quote!(let #act: [u8; #n] = #expr;));
        Ok((quote!(#act), 2 * len))
    }

    /// `if let Some(t) = trace { .. }`: the transform's bytes, the traced sums and activations
    /// (activations back in the description's order).
    fn trace(&self, traced: &[(Reg, bool)]) -> Result<TokenStream, String> {
        let ft = match self.get(0)? {
            Val::Ft { listed: true } => quote!(t.ft_out = ft.bytes().to_vec();),
            Val::Ft { listed: false } => quote!(t.ft_out = ft.concat();),
            _ => quote!(),
        };
        let (mut dense, mut acts) = (Vec::new(), Vec::new());
        for &(reg, activation) in traced {
            let v = match self.get(reg)? {
                Val::I32 { name, .. } => quote!(#name.to_vec()),
                Val::Scalar { expr, .. } => quote!(Vec::from([#expr])),
                Val::F32 { name, .. } => quote!(l::f32_bits(&#name)),
                Val::Float { name } => quote!(l::f32_bits(&[#name])),
                Val::Bytes { name, order: Order::Canonical, .. } => quote!(#name.to_vec()),
                Val::Bytes { name, order: Order::SfnnFc0Act, .. } => quote!(l::unpack_sfnn_fc0_act(&#name)),
                Val::Bytes { name, order: Order::SfnnFc1Act, .. } => quote!(l::unpack_sfnn_fc1_act(&#name)),
                _ => return Err(format!("r{reg} is traced but never computed")),
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
        n.layers.steps[1] = Step::Square { input: 1, out: 2 };
        let e = emit(&n).unwrap_err();
        assert!(e.contains("r2"), "{e}");
    }
}
