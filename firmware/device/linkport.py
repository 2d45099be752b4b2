"""The link cable's port on the Pico: UART0 on the pins of device/pins.py (docs/LINK.md).

The contract the link code needs of a port: ``open()``, ``close()``, ``write(bytes)``,
``read()`` -> bytes or None, never blocking.  The UART is set up only when a link match
starts (``open``) and let go when it ends, so GP0/GP1 are idle pins the rest of the time.
"""

import machine

from device import pins

# What the UART interrupt keeps between two loop steps (10 ms of line is 115 bytes).  The channel
# is stop-and-wait (link/channel.py): an honest peer has one frame of at most 52 bytes, an ACK
# and a HELLO or PING on the line at a time, so 256 holds several steps' worth; bytes lost on a
# longer step are resent.  The ring is on the heap (1024 was 0.8 KB more of a Pico's).
RX_BUFFER = 256
TX_BUFFER = 256  # a frame is at most 52 bytes: write() never waits for the line


class UartPort:
    def __init__(self):
        self._uart = None

    def open(self):
        if self._uart is not None:
            return
        self._uart = machine.UART(
            pins.LINK_UART_ID,
            baudrate=pins.LINK_BAUD,
            tx=machine.Pin(pins.LINK_TX),
            rx=machine.Pin(pins.LINK_RX),
            rxbuf=RX_BUFFER,
            txbuf=TX_BUFFER,
            timeout=0,
        )
        try:
            # an unplugged jack leaves RX floating: the pull-up holds it at the idle level
            machine.Pin(pins.LINK_RX, machine.Pin.ALT, pull=machine.Pin.PULL_UP, alt=machine.Pin.ALT_UART)
        except (AttributeError, ValueError, TypeError):
            pass  # a port without ALT_UART: the protocol copes with noise anyway
        self.read()  # whatever the line held before the game listened

    def close(self):
        u = self._uart
        self._uart = None
        if u is not None:
            u.deinit()

    def write(self, data):
        if self._uart is not None:
            self._uart.write(data)

    def read(self):
        u = self._uart
        if u is None:
            return None
        n = u.any()
        if not n:
            return None
        return u.read(n)
