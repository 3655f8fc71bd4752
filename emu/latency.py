"""Buzzer pin edge to wheel LED on the wire, measured on the emulated Pico.

For a press of station s at pin time T, the latency is the time at which the
last bit of s's wheel LED leaves the Pico in the first track-chain frame that
starts after T and shows that LED lit: what a player sees, to the nanosecond.
"""
from cheesebox.board import TRACK_PIXELS


def wheel_pixel(board, s):
    ci, start = board.tracks[s]
    i = 0 if board.track_reversed else TRACK_PIXELS - 1
    return ci, start + i


def wheel_latency_ns(table, s, press_ns, since=0):
    """ns from press_ns until station s's wheel LED is lit on the wire (None
    if no such frame). since: frame index to start looking from."""
    ci, px = wheel_pixel(table.board, s)
    _, frames = table.frames(ci, since=since, pixels=[px])
    for f in frames:
        if f["start"] < press_ns:
            continue
        b = bytes.fromhex(f["hex"])[3 * px:3 * px + 3]
        if any(b):
            return f["pixel_ends"][0] - press_ns
    return None
