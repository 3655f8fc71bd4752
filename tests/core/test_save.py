"""The saved-game file (firmware/cheesebox/save.py) on the simulated flash.

Runs on CPython (pytest) and on MicroPython (tests/mp_runner.py). The
power-cut sweeps over a real box are in tests/test_power_cuts.py.
"""
from cheesebox import save as S
from sim.simfs import SimFS, PowerCut

STATE = {"v": 1, "board": "pico-4p", "joined": [1, 1, 1, 1, 0, 0, 0, 0], "choice": 0,
         "in_play": [0, 1, 2], "games": 1,
         "match": {"stations": [0, 1, 2, 3], "points": [7, 5, 6, 7, 0, 0, 0, 0],
                   "active": [1, 1, 1, 1, 0, 0, 0, 0], "eliminated": [], "round_no": 2,
                   "rounds": 2, "replays": 0, "marked": 2, "no_wheel": 2, "winner": -1,
                   "lost": [0, 0, 1, 0, 0, 0, 0, 0]},
         "campaign": None}


def _raises(text):
    """The SaveError message decode(text) gives ('' if it does not raise)."""
    try:
        S.decode(text)
    except S.SaveError as e:
        return str(e)
    return ""


def _store(files=None):
    fs = SimFS()
    if files:
        fs.files.update(files)
    return fs, S.Store(fs, fs.open)


def _body(text):
    """A file holding `text` as its JSON line, with a correct checksum."""
    return "%s\n%08x\n" % (text, S.crc32(text.encode()))


def test_encode_decode_round_trip():
    text = S.encode(STATE)
    assert text.endswith("\n") and text.count("\n") == 2
    assert S.decode(text) == STATE
    # a campaign and a finished game too
    st = dict(STATE)
    st["campaign"] = {"wins": [1, 0, 2, 0, 0, 0, 0, 0], "game": 3, "yellows": [0, 2],
                      "tiebreak": [], "king": -1}
    assert S.decode(S.encode(st)) == st


def test_checksum_mismatch_raises():
    text = S.encode(STATE)
    # one digit of a point changed, checksum left as it was
    i = text.find("\"points\": [7, 5")
    assert i > 0
    bad = text[:i + 11] + "6" + text[i + 12:]
    assert bad != text
    assert "checksum" in _raises(bad)
    # the checksum itself damaged
    lines = text.split("\n")
    assert "checksum" in _raises(lines[0] + "\n00000000\n")
    assert "checksum" in _raises(lines[0] + "\n\n")


def test_truncated_file_raises_at_every_length():
    text = S.encode(STATE)
    # everything short of the final newline is damaged
    for k in range(len(text) - 1):
        assert _raises(text[:k]) != "", k
    assert "truncated" in _raises("")
    assert "truncated" in _raises(text.split("\n")[0])
    # without only the final newline the file is still whole
    assert S.decode(text[:-1]) == STATE


def test_bad_json_raises():
    assert "JSON" in _raises(_body("{\"v\": 1, "))
    assert "JSON" in _raises(_body("cheese"))


def test_unknown_version_raises():
    st = dict(STATE)
    st["v"] = 2
    assert "version" in _raises(S.encode(st))
    del st["v"]
    assert "version" in _raises(S.encode(st))


def test_not_a_dict_raises():
    for body in ("[1, 2, 3]", "1", "\"v\"", "null", "[{\"v\": 1}]"):
        assert "version" in _raises(_body(body)), body


def test_load_without_a_file_is_none():
    fs, st = _store()
    assert st.load() is None
    assert st.problem == "" and fs.files == {}


def test_save_then_load_gives_the_same_state():
    fs, st = _store()
    st.save(STATE)
    assert sorted(fs.files) == ["game.json"]
    assert st.writes == 1
    assert S.Store(fs, fs.open).load() == STATE
    # saved over: the newest state
    st2 = dict(STATE)
    st2["games"] = 2
    st.save(st2)
    assert st.writes == 2 and sorted(fs.files) == ["game.json"]
    assert S.Store(fs, fs.open).load() == st2


def test_save_writes_in_chunks_then_flush_close_rename():
    fs, st = _store()
    size = len(S.encode(STATE))
    fs.arm()
    st.save(STATE)
    chunks = (size + S.Store.CHUNK - 1) // S.Store.CHUNK
    assert fs.steps == chunks + 3        # the writes, flush, close, rename
    assert fs.written == size


def test_corrupt_file_set_aside_as_bad():
    for text in ("", "garbage", S.encode(STATE)[:40], S.encode(STATE).replace("7", "8", 1),
                 _body("[1]"), _body("{\"v\": 9}")):
        fs, st = _store({"game.json": text, "game.bad": "an older bad file"})
        assert st.load() is None
        assert "game.json" in st.problem and "game.bad" in st.problem
        assert "game.json" not in fs.files
        assert fs.files["game.bad"] == text          # the newest bad file is kept
    fs, st = _store({"game.json": "garbage"})
    st.load()
    assert "checksum" in st.problem or "truncated" in st.problem
    # a later good load clears the problem
    st.save(STATE)
    assert st.load() == STATE and st.problem == ""


def test_stray_tmp_is_removed():
    fs, st = _store({"game.tmp": "{\"v\": 1, \"boa"})
    assert st.load() is None and fs.files == {} and st.problem == ""
    # next to a good game.json: the good one is loaded, the stray dropped
    fs, st = _store({"game.tmp": "{\"v\"", "game.json": S.encode(STATE)})
    assert st.load() == STATE and sorted(fs.files) == ["game.json"]


def test_clear_removes_game_and_tmp():
    fs, st = _store({"game.tmp": "x", "game.json": S.encode(STATE), "game.bad": "y"})
    st.clear()
    assert sorted(fs.files) == ["game.bad"]
    st.clear()                              # nothing to clear: no error
    assert st.load() is None


def test_cut_save_leaves_old_or_new_state():
    # every step and every byte of one save over an older one
    new = dict(STATE)
    new["games"] = 7
    fs, st = _store()
    st.save(STATE)
    fs.arm()
    st.save(new)
    steps, size = fs.steps, fs.written
    tried = 0
    for kind in ("step", "byte"):
        # step k: the k-th operation does not happen; byte k: the bytes before it are kept
        for k in range(steps if kind == "step" else size + 1):
            fs, st = _store()
            st.save(STATE)
            if kind == "step":
                fs.arm(step=k)
            else:
                fs.arm(byte=k)
            try:
                st.save(new)
                cut = False
            except PowerCut:
                cut = True
            fs.arm()                        # power back: nothing armed any more
            got = S.Store(fs, fs.open).load()
            assert got == STATE or got == new, (kind, k)
            assert cut
            assert "game.tmp" not in fs.files and "game.bad" not in fs.files
            tried += 1
    assert tried == steps + size + 1 and steps > 3 and size > 64


def test_crc32_bitwise_equals_crc32():
    for data in (b"", b"a", b"123456789", S.encode(STATE).encode(), bytes(range(256))):
        assert S.crc32_bitwise(data) == S.crc32(data) & 0xFFFFFFFF, data
    assert S.crc32_bitwise(b"123456789") == 0xCBF43926       # the standard check value


def test_the_port_reads_its_buttons_between_the_saves_writes():
    """Each write may be a flash erase (up to 400 ms with the CPU held): the
    Store calls `between` before the first and after every write, the close
    and the rename, so the Pico reads its button ring in those gaps."""
    fs, st = _store()
    trace = []
    real_open = fs.open

    class Tracked:
        def __init__(self, f):
            self.f = f

        def write(self, b):
            trace.append("write")
            return self.f.write(b)

        def flush(self):
            self.f.flush()

        def close(self):
            trace.append("close")
            self.f.close()

    st.open = lambda name, mode="r": Tracked(real_open(name, mode))
    st.between = lambda: trace.append("read buttons")
    st.save(STATE)
    assert trace[0] == "read buttons" and trace[-1] == "read buttons"
    writes = [i for i, t in enumerate(trace) if t == "write"]
    assert len(writes) > 3                      # the state takes several writes
    for i in writes:                            # none runs straight into the next
        assert trace[i + 1] == "read buttons"
    assert trace.count("read buttons") == len(writes) + 3   # + before, after close, after rename
    assert S.decode(fs.files[S.GAME]) == STATE
