"""King of the Cheese Mountain: a series of games with growing dice.

Counts game wins per station; when the table ends the campaign, the leader
is king, and players tied for most wins play again among themselves.
"""
from cheesemaster.dice import campaign_dice, draw_campaign_yellows

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

    def snapshot(self):
        return {"wins": list(self.wins), "game": self.game, "yellows": list(self.yellows),
                "tiebreak": list(self.tiebreak), "king": self.king}

    def restore(self, d):
        for s in range(MAX_STATIONS):
            self.wins[s] = int(d["wins"][s])
        self.game = int(d["game"])
        self.yellows = (int(d["yellows"][0]), int(d["yellows"][1]))
        self.tiebreak = [int(s) for s in d["tiebreak"]]
        self.king = int(d["king"])
