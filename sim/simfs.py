"""A simulated flash filesystem that can lose power at any byte or step.

The box saves through save.Store(fs, fs.open). This fs keeps files in a
dict, behaves like the Pico's LittleFS where it matters (rename over an
existing file is atomic; bytes written before a cut may be on flash, the
rest are not), and can be armed to cut the power:
- at a byte offset: the write that reaches it stores the bytes before it,
  then the power goes (PowerCut is raised);
- at a step: the n-th operation (each write call, flush, close, rename,
  remove) does not happen, the power goes instead.
It can also take the flash's time (timed()): opening a file to write
programs a page (its entry), its first write erases a 4 KiB sector, every
256 bytes program a page, a close or a rename two more (about what the
Pico's LittleFS does for a save: one erase, 7-8 pages; emu/pico.mjs logs
them), spent on the simulated clock as the Pico's loop spends it, held.
Pure Python: runs on MicroPython too.
"""

# W25Q16JV (the Pico's flash), datasheet: us a 4 KiB erase, us a 256-byte page
FLASH_US = {"typical": (45000, 400), "max": (400000, 3000)}
_PAGE = 256


class PowerCut(Exception):
    """The power went: nothing after this point happened."""


class SimFile:
    def __init__(self, fs, name, mode):
        self.fs = fs
        self.name = name
        self.mode = mode
        self.pos = 0
        self.fresh = "w" in mode        # its first write erases a sector (timed fs)
        if "w" in mode:
            fs.page()
            fs.files[name] = ""
        elif name not in fs.files:
            raise OSError(2, "ENOENT")

    def write(self, text):
        fs = self.fs
        fs.step()
        if fs.spend is not None:
            n = len(fs.files[self.name])
            pages = (n + len(text)) // _PAGE - n // _PAGE
            fs.spend((fs.erase_us if self.fresh else 0) + pages * fs.page_us)
            self.fresh = False
        if fs.cut_byte >= 0 and fs.written + len(text) >= fs.cut_byte:
            keep = fs.cut_byte - fs.written
            fs.files[self.name] += text[:keep]
            fs.written += keep
            fs.cut_byte = -1
            raise PowerCut("power cut at byte %d" % fs.written)
        fs.files[self.name] += text
        fs.written += len(text)
        return len(text)

    def read(self):
        data = self.fs.files[self.name][self.pos:]
        self.pos += len(data)
        return data

    def flush(self):
        self.fs.step()

    def close(self):
        self.fs.step()
        self.fs.page(2)


class SimFS:
    def __init__(self):
        self.files = {}
        self.steps = 0          # operations done
        self.written = 0        # bytes written
        self.cut_step = -1
        self.cut_byte = -1
        self.spend = None       # timed(): spend(us) moves the clock on
        self.erase_us = self.page_us = 0

    def timed(self, spend, times="typical"):
        """Take the flash's time from now: spend(us) is called as each
        operation takes it (times: FLASH_US's "typical" or "max")."""
        self.spend = spend
        self.erase_us, self.page_us = FLASH_US[times]

    def page(self, n=1):
        if self.spend is not None:
            self.spend(n * self.page_us)

    def arm(self, step=-1, byte=-1):
        """Cut the power at operation number `step` or at byte `byte` (from now)."""
        self.steps = 0
        self.written = 0
        self.cut_step = step
        self.cut_byte = byte

    def step(self):
        if self.cut_step >= 0 and self.steps >= self.cut_step:
            self.cut_step = -1
            raise PowerCut("power cut at step %d" % self.steps)
        self.steps += 1

    def open(self, name, mode="r"):
        return SimFile(self, name, mode)

    def listdir(self, path=""):
        return list(self.files)

    def remove(self, name):
        self.step()
        if name not in self.files:
            raise OSError(2, "ENOENT")
        del self.files[name]

    def rename(self, old, new):
        self.step()
        if old not in self.files:
            raise OSError(2, "ENOENT")
        self.files[new] = self.files.pop(old)     # atomic, like LittleFS
        self.page(2)
