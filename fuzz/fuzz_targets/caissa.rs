//! Caissa's `CSNN` files (`file=caissa`: a header of words, each output bucket's struct with
//! its int32 bias and padding): mostly the header's words and the size check.
#![no_main]

#[path = "common.rs"]
mod common;

const ARCHS: &[Option<&str>] = &[
    Some("(768x2hm -> 64)x2 -> 1x8, screlu, qa=255, scale=none, file=caissa, kings=[0,0,0,0,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]"),
    Some("(768hm -> 32)x2 -> 1x8, screlu, qa=255, scale=none, file=caissa"),
];

libfuzzer_sys::fuzz_target!(|data: &[u8]| common::check(data, ARCHS));
