//! The net-file reader on arbitrary bytes: it must return Ok or Err, never panic, never read
//! out of bounds, never allocate beyond a small factor of the input (run with
//! `-malloc_limit_mb=1`: inputs are at most 64 KiB). The first byte picks an architecture
//! description (or none), so headerless parsing is reached too.
#![no_main]

use libfuzzer_sys::fuzz_target;
use nnue_format::{Architecture, Net};

const ARCHS: [&str; 5] = [
    "(768 -> 32)x2 -> 1, crelu, qa=255, qb=64, scale=400",
    "(768x2hm -> 32)x2 -> 1x2, screlu, qa=181, qb=64, scale=400, kings=[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]",
    "HalfKAv2_hm -> 64x2 -> (15+1 -> 32 -> 1)x8, psqt=8",
    "HalfKP -> 64x2 -> 32 -> 32 -> 1",
    "HalfKAv2_hm+Threats -> 64x2 -> (15+1 -> 32 -> 1)x8, psqt=8",
];

fuzz_target!(|data: &[u8]| {
    let Some((&choice, rest)) = data.split_first() else { return };
    let arch: Option<Architecture> = match choice as usize % (ARCHS.len() + 1) {
        0 => None,
        k => Some(ARCHS[k - 1].parse().expect("valid description")),
    };
    match Net::from_bytes(rest, arch.as_ref()) {
        // What reads must write back to the same bytes.
        Ok(net) => assert_eq!(net.to_bytes(), rest),
        // An error points into the input and says where.
        Err(err) => {
            assert!(err.offset <= rest.len(), "offset {} past the end: {err}", err.offset);
            assert!(err.to_string().contains(&format!(" at offset {}: ", err.offset)));
        }
    }
});
