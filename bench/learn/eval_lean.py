"""How well the reader tells level dice from cocked ones, on Blender training renders it never learned from.

    python -m bench.learn.eval_lean FOLDER --seeds 600000 600039 [--judge CANDIDATE.onnx [--view SIDES PX]]

FOLDER holds `bench/learn/blender_photos.py`'s photos (photo-SEED.jpg and its truth). On each photo the
reader's find, refine and lean stages run at the photo's true die size; each true die is the nearest die
found within half a side. Printed, for the shipped lean judge, a candidate's (--judge), and the refiner
alone as the baseline (its own level and body outputs, no judge): level dice called cocked, and dice not
level (tilted, or under a leaning die) called cocked, each of those found, and how many were found.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import cv2
import numpy as np

from companion.vision import refining
from companion.vision.reader import find_dice


def judged(folder: Path, seeds: range) -> dict[str, int]:
    """Counts over the photos: level / not level dice, found, and called cocked."""
    n = dict.fromkeys(("level", "level found", "level cocked", "tilted", "tilted found", "tilted cocked"), 0)
    for seed in seeds:
        path = folder / f"photo-{seed}.jpg"
        if not path.exists():
            continue
        truth = json.loads(path.with_suffix(".json").read_text())["dice"]
        gray = cv2.cvtColor(cv2.imread(str(path)), cv2.COLOR_BGR2GRAY)  # as the reader greys a camera's photo
        _, found, is_level = find_dice(gray, float(np.median([d["side"] for d in truth])))
        centres = np.array([face.centre for _, face in found]).reshape(-1, 2)
        for die in truth:
            kind = "level" if die["level"] else "tilted"
            n[kind] += 1
            apart = np.hypot(*(centres - die["centre"]).T) if len(centres) else np.array([np.inf])
            nearest = int(np.argmin(apart))
            if apart[nearest] <= 0.5 * die["side"]:
                n[f"{kind} found"] += 1
                n[f"{kind} cocked"] += not is_level[nearest]
    return n


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder", type=Path)
    parser.add_argument("--seeds", type=int, nargs=2, default=(600000, 600039), help="first and last, held out")
    parser.add_argument("--judge", type=Path, help="a candidate lean judge (.onnx) next to the shipped one")
    parser.add_argument("--view", type=float, nargs=2, help="the candidate's window: its side in die sides, and px")
    args = parser.parse_args()
    seeds = range(args.seeds[0], args.seeds[1] + 1)
    shipped = refining.LEAN_JUDGE, refining.LEAN_VIEW
    judges = {"refiner alone (baseline)": (refining.REFINER, refining.REFINER_VIEW), "shipped judge": shipped}
    if args.judge:
        view = refining.View(args.view[0], int(args.view[1])) if args.view else refining.LEAN_VIEW
        judges["candidate"] = (str(args.judge.resolve()), view)
    for label, (judge, view) in judges.items():
        refining.LEAN_JUDGE, refining.LEAN_VIEW = judge, view
        n = judged(args.folder, seeds)
        print(
            f"{label:25s} level called cocked {n['level cocked']} of {n['level found']} found ({n['level']}); "
            f"not level called cocked {n['tilted cocked']} of {n['tilted found']} found ({n['tilted']})"
        )
    refining.LEAN_JUDGE, refining.LEAN_VIEW = shipped


if __name__ == "__main__":
    main()
