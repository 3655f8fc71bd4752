"""Cheese Master, as a game the box hosts: its entry module (game.py says
what the box calls). Choose dice, roll, grab, judge, score, game over; the
King of the Cheese Mountain campaign.

The box imports this module at power-up, for the joining screen: so it holds
only what joining needs (the picture, the dice file's check, the saved
game's check). The game itself, from the dice menu on, is flow.py, loaded
when the table starts a game or resumes one: with the rounds' modules it
imports it was ~100 ms of the Pico's boot.
"""
from micropython import const

from cheesebox import forget, run_once
from cheesebox.board import N_DICE

NAME = "cheese master"
ICONS = "cheesemaster.icons"    # its die faces, the wheel and the replay sign
MIN_PLAYERS = const(2)
MAX_PLAYERS = const(8)
DICE_FILE = "dice.json"     # the table's own dice, on the box's flash (docs/dice-file.md)


def picked(box):
    """The table is offered Cheese Master (also at power-up): its dice file,
    dice.json on the flash, is read and checked now (dicefile.py, loaded for
    this and dropped; a bad file is said and the default dice play). With no
    dice file nothing is loaded: the default dice are made when a game
    starts (flow.CheeseMaster), not at power-up."""
    box.keep["dice"] = None             # the default dice
    try:
        text = box.read_file(DICE_FILE)
    except Exception as e:              # unreadable: dicefile says why
        text = e
    if text is not None:
        box.keep["dice"] = run_once("cheesemaster.dicefile", "table_dice", box, DICE_FILE, text)


def fits(board):
    """Why this board cannot host the game, or "" (every board can)."""
    return ""


def draw_join(box, joined):
    """The joining screen: one cheese wheel a player, minus one."""
    d = box.display
    wheels = joined - 1
    for i in range(N_DICE):
        d.die(i, "wheel" if i < wheels else "blank")


def new(box, players):
    """The game for these stations (flow.py loaded now, and kept: the box's
    resident game)."""
    from cheesemaster.flow import CheeseMaster
    return CheeseMaster(box, players)


def unpack(box, d):
    """A saved game checked (resume.py, loaded for this and dropped); raises
    saying why it is unusable."""
    from cheesemaster import resume
    try:
        return resume.unpack(box, d)
    finally:
        del resume
        forget("cheesemaster.resume")


def render_saved(box, saved):
    """The saved game's points on the tracks, while the box offers to resume."""
    from cheesemaster.flow import render_saved
    render_saved(box, saved)


def resume(box, saved):
    """The saved game again (flow.py: between rounds, or its final screen)."""
    from cheesemaster.flow import resume
    return resume(box, saved)
