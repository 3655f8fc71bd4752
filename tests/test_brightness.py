"""host_tools/builder/brightness.py: the brightness the LEDs really go out at."""
from host_tools.builder import brightness


def test_the_usb_box_brightens_again_after_the_joining_screen():
    """On 500 mA the joining screen dims the chains; the old absolute +40 step
    kept the whole game at that level (26 per mille here), the relative step
    brightens for the faces."""
    old, _ = brightness.measure("pico-4p", 500, old=True)
    new, _ = brightness.measure("pico-4p", 500)
    assert old["grab"][1] == old["join"][0] < 30
    assert new["grab"][1] > 2 * old["grab"][1]


def test_the_boards_supplies_carry_the_game_at_full_brightness():
    for name in brightness.BOARDS:
        s, limit = brightness.measure(name, None)
        assert s["grab"] == (limit.permille,) * 3, name


def test_a_pc_port_cannot_even_light_the_pixels():
    """250 mA (what the Pico declares) does not cover 100 mA reserved + the pixels' idle draw."""
    s, limit = brightness.measure("pico-4p", 250)
    assert limit.room_ma < 0 and s["grab"][2] == 0
