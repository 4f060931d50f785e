"""Tile: a blob of pieces laid against each other, covered by the enrolled pieces' own silhouettes.

Die-cut pieces of one type share one outline, so a blob of touching pieces is exactly the union of a few
enrolled silhouettes, each turned, perhaps mirrored, lying wholly inside the blob and clear of the others.
Pieces lying across each other are not: their blob is smaller than their silhouettes together, so no two of
them fit inside it apart, and it stays unread. The search is coarse first (at COARSE size, every COARSE_STEP
degrees), then each likely placement is set to the px and the degree, then every set of placements apart
from each other that covers the blob is found; the blob is counted only when they all say the same pieces.
"""

from __future__ import annotations

import functools
from typing import Any, NamedTuple

import cv2
import numpy as np

COARSE = 0.35  # the first search at this size: eight times fewer px (a limb still 4 px thick)
COARSE_STEP = 5.0  # degrees: a leg's end moves ~3 px (working px) at 5 degrees, a third of its thickness
FINE_STEP = 1.25  # degrees, each likely placement turned to within this ...
FINE_SHIFT = 3  # ... and moved to within this many working px
COARSE_INSIDE = 0.75  # share of a silhouette inside the blob for a coarse placement to be looked at again
INSIDE = 0.92  # share of a silhouette inside the blob for it to be placed (the touching set's pieces: 0.92-1.0)
SHRUNK = 0.95  # silhouettes a little smaller than enrolled: pieces' sizes vary 0.94-1.07 across a flat board
SLACK = 2  # working px: placements grown this much cover the blob's rim (its outline is a px or two wider)
LEFT = 0.04  # share of the blob the placements (grown) may leave uncovered
COARSE_LEFT = 0.1  # ... and the coarse placements, all together, at COARSE size
APART = 0.05  # share of the smaller of two placements they may share (where they touch)
SAME_PLACE = 4  # working px: coarse placements of one type this close, this alike in turn, are one
SAME_PIECE = 0.6  # placements of one type sharing this much of the smaller are one: the better kept
LOOKED_AT = 10  # coarse placements of each type looked at again, best first (the big types' would crowd out the rest)
PLACED = 40  # placements kept for the covering
COVERS = 20  # coverings looked for at most (they must agree) ...
TRIED = 5000  # ... among this many sets of placements at most (the committed and fresh sets' blobs: 16 at most)
MOST_PIECES = 6  # pieces in a blob at most (the finder's MOST_FOUND)
SAME_VIEW = 0.9  # two coarse views sharing this much of their union are one (a px's rounding either way apart)
MIN_PIECES = 2  # one piece is the outline's own call: a covering of one counts nothing


class Placement(NamedTuple):
    """One enrolled silhouette laid in a blob: its type, centre (px of the blob's mask) and how much of it lies
    inside the blob."""

    kind: str
    centre: tuple[float, float]
    inside: float


class Guess(NamedTuple):
    """A coarse placement: how many of its silhouette's px lie inside the blob, its type, turn, whether mirrored,
    and its centre (px of the blob's mask)."""

    px_inside: float
    kind: str
    turn: float
    mirrored: bool
    x: float
    y: float

    def same_place(self, other: Guess) -> bool:
        """Whether another guess of the type is this one, a px or a few degrees off."""
        turned = abs(self.turn - other.turn) % 360
        return (
            self.mirrored == other.mirrored  # (of one type)
            and abs(self.x - other.x) <= SAME_PLACE
            and abs(self.y - other.y) <= SAME_PLACE
            and min(turned, 360 - turned) <= 2 * COARSE_STEP
        )


View = tuple[np.ndarray, tuple[float, float], float]  # a silhouette turned: its px, its centre there, their count
TURNS = [float(t) for t in np.arange(0, 360, COARSE_STEP)]
Laid = tuple[Placement, np.ndarray, np.ndarray]  # a placement, its mask in the blob's, and that grown by SLACK


class Tiler:
    """Each type's enrolled silhouette (the piece of median area, filled, at the working scale), and its views."""

    def __init__(self, masks: dict[str, np.ndarray]):
        self.masks = masks
        self._seen: dict[tuple[float, str, float, bool], View] = {}  # per scale, type, turn and mirrored

    @classmethod
    def of(cls, pieces: list[tuple[str, np.ndarray]]) -> Tiler:
        """From the enrolled pieces' filled masks (working px), by type: each type's piece of median area."""
        masks = {}
        for kind in dict.fromkeys(kind for kind, _ in pieces):
            alike = sorted((mask > 0 for k, mask in pieces if k == kind), key=np.count_nonzero)
            masks[kind] = alike[len(alike) // 2]
        return cls(masks)

    def arrays(self) -> dict[str, np.ndarray]:
        kinds = list(self.masks)
        h = max(m.shape[0] for m in self.masks.values())
        w = max(m.shape[1] for m in self.masks.values())
        laid = np.zeros((len(kinds), h, w), bool)
        for i, kind in enumerate(kinds):
            laid[i, : self.masks[kind].shape[0], : self.masks[kind].shape[1]] = self.masks[kind]
        sizes = np.array([self.masks[k].shape for k in kinds])
        return {"tiles": np.packbits(laid, axis=-1), "tile_sizes": sizes, "tile_labels": np.array(kinds)}

    @classmethod
    def from_arrays(cls, d: Any) -> Tiler | None:
        if "tiles" not in d:
            return None  # a set saved before the silhouettes were kept at size: blobs are not tiled
        laid = np.unpackbits(d["tiles"], axis=-1, count=int(d["tile_sizes"][:, 1].max())).astype(bool)  # the widest
        return cls({str(k): laid[i, :h, :w] for i, (k, (h, w)) in enumerate(zip(d["tile_labels"], d["tile_sizes"]))})

    def tile(self, blob: np.ndarray) -> list[Placement]:
        """The pieces covering a blob (its mask, working px), or [] when none do, or coverings disagree."""
        blob = blob > 0
        placements = self._placed(blob, self._coarse(blob))
        covers = _coverings(blob, placements)
        if not covers or len({tuple(sorted(placements[i][0].kind for i in c)) for c in covers}) > 1:
            return []
        return [placements[i][0] for i in covers[0]] if len(covers[0]) >= MIN_PIECES else []

    def _coarse(self, blob: np.ndarray) -> list[Guess]:
        """Likely placements at COARSE size: (silhouette px inside, type, turn, mirrored, centre x, y in blob px)."""
        small = cv2.resize(blob.astype(np.float32), None, fx=COARSE, fy=COARSE, interpolation=cv2.INTER_AREA)
        # a type is looked for if it and the smallest type fit in the blob (a covering has two pieces at least)
        areas = {kind: np.count_nonzero(mask) * SHRUNK**2 for kind, mask in self.masks.items()}
        room = np.count_nonzero(blob) - min(areas.values())
        found = []
        for kind in self.masks:
            if areas[kind] > room:
                continue
            for mirrored in (False, True):
                for turn in TURNS:
                    if (kind, turn, mirrored) in self._same_views:
                        continue
                    view, (cx, cy), px = self._view(COARSE * SHRUNK, kind, turn, mirrored)
                    if view.shape[0] > small.shape[0] or view.shape[1] > small.shape[1]:
                        continue
                    inside = cv2.matchTemplate(small, view, cv2.TM_CCORR)
                    if cv2.minMaxLoc(inside)[1] < COARSE_INSIDE * px:
                        continue  # (most views: no peak to look for)
                    peaks = (inside >= COARSE_INSIDE * px) & (inside >= cv2.dilate(inside, np.ones((5, 5), np.uint8)))
                    for y, x in zip(*np.nonzero(peaks)):
                        found.append(
                            Guess(float(inside[y, x]), kind, turn, mirrored, (x + cx) / COARSE, (y + cy) / COARSE)
                        )
        found.sort(key=lambda f: -f.px_inside)
        kept: dict[str, list[Guess]] = {kind: [] for kind in self.masks}
        for f in found:
            alike = kept[f.kind]
            if len(alike) < LOOKED_AT and not any(f.same_place(k) for k in alike):
                alike.append(f)
        guesses = [g for alike in kept.values() for g in alike]
        return guesses if self._reach(small, guesses) else []

    def _reach(self, small: np.ndarray, guesses: list[Guess]) -> bool:
        """Whether the coarse placements together reach over all but COARSE_LEFT of the blob (at COARSE size): if
        not, no covering can (a piece half under another fits nowhere), and the blob is let be at once."""
        reached = np.zeros(small.shape, bool)
        for g in guesses:
            view, (cx, cy), _ = self._view(COARSE * SHRUNK, g.kind, g.turn, g.mirrored)
            reached |= _pasted(view, int(round(g.x * COARSE - cx)), int(round(g.y * COARSE - cy)), small.shape)
        grown = cv2.dilate(reached.astype(np.uint8), _disc(1)) > 0
        blob = small > 0.5
        return int(np.count_nonzero(blob & ~grown)) <= COARSE_LEFT * max(1, int(np.count_nonzero(blob)))

    def _placed(self, blob: np.ndarray, coarse: list[Guess]) -> list[Laid]:
        """Each coarse placement set to the px and degree, kept if INSIDE the blob: (placement, its mask, grown)."""
        pad = 2 * FINE_SHIFT  # (a coarse place a few px out of the box, its view moved back in)
        padded = cv2.copyMakeBorder(blob.astype(np.float32), pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0)
        found = []
        for _, kind, turn, mirrored, x, y in coarse:
            best = None
            for shift in np.arange(-COARSE_STEP / 2, COARSE_STEP / 2 + 1e-6, FINE_STEP):
                view, (cx, cy), px = self._view(SHRUNK, kind, float((turn + shift) % 360), mirrored)
                x0, y0 = int(round(x - cx)), int(round(y - cy))
                h, w = view.shape
                top, left = y0 + pad - FINE_SHIFT, x0 + pad - FINE_SHIFT
                window = padded[max(0, top) : top + h + 2 * FINE_SHIFT, max(0, left) : left + w + 2 * FINE_SHIFT]
                if top < 0 or left < 0 or window.shape != (h + 2 * FINE_SHIFT, w + 2 * FINE_SHIFT):
                    continue
                _, most, _, (dx, dy) = cv2.minMaxLoc(cv2.matchTemplate(window, view, cv2.TM_CCORR))
                share = most / px
                if best is None or share > best[0]:
                    best = (share, view, x0 + dx - FINE_SHIFT, y0 + dy - FINE_SHIFT, cx, cy)
            if best is None or best[0] < INSIDE:
                continue
            inside, view, x0, y0, cx, cy = best
            mask = _pasted(view, x0, y0, blob.shape)
            grown = cv2.dilate(mask.astype(np.uint8), _disc(SLACK)) > 0
            found.append((Placement(kind, (float(x0 + cx), float(y0 + cy)), inside), mask, grown))
        kept: list[Laid] = []
        for one in sorted(found, key=lambda f: -f[0].inside):
            if not any(k[0].kind == one[0].kind and _shared(k[1], one[1]) > SAME_PIECE for k in kept):
                kept.append(one)
                if len(kept) == PLACED:
                    break
        return sorted(kept, key=lambda k: -np.count_nonzero(k[1]))  # big pieces first: fewer coverings to try

    @functools.cached_property
    def _same_views(self) -> set[tuple[str, float, bool]]:
        """The coarse views another coarse view of its type already shows: the mirrored ones of a type whose mirror
        image is itself turned (a skull, a pelvis), the half turned ones of a type that is its own half turn."""
        scale = COARSE * SHRUNK
        same = set()
        for kind in self.masks:
            plain = self._view(scale, kind, 0.0, False)
            if any(_alike(self._view(scale, kind, 0.0, True), self._view(scale, kind, t, False)) for t in TURNS):
                same |= {(kind, turn, True) for turn in TURNS}
            if _alike(plain, self._view(scale, kind, 180.0, False)):
                same |= {(kind, turn, m) for turn in TURNS if turn >= 180 for m in (False, True)}
        return same

    def _view(self, scale: float, kind: str, turn: float, mirrored: bool) -> View:
        """A type's silhouette at ``scale``, turned ``turn`` degrees, perhaps mirrored (limbs come both ways): cut to
        its box, where the piece's centre of mass lies in it, and its px (made when first asked, then kept)."""
        key = (scale, kind, turn, mirrored)
        if key not in self._seen:
            base = (self.masks[kind][:, ::-1] if mirrored else self.masks[kind]).astype(np.float32)
            m = cv2.moments(base, True)
            cx, cy = m["m10"] / m["m00"], m["m01"] / m["m00"]
            reach = int(np.hypot(*base.shape) * scale / 2) + 2
            warp = cv2.getRotationMatrix2D((cx, cy), turn, scale)
            warp[:, 2] += np.array([reach - cx, reach - cy])
            view = cv2.warpAffine(base, warp, (2 * reach + 1, 2 * reach + 1), flags=cv2.INTER_LINEAR) > 0.5
            ys, xs = np.nonzero(view)
            y0, x0 = ys.min(), xs.min()
            cut = view[y0 : ys.max() + 1, x0 : xs.max() + 1].astype(np.float32)
            self._seen[key] = cut, (float(reach - x0), float(reach - y0)), float(cut.sum())
        return self._seen[key]


def _coverings(blob: np.ndarray, placements: list[Laid]) -> list[list[int]]:
    """Sets of placements, apart from each other (APART), that cover all but LEFT of the blob (COVERS at most); none
    when TRIED sets were looked at first (a heap with that many ways to try is left flagged, not searched for long)."""
    total = np.count_nonzero(blob)
    covers: list[list[int]] = []
    tried = 0

    def search(start: int, chosen: list[int], used: np.ndarray, grown: np.ndarray) -> None:
        nonlocal tried
        tried += 1
        if len(covers) >= COVERS or tried > TRIED:
            return
        if chosen and np.count_nonzero(blob & ~grown) <= LEFT * total:
            covers.append(chosen)
            return
        if len(chosen) == MOST_PIECES:
            return
        for i in range(start, len(placements)):
            _, mask, ring = placements[i]
            if np.count_nonzero(mask & used) <= APART * np.count_nonzero(mask):
                search(i + 1, chosen + [i], used | mask, grown | ring)

    search(0, [], np.zeros_like(blob), np.zeros_like(blob))
    return covers if tried <= TRIED else []


def _pasted(view: np.ndarray, x0: int, y0: int, shape: tuple[int, ...]) -> np.ndarray:
    """A view laid with its box's corner at (x0, y0) on a canvas of ``shape``: what of it lies on the canvas."""
    canvas = np.zeros(shape[:2], bool)
    ya, xa = max(0, y0), max(0, x0)
    part = view[ya - y0 :, xa - x0 :][: shape[0] - ya, : shape[1] - xa] > 0
    canvas[ya : ya + part.shape[0], xa : xa + part.shape[1]] = part
    return canvas


def _alike(a: View, b: View) -> bool:
    """Whether two views, their centres laid on each other, are one shape (SAME_VIEW of their union shared)."""
    reach = int(max(max(v.shape) for v, _, _ in (a, b))) * 2
    canvases = []
    for view, (cx, cy), _ in (a, b):
        canvas = np.zeros((reach, reach), bool)
        x0, y0 = int(round(reach / 2 - cx)), int(round(reach / 2 - cy))
        canvas[y0 : y0 + view.shape[0], x0 : x0 + view.shape[1]] = view > 0
        canvases.append(canvas)
    union = np.count_nonzero(canvases[0] | canvases[1])
    return bool(np.count_nonzero(canvases[0] & canvases[1]) >= SAME_VIEW * union)


def _shared(a: np.ndarray, b: np.ndarray) -> float:
    """The share of the smaller of two masks the other covers."""
    return float(np.count_nonzero(a & b)) / max(1, int(min(np.count_nonzero(a), np.count_nonzero(b))))


@functools.cache
def _disc(radius: int) -> np.ndarray:
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 1, 2 * radius + 1))
