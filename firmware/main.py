"""The Cheese Box: started by MicroPython at power-up.

Hold ROLL while powering up to skip the game (safe boot) and keep the REPL
free for mpremote.
"""
from rp2port.app import main

main()
