"""Train the dice finder on procedural table photos and export it to ONNX (dev only: pip install -e '.[train]').

    python -m bench.learn.train_finder models/networks/dice-finder.onnx [--minutes 30]
    python -m bench.learn.train_finder OUT.onnx --start-from models/networks/dice-finder.onnx --lr 1e-3 --vary-contrast

The finder is a small fully convolutional net (CenterNet-like, Zhou et al. 2019): a grey photo
at the working scale (a die's top face FINDER_SIDE px across) in; at a quarter of that, per
cell, how likely a level die's top-face centre lies there, how likely a cocked die's, the
centre's offset within the cell and the die's turn (cos and sin of four times it: a square
looks the same every quarter turn). Scenes come from bench/learn/scenes.py, drawn ahead into
a pool by a worker process and each used in its eight flips and quarter turns. Each crop is
standardised on its own; with --vary-contrast, its contrast then scaled and its level moved (GAIN,
SHIFT): a photo is standardised whole, so a die on a dim mat beside a bright table reaches the
finder fainter than any crop showed it. With --start-from, training goes on from a trained finder
(every weight, its batch norms' statistics kept as trained).
"""

from __future__ import annotations

import multiprocessing
import time

import numpy as np

from bench.learn.scenes import scene
from bench.learn.training import arguments, descend, export, report, start_options, started_from
from companion.vision.finding import standardise  # what the finder is fed, as it runs

SIZE = 96  # training crop (working-scale px)
STRIDE = 4  # output cells per input px
SIGMA = 0.8  # cells: the spread of a centre's peak in the target heat map
SPATIAL = {"photo": {0: "n", 2: "h", 3: "w"}, "maps": {0: "n", 2: "h4", 3: "w4"}}  # any photo size
CHANNELS = 6  # level heat, cocked heat, dx, dy, cos 4t, sin 4t
GAIN = (0.3, 1.5)  # a crop's standardised contrast is scaled by a log-uniform factor in this range ...
SHIFT = 0.5  # ... and its level moved up to this much either way (a whole photo's mean and spread are not a crop's)


def network(channels: int = CHANNELS, dilations: tuple[int, ...] = (1, 2, 4, 1)):
    """Two strided convolutions to a quarter of the photo, then separable ones at ``dilations`` (the context seen
    grows with them), to ``channels`` maps."""
    import torch.nn as nn

    def conv(cin: int, cout: int, stride: int = 1) -> list:
        return [nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)]

    def separable(ch: int, dilation: int) -> list:
        return [
            nn.Conv2d(ch, ch, 3, 1, dilation, dilation=dilation, groups=ch, bias=False),
            nn.Conv2d(ch, ch, 1, bias=False),
            nn.BatchNorm2d(ch),
            nn.ReLU(inplace=True),
        ]

    return nn.Sequential(
        *conv(1, 16, 2),
        *conv(16, 32, 2),
        *(layer for d in dilations for layer in separable(32, d)),
        nn.Conv2d(32, channels, 1),
    )


def targets(dice: list[dict], flip: bool, quarter: int) -> tuple[np.ndarray, np.ndarray]:
    """The heat maps (2, cells, cells) and the regression targets with their mask (5, cells, cells)."""
    cells = SIZE // STRIDE
    heat = np.zeros((2, cells, cells), np.float32)
    reg = np.zeros((5, cells, cells), np.float32)  # dx, dy, cos, sin, mask
    yy, xx = np.mgrid[0:cells, 0:cells].astype(np.float32) + 0.5
    for die in dice:
        x, y = die["centre"]
        turn = die["turn"]
        if flip:
            x, turn = SIZE - x, -turn
        for _ in range(quarter):  # np.rot90 turns the picture anticlockwise: (x, y) -> (y, SIZE - x)
            x, y = y, SIZE - x
            turn -= 90
        cx, cy = x / STRIDE, y / STRIDE
        channel = 0 if die["level"] else 1
        heat[channel] = np.maximum(heat[channel], np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * SIGMA**2)))
        i, j = int(np.floor(cy)), int(np.floor(cx))
        if not (0 <= i < cells and 0 <= j < cells):
            continue
        heat[channel, i, j] = 1.0
        if die["level"]:
            a = np.radians(4 * turn)
            reg[:, i, j] = [cx - j - 0.5, cy - i - 0.5, np.cos(a), np.sin(a), 1.0]
    return heat, reg


def _draw(seeds: list[int]) -> list[tuple[np.ndarray, list[dict]]]:
    return [scene(s, SIZE) for s in seeds]


def focal(logits, heat):
    """CenterNet's focal loss over the heat maps: peaks are 1, the rest weighed down near a peak."""
    import torch

    p = torch.sigmoid(logits).clamp(1e-4, 1 - 1e-4)
    peak = heat >= 0.999
    pos = -((1 - p) ** 2) * torch.log(p) * peak
    neg = -((1 - heat) ** 4) * p**2 * torch.log(1 - p) * (~peak)
    return (pos.sum() + neg.sum()) / peak.sum().clamp(min=1)


def main() -> None:
    import torch

    start, peak = start_options("dice finder", lr=3e-3)
    vary = ("--vary-contrast", {"action": "store_true", "help": "scale each crop's contrast (GAIN), move its level"})
    args = arguments(
        __doc__,
        batch=32,
        pool=6000,
        pool_help="scenes drawn ahead (each used in 8 orientations)",
        extra=(start, peak, vary),
    )
    rng = np.random.default_rng(args.seed)
    net = network()
    started_from(net, args.start_from, "dice finder")
    opt = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=1e-4)
    pool: list[tuple[np.ndarray, list[dict]]] = []
    started, step, losses = time.perf_counter(), 0, []
    budget = args.minutes * 60
    with multiprocessing.Pool(1) as workers:
        pending = workers.map_async(_draw, [list(range(k, k + 200)) for k in range(0, args.pool, 200)], chunksize=1)
        while not pool:
            pool = _draw(list(range(10**7, 10**7 + 64)))  # a first few to start on while the pool is drawn
        while time.perf_counter() - started < budget:
            if pending is not None and pending.ready():
                pool += [s for chunk in pending.get() for s in chunk]
                pending = None
            picks = rng.integers(len(pool), size=args.batch)
            x, heats, regs = [], [], []
            for k in picks:
                photo, dice = pool[k]
                flip, quarter = bool(rng.integers(2)), int(rng.integers(4))
                img = photo[:, ::-1] if flip else photo
                img = np.rot90(img, quarter)
                crop = standardise(np.ascontiguousarray(img))
                if args.vary_contrast:
                    crop = (np.exp(rng.uniform(*np.log(GAIN))) * crop + rng.uniform(-SHIFT, SHIFT)).astype(np.float32)
                x.append(crop[None])
                h, r = targets(dice, flip, quarter)
                heats.append(h)
                regs.append(r)
            x_t, heat_t, reg_t = map(lambda a: torch.from_numpy(np.stack(a)), (x, heats, regs))
            out = net(x_t)
            mask = reg_t[:, 4:5]
            reg_loss = ((out[:, 2:6] - reg_t[:, :4]).abs() * mask).sum() / mask.sum().clamp(min=1)
            loss = focal(out[:, :2], heat_t) + reg_loss
            losses.append(descend(opt, loss, args.lr, started, budget))
            step += 1
            report(step, losses, started, f"pool {len(pool)}")
            if step % 1000 == 0:  # a checkpoint to look at while training goes on
                export(net, args.out, SIZE, ("photo", "maps"), SPATIAL)
                net.train(not args.start_from)
    export(net, args.out, SIZE, ("photo", "maps"), SPATIAL)
    print(f"wrote {args.out} after {step} steps ({(time.perf_counter() - started) / 60:.1f} min)")


if __name__ == "__main__":
    main()
