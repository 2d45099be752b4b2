"""The pin map: which Raspberry Pi Pico pin does what.  Pure data.

This is the single source.  hardware/README.md's pin table, hardware/wiring.svg
and the Wokwi simulator's hardware/diagram.json are generated from it
(``make wiring``) and tests/test_hardware.py fails if any of them disagree.
Nothing here imports ``machine`` (only device.buttons, for the button names:
pure logic), so the host tools read it under CPython.

Layout (Pico seen from above, USB at the top; physical pins 1-20 run down the
left edge, 21-40 up the right edge):

* the eight buttons sit on the left edge, physical pins 4-7 (the d-pad) and
  9-12 (the action buttons), each group between two GND pins;
* the display takes four pins near the top of the right edge: SDA 31, SCL 32,
  3V3(OUT) 36, GND 38;
* the piezo is on the last left-edge pin (20), its other leg on GND (18);
* the link cable takes the first three left-edge pins: UART0 TX 1, RX 2, GND 3.

The Pico W, Pico 2 and Pico 2 W have the same header: the same numbers hold.
"""

# The buttons and their order (their numbers): device.buttons' one list, re-exported for the
# generators.  device.buttons is loaded at boot anyway (device.pico reads the buttons).
from device.buttons import BUTTON_NAMES  # noqa: F401

# --- display: SSD1306 128x64 on I2C ----------------------------------------------------------
# "SH1106" for the 1.3" modules with that controller (device/sh1106.py, loaded only then)
OLED_CONTROLLER = "SSD1306"
I2C_ID = 1  # GP26/GP27 are I2C1's SDA/SCL
I2C_SDA = 26  # physical pin 31
I2C_SCL = 27  # physical pin 32
I2C_FREQ = 400000  # fast mode; 100000 helps with long or loose wires (hardware/README.md)
OLED_ADDR = 0x3C  # what nearly every module answers at
OLED_ADDR_ALT = 0x3D  # modules whose address resistor/jumper is moved
OLED_WIDTH = 128
OLED_HEIGHT = 64

# --- buttons: to GND when pressed, internal pull-ups, so pressed reads 0 ------------------------
# BUTTON_NAMES (imported above) are the buttons in number order; look GPIOs up by name,
# never by iterating the dict (MicroPython does not keep dict order).
BUTTONS = {
    "UP": 2,  # physical pin 4
    "DOWN": 3,  # 5
    "LEFT": 4,  # 6
    "RIGHT": 5,  # 7
    "DRAW": 6,  # 9
    "DISCARD": 7,  # 10
    "KNOCK": 8,  # 11
    "MENU": 9,  # 12
}
BUTTONS_ACTIVE_LOW = True
BUTTONS_PULL_UP = True  # the RP2040's internal ~50 kOhm pull-ups: no resistors to fit

# Hold this button while plugging in (or resetting) to skip the game and keep the REPL
# free: the way back in when the app misbehaves.  boot.py and main.py read SAFE_PIN.
SAFE_BUTTON = "MENU"
SAFE_PIN = BUTTONS[SAFE_BUTTON]

# --- sound: a passive piezo on a PWM pin (None: no piezo fitted) ---------------------------------
PIEZO = 15  # physical pin 20; the other leg to GND, physical pin 18

# --- battery: VSYS / 3 on ADC channel 3 (None: no battery gauge) ---------------------------------
# The Pico's own divider puts VSYS/3 on GPIO29 = ADC3: nothing to wire.
# Pico W / Pico 2 W: GPIO29 is also the radio's SPI clock and GPIO25 its chip
# select.  The game never turns the radio on; there, reading VSYS needs GPIO25
# driven high first, and the reading means nothing while Wi-Fi is in use.
VSYS_ADC = 3
VSYS_GPIO = 29
VSYS_DIVIDER = 3

# --- link cable: UART0 to the other handheld (docs/LINK.md) -------------------------------------
# Three wires: this TX to the other's RX, this RX from the other's TX, and GND.  A 3.5 mm TRRS
# jack per handheld: TX (through 1 kOhm) on the tip, RX on ring 1, GND on the sleeve; the cable
# crosses tip and ring 1 at one end (hardware/README.md).
LINK_UART_ID = 0
LINK_TX = 0  # physical pin 1
LINK_RX = 1  # physical pin 2 (internal pull-up: an unplugged jack reads idle, not noise)
LINK_BAUD = 115200

# --- on-board LED -----------------------------------------------------------------------------------
# The name "LED" works on every Pico: GPIO25 on the Pico / Pico 2, the radio
# chip's GPIO on the W boards.
LED = "LED"
