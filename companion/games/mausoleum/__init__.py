"""Mausoleum: parties, morgues, mausoleums, the shop; the table as scorekeeper and referee."""

from .cards import Card, cards_from_json
from .game import Mausoleum
from .position import from_position, summary, to_position

__all__ = ["Card", "Mausoleum", "cards_from_json", "from_position", "summary", "to_position"]
