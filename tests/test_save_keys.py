"""Answer keys and dials while the box saves, on the simulator.

A refused grab, a penalty or a costly false start is saved at once, and a
save holds the loop (on the Pico ~80 ms, over 400 ms at the flash's
slowest). The keys are still read between the save's writes, so a key
pressed 10 ms before a buzzer that comes during the save still counts for
that grab (the rulings). The simulator's flash takes the Pico's time here
(Sim(flash=...)), and its keys are read where the Pico reads them.

A dial grab is locked once the dials have been read enough times after the
press, however long that takes in ms: a long step cannot lock the plate
from before the turn.
"""
import json

from cheesebox.board import read_board
from sim.scenario import Sim, run_script

MS = 1000


def _events(lines):
    return [json.loads(x) for x in lines]


def _grab_time(times):
    """pico-8p, 2 players, the faces up (the grab), the flash at `times`."""
    lines = []
    sim = Sim(read_board("boards/pico-8p.json"), seed=5, log=lines.append, flash=times)
    run_script(sim, "players 2\ndice yellow\nrollbutton\nwait 1700\n")
    assert sim.box.state_name() == "grab"
    return sim, lines


def _after_the_erase(sim, then):
    """Call then(t_us) as the next save's sector erase ends (the flash's
    time spent); returns a list that gets the time of every flash operation's end."""
    fs = sim.fs
    spend = fs.spend
    ends = []

    def timed(us):
        spend(us)
        ends.append(sim.port.t)
        if us >= fs.erase_us and len(ends) and then is not None:
            then(sim.port.t)
    fs.spend = timed
    return ends


def _key_then_buzzer(sim, lead_ms):
    def fingers(t):
        if sim.port.answer_seq[1] or sim.port.keys:
            return                      # once
        sim.port.place(1, 3, t + 1 * MS)
        sim.port.schedule(t + (1 + lead_ms) * MS, 1, 1)
        sim.port.schedule(t + (61 + lead_ms) * MS, 1, 0)
    return fingers


def test_a_key_10_ms_before_a_buzzer_during_a_refused_grabs_save_counts():
    """P1 grabs with no key: refused, -1, saved at once (the flash at its
    slowest: a 400 ms erase, then 3 ms pages). Just after the erase P2
    presses key 3, and 10 ms later the buzzer, while the save still writes:
    a read between its writes stamps the key before the buzzer, so P2's
    grab takes the plate (it was refused, -1, when the keys waited for the
    save to end)."""
    sim, lines = _grab_time("max")
    ends = _after_the_erase(sim, _key_then_buzzer(sim, 10))
    t = sim.port.t
    sim.port.schedule(t, 0, 1)                      # P1: refused, saved
    sim.port.schedule(t + 60 * MS, 0, 0)
    sim.wait(1500)
    ev = _events(lines)
    refused = [e["p"] for e in ev if e["ev"] == "refused"]
    grabs = [(e["p"], e["plate"]) for e in ev if e["ev"] == "grab"]
    assert refused == ["P1"], ev[-8:]
    assert grabs == [("P2", 3)], ev[-8:]
    # the buzzer came during the save: its last write ended after it
    press = [e for e in ev if e["ev"] == "press" and e["p"] == "P2"][0]
    erased = next(i for i in range(1, len(ends)) if ends[i] - ends[i - 1] >= 400 * MS)
    k = erased
    while k + 1 < len(ends) and ends[k + 1] - ends[k] < 50 * MS:
        k += 1
    save_end = ends[k]
    buzz = ends[erased] + 1 * MS + 10 * MS
    assert save_end > buzz, (save_end - buzz)
    assert (press["t_us"] - (buzz & 0x3FFFFFFF)) & 0x3FFFFFFF < 100     # the sampler's stamp


def test_the_key_read_in_the_save_is_stamped_between_key_and_buzzer():
    """The key's stamp is a read between the save's writes: after the key,
    before the buzzer 10 ms later (the contract: reads at most 10 ms apart)."""
    sim, _ = _grab_time("max")
    stamps = []

    def fingers(t):
        if not stamps:
            stamps.append(t + 1 * MS)
            sim.port.place(1, 3, t + 1 * MS)
    _after_the_erase(sim, fingers)
    t = sim.port.t
    sim.port.schedule(t, 0, 1)
    sim.port.schedule(t + 60 * MS, 0, 0)
    sim.wait(1000)
    assert sim.port.answer_seq[1] == 1
    key = stamps[0] & 0x3FFFFFFF
    assert 0 <= (sim.port.answer_us[1] - key) & 0x3FFFFFFF < 10 * MS


def test_a_timed_save_holds_the_loop_as_long_as_the_picos():
    """The flash model: a refused grab's save at typical times holds the loop
    about as long as the Pico's (one erase, 45 ms, and a few pages), at the
    maximum times over 400 ms."""
    for times, lo, hi in (("typical", 45, 60), ("max", 400, 430)):
        sim, lines = _grab_time(times)
        t = sim.port.t
        sim.port.schedule(t, 0, 1)
        sim.port.schedule(t + 60 * MS, 0, 0)
        sim.wait(1)
        steps = sim.steps
        sim.wait(10)                    # the press counts, the grab is refused, saved
        assert "refused" in [e["ev"] for e in _events(lines)]
        held = (sim.port.t - t) // MS
        assert sim.steps > steps
        assert lo <= held <= hi + 11, (times, held)
