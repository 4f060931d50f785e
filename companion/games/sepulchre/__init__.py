"""Sepulchre: graves and the Ossuary as piece counts; the Undertaker's checks."""

from .pieces import NEED, PIECES, complete, counts, in_progress
from .undertaker import OSSUARY, Flag, Sepulchre, Transfer

__all__ = ["NEED", "OSSUARY", "PIECES", "Flag", "Sepulchre", "Transfer", "complete", "counts", "in_progress"]
