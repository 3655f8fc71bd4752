"""Lamps, a third game for the tests: see game.py."""
