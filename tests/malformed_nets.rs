//! The reader on every corpus case (`tests/corpus/manifest.tsv`): the typed error of the
//! expected class, at the expected section and byte offset, with a message saying so.

use nnue::corpus;
use nnue_runtime::{Architecture, Net};

#[test]
fn every_corpus_case_is_the_expected_error() {
    let cases = corpus::cases();
    assert!(cases.len() >= 35, "the corpus covers every class");
    for case in &cases {
        let bytes = corpus::materialize(case);
        let arch: Option<Architecture> = case.arch.as_deref().map(|a| a.parse().unwrap());
        let err = match Net::from_bytes(&bytes, arch.as_ref()) {
            Ok(_) => panic!("{}: read without error", case.name),
            Err(e) => e,
        };
        let got = (err.kind.name(), err.section.as_str(), err.offset);
        assert_eq!(got, (case.kind.as_str(), case.section.as_str(), case.offset), "{}: {err}", case.name);
        let message = err.to_string();
        assert!(
            message.contains(&format!("at offset {}", case.offset)) && message.contains(&case.section),
            "{message}"
        );
    }
}

/// A description that isn't UTF-8 would not write back byte for byte: an error, not a lossy read.
#[test]
fn non_utf8_description_is_an_error() {
    let mut bytes = nnue_runtime::format::synth::sfnn(64, 1, nnue_runtime::format::Encoding::Leb128).to_bytes();
    bytes[12] = 0xFF;
    let err = Net::from_bytes(&bytes, None).unwrap_err();
    assert_eq!((err.kind.name(), err.section.as_str(), err.offset), ("Invalid", "header", 12), "{err}");
}
