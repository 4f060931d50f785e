"""The refiner's second look at dice of art it never saw (the repo's own, drawn by the bench's OpenCV renderer)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from bench.render.dice_scene import render_scene, set_camera_height
from bench.truth import true_side, true_turn
from companion.vision.finding import Spot, standardise
from companion.vision.reader import LEVEL_LIKELY
from companion.vision.refining import SURE_LEVEL, _judged, crop, judge_lean, refine

SEED = 900  # the rig (camera height) of every photo here


@pytest.fixture(scope="module")
def level_dice() -> list[tuple[np.ndarray, dict, float, float]]:
    """(grey photo, die, side px, turn degrees) of every level die in four photos of three art styles."""
    out = []
    for seed, style, colouring in ((930, 0, "black"), (931, 3, "ivory"), (932, 4, "black"), (933, 2, "black")):
        photo, truth = render_scene(seed, style=style, colouring=colouring, height_cm=set_camera_height(SEED))
        gray = cv2.cvtColor(photo, cv2.COLOR_BGR2GRAY)
        for die in (d for d in truth["dice"] if not d["cocked"]):
            out.append((gray, die, true_side(die), true_turn(die) % 90))
    return out


def refined_off(level_dice, size: float, turn_off: float, centre_off: float, zoom: float = 1.0):
    """Each die refined from a guess ``centre_off`` sides off its centre and ``turn_off`` degrees off its turn, at
    ``size`` times the dice's middle size, in its photo enlarged ``zoom`` times: (refined side / true side, centre
    error in sides, turn error in degrees), each per die."""
    rng = np.random.default_rng(1)
    guessed = size * float(np.median([side for _, _, side, _ in level_dice]))
    sizes, centres, turns = [], [], []
    for gray, die, side, turn in level_dice:
        photo = gray if zoom == 1.0 else cv2.resize(gray, None, fx=zoom, fy=zoom, interpolation=cv2.INTER_CUBIC)
        centre = (die["center"][0] * zoom, die["center"][1] * zoom)
        a = rng.uniform(0, 2 * np.pi)
        guess = (centre[0] + centre_off * side * np.cos(a), centre[1] + centre_off * side * np.sin(a))
        (got,) = refine(photo, [Spot(guess, (turn + turn_off) % 90, 1.0, True)], guessed)
        sizes.append(got.side / side)
        centres.append(np.hypot(got.centre[0] - centre[0], got.centre[1] - centre[1]) / (side * zoom))
        turns.append(abs((got.turn - turn + 45) % 90 - 45))
    return np.array(sizes), np.array(centres), np.array(turns)


def test_a_die_guessed_too_small_or_too_big_is_refined_to_one_size(level_dice):
    """Faces are compared with the enrolled ones at one size: a die's refined size must not depend on the guess
    (the finder knows one size a set)."""
    small, _, _ = refined_off(level_dice, 0.82, 0.0, 0.0)
    big, _, _ = refined_off(level_dice, 1.18, 0.0, 0.0)
    assert np.median(np.abs(np.log(small / big))) < 0.05  # the guesses are 0.36 apart (log)


def test_a_bigger_die_is_refined_bigger(level_dice):
    """The dice here are all of a size (within 4 %): the photo enlarged 1.25 times, guessed at the same size."""
    as_taken, _, _ = refined_off(level_dice, 1.0, 0.0, 0.0)
    enlarged, _, _ = refined_off(level_dice, 1.0, 0.0, 0.0, zoom=1.25)
    assert abs(np.median(np.log(enlarged / as_taken)) - np.log(1.25)) < 0.05


def test_a_die_guessed_off_its_centre_is_put_back(level_dice):
    _, centres, _ = refined_off(level_dice, 1.0, 0.0, 0.15)
    assert np.median(centres) < 0.06 and np.percentile(centres, 90) < 0.1, centres


def test_a_die_guessed_turned_is_squared_up(level_dice):
    _, _, turns = refined_off(level_dice, 1.0, 7.0, 0.0)
    assert np.median(turns) < 2.0 and np.percentile(turns, 90) < 4.0, turns


def test_two_spots_refined_onto_one_die_are_one_die():
    """The reader looks again at faint spots: two faint peaks on one die must not be read as two dice."""
    from companion.vision.reader import _one_a_die
    from companion.vision.refining import Refined

    spot = Spot((100.0, 100.0), 10.0, 0.2, True)
    one = Refined((100.0, 100.0), 10.0, 40.0, 0.9, 0.99)
    again = Refined((104.0, 97.0), 11.0, 41.0, 0.9, 0.8)  # the same die from a second spot
    neighbour = Refined((141.0, 100.0), 10.0, 40.0, 0.9, 0.95)  # the die against it
    kept = _one_a_die([(spot, again), (spot, one), (spot, neighbour)])
    assert [face for _, face in kept] == [one, neighbour]


def test_the_lean_judge_says_the_same_of_a_window_turned(level_dice):
    """It judges each window at two or four quarter turns: turned half a turn, a window is judged alike, its body
    turned with it; turned a quarter, alike within what two looks differ by."""
    windows = np.stack([standardise(crop(gray, die["center"], turn, side)[0]) for gray, die, side, turn in level_dice])
    said = judge_lean(windows[:, None])
    half = judge_lean(np.rot90(windows[:, None], 2, axes=(2, 3)))
    assert np.allclose(half[:, 4], said[:, 4], atol=1e-4)
    assert np.allclose(half[:, 6:8], -said[:, 6:8], atol=1e-4)
    quarter = judge_lean(np.rot90(windows[:, None], 1, axes=(2, 3)))
    assert np.allclose(likely(quarter[:, 4]), likely(said[:, 4]), atol=0.1)
    # a point at (x, y) from a window's centre lies at (y, -x) in it turned a quarter (np.rot90, y down)
    assert np.allclose(quarter[:, 6:8], np.stack([said[:, 7], -said[:, 6]], axis=1), atol=0.08)


def test_a_die_two_looks_are_sure_of_is_judged_as_four_would(level_dice):
    """Two looks, half a turn apart, where they call a die SURE_LEVEL level or cocked; all four where not: the level
    call is four looks' and the body lies within a fortieth of a window of theirs."""
    windows = np.stack([standardise(crop(gray, die["center"], turn, side)[0]) for gray, die, side, turn in level_dice])
    said = judge_lean(windows[:, None])
    four = _judged(windows[:, None], (0, 1, 2, 3)).mean(axis=0)
    assert ((likely(said[:, 4]) >= LEVEL_LIKELY) == (likely(four[:, 4]) >= LEVEL_LIKELY)).all()
    assert np.abs(said[:, 6:8] - four[:, 6:8]).max() < 0.05
    two = likely(_judged(windows[:, None], (0, 2)).mean(axis=0)[:, 4])
    unsure = (two > 1 - SURE_LEVEL) & (two < SURE_LEVEL)
    assert unsure.any() and np.allclose(said[unsure], four[unsure], atol=1e-4)


def likely(logits: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-logits))


def test_a_stack_of_windows_is_standardised_each_over_itself(level_dice):
    """The networks' windows are standardised as one stack: each as it would be alone, whatever its neighbours'
    exposure (a dim die beside a bright one)."""
    windows = np.stack(
        [
            crop(gray * scale, die["center"], turn, side)[0]
            for (gray, die, side, turn), scale in zip(level_dice[:3], (0.3, 1.0, 2.0))
        ]
    )
    together = standardise(windows)
    for window, alone in zip(windows, together):
        assert np.array_equal(standardise(window), alone)
        assert abs(float(alone.mean())) < 1e-4


@pytest.mark.parametrize("turn", [0.0, 17.0, 63.0, 89.0])
def test_a_place_a_network_names_in_its_window_is_that_place_in_the_photo(turn):
    """The refiner's and the lean judge's places (the top face's, the body's) come in half windows; each die is moved
    to the photo point its window shows there: the inverse of ``crop``'s map, whatever the window's turn."""
    from companion.vision.refining import REFINER_VIEW, Refined, _moved

    photo = np.zeros((400, 400), np.uint8)
    die = Refined((180.0, 210.0), turn, 40.0, 1.0, 1.0)
    half = REFINER_VIEW.px / 2
    _, to_window = crop(photo, die.centre, die.turn, die.side)
    places = [(195.0, 200.0), (170.5, 222.0), (180.0, 210.0)]
    rows = []
    for x, y in places:
        wx, wy = to_window((x, y))
        rows.append([(wx - half) / half, (wy - half) / half, 0.0, 0.0, 0.0, 0.0, (wx - half) / half, 0.0])
    moved = _moved([die] * len(places), np.array(rows), REFINER_VIEW)
    for (x, y), got in zip(places, moved):
        assert got.centre == pytest.approx((x, y), abs=1e-6)
        assert got.side == die.side and got.turn == pytest.approx(turn) and got.level == 0.5
    # the body's place is a step from the top face's: turned and scaled back, not moved
    (x, y), (bx, by) = places[0], moved[0].body
    step_x, step_y = np.subtract(to_window((x + bx, y + by)), to_window((x, y)))
    assert (step_x, step_y) == pytest.approx((rows[0][6] * half, 0.0), abs=1e-6)
