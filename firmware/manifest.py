# The deploy list of the Cheese Box: what goes on the Pico's flash.
#
# micropython-lib's manifest style, read on the host (host_tools/deploy/deploylist.py),
# never copied to the board. host_tools/deploy/flash.py deploys exactly this list,
# host_tools/deploy/check_mpy.py compiles it, and package.json (mpremote mip) is
# generated from it. A package's *.py files all go; data files are named.
metadata(description="The Cheese Box: Cheese Master and Cheesonomics on a Pico", version="0.14.0")

module("main.py")              # MicroPython runs main.py only as source
module("gate.py")              # main.py's version gate and start-up errors: source too
package("cheesebox")           # the shell: pure, imports no game, no hardware
package("rp2port")             # the Pico port: the only hardware code
package("cheesemaster")        # game 1
package("cheesonomics")        # game 2, the box side
data("cheesonomics/cards.json")
