"""Regenerate the dice photo sets: `python -m bench.render.render OUT --photos N --seed S --style K --enroll M`."""

import argparse
from pathlib import Path

from .dice_scene import TABLES, write_set

if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("out", type=Path)
    p.add_argument("--photos", type=int, default=20)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--style", type=int, default=0, help="art style of the pictograms (0, 1, 2)")
    p.add_argument("--enroll", type=int, default=0, help="enrollment photos per face")
    p.add_argument("--colouring", choices=["black", "ivory", "red", "blue"])
    p.add_argument("--tables", nargs="+", choices=sorted(TABLES), default=[], help="patterned tables, photo by photo")
    a = p.parse_args()
    write_set(a.out, a.photos, a.seed, a.style, a.enroll, a.colouring, tuple(a.tables))
