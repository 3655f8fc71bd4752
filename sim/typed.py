"""Commands the simulator prints (usage, the replay line), as they work typed.

A bare `python -m sim` fails outside the venv (No module named 'rich'): the
simulator names the interpreter running it, by the path typed from here
(.venv/bin/python in the repository), and `make sim ARGS=...` when make ran it.
"""
import os
import shlex
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def python_m(module="sim"):
    """`<this interpreter> -m MODULE`, the interpreter as a path that works
    typed in the current folder (never a bare name a shell looks up)."""
    exe = sys.executable or "python3"
    try:
        rel = os.path.relpath(exe)
    except ValueError:                  # another drive (Windows)
        rel = exe
    path = rel if not rel.startswith("..") else exe
    if os.sep not in path:
        path = "." + os.sep + path
    return "%s -m %s" % (shlex.quote(path), module)


def sim_command(args):
    """The command that runs the simulator with these arguments (a list):
    `make sim ARGS="..."` when make started it in the repository, else the
    interpreter's own."""
    line = " ".join(shlex.quote(a) for a in args)
    if os.environ.get("MAKELEVEL") and os.path.abspath(os.getcwd()) == ROOT:
        return 'make sim ARGS="%s"' % line.replace('"', '\\"') if line else "make sim"
    return ("%s %s" % (python_m(), line)).rstrip()
