# Core-test runner that runs ON MicroPython (unix port), and also on CPython.
#
#   MICROPYPATH=firmware:.:tests/core micropython -X heapsize=192K tests/mp_runner.py [DIR]
#
# Lists DIR/test_*.py (DIR defaults to tests/core, relative to the cwd,
# which is the repo root), imports each module by name (DIR must be on the
# import path), calls every module-level callable named test_* with no
# arguments, then drops the modules it brought in (each test module starts
# from the same heap), and ends with exactly one line "N passed, M failed".
# Exit status 1 if any test failed or if no test ran.
import gc
import os
import sys

DEFAULT_DIR = "tests/core"


def _print_exc(e):
    pe = getattr(sys, "print_exception", None)
    if pe is not None:
        pe(e)
    else:  # CPython fallback
        import traceback
        traceback.print_exception(type(e), e, e.__traceback__)


def _module_names(path):
    names = []
    for fn in os.listdir(path):
        if fn.startswith("test_") and fn.endswith(".py"):
            names.append(fn[:-3])
    names.sort()
    return names


def _tests_of(mod):
    items = []
    for name in dir(mod):
        if name.startswith("test_"):
            obj = getattr(mod, name)
            if callable(obj):
                items.append((name, obj))
    items.sort(key=lambda it: it[0])
    return items


def main(argv):
    path = DEFAULT_DIR
    if len(argv) > 1:
        path = argv[1]
    while len(path) > 1 and path.endswith("/"):
        path = path[:-1]
    if path not in sys.path:
        sys.path.append(path)

    passed = 0
    failed = 0
    try:
        mods = _module_names(path)
    except OSError as e:
        print("mp_runner: cannot list %s: %r" % (path, e))
        mods = []

    for modname in mods:
        gc.collect()
        before = set(sys.modules)
        try:
            mod = __import__(modname)
        except BaseException as e:  # noqa: B036 - import errors count as failures
            if isinstance(e, KeyboardInterrupt):
                raise
            failed += 1
            print("FAIL %s (import): %s: %s" % (modname, type(e).__name__, e))
            _print_exc(e)
            continue
        for name, fn in _tests_of(mod):
            gc.collect()
            try:
                fn()
            except BaseException as e:  # SystemExit from a test is a failure too
                if isinstance(e, KeyboardInterrupt):
                    raise
                failed += 1
                print("FAIL %s.%s: %s: %s" % (modname, name, type(e).__name__, e))
                _print_exc(e)
            else:
                passed += 1
                print("ok   %s.%s" % (modname, name))
        # drop the module, and every module it brought in, so their memory
        # can be reclaimed on small heaps: each test module starts from the
        # same heap, as if alone
        for name in list(sys.modules):
            if name not in before:
                del sys.modules[name]
        mod = fn = None
        gc.collect()

    print("%d passed, %d failed" % (passed, failed))
    if failed or passed == 0:
        sys.exit(1)


main(sys.argv)
