"""Buttons and lights through gpiozero's mock pins, as the table would press them.

A press holds the pin down for a moment, as a finger does; every wait for what follows is
on an event (a queue, the table's publishes, the referee's idle condition), never a poll.
"""

import queue
import time

import pytest

from companion.devices.controls import Controls, PinMap
from companion.errors import DeviceError
from companion.games.rolling_bones.dice import FACE_IDS

PERFECT = list(FACE_IDS)  # every face once: a perfect skeleton, the hat and a gravestone


def press(pin, hold_s=0.0):
    pin.drive_low()
    time.sleep(max(hold_s, 0.08))  # the finger on the button (longer than the debounce)
    pin.drive_high()


def heard_in_order(heard: queue.Queue, *names: str, timeout: float = 3.0) -> list[str]:
    return [heard.get(timeout=timeout) for _ in names]


@pytest.fixture
def quick_pins():
    return PinMap.load({"timing": {"hold_s": 0.3, "bounce_s": 0.01}})


def test_turn_press_and_hold_are_never_both(pin_factory, quick_pins):
    heard: queue.Queue = queue.Queue()
    with Controls(quick_pins, heard.put, pin_factory=pin_factory):
        turn = pin_factory.pin(17)
        press(turn)
        assert heard_in_order(heard, "turn") == ["turn"]
        press(turn, hold_s=0.5)
        assert heard_in_order(heard, "undo") == ["undo"]
        with pytest.raises(queue.Empty):  # the hold's release is not also a press
            heard.get(timeout=0.2)


def test_undertaker_and_seismic_buttons(pin_factory, quick_pins):
    heard: queue.Queue = queue.Queue()
    with Controls(quick_pins, heard.put, pin_factory=pin_factory):
        press(pin_factory.pin(27))
        press(pin_factory.pin(22))
        assert heard_in_order(heard, "undertaker", "seismic") == ["undertaker", "seismic"]


def test_a_pin_in_use_is_a_clear_error(pin_factory):
    with Controls(PinMap.load(), lambda name: None, pin_factory=pin_factory):
        with pytest.raises(DeviceError, match="GPIO17 is already in use"):
            Controls(PinMap.load(), lambda name: None, pin_factory=pin_factory)


def test_pins_come_from_the_pin_map(pin_factory):
    pins = PinMap.load({"buttons": {"turn": 4}, "leds": {"buzzer": -1}})
    with Controls(pins, lambda name: None, pin_factory=pin_factory) as controls:
        assert controls.turn.pin.info.name == "GPIO4" and controls.buzzer is None


def test_seat_and_status_lights(pin_factory):
    with Controls(PinMap.load(), lambda name: None, pin_factory=pin_factory) as controls:
        controls.show_seat(2)
        assert [pin_factory.pin(p).state for p in (5, 6, 13, 19)] == [0, 0, 1, 0]
        controls.show_status("error")
        assert controls.status_led.color == (1, 0, 0)
        controls.show_status("look")
        assert pin_factory.pin(16).state == 1 and pin_factory.pin(21).state == 0


def test_buttons_drive_the_table(companion, pin_factory, table_changes):
    """TURN after a burial passes play and moves the seat LED; holding TURN undoes it."""
    companion.table.dispatch({"type": "roll", "faces": PERFECT})
    companion.table.dispatch({"type": "lay", "face": "skull"})
    companion.table.dispatch({"type": "bury"})
    seats = [pin_factory.pin(p) for p in (5, 6, 13, 19)]
    assert [p.state for p in seats] == [1, 0, 0, 0]
    turn = pin_factory.pin(17)
    press(turn)
    assert table_changes.until(lambda: companion.table.state.player == "Bob")
    assert [p.state for p in seats] == [0, 1, 0, 0]  # the seat lights follow each publish
    press(turn, hold_s=2.2)  # the default hold: 2 s
    assert table_changes.until(lambda: companion.table.state.player == "Ann")
    assert companion.referee.wait_idle()
    assert companion.table.state.player == "Ann"  # the hold's release was not a second press


def test_a_refused_press_turns_the_status_amber(companion, pin_factory, table_changes):
    press(pin_factory.pin(17))  # the turn is not over: TURN is refused
    assert table_changes.until(lambda: companion.referee.status == "look")
    assert companion.referee.wait_idle()  # the status light is set once the refusal is said
    assert "not over" in companion.referee.notice
    assert pin_factory.pin(16).state == 1 and pin_factory.pin(20).state == pytest.approx(0.5)
