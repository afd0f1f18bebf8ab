//! Stockfish's files (a header that names the net): SFNN, HalfKP, Stockfish 18's threats,
//! Stockfish 19's and SFNNv17's, read from the header alone or with a description.
#![no_main]

#[path = "common.rs"]
mod common;

const ARCHS: &[Option<&str>] = &[
    None,
    Some("HalfKAv2_hm -> 64x2 -> (15+1 -> 32 -> 1)x8, psqt=8"),
    Some("HalfKP -> 64x2 -> 32 -> 32 -> 1"),
    Some("HalfKAv2_hm+Threats -> 64x2 -> (15+1 -> 32 -> 1)x8, psqt=8"),
    Some("PSQ768hm -> 64x2 -> (32 -> 32 -> 1)x8, psqt=8"),
    Some("PSQ768hm -> 64x2 -> (32 -> 32 -> 1)x8, psqt=0"),
];

libfuzzer_sys::fuzz_target!(|data: &[u8]| common::check(data, ARCHS));
