//! Stockfish's SFNNv17 files (Stockfish 19's net without its PSQT blocks), big and lite, read
//! from the header alone or with a description: mostly the header, hashes and LEB128 sections.
#![no_main]

#[path = "common.rs"]
mod common;

const ARCHS: &[Option<&str>] = &[
    None,
    Some("HalfKAv2_hm+Threats19+PawnPairs -> 64x2 -> (32 -> 32 -> 1)x8, psqt=0"),
    Some("PSQ768hm -> 64x2 -> (32 -> 32 -> 1)x8, psqt=0"),
];

libfuzzer_sys::fuzz_target!(|data: &[u8]| common::check(data, ARCHS));
