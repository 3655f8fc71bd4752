"""A seeded random source (xorshift32) for the simulator and tests.

Same numbers on CPython and MicroPython, so a scenario plays out identically
on both interpreters. Offers getrandbits(n) like MicroPython's random module.
"""


class SeededRandom:
    def __init__(self, seed=1):
        self.state = (seed * 2654435761 + 1) & 0xFFFFFFFF or 1

    def _next(self):
        x = self.state
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.state = x
        return x

    def getrandbits(self, n):
        if n <= 0:
            return 0
        if n <= 32:
            return self._next() >> (32 - n)
        r = 0
        while n > 0:
            take = 32 if n > 32 else n
            r = (r << take) | (self._next() >> (32 - take))
            n -= take
        return r
