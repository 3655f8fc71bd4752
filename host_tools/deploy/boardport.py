"""The box's USB serial console, for the host tools that read its event log.

Finds the Pico by its USB id (vendor 0x2E8A, Raspberry Pi: 2e8a:*), never a
built-in port such as /dev/ttyS0 that nothing answers on; opens the port
exclusively so two readers do not steal each other's lines (a busy port is
said so); and, for the live screen, follows the board through being
unplugged and plugged back. pyserial (which mpremote brings) is imported
only here, only when a port is asked for.
"""
import errno
import os
import sys
import time

PICO_USB_VID = 0x2E8A
RETRY_S = 0.5


class PortError(Exception):
    """A port that cannot be used: the message is for the user (exit 2)."""


def _serial():
    try:
        import serial
        import serial.tools.list_ports
    except ImportError as e:
        raise PortError("reading a board needs pyserial (pip install pyserial; mpremote brings it): %s" % e)
    return serial


def find_pico():
    """The device of the first Pico on USB, or None."""
    from serial.tools import list_ports
    picos = sorted(p.device for p in list_ports.comports() if p.vid == PICO_USB_VID)
    return picos[0] if picos else None


def no_board_message():
    from serial.tools import list_ports
    others = sorted(p.device for p in list_ports.comports())
    return ("no board: no Raspberry Pi Pico (USB 2e8a:*) is plugged in (serial ports: %s); "
            "plug the box in by USB, or name the port with --port DEV" % (", ".join(others) or "none"))


def resolve(port):
    """A device for --port: 'auto' finds the Pico (PortError if there is none)."""
    _serial()
    if port != "auto":
        return port
    dev = find_pico()
    if dev is None:
        raise PortError(no_board_message())
    return dev


def open_port(dev, baud=115200, tries=3):
    """An open serial port (read timeout 0.5 s), or PortError saying why not.
    A busy port is tried `tries` times, 0.1 s apart (a program closing it)."""
    for _ in range(tries - 1):
        try:
            return _open(dev, baud)
        except PortError as e:
            if "busy" not in str(e):
                raise
            time.sleep(0.1)
    return _open(dev, baud)


def _open(dev, baud):
    serial = _serial()
    try:
        if "://" in dev:
            return serial.serial_for_url(dev, baud, timeout=RETRY_S)
        return serial.Serial(dev, baud, timeout=RETRY_S, exclusive=True)
    except (OSError, ValueError, serial.SerialException) as e:
        text = str(e)
        if "://" not in dev and not os.path.exists(dev):
            raise PortError("%s: no such port (is the box plugged in? --port auto finds it)" % dev)
        if ("exclusively lock" in text or getattr(e, "errno", None) == errno.EBUSY
                or "[Errno 16]" in text):
            raise PortError("%s is busy: another program has it open (mpremote, Thonny, a serial "
                            "console, another eventlog or monitor); close it first" % dev)
        raise PortError("%s cannot be opened: %s" % (dev, text))


def read_lines(ser):
    """Lines from an open port, as text, until it fails (unplugged: OSError or
    SerialException) or Ctrl-C (KeyboardInterrupt goes up)."""
    buf = b""
    while True:
        chunk = ser.read(max(1, ser.in_waiting))     # what is there: no wait for a full block
        if not chunk:
            continue
        buf += chunk
        while b"\n" in buf:
            line, buf = buf.split(b"\n", 1)
            yield line.decode("utf-8", "replace").rstrip("\r")


def follow(port, baud=115200, status=None, retry_s=RETRY_S, sleep=time.sleep):
    """Lines from the board for as long as it runs, across unplugging.

    The first open must work (PortError otherwise: no board, busy, no such
    port). After that a failed read means the board went away: status() says
    so, and the port is tried again every retry_s until it is back."""
    if status is None:
        def status(msg):
            print(msg, file=sys.stderr)
    serial = _serial()
    dev = resolve(port)
    ser = open_port(dev, baud)
    status("connected: %s" % dev)
    while True:
        try:
            for line in read_lines(ser):
                yield line
        except (OSError, serial.SerialException) as e:
            status("board unplugged (%s): waiting for it to come back" % (str(e) or type(e).__name__))
        try:
            ser.close()
        except (OSError, serial.SerialException):
            pass
        while True:
            sleep(retry_s)
            try:
                dev = find_pico() if port == "auto" else port
                if dev is None:
                    continue
                ser = open_port(dev, baud)
                break
            except PortError:
                continue
        status("reconnected: %s" % dev)
