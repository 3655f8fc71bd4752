"""Cheese Master seen from the host: what the simulator, the scenarios and
the log tools show of it (host.py). The game itself is firmware/cheesemaster."""
