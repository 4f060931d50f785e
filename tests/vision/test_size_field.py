"""The plane of the pieces' sizes over a photo, and the warp that evens it out (companion/vision/size_field.py)."""

import numpy as np
import pytest

from companion.vision.size_field import OTHER_HEIGHT, SizeField, moved

W, H = 1600, 1200


def plane(a, b, c, places):
    return [a + b * (x / W - 0.5) + c * (y / H - 0.5) for x, y in places]


PLACES = [(200, 150), (1400, 200), (800, 600), (300, 1000), (1300, 1050), (700, 300), (1000, 900)]


def test_the_plane_through_the_pieces_sizes_is_found():
    field = SizeField.fit(PLACES, plane(-0.1, 0.3, -0.2, PLACES), W, H)
    assert (field.a, field.b, field.c) == pytest.approx((-0.1, 0.3, -0.2), abs=1e-9)


def test_a_piece_named_wrong_does_not_tilt_the_plane():
    sizes = plane(0.0, 0.0, 0.0, PLACES)
    sizes[2] += 0.5  # a pelvis's outline on a heap twice its size
    field = SizeField.fit(PLACES, [s + 0.01 * (-1) ** k for k, s in enumerate(sizes)], W, H)
    assert abs(field.a) < 0.02 and abs(field.b) < 0.05 and abs(field.c) < 0.05 and not field.uneven


def test_three_pieces_give_one_size_over_the_photo_and_one_none():
    field = SizeField.fit(PLACES[:3], [0.1, -0.12, -0.1], W, H)
    assert (field.a, field.b, field.c) == (-0.1, 0.0, 0.0) and field.uneven
    assert SizeField.fit(PLACES[:1], [0.3], W, H) is None


@pytest.mark.parametrize(
    ("a", "b", "c", "uneven"),
    [
        (0.0, 0.1, 0.1, False),
        (-0.1, 0.0, 0.0, True),
        (0.0, 0.25, 0.0, True),
        (0.05, 0.1, -0.12, False),
        (0.9, 0, 0, False),
    ],
)
def test_a_photo_is_warped_only_where_a_camera_would_size_its_pieces_so(a, b, c, uneven):
    assert SizeField(a, b, c, W, H).uneven is uneven


@pytest.mark.parametrize(("x", "y"), [(100, 100), (1500, 150), (800, 600), (200, 1100), (1500, 1100)])
def test_the_warp_gives_each_place_its_pieces_enrolled_size(x, y):
    field = SizeField(-0.12, 0.3, -0.15, W, H)
    warp, (width, height) = field.evening()
    step = 5.0
    square = moved(np.array([[x, y], [x + step, y], [x, y + step]]), warp)
    (ux, uy), (vx, vy) = square[1] - square[0], square[2] - square[0]
    area = abs(ux * vy - uy * vx) / step**2
    expected = np.exp(-(field.a + field.b * (x / W - 0.5) + field.c * (y / H - 0.5)))
    assert np.sqrt(area) == pytest.approx(expected, rel=0.03)
    corners = moved(np.array([[0, 0], [W, 0], [W, H], [0, H]]), warp)
    assert corners.min() > -1 and corners[:, 0].max() < width + 1 and corners[:, 1].max() < height + 1


def rectangles_seen(warp: np.ndarray) -> list[np.ndarray]:
    """Four graves, rectangles on a board, as a camera whose view of the board is ``warp`` sees them."""
    rectangles = [
        [(100, 80), (700, 80), (700, 500)],
        [(900, 80), (1500, 80), (1500, 500)],
        [(100, 700), (700, 700), (700, 1100)],
        [(900, 700), (1500, 700), (1500, 1100)],
    ]
    return [moved(np.array([a, b, c, (a[0], c[1])], np.float64), warp) for a, b, c in rectangles]


@pytest.mark.parametrize(("b", "c"), [(-0.3, 0.0), (0.2, -0.15), (0.0, 0.25)])
def test_graves_drawn_as_rectangles_say_the_cameras_tilt(b, c):
    """A board seen tilted: the sizes it shows are a plane's, and its rectangles' vanishing line says which."""
    board_to_photo = np.linalg.inv(SizeField(0.0, b, c, W, H).evening()[0])
    field = SizeField.tilt_of(rectangles_seen(board_to_photo), W, H)
    assert (field.a, field.b, field.c) == pytest.approx((0.0, b, c), abs=0.01)
    levelled = field.levelled(
        [-0.1 + field.b * (x / W - 0.5) + field.c * (y / H - 0.5) for x, y in PLACES[:2]], PLACES[:2]
    )
    assert levelled.a == pytest.approx(-0.1)
    assert field.levelled([0.3], PLACES[:1]) == field  # one piece says no level: the enrollment's height


def test_graves_not_drawn_as_rectangles_say_no_tilt():
    straight = rectangles_seen(np.eye(3))
    assert SizeField.tilt_of(straight, W, H).uneven is False
    skewed = [straight[0], straight[1] + [[0, 0], [0, 0], [0, 120], [0, -40]]]  # a trapezoid beside a rectangle
    assert SizeField.tilt_of(skewed, W, H) is None
    assert SizeField.tilt_of(straight[:1], W, H) is None  # one grave: nothing to agree with
    assert SizeField.tilt_of([np.array([(0, 0), (400, 0), (200, 300)])] * 3, W, H) is None  # triangles


def test_a_sure_tilt_evens_a_photo_where_level_and_tilt_add_up_on_the_graves():
    """The camera a little high and a little tilted: neither alone is a camera's doing, but a grave at the far edge
    shows its pieces 10 % small (board 18102, fresh: a leg read as an arm there, without a flag)."""
    field = SizeField(-0.056, 0.0, -0.128, W, H)
    assert not field.uneven
    assert field.uneven_at(np.array([[200.0, 1100.0], [1400.0, 1150.0]]))
    assert not field.uneven_at(np.array([[800.0, 600.0]]))


@pytest.mark.parametrize(("b", "c"), [(0.2, 0.0), (0.0, -0.2), (0.12, 0.12)])
def test_a_tilt_spread_this_much_over_the_graves_is_evened_whatever_the_level(b, c):
    """The reader then measures the level with the outlines alone: that first reading is never the one kept."""
    corners = np.array([[100.0, 80.0], [1500.0, 80.0], [1500.0, 1100.0], [100.0, 1100.0]])
    tilt = SizeField(0.0, b, c, W, H)
    assert tilt.spread_at(corners) >= 2 * OTHER_HEIGHT
    assert all(SizeField(a, b, c, W, H).uneven_at(corners) for a in np.linspace(-0.6, 0.6, 25))
