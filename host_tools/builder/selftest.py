"""The bring-up self-test from the PC: start it, follow it, print the checklist.

    make selftest PORT=auto          (or .venv/bin/python host_tools/builder/selftest.py --port DEV)

Sends `selftest` on the box's USB serial console (at the joining screen),
or with --listen only follows a self-test started on the box (buzzer 1
held while powering up); --file reads a saved log instead. While the box
runs through its steps (firmware/rp2port/selftest.py), this prints what
to look at; then the input check: press every buzzer, ROLL, every key or
turn every dial through 0-7, and hold ROLL 3 s to finish.

The checklist says what was seen and what was not ("station 5: buzzer
never pressed"). WS2812 LEDs answer nothing on their wire, so for each LED
step the builder says what they saw (asked here; --yes takes every LED step
as seen, --no-ask leaves them "not confirmed"). The report is saved
(--report, default selftest-report.txt). Exit code 0 when everything was
seen and confirmed, 1 otherwise, 2 for a port or file that cannot be used.
"""
import argparse
import json
import sys
import time

LED_CHECKS = {
    "walk": "chain {chain}: one light ran along all {pixels} pixels, in order, to the last one",
    "colour": "every LED showed {colour}",
    "matrices": "each die shows its number (1-6) upright, red top left, green top right, "
                "blue bottom left, white bottom right; each track shows its station number",
    "sweep": "the piezo swept from low to high ({from_hz}-{to_hz} Hz), loudest around 2-4 kHz",
}


def events_of(lines):
    """The selftest (and error) events among console lines; the rest is skipped."""
    for line in lines:
        i = line.find("{")
        if i < 0 or '"ev"' not in line:
            continue
        try:
            ev = json.loads(line[i:])
        except ValueError:
            continue
        if isinstance(ev, dict) and ev.get("ev") in ("selftest", "error"):
            yield ev


def checklist(events, confirm=None):
    """(lines of the report, everything fine?) for a self-test's events.

    confirm(text) -> True/False/None asks the builder about an LED step
    (None: not asked)."""
    out = []
    ok = True
    start = next((e for e in events if e["step"] == "start"), None)
    if start is None:
        return ["no self-test seen on the console (is the box at the joining screen?)"], False
    n, plates = start["stations"], start["plates"]
    b = start["budget"]
    out.append("board %s: %d stations, plates: %s, chains: %s" % (
        start["board"], n, plates, ", ".join("%s (%d px)" % (c, p) for c, p in start["chains"])))
    out.append("power budget: max_ma %d, %d mA idle, %d mA for lit LEDs; brightness %d per mille, "
               "full white would go out at %d" % (b["max_ma"], b["idle_ma"], b["room_ma"], b["permille"],
                                                  b["white_permille"]))
    if b["room_ma"] <= 0:
        out.append("PROBLEM: max_ma does not cover the pixels' idle draw: the LEDs stay dark")
        ok = False
    out.append("")
    out.append("LEDs and piezo (the builder's eyes and ears):")
    for e in events:
        if e["step"] in LED_CHECKS:
            text = LED_CHECKS[e["step"]].format(**e)
            answer = confirm(text) if confirm is not None else None
            mark = {True: "seen     ", False: "NOT SEEN ", None: "not confirmed"}[answer]
            out.append("  [%s] %s" % (mark.strip(), text))
            if answer is not True:
                ok = False
    ends = [e for e in events if e["step"] == "end"]
    out.append("")
    out.append("inputs:" if ends else "inputs (the self-test did not finish):")
    if not ends:
        ok = False
    down = set(e["input"] for e in events if e["step"] == "input" and e["down"])
    placed = {}
    for e in events:
        if e["step"] == "plate":
            placed.setdefault(e["station"], set()).add(e["value"])
    for s in range(1, n + 1):
        name = "P%d" % s
        line = "station %d: buzzer %s" % (s, "pressed" if name in down else "never pressed")
        if name not in down:
            ok = False
        if plates in ("keys", "dial"):
            missing = sorted(set(range(8)) - placed.get(s, set()))
            what = "keys" if plates == "keys" else "dial positions"
            if missing:
                ok = False
                line += "; %s never seen: %s" % (what, " ".join(str(k) for k in missing))
            else:
                line += "; %s 0-7 all seen" % what
        out.append("  " + line)
    out.append("  ROLL: %s" % ("pressed" if "ROLL" in down else "never pressed"))
    if "ROLL" not in down:
        ok = False
    for e in events:
        if e["step"] == "stuck":
            ok = False
            out.append("  PROBLEM: %s stuck (held 5 s, or down when the check began)" % e["input"])
        elif e["step"] == "chatter":
            ok = False
            out.append("  PROBLEM: %s chatters (%d edges in one second): a bad contact or a loose wire"
                       % (e["input"], e["edges"]))
    out.append("")
    out.append("result: %s" % ("everything seen" if ok else "something to fix or confirm (above)"))
    return out, ok


def ask(text):
    """The builder's answer about an LED step (y/n; Enter: not confirmed)."""
    try:
        a = input("Did you see this? %s [y/n] " % text).strip().lower()
    except EOFError:
        return None
    return True if a.startswith("y") else False if a.startswith("n") else None


def follow(lines, say):
    """The selftest events as they come, until `end` (a guide for the builder on the way)."""
    events = []
    for ev in events_of(lines):
        if ev["ev"] == "error":
            say("box: %s" % ev.get("what"))
            if "self-test" in str(ev.get("what")):
                break
            continue
        events.append(ev)
        step = ev["step"]
        if step in LED_CHECKS:
            say("look: " + LED_CHECKS[step].format(**ev))
        elif step == "inputs":
            say("now press every buzzer and ROLL%s; hold ROLL 3 s to finish (%d s at most)" % (
                {"keys": ", every key 0-7 of every station",
                 "dial": ", turn every dial through 0-7"}.get(ev.get("plates"), ""), ev["seconds"]))
        elif step in ("input", "plate") and ev.get("down", True):
            say("  seen: %s" % (ev.get("input") or "station %d %s %d" % (ev["station"], ev["kind"], ev["value"])))
        elif step in ("stuck", "chatter"):
            say("  PROBLEM: %s %s" % (ev["input"], step))
        if step == "end":
            break
    return events


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument("--port", metavar="DEV", help="the box: 'auto', a serial device or a pyserial URL")
    src.add_argument("--file", metavar="LOG", help="a saved console log of a self-test")
    ap.add_argument("--listen", action="store_true", help="do not send `selftest`: follow one started on the box")
    ap.add_argument("--report", default="selftest-report.txt", help="where to save the checklist")
    ap.add_argument("--yes", action="store_true", help="take every LED step as seen")
    ap.add_argument("--no-ask", action="store_true", help="ask nothing: LED steps stay 'not confirmed'")
    args = ap.parse_args(argv)

    def say(msg):
        print(msg, flush=True)
    if args.file:
        try:
            with open(args.file, encoding="utf-8", errors="replace") as f:
                events = follow(f.read().splitlines(), say)
        except OSError as e:
            print("selftest: %s" % e, file=sys.stderr)
            return 2
    else:
        from host_tools.deploy import boardport
        try:
            dev = boardport.resolve(args.port)
            ser = boardport.open_port(dev)
        except boardport.PortError as e:
            print("selftest: %s" % e, file=sys.stderr)
            return 2
        say("connected: %s" % dev)
        if not args.listen:
            time.sleep(0.2)
            ser.write(b"selftest\r\n")
        try:
            events = follow(boardport.read_lines(ser), say)
        except KeyboardInterrupt:
            events = []
        finally:
            ser.close()
    confirm = (lambda text: True) if args.yes else None if (args.no_ask or not sys.stdin.isatty()) else ask
    lines, ok = checklist(events, confirm)
    text = "Cheese Box self-test, %s\n\n%s\n" % (time.strftime("%Y-%m-%d %H:%M"), "\n".join(lines))
    print(text)
    with open(args.report, "w", encoding="utf-8") as f:
        f.write(text)
    print("saved: %s" % args.report)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
