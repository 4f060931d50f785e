"""Enrolling dice from the table camera's whole frames: the mat, its markers and words, a patterned table round it."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from bench.camera_effects import noisy
from bench.render.dice_scene import IMAGE_W, Rig
from companion.games.rolling_bones.dice import FACE_IDS
from companion.vision.die_frames import where_dice_lie
from companion.vision.reader import BARE_MAT, DiceReader

from .test_reader import tally

JPEG_92 = [cv2.IMWRITE_JPEG_QUALITY, 92]
GINGHAM = Rig(66000, style=2, colouring="black", table="gingham", printed=True)


def frames(rig: Rig, faces: list[str], first: int) -> list[tuple[np.ndarray, list[float]]]:
    """Whole frames of one die each (grey) and where its top face's centre lies."""
    out = []
    for k, face in enumerate(faces):
        photo, truth = rig.frame(first + k, face)
        out.append((cv2.cvtColor(photo, cv2.COLOR_BGR2GRAY), truth["center"]))
    return out


@pytest.fixture(scope="module")
def gingham_frames():
    return frames(GINGHAM, FACE_IDS[:6], 100)


def test_a_fixed_cameras_frames_say_where_each_die_lies(gingham_frames):
    """Each frame against the others' median (the bare mat and cloth): the die is where it differs, a die's size
    across; the finder still looks at the whole frame, as it will when reading."""
    for (gray, centre), where in zip(gingham_frames, where_dice_lie([g for g, _ in gingham_frames])):
        assert where.gray is gray and 0 < where.reach < 0.05 * IMAGE_W
        assert np.hypot(where.place[0] - centre[0], where.place[1] - centre[1]) < where.reach


def test_a_frame_of_the_bare_mat_is_said_to_show_no_die(gingham_frames):
    bare, _ = GINGHAM.photo([], 999)
    grays = [g for g, _ in gingham_frames] + [cv2.cvtColor(bare, cv2.COLOR_BGR2GRAY)]
    assert [where.no_die for where in where_dice_lie(grays)] == [False] * 6 + [True]


def dimmed(gray: np.ndarray, seed: int) -> np.ndarray:
    """A dim room's frame: exposed at a third, with the sensor's noise."""
    return noisy(gray, np.random.default_rng(seed), 0.35, 6.0)


def test_a_dim_rooms_frames_still_say_where_each_die_lies():
    """Red dice on a busy cloth, the frames a third as bright: a die then differs from its mat by 10-12 grey levels,
    not 30-50; the bar follows the frames' white, so the dice are not taken for the bare mat (nor the noise for dice)."""
    rig = Rig(66200, style=0, colouring="red", table="contours")
    shot = frames(rig, FACE_IDS[:6], 100)
    bare, _ = rig.photo([], 999)
    grays = [dimmed(g, k) for k, (g, _) in enumerate(shot)] + [dimmed(cv2.cvtColor(bare, cv2.COLOR_BGR2GRAY), 9)]
    looked = where_dice_lie(grays)
    assert [where.no_die for where in looked] == [False] * 6 + [True]
    for (_, centre), where in zip(shot, looked):
        assert np.hypot(where.place[0] - centre[0], where.place[1] - centre[1]) < where.reach


def test_a_frame_with_two_dice_is_left_to_the_finder(gingham_frames):
    """Two places changed: no one place to look in, so the finder looks everywhere (and finds two dice)."""
    from bench.render.dice_scene import Die

    two, _ = GINGHAM.photo([Die("hat", 800, 500, 10), Die("skull", 1600, 900, 30)], 998)
    grays = [g for g, _ in gingham_frames] + [cv2.cvtColor(two, cv2.COLOR_BGR2GRAY)]
    last = where_dice_lie(grays)[-1]
    assert last.place is None and not last.no_die


def test_frames_of_a_moving_camera_are_looked_in_on_the_mat_only():
    """Each frame from another rig (no median to compare with): the mat's markers say where the mat is, and all off
    it, the markers too, is painted over in the mat's tone."""
    moved = [frames(Rig(67000 + k, table="contours"), [face], 0)[0] for k, face in enumerate(FACE_IDS[:5])]
    for (gray, (x, y)), where in zip(moved, where_dice_lie([g for g, _ in moved])):
        assert where.place is None and where.gray.shape == gray.shape
        corner = where.gray[:60, :60]
        assert corner.std() < 3  # the busy table round the mat: painted over
        x, y = int(x), int(y)
        assert np.array_equal(where.gray[y - 10 : y + 10, x - 10 : x + 10], gray[y - 10 : y + 10, x - 10 : x + 10])


@pytest.mark.parametrize("hidden", [(), (2,), (1, 2)])
def test_the_mats_edge_is_placed_by_its_markers_even_with_dice_on_some(hidden):
    """The mat's edge from its markers' centres (hardware/make_mat.py's layout) against the renderer's own: within
    a few px with all four seen, within its stated give with one or two under dice."""
    import companion.vision.board as board

    photo, H = GINGHAM.photo([], 5)
    gray = cv2.cvtColor(photo, cv2.COLOR_BGR2GRAY)
    for i in hidden:
        _cover_marker(gray, i, 220)
    mat = board.mat_outline(gray)
    assert len(mat.markers) == 4 - len(hidden)
    off = float(np.abs(mat.edge - _true_edge(H)).max())
    assert off < (4 if not hidden else mat.give), (off, mat.give)


def _cover_marker(gray: np.ndarray, i: int, grey: int) -> None:
    """A die laid over the mat's marker ``i`` in ``gray``: the marker is not seen."""
    import companion.vision.board as board

    x, y = board.markers_seen(gray, 2)[i].mean(axis=0).astype(int)
    gray[y - 70 : y + 70, x - 70 : x + 70] = grey


def _true_edge(H: np.ndarray) -> np.ndarray:
    """The renderer's mat's corners in the photo (its canvas, PX_PER_MM, through the homography ``H``)."""
    from bench.render.dice_scene import MAT_MM, PX_PER_MM

    w, h = MAT_MM[0] * PX_PER_MM, MAT_MM[1] * PX_PER_MM
    return cv2.perspectiveTransform(np.float32([[[0, 0], [w, 0], [w, h], [0, h]]]), H)[0]


@pytest.mark.parametrize("table", [None, "gingham", "wood", "contours"])
@pytest.mark.parametrize("printed", [False, True])
def test_the_mats_edge_is_found_where_the_photo_shows_it_end(table, printed):
    """A mat whose markers are printed otherwise (the renderer's felt mat: 32 mm codes 5 mm in, not make_mat.py's 40
    mm, 20 mm in) has its edge a marker's side past their centres 7 mm out on the table; it is found where the mat's
    tone ends instead, on a plain, gingham, wood or busy table; our printed mat's edge stays where it is printed."""
    import companion.vision.board as board

    photo, H = Rig(66020, table=table, printed=printed).photo([], 5)
    mat = board.mat_outline(cv2.cvtColor(photo, cv2.COLOR_BGR2GRAY))
    assert len(mat.markers) == 4
    assert float(np.abs(mat.edge - _true_edge(H)).max()) < 4


def test_with_a_marker_hidden_a_side_whose_edge_is_seen_gives_little():
    """Placed by three markers the edge may be off by MAT_GIVE of the mat's width; where the photo shows a side's
    edge (a busy cloth round the felt) only by MAT_GIVE_SEEN: a squiggle on the cloth past it is off the mat."""
    import companion.vision.board as board

    photo, H = Rig(66020, table="contours").photo([], 5)
    gray = cv2.cvtColor(photo, cv2.COLOR_BGR2GRAY)
    _cover_marker(gray, 2, 90)  # the bottom right one
    seen = board.SeenMat(gray)
    mat = seen.outline
    width = float(np.linalg.norm(mat.edge[1] - mat.edge[0]))
    assert len(mat.markers) == 3 and mat.gives == pytest.approx([board.MAT_GIVE_SEEN * width] * 4)
    right = _true_edge(H)[1:3].mean(axis=0)  # the middle of the mat's right side
    assert seen.holds(right + [0.005 * width, 0]) and not seen.holds(right + [0.03 * width, 0])


def test_with_a_marker_hidden_a_side_between_two_markers_seen_gives_little():
    """Our printed mat on a busy cloth as light as the paper: no side's edge is seen. A side between two markers seen
    lies where they put it (a line maps to a line), so a squiggle past it is off the mat; the two sides through the
    hidden marker give MAT_GIVE of the mat's width."""
    import companion.vision.board as board

    photo, H = Rig(71700, table="contours", printed=True).photo([], 5)
    gray = cv2.cvtColor(photo, cv2.COLOR_BGR2GRAY)
    _cover_marker(gray, 0, 255)  # the top left one, under a die
    seen = board.SeenMat(gray)
    mat = seen.outline
    width = float(np.linalg.norm(mat.edge[1] - mat.edge[0]))
    top, right, bottom, left = (g / width for g in mat.gives)
    assert len(mat.markers) == 3 and (right, bottom) == pytest.approx((board.MAT_GIVE_SEEN,) * 2)
    assert top == pytest.approx(board.MAT_GIVE) and left == pytest.approx(board.MAT_GIVE)
    corners = _true_edge(H)
    for a, b in ((1, 2), (2, 3)):  # the middles of the right and bottom sides, and a squiggle 3 % of the width past
        middle = corners[[a, b]].mean(axis=0)
        outward = middle - corners.mean(axis=0)
        outward /= np.linalg.norm(outward)
        assert seen.holds(middle) and not seen.holds(middle + 0.03 * width * outward)


def test_on_a_table_of_the_mats_own_tone_the_printed_edge_is_kept():
    """Our paper mat on a table as white as it (make_mat.py's print, square on): no edge to see but its printed
    border line and words, which are no edge either; the edge is where it is printed."""
    import companion.vision.board as board
    from hardware.make_mat import mat

    pad = 150
    paper = cv2.copyMakeBorder(mat(), pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=255)
    h, w = paper.shape[0] - 2 * pad, paper.shape[1] - 2 * pad
    truth = np.float32([[pad, pad], [pad + w, pad], [pad + w, pad + h], [pad, pad + h]]) - 0.5
    assert float(np.abs(board.mat_outline(paper).edge - truth).max()) < 3


def test_a_spot_on_a_mat_marker_is_known_from_the_mats_outline_when_all_four_are_seen():
    """With the four markers seen, a spot on one is on a marker, a spot on the mat is not (no second search); with
    one under a die, the mat cannot say (the reader looks round the spot itself)."""
    import companion.vision.board as board

    photo, _ = GINGHAM.photo([], 5)
    gray = cv2.cvtColor(photo, cv2.COLOR_BGR2GRAY)
    centres = {i: c.mean(axis=0) for i, c in board.markers_seen(gray, 2).items()}
    seen = board.SeenMat(gray)
    assert seen.on_a_marker(centres[0]) is True
    assert seen.on_a_marker(np.mean(list(centres.values()), axis=0)) is False  # the mat's middle
    _cover_marker(gray, 2, 220)
    assert board.SeenMat(gray).on_a_marker(centres[0]) is None


def test_photos_cut_round_their_die_are_left_as_they_are(gingham_frames):
    crops = [gray[int(y) - 160 : int(y) + 160, int(x) - 160 : int(x) + 160] for gray, (x, y) in gingham_frames]
    for crop, where in zip(crops, where_dice_lie(crops)):
        assert where.gray is crop and where.place is None and not where.no_die


@pytest.mark.slow  # renders 36 whole frames and enrolls from them (about a minute)
def test_dice_enroll_from_whole_frames_on_a_gingham_table(run_cli, tmp_path, monkeypatch):
    """`companion dice enroll DIR --set NAME` on the table camera's own frames, a die anywhere on a printed mat on a
    gingham cloth, then a throw read: every level die right or flagged, none wrong, no flag at no die (the mat's
    printed words, the cloth's squares)."""
    for k, face in enumerate(FACE_IDS):
        (tmp_path / "frames" / face).mkdir(parents=True)
        for j in range(2):
            photo, _ = GINGHAM.frame(1000 + 2 * k + j, face)
            cv2.imwrite(str(tmp_path / "frames" / face / f"{j}.jpg"), photo, [cv2.IMWRITE_JPEG_QUALITY, 90])
    monkeypatch.setenv("COMPANION_MODELS", str(tmp_path / "models"))
    done = run_cli("dice", "enroll", str(tmp_path / "frames"), "--set", "frames")
    assert done.returncode == 0 and "enrolled 18 faces" in done.stdout, done.stderr
    assert DiceReader.load("frames").photos_learned() == {face: 2 for face in sorted(FACE_IDS)}
    photo, truth = GINGHAM.scene(66001)
    cv2.imwrite(str(tmp_path / "throw.jpg"), photo)
    done = run_cli("dice", "read", str(tmp_path / "throw.jpg"), "--set", "frames", "--json")
    counts = tally(json.loads(done.stdout), truth["dice"])
    assert counts["wrong"] == 0 and counts["stray"] == 0 and counts["right"] >= 14, counts


@pytest.mark.slow  # renders 20 whole frames, enrolls from them and reads a throw (about half a minute)
def test_dice_as_faint_as_a_dim_rooms_noise_are_still_taught_from_whole_frames(run_cli, tmp_path, monkeypatch):
    """Blue dice on a dark felt in a dim room differ from the frames' median less than the frames' noise: most frames
    changed nowhere, as the bare mat does (the whole set was refused: "it is the bare mat"). Where the finder is sure
    of a die on the mat it is taken; the bare mat's frame is still left out, and the dice are read."""
    rig = Rig(66500, family=1000005, colouring="blue", table="gingham")
    rng = np.random.default_rng(5)

    def dim(photo: np.ndarray) -> np.ndarray:  # as bench/camera_effects.py's "dim" takes the set's JPEG frames
        return noisy(cv2.imdecode(cv2.imencode(".jpg", photo, [cv2.IMWRITE_JPEG_QUALITY, 90])[1], 1), rng, 0.35)

    for k, face in enumerate(FACE_IDS):
        (tmp_path / "enroll" / face).mkdir(parents=True)
        cv2.imwrite(
            str(tmp_path / "enroll" / face / "00.jpg"), dim(rig.frame(rig.seed * 7 + 1000 + 50 * k, face)[0]), JPEG_92
        )
    bare = tmp_path / "enroll" / FACE_IDS[0] / "01.jpg"
    cv2.imwrite(str(bare), dim(rig.photo([], 999)[0]), JPEG_92)
    grays = [cv2.imread(str(p), cv2.IMREAD_GRAYSCALE) for p in sorted((tmp_path / "enroll").glob("*/*.jpg"))]
    assert sum(where.no_die for where in where_dice_lie(grays)) >= 6  # the dice the frames' change does not show
    monkeypatch.setenv("COMPANION_MODELS", str(tmp_path / "models"))
    done = run_cli("dice", "enroll", "--set", "dim", str(tmp_path / "enroll"))
    assert done.returncode == 0, done.stderr
    left_out = f"warning: left out 1 photo: {bare}: no die found in the photo{BARE_MAT}"
    assert done.stderr.splitlines()[0] == left_out  # (then: each face learned from one photo only)
    photo, truth = rig.scene(rig.seed)
    counts = tally(DiceReader.load("dim").read(dim(photo)), truth["dice"])
    assert counts["wrong"] == counts["stray"] == 0 and counts["right"] >= 0.9 * (counts["right"] + counts["silent"])


@pytest.mark.slow  # renders 19 whole frames, enrolls from them and reads a throw (about half a minute)
def test_a_vga_webcams_small_dice_are_taught_and_read_twice_as_big(run_cli, tmp_path, monkeypatch):
    """A 640 px webcam over the mat shows dice 10-13 px across, under the finder's smallest: the set was refused
    ("expected one die in the photo, found 6": a busy cloth's squiggles at a die's size). Its photos are looked at
    twice as big, enrolled and read so, and the dice placed in the photo as taken; the person is told they are small."""
    rig = Rig(66200, style=0, colouring="red", table="contours")

    def vga(photo: np.ndarray) -> np.ndarray:
        return cv2.resize(photo, None, fx=640 / IMAGE_W, fy=640 / IMAGE_W, interpolation=cv2.INTER_AREA)

    for k, face in enumerate(FACE_IDS):
        (tmp_path / "enroll" / face).mkdir(parents=True)
        cv2.imwrite(str(tmp_path / "enroll" / face / "00.jpg"), vga(rig.frame(rig.seed * 7 + 1000 + 50 * k, face)[0]))
    monkeypatch.setenv("COMPANION_MODELS", str(tmp_path / "models"))
    done = run_cli("dice", "enroll", "--set", "vga", str(tmp_path / "enroll"))
    assert done.returncode == 0, done.stderr
    assert "move the camera closer or raise its resolution" in done.stderr
    reader = DiceReader.load("vga")
    assert reader.zoom == 2 and reader.photo_die_side < 16
    photo, truth = rig.scene(rig.seed)
    reading = reader.read(vga(photo))
    right = wrong = 0
    for die in (d for d in truth["dice"] if not d["cocked"]):  # (the reading nearest, in the small photo's px)
        centre = np.multiply(die["center"], 640 / IMAGE_W)
        near = [d for d in reading["dice"] if np.hypot(*np.subtract(d["center"], centre)) < reader.photo_die_side / 2]
        right += bool(near) and near[0]["face"] == die["face"]
        wrong += bool(near) and near[0]["face"] != die["face"]
    level = sum(not d["cocked"] for d in truth["dice"])
    assert wrong == 0 and right >= 0.75 * level and len(reading["dice"]) <= len(truth["dice"])  # (14 of 17)
