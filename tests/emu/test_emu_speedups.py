"""The harness's shortcuts change nothing the box does: the GPIO input word
kept between the writes that change it (harness.mjs _cacheGpioInputs) gives
the same run as working it out at every read (EMU_NO_GPIO_CACHE=1),
instruction for instruction, on both chips: the same emulated time, the
same event log, the same LED frames."""
import hashlib
import json
import os

import pytest

from emu.table import EmuTable


def _run(board, img, monkeypatch, cache):
    if cache:
        monkeypatch.delenv("EMU_NO_GPIO_CACHE", raising=False)
    else:
        monkeypatch.setenv("EMU_NO_GPIO_CACHE", "1")
    with EmuTable(board, flash=img) as t:
        t.boot()
        t.press(0)
        t.press(1)
        t.press("roll")
        t.press("roll")
        t.wait_event("game", 2000)
        n = len(t.events)
        t.press("roll")
        t.wait_event("faces", 3000, since=n)
        t.place(0, 2)
        t.run(30)
        t.press(0)
        t.run(300)
        st = t.pico.stats()
        frames = [hashlib.sha256(json.dumps(t.frames(ci)[1]).encode()).hexdigest()
                  for ci in range(len(t.board.chains))]
        return st["instructions"], st["nanos"], [json.dumps(e, sort_keys=True) for e in t.events], frames


@pytest.mark.parametrize("board", ["pico-8p", "pico2-8p"])
def test_the_gpio_input_cache_changes_no_instruction(board, image, monkeypatch):
    img = image(board)
    fast = _run(board, img, monkeypatch, True)
    slow = _run(board, img, monkeypatch, False)
    assert os.environ.get("EMU_NO_GPIO_CACHE") == "1"
    assert fast[0] == slow[0] and fast[1] == slow[1], (fast[:2], slow[:2])
    assert fast[2] == slow[2] and any('"grab"' in e for e in fast[2])
    assert fast[3] == slow[3]
