"""The web page in a real browser: Debian's Chromium driven by selenium.

One Chromium per test module (it takes a second or two to start); the page
is built once per test process (`make web-build` into a temporary folder)
and served by web/serve.py on a free port of localhost, with the headers the
page is served with by `make web`. Without Chromium, its chromedriver or
selenium every test here skips with one line naming the command
(make browser-deps installs them as root: make test runs it).

Inputs reach the page only as a table's would: synthetic touches through the
DevTools protocol (Input.dispatchTouchEvent, several fingers at once), and
keys. What the tests read back is what the page shows and writes: its event
log (window.cheesebox.log, the Pico's JSON lines), screenshots, the canvas.
"""
import json
import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from bench.web import fresh_tab

REPO = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
SHOTS = REPO / "build" / "web-shots"       # screenshots kept for a person to look at
INSTALL = "make browser-deps (as root: apt-get install -y chromium chromium-driver)"


def _missing():
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed: make venv"
    for path in (CHROMIUM, CHROMEDRIVER):
        if not os.access(path, os.X_OK):
            return "no %s: %s" % (path, INSTALL)
    if shutil.which("npm") is None and not (REPO / "bench" / "node_modules").is_dir():
        return "npm not found: the page needs the pinned MicroPython WebAssembly package (bench/package.json)"
    return None


@pytest.fixture(scope="session")
def site(tmp_path_factory):
    """The built page, served on localhost: its base URL."""
    why = _missing()
    if why:
        pytest.skip("browser tests: " + why)
    out = tmp_path_factory.mktemp("web") / "site"
    p = subprocess.run(["make", "--no-print-directory", "web-build", "WEB_OUT=%s" % out], cwd=REPO,
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-2000:]
    sys.path.insert(0, str(REPO / "web"))
    httpd = serve_folder(out)
    yield Site("http://localhost:%d/" % httpd.server_address[1], out)
    httpd.shutdown()
    httpd.server_close()


class Site(str):
    """The page's base URL; .folder is the built page it serves."""

    def __new__(cls, url, folder):
        s = str.__new__(cls, url)
        s.folder = folder
        return s


def serve_folder(folder):
    """A server of its own for the built page, on a free port of localhost
    (another origin: its own storage and service worker). Stop it with
    shutdown() and server_close(): then nothing answers on that port."""
    import serve
    httpd = serve.server(folder, "127.0.0.1", 0)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd


class Page:
    """One Chromium, and the page's controls by what they are on screen."""

    def __init__(self, driver, base):
        self.d = driver
        self.base = base
        self.fingers = {}             # active touch points: id -> (x, y)
        self.next_id = 1
        self.metrics = {"width": 1280, "height": 800, "deviceScaleFactor": 1, "mobile": False}

    # -- loading ---------------------------------------------------------
    def viewport(self, w, h):
        self.metrics = {"width": w, "height": h, "deviceScaleFactor": 1, "mobile": False}
        self.d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", self.metrics)

    def open(self, query="", fresh=True, timeout=20):
        """Load the page (fresh: with an empty storage: a new box) in a new
        tab (bench/web.py's fresh_tab: why) and wait until the box is ready."""
        if fresh:
            self.d.get(self.base + "files.json")     # the origin, to clear its storage
            self.d.execute_script("localStorage.clear()")
        self.fingers.clear()
        fresh_tab(self.d, self.metrics)
        self.d.get(self.base + query)
        return self.wait_ready(timeout)

    def reload(self, timeout=20, offline=False):
        """The power cut: the same address again, its storage kept, in a new
        tab (offline: that tab without a network)."""
        url = self.d.current_url
        self.fingers.clear()
        fresh_tab(self.d, self.metrics)
        if offline:
            self.d.execute_cdp_cmd("Network.enable", {})
            self.d.execute_cdp_cmd("Network.emulateNetworkConditions", {
                "offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
        self.d.get(url)
        return self.wait_ready(timeout)

    def wait_ready(self, timeout=20):
        end = time.time() + timeout
        while time.time() < end:
            st = self.js("return window.cheesebox ? [cheesebox.ready, cheesebox.error] : [false, '']")
            if st[1]:
                raise AssertionError("the page failed: %s" % st[1])
            if st[0]:
                return self
            time.sleep(0.05)
        raise AssertionError("the page was not ready in %d s" % timeout)

    def js(self, script, *args):
        return self.d.execute_script(script, *args)

    def console_errors(self):
        return [e for e in self.d.get_log("browser") if e["level"] == "SEVERE"]

    # -- what it shows ------------------------------------------------------
    def log(self):
        return [json.loads(x) for x in self.js("return cheesebox.log")]

    def events(self, name=None):
        return [e for e in self.log() if name is None or e["ev"] == name]

    def state(self):
        return self.js("return cheesebox.state")

    def wait_for(self, what, timeout=10, every=0.02):
        """Poll what() until it is truthy; its value."""
        end = time.time() + timeout
        while True:
            v = what()
            if v:
                return v
            if time.time() > end:
                raise AssertionError("timed out waiting (%s)" % getattr(what, "__name__", what))
            time.sleep(every)

    def wait_event(self, name, count=1, timeout=10):
        return self.wait_for(lambda: len(self.events(name)) >= count, timeout)

    def shot(self, name):
        SHOTS.mkdir(parents=True, exist_ok=True)
        path = SHOTS / (name + ".png")
        self.d.save_screenshot(str(path))
        return path

    def centre(self, selector):
        r = self.js("const e = document.querySelector(arguments[0]); if (!e) return null;"
                    " const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]",
                    selector)
        assert r is not None, "nothing on screen is " + selector
        return r

    def now_s(self):
        """The page's clock as the DevTools protocol's timestamps count (s since the epoch)."""
        return self.js("return (performance.timeOrigin + performance.now()) / 1000")

    # -- fingers ------------------------------------------------------------
    def _touch(self, kind, stamp=None):
        pts = [{"x": x, "y": y, "id": i} for i, (x, y) in self.fingers.items()]
        cmd = {"type": kind, "touchPoints": pts}
        if stamp is not None:
            cmd["timestamp"] = stamp
        self.d.execute_cdp_cmd("Input.dispatchTouchEvent", cmd)

    def down(self, selector, stamp=None):
        """A finger lands on it (stamp: its time, s since the epoch); the finger's id."""
        i = self.next_id
        self.next_id += 1
        self.fingers[i] = tuple(self.centre(selector))
        self._touch("touchStart", stamp)
        return i

    def up(self, finger, stamp=None):
        """That finger lifts (touchEnd with its point: the others stay down;
        a touchStart without it would leave it down in Chromium)."""
        x, y = self.fingers.pop(finger)
        cmd = {"type": "touchEnd", "touchPoints": [{"x": x, "y": y, "id": finger}]}
        if stamp is not None:
            cmd["timestamp"] = stamp
        self.d.execute_cdp_cmd("Input.dispatchTouchEvent", cmd)

    def tap(self, selector, hold=0.06, gap=0.04):
        f = self.down(selector)
        time.sleep(hold)
        self.up(f)
        time.sleep(gap)

    def buzz(self, s, **kw):
        self.tap('[data-input="%d"]' % s, **kw)

    def roll(self, **kw):
        self.tap('[data-input="8"]', **kw)

    def long_roll(self):
        self.tap('[data-input="8"]', hold=2.3)

    def key(self, s, k, gap=0.04):
        self.tap('.key[data-station="%d"][data-key="%d"]' % (s, k), hold=0.03, gap=gap)


@pytest.fixture
def own_server(site):
    """A server of the built page for one test (serve_folder): the test may
    shut it; it is shut at the end in any case."""
    httpd = serve_folder(site.folder)
    yield httpd
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(scope="module")
def browser(site):
    """One Chromium for the test module."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    o = webdriver.ChromeOptions()
    o.binary_location = CHROMIUM
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
              "--autoplay-policy=no-user-gesture-required"):
        o.add_argument(a)
    o.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    d = webdriver.Chrome(service=Service(CHROMEDRIVER), options=o)
    page = Page(d, site)
    page.viewport(1280, 800)
    yield page
    d.quit()


@pytest.fixture
def page(browser):
    browser.viewport(1280, 800)
    browser.fingers.clear()
    browser.d.get_log("browser")        # drop what earlier tests left
    return browser
