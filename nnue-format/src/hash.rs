//! Stockfish's structural hashes: each layer folds its shape into the hash of the layer before,
//! so a file's hash identifies its architecture (and, for the same family, its L1).

/// `FeatureSet::HashValue` of HalfKAv2_hm.
pub const HALFKA_V2_HM: u32 = 0x7F23_4CB8;
/// `FullThreats::HashValue` (Stockfish 18's threat inputs); a threat net's transformer hash
/// is this xor 2·L1 (HalfKAv2_hm's hash is not folded in).
pub const FULL_THREATS: u32 = 0x8F23_4CB8;
/// Stockfish 19's threat features (a redefinition of FullThreats).
pub const THREATS_19: u32 = 0x2E6B_9D04;
/// Stockfish 19's pawn-pair features, `PP_3Wide`.
pub const PAWN_PAIRS: u32 = 0x86F2_B1DD;
/// The mirrored 768 piece-square features of Stockfish 19's lite net.
pub const PSQ_768_HM: u32 = 0x6F23_4CB8;
/// HalfKAv2 (Stockfish 14, no mirroring): recognised, to refuse by name.
pub const HALFKA_V2: u32 = 0x5F23_4CB8;
/// `HalfKP<Friend>::kHashValue` (`0x5D69D5B9 ^ true`).
pub const HALFKP: u32 = 0x5D69_D5B8;
/// Hash of the input slice that starts every network's layer chain.
pub const INPUT_SLICE: u32 = 0xEC42_E90D;

/// `AffineTransform::get_hash_value` (the sparse-input variant hashes the same).
pub const fn affine(prev: u32, outputs: u32) -> u32 {
    let mut h = 0xCC03_DAE4u32.wrapping_add(outputs);
    h ^= prev >> 1;
    h ^= prev << 31;
    h
}

/// `ClippedReLU::get_hash_value` (SqrClippedReLU uses the same constant).
pub const fn clipped_relu(prev: u32) -> u32 {
    0x538D_24C7u32.wrapping_add(prev)
}

/// The hash of several feature sets summed into one transformer (Stockfish 19): each set's
/// hash folded in after rotating the hash so far left by one.
pub const fn combine(sets: &[u32]) -> u32 {
    let (mut h, mut i) = (0u32, 0);
    while i < sets.len() {
        h = h.rotate_left(1) ^ sets[i];
        i += 1;
    }
    h
}

/// Feature-transformer hash: the feature set's hash xor the transformer's output width.
pub const fn feature_transformer(feature_set: u32, l1: usize) -> u32 {
    feature_set ^ (l1 as u32 * 2)
}

/// Hash of a layer chain `input slice (l1 x 2) -> affine -> crelu -> ... -> affine`.
pub const fn network(l1: usize, l2: u32, l3: u32) -> u32 {
    let mut h = INPUT_SLICE ^ (l1 as u32 * 2);
    h = affine(h, l2);
    h = clipped_relu(h);
    h = affine(h, l3);
    h = clipped_relu(h);
    affine(h, 1)
}

/// FNV-1a (64-bit) of a net file's bytes: what `nnue_net!` records of the file it compiled
/// in (`FILE_HASH`), so that a program reading the file at run time can tell whether it is
/// still that file (cargo rebuilds on a newer modification time only: a net copied in with an
/// older one, `cp -p` or `rsync -a`, leaves the binary with the old net).
pub fn file_hash(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

#[cfg(test)]
mod tests {
    use super::*;

    // The hashes of real nets (Stockfish 17.1 big, small and lite; Stockfish 13).
    #[test]
    fn real_net_hashes() {
        let sf = |l1| feature_transformer(HALFKA_V2_HM, l1) ^ network(l1, 16, 32);
        assert_eq!(sf(3072), 0x1C10_20F2);
        assert_eq!(sf(128), 0x1C10_3C92);
        assert_eq!(sf(256), 0x1C10_3EB2);
        assert_eq!(feature_transformer(HALFKP, 256) ^ network(256, 32, 32), 0x3E5A_A6EE);
        // Stockfish 18's big net nn-c288c895ea92 (threat inputs, L1 1024).
        assert_eq!(feature_transformer(FULL_THREATS, 1024), 0x8F23_44B8);
        assert_eq!(feature_transformer(FULL_THREATS, 1024) ^ network(1024, 16, 32), 0xEC10_2EF2);
        assert_eq!(network(1024, 16, 32), 0x6333_6A4A);
        // Stockfish 19's big net nn-1a298aa575a0 and lite net nn-61e7af4bb97d.
        let ft19 = feature_transformer(combine(&[THREATS_19, PAWN_PAIRS, HALFKA_V2_HM]), 1024);
        assert_eq!(ft19, 0xCB68_5313);
        assert_eq!(ft19 ^ network(1024, 32, 32), 0xA85B_2205);
        assert_eq!(feature_transformer(PSQ_768_HM, 1024) ^ network(1024, 32, 32), 0x0C10_35AE);
        // Stockfish 14's nn-76a8a7ffb820 (HalfKAv2 512x2-16-32-1).
        assert_eq!(feature_transformer(HALFKA_V2, 512) ^ network(512, 16, 32), 0x3C10_3E72);
    }

    /// FNV-1a's published test vectors.
    #[test]
    fn file_hash_is_fnv1a_64() {
        assert_eq!(file_hash(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(file_hash(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(file_hash(b"foobar"), 0x8594_4171_f739_67e8);
    }
}
