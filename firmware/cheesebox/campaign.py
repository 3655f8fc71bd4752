"""King of the Cheese Mountain: a series of games with growing dice.

Counts game wins per station; when the table ends the campaign, the leader
is king, and players tied for most wins play again among themselves.
"""
from cheesebox.dice import campaign_dice, draw_campaign_yellows

MAX_STATIONS = 8


class Campaign:
    def __init__(self, rng):
        self.wins = bytearray(MAX_STATIONS)
        self.game = 0                  # games started
        self.yellows = draw_campaign_yellows(rng)
        self.tiebreak = []             # stations in a tie-break game ([]: none)
        self.king = -1

    def next_game(self):
        """Dice (die numbers) of the next game."""
        self.game += 1
        return campaign_dice(self.game, self.yellows[0], self.yellows[1])

    def record(self, winner):
        if winner >= 0:
            self.wins[winner] += 1

    def leaders(self, stations):
        """Stations among `stations` with the most wins."""
        best = 0
        for s in stations:
            if self.wins[s] > best:
                best = self.wins[s]
        return [s for s in stations if self.wins[s] == best]
