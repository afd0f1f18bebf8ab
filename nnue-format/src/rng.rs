//! The seeded generator of the synthetic nets and random positions (its own module, so that
//! positions don't depend on the nets' generator).

/// SplitMix64: tiny, seedable and good enough for test data.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        Self(seed ^ 0x9E37_79B9_7F4A_7C15)
    }
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next_u64() % (hi - lo + 1) as u64) as i64
    }
    /// Roughly bell-shaped in `-spread..=spread` (sum of two uniforms), with rare extremes.
    pub fn weight(&mut self, spread: i64, extreme: i64) -> i64 {
        if self.next_u64().is_multiple_of(512) {
            return if self.next_u64().is_multiple_of(2) { extreme } else { -extreme };
        }
        (self.range(-spread, spread) + self.range(-spread, spread)) / 2
    }
}
