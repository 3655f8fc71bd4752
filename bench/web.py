"""Section 7 of `make bench`: the box in a web page, in headless Chromium (docs/bench.md).

The page is built as `make web-build` builds it (web/build.py, into a temporary
folder), served by web/serve.py on localhost (with a byte count of what it
sends) and opened in Debian's Chromium through selenium, as tests/web does.
Inputs are DevTools touches (Input.dispatchTouchEvent, stamped with the time
just before each is sent) and keys (Input.dispatchKeyEvent, likewise).

Figures, all read from the page's own probe (web/app.js, window.cheesebox):
- press to paint, per press kind of the emulated Pico's press table
  (emu/latency.py) as the tablet board has them, and keyboard presses: from
  the event's timeStamp to the presentation of the frame that shows the
  station's LEDs changed (Element Timing: a mark drawn in that frame); the
  share drawn in the first frame after the box could confirm them, when the
  box drew it, its frame's rAF time and the end of its rendering beside;
- the box's step: every call into the MicroPython step from JavaScript, timed
  around it (app.js), over the games played;
- open to ready (performance.now() at ready: from the navigation's start),
  first loads (nothing cached, no service worker) and loads from the
  service worker's copy;
- the page's weight: the built folder, and the bytes the server sent on the
  first load (to ready, and with the service worker's offline copy).
"""
import importlib.util
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
TARGET = {"worst_ms": 21.0, "median_ms": 12.0, "step_p99_ms": 2.0, "ready_ms": 2000.0}
SETTLE = 0.25                   # s after a press before the next (the probe's window is 200 ms)
FRAME_S = 1 / 60.0              # a touch's phase against the frames: uniform over one (jitter())
KEYS = {str(d): ("Digit%d" % d, 48 + d) for d in range(1, 9)}


def missing():
    """Why the section cannot run here, or None."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (make venv)"
    for p in (CHROMIUM, CHROMEDRIVER):
        if not os.access(p, os.X_OK):
            return "no %s (make browser-deps)" % p
    if shutil.which("npm") is None and not (REPO / "bench" / "node_modules").is_dir():
        return "npm not found: the page needs the pinned MicroPython WebAssembly package"
    return None


def build(out: Path) -> Path:
    """`make web-build` into out (its recipe, without make's venv check)."""
    p = subprocess.run([sys.executable, str(REPO / "web" / "build.py"), "--out", str(out)], cwd=REPO,
                       capture_output=True, text=True, timeout=300)
    if p.returncode != 0:
        raise RuntimeError("web/build.py failed:\n" + (p.stdout + p.stderr)[-1500:])
    return out


def serve(site: Path):
    """web/serve.py's server on a free port, counting what it sends: (server, counter)."""
    spec = importlib.util.spec_from_file_location("cheesebox_serve", REPO / "web" / "serve.py")
    S = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(S)
    sent = {"bytes": 0, "requests": 0}
    lock = threading.Lock()

    class Counting:
        def __init__(self, f):
            self.f = f

        def write(self, b):
            with lock:
                sent["bytes"] += len(b)
            return self.f.write(b)

        def __getattr__(self, name):
            return getattr(self.f, name)

    class Handler(S.Handler):
        def setup(self):
            super().setup()
            self.wfile = Counting(self.wfile)

        def send_response(self, *args, **kw):
            with lock:
                sent["requests"] += 1
            super().send_response(*args, **kw)

    import functools
    import http.server
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=str(site)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd, sent


METRICS = {"width": 1280, "height": 800, "deviceScaleFactor": 1, "mobile": False}


def fresh_tab(d, metrics=METRICS):
    """Go on in a new tab of the same browser (same storage, same service
    worker) and close the old one: before each load. In a tab that had two
    fingers down at once, Chromium's DevTools touches (Input.dispatchTouchEvent)
    were lost on some later pages of that tab: in runs of loads, every touch
    of the page, on this page and on a static one alike (tests/web/test_web_touch.py).
    A table's tablet has no such tab: its touches are the screen's own."""
    old = d.current_window_handle
    d.switch_to.new_window("tab")
    new = d.current_window_handle
    d.switch_to.window(old)
    d.close()
    d.switch_to.window(new)
    d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)


def chromium():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    o = webdriver.ChromeOptions()
    o.binary_location = CHROMIUM
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
              "--autoplay-policy=no-user-gesture-required"):
        o.add_argument(a)
    d = webdriver.Chrome(service=Service(CHROMEDRIVER), options=o)
    d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", METRICS)
    return d


class Table:
    """The page, and fingers and keys on it; every station press labelled with its kind."""

    def __init__(self, driver, base, sent):
        self.sent = sent            # what the server has sent (serve())
        self.d = driver
        self.base = base
        self.fingers = {}
        self.next_id = 1
        self.at = {}
        self.kinds = []             # the kind of each station press since the page was opened
        self.presses = []           # (kind, probe record) of every page opened so far
        self.steps = []             # every step's ms, over every page opened so far
        self.idles = []             # every idle call's ms (webmain.idle: a collection now and then)
        self.ready = []             # (how, ms from opening to ready)
        self.missed = {}            # kind -> station presses the page's probe never saw
        self.missed_at = []         # each: the station presses its page had seen before it
        self.touches_to_first = []  # (how it was loaded, touches until the page saw one)
        self.rnd = random.Random(1)  # each touch's phase against the frames (jitter)

    def js(self, script, *args):
        return self.d.execute_script(script, *args)

    # -- loading -------------------------------------------------------------
    def open(self, how, query="?board=tablet&seed=1", timeout=30):
        """Close the page open (its figures kept), empty the storage (how
        "first load": everything, the service worker and the HTTP cache too)
        and open the page afresh; ms from opening to ready."""
        self.collect()
        self.d.get(self.base + "files.json")
        if how == "first load":
            self.d.get("about:blank")
            self.d.execute_cdp_cmd("Storage.clearDataForOrigin",
                                   {"origin": self.base.rstrip("/"), "storageTypes": "all"})
            self.d.execute_cdp_cmd("Network.clearBrowserCache", {})
        else:
            self.js("localStorage.clear()")
        self.fingers.clear()
        fresh_tab(self.d)
        self.d.get(self.base + query)
        end = time.time() + timeout
        while True:
            st = self.js("return window.cheesebox ? [cheesebox.ready, cheesebox.error, cheesebox.readyAt] : [0, '', 0]")
            if st[1]:
                raise RuntimeError("the page failed: %s" % st[1])
            if st[0]:
                break
            if time.time() > end:
                raise RuntimeError("the page was not ready in %d s" % timeout)
            time.sleep(0.02)
        self.ready.append((how, st[2]))
        self.sent_at_ready = dict(self.sent)
        self.at = self.js("""const at = {};
            for (const e of document.querySelectorAll('[data-input], .key')) {
              const r = e.getBoundingClientRect();
              at[e.dataset.input !== undefined ? 'i' + e.dataset.input : 'k' + e.dataset.station + '.' + e.dataset.key]
                = [r.x + r.width / 2, r.y + r.height / 2];
            }
            const d = document.querySelector('#dice').getBoundingClientRect();
            at.dice = [d.x + d.width / 2, d.y + d.height / 2];
            window.__downs = 0;
            document.addEventListener('pointerdown', () => { window.__downs++; }, true);
            return at;""")
        self.kinds = []
        self.first_touch(how)
        self.js("cheesebox.stepMs.length = 0")
        return st[2]

    def first_touch(self, how):
        """A touch on the dice (no control) at once after the load: how many
        it took until the page saw one. Each load is in a fresh tab
        (fresh_tab), where none was lost: one more than 1 is a regression
        (check() fails the section), made again so the other figures go on."""
        for k in range(1, 6):
            self.tap("dice", hold=0.03, after=0.1)
            if self.js("return window.__downs") > 0:
                self.touches_to_first.append((how, k))
                return
        raise RuntimeError("the page saw none of 5 touches after loading")

    def collect(self):
        """The open page's probe records and step times, into presses and steps."""
        if not self.kinds and self.d.current_url.startswith("data:"):
            return
        got = self.js("return window.cheesebox ? [cheesebox.presses, cheesebox.stepMs, cheesebox.idleMs] : null")
        if got is None:
            return
        recs, steps, idles = got
        self.idles += idles
        if len(recs) != len(self.kinds):
            raise RuntimeError("the page saw %d station presses, the bench made %d" % (len(recs), len(self.kinds)))
        self.presses += list(zip(self.kinds, recs))
        self.steps += steps
        self.kinds = []

    # -- what it shows ---------------------------------------------------------
    def count(self, ev):
        return self.js("return cheesebox.log.filter((l) => JSON.parse(l).ev === arguments[0]).length", ev)

    def last(self, ev):
        return self.js("const l = cheesebox.log.filter((l) => JSON.parse(l).ev === arguments[0]);"
                       " return l.length ? JSON.parse(l[l.length - 1]) : null", ev)

    def until(self, what, timeout=10, name="?"):
        end = time.time() + timeout
        while not what():
            if time.time() > end:
                raise RuntimeError("timed out waiting on the page for %s (state %s, touches missed %s)"
                                   % (name, self.js("return cheesebox.state"), self.missed))
            time.sleep(0.1)

    # -- fingers and keys -------------------------------------------------------
    def _touch(self, kind):
        pts = [{"x": x, "y": y, "id": i} for i, (x, y) in self.fingers.items()]
        self.d.execute_cdp_cmd("Input.dispatchTouchEvent",
                               {"type": kind, "touchPoints": pts, "timestamp": time.time()})

    def jitter(self):
        """A random part of a frame before a touch: a table's touches come at
        any phase of the display's frames, the bench's own round trips would
        otherwise land them at one (each wait is a whole number of frames)."""
        time.sleep(self.rnd.random() * FRAME_S)

    def down(self, where):
        """A finger on it ('i3': input 3, 'i8': ROLL, 'k2.5': station 2's key 5, 'dice')."""
        self.jitter()
        i = self.next_id
        self.next_id += 1
        self.fingers[i] = tuple(self.at[where])
        self._touch("touchStart")
        return i

    def up(self, finger):
        """That finger lifts (touchEnd with its point: the others stay down)."""
        x, y = self.fingers.pop(finger)
        self.d.execute_cdp_cmd("Input.dispatchTouchEvent",
                               {"type": "touchEnd", "touchPoints": [{"x": x, "y": y, "id": finger}],
                                "timestamp": time.time()})

    def delivered(self, kind):
        """After a station press: the page's probe has it (labelled), or it is counted missed."""
        n = self.js("return cheesebox.presses.length")
        if n == len(self.kinds) + 1:
            self.kinds.append(kind)
            return True
        if n == len(self.kinds):
            self.missed[kind] = self.missed.get(kind, 0) + 1
            self.missed_at.append(len(self.kinds))     # how many presses the page had seen
            return False
        else:
            raise RuntimeError("the page saw %d station presses, the bench made %d" % (n, len(self.kinds) + 1))

    def tap(self, where, kind=None, hold=0.06, after=SETTLE):
        """A touch; kind: the press kind of a station's buzzer (checked delivered)."""
        f = self.down(where)
        time.sleep(hold)
        self.up(f)
        time.sleep(after)
        return self.delivered(kind) if kind else True

    def press(self, s, kind, after=SETTLE):
        """Station s's buzzer; False if the page never saw the touch."""
        return self.tap("i%d" % s, kind, after=after)

    def sure(self, s, kind, after=SETTLE, key=None):
        """A press the game needs (key: station s's answer key first): a touch
        the page never saw (counted missed) is made again."""
        for _ in range(3):
            if key is not None:
                self.tap("k%d.%d" % (s, key), hold=0.03, after=0.09)
            if self.press(s, kind, after):
                return
        raise RuntimeError("P%d's %s never reached the page" % (s + 1, kind))

    def roll(self, hold=0.06, after=0.3):
        self.tap("i8", hold=hold, after=after)

    def grab(self, s, k, kind, lead=0.010):
        """Station s's key k, then (lead s later, the key held) its buzzer; a
        buzzer touch the page never saw (counted missed) is made again."""
        for _ in range(3):
            f = self.down("k%d.%d" % (s, k))
            time.sleep(lead)
            g = self.down("i%d" % s)
            time.sleep(0.05)
            self.up(g)
            self.up(f)
            time.sleep(SETTLE)
            if self.delivered(kind):
                return
        raise RuntimeError("P%d's grab never reached the page" % (s + 1))

    def key(self, ch, kind):
        code, vk = KEYS[ch]
        self.jitter()
        for t in ("keyDown", "keyUp"):
            self.d.execute_cdp_cmd("Input.dispatchKeyEvent", {
                "type": t, "key": ch, "code": code, "text": ch if t == "keyDown" else "",
                "windowsVirtualKeyCode": vk, "timestamp": time.time()})
            time.sleep(0.05)
        time.sleep(SETTLE)
        self.delivered(kind)


# -- the sessions: the emulated Pico's press table, on the tablet -----------------
def joining(t: Table, cycles: int, key_cycles: int, seats=8):
    """At the joining screen: every seat joins, then leaves, by touch; then by key."""
    for _ in range(cycles):
        for kind in ("join", "leave"):
            for s in range(seats):
                t.press(s, kind)
    for _ in range(key_cycles):
        for kind in ("join (key 1-8)", "leave (key 1-8)"):
            for s in range(seats):
                t.key(str(s + 1), kind)


def cheese_master(t: Table, rounds=3):
    """4 join, the menu's first dice; rounds of: ROLL, a false start while
    the dice tumble, a grab with no key (refused), the other three grab with
    their key 3 pressed 10 ms before the buzzer and held (the last scores the
    round and saves the game). Three rounds: from the fourth players go out."""
    for s in range(4):
        t.sure(s, "join")
    t.roll()                            # the dice menu
    t.roll()                            # its first choice: the game starts
    t.until(lambda: t.count("game") >= 1, name="the game")
    for rnd in range(rounds):
        t.until(lambda: t.js("return cheesebox.state").startswith("ready"), name="ready")
        n = t.count("faces")
        t.roll(after=0.2)
        t.press((rnd + 1) % 4, "false start", after=0.1)
        t.until(lambda: t.count("faces") > n, name="the faces")
        time.sleep(0.3)
        t.press(rnd % 4, "refused grab (no key)", after=0.3)
        for s in range(4):
            if s != rnd % 4:
                t.grab(s, 3, "grab, its key 10 ms before")
        t.until(lambda: t.count("score") > rnd, name="the score")


def cheesonomics(t: Table, turns: int):
    """A long ROLL picks Cheesonomics; 3 join, basic; each turn: money on
    demand (another seat's buzzer), then two entry steps (a key, then the buzzer)."""
    t.roll(hold=2.5, after=0.1)
    t.until(lambda: t.count("pick") >= 1, name="the pick")
    time.sleep(0.2)
    for s in range(3):
        t.sure(s, "join (Cheesonomics)")
    t.roll()                            # the variant screen
    t.roll()                            # basic
    t.until(lambda: t.count("market") >= 1, name="the market")
    first = int(t.last("market")["first"][1:]) - 1
    for turn in range(turns):
        s = (first + turn) % 3
        n = t.count("action")
        t.sure((s + 1) % 3, "money on demand", after=3.2)       # it stays up 3 s
        for v in (3, 3):
            t.sure(s, "Cheesonomics entry step", after=0.2, key=v)
        t.until(lambda: t.count("action") > n, name="the turn's action")
        if t.count("final"):
            break


def frame_interval(t: Table):
    """The median ms between frames (rAF) over 60 frames: the display's rate here."""
    return t.d.execute_async_script("""const done = arguments[arguments.length - 1], ts = [];
        const f = (x) => { ts.push(x); if (ts.length < 61) requestAnimationFrame(f);
          else { const d = ts.slice(1).map((v, i) => v - ts[i]).sort((a, b) => a - b); done(d[30]); } };
        requestAnimationFrame(f);""")


def session(t: Table, smoke: bool, sent: dict, log):
    """Everything the section plays; the weight of the first load."""
    R = {}
    t.open("first load")
    R["first_load_to_ready"] = t.sent_at_ready
    t.d.set_script_timeout(30)
    # the service worker active: its offline copy (every file) is in its cache
    t.d.execute_async_script("const done = arguments[arguments.length - 1];"
                             " navigator.serviceWorker.ready.then(() => done(true))")
    time.sleep(0.3)
    R["first_load_with_offline_copy"] = dict(sent)
    R["frame_ms"] = frame_interval(t)
    if smoke:
        t.press(0, "join")
        t.press(1, "join")
        t.press(1, "leave")
        t.key("3", "join (key 1-8)")
        t.open("from the service worker")
        t.collect()
        return R
    log("  joins and leaves (touch, keys), tablet, 8 seats")
    joining(t, cycles=3, key_cycles=1)
    for g in range(7):
        log("  Cheese Master game %d of 7 (4 players, 3 rounds)" % (g + 1))
        t.open("from the service worker")
        cheese_master(t)
    log("  Cheesonomics (3 players, 6 turns)")
    t.open("from the service worker")
    cheesonomics(t, turns=6)
    for _ in range(3):
        t.open("first load")
    t.collect()
    return R


# -- the figures ---------------------------------------------------------------------
def pct(xs, p):
    xs = sorted(xs)
    if not xs:
        return None
    k = min(len(xs) - 1, max(0, int(round(p / 100.0 * len(xs) + 0.5)) - 1))
    return xs[k]


def spread(xs):
    return {"n": len(xs), "median": statistics.median(xs) if xs else None, "p90": pct(xs, 90),
            "p99": pct(xs, 99), "max": max(xs) if xs else None, "min": min(xs) if xs else None}


def press_figures(presses):
    kinds = {}
    for kind, r in presses:
        kinds.setdefault(kind, []).append(r)
    out = {}
    for kind, recs in kinds.items():
        out[kind] = _press_spread(recs)
    return out, _press_spread([r for _, r in presses])


PRESENTED_LATE_MS = 50      # a presentation reported this long after its frame's paint: a later frame's


def shown_ms(r):
    """ms from the press's timeStamp to the presentation of the frame that
    drew it, or None (not reported, or reported with a later frame)."""
    if r.get("shown", -1) < 0 or r.get("paintTime", -1) < 0 or r["shown"] - r["paintTime"] > PRESENTED_LATE_MS:
        return None
    return r["shown"] - r["t"]


def _press_spread(recs):
    lit = [r for r in recs if r["painted"] >= 0]
    shown = [v for v in (shown_ms(r) for r in lit) if v is not None]
    return {"n": len(recs), "unlit": len(recs) - len(lit),
            "shown": spread(shown), "unshown": len(lit) - len(shown),
            "first_frame": sum(1 for r in lit if r.get("late", 0) == 0),
            "paint": spread([r["painted"] - r["t"] for r in lit]),
            "paint_time": spread([r["paintTime"] - r["t"] for r in lit if r.get("paintTime", -1) >= 0]),
            "frame": spread([r["frame"] - r["t"] for r in lit]),
            "drawn": spread([r["drawn"] - r["t"] for r in lit]),
            "due": spread([r["due"] - r["t"] for r in lit if "due" in r]),
            "wait": spread([r["raf"] - r["drawn"] for r in lit]),
            "handled": spread([r["seen"] - r["t"] for r in recs])}


def figures(log=print, smoke=False):
    why = missing()
    if why:
        return {"skipped": why}
    tmp = Path(tempfile.mkdtemp(prefix="cheesebox-webbench-"))
    httpd = d = None
    try:
        log("  building the page (web/build.py, as make web-build)")
        site = build(tmp / "site")
        files = [p for p in site.rglob("*") if p.is_file()]
        httpd, sent = serve(site)
        d = chromium()
        t = Table(d, "http://localhost:%d/" % httpd.server_address[1], sent)
        R = session(t, smoke, sent, log)
        R["chromium"] = d.capabilities.get("browserVersion")
        R["site"] = {"files": len(files), "bytes": sum(p.stat().st_size for p in files),
                     "wasm_bytes": (site / "mp" / "micropython.wasm").stat().st_size}
        R["presses"] = [[k, r] for k, r in t.presses]
        R["kinds"], R["all"] = press_figures(t.presses)
        R["missed"] = t.missed
        R["missed_at"] = t.missed_at
        R["touches_to_first"] = t.touches_to_first
        R["step"] = spread(t.steps)
        R["idle"] = spread(t.idles) if t.idles else None
        R["ready"] = {how: [ms for h, ms in t.ready if h == how] for how in ("first load", "from the service worker")}
        R["cores"] = os.cpu_count()
        R["load_avg"] = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
        if smoke:
            R["smoke"] = "one load, 4 presses"
        return R
    finally:
        if d is not None:
            d.quit()
        if httpd is not None:
            httpd.shutdown()
        shutil.rmtree(tmp, ignore_errors=True)


def check(R, need):
    """Every figure there and positive (need: run.py's check)."""
    if "skipped" in R:
        return
    need("web page presses", R["all"]["n"], R["all"]["paint"]["max"], R["all"]["paint"]["median"])
    need("web page presses presented", R["all"]["shown"]["n"])
    if R["all"]["unlit"]:
        raise RuntimeError("web page: %d of %d presses lit nothing" % (R["all"]["unlit"], R["all"]["n"]))
    lost = [how for how, k in R["touches_to_first"] if k > 1]
    if lost:
        raise RuntimeError("web page: the first touch after %d of %d loads never reached the page (%s)"
                           % (len(lost), len(R["touches_to_first"]), ", ".join(lost)))
    need("web page steps", R["step"]["n"], R["step"]["max"])
    need("web page ready", *[ms for v in R["ready"].values() for ms in v])
    need("web page weight", R["site"]["bytes"], R["first_load_to_ready"]["bytes"], R["frame_ms"])


def _mark(v, bound):
    return "" if v is not None and v <= bound else "  OVER %g ms" % bound


def _f(v):
    return "-" if v is None else "%.1f" % v


def rows(R):
    if "skipped" in R:
        return [("7 WEB PAGE", "skipped: " + R["skipped"])]
    out = [("7 WEB PAGE%s" % (" (smoke: %s)" % R["smoke"] if "smoke" in R else ""),
            "tablet board, 8 seats, headless Chromium %s, %d cores, load average %.1f, frames every %.1f ms"
            % (R["chromium"], R["cores"], R["load_avg"] or 0, R["frame_ms"]))]
    a = R["all"]
    out.append(("press: event timeStamp -> its frame presented (target: worst %g, median %g ms)"
                % (TARGET["worst_ms"], TARGET["median_ms"]),
                "median %s, p90 %s, worst %s ms, n=%d of %d%s%s%s"
                % (_f(a["shown"]["median"]), _f(a["shown"]["p90"]), _f(a["shown"]["max"]), a["shown"]["n"], a["n"],
                   ", %d lit nothing" % a["unlit"] if a["unlit"] else "",
                   _mark(a["shown"]["max"], TARGET["worst_ms"]), _mark(a["shown"]["median"], TARGET["median_ms"]))))
    out.append(("  (the others: Chromium reported their frame's presentation with a later frame, or not at all)",
                "%d presses; every press to the end of its frame's rendering: median %s, worst %s ms%s%s"
                % (a["unshown"], _f(a["paint"]["median"]), _f(a["paint"]["max"]),
                   _mark(a["paint"]["max"], TARGET["worst_ms"]), _mark(a["paint"]["median"], TARGET["median_ms"]))))
    for kind, k in R["kinds"].items():
        miss = R["missed"].get(kind, 0)
        out.append(("  " + kind, "presented: median %s, worst %s ms, n=%d of %d; rendered: median %s, worst %s ms%s%s%s"
                    % (_f(k["shown"]["median"]), _f(k["shown"]["max"]), k["shown"]["n"], k["n"],
                       _f(k["paint"]["median"]), _f(k["paint"]["max"]),
                       ", %d lit nothing" % k["unlit"] if k["unlit"] else "",
                       ", %d more never reached the page" % miss if miss else "",
                       _mark(max(v for v in (k["shown"]["max"], k["paint"]["max"], 0) if v is not None),
                             TARGET["worst_ms"]))))
    lit = a["n"] - a["unlit"]
    out.append(("  drawn in the first frame after the box could confirm it (load-robust)",
                "%d of %d (%.1f%%)" % (a["first_frame"], lit, 100.0 * a["first_frame"] / lit if lit else 0)))
    for what, key in (("  of which: to the handler (input delivery)", "handled"),
                      ("  to the end of the 2 ms window, or the handler if later", "due"),
                      ("  to the box drawing it (the step that confirms it)", "drawn"),
                      ("  from the box drawing it to its frame's callback (below 0: drawn in it)", "wait"),
                      ("  to its frame's rAF time", "frame"),
                      ("  to its frame's paint (Element Timing's paintTime, where reported)", "paint_time"),
                      ("  to the task after its frame's rendering", "paint")):
        out.append((what, "median %s, p90 %s, worst %s ms" % (_f(a[key]["median"]), _f(a[key]["p90"]),
                                                               _f(a[key]["max"]))))
    s = R["step"]
    out.append(("box step, JS -> MicroPython -> JS (target: p99 %g ms)" % TARGET["step_p99_ms"],
                "median %s, p99 %s, worst %s ms, n=%d%s" % ("%.3f" % s["median"], _f(s["p99"]), _f(s["max"]),
                                                            s["n"], _mark(s["p99"], TARGET["step_p99_ms"]))))
    i = R.get("idle")
    if i:
        out.append(("idle call (a collection when 4 KiB went by), apart from the steps",
                    "median %s, p99 %s, worst %s ms, n=%d"
                    % ("%.3f" % i["median"], _f(i["p99"]), _f(i["max"]), i["n"])))
    for how, ms in R["ready"].items():
        if ms:
            out.append(("open -> ready, %s (target %g ms)" % (how, TARGET["ready_ms"]),
                        "median %.0f, worst %.0f ms, n=%d%s" % (statistics.median(ms), max(ms), len(ms),
                                                                _mark(max(ms), TARGET["ready_ms"]))))
    lost = [k for _, k in R["touches_to_first"] if k > 1]
    out.append(("first touch after a load lost (a touch on the dice until the page saw one)",
                "%d of %d loads; station touches the page never saw afterwards: %d"
                % (len(lost), len(R["touches_to_first"]), sum(R["missed"].values()))))
    S = R["site"]
    out.append(("page weight: the built folder", "%d B (%.0f KiB), %d files; micropython.wasm %.0f KiB"
                % (S["bytes"], S["bytes"] / 1024, S["files"], S["wasm_bytes"] / 1024)))
    f0, f1 = R["first_load_to_ready"], R["first_load_with_offline_copy"]
    out.append(("page weight: sent on the first load (uncompressed)",
                "%.0f KiB in %d requests to ready; %.0f KiB in %d with the offline copy"
                % (f0["bytes"] / 1024, f0["requests"], f1["bytes"] / 1024, f1["requests"])))
    return out
