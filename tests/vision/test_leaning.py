"""Lean: a die whose body shows where the photo's level dice say no level die's would is cocked (leaning.py)."""

import numpy as np

from companion.vision.leaning import off_the_field
from companion.vision.refining import Refined

SIDE = 40.0
WIDTH, HEIGHT = 2000, 1200


def die(x: float, y: float, body: tuple[float, float], level: float = 0.95) -> Refined:
    return Refined((x, y), 0.0, SIDE, level, 0.99, (body[0] * SIDE, body[1] * SIDE))


def perspective(x: float, y: float) -> tuple[float, float]:
    """A camera above the photo's centre: a level die's body shows towards it, more the further out it lies."""
    return (-0.3 * (x / WIDTH - 0.5), -0.3 * (y / HEIGHT - 0.5))


def test_level_dice_far_out_in_the_photo_lie_on_the_field_and_a_leaning_die_does_not():
    rng = np.random.default_rng(3)
    places = rng.uniform(0, 1, (12, 2)) * (WIDTH, HEIGHT)
    dice = [die(x, y, perspective(x, y)) for x, y in places]
    x, y = places[0]
    lean = np.sin(np.radians(20)) / 2  # half a side times the lean's sine
    dice[0] = die(x, y, (perspective(x, y)[0] + lean, perspective(x, y)[1]), level=0.9)  # the refiner misses it
    miss = off_the_field(dice, WIDTH, HEIGHT, 0.5)
    assert abs(miss[0] - lean) < 0.02
    assert max(miss[1:]) < 0.01  # the big sides far out are the camera's, not a lean


def test_with_few_level_dice_the_field_is_their_median_body():
    dice = [die(100, 100, (0.05, 0.0)), die(900, 500, (0.06, 0.0)), die(500, 300, (0.05, 0.2))]
    miss = off_the_field(dice, WIDTH, HEIGHT, 0.5)
    assert miss[0] < 0.02 and miss[1] < 0.02 and abs(miss[2] - 0.2) < 0.02
    assert off_the_field([], WIDTH, HEIGHT, 0.5) == []
