//! Bad nets and bad macro arguments are compile errors that name the file, the section, the
//! offset and what was expected (trybuild pins the messages).

#[test]
fn compile_errors() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
}
