//! A transformer's rows copied into memory the OS is asked to back with huge pages (2 MB on
//! x86-64 Linux), as Stockfish allocates its network.
//!
//! A move's update reads a few rows scattered over tens of megabytes: with 4 KB pages nearly
//! every row is a TLB miss. A net compiled in by `nnue_net!` sits in the binary's read-only
//! data, which Linux maps in 4 KB pages (huge pages for file mappings need a kernel option
//! most distributions leave off), so the copy is the way to them. On Linux with transparent
//! huge pages in `madvise` or `always` mode the copy is advised `MADV_HUGEPAGE`; elsewhere it
//! is an ordinary allocation and changes nothing but the address.

use super::transformer::{Features, Transformer};
use crate::layers::Composed;

/// The bytes of the copy, 64-byte aligned, never freed: the copied net refers to them for the
/// rest of the process, as a compiled-in net refers to its statics.
fn leaked_buffer(bytes: usize) -> &'static mut [u8] {
    #[cfg(target_os = "linux")]
    {
        // The copy starts on a 2 MB boundary and its last 2 MB are mapped whole: a huge page
        // backs only an aligned, fully mapped 2 MB, so an unaligned start would leave the
        // partial 2 MB at each end in 4 KB pages. The slack is never touched, so never backed.
        const HUGE: usize = 2 << 20;
        let len = bytes.max(1).next_multiple_of(HUGE) + HUGE;
        if let Ok(map) = memmap2::MmapOptions::new().len(len).map_anon() {
            // Advice only: a kernel without transparent huge pages refuses it, and the mapping
            // works the same.
            let _ = map.advise(memmap2::Advice::HugePage);
            let map: &'static mut memmap2::MmapMut = Box::leak(Box::new(map));
            let start = map.as_ptr().align_offset(HUGE).min(HUGE);
            return &mut map[start..start + bytes];
        }
    }
    // Zeroed 64-byte blocks: aligned for every row type.
    let blocks: &'static mut [[u64; 8]] = vec![[0u64; 8]; bytes.div_ceil(64)].leak();
    &mut bytemuck::cast_slice_mut::<[u64; 8], u8>(blocks)[..bytes]
}

/// Copies `from` into the front of `buf` (its length rounded up to 64 bytes taken) and returns
/// the copy and the rest.
fn copy_into<T: bytemuck::Pod>(buf: &'static mut [u8], from: &T) -> (&'static T, &'static mut [u8]) {
    let size = std::mem::size_of::<T>();
    let (head, rest) = buf.split_at_mut(size.next_multiple_of(64));
    // Byte by byte: a `T` of tens of megabytes must not pass through the stack.
    head[..size].copy_from_slice(bytemuck::bytes_of(from));
    (bytemuck::from_bytes(&head[..size]), rest)
}

/// As [`copy_into`], for a slice. (Not the other way round: a slice of one zero-sized array,
/// a net's `[[i8; L1]; 0]` int8 rows, casts back to an empty slice.)
fn copy_slice_into<T: bytemuck::Pod>(buf: &'static mut [u8], from: &[T]) -> (&'static [T], &'static mut [u8]) {
    let size = std::mem::size_of_val(from);
    let (head, rest) = buf.split_at_mut(size.next_multiple_of(64));
    head[..size].copy_from_slice(bytemuck::cast_slice(from));
    (bytemuck::cast_slice(&head[..size]), rest)
}

impl<const L1: usize, const PSQT: usize, const INT8: usize, const INT16: usize, F: Features>
    Transformer<'_, L1, PSQT, INT8, INT16, F>
{
    /// The same transformer with its arrays copied into memory advised for huge pages: the
    /// same values, so the same evaluations, with fewer TLB misses per update (a move's rows
    /// lie scattered over tens of megabytes). On Linux the copy is an anonymous mapping advised
    /// `MADV_HUGEPAGE` (used when transparent huge pages are in `madvise` or `always` mode; a
    /// compiled-in net's read-only data gets 4 KB pages); elsewhere an ordinary allocation.
    /// The copy is never freed: make it once per process (a `LazyLock` static), not per game.
    pub fn in_large_pages(&self) -> Transformer<'static, L1, PSQT, INT8, INT16, F> {
        let size = |bytes: usize| bytes.next_multiple_of(64);
        let bytes = size(std::mem::size_of_val(self.biases))
            + size(std::mem::size_of_val(self.int8_rows))
            + size(std::mem::size_of_val(self.int16_rows))
            + size(std::mem::size_of_val(self.psqt));
        let buf = leaked_buffer(bytes);
        // The big arrays first, each at a 64-byte boundary of a region that starts on a page.
        let (int16_rows, buf) = copy_into(buf, self.int16_rows);
        let (int8_rows, buf) = copy_into(buf, self.int8_rows);
        let (psqt, buf) = copy_slice_into(buf, self.psqt);
        let (biases, _) = copy_into(buf, self.biases);
        Transformer { biases, int8_rows, int16_rows, psqt, features: self.features }
    }
}

impl<const L1: usize, const PSQT: usize, const INT8: usize, const INT16: usize, Ft: Features, L: Clone>
    Composed<Transformer<'_, L1, PSQT, INT8, INT16, Ft>, L>
{
    /// The network with its transformer [in large pages](Transformer::in_large_pages) (the
    /// layers after it, a few hundred kilobytes at most, stay where they are). For a net
    /// compiled in by `nnue_net!`:
    ///
    /// ```
    /// nnue_runtime::nnue_net! {
    ///     path = "nets/default.nnue",
    ///     arch = "(768 -> 32)x2 -> 1, crelu, qa=255, qb=64, scale=400",
    /// }
    ///
    /// static NET: std::sync::LazyLock<net::Network> = std::sync::LazyLock::new(|| net::NETWORK.in_large_pages());
    ///
    /// let start = nnue_runtime::Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap();
    /// assert_eq!(nnue_runtime::Network::evaluate(&*NET, &start), net::evaluate(&start));
    /// ```
    pub fn in_large_pages(&self) -> Composed<Transformer<'static, L1, PSQT, INT8, INT16, Ft>, L> {
        Composed { net: self.net.in_large_pages(), layers: self.layers.clone() }
    }
}

#[cfg(test)]
mod tests {
    use nnue_format::{synth, Encoding};

    use crate::loaded::FastWeights;
    use crate::{AccumulatorStack, Network, Position};

    /// The copy evaluates as the original on every path, from scratch and through a stack.
    #[test]
    fn a_copy_in_large_pages_evaluates_as_the_original() {
        let net = synth::threats(64, 5, Encoding::Raw);
        let weights = FastWeights::new(&net).unwrap();
        let fast = weights.sfnn_threats::<64, 32, 16>().unwrap();
        let copy = fast.in_large_pages();
        assert_ne!(copy.weights_id(), fast.weights_id(), "a copy, not the same arrays");
        let start = Position::from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3").unwrap();
        for path in crate::KernelPath::all() {
            assert_eq!(copy.evaluate_on(path, &start), fast.evaluate_on(path, &start), "{path}");
            let mut stack = AccumulatorStack::with_path(&copy, &start, path);
            assert_eq!(stack.evaluate(&copy, &start), fast.evaluate_on(path, &start), "{path}");
        }
    }
}
