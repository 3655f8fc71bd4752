"""The box's firmware version: the one firmware/manifest.py declares (its
metadata), here as a deployed constant the box can say (boot event, the
console's `state`) without reading a host-only file. tests/test_version.py
fails when the two differ; make flash compares it with the board's."""
VERSION = "0.14.0"
