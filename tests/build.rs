//! Synthetic nets and real-net locations for the tests (see `../build/nets.rs`).

#[path = "../build/nets.rs"]
mod nets;

fn main() {
    nets::run()
}
