//! Nothing to link: this package holds the workspace's benches (`benches/eval.rs`), its
//! property tests over mutated net files (`tests/reader_mutations.rs`) and the `bench-table`
//! tool, so that their dependencies (criterion, proptest) stay out of the examples' build.
