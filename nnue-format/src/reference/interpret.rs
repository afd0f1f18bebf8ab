//! The reference forward pass of every net: [`crate::Layers`] interpreted step by step
//! over the canonical (file-order) parameters, in plain Rust.

use std::borrow::Cow;

use crate::{Dense, Layers, Model, Param, Step, Transform};

use super::layers::{affine, affine_i16_pairs, clipped_relu_shift, sqr_clipped_relu_shift};
use crate::evaluation::{Evaluation, Trace};

/// A register's value.
#[derive(Debug, Clone)]
enum Value {
    Int(Vec<i32>),
    Float(Vec<f32>),
}

impl Value {
    fn ints(&self) -> &[i32] {
        match self {
            Value::Int(v) => v,
            Value::Float(_) => panic!("a float register where the description reads integers"),
        }
    }
    fn floats(&self) -> &[f32] {
        match self {
            Value::Float(v) => v,
            Value::Int(_) => panic!("an integer register where the description reads floats"),
        }
    }
}

/// An int8 layer's weights for one bucket: Stockfish's `Dense`, or a multi-layer net's sparse
/// layer (`[outputs][inputs]`, no bias).
fn int8_layer(model: &Model, param: Param, bucket: usize) -> Cow<'_, Dense> {
    fn stacked(stacks: &[crate::Stack], param: Param, bucket: usize) -> Cow<'_, Dense> {
        let s = &stacks[bucket];
        Cow::Borrowed(match param {
            Param::Fc0 => &s.fc0,
            Param::Fc1 => &s.fc1,
            _ => &s.fc2,
        })
    }
    match (model, param) {
        (Model::Sfnn(_, p), _) => stacked(&p.stacks, param, bucket),
        (Model::Threats(_, p), _) => stacked(&p.stacks, param, bucket),
        (Model::Sf19(_, p), _) => stacked(&p.stacks, param, bucket),
        (Model::HalfKp(_, p), Param::Fc0) => Cow::Borrowed(&p.fc0),
        (Model::HalfKp(_, p), Param::Fc1) => Cow::Borrowed(&p.fc1),
        (Model::HalfKp(_, p), _) => Cow::Borrowed(&p.fc2),
        (Model::Layered(a, p), _) => {
            let (n, o) = (a.l1, a.l2);
            Cow::Owned(Dense {
                inputs: n,
                padded_inputs: n,
                outputs: o,
                biases: vec![0; o],
                weights: p.l1_weights[bucket * o * n..(bucket + 1) * o * n].to_vec(),
            })
        }
        (Model::Chess768(..), _) => unreachable!("chess-768 nets have no int8 layer"),
    }
}

/// A multi-layer net's word layer for one bucket: weights `[outputs][inputs]` and biases (i32,
/// or f32 bits).
fn word_layer(model: &Model, param: Param, bucket: usize) -> (&[i32], &[i32]) {
    let Model::Layered(a, p) = model else { unreachable!("only multi-layer nets have word layers") };
    let (l2, l3, l2f) = (a.l2, a.l3, a.l2_full());
    match param {
        Param::L1 => (&[], &p.l1_biases[bucket * l2..(bucket + 1) * l2]),
        Param::L2 => {
            (&p.l2_weights[bucket * l3 * l2f..(bucket + 1) * l3 * l2f], &p.l2_biases[bucket * l3..(bucket + 1) * l3])
        }
        _ => {
            let n = a.l3_inputs();
            (&p.l3_weights[bucket * n..(bucket + 1) * n], &p.l3_biases[bucket..bucket + 1])
        }
    }
}

/// `x · clamp(x + 3, 0, 6) · (1/6)`: two roundings after the clamp, the multiplier the f32
/// quotient `1/6` (Viridithas's order).
fn hard_swish(x: f32) -> f32 {
    x * (x + 3.0).clamp(0.0, 6.0) * (1.0f32 / 6.0)
}

fn floats(bits: &[i32]) -> Vec<f32> {
    bits.iter().map(|&b| f32::from_bits(b as u32)).collect()
}

/// The transform of `us` and `them` (side to move first) into `r0`.
fn transform(t: Transform, us: &[i16], them: &[i16]) -> Vec<i32> {
    let mut out = Vec::with_capacity(us.len());
    for acc in [us, them] {
        match t {
            Transform::Pairwise { max, shift } => {
                let half = acc.len() / 2;
                out.extend(
                    (0..half)
                        .map(|j| (i32::from(acc[j]).clamp(0, max) * i32::from(acc[j + half]).clamp(0, max)) >> shift),
                );
            }
            Transform::Clipped { max, .. } => out.extend(acc.iter().map(|&v| i32::from(v).clamp(0, max))),
        }
    }
    out
}

/// Register `r`, which an earlier step wrote.
fn get(regs: &[Option<Value>], r: u8) -> &Value {
    regs[usize::from(r)].as_ref().expect("a register written before it is read")
}

/// Runs `layers` over the accumulators `us`, `them` (side to move first) and PSQT sums.
pub(super) fn forward(
    model: &Model,
    layers: &Layers,
    (us, them): (&[i16], &[i16]),
    psqt: (&[i32], &[i32]),
    pieces: usize,
) -> (Evaluation, Trace) {
    let bucket = layers.bucket.of(pieces);
    let mut trace = Trace::default();
    let r0 = transform(layers.transform, us, them);
    let bytes = matches!(layers.transform, Transform::Pairwise { .. } | Transform::Clipped { bytes: true, .. });
    if bytes {
        trace.ft_out = r0.iter().map(|&v| v as u8).collect();
    }
    let mut regs: Vec<Option<Value>> = vec![None; usize::from(u8::MAX) + 1];
    regs[0] = Some(Value::Int(r0));
    let map_int = |v: &Value, f: &dyn Fn(i32) -> i32| Value::Int(v.ints().iter().map(|&x| f(x)).collect());
    for step in &layers.steps {
        use Step::*;
        let (out, value) = match step {
            AffineI8 { param, input, out } => {
                let x: Vec<u8> = get(&regs, *input).ints().iter().map(|&v| v as u8).collect();
                (out, Value::Int(affine(&int8_layer(model, *param, bucket), &x)))
            }
            AffineI8Pairs { param, input, out } => {
                let x: Vec<u8> = get(&regs, *input).ints().iter().map(|&v| v as u8).collect();
                (out, Value::Int(affine_i16_pairs(&int8_layer(model, *param, bucket), &x)))
            }
            DotI16 { input, out, .. } => {
                let Model::Chess768(_, p) = model else { unreachable!("int16 output layers are chess-768's") };
                let w = p.output_row(bucket);
                let x = get(&regs, *input);
                let sum = x.ints().iter().zip(w).fold(0i32, |s, (&x, &w)| s.wrapping_add(x.wrapping_mul(i32::from(w))));
                (out, Value::Int(vec![sum]))
            }
            AddBiasI16 { input, out, .. } => {
                let Model::Chess768(_, p) = model else { unreachable!("int16 output biases are chess-768's") };
                let b = i32::from(p.l1b[bucket]);
                (out, map_int(get(&regs, *input), &|x| x.wrapping_add(b)))
            }
            Square { input, out } => (out, map_int(get(&regs, *input), &|x| x.wrapping_mul(x))),
            Slice { input, start, len, out } => {
                (out, Value::Int(get(&regs, *input).ints()[*start..start + len].to_vec()))
            }
            Concat { inputs, out } => match get(&regs, inputs[0]) {
                Value::Float(_) => {
                    (out, Value::Float(inputs.iter().flat_map(|&r| get(&regs, r).floats().to_vec()).collect()))
                }
                Value::Int(_) => {
                    (out, Value::Int(inputs.iter().flat_map(|&r| get(&regs, r).ints().to_vec()).collect()))
                }
            },
            ClippedShift { input, shift, out } => {
                let v = clipped_relu_shift(get(&regs, *input).ints(), *shift);
                (out, Value::Int(v.into_iter().map(i32::from).collect()))
            }
            SqrClippedShift { input, shift, out } => {
                let v = sqr_clipped_relu_shift(get(&regs, *input).ints(), *shift);
                (out, Value::Int(v.into_iter().map(i32::from).collect()))
            }
            Div { input, k, out } => (out, map_int(get(&regs, *input), &|x| x / k)),
            Mul { input, k, out } => (out, map_int(get(&regs, *input), &|x| x.wrapping_mul(*k))),
            Add { a, b, out } | Sub { a, b, out } => {
                let sub = matches!(step, Sub { .. });
                let (a, b) = (get(&regs, *a), get(&regs, *b));
                let v = a
                    .ints()
                    .iter()
                    .zip(b.ints())
                    .map(|(&x, &y)| if sub { x.wrapping_sub(y) } else { x.wrapping_add(y) });
                (out, Value::Int(v.collect()))
            }
            DequantF32 { param, input, num, den, out } => {
                let mul = *num as f32 / *den as f32;
                let biases = floats(word_layer(model, *param, bucket).1);
                let z = get(&regs, *input).ints().iter().zip(&biases).map(|(&s, &b)| (s as f32).mul_add(mul, b));
                (out, Value::Float(z.collect()))
            }
            DualF32 { input, out } => {
                let z = get(&regs, *input);
                let z = z.floats();
                let v = z.iter().map(|&z| z.clamp(0.0, 1.0)).chain(z.iter().map(|&z| (z * z).min(1.0)));
                (out, Value::Float(v.collect()))
            }
            ScreluF32 { input, out } => {
                let v = get(&regs, *input).floats().iter().map(|&x| x.clamp(0.0, 1.0) * x.clamp(0.0, 1.0)).collect();
                (out, Value::Float(v))
            }
            ClampF32 { input, out } => {
                (out, Value::Float(get(&regs, *input).floats().iter().map(|&x| x.clamp(0.0, 1.0)).collect()))
            }
            HardSwishF32 { input, out } => {
                (out, Value::Float(get(&regs, *input).floats().iter().map(|&x| hard_swish(x)).collect()))
            }
            SwigluF32 { input, out } => {
                let x = get(&regs, *input).floats();
                let (gate, value) = x.split_at(x.len() / 2);
                (out, Value::Float(gate.iter().zip(value).map(|(&g, &v)| hard_swish(g) * v).collect()))
            }
            AddF32 { a, b, out } => {
                let (a, b) = (get(&regs, *a).floats(), get(&regs, *b).floats());
                (out, Value::Float(a.iter().zip(b).map(|(&x, &y)| x + y).collect()))
            }
            AffineF32 { param, input, out } => {
                let (w, b) = word_layer(model, *param, bucket);
                let (x, w, b) = (get(&regs, *input), floats(w), floats(b));
                let n = x.floats().len();
                let y = b
                    .iter()
                    .enumerate()
                    .map(|(o, &b)| w[o * n..(o + 1) * n].iter().zip(x.floats()).fold(b, |y, (&w, &x)| x.mul_add(w, y)));
                (out, Value::Float(y.collect()))
            }
            DotF32 { param, input, out } => {
                let (w, b) = word_layer(model, *param, bucket);
                let x = get(&regs, *input);
                (out, Value::Float(vec![super::layers::f32_dot(x.floats(), &floats(w), f32::from_bits(b[0] as u32))]))
            }
            F32ToInt { input, scale, out } => {
                let v = get(&regs, *input).floats().iter().map(|&x| (x * *scale as f32) as i32).collect();
                (out, Value::Int(v))
            }
            ShiftBias { param, input, shift, out } => {
                let b = word_layer(model, *param, bucket).1;
                let v = get(&regs, *input).ints().iter().zip(b).map(|(&s, &b)| (s >> shift).wrapping_add(b)).collect();
                (out, Value::Int(v))
            }
            DualI32 { input, q_bits, out } => {
                let q = 1i32 << q_bits;
                let o = get(&regs, *input);
                let o = o.ints();
                let v =
                    o.iter().map(|&o| o.clamp(0, q) << q_bits).chain(o.iter().map(|&o| o.wrapping_mul(o).min(q * q)));
                (out, Value::Int(v.collect()))
            }
            DualWideI32 { input, q_bits, shift, out } => {
                let (q2, q4) = (1i32 << (2 * q_bits), 1i32 << (4 * q_bits));
                let o = get(&regs, *input);
                let o = o.ints();
                let v = o
                    .iter()
                    .map(|&o| (o.clamp(0, q2) << q_bits) >> shift)
                    .chain(o.iter().map(|&o| o.wrapping_mul(o).min(q4) >> (q_bits + shift)));
                (out, Value::Int(v.collect()))
            }
            OutputWideI32 { param, input, scale, q_bits, out } => {
                let (w, b) = word_layer(model, *param, bucket);
                let x = get(&regs, *input);
                let s = w.iter().zip(x.ints()).fold(0i32, |y, (&w, &x)| y.wrapping_add(x.wrapping_mul(w)));
                let n = i64::from(b[0]) + i64::from(s);
                (out, Value::Int(vec![(n * i64::from(*scale) / (1i64 << (4 * q_bits))) as i32]))
            }
            ClampSquare { input, q_bits, out } => {
                let q = 1i32 << q_bits;
                (out, map_int(get(&regs, *input), &|o| o.clamp(0, q) * o.clamp(0, q)))
            }
            Clamp { input, max, out } => (out, map_int(get(&regs, *input), &|x| x.clamp(0, *max))),
            AffineI32 { param, input, out } => {
                let (w, b) = word_layer(model, *param, bucket);
                let x = get(&regs, *input);
                let n = x.ints().len();
                let y = b.iter().enumerate().map(|(o, &b)| {
                    w[o * n..(o + 1) * n].iter().zip(x.ints()).fold(b, |y, (&w, &x)| y.wrapping_add(x.wrapping_mul(w)))
                });
                (out, Value::Int(y.collect()))
            }
            Trace { reg, activation } => {
                match get(&regs, *reg) {
                    Value::Int(v) if *activation => trace.activations.push(v.iter().map(|&x| x as u8).collect()),
                    Value::Int(v) => trace.dense.push(v.clone()),
                    Value::Float(v) => trace.dense.push(v.iter().map(|x| x.to_bits() as i32).collect()),
                }
                continue;
            }
        };
        regs[usize::from(*out)] = Some(value);
    }
    let positional = get(&regs, layers.positional).ints()[0];
    let psqt = layers.psqt_div.map_or(0, |div| psqt.0[bucket].wrapping_sub(psqt.1[bucket]) / 2 / div);
    (Evaluation { bucket, psqt, positional }, trace)
}
