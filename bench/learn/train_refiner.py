"""Train the die refiner on procedural table photos and export it to ONNX (dev only: pip install -e '.[train]').

    python -m bench.learn.train_refiner models/networks/die-refiner.onnx [--minutes 30]
    python -m bench.learn.train_refiner OUT.onnx --start-from models/networks/die-refiner.onnx --learn kind

The finder sees a die at 16 px a side: its centre is good to about a twentieth of a side, and it
cannot say how big the die is (one size a set, though a die near the photo's edge or on a heap
looks bigger or smaller). The refiner takes a second look at each die the finder found, closer
(a die 23 px across, the finder's 16): a square window round the finder's guess, squared up at its
turn, in; out, where the top face's centre really is in the window, how much bigger it is than
guessed, how much more it is turned, how likely a level die and a die at all lie there, and where
the die's body (its centre) shows from its top face's centre. With --start-from, training goes on
from a trained refiner: --learn body or kind teaches that head alone (level and die: kind), every
other weight kept as it is; --learn all fine-tunes every weight, batch norms' statistics kept.
--refined-cuts cuts every die's windows (procedural and Blender photos) where the shipped refiner puts it (the lean
judge's windows in the reader), not round the truth with the finder's error.
--channels sets the trunk's widths; --teacher makes a trained network's outputs the targets (a
narrower trunk learning a shipped network's answers: every output, at every window).

Training examples are cut from procedural scenes (bench/learn/scenes.py) drawn at a die of about
32 px, round each die with the finder's kind of error (centre, size, turn), and round places
with no die.
"""

from __future__ import annotations

import functools
import json
import multiprocessing
import time
from pathlib import Path

import numpy as np

from bench.learn.scenes import scene
from bench.learn.training import arguments, comma_list, cosine_decay, export, start_options, trained_on
from companion.vision.finding import standardise
from companion.vision.networks import run
from companion.vision.refining import REFINER_VIEW, View, crop

SCENE = 128  # px: a training photo
DIE = 32.0  # px: a die's top face in it (give or take 15 %)
CENTRE_ERROR = 0.06  # of a side: the finder's centre error (each way, spread), clipped at CENTRE_CLIP
CENTRE_CLIP = 0.25
SIZE_ERROR = 0.25  # the guessed side is the true one times e to +- this
TURN_ERROR = 5.0  # degrees (spread), clipped at TURN_CLIP
TURN_CLIP = 20.0
NAMES = ("window", "refined")  # the ONNX input's and output's
CHANNELS = (16, 32, 64)  # the trunk's widths: ~9.3 M multiply-adds a window, ~0.5 ms on one core here
OUTPUTS = 8  # centre x, y (in half windows), log size ratio, turn (in 45 degrees), level logit, die logit, and
# where the die's body shows beyond its top (x, y in half windows)
BODY_ERROR = 0.05  # of a side: the spread the body's place is learned in units of
PER_PHOTO = 8  # windows a batch takes from one Blender photo (its dice and places with no die)
REFINED_STARTS = 4  # with --refined-cuts: the refiner's places a die, each from guesses of its own
TOLD_ERROR = 0.1  # ... told the photo's die size times e to +- this (the bench's photos: 0.92-1.18 of the enrolled)
HEADS = {"kind": "heads.2.", "body": "heads.3."}  # the heads --learn can teach alone (size and turn: 0, 1)


def network(px: int = REFINER_VIEW.px, channels: tuple[int, int, int] = CHANNELS):
    """The refiner's network for windows ``px`` across, its trunk ``channels`` wide."""
    import torch
    import torch.nn as nn

    def conv(cin: int, cout: int, stride: int = 1, dilation: int = 1) -> list:
        return [
            nn.Conv2d(cin, cout, 3, stride, dilation, dilation=dilation, bias=False),
            nn.BatchNorm2d(cout),
            nn.ReLU(inplace=True),
        ]

    class Refiner(nn.Module):
        """A shared trunk at a quarter of the window; the centre as the mean place of a heat map over it (a
        soft argmax: plain regression of a place from flattened features learns it poorly); size, turn and kind
        each from a head of its own over features at an eighth (one shared head let an output die: constant)."""

        def __init__(self) -> None:
            super().__init__()
            a, b, c = channels
            self.trunk = nn.Sequential(
                *conv(1, a, 2), *conv(a, b), *conv(b, b, 2), *conv(b, c), *conv(c, c, dilation=2)
            )
            self.heat = nn.Conv2d(c, 1, 1)
            self.pooled = nn.Sequential(*conv(c, c, 2), nn.Flatten())
            width = c * (px // 8) ** 2
            self.heads = nn.ModuleList(
                nn.Sequential(nn.Linear(width, 48), nn.LeakyReLU(0.1, inplace=True), nn.Linear(48, n))
                for n in (1, 1, 2, 2)
            )
            cells = px // 4
            at = (torch.arange(cells, dtype=torch.float32) + 0.5) / cells * 2 - 1  # cell centres, in half windows
            self.register_buffer("grid", torch.stack([at.repeat(cells), at.repeat_interleave(cells)], dim=1))

        def forward(self, x):
            features = self.trunk(x)
            weights = torch.softmax(self.heat(features).flatten(1), dim=1)
            pooled = self.pooled(features)
            return torch.cat([weights @ self.grid, *(head(pooled) for head in self.heads)], dim=1)

    return Refiner()


def finder_guess(die: dict, rng: np.random.Generator) -> tuple[tuple[float, float], float, float]:
    """Where the finder might see ``die``: its centre, side and turn, each off by the finder's kind of error."""
    side = die["side"]
    shift = np.clip(rng.normal(0, CENTRE_ERROR, 2), -CENTRE_CLIP, CENTRE_CLIP) * side
    guess_side = side * float(np.exp(rng.uniform(-SIZE_ERROR, SIZE_ERROR)))
    turn = die["turn"] + float(np.clip(rng.normal(0, TURN_ERROR), -TURN_CLIP, TURN_CLIP))
    return (die["centre"][0] + shift[0], die["centre"][1] + shift[1]), guess_side, turn


def refined_cuts(
    photo: np.ndarray, dice: list[dict], told: float, rng: np.random.Generator, starts: int = REFINED_STARTS
) -> list[list[tuple[tuple[float, float], float, float]]]:
    """Per die, where the shipped refiner puts it (centre, turn, side) from ``starts`` finder_guess-es, told a die
    ``told`` px across a little off as the reader is told the enrolled size (the guesses' own sizes unused): the places
    the reader cuts the lean judge's windows at (a cocked die's top face, placed by a refiner that never learned one,
    is often a fifth of a side off)."""
    from companion.vision.finding import Spot
    from companion.vision.refining import refine

    cuts: list[list[tuple[tuple[float, float], float, float]]] = [[] for _ in dice]
    for _ in range(starts):
        spots = []
        for die in dice:
            centre, _, turn = finder_guess(die, rng)
            spots.append(Spot(centre, turn % 90, 1.0, True))
        side = told * float(np.exp(rng.uniform(-TOLD_ERROR, TOLD_ERROR)))
        for placed, face in zip(cuts, refine(photo, spots, side)):
            placed.append((face.centre, face.turn, face.side))
    return cuts


def examples(
    photo: np.ndarray,
    dice: list[dict],
    rng: np.random.Generator,
    per_die: int = 3,
    bare_side: float = DIE,
    view: View = REFINER_VIEW,
    cuts: list | None = None,
):
    """Windows ``view`` round the photo's dice as the finder would guess them, or at one of each die's ``cuts``
    (refined_cuts) if given (and two round no die, ``bare_side`` px across), with their targets: (window, [x, y, log
    size, turn, level, die, regress?, body x, body y])."""
    out = []
    for n, die in enumerate(dice):
        if not (0 <= die["centre"][0] < photo.shape[1] and 0 <= die["centre"][1] < photo.shape[0]):
            continue
        side = die["side"]
        for _ in range(per_die):
            if cuts is None:
                guess, guess_side, guess_turn = finder_guess(die, rng)
            else:
                guess, guess_turn, guess_side = cuts[n][int(rng.integers(len(cuts[n])))]
            window, to_window = crop(photo, guess, guess_turn, guess_side, view)
            x, y = to_window(die["centre"])
            half = view.px / 2
            turn = (die["turn"] - guess_turn + 45) % 90 - 45
            level = float(die["level"])
            bx, by = to_window((die["centre"][0] + die["body"][0] * side, die["centre"][1] + die["body"][1] * side))
            body = [(bx - x) / half, (by - y) / half]
            target = [(x - half) / half, (y - half) / half, np.log(side / guess_side), turn / 45, level, 1.0, level]
            target += body
            out.append((window, target))
    for _ in range(2):  # places with no die: the mat, its print, a die's edge
        p = rng.uniform(0, 1, 2) * (photo.shape[1], photo.shape[0])
        if all(np.hypot(*(p - np.array(d["centre"]))) > 0.8 * d["side"] for d in dice):
            window, _ = crop(
                photo, (float(p[0]), float(p[1])), rng.uniform(0, 90), bare_side * rng.uniform(0.8, 1.2), view
            )
            out.append((window, [0, 0, 0, 0, 0.0, 0.0, 0.0, 0.0, 0.0]))
    return out


def median_side(dice: list[dict]) -> float:
    """A photo's die size: its dice's median side (px), the size the reader is told as the enrolled one."""
    return float(np.median([d["side"] for d in dice]))


def _draw(seeds: list[int], refined: bool = False) -> list[tuple[np.ndarray, list[dict], list | None]]:
    """Procedural scenes, each with its dice's refined_cuts if ``refined`` (else None)."""
    out = []
    for s in seeds:
        photo, dice = scene(s, SCENE, DIE)
        cuts = refined_cuts(photo, dice, median_side(dice), np.random.default_rng(s)) if refined and dice else None
        out.append((photo, dice, cuts))
    return out


def rendered(folder: Path, rng: np.random.Generator | None = None) -> list[tuple[np.ndarray, list[dict], float, list]]:
    """Blender's training photos (bench/learn/blender_photos.py) in grey, their dice, their median die side, and
    with ``rng`` each die's refined_cuts (else None)."""
    import cv2

    out = []
    for path in sorted(folder.glob("photo-*.jpg")):
        dice = json.loads(path.with_suffix(".json").read_text())["dice"]
        if dice:
            gray = cv2.cvtColor(cv2.imread(str(path)), cv2.COLOR_BGR2GRAY)  # as the reader greys a camera's photo
            side = median_side(dice)
            out.append((gray, dice, side, refined_cuts(gray, dice, side, rng) if rng is not None else None))
    return out


def main() -> None:
    import torch
    import torch.nn.functional as F

    start, peak = start_options("refiner", lr=2e-3)
    learn = (
        "--learn",
        {"choices": tuple(HEADS) + ("all",), "default": "all", "help": "with --start-from: what learns"},
    )
    photos = ("--photos", {"type": Path, "help": "Blender's training photos (blender_photos.py), learned beside"})
    share = ("--photo-share", {"type": float, "default": 0.5, "help": "with --photos: of each batch, from them"})
    sides = ("--window", {"type": float, "default": REFINER_VIEW.sides, "help": "the window's side, in die sides"})
    px = ("--px", {"type": int, "default": REFINER_VIEW.px, "help": "the window's side in px (a multiple of 8)"})
    teacher = (
        "--teacher",
        {"type": Path, "help": "a trained refiner (.onnx) whose outputs are learned, not the truth's"},
    )
    widths = (
        "--channels",
        {"type": comma_list(int, 3), "default": CHANNELS, "help": "the trunk's three widths, as 16,32,64"},
    )
    cut = (
        "--refined-cuts",
        {"action": "store_true", "help": "every die's windows cut where the shipped refiner puts it"},
    )
    extra = (start, learn, peak, photos, share, sides, px, widths, teacher, cut)
    args = arguments(__doc__, batch=64, pool=8000, pool_help="scenes drawn ahead", extra=extra)
    rng = np.random.default_rng(args.seed)
    shot = rendered(args.photos, rng if args.refined_cuts else None) if args.photos else []
    if args.photos and not shot:
        raise SystemExit(f"{args.photos}: no photo-*.jpg with dice in it")
    if args.teacher and not args.teacher.is_file():
        raise SystemExit(f"{args.teacher}: no such network file")
    view = View(args.window, args.px)
    net = network(view.px, args.channels)
    if args.learn != "all" and not args.start_from:
        raise SystemExit(f"--learn {args.learn} needs --start-from: a head learns alone on a trained refiner only")
    if args.start_from:  # its batch norms' statistics are kept as trained (the export fused them)
        # at another px the heads' inputs and the centre's grid change shape and start anew; the trunk is the same
        resized = view.px != REFINER_VIEW.px
        trained_on(net, args.start_from, "a refiner", may_lack=("heads.", "grid") if resized else (HEADS["body"],))
        if args.learn != "all":
            for name, weight in net.named_parameters():
                weight.requires_grad = name.startswith(HEADS[args.learn])
    centre_spread = CENTRE_ERROR / view.sides * 2
    SPREADS = torch.tensor([centre_spread, centre_spread, SIZE_ERROR / 2, TURN_ERROR / 45])
    BODY_SPREAD = BODY_ERROR / view.sides * 2
    opt = torch.optim.AdamW([w for w in net.parameters() if w.requires_grad], lr=args.lr, weight_decay=1e-4)
    pool: list[tuple[np.ndarray, list[dict], list | None]] = []
    draw = functools.partial(_draw, refined=args.refined_cuts)
    started, step, losses = time.perf_counter(), 0, []
    budget = args.minutes * 60
    with multiprocessing.Pool(1) as workers:
        chunks = [list(range(k, k + 200)) for k in range(0, args.pool, 200)]
        pending = workers.imap_unordered(draw, chunks)
        drawn = 0
        pool = draw(list(range(10**7, 10**7 + 100)))  # a first few to start on while the pool is drawn
        while time.perf_counter() - started < budget:
            if drawn < len(chunks):
                try:
                    pool += pending.next(timeout=0)
                    drawn += 1
                except multiprocessing.TimeoutError:
                    pass
            batch = []
            while len(batch) < args.batch * args.photo_share and shot:
                photo, dice, side, cuts = shot[int(rng.integers(len(shot)))]
                windows = examples(photo, dice, rng, per_die=1, bare_side=side, view=view, cuts=cuts)
                batch += [windows[k] for k in rng.permutation(len(windows))[:PER_PHOTO]]
            while len(batch) < args.batch:
                photo, dice, cuts = pool[int(rng.integers(len(pool)))]
                batch += examples(photo, dice, rng, per_die=1, view=view, cuts=cuts)
            batch = batch[: args.batch]
            x = torch.from_numpy(np.stack([standardise(w) for w, _ in batch])[:, None])
            t = torch.from_numpy(np.array([target for _, target in batch], np.float32))
            out = net(x)
            if args.teacher:  # its outputs in place of the truth's: places, size, turn and body everywhere, its odds
                said = torch.from_numpy(run(str(args.teacher.resolve()), x.numpy()))  # (an absolute path: that file)
                t = torch.cat([said[:, :4], torch.sigmoid(said[:, 4:6]), torch.ones_like(t[:, 6:7]), said[:, 6:8]], 1)
            regress = t[:, 6:7]
            # each in units of its own spread, so a small one (the centre, the turn) weighs as much as the size
            geometry = F.smooth_l1_loss(out[:, :4] / SPREADS, t[:, :4] / SPREADS, reduction="none", beta=0.5)
            geometry = (geometry * regress).sum()
            geometry = geometry / regress.sum().clamp(min=1)
            kind = F.binary_cross_entropy_with_logits(out[:, 4:6], t[:, 4:6])
            is_die = t[:, 5:6]  # the body's place is learned at every die, level or cocked
            shows = F.smooth_l1_loss(out[:, 6:8] / BODY_SPREAD, t[:, 7:9] / BODY_SPREAD, reduction="none", beta=0.5)
            shows = (shows * is_die).sum() / is_die.sum().clamp(min=1)
            loss = {"body": shows, "kind": kind}.get(args.learn, geometry + kind + shows)
            opt.zero_grad()
            loss.backward()
            opt.step()
            cosine_decay(opt, args.lr, started, budget)
            losses.append((geometry.item(), kind.item(), shows.item()))
            step += 1
            if step % 200 == 0:
                g, k, b = np.mean(losses[-200:], axis=0)
                print(
                    f"step {step}: geometry {g:.4f}, kind {k:.3f}, body {b:.3f}, pool {len(pool)} "
                    f"({time.perf_counter() - started:.0f} s)",
                    flush=True,
                )
            if step % 2000 == 0:  # a checkpoint to look at while training goes on
                export(net, args.out, view.px, NAMES)
                net.train(not args.start_from)
    export(net, args.out, view.px, NAMES)
    print(f"wrote {args.out} after {step} steps ({(time.perf_counter() - started) / 60:.1f} min)")


if __name__ == "__main__":
    main()
