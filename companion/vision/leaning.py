"""Lean: which dice show their body where no level die at their place in the photo would.

A camera a little off a die's axis shows its sides: how much, and which way, changes smoothly
across the photo (the camera's tilt, and its lens's perspective towards the photo's edges). A die
on its own cannot tell a level die far out in the photo from a cocked one: both show a big side.
The photo can: each die's body (its centre, as the refiner places it from the top face's) should
lie where the photo's other level dice say, an affine field of the place in the photo. A cocked
die's body lies off it by half a side times the sine of its lean (0.10 of a side at 12 degrees).
"""

from __future__ import annotations

import numpy as np

from .refining import Refined

FIELD_DICE = 4  # dice the refiner calls level needed to fit the field; fewer: their median body, everywhere
OUTLIER = 2.5  # dice further off the first fit than this many times its median miss are left out of the second
OUTLIER_FLOOR = 0.08  # sides: ... but never one this close to it


def off_the_field(dice: list[Refined], width: int, height: int, level_likely: float) -> list[float]:
    """How far each die's body lies from where the photo's level dice put a level die's, in sides."""
    if not dice:
        return []
    places = np.array([[d.centre[0] / width, d.centre[1] / height, 1.0] for d in dice])
    bodies = np.array([[d.body[0] / d.side, d.body[1] / d.side] for d in dice])
    fitted = np.array([d.level >= level_likely for d in dice])
    if fitted.sum() < FIELD_DICE:
        centre = np.median(bodies[fitted] if fitted.any() else bodies, axis=0)
        return np.linalg.norm(bodies - centre, axis=1).tolist()
    for _ in range(2):  # a fit, then again without the dice far off it (cocked dice the refiner called level)
        field, *_ = np.linalg.lstsq(places[fitted], bodies[fitted], rcond=None)
        miss = np.linalg.norm(bodies - places @ field, axis=1)
        kept = fitted & (miss <= max(OUTLIER_FLOOR, OUTLIER * float(np.median(miss[fitted]))))
        if kept.sum() < FIELD_DICE:
            break
        fitted = kept
    return miss.tolist()
