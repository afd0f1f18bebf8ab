//! King buckets: which bucket of input weights a king square selects, and horizontal mirroring;
//! with the grammar of `768xK[hm]` and `kings=[...]`.

use crate::grammar::parse_num;
use crate::ShapeError;

/// King buckets of a chess-768 input layer: the bucket of each king square as the perspective
/// sees it, and whether the board is mirrored so that the king sits on files a-d.
///
/// The one description of king buckets: the architecture's text (`768xK[hm]`, `kings=[...]`)
/// parses into it, and the runtime's chess-768 features index with it as it is (`Copy`, so
/// generated code holds it as a constant).
///
/// ```
/// use nnue_format::KingBuckets;
///
/// // Two buckets, mirrored: the king on files a-b is bucket 0, on files c-d bucket 1.
/// let map: Vec<u8> = (0..32).map(|i| (i % 4 / 2) as u8).collect();
/// let kings = KingBuckets::from_map(true, &map).unwrap();
/// assert_eq!((kings.count, kings.table[2], kings.table[5]), (2, 1, 1)); // c1, f1 (mirrors c1)
/// assert_eq!(kings.map(), Some(map));
/// assert!(KingBuckets::from_map(true, &[0, 1]).is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct KingBuckets {
    /// Mirror the board horizontally so that the king is on files a-d.
    pub mirrored: bool,
    /// Number of buckets, 1 to 64; every bucket below it appears in `table`.
    pub count: u8,
    /// Bucket of each king square a1..h8, seen from the perspective's side of the board (files
    /// e-h of a mirrored table repeat files d-a).
    pub table: [u8; 64],
}

impl Default for KingBuckets {
    fn default() -> Self {
        Self::SINGLE
    }
}

impl KingBuckets {
    /// One bucket, no mirroring: plain chess-768.
    pub const SINGLE: KingBuckets = KingBuckets { mirrored: false, count: 1, table: [0; 64] };

    /// The buckets of a `kings=[...]` map: 32 entries (a1, b1, c1, d1, a2, ...) when mirrored,
    /// else 64, using every bucket from 0 to the largest.
    pub fn from_map(mirrored: bool, map: &[u8]) -> Result<KingBuckets, ShapeError> {
        let expected = if mirrored { 32 } else { 64 };
        if map.len() != expected {
            return Err(ShapeError::KingMapLength { got: map.len(), expected });
        }
        let mut table = [0u8; 64];
        for (sq, b) in table.iter_mut().enumerate() {
            let (rank, file) = (sq / 8, sq % 8);
            *b = if mirrored { map[rank * 4 + file.min(7 - file)] } else { map[sq] };
        }
        let largest = map.iter().copied().max().unwrap_or(0);
        if largest >= 64 {
            return Err(ShapeError::KingMapBucket { got: largest, max: 64 });
        }
        let kings = KingBuckets { mirrored, count: largest + 1, table };
        kings.validate()?;
        Ok(kings)
    }

    /// The `kings=[...]` map (32 entries when mirrored, else 64), or `None` for one bucket.
    pub fn map(&self) -> Option<Vec<u8>> {
        (self.count > 1).then(|| (0..64).filter(|sq| !self.mirrored || sq % 8 < 4).map(|sq| self.table[sq]).collect())
    }

    /// Number of king buckets.
    pub fn count(&self) -> usize {
        usize::from(self.count)
    }

    /// Checks the invariants of the fields: `count` buckets, every one used, and a mirrored
    /// table symmetric.
    pub fn validate(&self) -> Result<(), ShapeError> {
        if !(1..=64).contains(&self.count) {
            return Err(ShapeError::KingCount { got: self.count, max: 64 });
        }
        if let Some(&bucket) = self.table.iter().find(|&&b| b >= self.count) {
            return Err(ShapeError::KingBucket { bucket, count: self.count });
        }
        if let Some(bucket) = (0..self.count).find(|b| !self.table.contains(b)) {
            return Err(ShapeError::UnusedKingBucket { bucket });
        }
        if let Some(square) = (0..64).find(|&sq| self.mirrored && self.table[sq] != self.table[sq ^ 7]) {
            return Err(ShapeError::AsymmetricKings { square });
        }
        Ok(())
    }
}

/// The list of a `kings=[...]` option.
pub(crate) fn parse_king_map(v: &str) -> Result<Vec<u8>, String> {
    let list =
        v.strip_prefix('[').and_then(|v| v.strip_suffix(']')).ok_or("kings takes a list: kings=[0,0,1,1,...]")?;
    list.split(',')
        .map(|e| parse_num(e).and_then(|n| u8::try_from(n).map_err(|_| format!("bucket {n} is too large"))))
        .collect()
}

/// The king buckets of `768xK[hm]` (K = `declared`) with an optional `kings=[...]` map.
pub(crate) fn king_buckets(
    declared: Option<usize>,
    mirrored: bool,
    map: Option<Vec<u8>>,
) -> Result<KingBuckets, String> {
    Ok(match (declared, map) {
        (None, None) => KingBuckets { mirrored, ..KingBuckets::SINGLE },
        (None, Some(_)) => return Err("kings=[...] needs the bucket count: 768xK".into()),
        (Some(k), None) => return Err(format!("768x{k} needs kings=[...] mapping king squares to its {k} buckets")),
        (Some(k), Some(map)) => {
            let kings = KingBuckets::from_map(mirrored, &map).map_err(|e| e.to_string())?;
            if k != kings.count() {
                return Err(format!("768x{k} declares {k} king buckets, kings=[...] uses {}", kings.count()));
            }
            kings
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_tables_are_refused() {
        let mut map = vec![0u8; 64];
        map[63] = 70;
        let e = KingBuckets::from_map(false, &map).unwrap_err();
        assert!(matches!(e, ShapeError::KingMapBucket { got: 70, max: 64 }), "{e:?}");
        assert_eq!(e.to_string(), "king bucket 70 is out of range: at most 64 buckets");
        map[63] = 2;
        let e = KingBuckets::from_map(false, &map).unwrap_err();
        assert_eq!(e, ShapeError::UnusedKingBucket { bucket: 1 });
        assert_eq!(e.to_string(), "kings=[...] must use every bucket from 0 to its maximum");
        let e = KingBuckets::from_map(true, &map).unwrap_err();
        assert!(matches!(e, ShapeError::KingMapLength { got: 64, expected: 32 }), "{e:?}");
        assert_eq!(e.to_string(), "kings=[...] has 64 entries, expected 32");
        // Fields set by hand are checked: a mirrored table must be symmetric.
        let mut table = [0u8; 64];
        table[7] = 1;
        let lopsided = KingBuckets { mirrored: true, count: 2, table };
        let e = lopsided.validate().unwrap_err();
        assert_eq!(e, ShapeError::AsymmetricKings { square: 0 });
        assert_eq!(e.to_string(), "a mirrored king table must be the same on files e-h as on d-a");
        assert!(KingBuckets { mirrored: false, ..lopsided }.validate().is_ok());
        let e = KingBuckets { count: 1, ..lopsided }.validate().unwrap_err();
        assert!(matches!(e, ShapeError::KingBucket { bucket: 1, count: 1 }), "{e:?}");
        assert_eq!(e.to_string(), "king bucket 1 is out of range: 1 buckets");
        let e = KingBuckets { count: 0, ..KingBuckets::SINGLE }.validate().unwrap_err();
        assert!(matches!(e, ShapeError::KingCount { got: 0, .. }), "{e:?}");
        assert_eq!(e.to_string(), "0 king buckets: must be 1 to 64");
    }
}
