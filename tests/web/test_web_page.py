"""The page itself: it loads clean on every board, fits a tablet's screen,
says when a screen is too small, installs, plays offline, and gives its
event log as the Pico's JSON lines."""
import json
import time

import pytest

BOARDS = ("tablet", "pico-4p", "pico-8p", "pico2-8p")
CONTROLS = "[data-input], .key, .track, #dice, #bar"


@pytest.mark.parametrize("board", BOARDS)
def test_every_board_loads_with_no_console_error(page, board):
    page.open("?board=%s" % board)
    boot = page.events("boot")
    assert boot and boot[0]["board"] == board and boot[0]["resume"] is False
    assert "icons_baked" not in boot[0], boot[0]        # baked by web/build.py, taken as they are
    page.buzz(0)
    page.wait_event("join")
    assert page.console_errors() == []
    plates = page.js("return document.querySelectorAll('.key').length")
    n = page.js("return cheesebox.seats")
    assert plates == (0 if board == "pico-4p" else 8 * n)
    if board == "tablet":
        page.shot("joining-tablet")


def _clipped_or_overlapping(page):
    return page.js("""
        const out = [];
        const W = innerWidth, H = innerHeight;
        const els = [...document.querySelectorAll(arguments[0])];
        const rects = els.map((e) => e.getBoundingClientRect());
        rects.forEach((r, i) => {
          if (r.left < -0.5 || r.top < -0.5 || r.right > W + 0.5 || r.bottom > H + 0.5 || r.width < 20 || r.height < 12)
            out.push('clipped: ' + els[i].outerHTML.slice(0, 60));
        });
        const seats = [...document.querySelectorAll('.seat, #dice, .roll')].map((e) => [e, e.getBoundingClientRect()]);
        for (let i = 0; i < seats.length; i++) for (let j = i + 1; j < seats.length; j++) {
          const a = seats[i][1], b = seats[j][1];
          if (a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5)
            out.push('overlap: ' + seats[i][0].className + ' / ' + seats[j][0].className);
        }
        return out;""", CONTROLS)


@pytest.mark.parametrize("size", [(1280, 800), (1366, 768)])
def test_nothing_is_clipped_at_a_tablets_size(page, size):
    page.viewport(*size)
    for query in ["?board=tablet&seats=%d" % n for n in range(2, 9)] + ["?board=%s" % b for b in BOARDS[1:]]:
        page.open(query)
        assert page.js("return document.querySelector('#toosmall').hidden") is True, query
        assert _clipped_or_overlapping(page) == [], query
        # the buzzer zones are large: a finger's target, not a button
        smallest = page.js("return Math.min(...[...document.querySelectorAll('.buzzer')].map("
                           "(e) => { const r = e.getBoundingClientRect(); return Math.min(r.width, r.height); }))")
        assert smallest >= 80, (query, smallest)


def test_a_screen_too_small_says_so(page):
    page.viewport(600, 400)
    page.open("?board=tablet")
    msg = page.js("const e = document.querySelector('#toosmall'); return e.hidden ? '' : e.textContent")
    assert "too small" in msg and "640 x 480" in msg
    page.viewport(1280, 800)
    page.wait_for(lambda: page.js("return document.querySelector('#toosmall').hidden"))


def test_installable_and_plays_offline(page, own_server):
    """Offline is the server gone, not only the tab told so: the page is
    opened from a server of its own, which is then shut (its port refuses),
    and the reload must come whole from the service worker's copy."""
    httpd = own_server
    base, page.base = page.base, "http://localhost:%d/" % httpd.server_address[1]
    try:
        page.open("?board=tablet&seats=4")
        page.wait_for(lambda: page.js("return navigator.serviceWorker.controller !== null || "
                                      "(navigator.serviceWorker.ready.then(() => 0), false)"), timeout=15)
        errors = page.d.execute_cdp_cmd("Page.getInstallabilityErrors", {})
        assert errors.get("installabilityErrors") == [], errors
        httpd.shutdown()
        httpd.server_close()
        page.reload(offline=True)
        gone = page.d.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "fetch('not-in-the-copy.txt?' + Date.now())"
            ".then((r) => done('answered ' + r.status), () => done('refused'))")
        assert gone == "refused", gone                # nothing serves the page any more
        assert page.js("return crossOriginIsolated") is True     # the copy keeps the headers
        page.buzz(0)
        page.buzz(1)
        page.roll()
        page.wait_for(lambda: page.state().startswith("menu"))
        page.roll()                                   # the menu's first choice: a game starts
        page.wait_for(lambda: page.events("game"), timeout=5)
    finally:
        page.base = base
        page.d.execute_cdp_cmd("Network.emulateNetworkConditions", {
            "offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    assert [e for e in page.console_errors() if "not-in-the-copy" not in e["message"]] == []


def test_the_event_log_downloads_as_the_picos_json_lines(page, tmp_path):
    page.open("?board=pico-8p")
    page.d.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(tmp_path)})
    page.buzz(0)
    page.buzz(2)
    page.wait_event("join", 2)
    page.js("document.querySelector('#download').click()")
    logs = page.wait_for(lambda: [p for p in tmp_path.glob("cheesebox-pico-8p-*.log")], timeout=10)
    time.sleep(0.2)
    lines = logs[0].read_text().splitlines()
    evs = [json.loads(x) for x in lines]
    assert [e["ev"] for e in evs][:3] == ["boot", "join", "join"]
    assert all(e["v"] == 1 and isinstance(e["t"], int) for e in evs)
    # what make monitor FILE= and make report read: no line malformed
    from host_tools.table import eventlog
    summary = eventlog.summarize(lines, warn=lambda msg: pytest.fail(msg))
    assert summary["events"] == len(lines) and summary["malformed"] == 0
