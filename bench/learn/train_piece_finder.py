"""Train the piece finder on rendered boards and export it to ONNX (dev only: pip install -e '.[train]').

    python -m bench.learn.piece_boards BOARDS --boards 600
    python -m bench.learn.train_piece_finder models/networks/piece-finder.onnx --boards BOARDS [--minutes 40]
    python -m bench.learn.train_piece_finder OUT.onnx --boards BOARDS --start-from models/networks/piece-finder.onnx --lr 1e-3

The dice finder's network (train_finder.py) with more context (a leg is ~55 px long here) and, per 4x4 px cell
of a board at the finder's working scale, how likely a piece of each type has its centre there, how likely an
overlapping pair's middle lies there, and the centre's place in the cell. Each step is a batch of crops of the
boards in BOARDS (piece_boards.py), each a little bigger or smaller (pieces vary), flipped and turned, blurred
or noisier now and then. With --start-from, training goes on from a trained finder (every weight, its batch
norms' statistics kept as trained).
"""

from __future__ import annotations

import time
from pathlib import Path

import cv2
import numpy as np

from bench.learn.train_finder import focal, network
from bench.learn.training import arguments, comma_list, descend, export, report, start_options, started_from
from companion.vision.finding import STRIDE, standardise
from companion.vision.piece_finding import CHANNELS, DILATIONS, HEATS

SIZE = 128  # training crop (working-scale px)
SIGMA = 1.0  # cells: the spread of a centre's peak in the target heat map
RESIZE = (0.85, 1.18)  # a board's pieces drawn this much smaller or bigger than the median
SPATIAL = {"board": {0: "n", 2: "h", 3: "w"}, "maps": {0: "n", 2: "h4", 3: "w4"}}


def targets(points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The heat maps (HEATS, cells, cells) and the offsets with their mask (3, cells, cells) of a crop's centres
    (x, y, channel; crop px)."""
    cells = SIZE // STRIDE
    heat = np.zeros((HEATS, cells, cells), np.float32)
    reg = np.zeros((3, cells, cells), np.float32)
    yy, xx = np.mgrid[0:cells, 0:cells].astype(np.float32) + 0.5
    for x, y, channel in points:
        cx, cy, c = x / STRIDE, y / STRIDE, int(channel)
        heat[c] = np.maximum(heat[c], np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * SIGMA**2)))
        i, j = int(np.floor(cy)), int(np.floor(cx))
        if 0 <= i < cells and 0 <= j < cells:
            heat[c, i, j] = 1.0
            reg[:, i, j] = [cx - j - 0.5, cy - i - 0.5, 1.0]
    return heat, reg


def sample(
    board: tuple[np.ndarray, np.ndarray], rng: np.random.Generator, resize: tuple[float, float] = RESIZE
) -> tuple[np.ndarray, np.ndarray]:
    """A crop of a board (SIZE px) and its centres in crop px, resized (by ``resize``'s range), flipped, turned and
    spoilt at random."""
    grey, points = board
    f = rng.uniform(*resize)
    grey = cv2.resize(grey, None, fx=f, fy=f, interpolation=cv2.INTER_AREA if f < 1 else cv2.INTER_LINEAR)
    h, w = grey.shape
    x0, y0 = int(rng.integers(0, w - SIZE + 1)), int(rng.integers(0, h - SIZE + 1))
    crop = grey[y0 : y0 + SIZE, x0 : x0 + SIZE].astype(np.float32)
    pts = points.copy()
    pts[:, :2] = pts[:, :2] * f - (x0, y0)
    pts = pts[(pts[:, 0] > -8) & (pts[:, 0] < SIZE + 8) & (pts[:, 1] > -8) & (pts[:, 1] < SIZE + 8)]
    if rng.random() < 0.5:
        crop, pts[:, 0] = crop[:, ::-1], SIZE - pts[:, 0]
    for _ in range(int(rng.integers(4))):  # np.rot90 turns anticlockwise: (x, y) -> (y, SIZE - x)
        crop = np.rot90(crop)
        pts[:, :2] = np.stack([pts[:, 1], SIZE - pts[:, 0]], axis=1)
    crop = np.ascontiguousarray(crop)
    if rng.random() < 0.3:
        crop = cv2.GaussianBlur(crop, (0, 0), rng.uniform(0.5, 1.2))
    if rng.random() < 0.3:
        crop = crop + rng.normal(0, rng.uniform(2, 8), crop.shape).astype(np.float32)
    return standardise(crop)[None], pts


def load(folder: Path, boards: dict) -> None:
    """Boards in ``folder`` not yet in ``boards`` (the drawing may still be going on)."""
    for path in sorted(folder.glob("board-*.npz")):
        if path.name not in boards and not path.name.endswith(".part.npz"):  # (still being written)
            with np.load(path) as data:
                boards[path.name] = (data["grey"], data["points"])


def main() -> None:
    import torch

    boards_dir = ("--boards", {"type": Path, "required": True})
    resize = (
        "--resize",
        {
            "type": comma_list(float, 2),
            "default": RESIZE,
            "help": "LOW,HIGH: the range the crops are resized by (the pieces' size tells an arm from a leg)",
        },
    )
    start, peak = start_options("piece finder", lr=3e-3)
    args = arguments(__doc__, batch=16, extra=(boards_dir, resize, start, peak))
    rng = np.random.default_rng(args.seed)
    net = network(CHANNELS, DILATIONS)
    started_from(net, args.start_from, "piece finder")
    opt = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=1e-4)
    boards: dict = {}
    load(args.boards, boards)
    if not boards:
        raise SystemExit(f"no boards in {args.boards}: draw them first (python -m bench.learn.piece_boards)")
    started, step, losses = time.perf_counter(), 0, []
    budget = args.minutes * 60
    while time.perf_counter() - started < budget:
        names = list(boards)
        x, heats, regs = [], [], []
        for k in rng.integers(len(names), size=args.batch):
            crop, pts = sample(boards[names[k]], rng, args.resize)
            h, r = targets(pts)
            x.append(crop)
            heats.append(h)
            regs.append(r)
        x_t, heat_t, reg_t = map(lambda a: torch.from_numpy(np.stack(a)), (x, heats, regs))
        out = net(x_t)
        mask = reg_t[:, 2:3]
        reg_loss = ((out[:, HEATS:] - reg_t[:, :2]).abs() * mask).sum() / mask.sum().clamp(min=1)
        loss = focal(out[:, :HEATS], heat_t) + reg_loss
        losses.append(descend(opt, loss, args.lr, started, budget))
        step += 1
        report(step, losses, started, f"boards {len(boards)}")
        if step % 1000 == 0:  # a checkpoint to look at while training goes on; boards drawn meanwhile join
            export(net, args.out, SIZE, ("board", "maps"), SPATIAL)
            net.train(not args.start_from)
            load(args.boards, boards)
    export(net, args.out, SIZE, ("board", "maps"), SPATIAL)
    print(
        f"wrote {args.out} after {step} steps on {len(boards)} boards ({(time.perf_counter() - started) / 60:.1f} min)"
    )


if __name__ == "__main__":
    main()
