"""The box's flash in the browser: files kept in localStorage.

The box saves through save.Store(fs, fs.open) and settings.py through the
same object: open/listdir/remove/rename, as on the Pico's LittleFS. A file
reaches the storage when it is closed, and rename() stores the new name
before it drops the old one, so a reload (the page's power cut) at any
moment leaves the old file or the new one, never half of one. Each board
keeps its own files (a box per board: its own saved game and settings).

`storage` is anything with getItem/setItem/removeItem/key/length (the
browser's localStorage, or a dict-backed stand-in on the host).
"""


class _File:
    def __init__(self, fs, name, mode):
        self.fs = fs
        self.name = name
        self.writing = "w" in mode
        if self.writing:
            self.parts = []
        else:
            text = fs.storage.getItem(fs.prefix + name)
            if text is None:
                raise OSError(2, "ENOENT")
            self.text = text

    def write(self, text):
        self.parts.append(text)
        return len(text)

    def read(self):
        text = self.text
        self.text = ""
        return text

    def flush(self):
        pass

    def close(self):
        if self.writing:
            self.fs.storage.setItem(self.fs.prefix + self.name, "".join(self.parts))
            self.writing = False


class WebFS:
    def __init__(self, storage, prefix):
        self.storage = storage
        self.prefix = prefix

    def open(self, name, mode="r"):
        return _File(self, name, mode)

    def listdir(self, path=""):
        st = self.storage
        p = self.prefix
        out = []
        for i in range(st.length):
            k = st.key(i)
            if k is not None and k.startswith(p):
                out.append(k[len(p):])
        return out

    def remove(self, name):
        if self.storage.getItem(self.prefix + name) is None:
            raise OSError(2, "ENOENT")
        self.storage.removeItem(self.prefix + name)

    def rename(self, old, new):
        text = self.storage.getItem(self.prefix + old)
        if text is None:
            raise OSError(2, "ENOENT")
        self.storage.setItem(self.prefix + new, text)
        self.storage.removeItem(self.prefix + old)
