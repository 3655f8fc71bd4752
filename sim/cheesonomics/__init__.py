"""Cheesonomics in the simulator: a whole game in the terminal against bots
(play.py, Rich), scenario scripts (scenario.py, docs/cheesonomics-scenarios.md)
and arrange.py, which lays out a table for tests and scripts.

arrange.py and scenario.py are pure and run on MicroPython too; play.py and
__main__.py are CPython only."""
