"""The counting shortcuts of edges.py and the mask's hole filling, held to the slow exact forms they replace."""

import cv2
import numpy as np
import pytest

from companion.vision.edges import percentile_at_least
from companion.vision.pieces import _fill_small_holes, _median_of_bytes


@pytest.mark.parametrize("seed", range(40))
def test_percentile_at_least_says_what_the_percentile_says(seed):
    rng = np.random.default_rng(seed)
    values = rng.integers(0, 20, rng.integers(1, 300)).astype(np.float32) / 2  # many ties, as slopes have
    for bar in (0.5, 4.0, 8.0, 9.5):
        for percent in (50, 90, 98, 100):
            assert percentile_at_least(values, percent, bar) == (np.percentile(values, percent) >= bar)


def _filled_by_labelling(mask: np.ndarray, most: int) -> np.ndarray:
    n, labels, stats, _ = cv2.connectedComponentsWithStats(255 - mask, connectivity=4)
    small = np.zeros(n, bool)
    small[1:] = stats[1:, cv2.CC_STAT_AREA] < most
    out = mask.copy()
    out[small[labels]] = 255
    return out


@pytest.mark.parametrize("seed", range(20))
def test_small_holes_are_filled_as_labelling_the_background_fills_them(seed):
    rng = np.random.default_rng(seed)
    mask = np.zeros((120, 160), np.uint8)
    for _ in range(12):  # blobs with holes of every size, islands in holes, pockets at the edge
        x, y = rng.integers(-10, 160), rng.integers(-10, 120)
        cv2.circle(mask, (int(x), int(y)), int(rng.integers(4, 30)), 255, -1)
        cv2.circle(mask, (int(x), int(y)), int(rng.integers(1, 12)), 0, -1)
        cv2.circle(mask, (int(x), int(y)), int(rng.integers(0, 3)), 255, -1)
    mask[rng.random(mask.shape) < 0.03] = 0  # speckle: one-px holes
    expected = _filled_by_labelling(mask, 60)
    _fill_small_holes(mask, 60)
    assert np.array_equal(mask, expected)


@pytest.mark.parametrize("size", [1, 2, 7, 64, 1001])
def test_the_median_of_bytes_is_numpys(size):
    rng = np.random.default_rng(size)
    image = rng.integers(0, 40, (size, 3)).astype(np.uint8)
    assert _median_of_bytes(image) == np.median(image)
