"""Read the top face of every die in a photo, in six named stages: find, refine, lean, cut, embed, decide.

- find (finding.py): the finder network marks where dice may lie (top-face centre and turn) in a
  photo shrunk to its working scale;
- refine (refining.py): the refiner network looks again at each such spot, closer, and says
  whether a die lies there, level or cocked, where its top face really is, how big and turned, and
  where its body shows beyond the top;
- lean (leaning.py): a die whose body shows where no level die's would at that place of the photo
  (the photo's other dice say where) is cocked, whatever the refiner said;
- cut (embedding.py): each level die's top face, squared up into a small patch;
- embed (embedding.py): the embedding network turns the patch into 64 numbers;
- decide (here): the nearest enrolled face, read when it clearly leads the next nearest; otherwise
  the die is reported unreadable with its centre and why (a misread is far worse than an abstention).

Enrollment learns a set of dice from photos of each face: every photo's top face (found and refined
the same way), embedded a few
times over (a little shifted, turned and scaled, at its four quarter turns), is one prototype.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import Any, NamedTuple

import cv2
import numpy as np

from ..errors import BadInput
from .board import SeenMat, on_a_marker
from .die_frames import MIN_FRAME, die_sides, on_the_mat, where_dice_lie
from .edges import slope
from .embedding import PATCH, cut_face, embed
from .finding import ENROLL_PEAK, LEVEL_PEAK, Spot, find_spots
from .leaning import off_the_field
from .model_sets import PHOTO_SUFFIXES, enroll_again, enrollment_photos, load_set, read_photo, save_set
from .refining import Refined, judge, refine
from .teaching_sheet import PLACE_MM, places_in_photo

CANDIDATE_PEAK = 0.1  # the finder's spots this likely are looked at again (the refiner says which are dice) ...
# ... but in a photo with more spots than this (a throw's 18 dice and their sides give 18-24 on the bench; a busy
# cloth round the mat 175-225, a printed mat on gingham 60-80) and the mat's four markers seen, only those on the mat,
# its printed margin or half a die beyond are (a die on the mat's edge): 100-165 of a busy cloth's spots lie further
MANY_SPOTS = 36
# spots looked at again at most, the likeliest (18 dice a game; on a busy cloth with the mat's markers unseen, 220
# spots a photo are candidates, every die among the likeliest 32; on the bench and fresh sets, among the 43)
MOST_SPOTS = 54
# in a photo that is not so busy, spots this faint are looked at too, but only to be read, never flagged: light dice
# on a light mat (ivory dice on paper: 0.07-0.09 to the finder where the refiner is sure of a level die)
FAINT_PEAK = 0.05
DIE_LIKELY = 0.5  # the refiner's say, a die or not
SAME_DIE = 0.5  # refined centres closer than this (in sides) are one die
# the lean judge's window is cut round a die at least this share of the photo's die size: the refiner sized the rig's
# cocked dice, a whole side showing, at 0.74-0.85 (level dice: p1 0.91 of their photo's), and the judge saw a strip of
# side, 0.90-0.97 level. At 0.9 cocked dice read: bench 9 -> 7, fresh 1 -> 0, markerless 0 -> 1; no level die lost or
# gained. At 1.0 the bench's were worse (11 -> 15 called level)
JUDGED_SIDE = 0.9
LEVEL_LIKELY = 0.4  # the lean judge's say, level or cocked (held-out renders: of 845 level dice 29 called cocked,
# of 521 not level 441 caught; at 0.5, 40 and 460: in play most dice lie level)
# a photo whose level dice the refiner sizes more than RESIZED off the enrolled faces (either way) was taken closer or
# further than the enrollment photos (the camera moved), and is looked at again at its dice's size: the finder loses
# dice a third bigger or smaller than the size it is told (a table photo with the camera at 0.6 of the enrolled
# height: 9 of 18 level dice read, 1 misread). The refiner's size leans to the one it is told (dice 1.43 times: 1.15,
# 1.26, 1.42 at three looks in a dim photo), so the photo is looked at again until it SETTLED, RESIZE_LOOKS at most.
# The bench's photos measured 0.92-1.18 off their sets' enrolled faces (at 1.15 a blender-framed photo is looked at
# again, and a cocked die read)
RESIZED = 1.2
RESIZED_DICE = 3  # level dice a photo needs for its dice's size to be measured
RESIZE_LOOKS = 3
SETTLED = 1.05
LEANING = 0.15  # sides a body lies off the field: cocked (a 17-degree lean; 0.9 % of level dice drawn)
# two doubts short of their bars, together, also say cocked: the judge this unsure of a die (level dice: p5 0.92) ...
DOUBTED_LEVEL = 0.7
# ... whose body lies this far off the field (sides; level dice: p99 0.083). Unseen Blender low-lean renders: 63 of
# the 245 cocked dice the judge called level caught, 15 of 1977 level dice lost; the bench and fresh table sets: 5
# cocked dice read as level caught, 1 level die lost
DOUBTED_LEAN = 0.08
MIN_PHOTO = 16  # px: a photo narrower than this cannot hold a die
MIN_MARGIN = 0.1  # cosine similarity the nearest face must lead the next by to be read
MIN_SIMILARITY = 0.65  # nearest face less similar: no face of this set (dice read 0.69+, a busy cloth 0.50-0.61)
FLAG_PEAK = 0.5  # a spot whose face is like none of the set's is flagged only if the finder is this sure of it ...
# ... and its face is at least this like one (a cocked die's top face, tilted, 0.41 and up on the bench, most 0.6 and
# up; a busy cloth's squiggles taken for dice 0.17-0.60, most under it)
FAINTLY_LIKE = 0.45
# a die the refiner doubts (a dark die on a dark mat in dim light shows little but its print, and its turn is a guess)
# is looked for again at every SEARCH_TURN degrees and SEARCH_SHIFT of its side off each way, and read where its face
# is this like one of the set's and clear of the next (the bench's such dice: 0.82-0.99; a mat's or a dim cloth's
# spots: 0.65 at most)
FAINT_SURE = 0.8
SEARCH_TURN = 7.5
SEARCH_SHIFT = 0.07
SEARCH_TURNS = tuple((0.0, 0.0, float(dt), 1.0) for dt in np.arange(0, 90, SEARCH_TURN))
SEARCH_SHIFTS = tuple(
    (dx, dy, dt, 1.0)
    for dx, dy in ((SEARCH_SHIFT, 0), (-SEARCH_SHIFT, 0), (0, SEARCH_SHIFT), (0, -SEARCH_SHIFT))
    for _, _, dt, _ in SEARCH_TURNS
)
# a face less like one of the set's than FAINT_SURE less this at its best turn is not shifted too: no shift could make
# it sure (shifting raised the bench's and fresh renders' 212 searched faces' likeness by 0.13 at most; 13 pass)
SEARCH_GAIN = 0.2
LEANS_ON = 1.5  # sides: a cocked die this near a die read may lean on it (most cocked dice lie against another)
SHADOW_EDGES = 0.35  # a "cocked die" whose edges are less steep than this share of the read dice's is a die's
# shadow, no die (flags at dice measured 0.55+ of their photo's read dice, at shadows 0.16-0.21)
EDGE_REACH = 0.6  # die sides each way round a spot its steepest edges are measured in
# dice read this much darker (grey levels) than the mat round a flag ...
DARK_DICE = 40
# ... flag a spot only if its darkest quarter is at least this share as dark (from the mat's tone to theirs): a dark
# die is dark wherever its body shows, the mat's printed words or a table's print on the mat's tone are thin strokes
# (the words of a printed mat: 0.26-0.39; cocked dice on the bench and a printed mat: 0.77 and up)
AS_DARK = 0.55
BODY_DICE = 3  # dice read that a photo needs for their body's tone to be measured
BODY_REACH = 0.35  # die sides each way round a centre: its top face, most of it body
MAT_RING = (1.0, 1.5)  # die sides each way round a flag: the mat round it
MARKER_LOOK = 4.0  # a flag's surroundings this many die sides each way are searched for a mat's marker under it
# px: enrolled dice smaller are judged level or cocked from windows blown up (the lean judge sees 1.75 sides at 40 px:
# 23 px a side): the table sets shrunk to 18 px dice read 9 of 28 cocked dice as level, at full size 4
SMALL_DIE = 20.0
# px: dice found smaller than this in the enrollment photos (a VGA webcam's over the mat: 10-13 px) are enrolled and
# read in photos looked at ZOOM times as big: the finder and refiner learned dice 16 px across and up (the six table
# sets through bench/camera_effects.py's vga: 168 of 370 level dice read, two sets refused; twice as big, 316 of 329)
ZOOM_BELOW = 16.0
ZOOM = 2.0
# ... or whose photos, this narrow or less, leave some out: the die size is the finder's surest of ENROLL_SIDES, and
# at 10-13 px it is surer of a table's or a mat's print at a bigger size (VGA frames on gingham: 56 px, 14 photos of
# 54 left out; twice as big, 20 px, none). Twice as big is kept if its dice are under ZOOM_BELOW as taken and it shows
# as many photos or more
ZOOM_WIDTH = 1024
# a die read this much less like its face than the photo's clear dice (their median) is looked at around too, as a
# die not clear is: a die whose turn the refiner got wrong (a ring-framed art with light marks at its edges' middles,
# on a mat as dark as the dice: 14 degrees off at the median, 42 at worst) can still be read clearly as its face's
# mirror image (0.77 alike, its photo's dice 0.97; at its turn 0.98 its own). Of 1975 level dice 32 are looked at,
# none read worse; a bar of 0.85 for every photo looked at as many, but at most of a blurred photo's (+25 ms)
RECHECK_GAP = 0.1
SURE_MARGIN = 0.3  # a lead this big is as sure as the reader gets (confidence 0.99)
ENROLL_SIDES = tuple(float(s) for s in np.geomspace(14, 200, 24))  # px: die sizes the finder tries
# photos cut round their die: the die size the finder is surest at is sought within this share of the size the refiner
# settles on, looked at from the middle of ENROLL_SIDES, each look at the median of the last's sizes (SETTLED): the
# bench's cut sets' surest sizes are 0.96-1.34 of it; a stop over, blender's cut photos' surest was 14 px, the print's
# strokes (0.39 sure, the die's 40 px 0.06), where the refiner settles at 40.5
REFINED_BAND = (0.8, 1.45)
SETTLING_LOOKS = 8
DIE_MM = (10.0, 30.0)  # dice this small to this big: the sizes tried on teaching-sheet photos
SECOND_DIE = 0.6  # an enrollment photo whose second likeliest die is this likely (of its first) shows two dice
ENROLL_LOOK = 0.02  # an enrollment photo's spots this faint are looked at again (a die is known to lie there)
# a whole frame whose change from the camera's other frames shows no die (none: the bare mat, or a die as faint as a
# dim room's noise, blue dice on a dark felt: 39 of 54 frames; a speck of that noise) is looked at all over the mat,
# and a die taken where the finder is this sure of one (those frames' dice 0.48-0.87; elsewhere on the mat, where
# the refiner saw a die, 0.35 at most)
UNCHANGED_PEAK = 0.5
# (a frame like the camera's bare mat may show a die too dark to see: black dice on a black felt in a dim room)
BARE_MAT = " (it looks like the bare mat: if a die is there, light it better)"
ENROLL_CANDIDATES = 64  # at most this many spots a photo are looked at again (a sheet holds 18 dice)
# an enrolled face, embedded at each of these (shift as a share of the side, turn in degrees, scale)
VARIANTS = tuple(
    (dx, dy, dt, s)
    for dx, dy in ((0, 0), (0.04, 0), (-0.04, 0), (0, 0.04), (0, -0.04))
    for dt, s in ((0, 1.0), (4, 0.96), (-4, 1.04))
)
# an enrolled face is embedded blurred too, by this share of its side, and a photo whose dice are more like the blurred
# faces is read with those (a photo out of focus: a fresh blue set's photos blurred so and its enrollment photos sharp,
# 4 of 98 level dice were misread, its thin-striped spine as a gravestone; with the blurred faces for every photo a busy
# cloth's squiggles grew more like faces, 24 -> 32 flags at no die in four photos)
ENROLL_BLUR = 0.03
# a die not clear where it was cut is cut again here (shift as a share of the side, turn in degrees, scale): a little
# off each way, at other turns (a dark die on a dark mat shows its print only: its turn is a guess from the print),
# and an eighth smaller and bigger (on art it never saw, the refiner's size is off by that much: 0.91-1.10 of the
# die's, p10-p90, on a fresh blue set whose enrolled faces it sized right)
LOOK_AROUND = (
    *((dx, dy, 0.0, 1.0) for dx, dy in ((0.07, 0.0), (-0.07, 0.0), (0.0, 0.07), (0.0, -0.07))),
    *((0.0, 0.0, dt, 1.0) for dt in (-30.0, -15.0, 15.0, 30.0, 45.0)),
    *((0.0, 0.0, 0.0, scale) for scale in (0.88, 1.13)),
)
# older sets are enrolled again: 1, the correlation reader's; 2, faces cut before normalise(); 3, faces cut at the
# finder's spot, not where the refiner puts them; 4, the embedding before it learned to lead by a margin; 5, the
# embedding before it saw shaken photos
SET_VERSION = 6


class Decision(NamedTuple):
    """The nearest enrolled face of a die, the next nearest, and by how much the first leads."""

    face: str
    similarity: float
    runner_up: str
    margin: float

    @property
    def clear(self) -> bool:
        return self.similarity >= MIN_SIMILARITY and self.margin >= MIN_MARGIN

    @property
    def confidence(self) -> float:
        return round(min(0.99, 0.5 + 0.49 * self.margin / SURE_MARGIN), 3)


@dataclass
class DiceReader:
    die_side: float  # px: the die size at which the finder was surest of the enrolled dice
    vectors: np.ndarray  # (n, 64): each enrolled photo's face at its four quarter turns
    labels: list[str]  # face id per row of ``vectors``
    left_out: list[str] = field(default_factory=list)  # enrollment photos not learned from, each with why
    face_side: float | None = None  # px: the enrolled faces' median side as the refiner sizes them (None: not known)
    blurred: np.ndarray | None = None  # (n, 64): ``vectors``' faces embedded blurred (ENROLL_BLUR; None: not known)
    zoom: float = 1.0  # photos are looked at this many times as big (ZOOM: small dice); die_side is so too

    @property
    def photo_die_side(self) -> float:
        """px: the enrolled die size in the photos as taken."""
        return self.die_side / self.zoom

    # -- enrollment ---------------------------------------------------------------------------

    def size_warning(self) -> str | None:
        """What to change when the enrolled dice are too small in the photo for a low lean to be seen; else None."""
        if self.photo_die_side >= SMALL_DIE:
            return None
        return (
            f"the dice are {self.photo_die_side:.0f} px across: "
            f"under {SMALL_DIE:.0f} px a cocked die may be read as level; "
            "move the camera closer or raise its resolution, and teach the dice again"
        )

    @classmethod
    def enroll(cls, folder: str | Path) -> DiceReader:
        """Learn a set from DIR/<face>/*.jpg (one die a photo), or from photos of the teaching sheet, a die on
        each of its places (DIR/*.jpg: three photos, the dice re-laid between them, teach each face three times)."""
        folder = Path(folder)
        sheets = sorted(p for p in folder.iterdir() if p.suffix.lower() in PHOTO_SUFFIXES) if folder.is_dir() else []
        found = _from_sheets(sheets) if sheets else _from_face_folders(folder)
        side, shown, left_out = found
        if (side >= ZOOM_BELOW and not left_out) or _first_photo_width(folder, sheets) > ZOOM_WIDTH:
            return cls._learned(*found)
        zoomed = _from_sheets(sheets, ZOOM) if sheets else _from_face_folders(folder, ZOOM)
        zoomed_side, zoomed_shown, _ = zoomed
        small = zoomed_side / ZOOM < ZOOM_BELOW and len(zoomed_shown) >= len(shown)  # (else the first look stands)
        return cls._learned(*zoomed, ZOOM) if small else cls._learned(*found)

    @classmethod
    def _learned(
        cls, side: float, shown: list[tuple[str, np.ndarray, Spot]], left_out: list[tuple[str, str]], zoom: float = 1.0
    ):
        from ..games.rolling_bones.dice import FACE_IDS  # the face ids only: names, not rules

        for face in FACE_IDS:
            if not any(f == face for f, _, _ in shown):
                raise BadInput(next((why for f, why in left_out if f == face), f"no photo shows {face}"))
        faces = [(gray, refine(gray, [spot], side)[0]) for _, gray, spot in shown]
        patches = [_variants(gray, face) for gray, face in faces]
        vectors = np.array([v for cut in patches for v in _prototypes(cut)], np.float32)
        blurred = np.array([v for cut in patches for v in _prototypes(cut, ENROLL_BLUR)], np.float32)
        labels = [face for face, _, _ in shown for _ in range(4)]
        face_side = float(np.median([face.side for _, face in faces]))
        return cls(side, vectors, labels, [why for _, why in left_out], face_side, blurred, zoom)

    def photos_learned(self) -> dict[str, int]:
        """Per face, how many of its enrollment photos were learned from."""
        return {face: self.labels.count(face) // 4 for face in sorted(set(self.labels))}

    def save(self, name: str) -> Path:
        return save_set(
            "dice",
            name,
            {
                "version": SET_VERSION,
                "die_side": self.die_side,
                **({"face_side": self.face_side} if self.face_side else {}),
                **({"blurred": self.blurred} if self.blurred is not None else {}),
                **({"zoom": self.zoom} if self.zoom != 1.0 else {}),
                "vectors": self.vectors,
                "labels": np.array(self.labels),
            },
            {
                "faces": sorted(set(self.labels)),
                "die_side_px": round(self.photo_die_side, 1),
                "photos_learned": self.photos_learned(),
            },
        )

    @classmethod
    def load(cls, name: str) -> DiceReader:
        data = load_set("dice", name, "dice")
        if int(data.get("version", 1)) != SET_VERSION:
            raise enroll_again("dice", name, f"dice set {name!r} was enrolled by an older version of the reader")
        face_side = float(data["face_side"]) if "face_side" in data else None  # (sets saved before session 45)
        blurred = data["blurred"] if "blurred" in data else None
        zoom = float(data["zoom"]) if "zoom" in data else 1.0
        return cls(
            float(data["die_side"]), data["vectors"], [str(x) for x in data["labels"]], [], face_side, blurred, zoom
        )

    # -- reading ------------------------------------------------------------------------------

    def read(self, image: np.ndarray) -> dict[str, Any]:
        start = time.perf_counter()
        gray = _zoomed(_grey(image), self.zoom)
        mat = SeenMat(gray)
        refined, found, is_level = self._find_dice(gray, mat)
        level = [die for die, flat in zip(found, is_level) if flat]
        first_looks = embed(cut_face(gray, f.centre, f.turn, f.side) for _, f in level)
        focused = self._in_focus_of(first_looks)
        return _unzoomed(focused._read_found(gray, mat, refined, found, is_level, level, first_looks, start), self.zoom)

    def _in_focus_of(self, first_looks: np.ndarray) -> DiceReader:
        """This reader, or its twin holding the enrolled faces blurred where the photo's dice are more like those (the
        median likeness of the level dice like a face of the set, MIN_SIMILARITY, either way: a busy cloth's
        squiggles, most of a photo's spots there, are like none)."""
        if self.blurred is None or not len(first_looks):
            return self
        blurred = self._blurred_twin
        sharp = np.array([d.similarity for d in self.decide(first_looks)])
        soft = np.array([d.similarity for d in blurred.decide(first_looks)])
        dice = np.maximum(sharp, soft) >= MIN_SIMILARITY
        return blurred if dice.any() and np.median(soft[dice]) > np.median(sharp[dice]) else self

    @cached_property
    def _blurred_twin(self) -> DiceReader:
        return replace(self, vectors=self.vectors if self.blurred is None else self.blurred, blurred=None)

    def _read_found(
        self, gray, mat: SeenMat, refined, found, is_level, level, first_looks: np.ndarray, start: float
    ) -> dict[str, Any]:
        """``read`` from the found dice on: ``level`` those of them level, ``first_looks`` their faces embedded."""
        sure = [d.similarity for d in self.decide(first_looks) if d.clear]
        recheck = float(np.median(sure)) - RECHECK_GAP if sure else 0.0
        decisions = self.decide_looking_around(
            gray, [face for _, face in level], first_looks, lambda d: not d.clear or d.similarity < recheck
        )
        decisions = [self._searched_if_like_none(gray, mat, spot, face, d) for (spot, face), d in zip(level, decisions)]
        # a flag is raised on the mat only, and a doubt off it let be before it is looked at closer: a patterned table
        # round the mat (a busy cloth's squiggles are die-sized) is no place to ask the table to look; a die read off
        # the mat is still read (unless the photo is busy: MANY_SPOTS)
        dice, flags = [], []
        for (spot, face), decision in zip(level, decisions):
            if decision.clear:
                dice.append(_die_read(decision, _rounded(face.centre)))
            elif spot.likelihood < CANDIDATE_PEAK:
                continue  # a faint spot is read or let be (a mat's print is seldom like no face of the set's)
            elif decision.similarity < MIN_SIMILARITY:
                # fainter, and like no face: a mat's corner or print, not a die
                if (
                    _worth_asking(spot, decision)
                    and mat.holds(face.centre)
                    and not _on_a_marker(gray, mat, face.centre, face.side)
                ):
                    flags.append(_flag(face.centre, "a die? its face is like none of the set's"))
            elif mat.holds(face.centre):
                why = f"{decision.face} or {decision.runner_up}: too close to call"
                flags.append(_flag(face.centre, why, could_be=[decision.face, decision.runner_up]))
        read = [d["center"] for d in dice]
        leaning = [
            (spot, face)
            for (spot, face), flat in zip(found, is_level)
            if not flat and spot.likelihood >= CANDIDATE_PEAK and mat.holds(face.centre)
        ]
        cocked = self._like_the_sets(gray, leaning, read)
        for face in self._not_shadows(gray, cocked, read):
            if not _on_a_marker(gray, mat, face.centre, face.side):
                flags.append(_flag(face.centre, "cocked: re-roll it or lay it flat"))
        for face, seen in self._faint(gray, mat, refined, [face for _, face in found]):
            if _on_a_marker(gray, mat, face.centre, face.side):
                continue
            if seen is None:
                flags.append(_flag(face.centre, "a die? too faint to read: light it better"))
            elif seen.clear:
                dice.append(_die_read(seen, _rounded(face.centre)))
            else:
                why = f"{seen.face} or {seen.runner_up}: too close to call"
                flags.append(_flag(face.centre, why, could_be=[seen.face, seen.runner_up]))
        flags = _dark_enough(gray, flags, read, self.die_side)
        unreadable = [{**flag, "center": _rounded(flag["center"])} for flag in flags]
        dice.sort(key=lambda d: (d["center"][1], d["center"][0]))
        return {"dice": dice, "unreadable": unreadable, "ms": round((time.perf_counter() - start) * 1000, 1)}

    def _find_dice(self, gray: np.ndarray, mat: SeenMat) -> tuple[list, list, list[bool]]:
        """find_dice at the enrolled die size, or, if the photo's level dice are RESIZED off the enrolled faces (the
        camera moved closer or further since the enrollment photos), again at their size until it settles."""
        side = self.die_side
        refined, found, is_level = find_dice(gray, side, mat)
        bar = RESIZED
        for _ in range(RESIZE_LOOKS):
            sides = [face.side for (_, face), flat in zip(found, is_level) if flat]
            if not self.face_side or len(sides) < RESIZED_DICE:
                break
            scale = float(np.median(sides)) / self.face_side
            if 1 / bar <= scale * self.die_side / side <= bar:
                break
            side, bar = self.die_side * scale, SETTLED
            refined, found, is_level = find_dice(gray, side, mat)
        return refined, found, is_level

    def _like_the_sets(
        self, gray: np.ndarray, cocked: list[tuple[Spot, Refined]], read: list[list[float]]
    ) -> list[Refined]:
        """The dice judged cocked whose top face, tilted, is still a little like one of the set's (FAINTLY_LIKE), that
        the finder is sure of (FLAG_PEAK), or that lean on a die read (LEANS_ON; a die under another shows none of its
        own face): a patterned cloth's squiggles, taken for cocked dice, are none of these."""

        def sure(spot: Spot, face: Refined) -> bool:
            return spot.likelihood >= FLAG_PEAK or _within(face.centre, LEANS_ON * face.side, read)

        unsure = [face for spot, face in cocked if not sure(spot, face)]  # only these are embedded: few on a mat
        if not unsure:
            return [face for _, face in cocked]
        # a face like one of the set's where it was cut is like one; the others are looked for round it
        decisions = self.decide_looking_around(gray, unsure, doubted=lambda d: d.similarity < FAINTLY_LIKE)
        like_none = {face for face, decision in zip(unsure, decisions) if decision.similarity < FAINTLY_LIKE}
        return [face for _, face in cocked if face not in like_none]

    def _not_shadows(self, gray: np.ndarray, cocked: list[Refined], read: list[list[float]]) -> list[Refined]:
        """The dice judged cocked that are dice: a die's print and edges are as steep as the read dice's (a die's
        shadow, dark and die-sized, is soft all over). With no die read, no measure: all of them."""
        if not cocked or not read:
            return cocked
        steepest = float(np.median([_steepest(gray, (x, y), self.die_side) for x, y in read]))
        return [f for f in cocked if _steepest(gray, f.centre, self.die_side) >= SHADOW_EDGES * steepest]

    def _faint(
        self, gray: np.ndarray, mat: SeenMat, refined: list[tuple[Spot, Refined]], found: list[Refined]
    ) -> list[tuple[Refined, Decision | None]]:
        """Spots on the mat the refiner calls no die, away from every die found, each with its decision where its
        face, searched for, is surely one of the set's (FAINT_SURE: read if clear of the next, else a close call to ask
        about), or None where it is worth asking about (the finder sure of it, or its face like one of the set's): the
        networks disagree (a dark die on a dark mat in dim light shows little but its print), so the table is asked
        rather than the die left out without a word. Off the mat, where the networks disagree it is a table's
        pattern (searching a gingham's squares took blue gingham's 10.5 ms here to 7.1; no bench die was read there)."""
        doubted = [
            (spot, face)
            for spot, face in refined
            if face.die < DIE_LIKELY
            and spot.likelihood >= CANDIDATE_PEAK
            and mat.holds(face.centre)
            and _apart(face, found)
        ]
        decisions = self.decide(embed(cut_face(gray, face.centre, face.turn, face.side) for _, face in doubted))
        faint: list[tuple[Refined, Decision | None]] = []
        for (spot, face), decision in zip(doubted, decisions):
            if not _apart(face, [f for f, _ in faint]):
                continue
            searched = self._surely_searched(gray, spot, face, decision)
            if searched is not None:
                faint.append((face, searched))
                continue
            if _worth_asking(spot, decision):
                faint.append((face, None))
        return faint

    def _searched_if_like_none(
        self, gray: np.ndarray, mat: SeenMat, spot: Spot, face: Refined, decision: Decision
    ) -> Decision:
        """A level die on the mat whose face, looked at around, is like none of the set's, decided where a search finds
        it surely one, as a faint die is: a dark die on a dark mat in dim light shows only its print, and the refiner's
        turn for it may be a guess (dev scene-00208's skull: 0.51 alike at its turn, 0.83 searched; it was left out
        without a word)."""
        if decision.similarity >= MIN_SIMILARITY or spot.likelihood < CANDIDATE_PEAK or not mat.holds(face.centre):
            return decision
        return self._surely_searched(gray, spot, face, decision) or decision

    def _surely_searched(self, gray: np.ndarray, spot: Spot, face: Refined, decision: Decision) -> Decision | None:
        """A die's decision searched for (``decide_searching``) where its face is a little like one of the set's
        (FAINTLY_LIKE) or the finder is sure of it (FLAG_PEAK), if the search finds it surely one (FAINT_SURE)."""
        if decision.similarity < FAINTLY_LIKE and spot.likelihood < FLAG_PEAK:
            return None
        searched = self.decide_searching(gray, face)
        return searched if searched.similarity >= FAINT_SURE else None

    def decide_searching(self, gray: np.ndarray, face: Refined) -> Decision:
        """A die's decision where its face looks most like a face, cut at every SEARCH_TURN degrees and, where that
        could come to a sure reading (SEARCH_GAIN), a little off its centre each way too (for a die whose turn the
        refiner could not see)."""
        turned = self.decide_best_look(gray, [face], SEARCH_TURNS)[0]
        if turned.similarity < FAINT_SURE - SEARCH_GAIN:
            return turned
        return max(turned, self.decide_best_look(gray, [face], SEARCH_SHIFTS)[0], key=lambda d: d.similarity)

    def decide_looking_around(
        self,
        gray: np.ndarray,
        faces: list[Refined],
        first_looks: np.ndarray | None = None,
        doubted: Callable[[Decision], bool] = lambda decision: not decision.clear,
    ) -> list[Decision]:
        """Each die's decision where its face is; a die doubted there (by default: not clear) is cut again a little
        off it each way, at other turns and sizes, and decided where its face looks most like a face."""
        if first_looks is None:
            first_looks = embed(cut_face(gray, f.centre, f.turn, f.side) for f in faces)
        decisions = self.decide(first_looks)
        unclear = [k for k, d in enumerate(decisions) if doubted(d)]
        around = self.decide_best_look(gray, [faces[k] for k in unclear], LOOK_AROUND)
        for k, other in zip(unclear, around):
            decisions[k] = max(decisions[k], other, key=lambda d: d.similarity)
        return decisions

    def decide_best_look(
        self, gray: np.ndarray, faces: list[Refined], looks: tuple[tuple[float, float, float, float], ...]
    ) -> list[Decision]:
        """Each face cut at every look (its centre moved dx, dy of its side, its turn dt degrees, its side times
        scale) and decided where it looks most like one of the set's faces."""
        if not faces:
            return []
        cuts = [
            cut_face(gray, (f.centre[0] + dx * f.side, f.centre[1] + dy * f.side), f.turn + dt, f.side * scale)
            for f in faces
            for dx, dy, dt, scale in looks
        ]
        likeness = self._likeness(embed(cuts)).reshape(len(faces), len(looks), -1)
        best = np.argmax(likeness.max(axis=2), axis=1)  # each face's look most like a face (the first of equals)
        return self._decisions(likeness[np.arange(len(faces)), best])

    def decide(self, vectors: np.ndarray) -> list[Decision]:
        """Each embedded face's nearest enrolled face (its most similar prototype) and the next nearest face."""
        return self._decisions(self._likeness(vectors))

    def _likeness(self, vectors: np.ndarray) -> np.ndarray:
        """(n, faces): each embedded face's likeness to each of the set's faces (its most similar prototype's)."""
        faces, rows = self._by_face
        return (vectors @ rows.T).reshape(len(vectors), len(faces), len(rows) // len(faces)).max(axis=2)

    def _decisions(self, per_face: np.ndarray) -> list[Decision]:
        """Each row's likeliest face and the next likeliest."""
        faces = self._by_face[0]
        ranked = np.argsort(-per_face, axis=1)[:, :2]
        best = np.take_along_axis(per_face, ranked, axis=1).tolist()
        return [
            Decision(faces[first], a, faces[second], a - b) for (first, second), (a, b) in zip(ranked.tolist(), best)
        ]

    @cached_property
    def _by_face(self) -> tuple[list[str], np.ndarray]:
        """The set's faces in order, and its prototypes as rows face by face, as many a face as the most enrolled
        (a face with fewer repeats its first: a repeat changes no maximum), so a face's likeness is a plain max."""
        faces = sorted(set(self.labels))
        rows = [self.vectors[[k for k, label in enumerate(self.labels) if label == face]] for face in faces]
        most = max(len(r) for r in rows)
        padded = [np.concatenate([r, np.repeat(r[:1], most - len(r), axis=0)]) for r in rows]
        return faces, np.ascontiguousarray(np.concatenate(padded), dtype=self.vectors.dtype)


def _steepest(gray: np.ndarray, centre: tuple[float, float], side: float) -> float:
    """The steepest 2 % of the grey level's slope (levels a px) within EDGE_REACH sides of ``centre``."""
    reach = max(2, int(EDGE_REACH * side))
    x, y = int(centre[0]), int(centre[1])
    window = gray[max(0, y - reach) : y + reach, max(0, x - reach) : x + reach]
    if window.shape[0] < 3 or window.shape[1] < 3:
        return 0.0
    return float(np.percentile(slope(window), 98))


def _on_a_marker(gray: np.ndarray, mat: SeenMat, centre: tuple[float, float], side: float) -> bool:
    """Whether a spot lies on one of the mat's markers (ArUco 4x4_50: a dark square of light code, as like a die
    as anything on a mat): on one the mat's outline was placed by, or, unless it was placed by all four, one looked
    for round the spot."""
    known = mat.on_a_marker(centre)
    return known if known is not None else on_a_marker(gray, centre, int(MARKER_LOOK * side))


def _dark_enough(gray: np.ndarray, flags: list[dict[str, Any]], read: list[list[float]], side: float) -> list:
    """The flags that may be dice by their tone: where the dice read are dark on a lighter mat (DARK_DICE), a flag
    whose darkest quarter is not AS_DARK of the way from the mat round it to the dice's is the mat's print (a
    printed mat's words, taken for cocked dice). A die too close to call is like a face: it stands."""
    if len(read) < BODY_DICE or not flags:
        return flags
    body = float(np.median([_tone(gray, centre, side, (0.0, BODY_REACH), 25) for centre in read]))
    kept = []
    for flag in flags:
        mat = _tone(gray, flag["center"], side, MAT_RING, 50)
        dark = _tone(gray, flag["center"], side, (0.0, BODY_REACH), 25)
        if "could_be" in flag or not mat - body >= DARK_DICE or not mat - dark < AS_DARK * (mat - body):
            kept.append(flag)
    return kept


def _tone(gray: np.ndarray, centre, side: float, ring: tuple[float, float], percent: float) -> float:
    """A percentile of the grey levels in a square ring round ``centre``, from ring[0] to ring[1] die sides each way."""
    reach = int(ring[1] * side) + 1
    x, y = int(round(centre[0])), int(round(centre[1]))
    x0, y0 = max(0, x - reach), max(0, y - reach)
    window = gray[y0 : y + reach + 1, x0 : x + reach + 1]
    ys, xs = np.ogrid[y0 - y : y0 - y + window.shape[0], x0 - x : x0 - x + window.shape[1]]
    apart = np.maximum(np.abs(xs), np.abs(ys)) / side
    inside = window[(apart >= ring[0]) & (apart <= ring[1])]
    return float(np.percentile(inside, percent)) if inside.size else float("nan")


def _worth_asking(spot: Spot, decision: Decision) -> bool:
    """Whether a die not read is asked about: its face is like one of the set's, or the finder is sure of it and its
    face is a little like one (a patterned cloth's squiggles, die-sized, are like none)."""
    return decision.similarity >= MIN_SIMILARITY or (
        spot.likelihood >= FLAG_PEAK and decision.similarity >= FAINTLY_LIKE
    )


def find_dice(
    gray: np.ndarray, side: float, mat: SeenMat | None = None
) -> tuple[list[tuple[Spot, Refined]], list[tuple[Spot, Refined]], list[bool]]:
    """The find, refine and lean stages: every spot the finder found as refined, the dice among them (one a die),
    and whether each die is level; with MANY_SPOTS found, the faint ones and those off the ``mat`` (if seen) are
    let be, else those off it under LEVEL_PEAK."""
    spots = find_spots(gray, side, FAINT_PEAK)
    if len([spot for spot in spots if spot.likelihood >= CANDIDATE_PEAK]) > MANY_SPOTS:
        spots = [
            spot
            for spot in spots
            if spot.likelihood >= CANDIDATE_PEAK and (mat is None or mat.holds(spot.centre, side / 2))
        ]
    elif mat is not None:  # a faint spot off the mat is a table's pattern (a gingham's squares: half of 54 spots)
        spots = [spot for spot in spots if spot.likelihood >= LEVEL_PEAK or mat.holds(spot.centre, side / 2)]
    spots = spots[:MOST_SPOTS]  # (likeliest first)
    refined = list(zip(spots, refine(gray, spots, side)))
    found = _one_a_die([(spot, face) for spot, face in refined if face.die >= DIE_LIKELY])
    found = list(zip([spot for spot, _ in found], judge(gray, [face for _, face in found], JUDGED_SIDE * side)))
    off = off_the_field([face for _, face in found], gray.shape[1], gray.shape[0], LEVEL_LIKELY)
    return refined, found, [_level(face.level, miss) for (_, face), miss in zip(found, off)]


def _level(likely: float, miss: float) -> bool:
    """Whether a die the lean judge calls ``likely`` level, its body ``miss`` sides off the photo's field, is level."""
    return likely >= LEVEL_LIKELY and miss <= LEANING and not (likely < DOUBTED_LEVEL and miss > DOUBTED_LEAN)


def _one_a_die(found: list[tuple[Spot, Refined]]) -> list[tuple[Spot, Refined]]:
    """Spots refined onto one die (two faint peaks on a die the finder was unsure of) are one: the one the
    refiner is surest is a die."""
    kept: list[tuple[Spot, Refined]] = []
    for spot, face in sorted(found, key=lambda pair: -pair[1].die):
        if _apart(face, [other for _, other in kept]):
            kept.append((spot, face))
    return kept


def _apart(face: Refined, others: list[Refined]) -> bool:
    """Whether ``face``'s centre lies at least SAME_DIE of its side from every other's: not one of them."""
    return not _within(face.centre, SAME_DIE * face.side, [other.centre for other in others])


def _within(centre: tuple[float, float], reach: float, places) -> bool:
    """Whether any of ``places`` (x, y pairs) lies closer than ``reach`` px to ``centre``."""
    return any(np.hypot(centre[0] - x, centre[1] - y) < reach for x, y in places)


def _variants(gray: np.ndarray, face: Refined) -> list[np.ndarray]:
    """An enrolled face cut at each of VARIANTS (a little shifted, turned and scaled)."""
    (x, y), side = face.centre, face.side
    return [cut_face(gray, (x + dx * side, y + dy * side), face.turn + dt, side * s) for dx, dy, dt, s in VARIANTS]


def _prototypes(patches: list[np.ndarray], blur: float = 0.0) -> list[np.ndarray]:
    """An enrolled face's prototype at each quarter turn: the mean embedding of its variants' patches (blurred by
    ``blur`` of the face's side)."""
    if blur:
        patches = [cv2.GaussianBlur(p.astype(np.float32), (0, 0), blur * PATCH) for p in patches]
    out = []
    for quarter in range(4):
        mean = embed(np.rot90(p, quarter) for p in patches).mean(axis=0)
        out.append(mean / np.linalg.norm(mean))
    return out


def _from_face_folders(
    folder: Path, zoom: float = 1.0
) -> tuple[float, list[tuple[str, np.ndarray, Spot]], list[tuple[str, str]]]:
    """The die size, and each photo's one die, from DIR/<face>/*.jpg: photos cut round their die, or the table
    camera's whole frames (die_frames.py says where in them a die may lie); each photo looked at ``zoom`` times as big."""
    from ..games.rolling_bones.dice import FACE_IDS  # the face ids only: names, not rules

    photos = [
        (face, path, _zoomed(_grey(image), zoom)) for face, path, image in enrollment_photos(folder, FACE_IDS, "face")
    ]
    looked_in = where_dice_lie([gray for _, _, gray in photos])
    # (the finder, at a tenth of the die's size, can be surer of a pictogram's strokes than of the die)
    sides = die_sides(looked_in, ENROLL_SIDES)
    if all(min(where.gray.shape) < MIN_FRAME for where in looked_in):  # photos cut round their die
        settled = _refiners_side([where.gray for where in looked_in])
        sides = tuple(s for s in sides if REFINED_BAND[0] <= s / settled <= REFINED_BAND[1]) or sides
    side = _likeliest_side([(where.gray, [where.place], where.reach) for where in looked_in], sides)
    shown, left_out = [], []
    for (face, path, gray), where in zip(photos, looked_in):
        dice = [] if where.no_die else _dice_in(where.gray, side, where.place, where.reach)
        if where.no_die or (not dice and where.place is not None):
            # the frame's change shows no die (a die as faint as a dim room's noise; a speck of noise taken for it)
            dice = _dice_in(on_the_mat(gray).gray, side)
            dice = dice if _surely_a_die(dice) else []
        if not dice:
            left_out.append((face, f"{path}: no die found in the photo{BARE_MAT if where.no_die else ''}"))
            continue
        spot, seen = dice[0]
        # another die: about as likely to the finder, and a die to the refiner too if the first is one to it
        others = [
            other
            for other, looked in dice[1:]
            if other.likelihood >= SECOND_DIE * spot.likelihood and (looked.die >= DIE_LIKELY or seen.die < DIE_LIKELY)
        ]
        if others:
            left_out.append((face, f"{path}: expected one die in the photo, found {1 + len(others)}"))
        else:
            shown.append((face, where.gray, spot))
    return side, shown, left_out


def _from_sheets(
    paths: list[Path], zoom: float = 1.0
) -> tuple[float, list[tuple[str, np.ndarray, Spot]], list[tuple[str, str]]]:
    """The die size, and the die on each place of each teaching-sheet photo (looked at ``zoom`` times as big)."""
    photos = []
    for path in paths:
        gray = _zoomed(_grey(read_photo(path)), zoom)
        places, px_per_mm = places_in_photo(gray, str(path))
        photos.append((path, gray, places, px_per_mm))
    px_per_mm = float(np.median([p[3] for p in photos]))
    sides = tuple(s for s in ENROLL_SIDES if DIE_MM[0] * px_per_mm <= s <= DIE_MM[1] * px_per_mm) or ENROLL_SIDES
    reach = PLACE_MM / 2 * px_per_mm
    side = _likeliest_side([(gray, list(places.values()), reach) for _, gray, places, _ in photos], sides)
    shown, left_out = [], []
    for path, gray, places, _ in photos:
        spots = [spot for spot, _ in _dice_in(gray, side)]
        for face, centre in places.items():
            on_place = [s for s in spots if np.hypot(s.centre[0] - centre[0], s.centre[1] - centre[1]) <= reach]
            if on_place:
                shown.append((face, gray, on_place[0]))
            else:
                left_out.append((face, f"{path.name}: no die on the {face} place"))
    return side, shown, left_out


def _dice_in(
    gray: np.ndarray, side: float, place: tuple[float, float] | None = None, reach: float = 0.0
) -> list[tuple[Spot, Refined]]:
    """The dice of an enrollment photo (within ``reach`` px of ``place``, if given), one a die, the refiner's dice
    first, each way the finder's likeliest first: the finder's spots down to ENROLL_PEAK, and fainter ones down to
    ENROLL_LOOK that the refiner calls dice, but not a die's shadow. A die is known to lie there: the finder, at 16 px
    a die, misses some whose body is as grey as the mat, and the refiner, closer, sees them. It only adds: it has
    called a clear die in a printed box none, and faint spots by a die (its side, its shadow) dice."""
    spots = find_spots(gray, side, ENROLL_LOOK)[:ENROLL_CANDIDATES]
    refined = zip(spots, refine(gray, spots, side))
    dice = _one_a_die(
        [(spot, face) for spot, face in refined if spot.likelihood >= ENROLL_PEAK or face.die >= DIE_LIKELY]
    )
    if place is not None:
        dice = [die for die in dice if _within(die[1].centre, reach, [place])]
    # a die's long shadow, dark and die-sized, is taken for a die by both networks; its edges are soft all over, beside
    # its die's (measured against the mat's markers, a light die shaken along a line was taken for a shadow)
    steepest = [_steepest(gray, face.centre, side) for _, face in dice]
    bar = SHADOW_EDGES * max(steepest, default=0.0)
    dice = [die for die, edges in zip(dice, steepest) if edges >= bar]
    return sorted(dice, key=lambda pair: (pair[1].die < DIE_LIKELY, -pair[0].likelihood))


def _first_photo_width(folder: Path, sheets: list[Path]) -> int:
    """px: the width of an enrollment's first photo (a teaching sheet's, else the first face folder's)."""
    first = sheets[0] if sheets else min(p for p in folder.glob("*/*") if p.suffix.lower() in PHOTO_SUFFIXES)
    return int(read_photo(first).shape[1])


def _surely_a_die(dice: list[tuple[Spot, Refined]]) -> bool:
    """Whether the first of an enrollment photo's ``dice`` is one the finder is sure of (UNCHANGED_PEAK) and the refiner
    takes for a die."""
    return bool(dice) and dice[0][0].likelihood >= UNCHANGED_PEAK and dice[0][1].die >= DIE_LIKELY


def _refiners_side(grays: list[np.ndarray]) -> float:
    """The die size (px) the refiner settles on for the likeliest spot of each photo (one die a photo)."""
    side = float(np.sqrt(ENROLL_SIDES[0] * ENROLL_SIDES[-1]))
    for _ in range(SETTLING_LOOKS):
        sizes = []
        for gray in grays:
            spots = find_spots(gray, side, ENROLL_LOOK)[:1]  # (likeliest first)
            sizes += [face.side for face in refine(gray, spots, side)]
        if not sizes:
            break
        side, last = float(np.median(sizes)), side
        if 1 / SETTLED <= side / last <= SETTLED:
            break
    return side


def _likeliest_side(photos: list[tuple], sides: tuple[float, ...]) -> float:
    """The die size (px) at which the finder is surest of the dice the photos show: (grey photo, places, reach) for
    dice within reach of those places, a place None for a die anywhere."""

    def sureness(side: float) -> float:
        per_die = []
        for gray, places, *reach in photos:
            spots = find_spots(gray, side, ENROLL_PEAK)  # level or not: the photo shows its die face up
            for place in places:
                near = [
                    s.likelihood
                    for s in spots
                    if place is None or np.hypot(s.centre[0] - place[0], s.centre[1] - place[1]) <= reach[0]
                ]
                per_die.append(max(near, default=0.0))
        return float(np.median(per_die))

    return max(sides, key=sureness)


def _flag(centre: tuple[float, float], why: str, could_be: list[str] | None = None) -> dict[str, Any]:
    """A die left unread, as `dice read --json` reports it; ``could_be``: the faces it is one of, likelier first (the
    page offers them first when the table names it)."""
    return {"center": centre, "why": why, **({"could_be": could_be} if could_be else {})}


def _die_read(decision: Decision, centre: list[float]) -> dict[str, Any]:
    """A die read, as `dice read --json` reports it."""
    from ..games.rolling_bones.dice import FACES  # the face's kind only: names, not rules

    return {"face": decision.face, "kind": FACES[decision.face][0], "center": centre, "confidence": decision.confidence}


def _rounded(centre: tuple[float, float]) -> list[float]:
    return [round(centre[0], 1), round(centre[1], 1)]


def _zoomed(gray: np.ndarray, zoom: float) -> np.ndarray:
    """``gray`` looked at ``zoom`` times as big (as it is at 1)."""
    return gray if zoom == 1.0 else cv2.resize(gray, None, fx=zoom, fy=zoom, interpolation=cv2.INTER_CUBIC)


def _unzoomed(reading: dict[str, Any], zoom: float) -> dict[str, Any]:
    """A reading of a photo looked at ``zoom`` times as big, its dice and flags placed in the photo as taken."""
    if zoom == 1.0:
        return reading
    placed = {
        key: [{**item, "center": [round(c / zoom, 1) for c in item["center"]]} for item in reading[key]]
        for key in ("dice", "unreadable")
    }
    return {**reading, **placed}


def _grey(image: np.ndarray) -> np.ndarray:
    """An 8-bit photo (grey, BGR or BGRA) as grey levels; one-line errors for what is not a photo."""
    if image is None or image.size == 0:
        raise BadInput("empty image")
    if image.dtype != np.uint8:
        raise BadInput(f"expected an 8-bit photo, not {image.dtype}")
    if min(image.shape[:2]) < MIN_PHOTO:
        raise BadInput(f"the photo is {image.shape[1]}x{image.shape[0]} px: too small to hold a die")
    if image.ndim == 2:
        return image
    if image.ndim == 3 and image.shape[2] in (3, 4):
        return cv2.cvtColor(image, cv2.COLOR_BGR2GRAY if image.shape[2] == 3 else cv2.COLOR_BGRA2GRAY)
    raise BadInput(f"expected a grey, BGR or BGRA photo, not an array of shape {image.shape}")
