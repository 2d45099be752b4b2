"""The Pico's ``hw`` object: every pin from device/pins.py, every machine call here.

``build()`` returns the object the app is handed: the hardware contract of
device/contract.py (clock, buttons, display, storage, led, sound,
battery_mv(), log(), feed, reset(), name, link).
Nothing here raises for missing optional parts: no piezo, no battery
divider, no display (the app blinks the LED and keeps trying).
"""

import sys
import time

import machine

from device import pins
from device.buttons import BUTTON_NAMES, PicoButtons
from device.display import Display
from device.storage import LOG_FILE, LOG_MAX, FileStorage

NO_DRIVER = (
    "display: the ssd1306 driver is missing on this board; make deploy installs it (hardware/README.md)"
)
MOUNT_POINT = "/remote"  # where `mpremote mount` (make mount) puts the PC's folder
# Written just before a deliberate machine.reset(): on the RP2040 that reset is
# itself a watchdog reset, and only this file tells it from a hung loop.
RESET_FLAG = "reset.flag"


class Clock:
    def ticks_ms(self):
        return time.ticks_ms()

    def sleep_ms(self, ms):
        time.sleep_ms(ms)


class Piezo:
    """A tone on a PWM pin that stops itself (a one-shot timer): the loop never waits for it."""

    def __init__(self, gpio):
        self.pwm = machine.PWM(machine.Pin(gpio))
        self.pwm.duty_u16(0)
        self._timer = machine.Timer(-1)

    def tone(self, freq_hz, ms):
        try:
            self.pwm.freq(freq_hz)
            self.pwm.duty_u16(32768)
            self._timer.init(mode=machine.Timer.ONE_SHOT, period=ms, callback=self._stop)
        except (ValueError, OSError):
            self.pwm.duty_u16(0)

    def _stop(self, _t):
        self.pwm.duty_u16(0)


class Silent:
    def tone(self, freq_hz, ms):
        pass


class Led:
    def __init__(self, pin):
        self._pin = machine.Pin(pin, machine.Pin.OUT)

    def set(self, on):
        self._pin.value(1 if on else 0)


def i2c():
    """The display's bus, from the pin map."""
    return machine.I2C(
        pins.I2C_ID, sda=machine.Pin(pins.I2C_SDA), scl=machine.Pin(pins.I2C_SCL), freq=pins.I2C_FREQ
    )


class PicoHw:
    name = "pico"

    def __init__(self):
        self.clock = Clock()
        D = Display
        if pins.OLED_CONTROLLER == "SH1106":
            from device.sh1106 import SH1106Display as D
        self.display = D(i2c(), (pins.OLED_ADDR, pins.OLED_ADDR_ALT), pins.OLED_WIDTH, pins.OLED_HEIGHT)
        self.buttons = PicoButtons([pins.BUTTONS.get(n) for n in BUTTON_NAMES])
        self.storage = FileStorage("")
        self.sound = Piezo(pins.PIEZO) if pins.PIEZO is not None else Silent()
        self.led = Led(pins.LED)
        self._link = None  # the link cable (UART0): its code is loaded when a link match asks for it
        self._adc = None
        self._radio_cs = None
        if pins.VSYS_ADC is not None:
            self._adc = machine.ADC(pins.VSYS_ADC)
            if "Pico W" in sys.implementation._machine or "Pico 2 W" in sys.implementation._machine:
                # GPIO29 doubles as the radio's clock: its chip select (GPIO25) high keeps it off the line
                self._radio_cs = machine.Pin(25, machine.Pin.OUT, value=1)
        self.feed = None  # main.py puts the watchdog's feed here
        if self.display.fault == "driver":
            # the one fault a person can't see the cause of: say it on the serial console (once, at
            # boot) and in the crash log, besides the LED's blinking (log() prints it: no display)
            self.log(NO_DRIVER)

    @property
    def link(self):
        if self._link is None:
            from device.linkport import UartPort

            self._link = UartPort()
        return self._link

    def battery_mv(self):
        """VSYS in mV through the Pico's divider, or None without a gauge."""
        if self._adc is None:
            return None
        if self._radio_cs is not None:
            self._radio_cs.value(1)
        raw = 0
        for _ in range(4):
            raw += self._adc.read_u16()
        return (raw // 4) * pins.VSYS_DIVIDER * 3300 // 65535

    def reset(self):
        restart(self.storage)

    def log(self, text):
        """Append a line to the crash log in flash; keep the log small.

        Without a working display nobody sees the screen's line: the serial
        console (what `make repl` / mpremote shows) gets the line too.
        """
        if not self.display.present:
            print(text)
        self.storage.append_line(LOG_FILE, text, LOG_MAX)


def build():
    return PicoHw()


# --- boot, watchdog and restarts (boot.py and main.py touch `machine` only through these) ---------


def safe_held():
    """Is the safe-mode button held down right now?"""
    p = machine.Pin(pins.SAFE_PIN, machine.Pin.IN, machine.Pin.PULL_UP)
    # let the pull-up charge the line: ~50 kOhm into a button's lead (well under 100 pF) is a few
    # microseconds, so 1 ms is ample; every boot waits it before the title (it was 30 ms)
    time.sleep_ms(1)
    if p.value() != 0:
        return False
    time.sleep_ms(30)  # still down: a press, not a glitch
    return p.value() == 0


def from_mount():
    """Is the game running from a PC's folder (make mount) rather than from the flash?"""
    import os

    try:
        return os.getcwd().startswith(MOUNT_POINT)
    except OSError:
        return False


def _no_feed():
    pass


def start_watchdog(ms):
    """Start the hardware watchdog; returns its feed function.

    Not when running from a mounted folder: modules load over the USB link there, slower than
    the watchdog allows, and once armed it can't be stopped by the PC leaving."""
    if from_mount():
        print("running from a mounted folder: no watchdog")
        return _no_feed
    return machine.WDT(timeout=ms).feed


def stop_watchdog():
    # machine.WDT can't be stopped on rp2; clearing CTRL.ENABLE (RP2040
    # datasheet 4.7: WATCHDOG_BASE 0x40058000, bit 30) does, so a REPL session
    # after Ctrl-C is not reset under the user's hands.
    machine.mem32[0x40058000] &= ~(1 << 30)


def woke_from_watchdog():
    """The last reset was the watchdog's: a hang, or a deliberate machine.reset() (see was_deliberate)."""
    return machine.reset_cause() == machine.WDT_RESET


def mark_deliberate(storage):
    """Note that the coming reset is wanted (a restart, or the host's reset after Ctrl-C)."""
    try:
        storage.write_atomic(RESET_FLAG, b"1", False)
    except Exception:
        pass


def was_deliberate(storage):
    """Was the last reset asked for?  Reads and forgets the flag (every boot, whatever the cause)."""
    try:
        flag = storage.exists(RESET_FLAG)
        if flag:
            storage.remove(RESET_FLAG)
        return flag
    except Exception:
        return False


def restart(storage=None):
    """A deliberate restart: flagged first, so the next boot doesn't log it as a hang."""
    mark_deliberate(storage if storage is not None else FileStorage(""))
    machine.reset()
