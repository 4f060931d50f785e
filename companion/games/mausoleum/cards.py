"""Mausoleum's 54 cards: numbers, kinds, names and dollar values (in $m) as a table keeps them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...errors import BadInput

HEIR, ACCIDENT, GRAVE, INCIDENT = "heir", "accident", "grave", "incident"
KINDS = ((range(1, 19), HEIR), (range(19, 37), ACCIDENT), (range(37, 46), GRAVE), (range(46, 55), INCIDENT))
NUMBERS = range(1, 55)
MOST_VALUE = 20  # $m: no card is worth more than a whole win twice over
MOST_NAME = 40


def kind_of(number: int) -> str:
    return next(kind for numbers, kind in KINDS if number in numbers)


@dataclass(frozen=True)
class Card:
    number: int
    kind: str
    name: str
    value: int | None = None  # heirs and graves only
    checked: bool = False  # the value was confirmed by a table from its own cards

    def __str__(self) -> str:
        return f"#{self.number} {self.name}"

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"card": self.number, "kind": self.kind, "name": self.name}
        if self.kind in (HEIR, GRAVE):
            data.update(value=self.value, checked=self.checked)
        return data


def card_number(data: object) -> int:
    if isinstance(data, bool) or not isinstance(data, int) or data not in NUMBERS:
        raise BadInput(f"a card is a number 1-54, not {data!r}")
    return data


def card_value(data: object) -> int:
    if isinstance(data, bool) or not isinstance(data, int) or not 0 <= data <= MOST_VALUE:
        raise BadInput(f"a card's value is a whole number of $m, 0-{MOST_VALUE}, not {data!r}")
    return data


def card_name(data: object) -> str:
    if not isinstance(data, str) or not data.strip() or len(data.strip()) > MOST_NAME:
        raise BadInput(f"a card's name is 1-{MOST_NAME} characters, not {data!r}")
    return data.strip()


def cards_from_json(data: object) -> dict[int, Card]:
    """The whole list, every number 1-54 once, heirs and graves with a value."""
    if not isinstance(data, list):
        raise BadInput("the card list is a JSON list of {card, name, value}")
    cards: dict[int, Card] = {}
    for item in data:
        if not isinstance(item, dict):
            raise BadInput(f"a card is an object {{card, name, value}}, not {item!r}")
        number = card_number(item.get("card"))
        if number in cards:
            raise BadInput(f"card #{number} is listed twice")
        kind = kind_of(number)
        if item.get("kind", kind) != kind:
            raise BadInput(f"card #{number} is {'an' if kind[0] in 'aei' else 'a'} {kind}, not {item.get('kind')!r}")
        value = card_value(item.get("value")) if kind in (HEIR, GRAVE) else None
        cards[number] = Card(number, kind, card_name(item.get("name")), value, item.get("checked") is True)
    missing = [n for n in NUMBERS if n not in cards]
    if missing:
        raise BadInput(f"the card list lacks #{missing[0]} ({len(missing)} missing): a deck has 54 cards")
    return cards
