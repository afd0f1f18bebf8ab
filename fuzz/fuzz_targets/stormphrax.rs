//! Stormphrax 8's `CBNF` files (pawn-pair and threat inputs, `wide`, `skip`), raw or
//! zstd-compressed (the header's flag 1): mostly the header and the zstd stream.
#![no_main]

#[path = "common.rs"]
mod common;

const ARCHS: &[Option<&str>] = &[
    Some("(704x2hm -> 64)x2 -> pairwise>>9 -> (32 -> 64 -> 1)x8, i32, dual, wide, skip, q=64, l1shift=2, scale=400, threats=pawnpairs+sf19, file=cbnf, kings=[0,0,0,0,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]"),
];

libfuzzer_sys::fuzz_target!(|data: &[u8]| common::check(data, ARCHS));
