"""The dice bench's own counting, and the refiner's training windows: a figure is only as true as its count."""

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from bench.dice_read import matched

BENCH = Path(__file__).resolve().parents[1] / "bench"


def test_one_reading_counts_for_the_die_it_is_nearest_not_for_a_die_it_covers_too():
    leaning = {"center": [100.0, 100.0], "cocked": True}
    covered = {"center": [108.0, 104.0], "cocked": True}  # its top face's centre under the leaning die
    apart = {"center": [300.0, 100.0], "cocked": False}
    read = [{"center": [101.0, 99.0]}, {"center": [299.0, 101.0]}]
    assert matched([leaning, covered, apart], read) == [[0], [], [1]]


def test_a_reading_anywhere_on_a_cocked_die_is_that_die_read():
    cocked = {"center": [100.0, 100.0], "corners": [[80, 80], [120, 80], [120, 120], [80, 120]], "cocked": True}
    level = {**cocked, "cocked": False}
    read = [{"center": [118.0, 110.0]}]  # 28 px off: its leaning top face
    assert matched([cocked], read) == [[0]] and matched([level], read) == [[]]


def test_two_readings_of_one_die_are_both_its():
    die = {"center": [100.0, 100.0]}
    assert matched([die], [{"center": [101.0, 100.0]}, {"center": [95.0, 104.0]}, {"center": [200.0, 100.0]}]) == [
        [0, 1]
    ]


def test_places_with_no_die_are_taken_from_the_whole_of_a_wide_photo():
    from bench.learn.train_refiner import examples

    photo = np.zeros((100, 1000), np.uint8)
    photo[:, 500:] = 200  # only the right half of the photo is light
    rng = np.random.default_rng(1)
    bare = [w for _ in range(100) for w, target in examples(photo, [], rng, bare_side=20.0) if target[5] == 0]
    assert len(bare) == 200
    assert 0.3 < np.mean([w.mean() > 100 for w in bare]) < 0.7  # (taken within the first 100 px: none)


def test_procedural_scenes_drawn_for_refined_cuts_carry_the_refiners_places_for_each_die():
    from bench.learn.train_refiner import REFINED_STARTS, _draw

    (_, dice, none), (_, same_dice, cuts) = _draw([8], refined=False) + _draw([8], refined=True)  # 5 dice, 1 not level
    assert none is None and same_dice == dice and len(cuts) == len(dice)
    for die, places in zip(dice, cuts):
        assert len(places) == REFINED_STARTS
        if die["level"]:  # the refiner puts a level die's top near the truth (p99 0.11 of a side)
            for centre, _, side in places:
                assert np.hypot(centre[0] - die["centre"][0], centre[1] - die["centre"][1]) < 0.2 * die["side"]
                assert 0.8 < side / die["side"] < 1.25


def test_the_lean_bench_counts_each_true_die_once_by_the_die_found_on_it(tmp_path):
    """blender scene-00110 as a training render (photo-SEED.jpg and its truth): 13 level dice and 5 not, all found
    (seeds with no photo are skipped), and its cocked dice called cocked (the reader flags two of them)."""
    import json
    import shutil
    from pathlib import Path

    from bench.learn.eval_lean import judged
    from bench.truth import true_side

    bench = Path(__file__).resolve().parents[1] / "bench" / "data" / "dice" / "blender"
    truth = json.loads((bench / "scene-00110.json").read_text())["dice"]
    dice = [{"centre": d["center"], "side": true_side(d), "level": not d["cocked"]} for d in truth]
    shutil.copy(bench / "scene-00110.jpg", tmp_path / "photo-7.jpg")
    (tmp_path / "photo-7.json").write_text(json.dumps({"dice": dice}))
    n = judged(tmp_path, range(6, 9))
    assert (n["level"], n["level found"], n["tilted"], n["tilted found"]) == (13, 13, 5, 5)
    assert n["tilted cocked"] >= 2


@pytest.mark.parametrize("script", sorted(p.stem for p in BENCH.glob("*.py") if "pin_one_core()" in p.read_text()))
def test_a_bench_on_one_core_loads_numpy_with_one_blas_thread(script):
    """bench.common asks numpy's BLAS for one thread, but only a BLAS loaded after it hears: loaded before (by cv2,
    say), its second thread ran on the other core, and on a busy machine an (18, 64) by (64, 572) product took
    16 ms, not 0.08."""
    spy = (
        "import builtins, os, sys\n"
        "heard = []\n"
        "load = builtins.__import__\n"
        "def spy(name, *args, **kwargs):\n"
        "    if name.split('.')[0] in ('numpy', 'cv2') and not heard:\n"
        "        heard.append(os.environ.get('OPENBLAS_NUM_THREADS'))\n"
        "    return load(name, *args, **kwargs)\n"
        "builtins.__import__ = spy\n"
        f"sys.path.append({str(BENCH.parent)!r})\n"  # after site-packages: an installed companion stays first
        f"import bench.{script}\n"
        "print(heard[0] if heard else 'no numpy')\n"
    )
    env = {k: v for k, v in os.environ.items() if k not in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS")}
    out = subprocess.run([sys.executable, "-c", spy], cwd=BENCH.parent, env=env, capture_output=True, text=True)
    assert out.stdout.strip() in ("1", "no numpy"), out.stderr


@pytest.mark.parametrize("count", ["0", "-2", "two"])
def test_a_baseline_of_no_photos_is_a_one_line_error(count):
    """The baseline's time is a median over its photos: none gave a traceback ("no median for empty data") after
    every set had been read."""
    done = subprocess.run(
        [sys.executable, str(BENCH / "dice_read.py"), "--baseline-photos", count],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and "--baseline-photos" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize("effect", ["turned", "webcam"])
def test_a_camera_effect_moves_each_dies_truth_with_its_photo(tmp_path, effect):
    """bench/camera_effects.py: a photo turned or shrunk has its dice's centres and corners where the photo puts them
    (a bright square drawn at a die's centre is still under it)."""
    import json

    import cv2

    from bench.camera_effects import taken_with

    photo = np.zeros((720, 1600, 3), np.uint8)
    cv2.rectangle(photo, (1190, 290), (1210, 310), (255, 255, 255), -1)
    die = {"face": "skull", "center": [1200.0, 300.0], "corners": [[1190, 290], [1210, 290], [1210, 310], [1190, 310]]}
    cv2.imwrite(str(tmp_path / "scene-1.jpg"), photo)
    (tmp_path / "scene-1.json").write_text(json.dumps({"dice": [die]}))
    out = taken_with(tmp_path, effect, tmp_path.parent / f"{effect}-taken")
    moved = json.loads((out / "scene-1.json").read_text())["dice"][0]
    gray = cv2.imread(str(out / "scene-1.jpg"), cv2.IMREAD_GRAYSCALE)
    x, y = (int(round(v)) for v in moved["center"])
    assert gray[y, x] > 200 and len(moved["corners"]) == 4
    assert all(
        gray[int(round(cy)), int(round(cx))] > 100
        for cx, cy in np.mean([moved["corners"], [moved["center"]] * 4], axis=0)
    )
