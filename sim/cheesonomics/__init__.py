"""Cheesonomics in the simulator: the rules engine (engine.py), bots (bot.py)
and the turn driver (driver.py); a whole game in the terminal against bots
(cli.py, `python -m sim --game cheesonomics`, and play.py, Rich); scenario
scripts (scenario.py, docs/cheesonomics-scenarios.md; boxscript.py for the
box's companion mode) and arrange.py, which lays out a table for tests and
scripts.

engine.py, bot.py, driver.py, arrange.py and scenario.py are pure and run on
MicroPython too; play.py and cli.py are CPython only."""
