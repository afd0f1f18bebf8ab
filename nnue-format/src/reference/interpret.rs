//! The reference forward pass of every net: [`crate::Layers`] interpreted step by step
//! over the canonical (file-order) parameters, in plain Rust. Each step kind's own file
//! (`crate::layers::step`) says what it computes on the [`Machine`] here.

use std::borrow::Cow;

use crate::{Dense, Layers, Model, Param, Step, Transform};

use crate::evaluation::{Evaluation, Trace};

/// A register's value.
#[derive(Debug, Clone)]
pub(crate) enum Value {
    /// int32 values (bytes too).
    Int(Vec<i32>),
    /// f32 values.
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

/// What a step computes on: the registers written so far and the net's weights of the
/// position's bucket.
pub(crate) struct Machine<'a> {
    model: &'a Model,
    bucket: usize,
    regs: Vec<Option<Value>>,
}

impl Machine<'_> {
    /// The net's parameters.
    pub(crate) fn model(&self) -> &Model {
        self.model
    }

    /// The position's bucket.
    pub(crate) fn bucket(&self) -> usize {
        self.bucket
    }

    /// Register `r`, which an earlier step wrote.
    pub(crate) fn get(&self, r: u8) -> &Value {
        self.regs[usize::from(r)].as_ref().expect("a register written before it is read")
    }

    /// Register `r`'s integers.
    pub(crate) fn ints(&self, r: u8) -> &[i32] {
        self.get(r).ints()
    }

    /// Register `r`'s integers as the bytes an int8 layer reads.
    pub(crate) fn bytes(&self, r: u8) -> Vec<u8> {
        self.ints(r).iter().map(|&v| v as u8).collect()
    }

    /// Register `r`'s f32 values.
    pub(crate) fn floats(&self, r: u8) -> &[f32] {
        self.get(r).floats()
    }

    /// `f` of each of register `r`'s integers.
    pub(crate) fn map_ints(&self, r: u8, f: impl Fn(i32) -> i32) -> Value {
        Value::Int(self.ints(r).iter().map(|&x| f(x)).collect())
    }

    /// `f` of each of register `r`'s f32 values.
    pub(crate) fn map_floats(&self, r: u8, f: impl Fn(f32) -> f32) -> Value {
        Value::Float(self.floats(r).iter().map(|&x| f(x)).collect())
    }

    /// An int8 layer's weights: Stockfish's `Dense`, or a multi-layer net's sparse layer
    /// (`[outputs][inputs]`, no bias).
    pub(crate) fn int8_layer(&self, param: Param) -> Cow<'_, Dense> {
        int8_layer(self.model, param, self.bucket)
    }

    /// A multi-layer net's word layer: weights `[outputs][inputs]` and biases (i32, or f32
    /// bits).
    pub(crate) fn word_layer(&self, param: Param) -> (&[i32], &[i32]) {
        word_layer(self.model, param, self.bucket)
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
        Param::L3b => {
            let (o, n) = (a.l3b.unwrap_or(0), a.dense_act_width());
            (&p.l3b_weights[bucket * o * n..(bucket + 1) * o * n], &p.l3b_biases[bucket * o..(bucket + 1) * o])
        }
        _ => {
            let n = a.l3_inputs();
            (&p.l3_weights[bucket * n..(bucket + 1) * n], &p.l3_biases[bucket..bucket + 1])
        }
    }
}

/// f32 values from their bits.
pub(crate) fn f32s(bits: &[i32]) -> Vec<f32> {
    bits.iter().map(|&b| f32::from_bits(b as u32)).collect()
}

/// The transform of `us` and `them` (side to move first) into `r0`.
fn transform(t: Transform, us: &[i16], them: &[i16]) -> Vec<i32> {
    let mut out = Vec::with_capacity(us.len());
    for acc in [us, them] {
        match t {
            Transform::Pairwise { max, shift, round } => {
                let half = acc.len() / 2;
                let r = if round { 1 << (shift - 1) } else { 0 };
                out.extend(
                    (0..half).map(|j| {
                        (i32::from(acc[j]).clamp(0, max) * i32::from(acc[j + half]).clamp(0, max) + r) >> shift
                    }),
                );
            }
            Transform::Clipped { max, .. } => out.extend(acc.iter().map(|&v| i32::from(v).clamp(0, max))),
        }
    }
    out
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
    let mut m = Machine { model, bucket, regs: vec![None; usize::from(u8::MAX) + 1] };
    m.regs[0] = Some(Value::Int(r0));
    for step in &layers.steps {
        if let Step::Trace { reg, activation } = *step {
            match m.get(reg) {
                Value::Int(v) if activation => trace.activations.push(v.iter().map(|&x| x as u8).collect()),
                Value::Int(v) => trace.dense.push(v.clone()),
                Value::Float(v) => trace.dense.push(v.iter().map(|x| x.to_bits() as i32).collect()),
            }
        } else if let (Some(kind), Some(out)) = (step.kind(), step.out()) {
            m.regs[usize::from(out)] = Some(kind.eval(&m));
        }
    }
    let positional = m.ints(layers.positional)[0];
    let psqt = layers.psqt_div.map_or(0, |div| psqt.0[bucket].wrapping_sub(psqt.1[bucket]) / 2 / div);
    (Evaluation { bucket, psqt, positional }, trace)
}
