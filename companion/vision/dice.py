"""Read the top face of every die in a photo, learned from enrollment photos.

Each die's top face is cut out along its rotated box, its broad shading taken
out (lamps, highlights and shadows differ between enrollment and the table), and
compared, by normalised cross-correlation, with every enrolled face at the four
right-angle turns (never mirrored: left and right faces are mirror images). A die that is
cocked, cut by the frame, blurred, or whose best two faces score too close is
reported unreadable with its centre and the reason: a misread is far worse
than an abstention.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

import cv2
import numpy as np

from ..errors import BadInput
from .blobs import Blob, find_blobs_and_markers
from .enrollment import ceilings_of, enrolled_tops, photo_scores, photos_to_learn_from, the_one_die
from .face_patches import (
    INNER,
    MIN_INK,
    PATCH,
    SHADING_BOX,
    Box,
    die_turn,
    face_patch,
    face_patches_of,
    grey,
    ink,
    normalise,
    normalise_all,
    sharpness,
    shifted_faces_of,
)
from .model_sets import enroll_again, enrollment_photos, load_set, save_set

MIN_PHOTO = 16  # px: a photo narrower than this cannot hold a die (and breaks the blob finder's downscaling)
MIN_SCORE = 0.82  # best correlation below this: not a face seen flat (cocked, covered, smudged)
CLEAR_SCORE = 0.9  # a plain die read below this is looked at every turn around it: another face may fit better
MIN_MARGIN = 0.04  # best minus the best other face below this: too close to call
MAX_ASPECT = 1.3  # a top face longer than this is leaning: cocked
MAX_SIDE = 1.15  # a blob this much bigger than an enrolled die may be two dice: abstain (a misread is worse)
MIN_SHARPNESS = 12.0  # Laplacian variance of the patch: below this it is too blurred
SEARCH_STRICTER = 0.05  # a die found by searching inside a blob must clear the bars by this much more
STRAIGHT_EDGE = 0.6  # edge-direction coherence above which a faint find is a straight edge, not a die
MIN_STROKE = 20.0  # grey levels (and a quarter of the place's contrast) a pictogram's strokes stand out by ...
STROKE_AREA = 0.03  # ... over this much of a face: dim photos' pictograms 0.06-0.5, the mat's corners 0-0.01
REF_SCALES = (0.95, 1.0, 1.05)  # enrolled faces a little nearer and farther: the camera's perspective
SQUASHES = (0.85, 0.7, 0.55)  # a leaning die's face seen at a slant: 30-60 degrees (milder leans look level)
COARSE = 32  # of those, enough to rank the places worth a closer look
ALWAYS_LOOKED_AT = 3  # likeliest places in a blob looked at closely however low their rough score: a die whose
# sides show gives its blob a turn 10-15 degrees off its face's, and scores low there
SIZE_DOUBT = (0.93, 1.07)  # a die read must read the same this much smaller and bigger ...
SIZE_SURE = (0.93, 0.15)  # ... unless its score and margin at its size are at least these
ROUGH_INK = 0.8  # of MIN_INK: boxes spreading less are left out of the rough pass (they cannot be read)
UNSURE_CONFIDENCE = 0.99  # a face learned from one photo of several is read only this sure (see read)
HEAP = 16  # dice sides across: a blob bigger than this is not searched (the mat, a hand: not dice)
ROUGH_CONTEXT = 36  # patch px round the rough pass's windows that shading is judged over (3x SHADING)
ROUGH_TILE = 30  # patch px: a heap's squares are scored this far around each of several centres at a time,
ROUGH_TILES = 4  # ... this many tiles (or turns) at a time
LEVEL_MARGIN = 0.02  # a face found by searching is level only if it matches this much better square than squashed
FAINT_NEIGHBOURHOOD = 1.8  # dice sides across: the square round a faint die read where a second die's print may lie
FOOTPRINT = 1.4  # of a die's top face: what one die covers of a blob of touching dice (its sides, its shadow)
BASIS = 96  # dimensions kept of the 1600 of a face patch


class Pose(NamedTuple):
    """The face matching best near a place, where and how turned (`DiceReader._best_pose`), and how well every
    face matches there."""

    face: str
    turn: float
    centre: tuple[float, float]
    best: dict[str, float]  # each face's best score nearby, at whatever turn and shift

    def rival(self, face: str, score: float) -> str | None:
        """Another face matching about as well as ``face`` does (``score``) at some turn or shift nearby, or None.
        A die that reads as one face at one turn and as another at another is not clearly seen (on art unlike the
        dev sets', a spine was read as a left forearm at 0.87; it was a right forearm at 0.85, 40 degrees round)."""
        other = max((f for f in self.best if f != face), key=self.best.__getitem__)
        return other if self.best[other] > score - MIN_MARGIN else None


@dataclass
class DiceReader:
    refs: np.ndarray  # (n, k) enrolled faces (four turns, small shifts), projected on ``basis``
    labels: list[str]  # face id per row
    die_side: float  # px across a die's top face, as enrolled
    basis: np.ndarray  # (PATCH*PATCH, k): the main directions of the enrolled faces (speed: k << 784)
    # per face: the best any other face's enrollment photo scored against it; a reading must beat it
    ceilings: dict[str, float] = field(default_factory=dict)
    # faces learned from one photo of several: the others looked like other faces, or like no photo of their own
    # (unfamiliar art, top faces not found): such a face is read only when near certain (UNSURE_CONFIDENCE)
    unsure: list[str] = field(default_factory=list)
    # enrollment photos left out, each with why (no die in it, or two): not stored with the set
    left_out: list[str] = field(default_factory=list)

    # -- enrollment ---------------------------------------------------------------------------

    @classmethod
    def enroll(cls, folder: str | Path) -> DiceReader:
        from ..games.rolling_bones.dice import FACE_IDS  # the face ids only: names, not rules

        found, left_out = [], []
        for face, path, image in enrollment_photos(folder, FACE_IDS, "face"):
            try:
                found.append((face, grey(image), the_one_die(image, path)))
            except BadInput as unusable:  # no die, or two: one such photo need not spoil the others
                left_out.append((face, str(unusable)))
        for face in FACE_IDS:
            if not any(f == face for f, _, _ in found):
                raise BadInput(next(why for f, why in left_out if f == face))
        side, tops = enrolled_tops(found)
        refs, labels = [], []
        for (face, gray, _), top in zip(found, tops):
            # a few scales for the camera's perspective; shifts and turns are searched when reading
            for scale in REF_SCALES:
                patch = face_patch(gray, top, top.size[0] * scale)
                for quarter in range(4):
                    refs.append(normalise(np.rot90(patch, quarter)))
                    labels.append(face)
        stacked = np.stack(refs).astype(np.float32)
        # Correlation in the span of the enrolled faces keeps the ranking and cuts the work ~8x.
        _, _, vt = np.linalg.svd(stacked, full_matrices=False)
        basis = np.ascontiguousarray(vt[:BASIS].T)
        projected = stacked @ basis
        photos = [(gray, top) for (_, gray, _), top in zip(found, tops)]
        faces = [face for face, _, _ in found]
        by_photo = photo_scores(photos, projected, basis)
        keep = photos_to_learn_from(by_photo, faces)  # then each face's ceiling: what another face's photo reached
        rows = np.repeat(keep, len(labels) // len(found))
        ceilings = ceilings_of(by_photo[np.ix_(keep, keep)], [f for f, k in zip(faces, keep) if k])
        unsure = [
            face
            for face in dict.fromkeys(faces)
            if keep[[f == face for f in faces]].sum() == 1 and faces.count(face) > 1
        ]
        return cls(
            projected[rows],
            [label for label, k in zip(labels, rows) if k],
            side,
            basis,
            ceilings,
            unsure,
            [why for _, why in left_out],
        )

    def photos_learned(self) -> dict[str, int]:
        """Per face, how many of its enrollment photos were learned from (one whose face was not found clearly,
        or that looks more like other faces, is not)."""
        per_photo = len(REF_SCALES) * 4
        return {face: self.labels.count(face) // per_photo for face in sorted(set(self.labels))}

    def save(self, name: str) -> Path:
        return save_set(
            "dice",
            name,
            {
                "refs": self.refs,
                "labels": np.array(self.labels),
                "die_side": self.die_side,
                "basis": self.basis,
                "ceiling_faces": np.array(list(self.ceilings)),
                "ceilings": np.array(list(self.ceilings.values()), np.float32),
                "shading": SHADING_BOX,
                "unsure": np.array(self.unsure, dtype=str),
            },
            {
                "faces": sorted(set(self.labels)),
                "references": len(self.labels),
                "die_side_px": round(self.die_side, 1),
                "patch": PATCH,
                "shading_box_px": SHADING_BOX,
                "photos_learned": self.photos_learned(),
            },
        )

    @classmethod
    def load(cls, name: str) -> DiceReader:
        data = load_set("dice", name, "dice")
        if float(data.get("shading", 0.0)) != SHADING_BOX:
            # its faces were stored as an older reader compared them: every score would be off
            raise enroll_again("dice", name, f"dice set {name!r} was enrolled by an older version of the reader")
        ceilings = dict(zip((str(f) for f in data["ceiling_faces"]), map(float, data["ceilings"])))
        unsure = [str(f) for f in data["unsure"]] if "unsure" in data else []  # a set stored before: all read
        return cls(
            data["refs"], [str(x) for x in data["labels"]], float(data["die_side"]), data["basis"], ceilings, unsure
        )

    # -- reading ------------------------------------------------------------------------------

    def read(self, image: np.ndarray) -> dict[str, Any]:
        start = time.perf_counter()
        if image is None or image.size == 0:
            raise BadInput("empty image")
        if min(image.shape[:2]) < MIN_PHOTO:
            raise BadInput(f"the photo is {image.shape[1]}x{image.shape[0]} px: too small to hold a die")
        image = _bgr(image)
        blobs, side, markers = find_blobs_and_markers(image, self.die_side)
        gray = grey(image)  # once, not per die
        crop = self._crop_side(gray, blobs)
        dice, unreadable = [], []
        beside = []  # squares round faint dice read, where a second die's print may lie
        for blob in blobs:
            centre = [round(blob.center[0], 1), round(blob.center[1], 1)]
            why = self._doubt(blob, side)
            if blob.faint:
                if _one_straight_edge(gray, blob.center, crop) or not _has_strokes(gray, blob.center, crop):
                    continue  # the mat's edge or corner against the table, broken into bits: not a die
                found = [] if blob.at_border else self._search(gray, blob, crop)[0]
                dice += found
                if not found:
                    unreadable.append({"center": centre, "why": "faint: a die? its face is not clear"})
                else:
                    # the print that stood out may be two dice's, side by side: the other is flagged where it shows
                    # (once every die is read: see below)
                    r, (x, y) = FAINT_NEIGHBOURHOOD * crop / 2, blob.center
                    beside.append(np.float32([[x - r, y - r], [x + r, y - r], [x + r, y + r], [x - r, y + r]]))
                continue
            if why and not blob.at_border:
                if min(blob.size) < 0.55 * crop or (min(blob.size) < 0.7 * crop and max(blob.size) > 4 * crop):
                    # a strip narrower than any die seen any way up, or a long line hardly wider than the narrowest
                    # (a die leaning far): a mat's edge or corner, not a die
                    continue
                # touching dice, a die showing its sides (off the camera's axis) or a cocked die:
                # look for clearly seen top faces anywhere in the blob
                found, doubted = self._search(gray, blob, crop)
                dice += found
                if not found or blob.area - len(found) * crop * crop > 0.8 * crop * crop:
                    # a heap is rung where its dice were seen and not read (its centre may be bare mat)
                    rings = _apart(doubted, found, crop) if max(blob.size) > 2 * crop else []
                    if blob.outline is not None:
                        taken = [d["center"] for d in found] + rings
                        room = int(round(blob.area / (FOOTPRINT * crop * crop))) - len(taken)
                        rings += _unflagged_dice(gray, blob.outline, taken, crop, room)
                    unreadable += [{"center": spot, "why": why} for spot in rings or [centre]]
                continue
            if why:
                unreadable.append({"center": centre, "why": why})
                continue
            patch = face_patch(gray, blob, crop)
            if ink(patch) < MIN_INK:
                continue  # a smooth patch of mat or a shadow: not a die at all
            if sharpness(patch) < MIN_SHARPNESS:
                unreadable.append({"center": centre, "why": "blurred"})
                continue
            face, score, runner_up, margin, seen, turned = self._classify_near(gray, blob, crop)
            if score < MIN_SCORE or margin < MIN_MARGIN:
                # the blob's box may be off (a shadow, a neighbour's corner): look around it before giving up
                grown = Blob(
                    blob.center,
                    (max(blob.size[0], crop) * 1.3, max(blob.size[1], crop) * 1.3),
                    blob.angle,
                    blob.area,
                    False,
                )
                found = self._search(gray, grown, crop)[0]
                if found:
                    dice += found
                    continue
            if score < MIN_SCORE and not _has_strokes(gray, blob.center, crop):
                continue  # nothing printed, only an outline: the mat's corner against the table, not a die
            if score < MIN_SCORE:
                # a face seen flat matches its enrolled pictures closely; a leaning one does not
                unreadable.append(
                    {"center": centre, "why": f"face not clear: cocked or covered? (looks most like {face})"}
                )
            elif margin < MIN_MARGIN:
                unreadable.append({"center": centre, "why": f"{face} or {runner_up}: too close to call"})
            elif (other := self._face_at_other_sizes(gray, seen, turned, crop, face, score, margin)) is not None:
                unreadable.append({"center": centre, "why": f"{face} or {other}: the face changes with the die's size"})
            elif score < CLEAR_SCORE and (pose := self._best_pose(gray, seen, crop)).face != face:
                # another face fits better at another turn nearby: read it there, as a search would, or not at all
                if (reread := self._read_at(gray, pose, crop)) is not None:
                    dice.append(reread)
                else:
                    unreadable.append(
                        {"center": centre, "why": f"{face} or {pose.face}: the face changes with its turn"}
                    )
            elif score < CLEAR_SCORE and (rival := pose.rival(face, score)):
                unreadable.append({"center": centre, "why": f"{face} or {rival}: the face changes with its turn"})
            else:
                dice.append(_die_read(face, score, margin, seen))
        dice, unreadable = _each_die_once(dice, unreadable, crop)
        # a die lying between two parts of a split blob, or packed tighter than its area says, is neither read nor
        # flagged by its blob: anywhere a print shows well inside a blob and away from every die read or flagged
        taken = [d["center"] for d in dice] + [u["center"] for u in unreadable]
        # (the parts of a split blob share one outline: each outline once), and beside a faint die read, one more a
        # side away from it or further (two level dice side by side: their print 0.9 of a side away was a ring on mat)
        outlines = {id(b.outline): b.outline for b in blobs if b.outline is not None and not b.at_border}.values()
        for outline, room, clearance in [(outline, HEAP * HEAP, 0.9) for outline in outlines] + [
            (square, 1, 1.0) for square in beside
        ]:
            spots = [
                spot
                for spot in _unflagged_dice(gray, outline, taken, crop, room, clearance)
                if not any(cv2.pointPolygonTest(m, spot, False) >= 0 for m in markers)
            ]  # a marker's print
            unreadable += [{"center": spot, "why": "a die? its face is not clear"} for spot in spots]
            taken += spots
        # a face the enrollment photos did not agree on is read only when near certain: such faces draw the misreads
        unsure = [d for d in dice if d["face"] in self.unsure and d["confidence"] < UNSURE_CONFIDENCE]
        unreadable += [
            {"center": d["center"], "why": f"{d['face']}? learned from one enrollment photo only"} for d in unsure
        ]
        dice = [d for d in dice if d not in unsure]
        dice.sort(key=lambda d: (d["center"][1], d["center"][0]))
        return {
            "dice": dice,
            "unreadable": _once_each(unreadable, dice, crop),
            "ms": round((time.perf_counter() - start) * 1000, 1),
        }

    def _read_at(self, gray: np.ndarray, pose: Pose, side: float) -> dict[str, Any] | None:
        """The die read where ``pose`` (a face, its turn and where, as `_best_pose` gives them) says, if that face
        clears a search's stricter bars there, is clearly ahead of every other face nearby and reads the same at
        other sizes; else None."""
        face, turn, centre = pose.face, pose.turn, pose.centre
        found, score, _, margin, seen, turned = self._classify_near(
            gray, Blob(centre, (side, side), turn, 0, False), side
        )
        if (
            found == face
            and score >= MIN_SCORE + SEARCH_STRICTER
            and margin >= MIN_MARGIN + SEARCH_STRICTER
            and pose.rival(face, score) is None
            and self._face_at_other_sizes(gray, seen, turned, side, face, score, margin) is None
        ):
            return _die_read(face, score, margin, seen)
        return None

    def _face_at_other_sizes(
        self, gray: np.ndarray, seen: list[float], turn: float, side: float, face: str, score: float, margin: float
    ) -> str | None:
        """Another face this die reads as, past a lone die's bars, when the die size is a little off (the photo's
        die size is measured, and may be wrong by a tenth or more), or None: a face clearly seen reads the same.
        Judged where the face was seen, a couple of px and 3 degrees around it (each turn's shifts cut from one
        warp). A face merely ahead there, by less than the margin a reading needs, is no other reading: a box a
        little too big takes in the die's surroundings and every face scores low. A face seen as clearly as
        ``SIZE_SURE`` says (its score and margin at the photo's die size) is not looked at again (speed)."""
        if score >= SIZE_SURE[0] and margin >= SIZE_SURE[1]:
            return None
        for k in SIZE_DOUBT:
            found = shifted_faces_of(gray, [Box((seen[0], seen[1]), turn + dt, side * k) for dt in (-3, 0, 3)], 2)[0]
            scores = self._scores(found)
            other, score, _, margin = self._rank(scores[:, int(scores.max(axis=0).argmax())])
            if other != face and score >= MIN_SCORE and margin >= MIN_MARGIN:
                return other
        return None

    def _doubt(self, blob: Blob, side: float) -> str | None:
        if blob.at_border:
            return "half outside the frame"
        if side and max(blob.size) > 2 * side:
            return "dice touching: could not separate"  # longer than any one die, leaning or not: a heap
        if blob.aspect > MAX_ASPECT:
            return "cocked die"
        if side and max(blob.size) > side * MAX_SIDE:
            return "dice touching: could not separate"
        return None

    def _search(self, gray: np.ndarray, blob: Blob, side: float) -> tuple[list[dict[str, Any]], list[list[float]]]:
        """Top faces seen clearly anywhere in a blob that is not one plain die: dice touching, a die
        whose sides show, a die leaning on another. Every die-sized square over the blob and a little beyond
        is scored roughly (at the blob's angle and at the angle its edges give); the likeliest are judged
        where any face at any turn matches best nearby, refined, and kept if they clear bars stricter than a
        lone die's (and are not a mat's edge, a leaning face or a blur); a kept die's neighbourhood is ruled
        out. A face that is not clearly seen is not read. Returns the dice read, and where a face was seen (past
        a lone die's least score) but not read."""
        if max(blob.size) > HEAP * side or min(blob.size) < 0.6 * side:
            return [], []  # more than a heap of dice (the mat itself?), or a strip too thin to hold a die (an edge)
        # every die-sized square over the blob and a little beyond (a blob split in two may hold half a die),
        # 3 patch px apart, scored roughly (the main directions of the enrolled faces only)
        reach = int(np.ceil(((max(blob.size) - side) / 2 + side / 5) / (side * INNER / PATCH)))
        if blob.faint:
            turns = range(0, 90, 10)  # a faint die's edges do not show: every turn, 10 degrees apart (refined below)
        else:
            turns = {round(blob.angle, 1), round(die_turn(gray, blob.center, side), 1)}
        if max(blob.size) > 2 * side:
            # dice in a heap lie at every turn, not the heap's: every 15 degrees too
            turns = sorted(set(turns) | set(range(0, 90, 15)))
        coarse, centres, box_turns = self._rough_scores(gray, blob.center, turns, side, reach)
        found: list[dict[str, Any]] = []
        doubted: list[list[float]] = []  # where a face was seen and not read: the dice of a heap to ring
        looks = 0  # places looked at: one on a die already found is not a look (a heap's best places are its dice)
        room = blob.area / (side * side)  # dice the blob could hold
        on_found = np.zeros(len(coarse), bool)  # places on a die already found (thousands: judged all at once)
        for k in np.argsort(-coarse):
            rough = coarse[k] < MIN_SCORE - 0.1 and looks >= ALWAYS_LOOKED_AT
            # a place is looked at again from other rough poses (a die is often read on a second look), so a
            # heap of many dice gets as many more looks (with a fixed number one leaning die took them all)
            if rough or len(found) > room or looks > 3 * len(found) + 6 + room:
                break
            if on_found[k]:
                continue
            spot, turn = (float(centres[k, 0]), float(centres[k, 1])), float(box_turns[k])
            looks += 1
            if ink(face_patch(gray, Blob(spot, (side, side), turn, side * side, False), side)) < MIN_INK:
                continue  # plain mat or shadow: nothing printed here
            # the face that matches best nearby at any turn (a die's edges may not give its turn: its sides
            # show, a neighbour's edges cross it), then its box refined for that face
            pose = self._best_pose(gray, spot, side)
            face, score, _, margin, seen, turned = self._classify_near(
                gray, Blob(pose.centre, (side, side), pose.turn, 0, False), side
            )
            if face != pose.face or any(
                np.hypot(seen[0] - d["center"][0], seen[1] - d["center"][1]) < 0.8 * side for d in found
            ):
                continue
            if (
                score >= MIN_SCORE + SEARCH_STRICTER
                and margin >= MIN_MARGIN + SEARCH_STRICTER
                and not _one_straight_edge(gray, seen, side)  # a mat's edge, however like a bone it looks
                and not self._foreshortened(gray, seen, turned, side)
                and self._best_pose(gray, seen, side).rival(face, score) is None
                and sharpness(face_patch(gray, Blob(tuple(seen), (side, side), turned, 0, False), side))
                >= MIN_SHARPNESS
            ):
                found.append(_die_read(face, score, margin, seen))
                on_found |= np.hypot(centres[:, 0] - seen[0], centres[:, 1] - seen[1]) < 0.8 * side
            elif score >= MIN_SCORE:
                doubted.append(seen)
        return found, doubted

    def _rough_scores(
        self,
        gray: np.ndarray,
        centre: tuple[float, float],
        turns: Iterable[float],
        side: float,
        reach: int,
        step: int = 3,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The rough score (best reference, main directions only) of every die-sized square up to ``reach``
        patch px around ``centre``, ``step`` apart, at each of ``turns``; each one's centre, and its turn. A heap's
        squares are scored a few tiles at a time: all at once, a heap 12 dice across would hold ~200 MB of patches."""
        tile = min(reach, ROUGH_TILE)  # a blob within one tile: one window, at ``centre``
        px = side * INNER / PATCH
        # tiles' centres (patch px from ``centre``) such that their squares continue one grid ``step`` apart
        middles = np.arange(-reach + tile, reach + tile, 2 * tile + step)
        boxes = []
        for turn in turns:
            a = np.deg2rad(turn)
            c, s = np.cos(a), np.sin(a)
            boxes += [
                Box((centre[0] + (u * c - v * s) * px, centre[1] + (u * s + v * c) * px), float(turn), side)
                for v in middles
                for u in middles
            ]
        scores, centres, box_turns = [], [], []
        for k in range(0, len(boxes), ROUGH_TILES):
            chunk = boxes[k : k + ROUGH_TILES]
            vectors, where, which = shifted_faces_of(gray, chunk, tile, step, ROUGH_CONTEXT, ROUGH_INK * MIN_INK)
            scores.append(self._scores(vectors, COARSE).max(axis=0))
            centres.append(where)
            box_turns.append(np.array([box.angle for box in chunk])[which])
        return np.concatenate(scores), np.concatenate(centres), np.concatenate(box_turns)

    def _foreshortened(self, gray: np.ndarray, centre: list[float], turn: float, side: float) -> bool:
        """Does the face match better squashed along one of its axes than square, or about as well? A leaning
        die's top face is seen at a slant, shorter one way; a level one's is square, and clearly better so
        (``LEVEL_MARGIN``: a thin bone looks much the same squashed)."""
        squashes = [(1.0, 1.0)] + [(f, 1.0) for f in SQUASHES] + [(1.0, f) for f in SQUASHES]
        vectors = shifted_faces_of(
            gray, [Box((centre[0], centre[1]), turn, side, squash) for squash in squashes], 4, 4
        )[0]
        best = self._scores(vectors).max(axis=0).reshape(len(squashes), -1).max(axis=1)
        return bool(best[1:].max() > best[0] - LEVEL_MARGIN)

    def _best_pose(self, gray: np.ndarray, centre: list[float], side: float) -> Pose:
        """The face that matches best anywhere within a few px and at any turn of ``centre``, its turn and
        where, and how well every face matches there. A search refines a die's box for the face it first looked like and
        may stop where a mirror-image face matches (a left hand a few px off looks like a right hand), with a
        margin there that looks safe."""
        boxes = [Box((centre[0], centre[1]), float(turn), side) for turn in range(0, 90, 10)]
        vectors, centres, which = shifted_faces_of(gray, boxes, 4, 2)
        # ranked roughly on the main directions first, the likeliest dozen in full (speed)
        likely = np.argsort(-self._scores(vectors, COARSE).max(axis=0))[:12]
        scores = self._scores(vectors[likely])
        top = int(scores.max(axis=0).argmax())
        best = int(likely[top])
        face = self.labels[int(scores[:, top].argmax())]
        faces, per_face = self._face_bests(scores.max(axis=1))
        return Pose(
            face, boxes[which[best]].angle, tuple(map(float, centres[best])), dict(zip(faces, per_face.tolist()))
        )

    def _crop_side(self, gray: np.ndarray, blobs: list[Blob]) -> float:
        """The die size in this photo: the size at which the photo's own dice match the enrolled faces best
        (the camera may be nearer or farther than at enrollment). Judged by the faces, each looked for around
        its blob (a shadow or a die's visible sides put the face off the blob's centre), not by the blobs'
        sizes, which shadows and sides make bigger."""
        singles = [
            b
            for b in blobs
            if not b.at_border
            and not b.faint
            and 0.6 * self.die_side < min(b.size)
            and max(b.size) < 1.6 * self.die_side
        ]
        singles = sorted(singles, key=lambda b: b.aspect)[:10]
        if len(singles) < 3:
            return self.die_side
        scales = (0.75, 0.8, 0.87, 0.93, 1.0, 1.07, 1.15, 1.25, 1.33)
        looks = []
        for b in singles:
            # where the face is in the blob, at the enrolled size, roughly (the main directions only)
            reach = int(np.clip((max(b.size) - min(b.size) / 2) / 2, 3, 12))
            boxes = [Box(b.center, b.angle + turn, self.die_side) for turn in (-5, 0, 5)]
            vectors, centres, which = shifted_faces_of(gray, boxes, reach, 3)
            scores = self._scores(vectors, COARSE)
            k = np.unravel_index(int(scores.argmax()), scores.shape)
            looks.append((float(scores[k]), tuple(centres[k[1]]), boxes[which[k[1]]].angle, self.labels[k[0]]))
        fits = []
        labels = np.array(self.labels)
        # the eight clearest dice, each then matched at every size on the references of the face it looks like
        # (fewer leave a photo's size off by a tenth)
        for _, where, turn, face in sorted(looks, key=lambda look: -look[0])[:8]:
            refs = self.refs[labels == face]
            vectors = shifted_faces_of(gray, [Box(where, turn, self.die_side * k) for k in scales], 2)[0]
            fits.append((refs @ (vectors @ self.basis).T).reshape(len(refs), len(scales), -1).max(axis=(0, 2)))
        # a die seen clearly matches at its size and not at others; a blurred, leaning or crowded one matches
        # weakly at every size (and a little better smaller, where less of its surroundings is in view)
        fits = np.array(fits)
        clear = fits.max(axis=1) >= np.sort(fits.max(axis=1))[-5:].min()
        fit = fits[clear].sum(axis=0)
        best = int(fit.argmax())
        if best in (0, len(scales) - 1):
            return self.die_side * scales[best]
        # between the sizes tried (7 % apart): the top of the parabola through the best and its neighbours
        logs = np.log(scales[best - 1 : best + 2])
        a, b, _ = np.polyfit(logs, fit[best - 1 : best + 2], 2)
        return self.die_side * float(np.exp(np.clip(-b / (2 * a), logs[0], logs[2]) if a < 0 else logs[1]))

    def _classify_near(
        self, gray: np.ndarray, blob: Blob, side: float
    ) -> tuple[str, float, str, float, list[float], float]:
        """Classify the best of a few nearby boxes (the blob's box is only good to a couple of px and degrees);
        also returns the centre and turn of the face where it was seen best."""
        centre, turn0 = (0.0, 0.0), 0.0
        for step, turn_step, turns in ((3.0, 8.0, (-1, 0, 1)), (1.5, 3.0, (0,)), (0.0, 3.0, (-1, 1))):
            # coarse shifts and turns, then fine shifts, then fine turns, each around the best so far
            steps = (-1, 0, 1) if step else (0,)
            boxes = [
                ((centre[0] + dx * step, centre[1] + dy * step), turn0 + dt * turn_step)
                for dx in steps
                for dy in steps
                for dt in turns
            ]
            if not step:
                boxes.append((centre, turn0))
            variants = normalise_all(
                face_patches_of(
                    gray,
                    [
                        Box((blob.center[0] + dx, blob.center[1] + dy), blob.angle + turn, side)
                        for (dx, dy), turn in boxes
                    ],
                )
            )
            scores = self._scores(variants)  # (refs, variants)
            best = int(scores.max(axis=0).argmax())
            centre, turn0 = boxes[best]
        seen = [round(blob.center[0] + centre[0], 1), round(blob.center[1] + centre[1], 1)]
        return (*self._rank(scores[:, best]), seen, blob.angle + turn0)

    def _scores(self, vectors: np.ndarray, dims: int | None = None) -> np.ndarray:
        """(references, vectors): each normalised patch's correlation with each enrolled reference, in the span
        of the enrolled faces; ``dims``: on the main directions only (rough, to rank places worth a closer look)."""
        return self.refs[:, :dims] @ (vectors @ self.basis[:, :dims]).T

    def _rank(self, scores: np.ndarray) -> tuple[str, float, str, float]:
        faces, best = self._face_bests(scores)
        first, second = np.argsort(best)[::-1][:2]
        margin = float(best[first] - best[second])
        if best[first] < self.ceilings.get(faces[first], -1.0):
            margin = 0.0  # no better than another face's photo once looked like this face: too close to call
        return faces[first], float(best[first]), faces[second], margin

    def _face_bests(self, scores: np.ndarray) -> tuple[list[str], np.ndarray]:
        """The faces, and each one's best score of ``scores`` (one per reference, or (references, places))."""
        faces, starts = self._groups()
        return faces, np.maximum.reduceat(scores[self._order], starts)

    def _groups(self) -> tuple[list[str], np.ndarray]:
        """References grouped by face (computed once): the order to read scores in, and where each face starts."""
        if not hasattr(self, "_starts"):
            labels = np.array(self.labels)
            self._order = np.argsort(labels, kind="stable")
            faces, starts = np.unique(labels[self._order], return_index=True)
            self._faces, self._starts = [str(f) for f in faces], starts
        return self._faces, self._starts


def _apart(spots: list[list[float]], found: list[dict[str, Any]], side: float) -> list[list[float]]:
    """Of the places a heap's search saw a face and did not read, one per die: none near another, or near a die read."""
    kept: list[list[float]] = []
    for spot in spots:
        if all(np.hypot(spot[0] - k[0], spot[1] - k[1]) >= 0.8 * side for k in kept + [d["center"] for d in found]):
            kept.append(spot)
    return kept


def _unflagged_dice(
    gray: np.ndarray, outline: np.ndarray, taken: list[list[float]], side: float, room: int, clearance: float = 0.9
) -> list[list[float]]:
    """Where dice inside ``outline`` lie that are neither read nor flagged (``taken``: where dice were): up to
    ``room`` places, each as deep inside it and as far from the others as can be, where a print shows. A die
    neither read nor flagged would be left out of the score without a word."""
    x0, y0 = outline.min(axis=0)
    x1, y1 = outline.max(axis=0)
    grid = [(float(x), float(y)) for x in np.arange(x0, x1, side / 5) for y in np.arange(y0, y1, side / 5)]
    contour = outline.reshape(-1, 1, 2)
    spots = np.array([spot for spot in grid if cv2.pointPolygonTest(contour, spot, True) >= 0.3 * side]).reshape(-1, 2)
    clear = np.full(len(spots), 9.0 * side)  # each spot's distance to the nearest die read or flagged
    for t in taken:
        clear = np.minimum(clear, np.hypot(spots[:, 0] - t[0], spots[:, 1] - t[1]))
    flags: list[list[float]] = []
    looked, strokes = 0, None
    while len(spots) and len(flags) < room:
        best = int(np.argmax(clear))
        if clear[best] < clearance * side:
            break
        spot = spots[best]
        clear[best] = -1.0  # looked at
        looked += 1
        if looked == 3:  # a heap's spots, looked at by the dozen: its strokes found once, for all of them (speed)
            strokes = _StrokesOver(gray, outline, side)
        # a die's print, not its shadow (judged only where a flag would go: speed)
        if (strokes is None or strokes.may_show(spot)) and _has_strokes(gray, spot, side):
            flags.append([round(float(spot[0]), 1), round(float(spot[1]), 1)])
            clear = np.minimum(clear, np.hypot(spots[:, 0] - spot[0], spots[:, 1] - spot[1]))
    return flags


class _StrokesOver:
    """`_has_strokes`' strokes over an outline and as far round it as its windows reach, found once: where fewer
    than enough stand out by MIN_STROKE (the least a place's contrast allows) no place has strokes, and its own
    window need not be looked at. Within the disc counted they are the window's own, to the grey level: the
    filters reach ~0.35 of a side plus a few px, and the disc lies 0.6 of a side inside the window."""

    def __init__(self, gray: np.ndarray, outline: np.ndarray, side: float):
        r = int(side * 0.6)
        (x0, y0), (x1, y1) = outline.min(axis=0), outline.max(axis=0)
        self.left, self.top = max(0, int(x0) - 2 * r), max(0, int(y0) - 2 * r)
        region = gray[self.top : int(y1) + 2 * r + 1, self.left : int(x1) + 2 * r + 1]
        self.standing_out = _top_hats(region, side)[1] >= MIN_STROKE
        self.side, self.r = side, r
        ys, xs = np.ogrid[-r : r + 1, -r : r + 1]
        self.disc = np.hypot(ys, xs) < r

    def may_show(self, spot: np.ndarray) -> bool:
        x, y, r = int(spot[0]) - self.left, int(spot[1]) - self.top, self.r
        area = self.standing_out[max(0, y - r) : y + r + 1, max(0, x - r) : x + r + 1]
        disc = self.disc[max(0, r - y) :, max(0, r - x) :][: area.shape[0], : area.shape[1]]
        return int(area[disc].sum()) >= STROKE_AREA * self.side * self.side


def _each_die_once(
    dice: list[dict[str, Any]], unreadable: list[dict[str, Any]], side: float
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """One reading per die: a die whose blob was split in two (a shadow, a neighbour) may be found from
    both halves. Found twice as the same face it is one die; as two faces it is not read (one of the two
    is a misread, and which cannot be told)."""
    kept: list[dict[str, Any]] = []
    doubted: list[dict[str, Any]] = []
    for die in sorted(dice, key=lambda d: -d["confidence"]):
        twin = next(
            (
                k
                for k in kept + doubted
                if np.hypot(die["center"][0] - k["center"][0], die["center"][1] - k["center"][1]) < 0.7 * side
            ),
            None,
        )
        if twin is None:
            kept.append(die)
        elif twin["face"] != die["face"] and twin in kept:
            kept.remove(twin)
            doubted.append(twin)
            unreadable.append({"center": twin["center"], "why": f"{twin['face']} or {die['face']}: read both ways"})
    return kept, unreadable


def _once_each(unreadable: list[dict[str, Any]], dice: list[dict[str, Any]], side: float) -> list[dict[str, Any]]:
    """One report per die: a die's blob split in two, or the rest of a blob a die was read in, would
    otherwise be flagged twice, or flagged on top of the die read there."""
    kept: list[dict[str, Any]] = []
    for report in unreadable:
        if all(
            np.hypot(report["center"][0] - d["center"][0], report["center"][1] - d["center"][1]) >= 0.7 * side
            for d in kept + dice
        ):
            kept.append(report)
    return kept


def _die_read(face: str, score: float, margin: float, centre: list[float]) -> dict[str, Any]:
    """A die read, as `dice read --json` reports it."""
    from ..games.rolling_bones.dice import FACES  # the face's kind only: names, not rules

    confidence = round(min(0.999, 0.5 + margin * 2 + (score - MIN_SCORE)), 3)
    return {"face": face, "kind": FACES[face][0], "center": centre, "confidence": confidence}


def _bgr(image: np.ndarray) -> np.ndarray:
    """An 8-bit photo as OpenCV's BGR, from grey or BGRA too (a camera or caller may hand either)."""
    if image.dtype != np.uint8:
        raise BadInput(f"expected an 8-bit photo, not {image.dtype}")
    if image.ndim == 2:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if image.ndim == 3 and image.shape[2] == 4:
        return cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    if image.ndim == 3 and image.shape[2] == 3:
        return image
    raise BadInput(f"expected a grey, BGR or BGRA photo, not an array of shape {image.shape}")


def _one_straight_edge(gray: np.ndarray, centre: tuple[float, float], side: float) -> bool:
    """Is the neighbourhood's contrast one straight line running through it (a mat's edge), not a pictogram?
    Judged by how much the edges there agree in direction (the structure tensor's coherence)."""
    r = int(side * 1.25)
    x, y = int(centre[0]), int(centre[1])
    window = gray[max(0, y - r) : y + r, max(0, x - r) : x + r].astype(np.float32)
    if window.size < 16:
        return False
    window = cv2.GaussianBlur(window, (0, 0), 2.0)  # sensor noise points every way and would hide the line
    gx, gy = cv2.Sobel(window, cv2.CV_32F, 1, 0), cv2.Sobel(window, cv2.CV_32F, 0, 1)
    jxx, jyy, jxy = float((gx * gx).sum()), float((gy * gy).sum()), float((gx * gy).sum())
    coherence = np.hypot(jxx - jyy, 2 * jxy) / max(jxx + jyy, 1e-6)
    return coherence > STRAIGHT_EDGE


def _has_strokes(gray: np.ndarray, centre: tuple[float, float], side: float) -> bool:
    """Does anything near ``centre`` stand out of its surroundings as a pictogram's strokes do (thin lines,
    lighter or darker than what is around them)? A corner of the mat against the table, smooth on both sides,
    has none: its contrast is one broad step, which a top-hat (what a small disc cannot cover) leaves out but
    for the corner's very tip."""
    r, x, y = int(side * 0.6), int(centre[0]), int(centre[1])
    window = gray[max(0, y - 2 * r) : y + 2 * r, max(0, x - 2 * r) : x + 2 * r]
    if window.size < 16:
        return False
    window, strokes = _top_hats(window, side)
    ys, xs = np.ogrid[: window.shape[0], : window.shape[1]]
    near = np.hypot(ys - (y - max(0, y - 2 * r)), xs - (x - max(0, x - 2 * r))) < r
    contrast = float(np.percentile(window, 99) - np.percentile(window, 1))
    return int((strokes[near] >= max(MIN_STROKE, 0.25 * contrast)).sum()) >= STROKE_AREA * side * side


def _top_hats(window: np.ndarray, side: float) -> tuple[np.ndarray, np.ndarray]:
    """The window lightly blurred, and how far each pixel stands out of its surroundings, lighter or darker
    (what a disc 0.35 of a side across cannot cover): thin strokes do, broad steps do not (`_has_strokes`)."""
    window = cv2.GaussianBlur(window, (0, 0), 1.2)  # a dim photo's sensor noise is thin and sharp too
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (int(0.35 * side) | 1,) * 2)
    return window, np.maximum(
        cv2.morphologyEx(window, cv2.MORPH_TOPHAT, disc), cv2.morphologyEx(window, cv2.MORPH_BLACKHAT, disc)
    )
