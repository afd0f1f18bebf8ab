#!/usr/bin/env python3
"""Fetch real Stockfish nets from package registries, check their sha256, and store them in
nets/fetched/ (git-ignored: Stockfish nets are GPL-3.0).

    python3 scripts/fetch-nets.py [--list] [NAME ...]

Nets: Stockfish 17.1's (big, small, lite), 18's big net and 19's big and lite nets (npm `stockfish`), Stockfish 13's
HalfKP net, and optional extras (see NETS).

Only the ordinary package clients are used (`npm pack`; `apt-get download` and `dpkg-deb` for
Debian's stockfish 15.1, whose executable embeds its net). Nets inside a
WebAssembly build are cut out of the memory image rebuilt from the module's data segments
(emscripten drops runs of zeros from the segments, so the raw file can't be searched).
"""

import argparse
import glob
import hashlib
import os
import shutil
import struct
import subprocess
import sys
import tarfile
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEST = os.path.join(ROOT, "nets", "fetched")

# name -> (sha256, size, source kind, package, file(s) in the package, optional)
NETS = {
    "nn-1c0000000000.nnue": (
        "1c0000000000a67d629999d932d0c373f7450ce43cd12d0562868f4eaf9ae2ad", 74874478,
        "npm-wasm", "stockfish@17.1.0", ["src/stockfish-17.1-single-a496a04-part-%d.wasm" % i for i in range(6)], False),
    "nn-37f18f62d772.nnue": (
        "37f18f62d772f3107e1d6aaca3898c130c3c86f2ab63e6555fbbca20635a899d", 3519630,
        "npm-wasm", "stockfish@17.1.0", ["src/stockfish-17.1-single-a496a04-part-%d.wasm" % i for i in range(6)], False),
    "nn-9067e33176e8.nnue": (
        "9067e33176e8c5edb7aa8db6a3aedd012f84a1f39872e86357c6c2d0993f314d", 6617595,
        "npm-wasm", "stockfish@17.1.0", ["src/stockfish-17.1-lite-single-03e3232.wasm"], False),
    # Stockfish 18's big net (threat inputs, L1 1024), at address 34,640 of the memory image.
    "nn-c288c895ea92.nnue": (
        "c288c895ea924429ea9092e3f36b2b3c1f00f2a3a4c759ff7e57e79e3b43e4a7", 108919594,
        "npm-wasm", "stockfish@18.0.0", ["src/stockfish-18-single.wasm"], False),
    # Stockfish 19's big net (threats, pawn pairs; L1 1024) and the lite net lichess ships with it.
    "nn-1a298aa575a0.nnue": (
        "1a298aa575a085434d29027978dc36867fe9c5bcea9376654b7a8eba1e52dfc2", 98511183,
        "npm-wasm", "stockfish@19.0.0", ["bin/stockfish-19-single.wasm"], False),
    "nn-61e7af4bb97d.nnue": (
        "61e7af4bb97d51eeeb25d322916f86513b5cd3a827ce189c98c6e31946f99e5b", 1166381,
        "npm-wasm", "stockfish@19.0.0", ["bin/stockfish-19-lite-single.wasm"], False),
    "nn-62ef826d1a6d.nnue": (
        "62ef826d1a6d11b9e814188025aa02a60815c037292e0ef9bbb9bf4f724e5e63", 21022697,
        "npm-wasm", "stockfish-nnue.wasm@0.0.2", ["stockfish.wasm"], False),
    # Extras: plain files in the Stockfish 16 package (L1 1536, and a 14-era HalfKAv2 net
    # that the reader recognises and refuses by name).
    "nn-5af11540bbfe.nnue": (None, None, "npm-file", "stockfish@16.0.0", ["src/nn-5af11540bbfe.nnue"], True),
    "nn-76a8a7ffb820.nnue": (None, None, "npm-file", "stockfish@16.0.0",
                             ["src/emscripten/public/old-nn/nn-76a8a7ffb820.nnue"], True),
    # Debian 12's Stockfish 15.1 (L1 1024, raw arrays), embedded in the executable.
    "nn-ad9b42354671.nnue": (
        "ad9b423546714137916bd38978af6fd68d7b8951bef25ff76bf43da72d6cb786", 47001499,
        "deb-embedded", "stockfish", ["usr/games/stockfish"], True),
}


def run(cmd, cwd):
    result = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if result.returncode != 0:
        raise RuntimeError("%s failed: %s" % (" ".join(cmd), result.stderr.strip()[-500:]))
    return result.stdout


def leb(data, pos, signed=False):
    """A LEB128 number at `pos`; returns it and the position after it."""
    value = shift = 0
    while True:
        byte = data[pos]
        pos += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            if signed and byte & 0x40:
                value -= 1 << shift
            return value, pos


def uleb(data, pos):
    return leb(data, pos)


def sleb(data, pos):
    return leb(data, pos, signed=True)


def memory_image(wasm):
    """The linear memory the module's active data segments initialise."""
    if wasm[:4] != b"\0asm":
        raise RuntimeError("not a WebAssembly module")
    pos, segments, passive = 8, [], []
    while pos < len(wasm):
        section, pos = wasm[pos], pos + 1
        size, pos = uleb(wasm, pos)
        end = pos + size
        if section == 11:  # data
            count, p = uleb(wasm, pos)
            for _ in range(count):
                flags, p = uleb(wasm, p)
                offset = None
                if flags in (0, 2):
                    if flags == 2:
                        _, p = uleb(wasm, p)  # memory index
                    if wasm[p] != 0x41:  # i32.const
                        raise RuntimeError("unsupported data segment offset expression")
                    offset, p = sleb(wasm, p + 1)
                    if wasm[p] != 0x0B:
                        raise RuntimeError("unsupported data segment offset expression")
                    p += 1
                length, p = uleb(wasm, p)
                if offset is not None:
                    segments.append((offset, wasm[p:p + length]))
                else:
                    passive.append(wasm[p:p + length])
                p += length
        pos = end
    if passive:
        segments += passive_segments(wasm, passive)
    image = bytearray(max(o + len(b) for o, b in segments))
    for offset, chunk in segments:
        image[offset:offset + len(chunk)] = chunk
    return bytes(image)


def passive_segments(wasm, passive):
    """Threaded builds keep passive segments, copied in by `memory.init` in the start code:
    `i32.const dest; i32.const 0; i32.const size; memory.init seg 0`."""
    placed, pos = [], 0
    while True:
        pos = wasm.find(b"\xfc\x08", pos)
        if pos < 0:
            return placed
        # Walk back over the three i32.const operands (sleb128 values of at most 5 bytes).
        for start in range(max(0, pos - 20), pos):
            try:
                p, values = start, []
                for _ in range(3):
                    if wasm[p] != 0x41:
                        raise ValueError
                    v, p = sleb(wasm, p + 1)
                    values.append(v)
                if p != pos:
                    raise ValueError
            except (ValueError, IndexError):
                continue
            seg, q = uleb(wasm, pos + 2)
            dest, src, size = values
            if seg < len(passive) and wasm[q] == 0 and src == 0 and size == len(passive[seg]):
                placed.append((dest & 0xFFFFFFFF, passive[seg]))
            break
        pos += 2


def cut_net(image, sha, size):
    """Finds the net by its header (version + hash from the expected file) and its sha256."""
    start = 0
    # File versions: Stockfish 15.1-18, Stockfish 12-13, Stockfish 19.
    versions = (b"\x20\x2f\xf3\x7a", b"\x16\x2f\xf3\x7a", b"\xfa\x8a\x44\x6a")
    while True:
        candidates = [a for a in (image.find(v, start) for v in versions) if a >= 0]
        if not candidates:
            return None
        at = min(candidates)
        blob = image[at:at + size]
        if hashlib.sha256(blob).hexdigest() == sha:
            return blob
        start = at + 1


def embedded_sfnn(image):
    """The first SFNNv5+ net in `image`, for raw arrays sized from the L1 its hash implies."""
    hashes = {sfnn_hash(l): l for l in range(64, 16385, 64)}
    at = -1
    while True:
        # The version's bytes also occur in code: a header is where a known hash follows.
        at = image.find(b"\x20\x2f\xf3\x7a", at + 1)
        if at < 0:
            return None
        l1 = hashes.get(struct.unpack_from("<I", image, at + 4)[0])
        if l1 is not None:
            break
    desc = struct.unpack_from("<I", image, at + 8)[0]
    pos = at + 12 + desc + 4
    for count, size in ((l1, 2), (22528 * l1, 2), (22528 * 8, 4)):
        if image[pos:pos + 17] == b"COMPRESSED_LEB128":
            pos += 21 + struct.unpack_from("<I", image, pos + 17)[0]
        else:
            pos += count * size
    stack = 4 + 16 * 4 + 16 * l1 + 32 * 4 + 32 * 32 + 4 + 32
    return image[at:pos + 8 * stack]


def sfnn_hash(l1):
    """Stockfish's file hash of an SFNNv5+ net of width l1 (see nnue-format/src/hash.rs)."""
    mask = 0xFFFFFFFF

    def affine(prev, outputs):
        h = (0xCC03DAE4 + outputs) & mask
        return h ^ (prev >> 1) ^ ((prev << 31) & mask)

    h = 0xEC42E90D ^ (l1 * 2)
    h = affine(h, 16)
    h = (0x538D24C7 + h) & mask
    h = affine(h, 32)
    h = (0x538D24C7 + h) & mask
    h = affine(h, 1)
    return (0x7F234CB8 ^ (l1 * 2)) ^ h


def deb_extract(package, tmp):
    try:
        run(["apt-get", "download", package], tmp)
    except RuntimeError:
        run(["apt-get", "update"], tmp)
        run(["apt-get", "download", package], tmp)
    deb = glob.glob(os.path.join(tmp, "*.deb"))[0]
    run(["dpkg-deb", "-x", deb, os.path.join(tmp, "root")], tmp)
    return os.path.join(tmp, "root")


def npm_pack(spec, tmp):
    run(["npm", "pack", "--silent", spec], tmp)
    tgz = glob.glob(os.path.join(tmp, "*.tgz"))
    if not tgz:
        raise RuntimeError("npm pack %s produced no tarball" % spec)
    with tarfile.open(tgz[0]) as tar:
        tar.extractall(tmp, filter="data")
    return os.path.join(tmp, "package")


def fetch(name, cache):
    sha, size, kind, spec, files, _optional = NETS[name]
    if spec not in cache:
        tmp = tempfile.mkdtemp(prefix="nnue-fetch-", dir=cache["tmp"])
        cache[spec] = deb_extract(spec, tmp) if kind == "deb-embedded" else npm_pack(spec, tmp)
    package = cache[spec]
    if kind == "deb-embedded":
        data = embedded_sfnn(open(os.path.join(package, files[0]), "rb").read())
        if data is None or hashlib.sha256(data).hexdigest() != sha:
            raise RuntimeError("%s: not found in %s's %s" % (name, spec, files[0]))
        return data
    if kind == "npm-file":
        data = open(os.path.join(package, files[0]), "rb").read()
        digest = hashlib.sha256(data).hexdigest()
        if not digest.startswith(name[3:15]) or (sha and digest != sha):
            raise RuntimeError("%s: sha256 %s does not match its name" % (name, digest))
        return data
    wasm = b"".join(open(os.path.join(package, f), "rb").read() for f in files)
    data = cut_net(memory_image(wasm), sha, size)
    if data is None:
        raise RuntimeError("%s: no %d-byte net with sha256 %s in %s" % (name, size, sha, spec))
    return data


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--list", action="store_true", help="list the known nets")
    parser.add_argument("names", nargs="*", help="nets to fetch (default: all)")
    args = parser.parse_args()
    if args.list:
        for name, (sha, size, _, spec, _, optional) in NETS.items():
            print("%s  %s  %s%s" % (name, spec, size or "?", "  (optional)" if optional else ""))
        return 0
    names = args.names or list(NETS)
    unknown = [n for n in names if n not in NETS]
    if unknown:
        print("unknown nets: %s (see --list)" % ", ".join(unknown), file=sys.stderr)
        return 2
    os.makedirs(DEST, exist_ok=True)
    failed = []
    with tempfile.TemporaryDirectory(prefix="nnue-fetch-") as tmp:
        cache = {"tmp": tmp}
        for name in names:
            target = os.path.join(DEST, name)
            sha = NETS[name][0]
            if os.path.exists(target):
                digest = hashlib.sha256(open(target, "rb").read()).hexdigest()
                if (sha and digest == sha) or (not sha and digest.startswith(name[3:15])):
                    print("%s: present" % name)
                    continue
            try:
                data = fetch(name, cache)
            except (RuntimeError, OSError) as e:
                print("%s: FAILED: %s" % (name, e), file=sys.stderr)
                failed.append(name)
                continue
            with open(target + ".part", "wb") as f:
                f.write(data)
            os.replace(target + ".part", target)
            print("%s: fetched (%d bytes)" % (name, len(data)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
