"""Building the hardware: wiring pictures and parts lists, the Wokwi projects, the brightness
budget, the bring-up self-test."""
