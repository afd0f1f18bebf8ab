//! What `bench --large-pages` says of the copy it times: the transformer's size, and on Linux
//! how much of it the kernel backs with huge pages (`/proc/self/smaps`), which the advice asks
//! for but does not guarantee.

use std::ops::Range;

/// The header line for a fast network whose transformer arrays, copied by `in_large_pages`,
/// span the addresses `transformer`.
pub fn header(transformer: Range<usize>) -> String {
    let kb = transformer.len().div_ceil(1024);
    let copied = format!("large pages: the fast network's transformer ({kb} kB) copied");
    if !cfg!(target_os = "linux") {
        return format!("{copied} (an ordinary allocation: huge pages are advised on Linux only)");
    }
    let mode = transparent_huge_pages().map(|m| format!(", transparent huge pages: {m}")).unwrap_or_default();
    match std::fs::read_to_string("/proc/self/smaps") {
        Ok(smaps) => {
            let (size, huge) = in_smaps(&smaps, transformer);
            format!("{copied}, advised MADV_HUGEPAGE{mode}; in huge pages: {huge} of its mapping's {size} kB (AnonHugePages)")
        }
        Err(_) => format!("{copied}, advised MADV_HUGEPAGE{mode}"),
    }
}

/// The kernel's transparent huge page mode, the bracketed word of
/// `/sys/kernel/mm/transparent_hugepage/enabled` (`always`, `madvise` or `never`).
fn transparent_huge_pages() -> Option<String> {
    let text = std::fs::read_to_string("/sys/kernel/mm/transparent_hugepage/enabled").ok()?;
    let (_, rest) = text.split_once('[')?;
    Some(rest.split_once(']')?.0.to_string())
}

/// `Size` and `AnonHugePages` (kB) summed over the mappings of `smaps` that overlap `region`.
/// The copy's mapping is its own (its advice keeps it from merging with its neighbours), so
/// this is the copy's, rounded out to pages.
fn in_smaps(smaps: &str, region: Range<usize>) -> (u64, u64) {
    let (mut size, mut huge, mut inside) = (0, 0, false);
    for line in smaps.lines() {
        let mut words = line.split_whitespace();
        let first = words.next().unwrap_or("");
        // A mapping's first line: `start-end perms offset dev inode [path]`, in hex.
        let range = first
            .split_once('-')
            .and_then(|(a, b)| Some((usize::from_str_radix(a, 16).ok()?, usize::from_str_radix(b, 16).ok()?)));
        if let Some((start, end)) = range {
            inside = start < region.end && region.start < end;
            continue;
        }
        if inside {
            let kb = words.next().and_then(|w| w.parse::<u64>().ok()).unwrap_or(0);
            match first {
                "Size:" => size += kb,
                "AnonHugePages:" => huge += kb,
                _ => {}
            }
        }
    }
    (size, huge)
}

#[cfg(test)]
mod tests {
    use super::in_smaps;

    const SMAPS: &str = "\
7f0000000000-7f0000400000 rw-p 00000000 00:00 0
Size:               4096 kB
AnonHugePages:      2048 kB
VmFlags: rd wr mr mw me ac hg
7f0000400000-7f0000401000 rw-p 00000000 00:00 0
Size:                  4 kB
AnonHugePages:         0 kB
7f0000500000-7f0000600000 r--p 00000000 08:01 42 /usr/lib/libc.so.6
Size:               1024 kB
AnonHugePages:       512 kB
";

    /// The mappings overlapping the region are summed; the others are not.
    #[test]
    fn sums_the_mappings_the_region_overlaps() {
        assert_eq!(in_smaps(SMAPS, 0x7f00_0000_1000..0x7f00_0040_0800), (4100, 2048));
        assert_eq!(in_smaps(SMAPS, 0x7f00_0000_0000..0x7f00_0000_0040), (4096, 2048));
        assert_eq!(in_smaps(SMAPS, 0x7f00_0040_1000..0x7f00_0050_0000), (0, 0));
    }

    /// A live mapping of this process is found (Linux).
    #[test]
    #[cfg(target_os = "linux")]
    fn finds_a_mapping_of_this_process() {
        let data = vec![1u8; 1 << 20];
        let smaps = std::fs::read_to_string("/proc/self/smaps").unwrap();
        let start = data.as_ptr() as usize;
        assert!(in_smaps(&smaps, start..start + data.len()).0 >= 1024);
    }
}
