"""Host tools started for a test as a user starts them from a terminal, where
Ctrl-C (SIGINT) stops them.

A test run started in the background (`make test &`, nohup, some CI runners)
has SIGINT ignored, every child inherits that, and Python leaves an ignored
SIGINT ignored: a tool the test stops with SIGINT would then never stop
(three such tests timed out in fresh clones started with `&`, and passed
when started from a terminal)."""
import signal
import subprocess


def _ctrl_c_stops_it():
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def popen(args, **kw):
    """subprocess.Popen, with SIGINT back to what a terminal gives."""
    return subprocess.Popen(args, preexec_fn=_ctrl_c_stops_it, **kw)
