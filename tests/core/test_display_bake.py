# Icons baked into a matrix's wiring order: pixel (x, y) of every icon of
# every set lands at the wire position wire_index gives, on both layouts the
# board files allow (CPython from the art's source, MicroPython from the art
# modules as make flash deploys them: iconset.art_of reads either).
from cheesebox import icons
from cheesebox.display import wire_index
from cheesebox.iconset import art_of, bake
from cheesemaster import icons as faces


def _index(chars):
    t = bytearray(256)
    for i in range(len(chars)):
        t[ord(chars[i])] = i
    return t


def test_every_icon_lands_pixel_for_pixel_in_the_wiring_order():
    shell = art_of(icons)[0]
    for art, chars in ((icons, shell), (faces, shell + art_of(faces)[0])):
        t = _index(chars)
        for layout in ("rows", "serpentine"):
            for name, rows in art_of(art)[2]:
                got = bake(rows, layout, t)
                assert len(got) == 64
                for y in range(8):
                    for x in range(8):
                        assert chars[got[wire_index(layout, x, y)]] == chr(rows[y][x]), (name, layout, x, y)


def test_a_serpentine_matrix_runs_its_odd_rows_backwards():
    t = _index(art_of(icons)[0])
    rows = tuple(bytes(b"Y.......") for _ in range(8))
    got = bake(rows, "serpentine", t)
    lit = [i for i in range(64) if got[i]]
    assert lit == [0, 15, 16, 31, 32, 47, 48, 63]
    assert [i for i in range(64) if bake(rows, "rows", t)[i]] == [0, 8, 16, 24, 32, 40, 48, 56]
