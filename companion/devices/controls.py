"""The arcade buttons, seat LEDs, RGB status LED and buzzer, as gpiozero devices.

Button callbacks run in gpiozero's threads: they only put a named request on a
queue (``on_request``); whoever owns the Table acts on it. A TURN press and a
TURN hold are exclusive: a hold (2 s) is undo, and its release is not a press.
"""

from __future__ import annotations

import threading
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from typing import Any

from ..errors import DeviceError
from ..vocabulary import BUSY, ERROR, LOOK, READY, SEISMIC, TURN, UNDERTAKER, UNDO

STATUS_COLOURS = {READY: (0, 1, 0), BUSY: (0, 0, 1), LOOK: (1, 0.5, 0), ERROR: (1, 0, 0)}


@dataclass(frozen=True)
class PinMap:
    turn: int
    undertaker: int
    seismic: int
    seats: tuple[int, ...]
    status: tuple[int, int, int]
    buzzer: int | None
    bounce_s: float = 0.05
    hold_s: float = 2.0

    @classmethod
    def load(cls, override: dict[str, Any] | None = None) -> PinMap:
        data = tomllib.loads(resources.files("companion").joinpath("pins.toml").read_text())
        for section, values in (override or {}).items():
            data.setdefault(section, {}).update(values)
        try:
            b, leds, timing = data["buttons"], data["leds"], data.get("timing", {})
            buzzer = leds.get("buzzer", -1)
            status = tuple(int(p) for p in leds["status"])
            if len(status) != 3:
                raise DeviceError("pin map: leds.status is the RGB LED's three pins: [red, green, blue]")
            return cls(
                int(b["turn"]),
                int(b["undertaker"]),
                int(b["seismic"]),
                tuple(int(p) for p in leds["seats"]),
                (status[0], status[1], status[2]),
                None if buzzer in (None, -1) else int(buzzer),
                float(timing.get("bounce_s", 0.05)),
                float(timing.get("hold_s", 2.0)),
            )
        except (KeyError, TypeError, ValueError) as error:
            raise DeviceError(f"pin map is incomplete or not numbers: {error}") from None


def mock_factory():
    """gpiozero's mock pins (PWM-capable, for the RGB LED): off a Pi, and in tests."""
    from collections import deque

    from gpiozero.pins.mock import MockFactory, MockPWMPin

    class BoundedMockPin(MockPWMPin):
        """A mock pin records every state change (for tests); a demo left running keeps only the latest 1000."""

        def clear_states(self):
            super().clear_states()
            self.states = deque(self.states, maxlen=1000)

    return MockFactory(pin_class=BoundedMockPin)


class Controls:
    """Three buttons and the lights. ``on_request(name)`` gets "turn", "undo", "undertaker" or "seismic"."""

    def __init__(self, pins: PinMap, on_request: Callable[[str], None], pin_factory=None):
        from gpiozero import RGBLED, Button, LEDBoard, TonalBuzzer
        from gpiozero.exc import GPIOZeroError

        self.pins = pins
        self._on_request = on_request
        self._held = threading.Event()
        self._devices: list[Any] = []
        self.status = READY
        try:
            kw = {"pin_factory": pin_factory} if pin_factory is not None else {}
            self.turn = self._add(Button(pins.turn, bounce_time=pins.bounce_s, hold_time=pins.hold_s, **kw))
            self.undertaker = self._add(Button(pins.undertaker, bounce_time=pins.bounce_s, **kw))
            self.seismic = self._add(Button(pins.seismic, bounce_time=pins.bounce_s, **kw))
            self.seats = self._add(LEDBoard(*pins.seats, **kw))
            self.status_led = self._add(RGBLED(*pins.status, **kw))
            self.buzzer = self._add(TonalBuzzer(pins.buzzer, **kw)) if pins.buzzer is not None else None
        except GPIOZeroError as error:
            self.close()
            raise DeviceError(f"cannot claim the GPIO pins: {error}") from None
        self.turn.when_held = self._turn_held
        self.turn.when_released = self._turn_released
        self.undertaker.when_pressed = lambda: self._on_request(UNDERTAKER)
        self.seismic.when_pressed = lambda: self._on_request(SEISMIC)
        self.show_status(READY)

    def _add(self, device):
        self._devices.append(device)
        return device

    def _turn_held(self) -> None:
        self._held.set()
        self._on_request(UNDO)

    def _turn_released(self) -> None:
        if self._held.is_set():
            self._held.clear()  # the release that ends a hold is not a press
            return
        self._on_request(TURN)

    # -- lights ---------------------------------------------------------------------------

    def show_seat(self, seat: int | None) -> None:
        """Light the seat whose turn it is; None chases all four (the Stage turn)."""
        if seat is None:
            self.seats.blink(on_time=0.15, off_time=0.45, n=None, background=True)
            return
        self.seats.off()
        if 0 <= seat < len(self.seats):
            self.seats[seat].on()

    def show_status(self, status: str) -> None:
        self.status = status
        colour = STATUS_COLOURS[status]
        if status == BUSY:
            self.status_led.pulse(fade_in_time=0.4, fade_out_time=0.4, on_color=colour, background=True)
        else:
            self.status_led.color = colour

    def beep(self, note: str = "A5", seconds: float = 0.15) -> None:
        if self.buzzer is not None:
            self.buzzer.play(note)
            threading.Timer(seconds, self.buzzer.stop).start()

    def close(self) -> None:
        for device in reversed(self._devices):
            device.close()
        self._devices.clear()

    def __enter__(self) -> Controls:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
