//! PlentyChess's layout (`file=plentychess`: one LEB128 varint per value, so the size tells
//! nothing and every value is decoded).
#![no_main]

#[path = "common.rs"]
mod common;

const ARCHS: &[Option<&str>] = &[
    Some("(768x3hm -> 64)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x8, f32, dual, skip, l1mul=512/4161600, scale=287, threats=pawnpairs+sf19, file=plentychess, kings=[0,0,0,0,1,1,1,1,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2]"),
];

libfuzzer_sys::fuzz_target!(|data: &[u8]| common::check(data, ARCHS));
