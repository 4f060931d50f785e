"""Learning the dice from enrollment photos: the one die in each photo, its top face, and which photos
agree with the others of their face well enough to learn from.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from ..errors import BadInput
from .blobs import Blob, find_blobs
from .face_patches import MIN_INK, PATCH, die_turn, edge_angle, face_patch, grey, ink, normalise, normalise_all

FLAT_TO_FACE = 1.1  # a die's face, bevel and all, to the flat square its outline shows
TOP_OPTIONS = 12  # squares per enrollment photo that may be its top face
MIN_AGREEMENT = 0.6  # an enrollment photo matching no other photo of its face below this is not learned from
OUTLINE_SHARE = 0.6  # of the best outline fit's strength: the smallest square fitting this well is a top face


def the_one_die(image: np.ndarray, path: Path) -> Blob:
    """The die of an enrollment photo: the square blob with the most pictogram contrast, clearly ahead of any other."""
    blobs, _ = find_blobs(image)
    square = [b for b in blobs if not b.at_border and b.aspect < 3.0]  # a shadow or a side may lengthen it
    gray = grey(image)
    # the most pictogram anywhere in the blob (its middle may be the die's shadow)
    inked = sorted(
        (
            (
                max(
                    ink(face_patch(gray, Blob(spot, b.size, turn, 0, False), min(b.size)))
                    for spot, turn in _windows(gray, b, min(b.size))
                ),
                b,
            )
            for b in square
        ),
        key=lambda sb: -sb[0],
    )
    inked = [(spread, b) for spread, b in inked if spread >= MIN_INK]
    if not inked:
        raise BadInput(f"{path}: no die found in the photo")
    if len(inked) > 1 and inked[1][0] > 0.6 * inked[0][0]:
        raise BadInput(f"{path}: expected one die in the photo, found {len(inked)}")
    return inked[0][1]


def enrolled_tops(found: list[tuple[str, np.ndarray, Blob]]) -> tuple[float, list[Blob]]:
    """The die size (px) and each enrollment photo's top face, from (face, grey photo, the die's blob)."""
    # One crop size for every die, enrolled or read: the table camera does not move. A shadow or the
    # sides a die shows off the camera's axis make its blob longer, seldom both ways: the narrow ones tell.
    plain = [max(die.size) <= 1.1 * min(die.size) for _, _, die in found]
    if np.mean(plain) >= 0.7:
        # dice seen square-on, each blob its top face (the camera right above them, light from above)
        side = float(np.median([min(die.size) for _, _, die in found]))
        return side, [Blob(die.center, (side, side), die.angle, die.area, False) for _, _, die in found]
    # the dice show their sides (off the camera's axis) or cast long shadows: find each top face by its
    # outline, the pictogram agreeing between photos
    side, tops = _fitted_tops(found)
    return side, _agreeing_tops([gray for _, gray, _ in found], [face for face, _, _ in found], tops)


def _windows(gray: np.ndarray, die: Blob, side: float) -> list[tuple[tuple[float, float], float]]:
    """Die-sized squares over a blob (a grid, each turned as the edges under it say): where its top face may be."""
    angle = np.deg2rad(die.angle)
    c, s = np.cos(angle), np.sin(angle)
    us, vs = (_offsets(max(0.0, (extent - side) / 2), side / 5) for extent in die.size)
    spots = [(die.center[0] + u * c - v * s, die.center[1] + u * s + v * c) for u in us for v in vs]
    return [(spot, turn) for spot in spots for turn in {round(die.angle, 1), round(die_turn(gray, spot, side), 1)}]


def _offsets(reach: float, step: float) -> np.ndarray:
    """Evenly spaced offsets from -reach to reach, no further apart than ``step``, 0 among them."""
    n = int(np.ceil(reach / step))
    return np.linspace(-reach, reach, 2 * n + 1)


def photo_scores(photos: list[tuple[np.ndarray, Blob]], refs: np.ndarray, basis: np.ndarray) -> np.ndarray:
    """[i, j]: how well enrollment photo i, seen as the reader would (a few shifts and turns around its
    face), matches any reference made from photo j (refs are stacked photo by photo)."""
    probes = np.stack(
        [
            (
                normalise_all(
                    np.stack(
                        [
                            face_patch(gray, top, top.size[0], (dx, dy), turn)
                            for dx in (-2, 0, 2)
                            for dy in (-2, 0, 2)
                            for turn in (-4, 0, 4)
                        ]
                    )
                )
                @ basis
            ).T
            for gray, top in photos
        ]
    )  # (photos, k, probes)
    best = np.einsum("rk,pkq->prq", refs, probes).max(axis=2)  # (photos, refs)
    return best.reshape(len(photos), len(photos), -1).max(axis=2)


def photos_to_learn_from(by_photo: np.ndarray, faces: list[str]) -> np.ndarray:
    """Which enrollment photos to learn from, judged by how each matches the others (``by_photo``).
    Not one whose face was not found in it:
    - one that other faces' photos match better than they match their own face's photos, for two or more of
      them (all edges and sides: it looks like anything; kept when it looks more like its own face's photos
      than like any other's, it added misreads on light dice: not taken);
    - one that matches none of its face's other photos (a square on its shadow, the mat, the sides: it steals
      from no face, and would read shadows and gaps between dice as its face).
    Each face keeps at least the photo most like its own face's others."""
    either = np.maximum(by_photo, by_photo.T)
    itself = np.eye(len(faces), dtype=bool)
    same = np.array([[a == b for b in faces] for a in faces]) & ~itself  # another photo of the same face
    other = ~same & ~itself  # a photo of another face
    alone = ~same.any(axis=1)  # a face's only photo has no other to agree with
    agreement = np.where(alone, 1.0, np.where(same, either, -1.0).max(axis=1))
    elsewhere = np.where(other, either, -1.0).max(axis=1)
    own = np.where(same, by_photo, -1.0).max(axis=1)
    # photo j beats i's own face, for how many i (once may be a near-twin face)
    steals = ((by_photo > own[:, None]) & other & ~alone[:, None]).sum(axis=0)
    keep = (steals < 2) & (agreement >= MIN_AGREEMENT)
    for face in set(faces):
        mine = [i for i, f in enumerate(faces) if f == face]
        if not keep[mine].any():
            keep[max(mine, key=lambda i: agreement[i] - elsewhere[i])] = True
    return keep


def ceilings_of(by_photo: np.ndarray, faces: list[str]) -> dict[str, float]:
    """Per face, the best score any other face's enrollment photo reached against it: a reading of that face
    must beat it (a die that looks no more like the face than another face's photo once did is not read)."""
    other = np.array([[a != b for b in faces] for a in faces])
    return {
        face: float(np.where(other, by_photo, -1.0)[:, [j for j, f in enumerate(faces) if f == face]].max())
        for face in dict.fromkeys(faces)
    }


def _outline_fits(gray: np.ndarray, die: Blob, sizes, turned: float) -> list[tuple[float, Blob]]:
    """Squares over a blob's box, turned within a few degrees of ``turned``, scored by how strongly the photo's
    edges run along all four of their sides (a top face's outline: lit top against darker sides or mat), best
    first."""
    g = cv2.GaussianBlur(gray.astype(np.float32), (0, 0), 1.0)
    gx, gy = cv2.Sobel(g, cv2.CV_32F, 1, 0), cv2.Sobel(g, cv2.CV_32F, 0, 1)
    along = np.linspace(-0.4, 0.4, 17)  # along each side, clear of the rounded corners
    fits = []
    for side in sizes:
        us, vs = (np.arange(-r, r + 0.1, 2.0) for r in (max(0.0, (e - side) / 2) for e in die.size))
        du, dv = (a.ravel() for a in np.meshgrid(us, vs))
        a0 = np.deg2rad(die.angle)
        cx = die.center[0] + du * np.cos(a0) - dv * np.sin(a0)
        cy = die.center[1] + du * np.sin(a0) + dv * np.cos(a0)
        for turn in (-6, -3, 0, 3, 6):
            a = np.deg2rad(turned + turn)
            c, s = np.cos(a), np.sin(a)
            strength = np.full(len(cx), np.inf)
            for nx, ny in ((c, s), (-c, -s), (-s, c), (s, -c)):
                px = cx[:, None] + nx * side / 2 - ny * along[None, :] * side
                py = cy[:, None] + ny * side / 2 + nx * along[None, :] * side
                xi = np.clip(px.astype(int), 0, g.shape[1] - 1)
                yi = np.clip(py.astype(int), 0, g.shape[0] - 1)
                # an outline runs the whole length of every side: a side's weak quarter and the weakest side
                # count (a pictogram's strokes are strong in places, and a neighbour's edge along one side only)
                along_side = np.percentile(np.abs(gx[yi, xi] * nx + gy[yi, xi] * ny), 25, axis=1)
                strength = np.minimum(strength, along_side)
            fits += [
                (float(v), Blob((float(x), float(y)), (side, side), turned + turn, side * side, False))
                for v, x, y in zip(strength, cx, cy)
            ]
    fits.sort(key=lambda f: -f[0])
    return fits


def _fitted_tops(found: list[tuple[str, np.ndarray, Blob]]) -> tuple[float, list[Blob]]:
    """The die size and each enrollment photo's top face (its own size: the camera may have been nearer or
    farther for each photo), for dice whose blobs are more than their top face."""
    sizes, options = [], []
    for _, gray, die in found:
        # the blob's box is turned as its outline lies (the sides and shadow make it no square): the edges over
        # the whole die say how its top face is turned, each visible side and the shadow running with them
        fits = _outline_fits(
            gray, die, min(die.size) * np.arange(0.65, 1.06, 0.05), edge_angle(gray, die.center, max(die.size))
        )
        size = _top_size(fits)
        sizes.append(size)
        # several squares of that size fitting well (distinct places): the shadow's and sides' outlines fit too
        kept: list[Blob] = []
        for _, square in (fit for fit in fits if fit[1].size[0] == size):
            if all(np.hypot(square.center[0] - k.center[0], square.center[1] - k.center[1]) > 3 for k in kept):
                kept.append(square)
            if len(kept) == TOP_OPTIONS:
                break
        options.append(kept)
    patches = [
        [face_patch(gray, w, size * FLAT_TO_FACE) for w in windows]
        for (_, gray, _), windows, size in zip(found, options, sizes)
    ]
    unlike = [np.array([_unlike_a_face(p) for p in ps]) for ps in patches]
    vectors = [normalise_all(np.stack(ps)) for ps in patches]
    turned = [
        [np.rot90(v.reshape(-1, PATCH, PATCH), q, axes=(1, 2)).reshape(len(v), -1) for q in range(4)] for v in vectors
    ]
    tops = []
    for i, (face, _, _) in enumerate(found):
        # the square that looks like a top face and whose pictogram agrees with the other photos' likely faces
        # (agreement alone lets two squares on two shadows agree with each other)
        agreement, others = np.zeros(len(vectors[i])), 0
        for j, (other, _, _) in enumerate(found):
            if j != i and other == face:
                agreement += np.max([(vectors[i] @ t.T) - unlike[j][None, :] for t in turned[j]], axis=0).max(axis=1)
                others += 1
        best = options[i][int((agreement / max(others, 1) - unlike[i]).argmax())]
        side = sizes[i] * FLAT_TO_FACE
        tops.append(Blob(best.center, (side, side), best.angle, side * side, False))
    return float(np.median(sizes)) * FLAT_TO_FACE, tops


def _top_size(fits: list[tuple[float, Blob]]) -> float:
    """The top face's size from outline fits at several sizes: the smallest that fits well (``OUTLINE_SHARE``
    of the best fit), not the best: a die showing two sides has an outline of two tiers, the bigger one round
    its sides too, often the stronger (light dice, a lit side)."""
    best: dict[float, float] = {}
    for strength, square in fits:
        best[square.size[0]] = max(best.get(square.size[0], -1.0), strength)
    strongest = max(best.values())
    return min(size for size, strength in best.items() if strength >= OUTLINE_SHARE * strongest)


def _unlike_a_face(patch: np.ndarray, rim: int = 4) -> float:
    """How unlike a die's top face a square is: a face has one body tone all round its rim and its pictogram in
    the middle; a square on a shadow, a side or the mat has a rim of two tones, or its 'ink' to one side.
    The rim's worst side (its mean difference from the rim's tone, in the patch's contrast) plus how far the
    ink's centre is from the middle (in half-widths)."""
    p = cv2.GaussianBlur(patch.astype(np.float32), (3, 3), 0.7)
    sides = [p[:rim], p[-rim:], p[:, :rim].T, p[:, -rim:].T]
    body = float(np.median(np.concatenate([s.ravel() for s in sides])))
    contrast = max(10.0, float(np.percentile(p, 97) - np.percentile(p, 3)))
    uneven = max(float(np.mean(np.abs(s - body))) for s in sides) / contrast
    ink = np.abs(p - body)
    ink *= ink > 0.25 * contrast
    if not ink.sum():
        return uneven + 1.0
    ys, xs = np.mgrid[: p.shape[0], : p.shape[1]]
    middle = (p.shape[0] - 1) / 2
    off = np.hypot((ink * xs).sum() / ink.sum() - middle, (ink * ys).sum() / ink.sum() - middle) / middle
    return uneven + float(off)


def _agreeing_tops(grays: list[np.ndarray], faces: list[str], tops: list[Blob], rounds: int = 2) -> list[Blob]:
    """Each photo's top face moved, turned and sized (a little) to agree best with the other photos of its
    face: an outline fit is good to a few px and ~10 % in size, the pictogram to a px. Size drift is kept
    out by holding each face's median size to its outline fits' median."""
    fitted = tops = list(tops)
    for _ in range(rounds):
        vectors = [
            np.stack([normalise(np.rot90(face_patch(gray, top, top.size[0]), q)) for q in range(4)])
            for gray, top in zip(grays, tops)
        ]
        moved = []
        for i, (gray, top) in enumerate(zip(grays, tops)):
            others = [vectors[j] for j, f in enumerate(faces) if f == faces[i] and j != i]
            if not others:
                moved.append(top)
                continue
            candidates = [
                Blob((top.center[0] + dx, top.center[1] + dy), (top.size[0] * k,) * 2, top.angle + turn, 0, False)
                for k in (0.88, 0.94, 1.0, 1.06, 1.12)
                for dx in (-3, 0, 3)
                for dy in (-3, 0, 3)
                for turn in (-4, 0, 4)
            ]
            probes = normalise_all(np.stack([face_patch(gray, c, c.size[0]) for c in candidates]))
            agreement = np.mean([(o @ probes.T).max(axis=0) for o in others], axis=0)
            moved.append(candidates[int(agreement.argmax())])
        for face in set(faces):
            mine = [i for i, f in enumerate(faces) if f == face]
            drift = np.median([moved[i].size[0] / fitted[i].size[0] for i in mine])
            for i in mine:
                m, side = moved[i], moved[i].size[0] / drift
                moved[i] = Blob(m.center, (side, side), m.angle, side * side, False)
        tops = moved
    return tops
