//! bullet's headerless saves: single-layer chess-768 nets (both output orders, zero or
//! `bullet` padding, king buckets) and its multi-layer layout (`file=bullet`).
#![no_main]

#[path = "common.rs"]
mod common;

const ARCHS: &[Option<&str>] = &[
    Some("(768 -> 32)x2 -> 1, crelu, qa=255, qb=64, scale=400"),
    Some("(768 -> 32)x2 -> 1x4, screlu, qa=255, qb=64, scale=400, out=[2N][B]"),
    Some("(768x2hm -> 32)x2 -> 1x2, screlu, qa=181, qb=64, scale=400, kings=[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]"),
    Some("(768 -> 64)x2 -> pairwise>>10 -> (16 -> 32 -> 1)x3, f32, l1act=crelu, l2act=crelu, l1mul=512/8323200, scale=400, l1sums=i16pairs, file=bullet"),
];

libfuzzer_sys::fuzz_target!(|data: &[u8]| common::check(data, ARCHS));
