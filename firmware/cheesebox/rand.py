"""Helpers over the injected random source.

The source is anything with getrandbits(n): MicroPython's `random` module on
the Pico, a seeded generator in tests, so every roll and tie-break replays.
"""


def randbelow(rng, n):
    """Uniform int in [0, n) by rejection (no modulo bias)."""
    if n <= 1:
        return 0
    bits = 1
    while (1 << bits) < n:
        bits += 1
    while True:
        r = rng.getrandbits(bits)
        if r < n:
            return r


def shuffle(rng, seq, start, end):
    """Fisher-Yates shuffle of seq[start:end] in place, allocation-free."""
    i = end - 1
    while i > start:
        j = start + randbelow(rng, i - start + 1)
        seq[i], seq[j] = seq[j], seq[i]
        i -= 1
