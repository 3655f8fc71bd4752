"""Putting the box's files on a Pico: the deploy manifest, flashing over USB, one UF2 image,
the .mpy check, and the USB serial port every host tool opens."""
