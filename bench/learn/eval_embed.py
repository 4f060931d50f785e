"""How well the face embedding names faces of art it never saw, from a few enrolled examples.

    python -m bench.learn.eval_embed models/networks/face-embed.onnx

Each face of a set gets a prototype (the mean embedding of its enrolled patches); a query is
named by the nearest prototype at the best of its four quarter turns (the reader knows a
die's turn only up to a quarter). Printed per set: top-1 share right, mirror-image mistakes,
and at a margin bar (best minus second-best similarity >= MARGIN) the share read right and
misread; next to it the same for a simple baseline, the raw patches' correlation. Sets:

- procedural families never trained on (seeds from 10**6), 3 enrolled views per face;
- the repo's own five art styles (bench/render/glyphs.py: none of them in training),
  drawn by the same camera model, 3 enrolled views per face;
- the physically based Blender sets: patches cut at the true top faces (ground truth
  corners) of the enrollment photos (prototypes) and of the level dice in the photos.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import cv2
import numpy as np

from bench.learn.art import FACE_IDS, PATCH, family, normalise, view
from companion.games.rolling_bones.dice import MIRROR

SHOTS, QUERIES = 3, 5  # a drawn set's enrolled views and queries a face
MARGIN = 0.1  # cosine similarity the best face must lead by to be read (embedding); the baseline's too
DATA = Path(__file__).resolve().parents[2] / "bench" / "data" / "dice"


class Embedder:
    def __init__(self, model: Path):
        self.net = cv2.dnn.readNetFromONNX(str(model))

    def __call__(self, patches: np.ndarray) -> np.ndarray:
        self.net.setInput(patches[:, None].astype(np.float32))
        return self.net.forward()


def raw(patches: np.ndarray) -> np.ndarray:
    """The baseline's 'embedding': the normalised patch itself, unit length."""
    flat = patches.reshape(len(patches), -1)
    return flat / (np.linalg.norm(flat, axis=1, keepdims=True) + 1e-6)


def name(embed, support: dict[str, np.ndarray], queries: list[tuple[str, np.ndarray]]) -> dict[str, float]:
    faces = sorted(support)
    protos = np.stack([embed(support[f]).mean(0) for f in faces])
    protos /= np.linalg.norm(protos, axis=1, keepdims=True)
    turns = np.stack([np.rot90(q, k) for _, q in queries for k in range(4)])
    sims = (embed(turns) @ protos.T).reshape(len(queries), 4, len(faces)).max(1)
    order = np.argsort(-sims, axis=1)
    best, second = sims[np.arange(len(queries)), order[:, 0]], sims[np.arange(len(queries)), order[:, 1]]
    truth = [t for t, _ in queries]
    named = [faces[i] for i in order[:, 0]]
    right = np.array([n == t for n, t in zip(named, truth)])
    mirror = np.array([n == MIRROR[t] and n != t for n, t in zip(named, truth)])
    sure = best - second >= MARGIN
    n = len(queries)
    return {
        "n": n,
        "top1": right.mean(),
        "mirror": mirror.mean(),
        "read": (right & sure).mean(),
        "misread": (~right & sure).mean(),
    }


def drawn_set(art: dict[str, np.ndarray], dark: bool, rng: np.random.Generator, shaken: float = 0.0):
    """A drawn set of dice: SHOTS enrolled views a face, and QUERIES views a face at a random quarter turn (this share
    of them shaken: art.SHAKE)."""
    support = {f: np.stack([view(art[f], rng, dark_die=dark) for _ in range(SHOTS)]) for f in FACE_IDS}
    asked = [
        (f, np.rot90(view(art[f], rng, dark_die=dark, shaken=shaken), rng.integers(4)))
        for f in FACE_IDS
        for _ in range(QUERIES)
    ]
    return support, asked


def procedural(seeds: range, rng: np.random.Generator, shaken: float = 0.0):
    for seed in seeds:
        yield drawn_set(family(seed), bool(seed % 2), rng, shaken)  # one set of dice: dark or light, every photo


def repo_styles(rng: np.random.Generator, shaken: float = 0.0):
    from bench.render.glyphs import glyph

    for style in range(5):
        yield (style, *drawn_set({f: glyph(f, style) for f in FACE_IDS}, style != 1, rng, shaken))  # 1: ivory dice


def cut(image: np.ndarray, corners: list[list[float]]) -> np.ndarray:
    """The face inside ``corners`` (clockwise on the photo), squared up, as a normalised patch."""
    square = np.float32([[0, 0], [95, 0], [95, 95], [0, 95]])
    warp = cv2.getPerspectiveTransform(np.float32(corners), square)
    face = cv2.warpPerspective(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), warp, (96, 96), flags=cv2.INTER_AREA)
    return normalise(cv2.resize(face, (PATCH, PATCH), interpolation=cv2.INTER_AREA))


def photo_set(folder: Path):
    support: dict[str, list[np.ndarray]] = {}
    for truth in sorted((folder / "enroll").glob("*/*.json")):
        d = json.loads(truth.read_text())
        support.setdefault(d["face"], []).append(cut(cv2.imread(str(truth.with_suffix(".jpg"))), d["corners"]))
    queries = []
    for truth in sorted(folder.glob("scene-*.json")):
        image = cv2.imread(str(truth.with_suffix(".jpg")))
        for die in json.loads(truth.read_text())["dice"]:
            if not die["cocked"] and not die.get("hidden"):
                queries.append((die["face"], cut(image, die["corners"])))
    return {f: np.stack(p) for f, p in support.items()}, queries


def report(label: str, embedded: dict, baseline: dict) -> None:
    print(
        f"{label:34s} {embedded['n']:5d}  top-1 {embedded['top1']:6.1%}  mirror {embedded['mirror']:5.1%}  "
        f"read {embedded['read']:6.1%}  misread {embedded['misread']:5.1%}   | raw patches: top-1 "
        f"{baseline['top1']:6.1%}, read {baseline['read']:6.1%}, misread {baseline['misread']:5.1%}"
    )


def pooled(results: list[dict]) -> dict:
    n = sum(r["n"] for r in results)
    return {"n": n, **{k: sum(r[k] * r["n"] for r in results) / n for k in ("top1", "mirror", "read", "misread")}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("model", type=Path)
    parser.add_argument("--families", type=int, default=100, help="held-out procedural families")
    parser.add_argument("--shaken", type=float, default=0.0, help="share of the drawn queries shaken (art.SHAKE)")
    args = parser.parse_args()
    embed = Embedder(args.model)
    rng = np.random.default_rng(5)
    print(f"embedding {args.model} ({args.model.stat().st_size / 1e6:.1f} MB); margin bar {MARGIN}")
    ours, base = [], []
    for support, queries in procedural(range(10**6, 10**6 + args.families), rng, args.shaken):
        ours.append(name(embed, support, queries))
        base.append(name(raw, support, queries))
    report(f"procedural, {args.families} unseen families", pooled(ours), pooled(base))
    for style, support, queries in repo_styles(rng, args.shaken):
        report(f"repo art style {style} (never trained on)", name(embed, support, queries), name(raw, support, queries))
    for folder in sorted(DATA.glob("blender*")):
        support, queries = photo_set(folder)
        report(f"{folder.name} at true tops", name(embed, support, queries), name(raw, support, queries))


if __name__ == "__main__":
    main()
