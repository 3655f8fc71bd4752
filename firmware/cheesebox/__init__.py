"""The Cheese Box firmware: game logic for Cheese Master and Cheesonomics.

Everything in this package except the port modules (port_rp2*) is pure: no
hardware imports, clock and random source injected, so CPython, the unix
MicroPython and the Pico run the same code.
"""
