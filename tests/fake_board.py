#!/usr/bin/env python3
"""A fake Pico for mpremote: MicroPython's raw REPL on a TCP socket.

    python tests/fake_board.py --flash DIR [--port N] [--corrupt NAME] [--log FILE]

Listens on 127.0.0.1:PORT (0 = a free port; the first line on stdout is
"fake board listening on 127.0.0.1:PORT") and is a board to mpremote:

    mpremote connect socket://127.0.0.1:PORT fs ls

Each program mpremote submits runs on the REAL unix MicroPython
(.venv/bin/micropython) in DIR, which plays the board's flash: DIR is mounted
as the VFS root "/" and is the cwd, and sys.path is ['', '/lib'] as on a
Pico. mpremote's fs commands keep state between submissions (`f=open(..)`,
then `w(chunk)` many times, then `f.close()`), so one MicroPython process
lives as long as a session, like the board's heap: a small loop on the
MicroPython side reads length-prefixed programs from its stdin and exec()s
them in one globals dict. A soft reset (Ctrl-D at an empty raw REPL line)
or machine.reset() starts a fresh process.

What it speaks (as MicroPython's shared/runtime/pyexec.c does):
- friendly REPL: Ctrl-A raw REPL, Ctrl-B banner, Ctrl-D soft reset, Ctrl-C;
  typed lines are echoed, not run (this is a test double, not a REPL)
- raw REPL: Ctrl-A (re)enter, Ctrl-B friendly REPL, Ctrl-C clear the line,
  Ctrl-D run ("OK", output, \\x04, error, \\x04, ">") or soft reset on an
  empty line; raw-paste mode (\\x05A\\x01 -> "R\\x01" + window size, flow
  control with \\x01, \\x04 ends the data and is acknowledged)
- Ctrl-C while a program runs interrupts it (SIGINT -> KeyboardInterrupt)

--corrupt NAME flips the first byte written to every file whose path ends
with NAME (opened with mode 'wb', as mpremote's `fs cp` does): a flaky
transfer, for testing that flash.py's sha256 check catches it.
--log FILE appends one line per event (connect, exec <first line>,
soft-reset, hard-reset, disconnect).

Only the Python standard library is needed on the host side.
"""
from __future__ import annotations

import argparse
import os
import queue
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

BANNER = (b"MicroPython v1.29.0 on 2026-01-01; Cheese Box fake board "
          b"(unix MicroPython) with RP2040\r\nType \"help()\" for more information.\r\n")
RAW_BANNER = b"raw REPL; CTRL-B to exit\r\n"
PASTE_WINDOW = 4096     # raw-paste window increment (a real rp2 uses 128)

# The end of one program's output on the interpreter's stdout:
# END_MARK + status ("ok" | "reset") + b":" + len(error) + b"\n" + error bytes
QUICKACK = getattr(socket, "TCP_QUICKACK", None)     # Linux only

END_MARK = b"\x1b]fake-board-end:"

# The MicroPython side: runs inside the unix port (python -c).
MP_LOOP = r"""
import sys, os, io, vfs
_root = os.getenv('FAKEBOARD_FLASH')
vfs.mount(vfs.VfsPosix(_root), '/')
os.chdir('/')
sys.path[:] = ['', '/lib']      # a Pico's sys.path (minus .frozen)

class _Reset(BaseException):
    pass

# Stand-ins for what the unix port lacks and mpremote's snippets use:
# - machine.reset()/soft_reset()/bootloader(): `mpremote reset` runs
#   "import time, machine; time.sleep_ms(100); machine.reset()", and the unix
#   port's machine module has no reset(). A module cannot be created from
#   Python here, so an object stands in for it in sys.modules. It has no Pin
#   etc.: the fake board stores and hashes files, it does not run the game.
# (os.sync, which some tools call after writing, is not used by mpremote 1.29
#  and the unix port has none; VfsPosix writes are synced by the host OS.)
class _Machine:
    __name__ = 'machine'
    def reset(self):
        raise _Reset()
    def soft_reset(self):
        raise _Reset()
    def bootloader(self):
        raise _Reset()
    def unique_id(self):
        return b'FAKEBRD!'
    def freq(self, *a):
        return 125000000
sys.modules['machine'] = _Machine()

_corrupt = os.getenv('FAKEBOARD_CORRUPT') or ''
_open = open

class _Flaky:
    # a file opened for writing whose first byte arrives flipped
    def __init__(self, f):
        self.f = f
        self.first = True
    def write(self, b):
        if self.first and len(b):
            self.first = False
            b = bytes([b[0] ^ 0xFF]) + bytes(b[1:])
        return self.f.write(b)
    def close(self):
        self.f.close()
    def __enter__(self):
        return self
    def __exit__(self, *a):
        self.f.close()

def _board_open(path, mode='r', *a):
    f = _open(path, mode, *a)
    if _corrupt and mode == 'wb' and path.endswith(_corrupt):
        return _Flaky(f)
    return f

def _new_globals():
    g = {'__name__': '__main__'}
    if _corrupt:
        g['open'] = _board_open
    return g

_g = _new_globals()
_in = sys.stdin.buffer
_out = sys.stdout
while True:
    try:
        _n = _in.readline()
        if not _n:
            break
        _code = _in.read(int(_n))
    except KeyboardInterrupt:
        continue            # a late Ctrl-C between programs
    _status = 'ok'
    _err = ''
    try:
        try:
            exec(compile(_code, '<stdin>', 'exec'), _g)
        except _Reset:
            _status = 'reset'
        except BaseException as _e:
            _buf = io.StringIO()
            sys.print_exception(_e, _buf)
            _err = _buf.getvalue()
        _eb = _err.encode()
        _out.write('\x1b]fake-board-end:%s:%d\n' % (_status, len(_eb)))
        _out.write(_err)
    except KeyboardInterrupt:
        _out.write('\x1b]fake-board-end:ok:0\n')
"""


def cooked(data: bytes) -> bytes:
    """The board's stdout turns \\n into \\r\\n."""
    return re.sub(rb"(?<!\r)\n", b"\r\n", data)


def micropython_cmd() -> list[str]:
    here = Path(sys.executable).parent / "micropython"
    if here.exists():
        return [str(here)]
    venv = REPO / ".venv" / "bin" / "micropython"
    return [str(venv)]


class Interpreter:
    """One unix MicroPython process: the board's RAM for one boot."""

    def __init__(self, flash: Path, corrupt: str, heap: str):
        env = dict(os.environ)
        env["FAKEBOARD_FLASH"] = str(flash)
        env["FAKEBOARD_CORRUPT"] = corrupt
        env.pop("MICROPYPATH", None)
        self.proc = subprocess.Popen(
            micropython_cmd() + ["-X", "heapsize=" + heap, "-c", MP_LOOP],
            cwd=flash, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, bufsize=0, start_new_session=True)
        self.executing = False

    def run(self, code: bytes, send) -> tuple[str, bytes, bytes]:
        """Run code; send(output) as it comes, except the last piece:
        returns (status, error, last output)."""
        assert self.proc.stdin and self.proc.stdout
        self.executing = True
        try:
            self.proc.stdin.write(b"%d\n" % len(code) + code)
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            self.executing = False
            return "dead", b"fake board: the MicroPython process died\n", b""
        fd = self.proc.stdout.fileno()
        buf = b""
        while True:
            i = buf.find(END_MARK)
            if i >= 0:
                out = buf[:i]
                tail = buf[i + len(END_MARK):]
                while b"\n" not in tail:
                    more = os.read(fd, 65536)
                    if not more:
                        break
                    tail += more
                head, _, rest = tail.partition(b"\n")
                status, _, n = head.decode().partition(":")
                n = int(n or 0)
                while len(rest) < n:
                    more = os.read(fd, 65536)
                    if not more:
                        break
                    rest += more
                self.executing = False
                return status, rest[:n], out
            keep = len(END_MARK) - 1
            if len(buf) > keep:
                send(buf[:-keep])
                buf = buf[-keep:]
            more = os.read(fd, 65536)
            if not more:
                self.executing = False
                err = self.proc.stderr.read() if self.proc.stderr else b""
                return "dead", b"fake board: the MicroPython process died\n" + err, buf
            buf += more

    def interrupt(self):
        if self.executing and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)

    def close(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        for s in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            if s:
                s.close()


class Session:
    """One mpremote connection."""

    def __init__(self, sock: socket.socket, args, log):
        self.sock = sock
        self.args = args
        self.log = log
        self.inbox: queue.Queue[bytes] = queue.Queue()
        self.pending = bytearray()
        self.closed = False
        self.interp: Interpreter | None = None
        self.boot()

    # -- plumbing --------------------------------------------------------
    def send(self, data: bytes):
        if data:
            try:
                self.sock.sendall(data)
            except OSError:
                self.closed = True

    def send_cooked(self, data: bytes):
        self.send(cooked(data))

    def reader(self):
        while True:
            try:
                data = self.sock.recv(65536)
            except OSError:
                data = b""
            if not data:
                self.inbox.put(b"")
                return
            if QUICKACK is not None:
                # ack at once: mpremote (pyserial's socket://) leaves Nagle
                # on, so its small "\x04" after a write would wait for our
                # delayed ACK, 40 ms per command. A USB serial port has no
                # such delay.
                try:
                    self.sock.setsockopt(socket.IPPROTO_TCP, QUICKACK, 1)
                except OSError:
                    pass
            if b"\x03" in data and self.interp is not None and self.interp.executing:
                self.interp.interrupt()
            self.inbox.put(data)

    def byte(self) -> int | None:
        while not self.pending:
            data = self.inbox.get()
            if not data:
                self.closed = True
                return None
            self.pending += data
        c = self.pending[0]
        del self.pending[0]
        return c

    def take(self, n: int) -> bytes:
        """Up to n bytes (at least 1 unless closed)."""
        while not self.pending:
            data = self.inbox.get()
            if not data:
                self.closed = True
                return b""
            self.pending += data
        out = bytes(self.pending[:n])
        del self.pending[:n]
        return out

    def boot(self):
        if self.interp is not None:
            self.interp.close()
        self.interp = Interpreter(self.args.flash, self.args.corrupt, self.args.heap)

    def execute(self, code: bytes) -> str:
        """Run code; send output, \\x04, error, \\x04 and the ">" prompt."""
        self.log("exec " + (code.decode("utf-8", "replace").strip().splitlines() or [""])[0][:100])
        assert self.interp is not None
        status, err, out = self.interp.run(code, self.send_cooked)
        if status == "reset":
            # machine.reset(): a real Pico drops off USB here; the fake one
            # reboots (fresh interpreter) and waits for the host to hang up.
            self.log("hard-reset")
            self.boot()
            return "reset"
        # the board's traceback starts at the submitted program: drop the
        # frame of the MicroPython-side loop that exec()s it
        lines = err.split(b"\n")
        if len(lines) > 2 and lines[0].startswith(b"Traceback") and lines[1].startswith(b'  File "<stdin>"'):
            del lines[1]
            err = b"\n".join(lines)
        # one send: the host polls every 10 ms, a split answer costs a poll
        self.send(cooked(out) + b"\x04" + cooked(err) + b"\x04>")
        if status == "dead":
            self.log("interpreter died; rebooting")
            self.boot()
        return status

    # -- REPL modes ------------------------------------------------------
    def run(self):
        t = threading.Thread(target=self.reader, daemon=True)
        t.start()
        mode = "friendly"
        try:
            while not self.closed:
                mode = self.friendly() if mode == "friendly" else self.raw()
        finally:
            if self.interp is not None:
                self.interp.close()
            try:
                self.sock.close()
            except OSError:
                pass

    def soft_reset(self):
        self.log("soft-reset")
        self.boot()
        self.send(b"MPY: soft reboot\r\n")

    def friendly(self) -> str:
        while True:
            c = self.byte()
            if c is None:
                return "closed"
            if c == 0x01:
                self.send(b"\r\n" + RAW_BANNER + b">")
                return "raw"
            if c == 0x02:
                self.send(b"\r\n" + BANNER + b">>> ")
            elif c == 0x03:
                self.send(b"\r\n>>> ")
            elif c == 0x04:
                self.soft_reset()
                self.send(BANNER + b">>> ")
            elif c == 0x0D:
                self.send(b"\r\n>>> ")
            else:
                self.send(bytes([c]))

    def raw(self) -> str:
        line = bytearray()
        while True:
            c = self.byte()
            if c is None:
                return "closed"
            if c == 0x01:
                if len(line) == 2 and line[0] == 0x05:
                    if line[1] == ord("A"):
                        if self.raw_paste() == "reset":
                            return "friendly"
                        line = bytearray()
                        continue
                    self.send(b"R\x00")        # an unknown raw-paste variant
                    line = bytearray()
                    continue
                self.send(RAW_BANNER + b">")
                line = bytearray()
            elif c == 0x02:
                self.send(b"\r\n" + BANNER + b">>> ")
                return "friendly"
            elif c == 0x03:
                line = bytearray()
            elif c == 0x04:
                self.send(b"OK")
                if not line:
                    self.send(b"\r\n")
                    self.soft_reset()
                    self.send(RAW_BANNER + b">")
                    continue
                if self.execute(bytes(line)) == "reset":
                    return "friendly"
                line = bytearray()
            else:
                line.append(c)

    def raw_paste(self) -> str:
        self.send(b"R\x01" + PASTE_WINDOW.to_bytes(2, "little"))
        code = bytearray()
        since_grant = 0
        while True:
            chunk = self.take(PASTE_WINDOW - since_grant)
            if not chunk:
                return "closed"
            end = chunk.find(b"\x04")
            if end >= 0:
                code += chunk[:end]
                self.pending[:0] = chunk[end + 1:]
                break
            code += chunk
            since_grant += len(chunk)
            if since_grant >= PASTE_WINDOW:
                since_grant = 0
                self.send(b"\x01")
        self.send(b"\x04")              # end of data acknowledged
        return self.execute(bytes(code))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--flash", required=True, type=Path, help="folder that plays the board's flash")
    ap.add_argument("--port", type=int, default=0, help="TCP port on 127.0.0.1 (0 = any free)")
    ap.add_argument("--corrupt", default="", metavar="NAME",
                    help="flip the first byte written to files whose path ends with NAME")
    ap.add_argument("--heap", default="340K", help="MicroPython heap (default 340K, Pico-like)")
    ap.add_argument("--log", type=Path, help="append events here")
    args = ap.parse_args(argv)
    args.flash = args.flash.resolve()
    args.flash.mkdir(parents=True, exist_ok=True)

    lock = threading.Lock()

    def log(msg):
        if args.log:
            with lock, open(args.log, "a") as f:
                f.write("%.3f %s\n" % (time.monotonic(), msg))

    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(("127.0.0.1", args.port))
    srv.listen(1)
    print("fake board listening on 127.0.0.1:%d" % srv.getsockname()[1], flush=True)
    signal.signal(signal.SIGTERM, lambda *a: sys.exit(0))
    try:
        while True:
            # one session at a time, like a USB serial port
            sock, _ = srv.accept()
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            log("connect")
            Session(sock, args, log).run()
            log("disconnect")
    except KeyboardInterrupt:
        pass
    finally:
        srv.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
