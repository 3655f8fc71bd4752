"""The table's settings: LED brightness and piezo volume, set at joining
(hold ROLL 0.3 s, then buzzer 1 steps the brightness, buzzer 2 the volume)
and kept across power-ups in settings.json on the box's flash.

Loaded for the gesture and at start-up, then dropped (run_once). A missing
or bad file is the board's brightness and full volume; a bad one is said on
the log and rewritten at the next gesture, nothing else is lost.
"""
import json

from cheesebox import sound

FILE = "settings.json"
_TMP = "settings.tmp"
BRIGHTNESS = (40, 80, 150, 250, 400)      # per mille; the power limit still caps each


def read(box):
    """(brightness per mille, volume 0-2) from the file, else the board's."""
    light = int(box.board.brightness * 1000)
    volume = sound.VOLUMES - 1
    if box.store is None:
        return light, volume
    try:
        text = box.store.read(FILE)
        if text is None:
            return light, volume
        d = json.loads(text)
        b, v = d["brightness"], d["volume"]
        if b not in BRIGHTNESS or v not in range(sound.VOLUMES):
            raise ValueError("brightness %r or volume %r out of range" % (b, v))
        return b, v
    except Exception as e:              # unreadable, not JSON, wrong fields
        box.log("error", {"what": "%s: %s; using the board's brightness and full volume" % (FILE, e)})
        return light, volume


def _apply(box, light, volume):
    set_b = getattr(box.port, "set_brightness", None)
    if set_b is not None:
        set_b(light)
        box.port.commit()               # every chain again now, unchanged frames too
    box.tunes.set_volume(volume)
    box.redraw = True


def apply(box):
    """At start-up: the saved settings on the LEDs and the piezo."""
    light, volume = read(box)
    _apply(box, light, volume)


def _write(box, light, volume):
    store = box.store
    if store is None:
        return
    try:
        f = store.open(_TMP, "w")
        try:
            f.write(json.dumps({"brightness": light, "volume": volume}))
        finally:
            f.close()
        store.fs.rename(_TMP, FILE)
    except OSError as e:                # flash full or failing: the setting holds until power-off
        box.log("error", {"what": "cannot save %s: %s" % (FILE, e)})


def step(box, which):
    """The gesture at joining: buzzer 1 (which 0) the next brightness,
    buzzer 2 (which 1) the next volume (loud, quiet, off, loud...)."""
    light, volume = read(box)
    if which == 0:
        i = 0
        while i < len(BRIGHTNESS) and BRIGHTNESS[i] <= light:
            i += 1
        light = BRIGHTNESS[i % len(BRIGHTNESS)]
    else:
        volume = (volume - 1) % sound.VOLUMES
    _apply(box, light, volume)
    _write(box, light, volume)
    box.log("settings", {"brightness": light, "volume": volume})
    box.tunes.play(sound.MENU, box.now)
