"""FNV-1a 64 over numbers written as decimal text joined by commas.

The Rust side (benches/solve.rs, RETROGATE_BENCH=checksums) prints the same checksum, so the two
can be compared line by line. Not part of any timed section.
"""


def fnv_joined(numbers):
    h = 0xCBF29CE484222325
    data = ",".join(map(str, numbers)).encode()
    for byte in data:
        h ^= byte
        h = (h * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h
