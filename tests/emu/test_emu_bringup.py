"""The bring-up rehearsed on the emulated Pico: `make emu` serves the box's
USB serial on a localhost port and prints it as a socket:// URL, and the host
tools a builder uses on a plugged-in Pico work through that URL, while the
buttons are pressed on the emulated pins (here: by the harness, as the view's
keys do)."""
import io
import json
import os
import signal
import subprocess
import sys
import time


import ctrl_c

from emu.table import EmuTable
from emu.view import EmuView, serve_usb

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _emulated(t, ms):
    """Wait (wall clock) until ms of emulated time have passed: the emulator
    runs freely, at real time at most, slower on a loaded machine."""
    end = t.pico.call("hello")["nanos"] + ms * 1000000
    while t.pico.call("hello")["nanos"] < end:
        time.sleep(0.02)


def _press(t, s, hold_ms=150):
    pin = t.pin_of(s)
    t.pico.drive(pin, 0)
    _emulated(t, hold_ms)
    t.pico.drive(pin, None)
    _emulated(t, 300)


def test_make_emu_prints_the_usb_serial_and_the_host_tools_reach_the_box_there(image):
    with EmuTable("pico-4p", flash=image("pico-4p")) as t:
        t.boot()
        view = EmuView(t)
        said = io.StringIO()
        url = serve_usb(t, view, out=said)
        assert url.startswith("socket://127.0.0.1:")
        assert url in said.getvalue() and "make monitor PORT=%s" % url in said.getvalue()
        assert any(url in str(line) for line in view.status())      # on the view's screen too
        # the event log, followed live through the URL, as on a Pico's /dev/ttyACM0
        log = ctrl_c.popen([sys.executable, os.path.join(REPO, "host_tools", "table", "eventlog.py"),
                           "--port", url, "--json"], cwd=REPO, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
        try:
            assert "eventlog: reading %s" % url in log.stderr.readline()    # connected
            _emulated(t, 1000)              # the joining screen is up
            _press(t, 0)
            _press(t, 1)
            _emulated(t, 500)
        finally:
            log.send_signal(signal.SIGINT)
            out, err = log.communicate(timeout=120)   # a loaded CI machine
        summary = json.loads(out)
        assert summary["events"] >= 2 and summary["malformed"] == 0, (out, err)
        t._take()
        joins = [e for e in t.events if e["ev"] == "join"]
        assert [e["p"] for e in joins] == ["P1", "P2"]
        # mpremote through the same URL: the REPL of the emulated Pico (Ctrl-C stops the game)
        p = subprocess.run([sys.executable, "-m", "mpremote", "connect", url, "exec",
                            "import sys; print(sys.implementation._machine)"],
                           cwd=REPO, capture_output=True, text=True, timeout=60)
        assert p.returncode == 0 and "RP2040" in p.stdout, p.stdout + p.stderr
