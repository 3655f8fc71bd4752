"""The icons on the emulated Pico: as `make flash` lays out the flash, the art
modules come baked for the board's dice and the box takes them as they are
(the boot event says nothing of icons); with the art copied by hand as its
source, or a board file for other dice put on after flashing, the box bakes
them at power-up, says why in the boot event, and draws the same pixels."""
import json

from emu.pico import locate
from emu.table import EmuTable

from host_tools.deploy import fsimage

REPO_ART = "firmware/cheesemaster/icons.py"


def _image(tmp_path, board, change):
    """A pico-4p flash image laid out as make flash does, then changed by
    change(tree) (as a builder's hand would change the board's files)."""
    import os
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    tree = tmp_path / "flash"
    chip = fsimage.deploy_tree(board, tree)
    change(tree, root)
    path = tmp_path / "changed.img"
    path.write_bytes(fsimage.flash_image(locate(chip)[0], fsimage.littlefs_image(tree, chip), chip))
    return str(path)


def _three_joined(image, board="pico-4p"):
    """(boot event, the dice chain's frame with three players joined: two
    wheels shown, the game started)."""
    with EmuTable(board, flash=image) as t:
        boot = t.boot(6000)
        t.run(300)
        for s in range(3):
            t.press(s)
            t.run(60)
        frame = bytes(t.last_frame(0))
        t.press("roll")
        t.run(300)
        assert "game" in t.kinds() or "menu" in t.kinds(), t.kinds()
        return boot, frame


def test_the_deployed_icons_are_taken_as_they_are(image):
    boot, frame = _three_joined(image("pico-4p"))
    assert "icons_baked" not in boot, boot
    assert sum(1 for i in range(0, len(frame), 3) if any(frame[i:i + 3])) > 40   # two wheels


def test_art_copied_by_hand_is_baked_at_power_up_with_the_same_pixels(image, tmp_path):
    def hand_copy(tree, root):      # the source beside the deployed .mpy: import takes the .py
        (tree / "cheesemaster" / "icons.py").write_bytes(open(root + "/" + REPO_ART, "rb").read())
    boot, frame = _three_joined(_image(tmp_path, "pico-4p", hand_copy))
    assert "cheesemaster.icons as its source" in boot.get("icons_baked", ""), boot
    assert frame == _three_joined(image("pico-4p"))[1]


def test_a_board_file_for_other_dice_put_on_after_flashing_bakes_for_them(tmp_path):
    def rows(tree, root):
        spec = json.loads((tree / "board.json").read_text())
        for d in spec["dice"]:
            d["layout"] = "rows"
        (tree / "board.json").write_text(json.dumps(spec))
    boot, frame = _three_joined(_image(tmp_path, "pico-4p", rows))
    assert "baked for serpentine dice, the board's are rows" in boot.get("icons_baked", ""), boot
    assert sum(1 for i in range(0, len(frame), 3) if any(frame[i:i + 3])) > 40
