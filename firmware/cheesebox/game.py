"""What a game module gives the box (box.py), what the box gives a game,
and a check of both.

The box owns the hardware-facing parts every game needs; a game owns its
flow and its drawing, and reaches the box only through the members in BOX
(tests/test_architecture.py fails on any other):

    display                -- the LED buffers (display.py): die(), score(), wheel()
    tunes                  -- tunes.play(TUNE, now) (sound.py)
    log                    -- log(event, fields): one line of the event log
    now                    -- ms (ticks_ms) of this step
    ticks_us()             -- the port's microsecond clock
    animate                -- False only in a speed benchmark: draw nothing
    redraw                 -- set True: the tracks need drawing
    show_now()             -- put the LED buffers on the wires now, mid-step
    show_tracks()          -- draw the tracks and put them out now (before slow drawing)
    board, n, dials        -- the board (board.py), its stations, dial plates?
    rng                    -- the random source (rand.py draws from it)
    joined, players()      -- who joined (bytearray of 8), their stations
    games                  -- games started since power-up (a game adds one)
    keep                   -- a dict a game keeps its settings in between tables
    options                -- the host's settings (house rules, a scripted
                              roller): each game documents the keys it reads
    plate_at(s, t_us), plates_from(t_us)
                           -- electronic plates: a station's value at a press
                              (now: box.ticks_us()), and "only keys from now
                              on count"
    plates_in(t_us)        -- every placement from before t_us has reached the
                              box (a dial's is reported after several reads)
    read_file(name)        -- a game's own data file on the flash, or None
    save(state, final=False) -- save the game's part (a dict; None: nothing
                              to resume); final: on the final screen, which a
                              power cut or watchdog reset then boots straight
                              back into; the box adds and checks the envelope
                              (board, joined, games, final)
    back_to_join()         -- the game is over: the table joins again
    problem(what, code=0)  -- say something is wrong (log, cross on the dice)

Module level
    NAME                   -- the game's name (games.py, the log, the console)
    ICONS                  -- the module of its own icons (cheesebox/icons.py's
                              form: PALETTE of its own colours, ICONS), or None;
                              the display draws them by name beside the shell's
                              (digits, question, crown, cross, check, plus, stop,
                              blank: names it does not reuse), baked for the
                              board on the host (iconset.py)
    MIN_PLAYERS, MAX_PLAYERS
    picked(box)            -- the table is offered the game (also at power-up):
                              read its own files now (box.read_file), say a
                              bad one with box.problem(what, code)
    fits(board)            -- "" or why this board cannot host the game
    draw_join(box, k)      -- the dice while k players have joined
    unpack(box, d)         -- the game's part of a saved game checked; raises
                              KeyError, ValueError, TypeError or IndexError
                              saying why (the box tells the table, drops it)
    render_saved(box, saved) -- the tracks while the box offers it
    resume(box, saved)     -- the game object, resumed
    new(box, players)      -- the game object for these stations
The shell's modules a game may import (SHELL; tests/test_architecture.py
fails on any other): board (N_DICE), display (colours, STATION), events
(name), font (rows_for), jsonfile (whole, parse), rand (randbelow,
shuffle), sound (the tunes and the TunePlayer's words), ticks; and from
cheesebox itself run_once and forget (code loaded now and then, and dropped).
The game object
    state, state_name(), rolling (a quiet moment to collect garbage),
    in_game() (penalties and presses count), status(fields) (console),
    in_progress() (a long ROLL asks "stop?": the box's one stop gesture),
    paused(ms) ("stop?" was answered no after ms: move every timer on by ms,
    so the game goes on exactly where it was),
    start(), on_buzz(s, t_us), on_roll(t_us),
    on_long_roll(t_us) (only while not in progress: the final screen, menus),
    on_gesture(s) (ROLL held, then s's buzzer), on_answer(s, value),
    timers(now), timer_wake(now) (ms, -1 none), look(now) (an int that
    changes when the tracks must be redrawn by time alone),
    draw_tracks(now, look), render_dice()
"""

BOX = ("display", "tunes", "log", "now", "ticks_us", "animate", "redraw", "show_now", "show_tracks",
       "board", "n", "dials", "rng", "joined", "players", "games", "keep", "options", "plate_at",
       "plates_from", "plates_in", "read_file", "save", "back_to_join", "problem")
MODULE = ("NAME", "ICONS", "MIN_PLAYERS", "MAX_PLAYERS", "picked", "fits", "draw_join", "unpack", "render_saved",
          "resume", "new")
OBJECT = ("state", "state_name", "rolling", "in_game", "in_progress", "paused", "status", "start",
          "on_buzz", "on_roll", "on_long_roll", "on_gesture", "on_answer", "timers", "timer_wake",
          "look", "draw_tracks", "render_dice")

SHELL = ("board", "display", "events", "font", "jsonfile", "rand", "sound", "ticks")
SHELL_FUNCTIONS = ("forget", "run_once")


def check_module(mod):
    """Names a game module is missing (empty: complete)."""
    return [m for m in MODULE if not hasattr(mod, m)]


def check_game(g):
    """Names a game object is missing (empty: complete)."""
    return [m for m in OBJECT if not hasattr(g, m)]
