"""What a game module gives the box (box.py), and a check of it.

The box owns the hardware-facing parts every game needs; a game owns its
flow and its drawing, and reaches the box only through these box members:
display, tunes, log, now, animate, redraw (set True: the tracks need
drawing), board, rng, joined, players(), plate_at(s, t_us), plates_from(t_us),
save(state) (None: nothing to resume), back_to_join(), problem(what).

Module level
    NAME                   -- the game's name (games.py, the log, the console)
    MIN_PLAYERS, MAX_PLAYERS
    picked(box)            -- the table is offered the game (also at power-up):
                              read its own files now (box.read_file), say a
                              bad one with box.problem(what, code)
    fits(board)            -- "" or why this board cannot host the game
    draw_join(box, k)      -- the dice while k players have joined
    unpack(box, d)         -- a saved game (save.py's dict) checked; raises
                              KeyError, ValueError, TypeError or IndexError
                              saying why (the box tells the table, drops it)
    render_saved(box, saved) -- the tracks while the box offers it
    resume(box, saved)     -- the game object, resumed
    new(box, players)      -- the game object for these stations
The game object
    state, state_name(), rolling (a quiet moment to collect garbage),
    in_game() (penalties and presses count), status(fields) (console),
    start(), on_buzz(s, t_us), on_roll(t_us), on_long_roll(t_us),
    on_gesture(s) (ROLL held, then s's buzzer), on_answer(s, value),
    timers(now), timer_wake(now) (ms, -1 none), look(now) (an int that
    changes when the tracks must be redrawn by time alone),
    draw_tracks(now, look), render_dice()
"""

MODULE = ("NAME", "MIN_PLAYERS", "MAX_PLAYERS", "picked", "fits", "draw_join", "unpack", "render_saved",
          "resume", "new")
OBJECT = ("state", "state_name", "rolling", "in_game", "status", "start", "on_buzz", "on_roll",
          "on_long_roll", "on_gesture", "on_answer", "timers", "timer_wake", "look", "draw_tracks",
          "render_dice")


def check_module(mod):
    """Names a game module is missing (empty: complete)."""
    return [m for m in MODULE if not hasattr(mod, m)]


def check_game(g):
    """Names a game object is missing (empty: complete)."""
    return [m for m in OBJECT if not hasattr(g, m)]
