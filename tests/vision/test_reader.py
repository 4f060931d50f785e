"""The learned dice reader (find, cut, embed, decide) on photos drawn by the bench's OpenCV renderer.

The networks never saw this art (trained on procedural families only): what a user's new dice are.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import cv2
import numpy as np
import pytest

from bench.dice_read import matched
from bench.learn.art import line_kernel
from bench.render.dice_scene import Rig, render_scene, render_sheet, render_single, set_camera_height, write_rig_set
from bench.truth import on_die
from companion.errors import BadInput
from companion.games.rolling_bones.dice import FACE_IDS
from companion.vision.finding import find_spots
from companion.vision.reader import SMALL_DIE, DiceReader

from .dice_sets import taught_alike

NEAR = 20  # px: a reading this close to a true centre is that die
SEED = 900  # the rig (camera height) of every photo here


def tally(reading: dict, truth: list[dict]) -> dict[str, int]:
    """Level dice read right, misread and not read; readings and flags at no die."""
    out = {"right": 0, "wrong": 0, "silent": 0, "stray": 0}
    for die in (d for d in truth if not d["cocked"]):
        read = [d for d in reading["dice"] if np.hypot(*np.subtract(d["center"], die["center"])) < NEAR]
        if not read:
            out["silent"] += 1
        else:
            out["right" if read[0]["face"] == die["face"] else "wrong"] += 1
    for report in reading["dice"] + reading["unreadable"]:
        out["stray"] += not any(np.hypot(*np.subtract(report["center"], d["center"])) < NEAR for d in truth)
    return out


@pytest.fixture(scope="module")
def sheet_photos(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("sheets")
    height = set_camera_height(SEED)
    for k in range(3):
        cv2.imwrite(str(folder / f"sheet-{k}.jpg"), render_sheet(SEED + k, style=0, height_cm=height))
    return folder


@pytest.fixture(scope="module")
def sheet_reader(sheet_photos) -> DiceReader:
    return DiceReader.enroll(sheet_photos)


def test_three_teaching_sheet_photos_teach_every_face_three_times(sheet_reader):
    assert sheet_reader.photos_learned() == {face: 3 for face in sorted(FACE_IDS)}
    assert sheet_reader.left_out == []


def test_a_table_photo_is_read_after_enrolling_from_the_sheet(sheet_reader):
    totals = {"right": 0, "wrong": 0, "silent": 0, "stray": 0}
    for seed in range(SEED + 10, SEED + 13):
        photo, truth = render_scene(seed, style=0, colouring="black", height_cm=set_camera_height(SEED))
        for key, n in tally(sheet_reader.read(photo), truth["dice"]).items():
            totals[key] += n
    level = totals["right"] + totals["wrong"] + totals["silent"]
    assert totals["wrong"] == 0 and totals["right"] >= 0.75 * level and totals["stray"] == 0, totals


def test_face_folders_enroll_as_before(tmp_path):
    height = set_camera_height(SEED)
    for face in FACE_IDS:
        (tmp_path / face).mkdir()
        photo, _ = render_single(SEED * 7 + FACE_IDS.index(face) * 10, face, 0, "black", height)
        cv2.imwrite(str(tmp_path / face / "0.jpg"), photo)  # one a face: the path is what is tested here
    reader = DiceReader.enroll(tmp_path)
    assert reader.photos_learned() == {face: 1 for face in sorted(FACE_IDS)}


def test_a_sheet_photo_without_its_markers_is_a_one_line_error(tmp_path, sheet_photos):
    photo = cv2.imread(str(sheet_photos / "sheet-0.jpg"))
    cv2.imwrite(str(tmp_path / "sheet.jpg"), np.full_like(photo, 128))
    with pytest.raises(BadInput, match="teaching sheet's markers are not seen"):
        DiceReader.enroll(tmp_path)


def test_a_face_missing_from_every_sheet_photo_is_named(tmp_path, sheet_photos):
    photo = cv2.imread(str(sheet_photos / "sheet-0.jpg"))
    gray = cv2.cvtColor(photo, cv2.COLOR_BGR2GRAY)
    from companion.vision.teaching_sheet import places_in_photo

    places, px_per_mm = places_in_photo(gray, "sheet")
    x, y = places["skull"]
    r = int(12 * px_per_mm)
    mat = photo[int(y) - 3 * r : int(y) - 2 * r, int(x) - r // 2 : int(x) + r // 2].mean(axis=(0, 1))
    photo[int(y) - r : int(y) + r, int(x) - r : int(x) + r] = mat  # the skull's place left empty
    cv2.imwrite(str(tmp_path / "sheet.jpg"), photo)
    with pytest.raises(BadInput, match="no die on the skull place"):
        DiceReader.enroll(tmp_path)


@pytest.fixture(scope="module")
def busy_tablecloth(sheet_reader) -> dict[bool, list[tuple[np.ndarray, dict, dict]]]:
    """Photos of the mat on a busy cloth (dark closed squiggles, many die-sized) with its markers seen (True) and
    not (False): each photo, its truth and the sheet reader's reading (a render takes seconds: drawn once here)."""
    out: dict[bool, list[tuple[np.ndarray, dict, dict]]] = {}
    for markers, seeds in ((True, range(5000, 5003)), (False, range(5000, 5004))):
        out[markers] = []
        for seed in seeds:
            photo, truth = render_scene(
                seed, style=0, colouring="black", height_cm=set_camera_height(SEED), table="contours", markers=markers
            )
            out[markers].append((photo, truth, sheet_reader.read(photo)))
    return out


def test_a_busy_tablecloth_round_the_mat_adds_no_die(busy_tablecloth):
    """The finder and the refiner take some squiggles for dice, and their print is a little like a face (nearest
    face 0.50-0.61 alike, a die's 0.69 and more). None is read as a die: a die too many changes the score."""
    totals = {"right": 0, "wrong": 0, "silent": 0, "stray": 0}
    read_at_no_die = 0
    for _, truth, reading in busy_tablecloth[True] + busy_tablecloth[False]:
        for key, n in tally(reading, truth["dice"]).items():
            totals[key] += n
        read_at_no_die += sum(
            not any(np.hypot(*np.subtract(d["center"], die["center"])) < NEAR for die in truth["dice"])
            for d in reading["dice"]
        )
    assert (
        read_at_no_die == 0 and totals["wrong"] == 0 and totals["right"] >= 0.85 * (totals["right"] + totals["silent"])
    ), totals


def test_a_busy_tablecloth_is_not_flagged_beyond_the_mats_edge(busy_tablecloth):
    """With the mat's markers seen, the squiggles round it are not flagged as dice ("cocked", "too faint"): every
    flag at no die lies on the mat (its edge as its markers place it: tests/vision/test_die_frames.py checks that
    against the renderer's own)."""
    from companion.vision.board import mat_outline

    stray = []
    for photo, truth, reading in busy_tablecloth[True]:
        edge = mat_outline(cv2.cvtColor(photo, cv2.COLOR_BGR2GRAY)).edge
        for flag in reading["unreadable"]:
            if not any(on_die(flag["center"], d) for d in truth["dice"]):
                stray.append(cv2.pointPolygonTest(edge, tuple(map(float, flag["center"])), True))
    assert all(distance >= -0.1 for distance in stray), stray  # (centres are reported to 0.1 px)


def test_a_busy_photo_is_looked_at_again_on_the_mat_only(busy_tablecloth, sheet_reader):
    """The cloth gives the finder some 200 would-be dice; with the mat's markers seen only those on the mat (and
    half a die beyond its edge) are refined, the cloth's hundred more let be: every die is still found."""
    from companion.vision.board import SeenMat
    from companion.vision.finding import find_spots
    from companion.vision.reader import CANDIDATE_PEAK, MANY_SPOTS, find_dice

    side = sheet_reader.die_side
    for photo, truth, _ in busy_tablecloth[True]:
        gray = cv2.cvtColor(photo, cv2.COLOR_BGR2GRAY)
        mat = SeenMat(gray)
        spots = find_spots(gray, side, CANDIDATE_PEAK)
        refined, found, _ = find_dice(gray, side, mat)
        assert len(spots) > MANY_SPOTS and len(refined) < len(spots) / 2
        assert all(mat.holds(spot.centre, side / 2) for spot, _ in refined)
        level = [d for d in truth["dice"] if not d["cocked"]]
        seen = [d for d in level if any(np.hypot(*np.subtract(f.centre, d["center"])) < NEAR for _, f in found)]
        assert len(seen) >= len(level) - 1, (len(seen), len(level))


def test_a_faint_spot_off_the_mat_is_let_be(sheet_reader):
    """A gingham table round the mat gives the finder faint spots (its squares), in a photo not busy enough for the
    mat-only rule: those off the mat are let be before the refiner looks, and every die is still found."""
    from companion.vision.board import SeenMat
    from companion.vision.finding import LEVEL_PEAK
    from companion.vision.reader import CANDIDATE_PEAK, FAINT_PEAK, MANY_SPOTS, find_dice

    side = sheet_reader.die_side
    photo, truth = render_scene(
        SEED + 20, style=0, colouring="black", height_cm=set_camera_height(SEED), table="gingham", markers=True
    )
    gray = cv2.cvtColor(photo, cv2.COLOR_BGR2GRAY)
    mat = SeenMat(gray)
    spots = find_spots(gray, side, FAINT_PEAK)
    assert len([s for s in spots if s.likelihood >= CANDIDATE_PEAK]) <= MANY_SPOTS  # not a busy photo
    faint_off = [s for s in spots if s.likelihood < LEVEL_PEAK and not mat.holds(s.centre, side / 2)]
    refined, found, _ = find_dice(gray, side, mat)
    assert faint_off and not any(spot in faint_off for spot, _ in refined)
    level = [d for d in truth["dice"] if not d["cocked"]]
    seen = [d for d in level if any(np.hypot(*np.subtract(f.centre, d["center"])) < NEAR for _, f in found)]
    assert len(seen) == len(level), (len(seen), len(level))


def test_a_busy_tablecloth_with_the_mats_markers_unseen_is_seldom_flagged(busy_tablecloth):
    """No marker seen, so no mat to keep the flags to: the squiggles the networks take for dice (cocked, too faint)
    are asked about only if their face is a little like one of the set's. In these four photos 138 flags lay at no
    die before, 21-22 since; session 45: 24 with dice not clear looked at a size off too, 26 with one photo read with
    the enrolled faces blurred (its dice are more like those, and so are its squiggles); the cocked dice are flagged
    as they were (6 of 7)."""
    stray, cocked_flagged = 0, 0
    for _, truth, reading in busy_tablecloth[False]:
        stray += len(flags_at_no_die(reading, truth["dice"]))
        cocked_flagged += sum(
            any(on_die(u["center"], d) for u in reading["unreadable"]) for d in truth["dice"] if d["cocked"]
        )
    assert stray <= 30 and cocked_flagged >= 6, (stray, cocked_flagged)


class BoldlyPrintedMat(Rig):
    """A printed mat whose border line and words are bolder than ours: a border 2 mm wide, words 9 mm tall."""

    def canvas(self) -> np.ndarray:
        canvas = super().canvas()
        h, w = canvas.shape[:2]
        cv2.rectangle(canvas, (12, 12), (w - 13, h - 13), (150, 150, 150), 8)
        words = "Crypt Companion dice mat - print at 100%"
        cv2.putText(canvas, words, (200, h - 24), cv2.FONT_HERSHEY_SIMPLEX, 1.6, (140, 140, 140), 3, cv2.LINE_AA)
        return canvas


def test_a_printed_mats_words_and_border_are_not_flagged(sheet_reader):
    """Dark dice on a paper mat: its printed words and border line, taken for cocked dice by the networks, are lighter
    than any die's body (their darkest quarter 0.26-0.39 of the way from the paper to the dice's): not flagged."""
    rig = BoldlyPrintedMat(SEED, style=0, colouring="black", printed=True)
    totals = {"right": 0, "wrong": 0, "silent": 0, "stray": 0}
    for seed in (SEED + 50, SEED + 51):
        photo, truth = rig.scene(seed)
        for key, n in tally(sheet_reader.read(photo), truth["dice"]).items():
            totals[key] += n
    assert totals["stray"] == 0 and totals["wrong"] == 0 and totals["right"] >= 25, totals


def test_an_empty_mat_reads_nothing(sheet_reader):
    photo, _ = render_scene(SEED + 20, n_dice=0, style=0, height_cm=set_camera_height(SEED))
    reading = sheet_reader.read(photo)
    assert reading["dice"] == [] and reading["unreadable"] == []


@pytest.mark.parametrize("height", [0.6, 1.6])
def test_a_photo_taken_closer_or_further_than_the_enrollment_is_read_at_its_dice_size(sheet_reader, height):
    """The camera moved since the sheet was photographed: the dice are 1.67 or 0.62 times the enrolled size. Found at
    the enrolled size, 9 of 18 level dice were read and 1 misread (closer), 16 of 18 (further)."""
    photo, truth = render_scene(SEED + 11, style=0, colouring="black", height_cm=height * set_camera_height(SEED))
    level = sum(not d["cocked"] for d in truth["dice"])
    assert tally(sheet_reader.read(photo), truth["dice"]) == {"right": level, "wrong": 0, "silent": 0, "stray": 0}


def test_a_photo_less_sharp_than_the_sheets_reads_no_die_wrong(tmp_path):
    """Blue dice of art style 2 taught from sharp sheet photos, a table photo blurred by 0.03 of a die's face (out of
    focus): with the enrolled faces embedded sharp only, a spine's thin stripes blurred into another face's (one
    spine misread as a left thigh, another unread). Its dice are more like the enrolled faces blurred: read so."""
    height = set_camera_height(SEED)
    for k in range(3):
        cv2.imwrite(
            str(tmp_path / f"sheet-{k}.jpg"), render_sheet(SEED + k, style=2, colouring="blue", height_cm=height)
        )
    reader = DiceReader.enroll(tmp_path)
    photo, truth = render_scene(SEED + 10, style=2, colouring="blue", height_cm=height)
    blurred = cv2.GaussianBlur(photo, (0, 0), 0.03 * reader.face_side)
    level = sum(not d["cocked"] for d in truth["dice"])
    assert tally(reader.read(blurred), truth["dice"]) == {"right": level, "wrong": 0, "silent": 0, "stray": 0}


def test_the_finder_finds_dice_of_art_it_never_saw(sheet_reader):
    photo, truth = render_scene(SEED + 30, style=3, colouring="ivory", height_cm=set_camera_height(SEED))
    spots = find_spots(cv2.cvtColor(photo, cv2.COLOR_BGR2GRAY), sheet_reader.die_side)
    level = [d for d in truth["dice"] if not d["cocked"]]
    found = [d for d in level if any(np.hypot(*np.subtract(s.centre, d["center"])) < NEAR for s in spots)]
    assert len(found) >= 0.9 * len(level)


def test_a_set_saved_is_the_set_loaded(sheet_reader, tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_MODELS", str(tmp_path))
    sheet_reader.save("mine")
    loaded = DiceReader.load("mine")
    assert loaded.labels == sheet_reader.labels and np.allclose(loaded.vectors, sheet_reader.vectors)
    assert loaded.die_side == sheet_reader.die_side and loaded.face_side == sheet_reader.face_side
    assert np.allclose(loaded.blurred, sheet_reader.blurred)
    summary = json.loads((tmp_path / "dice" / "mine" / "set.json").read_text())
    assert summary["photos_learned"]["skull"] == 3


@pytest.mark.parametrize("version", [2, 3, 4, 5])
def test_a_set_enrolled_by_an_older_reader_is_a_one_line_error(sheet_reader, tmp_path, monkeypatch, version):
    """Version 2 sets hold prototypes of faces normalised another way, version 3 of faces cut at the finder's spot
    (not where the refiner puts them), versions 4 and 5 those of earlier embeddings: every similarity would be off."""
    monkeypatch.setenv("COMPANION_MODELS", str(tmp_path))
    sheet_reader.save("older")
    path = tmp_path / "dice" / "older" / "set.npz"
    np.savez_compressed(path, **{**dict(np.load(path)), "version": version})
    with pytest.raises(BadInput, match="enrolled by an older version of the reader"):
        DiceReader.load("older")


def test_a_set_enrolled_by_the_correlation_reader_is_a_one_line_error(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_MODELS", str(tmp_path))
    (tmp_path / "dice" / "old").mkdir(parents=True)
    np.savez(tmp_path / "dice" / "old" / "set.npz", refs=np.zeros((1, 4)), labels=np.array(["skull"]))
    with pytest.raises(BadInput, match="enroll it again"):
        DiceReader.load("old")


@pytest.mark.parametrize(
    "image, message",
    [
        (np.zeros((8, 8, 3), np.uint8), "too small"),
        (np.zeros((100, 100, 3), np.float32), "8-bit"),
        (np.zeros((100, 100, 2), np.uint8), "grey, BGR or BGRA"),
        (np.zeros((0, 0, 3), np.uint8), "empty"),
    ],
)
def test_what_is_not_a_photo_is_a_one_line_error(sheet_reader, image, message):
    with pytest.raises(BadInput, match=message):
        sheet_reader.read(image)


# -- the command line ------------------------------------------------------------------------------

DEV = Path(__file__).resolve().parents[2] / "bench" / "data" / "dice" / "dev"


@pytest.fixture(scope="module")
def cli_set(sheet_reader, tmp_path_factory):
    """The sheet-taught set saved as "sheet" in a models folder of the module's own, and a photo of its rig."""
    models = tmp_path_factory.mktemp("models")
    with pytest.MonkeyPatch.context() as mp:  # the subprocesses inherit it; undone after the module
        mp.setenv("COMPANION_MODELS", str(models))
        sheet_reader.save("sheet")
        photo, _ = render_scene(SEED + 40, style=0, colouring="black", height_cm=set_camera_height(SEED))
        path = models / "table.jpg"
        cv2.imwrite(str(path), photo)
        yield path


def test_cli_read_and_annotate(run_cli, cli_set, tmp_path):
    done = run_cli("dice", "read", str(cli_set), "--set", "sheet", "--json", "--annotate", str(tmp_path / "out.png"))
    assert done.returncode == 0, done.stderr
    reading = json.loads(done.stdout)
    assert set(reading) == {"dice", "unreadable", "ms"} and reading["dice"]
    assert all(set(d) == {"face", "kind", "center", "confidence"} for d in reading["dice"])
    assert all(0.5 <= d["confidence"] <= 0.99 for d in reading["dice"])
    assert cv2.imread(str(tmp_path / "out.png")).shape == (1296, 2304, 3)


def test_cli_enrolls_from_teaching_sheet_photos(run_cli, sheet_photos, tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_MODELS", str(tmp_path / "models"))  # not the shipped models folder
    done = run_cli("dice", "enroll", str(sheet_photos), "--set", "taught")
    assert done.returncode == 0, done.stderr
    assert "enrolled 18 faces" in done.stdout and done.stderr == ""
    assert (tmp_path / "models" / "dice" / "taught" / "set.npz").is_file()


def test_a_photo_too_small_to_hold_a_die_is_a_one_line_error_not_a_crash(run_cli, cli_set, tmp_path):
    cv2.imwrite(str(tmp_path / "dot.png"), np.zeros((1, 1, 3), np.uint8))
    done = run_cli("dice", "read", str(tmp_path / "dot.png"), "--set", "sheet")
    assert done.returncode == 2 and done.stderr.strip() == "companion: the photo is 1x1 px: too small to hold a die"


def test_cli_errors(run_cli, cli_set, tmp_path):
    assert "no such image" in run_cli("dice", "read", "missing.jpg", "--set", "sheet").stderr
    assert "is a folder, not an image" in run_cli("dice", "read", str(tmp_path), "--set", "sheet").stderr
    assert "no dice set 'nope'" in run_cli("dice", "read", str(cli_set), "--set", "nope").stderr
    done = run_cli("dice", "enroll", str(tmp_path / "nothing"), "--set", "x")
    assert done.returncode == 2 and "no such folder" in done.stderr


@pytest.mark.slow
def test_an_annotation_path_opencv_cannot_write_is_a_one_line_error(run_cli, cli_set, tmp_path):
    # OpenCV raises on a name it has no writer for (.txt, no extension) where it returns False for a bad folder
    for out in (tmp_path / "out.txt", tmp_path / "out", tmp_path / "no" / "such" / "out.png"):
        done = run_cli("dice", "read", str(cli_set), "--set", "sheet", "--annotate", str(out))
        assert done.returncode == 2 and done.stderr.strip().count("\n") == 0, done.stderr
        assert f"cannot write {out}" in done.stderr and not out.exists()


def test_the_shipped_demo_set_reads_a_dev_photo(run_cli, monkeypatch):
    """`dice read` with no --set uses the demo set in models/: it must load (enrolled by this reader, not an
    older one) and read most of a dev photo's level dice, none wrong. (An installed package has no repo
    models/ of its own: there the test names the repo's.)"""
    if os.environ.get("COMPANION_TEST_INSTALLED") == "1":
        monkeypatch.setenv("COMPANION_MODELS", str(Path(__file__).resolve().parents[2] / "models"))
    else:
        monkeypatch.delenv("COMPANION_MODELS", raising=False)
    done = run_cli("dice", "read", str(DEV / "scene-00200.jpg"), "--json")
    assert done.returncode == 0, done.stderr
    counts = tally(json.loads(done.stdout), json.loads((DEV / "scene-00200.json").read_text())["dice"])
    assert counts["wrong"] == 0 and counts["right"] >= 12 and counts["stray"] == 0, counts


@pytest.mark.slow
def test_an_enrollment_photo_with_no_die_or_two_is_left_out_and_named(run_cli, tmp_path, monkeypatch):
    """One spoiled photo (the die rolled out of view, a second die in the frame) does not spoil the set: it is
    left out, and the person enrolling is told which and why, on one line."""
    import shutil

    shutil.copytree(DEV / "enroll", tmp_path / "enroll")
    blank = tmp_path / "enroll" / "skull" / "00.jpg"
    cv2.imwrite(str(blank), np.full((320, 320, 3), 90, np.uint8))
    two = tmp_path / "enroll" / "hat" / "00.jpg"
    hat, pelvis = (cv2.imread(str(DEV / "enroll" / face / "01.jpg")) for face in ("hat", "pelvis"))
    cv2.imwrite(str(two), np.hstack([hat, pelvis]))
    monkeypatch.setenv("COMPANION_MODELS", str(tmp_path / "models"))
    done = run_cli("dice", "enroll", "--set", "spoiled", str(tmp_path / "enroll"))
    assert done.returncode == 0, done.stderr
    assert done.stderr.startswith("warning: left out ") and len(done.stderr.splitlines()) == 1
    assert f"{two}: expected one die in the photo, found 2" in done.stderr
    assert f"{blank}: no die found in the photo" in done.stderr
    learned = DiceReader.load("spoiled").photos_learned()
    assert learned["skull"] == learned["hat"] == len(list((DEV / "enroll" / "skull").glob("*.jpg"))) - 1


@pytest.mark.slow
def test_enrollment_says_which_faces_it_learned_from_one_photo_only(run_cli, tmp_path, monkeypatch):
    """A face known from one photo is the first to be misread: the person enrolling is told which (a warning on
    stderr: the set is stored)."""
    import shutil

    for face in FACE_IDS:
        shutil.copytree(DEV / "enroll" / face, tmp_path / "enroll" / face)
    for extra in sorted((tmp_path / "enroll" / "hat").glob("*.jpg"))[1:]:
        extra.unlink()
    monkeypatch.setenv("COMPANION_MODELS", str(tmp_path / "models"))
    done = run_cli("dice", "enroll", "--set", "few", str(tmp_path / "enroll"))
    assert done.returncode == 0, done.stderr
    warning = [line for line in done.stderr.splitlines() if line.startswith("warning: learned from one photo only")]
    assert warning == [
        "warning: learned from one photo only: hat; photograph it again (the teaching sheet: "
        "three photos) and enroll again"
    ]
    assert "px across" not in done.stderr  # dev's dice are big enough to see a lean


def test_dice_too_small_to_see_a_lean_are_warned_of():
    too_small = DiceReader(die_side=SMALL_DIE - 2, vectors=np.zeros((0, 64)), labels=[])
    assert too_small.size_warning().startswith(f"the dice are {SMALL_DIE - 2:.0f} px across: under")
    assert DiceReader(die_side=SMALL_DIE, vectors=np.zeros((0, 64)), labels=[]).size_warning() is None


@pytest.mark.slow
def test_enrolling_dice_shrunk_small_warns_and_still_enrolls(run_cli, tmp_path, monkeypatch):
    """A camera far off or at a low resolution: the set is stored, and the person enrolling is told what to change."""
    for face in FACE_IDS:
        (tmp_path / "enroll" / face).mkdir(parents=True)
        for photo in sorted((DEV / "enroll" / face).glob("*.jpg"))[:2]:
            image = cv2.imread(str(photo))
            cv2.imwrite(str(tmp_path / "enroll" / face / photo.name), cv2.resize(image, None, fx=0.35, fy=0.35))
    monkeypatch.setenv("COMPANION_MODELS", str(tmp_path / "models"))
    done = run_cli("dice", "enroll", "--set", "far", str(tmp_path / "enroll"))
    assert done.returncode == 0, done.stderr
    warning = [line for line in done.stderr.splitlines() if "px across" in line]
    assert len(warning) == 1 and warning[0].startswith("warning: the dice are ")
    assert DiceReader.load("far").size_warning() in warning[0]


@pytest.mark.parametrize("content", [b"", b"garbage", None])
def test_a_damaged_set_is_a_one_line_error(run_cli, tmp_path, monkeypatch, content):
    monkeypatch.setenv("COMPANION_MODELS", str(tmp_path / "models"))
    for kind in ("dice", "pieces"):
        folder = tmp_path / "models" / kind / "bad"
        folder.mkdir(parents=True)
        if content is None:  # a set file that loads but lacks what the reader needs
            np.savez(folder / "set.npz", something=np.zeros(3))
        else:
            (folder / "set.npz").write_bytes(content)
    photo = str(DEV / "scene-00200.jpg")
    for args in (
        ["dice", "read", photo, "--set", "bad"],
        ["pieces", "read", photo, "--set", "bad", "--graves", "g.json"],
    ):
        done = run_cli(*args, files={"g.json": {"north": [[0, 0], [10, 0], [10, 10]]}})
        assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1, done.stderr
        assert "enroll it again" in done.stderr and ("set 'bad' is damaged" in done.stderr or content is None)


@pytest.mark.parametrize("name", ["", "a/b", "x" * 65])
def test_a_bad_set_name_is_refused_before_enrolling(run_cli, tmp_path, name):
    for kind in ("dice", "pieces"):
        done = run_cli(kind, "enroll", str(tmp_path / "no-such-folder"), "--set", name)
        assert done.returncode == 2 and "a set name is" in done.stderr  # not "no such folder": the name first


BENCH_DICE = Path(__file__).resolve().parents[2] / "bench" / "data" / "dice"


class EnrolledSets(dict):
    """Each bench set's reader, enrolled from its enroll/ folder when first asked for (10-15 s a set)."""

    def __missing__(self, name: str) -> DiceReader:
        self[name] = DiceReader.enroll(BENCH_DICE / name / "enroll")
        return self[name]


@pytest.fixture(scope="module")
def bench_readers() -> EnrolledSets:
    return EnrolledSets()


def read_bench_photo(reader: DiceReader, folder: str, photo: str) -> tuple[dict, list[dict]]:
    """``reader``'s reading of a bench photo, and the photo's true dice."""
    truth = json.loads((BENCH_DICE / folder / f"{photo}.json").read_text())["dice"]
    return reader.read(cv2.imread(str(BENCH_DICE / folder / f"{photo}.jpg"))), truth


def flags_at_no_die(reading: dict, truth: list[dict]) -> list[dict]:
    """Flags on no die's body (the bench's measure)."""
    return [u for u in reading["unreadable"] if not any(on_die(u["center"], d) for d in truth)]


@pytest.mark.slow  # enrolls a Blender bench set
@pytest.mark.parametrize(
    "folder, photo",
    [
        ("blender", "scene-00106"),  # a die's long shadow, dark and die-sized, taken for a cocked die
        ("blender", "scene-00110"),
        ("blender-diagonal", "scene-01302"),
        ("blender-diagonal", "scene-01303"),  # the mat's marker: a dark square of light code
    ],
)
def test_a_dice_shadow_or_the_mats_marker_is_not_flagged_as_a_die(bench_readers, folder, photo):
    reading, truth = read_bench_photo(bench_readers[folder], folder, photo)
    assert flags_at_no_die(reading, truth) == []
    cocked = [d for d in truth if d["cocked"]]
    assert sum(
        any(np.hypot(*np.subtract(u["center"], d["center"])) < 60 for u in reading["unreadable"]) for d in cocked
    )


@pytest.mark.slow  # enrolls a Blender bench set
@pytest.mark.parametrize(
    "photo, face",
    [
        ("scene-00105", "right-lower-leg"),  # leaning 32 degrees: the refiner alone calls it level
        ("scene-00109", "right-hand"),  # 25 degrees
        ("scene-00110", "ribcage"),  # 34 degrees, beside a second cocked die
        ("scene-00100", "ribcage"),  # 22 degrees: read as level until the lean judge learned from rendered dice
        ("scene-00111", "ribcage"),  # 30 degrees: the same
    ],
)
def test_a_cocked_die_whose_body_shows_off_the_photos_level_dice_is_flagged_not_read(bench_readers, photo, face):
    reading, truth = read_bench_photo(bench_readers["blender"], "blender", photo)
    cocked = next(d for d in truth if d["cocked"] and d["face"] == face)
    # (a level die against it may lie within a side of its centre: that one is read)
    assert not [d for d in reading["dice"] if on_die(d["center"], cocked) and d["face"] == face]
    assert [u for u in reading["unreadable"] if on_die(u["center"], cocked) and u["why"].startswith("cocked")]


@pytest.mark.parametrize(
    "photo, face",
    [
        ("scene-00202", "left-hand"),  # a whole side showing: the judge once saw it in a window cut a side too big
        ("scene-00203", "gravestone"),
        ("scene-00209", "left-hand"),
    ],
)
def test_a_die_cocked_on_its_edge_is_flagged_not_read(bench_readers, photo, face):
    """The lean judge looks at each die in a window cut where the refiner put it, not where the finder guessed."""
    reading, truth = read_bench_photo(bench_readers["dev"], "dev", photo)
    cocked = next(d for d in truth if d["cocked"] and d["face"] == face)
    assert not [d for d in reading["dice"] if on_die(d["center"], cocked)]
    assert [u for u in reading["unreadable"] if on_die(u["center"], cocked) and u["why"].startswith("cocked")]


@pytest.mark.slow  # enrolls a Blender bench set
def test_the_dice_round_a_heap_of_cocked_dice_are_read_and_the_four_flagged(bench_readers):
    """blender-table scene-01501: four cocked dice in a heap among level ones."""
    reading, truth = read_bench_photo(bench_readers["blender-table"], "blender-table", "scene-01501")
    thigh = next(d for d in truth if d["face"] == "right-thigh")
    level = sorted(d["face"] for d in truth if not d["cocked"] and d is not thigh)
    assert sorted(d["face"] for d in reading["dice"] if not on_die(d["center"], thigh)) == level
    for cocked in (d for d in truth if d["cocked"]):
        assert [u for u in reading["unreadable"] if on_die(u["center"], cocked) and u["why"].startswith("cocked")]


@pytest.mark.slow  # enrolls a Blender bench set
@pytest.mark.xfail(strict=True, reason="judged at four quarter turns its level likelihood is 0.20 (one turn: 0.54)")
def test_a_level_die_wedged_against_a_cocked_one_is_read(bench_readers):
    """blender-table scene-01501: the right thigh lies level against a cocked right hand whose side fills a third of
    its window; flagged cocked since session 35 (docs/vision.md)."""
    reading, truth = read_bench_photo(bench_readers["blender-table"], "blender-table", "scene-01501")
    thigh = next(d for d in truth if d["face"] == "right-thigh")
    assert [d["face"] for d in reading["dice"] if on_die(d["center"], thigh)] == ["right-thigh"]


@pytest.mark.slow  # enrolls the held-out bench set
def test_a_die_the_finder_is_faint_on_is_read_when_the_refiner_is_sure_of_it(bench_readers):
    """Held-out scene-00900: one level die stands 0.09 to the finder (its heat swings with where a die falls on its
    4 px cells), under the 0.1 its spots are looked at again from; the refiner is sure of it. Spots down to
    FAINT_PEAK are looked at again too, and read if clear: every level die of the photo is read, right."""
    from companion.vision.finding import find_spots
    from companion.vision.reader import CANDIDATE_PEAK

    reader = bench_readers["heldout"]
    reading, truth = read_bench_photo(reader, "heldout", "scene-00900")
    gray = cv2.imread(str(BENCH_DICE / "heldout" / "scene-00900.jpg"), cv2.IMREAD_GRAYSCALE)
    spots = find_spots(gray, reader.die_side, 0.01)
    faint = [
        d
        for d in reading["dice"]
        if max((s.likelihood for s in spots if np.hypot(*np.subtract(s.centre, d["center"])) < 10), default=0.0)
        < CANDIDATE_PEAK
    ]
    counts = tally(reading, truth)
    assert counts["wrong"] == 0 and counts["silent"] == 0 and counts["stray"] == 0, counts
    assert faint, "no die here was faint to the finder: the test no longer tests the faint spots"


@pytest.mark.slow  # enrolls a Blender bench set
@pytest.mark.parametrize(
    "folder, photo, face, cocked",
    [
        ("blender", "scene-00102", "right-forearm", False),  # lying level on two other dice
        ("blender-ivory", "scene-00302", "ribcage", True),  # leaning 32 degrees on another die
    ],
)
def test_the_lean_judge_at_four_quarter_turns_tells_these_apart(bench_readers, folder, photo, face, cocked):
    """Each was judged wrong at one turn of its window (level called cocked, or cocked read)."""
    reading, truth = read_bench_photo(bench_readers[folder], folder, photo)
    die = next(d for d in truth if d["cocked"] == cocked and d["face"] == face)
    read = [d["face"] for d in reading["dice"] if on_die(d["center"], die)]
    flagged = [u for u in reading["unreadable"] if on_die(u["center"], die) and u["why"].startswith("cocked")]
    assert (read, bool(flagged)) == (([], True) if cocked else ([face], False))


DOUBTED_IN_THE_DARK = [  # dev scene-00208: black dice on a black mat in dim light, only their print shows
    ("right-foot", (652, 670)),  # the refiner: 0.43 a die; its face, searched for, 0.98 like the set's right foot
    ("right-upper-arm", (1483, 266)),  # 0.01; 0.96
    ("right-forearm", (1687, 625)),  # 0.00; 0.99
    ("left-forearm", (1635, 232)),  # 0.18; 0.89 (at the refiner's turn, 24 degrees off: a right upper arm)
    ("left-forearm", (671, 724)),  # 0.16; 0.82
]


def test_dice_the_refiner_doubts_are_read_where_their_face_is_surely_the_sets(bench_readers):
    """Their turn a guess from the print, each die is looked for at every 7.5 degrees: read right or not read, never
    misread; three of the five read at least (four here; with the Pi's OpenCV 4.10 and numpy 1.26, three: one
    left forearm's face at the refiner's turn is too unlike the set's to be looked for again, left out as before,
    the other found a die and called too close to call). A die whose face, searched for, is surely one of the set's
    but too close to call is asked about, not left out without a word (the left forearm at 1635, 232: 0.88 like a
    left forearm, 0.08 ahead of a right thigh)."""
    reading, truth = read_bench_photo(bench_readers["dev"], "dev", "scene-00208")
    read = asked = 0
    for face, centre in DOUBTED_IN_THE_DARK:
        die = next(d for d in truth if d["face"] == face and np.hypot(*np.subtract(d["center"], centre)) < 5)
        faces = [d["face"] for d in reading["dice"] if on_die(d["center"], die)]
        assert faces in ([face], []), (face, faces)
        read += faces == [face]
        close_calls = [u for u in reading["unreadable"] if on_die(u["center"], die) and "could_be" in u]
        assert all(face in u["could_be"] for u in close_calls), (face, close_calls)
        asked += bool(close_calls) and not faces
    assert read >= 3 and read + asked >= 4


@pytest.mark.slow  # draws and enrolls a table camera's whole frames
def test_a_die_read_less_surely_than_most_is_looked_at_around_not_read_as_its_mirror_image(tmp_path):
    """Blue dice of a procedural art (a pictogram in a ring, light marks at each edge's middle) on a felt mat as dark
    as they are: the refiner's turn is 14 degrees off at the median, and a left foot cut 41 degrees off read as a
    right foot, clearly (0.77 alike, 0.18 ahead; the photo's dice 0.97). Read RECHECK_GAP less surely than the photo's
    dice, it is looked at around: at its turn
    it is 0.98 a left foot."""
    write_rig_set(tmp_path, Rig(71200, family=1000012, colouring="blue", table="contours"), 2, 3)
    reader = DiceReader.enroll(tmp_path / "enroll")
    truth = json.loads((tmp_path / "scene-71201.json").read_text())["dice"]
    reading = reader.read(cv2.imread(str(tmp_path / "scene-71201.jpg")))
    left_foot = next(d for d in truth if d["face"] == "left-foot" and not d["cocked"])
    assert [d["face"] for d in reading["dice"] if on_die(d["center"], left_foot)] == ["left-foot"]
    assert tally(reading, truth)["wrong"] == 0


@pytest.mark.slow  # draws and enrolls a table camera's whole frames
def test_a_shaken_photo_is_read_without_a_die_wrong(tmp_path):
    """Blue dice of a procedural art on a busy cloth, taught from sharp frames; a throw photographed by a camera that
    moved 5 px along a line at 40 degrees while the shutter was open (0.16 of a face's side). The embedding trained on
    sharp views only read 12 of its 18 level dice, a spine and a hat as right forearms (0.77 and 0.69 sure), and left
    4 unread; trained with shaken views too (bench/learn/art.py's SHAKE) it reads all 18."""
    write_rig_set(tmp_path, Rig(71400, family=1000102, colouring="blue", table="contours"), 2, 2)
    reader = DiceReader.enroll(tmp_path / "enroll")
    truth = json.loads((tmp_path / "scene-71401.json").read_text())["dice"]
    shaken = cv2.filter2D(cv2.imread(str(tmp_path / "scene-71401.jpg")), -1, line_kernel(5, 40))
    assert tally(reader.read(shaken), truth) == {"right": 18, "wrong": 0, "silent": 0, "stray": 0}


@pytest.mark.slow  # draws and enrolls a table camera's whole frames
def test_a_shaken_cameras_whole_frames_teach_light_dice(tmp_path):
    """Ivory dice on the printed mat, every whole frame shaken 7 px along a line. A frame's die is told from its long
    shadow by its steepest edges; measured against every spot of the frame's, the mat's markers among them (85-98 grey
    levels a px; the smeared dice 27-41), 23 of 54 frames' dice were taken for shadows and the set refused. Measured
    against the spots where the frame's die lies, 48 are learned."""
    write_rig_set(tmp_path, Rig(seed=66400, family=1000004, colouring="ivory", printed=True), 0, 3)
    for frame in (tmp_path / "enroll").rglob("*.jpg"):
        cv2.imwrite(str(frame), cv2.filter2D(cv2.imread(str(frame)), -1, line_kernel(7, 0)))
    reader = DiceReader.enroll(tmp_path / "enroll")
    assert sum(reader.photos_learned().values()) >= 48


@pytest.mark.slow  # draws and enrolls a table camera's whole frames
def test_a_die_the_judge_doubts_whose_body_lies_off_the_field_is_cocked(tmp_path):
    """Ivory dice of a procedural art on a printed mat: three cocked dice the lean judge called just level (0.47-0.50,
    over LEVEL_LIKELY) with their bodies 0.09-0.14 sides off the photo's field (under LEANING) were read as level.
    Two doubts short of their bars, together, say cocked: they are flagged, not read."""
    write_rig_set(tmp_path, Rig(71500, family=1000015, colouring="ivory", table="wood", printed=True), 5, 3)
    reader = DiceReader.enroll(tmp_path / "enroll")
    for photo in ("scene-71502", "scene-71503", "scene-71504"):
        truth = json.loads((tmp_path / f"{photo}.json").read_text())["dice"]
        reading = reader.read(cv2.imread(str(tmp_path / f"{photo}.jpg")))
        for die, close in zip(truth, matched(truth, reading["dice"])):
            assert not (die["cocked"] and close), (photo, die["face"])
        assert tally(reading, truth) == {
            "right": sum(not d["cocked"] for d in truth),
            "wrong": 0,
            "silent": 0,
            "stray": 0,
        }


@pytest.mark.slow  # draws and enrolls a table camera's whole frames
def test_a_cocked_die_the_refiner_sizes_small_is_judged_at_the_photos_die_size(tmp_path):
    """table-family-black's cocked right forearm shows a whole side; the refiner sized it 0.85 of the photo's dice, and
    the lean judge, shown a window that small, saw a strip of side: 0.90 level, read as level. Judged in a window of
    at least JUDGED_SIDE of the photo's die size, it is flagged, not read."""
    write_rig_set(tmp_path, Rig(66300, family=1000003, colouring="black", table="wood", printed=True), 2, 3)
    reader = DiceReader.enroll(tmp_path / "enroll")
    truth = json.loads((tmp_path / "scene-66301.json").read_text())["dice"]
    reading = reader.read(cv2.imread(str(tmp_path / "scene-66301.jpg")))
    forearm = next(d for d in truth if d["face"] == "right-forearm" and d["cocked"])
    assert not [d for d in reading["dice"] if on_die(d["center"], forearm)]
    assert tally(reading, truth) == {"right": sum(not d["cocked"] for d in truth), "wrong": 0, "silent": 0, "stray": 0}


def test_a_die_the_refiner_doubts_whose_face_is_not_surely_the_sets_is_flagged_not_left_out(bench_readers, monkeypatch):
    """With no look sure enough to read (the bar past reach), the dice whose face is like the set's, or that the
    finder is sure of, are asked about: the table is asked rather than a die left out of the score without a word."""
    monkeypatch.setattr("companion.vision.reader.FAINT_SURE", 1.01)
    reading, truth = read_bench_photo(bench_readers["dev"], "dev", "scene-00208")
    faint = [u for u in reading["unreadable"] if u["why"] == "a die? too faint to read: light it better"]
    assert faint and all(any(on_die(u["center"], d) for d in truth) for u in faint)
    right_forearm = next(d for d in truth if d["face"] == "right-forearm")
    assert any(on_die(u["center"], right_forearm) for u in faint)


@pytest.mark.slow  # enrolls a Blender bench set
def test_an_enrollment_die_the_finder_barely_sees_is_learned_when_the_refiner_sees_it(bench_readers):
    """Four photos of one die each whose die the finder, at 16 px a die, is under 0.1 sure of, and the refiner,
    closer, calls a die: learned, not left out as "no die found in the photo"."""
    left_out = " ".join(bench_readers["blender"].left_out)
    for photo in ("left-lower-leg/00.jpg", "left-lower-leg/02.jpg", "left-foot/03.jpg", "right-thigh/00.jpg"):
        assert photo not in left_out, left_out
    assert bench_readers["blender"].photos_learned()["left-lower-leg"] == 4


def test_an_enrollment_photo_teaches_its_die_not_the_dies_long_shadow():
    """A die's long shadow is dark and die-sized: both networks take it for a die, and the finder can be surer of
    it than of the die (blender left-lower-leg/03: the face was cut 1.5 sides off, on the shadow). Every face of
    the set's photos is cut within 0.3 sides of its die."""
    from companion.vision.model_sets import enrollment_photos
    from companion.vision.reader import _from_face_folders
    from companion.vision.refining import refine

    folder = BENCH_DICE / "blender" / "enroll"
    side, shown, left_out = _from_face_folders(folder)
    photos = [path for _, path, _ in enrollment_photos(folder, FACE_IDS, "face")]  # in the order enrolled
    photos = [path for path in photos if not any(f"{path}:" in why for _, why in left_out)]
    assert len(photos) == len(shown)
    off = []
    for (_, gray, spot), path in zip(shown, photos):
        centre = json.loads(path.with_suffix(".json").read_text())["center"]
        (cut,) = refine(gray, [spot], side)
        off.append((np.hypot(cut.centre[0] - centre[0], cut.centre[1] - centre[1]) / side, str(path)))
    assert max(off)[0] < 0.3, max(off)


@pytest.mark.slow  # enrolls a Blender bench set
def test_a_die_too_close_to_call_names_the_two_faces_it_could_be(bench_readers):
    """A die whose nearest face does not lead the next by the bar is asked about, and the reader says which two
    faces it is one of (the page offers them first). The set's right thigh taught from its right lower legs' photos:
    this photo's two right lower legs are as like either (the shipped set read one of them too close to call until
    session 45, when the enrolled faces' blurred looks read it)."""
    reader = taught_alike(bench_readers["blender-table"], "right-thigh", "right-lower-leg")
    reading, truth = read_bench_photo(reader, "blender-table", "scene-01502")
    close = [u for u in reading["unreadable"] if u["why"].endswith("too close to call")]
    assert close and all(set(u["could_be"]) == {"right-lower-leg", "right-thigh"} for u in close)
    for flag in close:
        die = next(d for d in truth if on_die(flag["center"], d))
        first, second = flag["could_be"]
        assert die["face"] in (first, second) and flag["why"].startswith(f"{first} or {second}:")
    assert not [u for u in reading["unreadable"] if "could_be" in u and u not in close]


@pytest.mark.slow  # enrolls a Blender bench set
def test_faces_of_unseen_art_that_share_a_frame_are_each_read(bench_readers):
    """The framed art (never trained on): every face a ring and a number, only a small glyph inside told apart.
    Each level die of this photo is read, right (three were too close to call before the embedding learned to
    lead by a margin)."""
    reading, truth = read_bench_photo(bench_readers["blender-framed"], "blender-framed", "scene-01102")
    for die, readings in zip(truth, matched(truth, reading["dice"])):  # the bench's own matching of readings to dice
        if not die["cocked"]:
            read = [reading["dice"][k]["face"] for k in readings]
            assert read == [die["face"]], (die["face"], die["center"], read)


@pytest.mark.slow  # enrolls a Blender bench set
def test_a_die_the_refiner_sized_wrong_is_read_cut_a_size_off(bench_readers):
    """blender-framed scene-01101's left upper arm: the refiner sized its face 1.10 times the set's enrolled faces,
    and cut so it is as like a right thigh (0.78 alike, 0.06 clear: too close to call); an eighth smaller it is
    a left upper arm, 0.84 alike and 0.13 clear."""
    reading, truth = read_bench_photo(bench_readers["blender-framed"], "blender-framed", "scene-01101")
    arm = next(
        d for d in truth if d["face"] == "left-upper-arm" and np.hypot(d["center"][0] - 910, d["center"][1] - 399) < 5
    )
    assert [d["face"] for d in reading["dice"] if on_die(d["center"], arm)] == ["left-upper-arm"]


@pytest.mark.parametrize(
    "face, centre",
    [("skull", (1116, 929)), ("right-foot", (1432, 918)), ("left-hand", (1908, 402))],
)
def test_a_dark_die_whose_body_does_not_show_is_read_at_its_prints_turn(bench_readers, face, centre):
    """dev scene-00208: black dice on a dark mat in dim, noisy light show only their print, and the finder's guess
    at their turn was 26-46 degrees off: the face cut there was like no face, or the wrong one."""
    reading, truth = read_bench_photo(bench_readers["dev"], "dev", "scene-00208")
    die = next(d for d in truth if d["face"] == face and np.hypot(*np.subtract(d["center"], centre)) < 5)
    assert [d["face"] for d in reading["dice"] if on_die(d["center"], die)] == [face]


@pytest.mark.slow
@pytest.mark.parametrize("folder", sorted(p.name for p in BENCH_DICE.iterdir() if (p / "enroll").is_dir()))
def test_every_bench_set_is_read_without_a_guess(folder):
    """Each committed set, enrolled from its own enroll/ folder and read photo by photo as bench/dice_read.py counts
    it: no level die misread, no die read where none lies, nine level dice in ten read (measured: 94.8-100 % a set,
    857 of 865 in all; the rest are flagged or left out, never guessed), and no flag off every die (on patterned
    tables, `tablecloths`, one in 8 photos measured: at most one a photo)."""
    reader = DiceReader.enroll(BENCH_DICE / folder / "enroll")
    level = right = 0
    photos = sorted((BENCH_DICE / folder).glob("scene-*.jpg"))
    stray = []
    for path in photos:
        reading, truth = read_bench_photo(reader, folder, path.stem)
        close = matched(truth, reading["dice"])
        for die, near in zip(truth, close):
            if die["cocked"] or not near:
                continue
            assert reading["dice"][near[0]]["face"] == die["face"], f"{path.stem}: {die['face']} misread"
            right += 1
        level += sum(not d["cocked"] for d in truth)
        read_at_a_die = {k for near in close for k in near[:1]}
        assert read_at_a_die == set(range(len(reading["dice"]))), f"{path.stem}: a die read where none lies"
        stray += [(path.stem, flag) for flag in flags_at_no_die(reading, truth)]
    assert right >= 0.9 * level
    assert len(stray) <= (len(photos) if folder == "tablecloths" else 0), stray


def test_a_face_is_named_by_its_likeliest_prototype_and_the_next_face_by_its():
    """A face's likeness is its most similar prototype's (not their mean); the runner-up is the next face, never
    another prototype of the same one, whatever order the prototypes were enrolled in."""
    from companion.vision.reader import Decision

    axes = np.eye(4, dtype=np.float32)
    tilted = (axes[0] + axes[1]) / np.sqrt(2)
    vectors = np.stack([axes[2], axes[0], tilted, axes[3], axes[1]])
    reader = DiceReader(30.0, vectors, ["ribs", "skull", "skull", "pelvis", "spine"])
    near_skull = np.array([[0.9, 0.3, 0.35, 0.0]], np.float32)
    (decision,) = reader.decide(near_skull / np.linalg.norm(near_skull))
    s = near_skull[0] / np.linalg.norm(near_skull)
    assert decision == pytest.approx(Decision("skull", float(s[0]), "ribs", float(s[0] - s[2])))
    assert reader.decide(np.zeros((0, 4), np.float32)) == []


@pytest.mark.slow  # enrolls 70 photos and reads one (about 15 s)
def test_photos_cut_round_their_die_a_stop_over_are_enrolled_at_the_dies_size(tmp_path):
    """Blender's photos cut round their die, taken a stop over: their dark dice come out light grey and their print
    blown out. The finder was surest of the print's strokes at 14 px (0.39; the 40 px die 0.06) and the set enrolled
    at that size read 26 of 180 level dice. The size is now sought near the one the refiner settles on."""
    from bench.camera_effects import taken_with

    blender = DEV.parent / "blender"
    taken_with(blender, "bright", tmp_path / "bright")
    reader = DiceReader.enroll(tmp_path / "bright" / "enroll")
    assert 32 <= reader.die_side <= 60  # (the dice are 40 px across)
    photo = tmp_path / "bright" / "scene-00100.jpg"
    counts = tally(reader.read(cv2.imread(str(photo))), json.loads(photo.with_suffix(".json").read_text())["dice"])
    assert counts["wrong"] == 0 and counts["right"] >= 0.8 * (counts["right"] + counts["silent"])
