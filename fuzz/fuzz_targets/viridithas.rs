//! Viridithas's layout (`file=viridithas`, threat inputs), shipped as one zstd stream around the
//! whole file: mostly the zstd decoder's checks, and every array through the seeds' valid streams.
#![no_main]

#[path = "common.rs"]
mod common;

const ARCHS: &[Option<&str>] = &[
    Some("(704x2hm -> 64)x2 -> pairwise>>9 -> (32 -> 64 -> 1)x8, f32, l1act=hardswish, l2act=swiglu, residual, l1mul=512/4161600, scale=240, threats=pawnpairs+sf19, file=viridithas, kings=[0,0,0,0,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]"),
];

libfuzzer_sys::fuzz_target!(|data: &[u8]| common::check(data, ARCHS));
