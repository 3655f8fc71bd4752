"""make web: builds the page and serves it on localhost, printing the URL,
with the headers that make the page cross-origin isolated (no browser needed)."""
import os
import signal
import subprocess
import urllib.request
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def test_make_web_serves_the_page_with_its_headers(tmp_path):
    if not (REPO / "bench" / "node_modules").is_dir() and subprocess.run(["which", "npm"]).returncode:
        pytest.skip("npm not found: the page needs the pinned MicroPython WebAssembly package")
    p = subprocess.Popen(["make", "--no-print-directory", "web", "WEB_PORT=0", "WEB_OUT=%s" % (tmp_path / "site")],
                         cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                         start_new_session=True)
    try:
        url = None
        for line in p.stdout:
            if "the Cheese Box is at" in line:
                url = line.split(" at ")[1].split()[0]
                break
        assert url and url.startswith("http://localhost:"), url
        with urllib.request.urlopen(url, timeout=10) as r:
            body = r.read().decode()
            assert r.headers["Cross-Origin-Opener-Policy"] == "same-origin"
            assert r.headers["Cross-Origin-Embedder-Policy"] == "require-corp"
        assert "<title>Cheese Box</title>" in body
        with urllib.request.urlopen(url + "mp/micropython.wasm", timeout=10) as r:
            assert r.headers["Content-Type"] == "application/wasm"
        with urllib.request.urlopen(url + "files.json", timeout=10) as r:
            files = r.read().decode()
        # the firmware as make flash deploys it: bytecode, and the card list
        assert "cheesebox/box.mpy" in files and "cheesonomics/cards.json" in files
        assert "rp2port" not in files
    finally:
        os.killpg(p.pid, signal.SIGTERM)
        p.wait(timeout=10)
