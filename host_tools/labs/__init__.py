"""The labs: odds of the dice, Cheesonomics balance by bot games, the printed reference card."""
