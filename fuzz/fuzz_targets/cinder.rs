//! cinder's layout (`file=cinder`, threat inputs), shipped as one zstd stream around the whole
//! file: mostly the zstd decoder's checks, and every array through the seeds' valid streams.
#![no_main]

#[path = "common.rs"]
mod common;

const ARCHS: &[Option<&str>] = &[
    Some("(768x2hm -> 64)x2 -> pairwise>>7 -> (16 -> 16 -> 16 -> 1)x8, f32, l1act=signedsquare, l2act=signedsquare, skip, l1mul=128/1209675, ftmax=127, ftround, l2chains=4, outlanes=8, scale=75, outclamp=7871, buckets=[0,0,0,0,0,1,1,1,1,2,2,2,2,3,3,3,3,4,4,4,4,5,5,5,5,6,6,6,6,7,7,7,7], threats=pawnpairs+sf19, file=cinder, kings=[0,0,0,0,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]"),
];

libfuzzer_sys::fuzz_target!(|data: &[u8]| common::check(data, ARCHS));
