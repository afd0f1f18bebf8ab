//! Obsidian's headerless layout (`file=obsidian`: each array aligned, the last one's
//! padding optional).
#![no_main]

#[path = "common.rs"]
mod common;

const ARCHS: &[Option<&str>] = &[Some(
    "(768 -> 64)x2 -> pairwise>>10 -> (16 -> 32 -> 1)x3, f32, dual, l1mul=1024/4161600, scale=400, file=obsidian",
)];

libfuzzer_sys::fuzz_target!(|data: &[u8]| common::check(data, ARCHS));
