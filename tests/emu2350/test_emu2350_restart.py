"""Ctrl-C, then main() at the REPL, several times on the Pico 2 (issue 18):
each start claims DMA channels for the buttons and the LED chains; a
stopped game must give them back, or a later start finds none left."""
from emu.table import EmuTable


def test_ctrl_c_then_main_again_many_times_on_the_pico2(image):
    with EmuTable("pico2-8p", flash=image("pico2-8p")) as t:
        t.boot(3000)
        for i in range(4):
            k = len(t.lines)
            t.pico.send("\x03")
            t.run(300)
            assert any("stopped (Ctrl-C)" in line for line in t.lines[k:]), t.lines[k:]
            n = len(t.events)
            t.pico.send("from rp2port.app import main\r\nmain()\r\n")
            t.wait_event("boot", 3000, since=n)
            t.run(100)
            t.press(i)
            assert t.kinds()[-1] == "join", t.lines[-4:]
            assert t.events[-1]["p"] == "P%d" % (i + 1)
        errors = [line for line in t.lines if "Error" in line]
        assert not errors, errors                 # Ctrl-C gives KeyboardInterrupt, nothing else
