"""firmware/manifest.py, read on the host: the list of files the box gets.

The manifest is micropython-lib's style (metadata, module, package) plus
`data` for files that are not Python (a card list). Reading it runs it with
those four names only: it declares, it does nothing. Every tool that needs
the deploy list (flash.py, check_mpy.py, the package.json for mip, the
emulator's host-built flash images) asks here, so none lists files itself.
"""
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
FIRMWARE = REPO / "firmware"
MANIFEST = FIRMWARE / "manifest.py"


class ManifestError(Exception):
    pass


class Manifest:
    """The files the board gets, relative to firmware/ (their place on the board)."""

    def __init__(self, path=MANIFEST):
        self.path = Path(path)
        self.root = self.path.parent
        self.meta: dict = {}
        self.modules: list[str] = []       # top-level source files (main.py)
        self.packages: list[str] = []      # package folders, each to :NAME/
        self.data: list[str] = []          # data files, as they are
        env = {"metadata": self._metadata, "module": self._module,
               "package": self._package, "data": self._data, "__builtins__": {}}
        try:
            code = compile(self.path.read_text(), str(self.path), "exec")
            exec(code, env)  # our own declarative file
        except ManifestError:
            raise
        except Exception as e:
            raise ManifestError("%s: %s: %s" % (self._rel(self.path), type(e).__name__, e))

    def _rel(self, p):
        try:                            # as the repository names it: firmware/...
            return Path(p).relative_to(self.root.parent).as_posix()
        except ValueError:
            return str(p)

    def _metadata(self, **kw):
        self.meta.update(kw)

    def _module(self, name):
        if not (self.root / name).is_file():
            raise ManifestError("%s: module(%r): no such file" % (self._rel(self.path), name))
        self.modules.append(name)

    def _package(self, name):
        d = self.root / name
        if not (d / "__init__.py").is_file():
            raise ManifestError("%s: package(%r): no %s/__init__.py"
                                % (self._rel(self.path), name, self._rel(d)))
        nested = [p for p in d.iterdir() if p.is_dir() and p.name != "__pycache__"]
        if nested:
            raise ManifestError("%s: package(%r) has subfolders (%s): flash.py copies one "
                                "folder level" % (self._rel(self.path), name,
                                                  ", ".join(p.name for p in nested)))
        self.packages.append(name)

    def _data(self, path):
        if not (self.root / path).is_file():
            raise ManifestError("%s: data(%r): no such file" % (self._rel(self.path), path))
        self.data.append(path)

    @property
    def version(self):
        return self.meta.get("version", "")

    def sources(self):
        """Every .py the board gets: PKG/NAME.py of each package, then the modules."""
        out = []
        for pkg in self.packages:
            out += sorted("%s/%s" % (pkg, p.name) for p in (self.root / pkg).glob("*.py")
                          if not p.name.startswith("test_"))
        return out + list(self.modules)

    def files(self):
        """Every file the board gets, relative to firmware/."""
        return self.sources() + list(self.data)

    def unlisted(self):
        """Files under firmware/ that the board would not get (nothing host-only
        belongs there but the manifest itself)."""
        listed = set(self.files()) | {self.path.name}
        out = []
        for p in sorted(self.root.rglob("*")):
            if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc":
                rel = p.relative_to(self.root).as_posix()
                if rel not in listed:
                    out.append(rel)
        return out


def read(path=MANIFEST):
    return Manifest(path)
