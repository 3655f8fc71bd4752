"""The table's settings at joining (LEDs too dim on USB power, warnings too
quiet on a piezo): hold ROLL 0.3 s, then buzzer 1 steps the LED brightness,
buzzer 2 the volume; both kept across power-ups in settings.json, a bad
file said on the log and nothing lost."""
import json

from cheesebox import sound
from cheesebox.board import read_board
from sim.scenario import Sim


def _sim(log):
    return Sim(read_board("boards/pico-4p.json"), seed=3, log=log.append)


def _tones(sim):
    """Every frequency the port was asked for from now on (tone() spy)."""
    heard = []
    real = sim.port.tone

    def tone(f):
        heard.append(f)
        real(f)
    sim.port.tone = tone
    return heard


def test_buzzer_2_gesture_at_joining_steps_the_volume_down_to_off_and_it_survives_a_power_cut():
    lines = []
    sim = _sim(lines)
    sim.penalty(1)                              # ROLL held 0.4 s, then buzzer 2
    assert sim.box.tunes.volume == 1
    sim.penalty(1)
    assert sim.box.tunes.volume == 0
    assert json.loads(sim.fs.files["settings.json"]) == {"brightness": 150, "volume": 0}
    sim.boot()                                  # power cut: the box comes back silent
    assert sim.box.tunes.volume == 0
    heard = _tones(sim)
    sim.press(0)                                # a player joins: no tune plays
    assert sim.box.joined[0] and not any(heard)
    sim.penalty(1)                              # and back to loud
    heard = _tones(sim)
    sim.press(1)
    assert sim.box.tunes.volume == 2 and sound.JOIN[0] in heard
    assert [json.loads(ln)["volume"] for ln in lines if '"settings"' in ln] == [1, 0, 2]


def test_the_gesture_joins_nobody_and_buzzer_1_steps_the_brightness():
    lines = []
    sim = _sim(lines)
    sim.penalty(0)
    assert not any(sim.box.joined)
    assert json.loads(sim.fs.files["settings.json"])["brightness"] == 250
    sim.boot()
    for _ in range(2):
        sim.penalty(0)
    assert json.loads(sim.fs.files["settings.json"])["brightness"] == 40    # 400, then round
    assert [json.loads(ln)["brightness"] for ln in lines if '"settings"' in ln] == [250, 400, 40]


def test_a_bad_settings_file_is_said_and_the_box_plays_on():
    lines = []
    sim = _sim(lines)
    f = sim.fs.open("settings.json", "w")
    f.write('{"brightness": 7')
    f.close()
    sim.boot()
    assert sim.box.tunes.volume == 2
    assert any('"error"' in ln and "settings.json" in ln for ln in lines)
    sim.press(0)
    assert sim.box.joined[0]


def _notes(tune):
    return [tune[i] for i in range(0, len(tune), 2) if tune[i]]


def test_warnings_sound_at_the_piezos_resonance_and_the_happy_tunes_do_not():
    """The warnings were 150-200 Hz, where a 2-4 kHz piezo is quietest."""
    from cheesemaster import flow as cm
    warnings = sound.WARNINGS + cm.WARNINGS          # the box's, and Cheese Master's own
    for tune in warnings:
        assert all(2000 <= f <= 4000 for f in _notes(tune)), tune
    assert len(set(warnings)) == 3
    assert len(set(tuple(_notes(t)) for t in warnings)) == 3      # each its own pitches
    happy = (sound.JOIN, sound.MENU, cm.TUNE_REVEAL, sound.GRAB, sound.WIN, cm.TUNE_KING, cm.TUNE_REPLAY)
    assert all(f < 2000 for t in happy for f in _notes(t))
