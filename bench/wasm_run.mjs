// Run a MicroPython script on the 32-bit webassembly MicroPython (npm
// @micropython/micropython-webassembly-pyscript, pinned in package.json).
//
//   node bench/wasm_run.mjs HEAPSIZE SCRIPT [ARG ...]
//
// Copies the modules the bench needs into the interpreter's file system at the
// same paths as in the repo (every firmware/ package: *.py and *.json; the
// port's hardware modules are copied but never imported; sim/*.py but the
// CPython-only view/wire/keys/__main__, each game's sim/<game>/*.py, boards/*.json,
// bench/mp/*.py, bench/*.txt, build/bench/*.txt), puts firmware/, ./ and bench/mp/ on sys.path, sets sys.argv
// to [SCRIPT, ARG ...] and runs SCRIPT. Exit code 1 on a Python exception
// (the package's own CLI exits 0 on one). One interpreter per Node process.
//
// HEAPSIZE does not cap memory: the heap grows when a collection fails. The
// scripts read the true heap as gc.mem_alloc() + gc.mem_free() - 128 MiB
// (see docs/bench.md).
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const [heapArg, script, ...args] = process.argv.slice(2);
if (!heapArg || !script) {
  process.stderr.write("usage: node bench/wasm_run.mjs HEAPSIZE SCRIPT [ARG ...]\n");
  process.exit(2);
}

const mp = await loadMicroPython({
  heapsize: parseInt(heapArg, 10),
  stdout: (line) => process.stdout.write(line + "\n"),
  stderr: (line) => process.stderr.write(line + "\n"),
});

function mkdirs(rel) {
  let cur = "";
  for (const part of rel.split("/")) {
    cur += "/" + part;
    try { mp.FS.mkdir(cur); } catch (e) { /* exists */ }
  }
}

function copy(dir, keep) {
  const abs = path.join(ROOT, dir);
  if (!fs.existsSync(abs)) return;
  mkdirs(dir);
  for (const name of fs.readdirSync(abs).sort()) {
    if (!keep(name)) continue;
    mp.FS.writeFile("/" + dir + "/" + name, fs.readFileSync(path.join(abs, name)));
  }
}

// sim/: every module but the CPython-only ones (terminal, NeoPixel capture)
const SIM_CPYTHON = new Set(["__main__.py", "view.py", "wire.py", "keys.py"]);
// every package under firmware/ (the shell, the port, each game), as deployed
for (const pkg of fs.readdirSync(path.join(ROOT, "firmware")).sort()) {
  if (fs.existsSync(path.join(ROOT, "firmware", pkg, "__init__.py"))) {
    copy("firmware/" + pkg, (n) => n.endsWith(".py") || n.endsWith(".json"));
  }
}
copy("sim", (n) => n.endsWith(".py") && !SIM_CPYTHON.has(n));
// each game's host side (sim/games.py finds it)
for (const pkg of fs.readdirSync(path.join(ROOT, "sim")).sort()) {
  if (fs.existsSync(path.join(ROOT, "sim", pkg, "__init__.py"))) copy("sim/" + pkg, (n) => n.endsWith(".py"));
}
copy("boards", (n) => n.endsWith(".json"));
copy("bench", (n) => n.endsWith(".txt"));
copy("bench/mp", (n) => n.endsWith(".py"));
copy("build/bench", (n) => n.endsWith(".txt"));

const argv = [script, ...args].map((a) => JSON.stringify(a)).join(", ");
try {
  mp.runPython(
    "import sys\n" +
    "sys.path[:] = ['/firmware', '/', '/bench/mp']\n" +
    "sys.argv[:] = [" + argv + "]\n" +
    "del sys\n");
  mp.runPython(fs.readFileSync(path.join(ROOT, script), "utf8"));
} catch (e) {
  process.stderr.write(String(e && e.message ? e.message : e) + "\n");
  process.exit(1);
}

// A script that defines bench_tick() is driven from here, one call a tick:
// returning to JavaScript is when this build really collects (see mp_game.py).
const tick = mp.globals.get("bench_tick");
if (tick !== undefined && tick !== null) {
  try {
    while (tick()) { /* next tick */ }
  } catch (e) {
    process.stderr.write(String(e && e.message ? e.message : e) + "\n");
    process.exit(1);
  }
}
