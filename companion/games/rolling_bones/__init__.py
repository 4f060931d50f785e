"""Rolling Bones: dice, the skeleton, scoring, the best layout and the turn."""

from .best import best_layout, brute_force_best, can_bury
from .dice import FACE_IDS, FACES, SLOTS, kind_of
from .layout import Layout, Score, parse_faces
from .match import Match
from .turn import Lay, Turn

__all__ = [
    "FACE_IDS",
    "FACES",
    "SLOTS",
    "Lay",
    "Layout",
    "Match",
    "Score",
    "Turn",
    "best_layout",
    "brute_force_best",
    "can_bury",
    "kind_of",
    "parse_faces",
]
