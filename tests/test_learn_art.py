"""The procedural dice art the face embedding is trained on (bench/learn/art.py)."""

import numpy as np

from bench.learn.art import FACE_IDS, PATCH, family, line_kernel, view


def test_a_family_is_18_distinct_pictograms_with_mirrored_limbs():
    art = family(7)
    assert set(art) == set(FACE_IDS)
    for face in (f for f in FACE_IDS if f.startswith("left-")):
        mirror = art[face.replace("left-", "right-")]
        assert not np.array_equal(art[face], mirror)  # never symmetric: handedness must be learned
    flat = {art[f].tobytes() for f in FACE_IDS}
    assert len(flat) == 18


def test_a_seed_gives_the_same_family_and_another_seed_another():
    assert all(np.array_equal(family(3)[f], family(3)[f]) for f in FACE_IDS)
    assert not np.array_equal(family(3)["skull"], family(4)["skull"])


def test_a_view_is_a_normalised_patch_of_the_pictogram():
    rng = np.random.default_rng(1)
    art = family(11)
    patch = view(art["left-hand"], rng, dark_die=True)
    assert patch.shape == (PATCH, PATCH) and abs(float(patch.mean())) < 1e-3 and abs(float(patch.std()) - 1) < 0.01
    # views of one face are nearer each other than to views of its mirror image, on average (one view may lie
    # under a sheen up to white)
    same = [
        (view(art["left-hand"], rng, dark_die=True) * view(art["left-hand"], rng, dark_die=True)).mean()
        for _ in range(10)
    ]
    mirrored = [
        (view(art["left-hand"], rng, dark_die=True) * view(art["right-hand"], rng, dark_die=True)).mean()
        for _ in range(10)
    ]
    assert np.mean(same) > np.mean(mirrored) + 0.03


def test_a_shaken_view_is_smeared_along_one_line():
    kernel = line_kernel(7, 90)
    assert abs(float(kernel.sum()) - 1) < 1e-6 and np.count_nonzero(kernel[:, 3]) == 7  # down the middle column
    assert np.count_nonzero(kernel) == 7
    art = family(11)
    sharp = view(art["skull"], np.random.default_rng(2), dark_die=True)
    shaken = view(art["skull"], np.random.default_rng(2), dark_die=True, shaken=1.0)
    assert shaken.shape == sharp.shape and not np.allclose(shaken, sharp)
