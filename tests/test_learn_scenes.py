"""The procedural table photos the finder and refiner are trained on (bench/learn/scenes.py): dice as cubes."""

import numpy as np

from bench.learn.scenes import _cube, _quad, scene


def test_a_level_die_seen_straight_down_shows_its_top_alone_where_the_flat_square_is():
    faces, _ = _cube(np.array([50.0, 40.0]), 30, 20, 0, 0, np.zeros(2))
    assert len(faces) == 1
    quad, normal = faces[0]
    assert np.allclose(quad, _quad(np.array([50.0, 40.0]), 30, 20), atol=1e-4)
    assert np.allclose(normal, [0, 0, 1])


def test_a_level_die_a_little_off_the_cameras_axis_shows_one_or_two_sides_on_that_side():
    faces, _ = _cube(np.array([0.0, 0.0]), 30, 10, 0, 0, np.array([0.2, 0.0]))  # higher points move right
    assert 2 <= len(faces) <= 3
    sides = [quad.mean(axis=0) for quad, _ in faces[1:]]
    assert all(centre[0] < 0 for centre in sides)  # the sides show below the top: on the side away from the shift


def test_a_cocked_die_shows_its_top_foreshortened_by_the_lean_and_a_big_side():
    faces, _ = _cube(np.array([0.0, 0.0]), 30, 0, 40, 0, np.zeros(2))  # leaning 40 degrees towards +x
    top, normal = faces[0]
    width, height = np.ptp(top[:, 0]), np.ptp(top[:, 1])
    assert abs(width - 30 * np.cos(np.radians(40))) < 0.01 and abs(height - 30) < 0.01
    assert normal[0] > 0.6  # the top tips towards the lean
    side_area = max(abs(float(np.linalg.det(np.stack([q[1] - q[0], q[3] - q[0]])))) for q, _ in faces[1:])
    assert side_area > 0.6 * 30 * 30 * np.sin(np.radians(40))


def test_a_scene_labels_cocked_dice_and_dice_they_cover_as_not_level():
    levels = [die["level"] for seed in range(40) for die in scene(seed, 128, 32.0)[1]]
    assert 0.6 < np.mean(levels) < 0.95  # most dice level, some cocked or covered by one leaning on them


def test_a_dies_body_shows_beyond_its_top_where_the_camera_and_the_lean_put_it():
    _, level = _cube(np.zeros(2), 30, 10, 0, 0, np.array([0.2, 0.0]))
    assert np.allclose(level, [-3.0, 0.0])  # half a side down: the camera's shift of it, back
    _, cocked = _cube(np.zeros(2), 30, 10, 30, 0, np.zeros(2))
    assert np.allclose(cocked, [-15 * np.sin(np.radians(30)), 0.0])  # away from the lean


def test_some_scenes_are_dim_rooms_and_black_mats():
    """Black dice on a black mat in a dim room: the picture sinks towards the camera's noise."""
    means = [float(scene(seed, 128, 32.0)[0].mean()) for seed in range(60)]
    assert min(means) < 25 and max(means) > 120
