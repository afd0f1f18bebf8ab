//! Reckless's layout (`file=reckless`, with its threat inputs): larger than most inputs, so
//! mostly its size and padding checks.
#![no_main]

#[path = "common.rs"]
mod common;

const ARCHS: &[Option<&str>] = &[
    Some("(768x3hm -> 64)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x4, f32, l1act=crelu, l2act=crelu, l1mul=512/4161600, scale=380, buckets=[0,0,0,0,0,0,0,0,0,0,0,1,1,1,1,1,1,1,2,2,2,2,2,2,2,3,3,3,3,3,3,3,3], threats=reckless, file=reckless, kings=[0,0,0,0,1,1,1,1,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2]"),
];

libfuzzer_sys::fuzz_target!(|data: &[u8]| common::check(data, ARCHS));
