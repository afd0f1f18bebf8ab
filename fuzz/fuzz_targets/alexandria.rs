//! Alexandria's headerless layout (`file=alexandria`).
#![no_main]

#[path = "common.rs"]
mod common;

const ARCHS: &[Option<&str>] = &[Some(
    "(768 -> 64)x2 -> pairwise>>10 -> (16 -> 32 -> 1)x3, f32, dual, l1mul=1024/4161600, scale=400, file=alexandria",
)];

libfuzzer_sys::fuzz_target!(|data: &[u8]| common::check(data, ARCHS));
