//! Whether a layer sequence fits a net's arrays: every register read after it is written and
//! of the kind and length the step takes, every layer's input as long as its weights' rows.
//! What `nnue_net!(…, compute = "…")` asks before it compiles a sequence of one's own over
//! the arrays of a file layout (the engine's own sequence passes by construction).

use super::{Bucket, Layers, LayersError, Param, Reg, Transform};
use crate::arch::{Architecture, HalfKpArch, Sf19Arch, SfnnArch};
use crate::layered::Numbers;

/// The number type of a layer's weights or biases.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Number {
    /// int8.
    I8,
    /// int16.
    I16,
    /// int32.
    I32,
    /// f32.
    F32,
}

/// A layer's arrays, per bucket: `outputs` rows of `inputs` weights, `outputs` biases (one
/// when the layer has a single output).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ParamShape {
    /// Weights per output.
    pub inputs: usize,
    /// Outputs (and biases).
    pub outputs: usize,
    /// The weights' type.
    pub weights: Number,
    /// The biases' type.
    pub biases: Number,
}

impl Architecture {
    /// The arrays of `param` in nets of this architecture, if they have that layer.
    pub fn param_shape(&self, param: Param) -> Option<ParamShape> {
        use Number::*;
        let shape = |inputs, outputs, weights, biases| Some(ParamShape { inputs, outputs, weights, biases });
        match (self, param) {
            (Architecture::Sfnn(a), Param::Fc0) => shape(a.l1, SfnnArch::FC0_OUT, I8, I32),
            (Architecture::Threats(a), Param::Fc0) => shape(a.l1, SfnnArch::FC0_OUT, I8, I32),
            (Architecture::Sfnn(_) | Architecture::Threats(_), Param::Fc1) => {
                shape(SfnnArch::FC1_IN, SfnnArch::FC1_OUT, I8, I32)
            }
            (Architecture::Sfnn(_) | Architecture::Threats(_), Param::Fc2) => shape(SfnnArch::FC1_OUT, 1, I8, I32),
            (Architecture::Sf19(a), Param::Fc0) => shape(a.l1, Sf19Arch::FC0_OUT, I8, I32),
            (Architecture::Sf19(_), Param::Fc1) => shape(Sf19Arch::FC1_IN, Sf19Arch::FC1_OUT, I8, I32),
            (Architecture::Sf19(_), Param::Fc2) => shape(Sf19Arch::FC2_IN, 1, I8, I32),
            (Architecture::HalfKp(a), Param::Fc0) => shape(2 * a.l1, HalfKpArch::L2, I8, I32),
            (Architecture::HalfKp(_), Param::Fc1) => shape(HalfKpArch::L2, HalfKpArch::L3, I8, I32),
            (Architecture::HalfKp(_), Param::Fc2) => shape(HalfKpArch::L3, 1, I8, I32),
            (Architecture::Chess768(a), Param::Out) => shape(2 * a.hidden, 1, I16, I16),
            (Architecture::Layered(a), _) => {
                let n = match a.numbers {
                    Numbers::F32 { .. } => F32,
                    Numbers::I32 { .. } => I32,
                };
                match param {
                    Param::L1 => shape(a.l1, a.l2, I8, n),
                    Param::L2 => shape(a.l2_full(), a.l3, n, n),
                    Param::L3 => shape(a.l3_inputs(), 1, n, n),
                    Param::L3b => a.l3b.and_then(|o| shape(a.dense_act_width(), o, n, n)),
                    _ => None,
                }
            }
            _ => None,
        }
    }
}

impl Bucket {
    /// How many buckets the rule chooses among.
    pub fn count(self) -> usize {
        match self {
            Bucket::Single => 1,
            Bucket::Stockfish => 8,
            Bucket::Rule(_, b) => b,
        }
    }
}

/// The most values all registers of a sequence may hold together (16 MiB of int32 or f32):
/// far above any net's (a multi-layer net's widest is its transform's, 2 × L1), low enough
/// that an interpreter's allocation of them can't fail.
pub const MAX_REGISTER_VALUES: usize = 1 << 22;

/// What a register holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Integers in `0..=max` (`max` at most 255): what an int8 layer reads.
    Bytes { len: usize, max: i32 },
    /// int32 values.
    Int(usize),
    /// f32 values.
    Float(usize),
}

impl Kind {
    /// How many values.
    pub(crate) fn len(self) -> usize {
        match self {
            Kind::Bytes { len, .. } | Kind::Int(len) | Kind::Float(len) => len,
        }
    }
    /// As messages name it.
    pub(crate) fn name(self) -> String {
        match self {
            Kind::Bytes { len, max } => format!("{len} values in 0..={max}"),
            Kind::Int(len) => format!("{len} int32 values"),
            Kind::Float(len) => format!("{len} f32 values"),
        }
    }
}

impl Layers {
    /// Whether this sequence can run over the arrays of `arch`'s nets: the transform and the
    /// number of buckets as `arch`'s own, each register written once before it is read, each
    /// step's inputs of the kind and length it takes (int8 layers read values in 0..=127, as
    /// the SIMD kernels require), shifts and divisors in range. The error's `line` is the
    /// stage as the text form numbers it (the bucket rule 1, the transform 2, the steps, the
    /// output line last), its message names the step.
    pub fn check_fits(&self, arch: &Architecture) -> Result<(), LayersError> {
        // The output line follows the bucket rule, the transform and the steps.
        let output = self.computing_steps().count() + 3;
        self.fits(arch).map_err(|(stage, message)| LayersError { line: stage.unwrap_or(output), message })
    }

    /// What a net of `arch` computes when given these layers in place of its own: these, once
    /// [`Layers::check_fits`] holds, or `arch`'s own layers where these compute the same (their
    /// text has lost the trace steps, which `arch.layers()` keeps). The one rule of
    /// `Evaluator::with_layers` and the run-time loader's.
    ///
    /// # Errors
    /// [`Layers::check_fits`]'s.
    pub fn in_place_of(self, arch: &Architecture) -> Result<Layers, LayersError> {
        self.check_fits(arch)?;
        let own = arch.layers();
        Ok(if self.computes_as(&own) { own } else { self })
    }

    /// [`Layers::check_fits`], the error with its stage (`None`: the output line).
    fn fits(&self, arch: &Architecture) -> Result<(), (Option<usize>, String)> {
        let own = arch.layers();
        if self.transform != own.transform {
            let own = own.to_string().lines().nth(1).unwrap_or_default().to_string();
            return Err((
                Some(2),
                format!("the transform must be the net's own, `{own}`: the accumulators are compiled for it"),
            ));
        }
        if self.bucket.count() != own.bucket.count() {
            let (n, want) = (self.bucket.count(), own.bucket.count());
            return Err((Some(1), format!("the bucket rule chooses among {n} buckets, the net has {want}")));
        }
        if self.psqt_div.is_some() && own.psqt_div.is_none() {
            return Err((None, "the net has no PSQT sums for `psqt = …`".into()));
        }
        if let Some(d @ ..=0) = self.psqt_div {
            return Err((None, format!("`psqt = …` divides by {d}: divisors are positive")));
        }
        let mut regs: Vec<Option<Kind>> = vec![None; usize::from(Reg::MAX) + 1];
        // Values in all registers, bounded: an interpreter allocates them.
        let mut total = 0usize;
        // Pairwise: half of each perspective's L1 values, so L1 in all.
        let l1 = arch.l1();
        regs[0] = Some(match self.transform {
            Transform::Pairwise { max, shift, round } => {
                Kind::Bytes { len: l1, max: (max * max + if round { 1 << (shift - 1) } else { 0 }) >> shift }
            }
            Transform::Clipped { max, bytes: true } => Kind::Bytes { len: 2 * l1, max },
            Transform::Clipped { bytes: false, .. } => Kind::Int(2 * l1),
        });
        for (i, step) in self.computing_steps().enumerate() {
            let out = step.registers().1.expect("computing steps write");
            let fit = Fit { arch, regs: &regs };
            let kind = step.kind().expect("computing steps have a kind").check(&fit);
            let kind = kind.map_err(|e| (Some(i + 3), format!("`{step}`: {e}")))?;
            if regs[usize::from(out)].is_some() {
                return Err((Some(i + 3), format!("`{step}`: r{out} is written twice")));
            }
            total = match total.checked_add(kind.len()) {
                Some(t) if t <= MAX_REGISTER_VALUES => t,
                _ => {
                    let message = format!(
                        "`{step}`: r{out} would hold {} values, and all registers together more than the \
                         {MAX_REGISTER_VALUES} values they may hold",
                        kind.len()
                    );
                    return Err((Some(i + 3), message));
                }
            };
            regs[usize::from(out)] = Some(kind);
        }
        match regs[usize::from(self.positional)] {
            Some(Kind::Int(1)) => Ok(()),
            Some(k) => Err((None, format!("positional = r{}: one int32 value, not {}", self.positional, k.name()))),
            None => Err((None, format!("positional = r{}: never written", self.positional))),
        }
    }
}

/// What a step's check reads: the net's arrays and what the registers written so far hold.
pub(crate) struct Fit<'a> {
    /// The net whose arrays the steps read.
    pub(crate) arch: &'a Architecture,
    regs: &'a [Option<Kind>],
}

impl Fit<'_> {
    /// What `r` holds.
    pub(crate) fn get(&self, r: Reg) -> Result<Kind, String> {
        self.regs[usize::from(r)].ok_or_else(|| format!("r{r} is read before it is written"))
    }

    /// How many int32 values `r` holds.
    pub(crate) fn ints(&self, r: Reg) -> Result<usize, String> {
        match self.get(r)? {
            Kind::Int(n) => Ok(n),
            k => Err(format!("r{r} is {}, not int32 values", k.name())),
        }
    }

    /// How many f32 values `r` holds.
    pub(crate) fn floats(&self, r: Reg) -> Result<usize, String> {
        match self.get(r)? {
            Kind::Float(n) => Ok(n),
            k => Err(format!("r{r} is {}, not f32 values", k.name())),
        }
    }

    /// The arrays of layer `p`, whose weights must be `weights`.
    pub(crate) fn shape(&self, p: Param, weights: Number) -> Result<ParamShape, String> {
        match self.arch.param_shape(p) {
            Some(s) if s.weights == weights => Ok(s),
            Some(s) => Err(format!("{p}'s weights are {:?}, not {weights:?}", s.weights)),
            None => Err(format!("the net has no layer {p}")),
        }
    }

    /// Whether layer `p` (arrays `s`) reads `n` inputs, those of `r`.
    pub(crate) fn reads(&self, r: Reg, s: ParamShape, p: Param, n: usize) -> Result<(), String> {
        if n == s.inputs {
            Ok(())
        } else {
            Err(format!("{p} reads {} inputs, r{r} has {n}", s.inputs))
        }
    }

    /// The arrays of an f32 dense layer `p` (more than one output) reading `r`'s values.
    pub(crate) fn f32_dense(&self, p: Param, r: Reg) -> Result<ParamShape, String> {
        let s = self.shape(p, Number::F32)?;
        self.reads(r, s, p, self.floats(r)?)?;
        if s.outputs == 1 {
            return Err(format!("{p} has {} outputs", s.outputs));
        }
        Ok(s)
    }

    /// The error of a register longer than all registers may be together.
    pub(crate) fn too_long() -> String {
        format!("the result would hold more than the {MAX_REGISTER_VALUES} values all registers may hold together")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn arch(text: &str) -> Architecture {
        text.parse().unwrap()
    }

    /// Every family's own sequence fits its arrays.
    #[test]
    fn every_net_fits_its_own_layers() {
        for text in [
            "HalfKAv2_hm -> 128x2 -> (15+1 -> 32 -> 1)x8, psqt=8",
            "HalfKAv2_hm+Threats -> 128x2 -> (15+1 -> 32 -> 1)x8, psqt=8",
            "HalfKAv2_hm+Threats19+PawnPairs -> 128x2 -> (32 -> 32 -> 1)x8, psqt=8",
            "PSQ768hm -> 128x2 -> (32 -> 32 -> 1)x8, psqt=8",
            "HalfKP -> 256x2 -> 32 -> 32 -> 1",
            "(768 -> 64)x2 -> 1x8, screlu, qa=255, qb=64, scale=400",
            "(768 -> 64)x2 -> 1, crelu, qa=255, qb=64, scale=400",
            "(768x2hm -> 128)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x8, f32, dual, l1mul=512/4161600, scale=400, \
             file=bullet, kings=[0,0,0,0,0,0,0,0,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]",
            "(704 -> 128)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x8, i32, dual, q=64, l1shift=8, scale=400, file=cbnf",
            "(768 -> 128)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x8, f32, l1act=crelu, l2act=crelu, \
             l1mul=512/8323200, scale=200, l1sums=i16pairs, file=bullet",
        ] {
            let a = arch(text);
            assert_eq!(a.layers().check_fits(&a), Ok(()), "{text}");
        }
    }

    /// A register doubled 59 times once wrapped to 0 values (or overflowed), and "fitted": the
    /// registers' lengths are bounded now, and the step that passes the bound is named.
    #[test]
    fn registers_cant_grow_without_bound() {
        // `base`: a register of bytes (Stockfish) or f32 values (PlentyChess); `next`: the
        // first register the own sequence leaves unwritten.
        for (text, base, next) in
            [("HalfKAv2_hm -> 128x2 -> (15+1 -> 32 -> 1)x8, psqt=8", 5, 14), (crate::known::PLENTYCHESS, 3, 9)]
        {
            let a = arch(text);
            let own = a.layers().to_string();
            let (body, output) = own.rsplit_once('\n').unwrap();
            let mut steps = body.to_string();
            let mut from = base;
            for to in next..next + 59 {
                steps += &format!("\nr{to} = r{from} ++ r{from}");
                from = to;
            }
            let doubled: Layers = format!("{steps}\n{output}").parse().unwrap();
            let e = doubled.check_fits(&a).unwrap_err();
            assert!(e.message.contains("more than the 4194304 values"), "{text}: {e}");
        }
    }

    /// A `skip` net's l3 reads its l2 outputs and the skipped activations: `param_shape` once
    /// gave it l3's outputs only, so no skip net's own sequence fitted (PlentyChess's layout).
    #[test]
    fn a_skip_nets_own_layers_fit() {
        for text in [
            crate::known::PLENTYCHESS,
            "(768 -> 64)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x8, f32, dual, skip, l1mul=512/4161600, scale=400, \
             file=bullet",
        ] {
            let a = arch(text);
            let Architecture::Layered(l) = a else { unreachable!() };
            assert_eq!(a.param_shape(Param::L3).map(|s| s.inputs), Some(l.l3_inputs()), "{text}");
            assert_eq!(a.layers().check_fits(&a), Ok(()), "{text}");
        }
    }

    /// A sequence of one's own: Stockfish 19's stacks without the skip, another output scale.
    #[test]
    fn a_sequence_of_ones_own_fits_when_its_lengths_do() {
        let a = arch("HalfKAv2_hm+Threats19+PawnPairs -> 128x2 -> (32 -> 32 -> 1)x8, psqt=8");
        let text = "bucket (pieces - 1) / 4
            r0 = clamp(a, 0, 255) · clamp(a', 0, 255) >> 9, per half, side to move first
            r1 = fc0 · r0 + b (int8)
            r2 = min(127, r1² >> 20)
            r3 = clamp(r1 >> 7, 0, 127)
            r4 = r2 ++ r3
            r5 = fc1 · r4 + b (int8)
            r6 = min(127, r5² >> 19)
            r7 = clamp(r5 >> 6, 0, 127)
            r8 = r4 ++ r6 ++ r7
            r9 = fc2 · r8 + b (int8)
            r10 = r9 · 600
            r11 = r10 / 1024
            positional = r11; psqt = (us - them) / 2 / 16";
        let mine: Layers = text.parse().unwrap();
        assert_eq!(mine.check_fits(&a), Ok(()));
        for (from, to, line, want) in [
            // fc2 reads 128 activations.
            ("r8 = r4 ++ r6 ++ r7", "r8 = r6 ++ r7", 11, "fc2 reads 128 inputs, r8 has 64"),
            // int8 layers read bytes.
            ("r5 = fc1 · r4 + b (int8)", "r5 = fc1 · r1 + b (int8)", 7, "r1 is 32 int32 values"),
            ("r10 = r9 · 600", "r10 = r12 · 600", 12, "r12 is read before it is written"),
            ("r11 = r10 / 1024", "r11 = r10 / 0", 13, "division by 0"),
            ("r11 = r10 / 1024", "r11 = r1[0..40]", 13, "r1 has 32 values"),
            ("r9 = fc2 · r8 + b (int8)", "r9 = fc2 · r0 + b (int8)", 11, "fc2 reads activations, not r0"),
            ("r9 = fc2 · r8 + b (int8)", "r9 = l2 · r8 + b (f32, fma in order)", 11, "the net has no layer l2"),
            ("r11 = r10 / 1024", "r11 = (r1 >> 3) + fc0.b", 13, "fc0.b must be 32 int32 biases"),
            ("positional = r11", "positional = r1", 14, "positional = r1: one int32 value, not 32 int32 values"),
            ("r3 = clamp(r1 >> 7, 0, 127)", "r2 = clamp(r1 >> 7, 0, 127)", 5, "r2 is written twice"),
            ("bucket (pieces - 1) / 4", "bucket 0", 1, "the bucket rule chooses among 1 buckets, the net has 8"),
            (">> 9, per half", ">> 8, per half", 2, "the transform must be the net's own"),
        ] {
            let bad: Layers = text.replace(from, to).parse().unwrap();
            let e = bad.check_fits(&a).unwrap_err();
            assert!(e.message.contains(want) && e.line == line, "{to}: {e}");
        }
    }
}
