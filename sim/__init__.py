"""The Cheese Box simulator: the firmware's own modules on a simulated port.

rng.py, simport.py and scenario.py are pure and run on MicroPython too (the
core tests drive scenarios there); wire.py (Adafruit NeoPixel capture),
view.py (Rich terminal) and __main__.py are CPython only.
"""
