"""Ghosts in the Graveyard: the shared board, the lights and the deduction helper."""

from .board import LANTERN, Flashlight, flood
from .deduce import Deduction, Knowledge, deduce

__all__ = ["LANTERN", "Deduction", "Flashlight", "Knowledge", "deduce", "flood"]
