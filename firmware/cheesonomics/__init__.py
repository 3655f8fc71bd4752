"""Cheesonomics, the box's second game, as the box plays it (companion mode):
the game the box hosts (game.py), the market and the bank it keeps (bank.py),
a turn's keyed entry (entry.py), what the bank shares with the rules engine
(scoring.py) and the card list (cards.json, checked by cardfile.py). The rules
engine, the bots and the turn driver are host-side, in sim/cheesonomics/.
Nothing here touches hardware or imports the Cheese Master game."""
