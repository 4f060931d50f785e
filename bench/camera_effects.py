"""The dice reader on its sets as another camera would take them: sharpened, coarse JPEG, noisy, dim, a stop over,
hazy, a lamp's or a tube's colour, a lamp's glare, a 720p or a VGA webcam, vignetting, shaken, a quarter turn round.

Each effect is applied to every photo of a set, its enrollment frames too (one camera), or with --photos-only to the
photos alone (enrolled in one light, played in another), and the set is enrolled and read as bench/dice_read.py reads
it (without its baseline). Prints, per effect, the level dice right / misread / cocked dice read / perfect photos
summed over the sets, against the sets as drawn in the same run. A misread is a wrong score without a word: the
figure to watch (docs/vision.md, session 61).
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import pin_one_core  # noqa: E402  (first: it sets one BLAS thread before numpy loads)

# isort: split
import cv2  # noqa: E402
import numpy as np  # noqa: E402

from bench.learn.art import line_kernel  # noqa: E402

SETS = ("table-gingham", "table-busy", "table-family-black", "table-family-ivory", "table-family-blue", "blender")
WEBCAM_WIDTHS = {"webcam": 1280, "vga": 640}  # px: a 720p camera; an old webcam's


def _sharpen(im: np.ndarray, rng) -> np.ndarray:  # a phone's unsharp mask
    return cv2.addWeighted(im, 2.0, cv2.GaussianBlur(im, (0, 0), 1.5), -1.0, 0)


def _jpeg(im: np.ndarray, rng) -> np.ndarray:
    return cv2.imdecode(cv2.imencode(".jpg", im, [cv2.IMWRITE_JPEG_QUALITY, 40])[1], cv2.IMREAD_COLOR)


def noisy(im: np.ndarray, rng, gain: float = 1.0, sigma: float = 8.0) -> np.ndarray:
    """The photo exposed at ``gain``, with the sensor's noise (``sigma`` grey levels) added after."""
    return np.clip(im * gain + rng.normal(0, sigma, im.shape), 0, 255).astype(np.uint8)


def _dim(im: np.ndarray, rng) -> np.ndarray:  # 1.5 stops under, the sensor's noise as at full exposure
    return noisy(im, rng, 0.35)


def _dark(im: np.ndarray, rng) -> np.ndarray:  # 1.5 stops under, no noise
    return noisy(im, rng, 0.35, 0.0)


def _bright(im: np.ndarray, rng) -> np.ndarray:  # a stop over: light dice and paper blown out to white
    return noisy(im, rng, 2.0, 0.0)


def _hazy(im: np.ndarray, rng) -> np.ndarray:  # half the contrast: a lamp's flare, a dusty lens
    return (0.5 * im + 100).astype(np.uint8)


def _glare(im: np.ndarray, rng) -> np.ndarray:  # a fixed lamp's reflection on a glossy mat: a soft white blot
    h, w = im.shape[:2]
    y, x = np.mgrid[0:h, 0:w]
    cx, cy, r = 0.42 * w, 0.45 * h, 0.12 * w
    blot = 160 * np.exp(-((x - cx) ** 2 + (y - cy) ** 2) / (2 * r * r))
    return np.clip(im + blot[..., None], 0, 255).astype(np.uint8)


def _green(im: np.ndarray, rng) -> np.ndarray:  # an old fluorescent tube, the white balance not set for it
    return np.clip(im * np.array([0.8, 1.15, 0.75]), 0, 255).astype(np.uint8)


def _warm(im: np.ndarray, rng) -> np.ndarray:  # a tungsten lamp, the white balance not set for it
    return np.clip(im * np.array([0.7, 0.95, 1.2]), 0, 255).astype(np.uint8)


def _vignette(im: np.ndarray, rng) -> np.ndarray:  # 35 % darker in the corners
    h, w = im.shape[:2]
    y, x = np.mgrid[0:h, 0:w]
    fall = 1 - 0.35 * (((x - w / 2) / (w / 2)) ** 2 + ((y - h / 2) / (h / 2)) ** 2) / 2
    return np.clip(im * fall[..., None], 0, 255).astype(np.uint8)


def _shaken(length: int) -> Callable:
    def shaken(im: np.ndarray, rng) -> np.ndarray:  # the camera moved along a line while the shutter was open
        return cv2.filter2D(im, -1, line_kernel(length, 0))

    return shaken


def _webcam_scale(width: int, webcam: str) -> float:
    return min(1.0, WEBCAM_WIDTHS[webcam] / width)


def _webcam(webcam: str) -> Callable:
    def taken(im: np.ndarray, rng) -> np.ndarray:
        scale = _webcam_scale(im.shape[1], webcam)
        return cv2.resize(im, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)

    return taken


def _turned(im: np.ndarray, rng) -> np.ndarray:  # the camera mounted a quarter turn round
    return cv2.rotate(im, cv2.ROTATE_90_CLOCKWISE)


EFFECTS: dict[str, Callable] = {
    "sharpen": _sharpen,
    "jpeg40": _jpeg,
    "noise": noisy,
    "dark": _dark,
    "dim": _dim,
    "bright": _bright,
    "hazy": _hazy,
    "warm": _warm,
    "green": _green,
    "glare": _glare,
    "vignette": _vignette,
    **{webcam: _webcam(webcam) for webcam in WEBCAM_WIDTHS},
    "turned": _turned,
    "shaken3": _shaken(3),
    "shaken5": _shaken(5),
    "shaken7": _shaken(7),
}


def _moved_points(effect: str, shape: tuple[int, ...]) -> Callable[[np.ndarray], np.ndarray]:
    """Where a truth's points (n, 2) lie in the photo the effect made of one ``shape`` big."""
    if effect in WEBCAM_WIDTHS:
        scale = _webcam_scale(shape[1], effect)
        return lambda p: p * scale
    if effect == "turned":
        return lambda p: np.stack([shape[0] - 1 - p[:, 1], p[:, 0]], axis=1)
    return lambda p: p


def _truth_moved(truth, move: Callable[[np.ndarray], np.ndarray]):
    if isinstance(truth, dict):
        return {
            key: (
                move(np.asarray(value, float).reshape(-1, 2)).reshape(np.shape(value)).round(2).tolist()
                if key in ("center", "corners")
                else _truth_moved(value, move)
            )
            for key, value in truth.items()
        }
    if isinstance(truth, list):
        return [_truth_moved(value, move) for value in truth]
    return truth


def taken_with(folder: Path, effect: str, out: Path, photos_only: bool = False) -> Path:
    """A copy of the set at ``out``, its photos (and enrollment frames, unless ``photos_only``) through ``effect``."""
    rng = np.random.default_rng(1)
    for path in sorted(folder.rglob("*")):
        if path.is_dir():
            continue
        target = out / path.relative_to(folder)
        target.parent.mkdir(parents=True, exist_ok=True)
        changed = not (photos_only and "enroll" in path.relative_to(folder).parts)
        if changed and path.suffix == ".jpg":
            cv2.imwrite(str(target), EFFECTS[effect](cv2.imread(str(path)), rng), [cv2.IMWRITE_JPEG_QUALITY, 92])
        elif changed and path.suffix == ".json" and path.with_suffix(".jpg").is_file():
            shape = cv2.imread(str(path.with_suffix(".jpg"))).shape
            target.write_text(json.dumps(_truth_moved(json.loads(path.read_text()), _moved_points(effect, shape))))
        else:
            shutil.copy(path, target)
    return out


def main() -> None:
    import argparse

    from bench.dice_read import DATA, evaluate, set_folder

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sets", nargs="+", default=list(SETS), help="bench sets (default: %(default)s)")
    parser.add_argument("--effects", nargs="+", default=list(EFFECTS), choices=list(EFFECTS), metavar="EFFECT")
    parser.add_argument("--photos-only", action="store_true", help="the enrollment frames as drawn")
    args = parser.parse_args()
    pin_one_core()
    from companion.errors import BadInput

    work = Path(tempfile.mkdtemp())
    folders = {name: set_folder(DATA, name) for name in args.sets}
    for effect in ["as drawn"] + args.effects:
        dice = right = misread = cocked = perfect = photos = 0
        refused = []
        for name, folder in folders.items():
            taken = (
                folder if effect == "as drawn" else taken_with(folder, effect, work / effect / name, args.photos_only)
            )
            try:
                r = evaluate(taken, 0)
            except BadInput as error:
                refused.append(f"{name}: {error}")
                continue
            dice += r["dice"]
            right += round(r["correct"] * r["dice"])
            misread += round(r["misread"] * r["dice"])
            cocked += r["cocked_read"]
            perfect += round(r["perfect"] * r["photos"])
            photos += r["photos"]
        print(
            f"{effect:9s} level dice right {right} of {dice}, misread {misread}, cocked dice read {cocked}, "
            f"perfect photos {perfect} of {photos}" + (f"; refused: {'; '.join(refused)}" if refused else ""),
            flush=True,
        )
        if effect != "as drawn":
            shutil.rmtree(work / effect, ignore_errors=True)


if __name__ == "__main__":
    main()
