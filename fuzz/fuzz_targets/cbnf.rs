//! Stormphrax's `CBNF` files: the header, each array aligned (the last one's padding
//! optional), and the zstd-compressed form (the header's flag 1).
#![no_main]

#[path = "common.rs"]
mod common;

const ARCHS: &[Option<&str>] = &[
    Some("(704hm -> 64)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x3, i32, dual, q=64, l1shift=8, scale=400, file=cbnf"),
    Some("(768 -> 64)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x3, i32, dual, q=64, l1shift=8, scale=400, file=cbnf"),
];

libfuzzer_sys::fuzz_target!(|data: &[u8]| common::check(data, ARCHS));
