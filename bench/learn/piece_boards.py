"""Rendered Sepulchre boards for the piece finder, drawn once into a folder (the renderer takes seconds a board).

    python -m bench.learn.piece_boards DIR --boards 300 [--workers 2] [--seed 100000]

Each board (bench/render/pieces_scene.py, seen flat as the reader sees a board warped by its markers) is kept as
its grey photo at the finder's working scale (FINDER_PIECE_AREA: the style's median piece that big) and the
centres there of its pieces by type and of its overlapping pairs. The styles drawn: cut-outs and the printed
``cream`` and ``white``; ``night`` is held out. Touching pieces 0-8 a board, overlapping pairs 0-2, glare on half
the printed boards. Seeds from 100000: the committed and fresh bench boards use seeds under 30000.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
from functools import cache
from pathlib import Path

import cv2
import numpy as np

from bench.render.pieces_scene import TYPES, piece_mask, printed_piece, render_board
from companion.vision.piece_finding import FINDER_PIECE_AREA, OVERLAP

STYLES = (None, "cream", "white")  # "night" held out


@cache
def style_area(style: str | None) -> float:
    """The median area (board px) of a piece in ``style``: every type in each of the 12 designs."""
    areas = [
        float(np.count_nonzero((printed_piece(k, d, False, style) if style else piece_mask(k, d, False))[0]))
        for k in TYPES
        for d in range(12)
    ]
    return float(np.median(areas))


def draw(seed: int, folder: Path) -> None:
    """One board into ``folder``: board-SEED.npz with its grey photo and its centres (x, y, channel)."""
    rng = random.Random(seed)
    style = rng.choice(STYLES)
    photo, truth, _ = render_board(
        seed,
        pieces=rng.randint(14, 26),
        overlaps=rng.randint(0, 2),
        outside=rng.randint(0, 3),
        touching=rng.randint(0, 8),
        printed=style,
        glare=bool(style) and rng.random() < 0.5,
    )
    scale = np.sqrt(FINDER_PIECE_AREA / style_area(style))
    grey = cv2.resize(cv2.cvtColor(photo, cv2.COLOR_BGR2GRAY), None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    centres = [(*p["center"], TYPES.index(p["type"])) for p in truth["pieces"]]
    centres += [(*o["center"], OVERLAP) for o in truth["overlaps"]]
    points = np.array([(x * scale, y * scale, c) for x, y, c in centres], np.float32).reshape(-1, 3)
    part = folder / f"board-{seed}.part.npz"  # renamed when whole: training may be reading the folder meanwhile
    np.savez_compressed(part, grey=grey, points=points)
    part.rename(folder / f"board-{seed}.npz")


def _draw_all(job: tuple[list[int], Path]) -> int:
    seeds, folder = job
    for seed in seeds:
        if not (folder / f"board-{seed}.npz").exists():
            draw(seed, folder)
    return len(seeds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", type=Path)
    parser.add_argument("--boards", type=int, default=300)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=100000)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    seeds = list(range(args.seed, args.seed + args.boards))
    jobs = [(seeds[k :: args.workers * 8], args.out) for k in range(args.workers * 8)]
    with multiprocessing.Pool(args.workers) as workers:
        done = 0
        for n in workers.imap_unordered(_draw_all, jobs):
            done += n
            print(f"{done} of {len(seeds)} boards", flush=True)


if __name__ == "__main__":
    main()
