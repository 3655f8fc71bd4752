"""Cheesonomics, the box's second game: a pure rules engine (engine.py), its
card list (cards.json, checked by cardfile.py), a bot (bot.py) and the turn
driver that asks players or bots for each choice (driver.py). Nothing here
touches hardware or imports the Cheese Master game."""
