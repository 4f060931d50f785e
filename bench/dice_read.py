"""Dice reader accuracy and speed on the rendered photo sets, next to a template-matching baseline.

For each set (dev: tuned on; held-out: other art and colouring, held out until
session 3; blender: physically based renders, the safeguards were developed on it)
it enrolls from the set's enroll/ folder, reads every photo and prints: per-die
accuracy on non-cocked dice, misread rate (a wrong face reported as read),
abstention rate, share of photos read perfectly, and the median ms per photo on
one core (its first read, and the least of three reads); and how many level dice
the classifier reads right when shown their true top faces (what enrollment
allows: the gap to "correct" is the reader's finding of the dice, its searches
and doubts). The baseline, in the same run, matches each enrolled face's mean
picture at 8 rotations over the whole frame (cv2.matchTemplate) and reads the
best face at each true die centre.
Targets (issue 29): >= 99 % correct, <= 0.2 % misread, >= 95 % perfect photos,
<= 60 ms per photo on one core, on every set and on art never trained on.
`--fresh N [--seed S]` also draws N table sets anew, each of a procedural family no
network or choice saw (10**6 + S + k), and reads them: the honest figure for a user's dice.
`--no-markers`: their felt mats without corner markers (a user's own mat: no spot is let be off the mat).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import at_least_one, pin_one_core, time_ms  # noqa: E402  (first: it sets one BLAS thread before numpy loads)

# isort: split
import cv2  # noqa: E402
import numpy as np  # noqa: E402

from bench.truth import on_die, true_turn  # noqa: E402
from companion.vision import networks  # noqa: E402

DATA = Path(__file__).resolve().parent / "data" / "dice"
# sets from one table camera, its whole frames enrolled (the rig's renders are ~40 MB a set: drawn when first asked,
# into RENDERED); "family": procedural art no network was trained on (bench/learn/art.py, seeds 10**6 and up)
RENDERED = Path(__file__).resolve().parents[1] / "build" / "bench-sets"
TABLE_SETS = {
    "table-gingham": dict(seed=66100, style=2, colouring="black", table="gingham", printed=True),
    "table-busy": dict(seed=66200, style=0, colouring="red", table="contours"),
    "table-family-black": dict(seed=66300, family=1000003, colouring="black", table="wood", printed=True),
    "table-family-ivory": dict(seed=66400, family=1000004, colouring="ivory", printed=True),
    "table-family-blue": dict(seed=66500, family=1000005, colouring="blue", table="gingham"),
    # ringed art with light marks at each edge's middle, blue dice on a felt as dark: the refiner's turn 14 degrees
    # off at the median (session 58: a left foot read as a right one)
    "table-family-ringed": dict(seed=71200, family=1000012, colouring="blue", table="contours"),
}
TABLE_PHOTOS, TABLE_FRAMES = 4, 3  # throws a table set, whole frames a face
# --fresh: tables drawn anew, each of its own procedural family (10**6 + seed + k: art no network or choice saw),
# its dice, cloth and mat in turn; FRESH_PHOTOS throws each
FRESH_COLOURINGS = ("black", "ivory", "blue", "red")
FRESH_TABLES = ("wood", "gingham", "contours", None)
FRESH_PHOTOS = 6
MATCH_PX = 20  # a reading within this many px of a true centre is that die
STEADY_READS = 3  # each photo is read this many times: the first read's time, and the least of them, are reported


def enrolled(folder: Path):
    """The reader (find, refine, lean, cut, embed, decide) enrolled on the set's enroll/ folder."""
    from companion.vision.reader import DiceReader

    return DiceReader.enroll(folder / "enroll")


def at_true_tops(reader, image: np.ndarray, truth: list[dict]) -> int:
    """Level dice the reader's decide stage reads right, shown their true top faces."""
    from companion.vision.embedding import cut_face, embed

    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    level = [d for d in truth if not d["cocked"]]
    decisions = reader.decide(embed(cut_face(gray, tuple(d["center"]), true_turn(d), reader.die_side) for d in level))
    return sum(dec.clear and dec.face == d["face"] for dec, d in zip(decisions, level))


def set_folder(data: Path, name: str) -> Path:
    """A set's folder: under ``data``, or for a table set drawn into RENDERED when first asked."""
    if name not in TABLE_SETS or (data / name).is_dir():
        return data / name
    from bench.render.dice_scene import Rig, write_rig_set

    folder = RENDERED / name
    if not (folder / "enroll").is_dir():
        write_rig_set(folder, Rig(**TABLE_SETS[name]), TABLE_PHOTOS, TABLE_FRAMES)
    return folder


def fresh_sets(count: int, seed: int, markers: bool = True) -> list[tuple[str, Path]]:
    """``count`` fresh table sets, drawn into a temporary folder: (name, folder) each; ``markers``: False, their felt
    mats without corner markers (a user's own mat)."""
    from bench.render.dice_scene import Rig, write_rig_set

    out = Path(tempfile.mkdtemp()) / "fresh"
    sets = []
    for k in range(count):
        family, colouring = 10**6 + seed + k, FRESH_COLOURINGS[k % len(FRESH_COLOURINGS)]
        table, printed = FRESH_TABLES[(k // 2) % len(FRESH_TABLES)], k % 3 == 0
        look = "-printed" if printed else "" if markers else "-unmarked"
        name = f"fresh-{family}-{colouring}-{table or 'plain'}{look}"
        rig = Rig(
            70000 + 100 * (seed + k), family=family, colouring=colouring, table=table, printed=printed, markers=markers
        )
        write_rig_set(out / name, rig, FRESH_PHOTOS, TABLE_FRAMES)
        sets.append((name, out / name))
    return sets


def evaluate(folder: Path, baseline_photos: int) -> dict:
    reader = enrolled(folder)
    counted = correct = misread = abstained = phantom = perfect = photos = cocked_read = at_pose = 0
    flags_at_no_die = 0
    times, steady = [], []
    for path in sorted(folder.glob("scene-*.jpg")):
        truth = json.loads(path.with_suffix(".json").read_text())["dice"]
        image = cv2.imread(str(path))
        start = time.perf_counter()
        reading = reader.read(image)
        times.append((time.perf_counter() - start) * 1000)
        # the same photo read again: this shared machine's timings swing by a third between runs, the least of
        # three reads much less (readings do not change: the reader keeps nothing between photos but caches)
        steady.append(
            min([times[-1]] + [time_ms(lambda image=image: reader.read(image)) for _ in range(STEADY_READS - 1)])
        )
        photos += 1
        used, ok_photo = set(), True
        for die, close in zip(truth, matched(truth, reading["dice"])):
            used.update(close[:1])  # a second reading of one die is a die too many: counted as a phantom
            if die["cocked"]:
                cocked_read += bool(close)
                ok_photo &= not close
                continue
            counted += 1
            if not close:
                abstained += 1
                ok_photo = False
            elif reading["dice"][close[0]]["face"] == die["face"]:
                correct += 1
            else:
                misread += 1
                ok_photo = False
        at_pose += at_true_tops(reader, image, truth)
        phantom += len(set(range(len(reading["dice"]))) - used)
        stray = [u for u in reading["unreadable"] if not any(on_die(u["center"], d) for d in truth)]
        flags_at_no_die += len(stray)
        perfect += ok_photo and not (set(range(len(reading["dice"]))) - used) and not stray
    # (no baseline photos: none measured, as bench/camera_effects.py reads)
    base_ms, base_acc = baseline(folder, reader, baseline_photos) if baseline_photos else (float("nan"), float("nan"))
    return {
        "dice": counted,
        "correct": correct / counted,
        "misread": misread / counted,
        "abstain": abstained / counted,
        "perfect": perfect / photos,
        "photos": photos,
        "phantom": phantom,
        "stray_flags": flags_at_no_die / photos,
        "cocked_read": cocked_read,
        "ms": statistics.median(times),
        "steady_ms": statistics.median(steady),
        "baseline_ms": base_ms,
        "baseline_correct": base_acc,
        "at_pose": at_pose / counted,
    }


def near(a, b) -> bool:
    return _apart(a, b) < MATCH_PX


def _apart(a, b) -> float:
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def matched(truth: list[dict], read: list[dict]) -> list[list[int]]:
    """Per true die, the readings near it that are nearest it: a die covered by a leaning one has its top face's
    centre near the leaning die's, and the one reading there is the leaning die's, not both dice's. A cocked die's
    readings may lie anywhere on it (the OpenCV renderer's truth is its body's centre, its top leans off it: read
    25 px off, it was counted a phantom, not a cocked die read)."""
    nearest = [
        min(range(len(truth)), key=lambda k: _apart(d["center"], truth[k]["center"])) if truth else -1 for d in read
    ]
    return [
        [i for i, d in enumerate(read) if nearest[i] == k and _reads(d["center"], die)] for k, die in enumerate(truth)
    ]


def _reads(centre, die: dict) -> bool:
    """Whether a reading at ``centre`` is of ``die``: near its top face's centre, or on it if it is cocked."""
    return near(centre, die["center"]) or (die.get("cocked", False) and "corners" in die and on_die(centre, die))


def baseline(folder: Path, reader, photos: int) -> tuple[float, float]:
    """Mean face template at 8 rotations, matched over the whole frame (each enrollment photo's face cut where the
    reader's enrollment found it)."""
    from companion.vision.reader import _from_face_folders

    side = int(round(reader.die_side * 0.84))
    crops: dict[str, list[np.ndarray]] = {}
    for face, gray, spot in _from_face_folders(folder / "enroll")[1]:
        crops.setdefault(face, []).append(_upright(gray, spot.centre, spot.turn, side))
    templates = {}
    for face, faces in crops.items():
        mean = np.mean(np.float32(faces), axis=0)
        templates[face] = [
            cv2.warpAffine(
                mean, cv2.getRotationMatrix2D((side / 2, side / 2), a, 1), (side, side), borderMode=cv2.BORDER_REPLICATE
            )
            for a in range(0, 360, 45)
        ]
    times, right, total = [], 0, 0
    for path in sorted(folder.glob("scene-*.jpg"))[:photos]:
        truth = json.loads(path.with_suffix(".json").read_text())["dice"]
        gray = cv2.cvtColor(cv2.imread(str(path)), cv2.COLOR_BGR2GRAY).astype(np.float32)
        start = time.perf_counter()
        maps = {
            face: np.max([cv2.matchTemplate(gray, t, cv2.TM_CCOEFF_NORMED) for t in ts], axis=0)
            for face, ts in templates.items()
        }
        times.append((time.perf_counter() - start) * 1000)
        for die in truth:
            if die["cocked"]:
                continue
            x, y = int(die["center"][0] - side / 2), int(die["center"][1] - side / 2)
            scores = {
                f: m[max(0, y - 3) : y + 4, max(0, x - 3) : x + 4].max()
                for f, m in maps.items()
                if 0 <= y < m.shape[0] and 0 <= x < m.shape[1]
            }
            total += 1
            right += bool(scores) and max(scores, key=scores.get) == die["face"]
    return statistics.median(times), right / max(1, total)


def _upright(gray: np.ndarray, centre: tuple[float, float], turn: float, side: int) -> np.ndarray:
    """The ``side`` px square round ``centre``, turned upright by ``turn`` degrees (grey levels)."""
    turning = cv2.getRotationMatrix2D(centre, turn, 1.0)
    turning[:, 2] += (side / 2 - centre[0], side / 2 - centre[1])
    return cv2.warpAffine(gray, turning, (side, side), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument(
        "--baseline-photos", type=at_least_one, default=2, help="photos a set the baseline is timed on (1 or more)"
    )
    parser.add_argument(
        "--sets",
        nargs="*",
        default=[
            "dev",
            "heldout",
            "blender",
            "blender-ivory",
            "blender-style2",
            "blender-table",
            "blender-framed",
            "blender-diagonal",
            "tablecloths",
            *TABLE_SETS,
        ],
        help="sets under --data: dev (OpenCV renders, tuned on), heldout (other art), "
        "blender (physically based renders, bench/render/blender_dice.py), blender-ivory (the same, light dice), blender-style2 (black dice, art style 2), blender-table (one table camera for every photo, enrollment too), blender-framed (art none of the reader's development saw: each pictogram in a ring all faces share), blender-diagonal (other unseen art: thin pictograms turned 45 degrees; rendered after session 13's choices, used for none), tablecloths (OpenCV renders, red dice, the mat on patterned tables: flags at no die); table-* (one table camera, "
        "its whole frames enrolled, drawn into build/bench-sets/ when first asked; table-family-*: procedural art no network saw)",
    )
    parser.add_argument(
        "--fresh", type=int, default=0, help="also draw this many fresh table sets of art never seen, and read them"
    )
    parser.add_argument("--seed", type=int, default=10, help="the fresh sets' first family (10**6 + seed)")
    parser.add_argument(
        "--no-markers", action="store_true", help="the fresh sets' felt mats without corner markers (a user's own mat)"
    )
    parser.add_argument(
        "--runtime",
        choices=networks.RUNTIMES,
        default=networks.RUNTIME,
        help="what runs the reader's networks (onnxruntime where installed; OpenCV's DNN module otherwise)",
    )
    parser.add_argument(
        "--lean-judge",
        type=Path,
        help="a candidate lean judge (.onnx, bench/learn/train_refiner.py) read with in place of the shipped one",
    )
    args = parser.parse_args()
    pin_one_core()
    networks.RUNTIME = args.runtime
    if args.lean_judge:
        if not args.lean_judge.is_file():
            parser.error(f"--lean-judge {args.lean_judge}: no such file")
        from companion.vision import refining

        refining.LEAN_JUDGE = str(args.lean_judge.resolve())  # (absolute: NETWORKS / it is itself)
    print(f"networks run by {args.runtime}, one core" + (f", lean judge {args.lean_judge}" if args.lean_judge else ""))
    os.environ.setdefault("COMPANION_MODELS", tempfile.mkdtemp())
    sets = [(name, set_folder(args.data, name)) for name in args.sets]
    for name, folder in sets + fresh_sets(args.fresh, args.seed, markers=not args.no_markers):
        r = evaluate(folder, args.baseline_photos)
        print(
            f"{name:8s}: {r['photos']} photos, {r['dice']} level dice: correct {r['correct']:.1%}, misread {r['misread']:.2%}, "
            f"abstain {r['abstain']:.1%}, perfect photos {r['perfect']:.0%}, phantom dice {r['phantom']}, "
            f"cocked read as level {r['cocked_read']}, flags at no die {r['stray_flags']:.1f} a photo"
        )
        print(
            f"{'':8s} at the true top faces (enrollment and classifier only, no finding): {r['at_pose']:.1%} read right"
        )
        print(
            f"{'':8s} median {r['ms']:.1f} ms per photo (first read; least of {STEADY_READS}: {r['steady_ms']:.1f} ms); "
            f"baseline (template matching, 8 rotations) {r['baseline_ms']:.0f} ms, {r['baseline_correct']:.1%} correct; "
            f"ratio {r['baseline_ms'] / r['ms']:.1f}x ({r['baseline_ms'] / r['steady_ms']:.1f}x)"
        )


if __name__ == "__main__":
    main()
