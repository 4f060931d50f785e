"""Train the face embedding on procedural dice art and export it to ONNX (dev only: pip install -e '.[train]').

    python -m bench.learn.train_embed models/face-embed.onnx [--families 1500] [--minutes 20]
    python -m bench.learn.train_embed OUT.onnx --start-from models/networks/face-embed.onnx --margin 0.15 --lr 1e-3

Each step takes a few whole families (all 18 faces, so mirror pairs and faces sharing a ring,
a frame or a number meet in every batch), two views of each face as its prototype and two
as queries, and minimises the prototypical-network loss (Snell et al. 2017) over cosine
similarity. The network is small enough for a Pi: three conv blocks, 64 numbers out, unit
length. ``--margin`` asks each query to lead the other faces by that much cosine similarity
(CosFace, Wang et al. 2018): the reader reads a face only when it leads the next by 0.1.
``--minutes`` bounds the run on this 2-core machine. Families from seed 10**6 up are never
trained on: bench/learn/eval_embed.py measures on them.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from bench.learn.art import FACE_IDS, PATCH, family, view
from bench.learn.training import cosine_decay, export, trained_on

VIEWS = 4  # per face per step: 2 for the prototype, 2 queries
SCALE = 16.0  # cosine similarity -> logits


def network(patch: int = PATCH):
    import torch.nn as nn

    def block(cin: int, cout: int) -> list:
        return [
            nn.Conv2d(cin, cout, 3, padding=1, bias=False),
            nn.BatchNorm2d(cout),
            nn.ReLU(inplace=True),
            nn.Conv2d(cout, cout, 3, padding=1, bias=False),
            nn.BatchNorm2d(cout),
            nn.ReLU(inplace=True),
            nn.MaxPool2d(2),
        ]

    class Embed(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.features = nn.Sequential(*block(1, 16), *block(16, 32), *block(32, 64))
            self.head = nn.Linear(64 * (patch // 8) ** 2, 64)

        def forward(self, x):
            v = self.head(self.features(x).flatten(1))
            return v / (v.norm(dim=1, keepdim=True) + 1e-6)

    return Embed()


def batch(seeds: list[int], rng: np.random.Generator, patch: int = PATCH, shaken: float = 0.0) -> np.ndarray:
    """[families * 18 faces, VIEWS, 1, patch, patch] views."""
    out = []
    for seed in seeds:
        art, dark = family(seed), bool(rng.random() < 0.6)  # one set of dice is dark or light throughout
        out += [
            [view(art[face], rng, patch, dark_die=dark, shaken=shaken)[None] for _ in range(VIEWS)] for face in FACE_IDS
        ]
    return np.asarray(out, np.float32)


def main() -> None:
    import torch
    import torch.nn.functional as F

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", type=Path)
    parser.add_argument("--families", type=int, default=1500, help="art families to train on")
    parser.add_argument("--per-step", type=int, default=6, help="families in one step")
    parser.add_argument("--minutes", type=float, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--patch", type=int, default=PATCH, help="px across the face patch (a multiple of 8)")
    parser.add_argument("--threads", type=int, default=2, help="torch threads (1 leaves a core for other work)")
    parser.add_argument("--start-from", type=Path, help="a trained embedding (ONNX) to train on")
    parser.add_argument("--margin", type=float, default=0.0, help="cosine similarity a query must lead by")
    parser.add_argument("--lr", type=float, default=2e-3, help="the learning rate's peak")
    parser.add_argument("--shaken", type=float, default=0.0, help="share of views smeared along a line (art.SHAKE)")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    net = network(args.patch)
    if args.start_from:  # in eval mode throughout: the export fused its batch norms, whose statistics are kept
        trained_on(net, args.start_from, "a face embedding")
    opt = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=1e-4)
    started, step, losses = time.perf_counter(), 0, []
    budget = args.minutes * 60
    while time.perf_counter() - started < budget:
        seeds = list(rng.integers(0, args.families, size=args.per_step))
        x = torch.from_numpy(batch(seeds, rng, args.patch, args.shaken))
        n = x.shape[0]
        emb = net(x.reshape(-1, 1, args.patch, args.patch)).reshape(n, VIEWS, -1)
        protos = F.normalize(emb[:, :2].mean(1), dim=1)
        queries = emb[:, 2:].reshape(-1, emb.shape[-1])
        labels = torch.arange(n).repeat_interleave(VIEWS - 2)
        similarity = queries @ protos.T - args.margin * F.one_hot(labels, n)
        loss = F.cross_entropy(SCALE * similarity, labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
        cosine_decay(opt, args.lr, started, budget)
        losses.append(float(loss))
        step += 1
        if step % 100 == 0:
            print(f"step {step}: loss {np.mean(losses[-100:]):.3f} ({time.perf_counter() - started:.0f} s)", flush=True)
    export(net, args.out, args.patch, ("face", "embedding"))
    print(
        f"wrote {args.out} after {step} steps ({(time.perf_counter() - started) / 60:.1f} min), "
        f"final loss {np.mean(losses[-100:]):.3f}"
    )


if __name__ == "__main__":
    main()
