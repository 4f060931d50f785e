"""The dice reader on real image files: rendered photos with ground truth (bench/data/dice)."""

import json
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

from bench.truth import true_side, true_turn
from companion.errors import BadInput
from companion.vision.annotate import annotate_reading
from companion.vision.dice import DiceReader

DEV = Path(__file__).resolve().parents[2] / "bench" / "data" / "dice" / "dev"
BLENDER = DEV.parent / "blender"  # physically based renders: dice show their sides, cast shadows
IVORY = DEV.parent / "blender-ivory"  # the same, light dice with dark print: gaps between dice look like ink
STYLE2 = DEV.parent / "blender-style2"  # black dice, other pictogram art, camera heights 55-75 cm
TABLE = DEV.parent / "blender-table"  # one table camera for every photo, enrollment too: the real set-up
FRAMED = DEV.parent / "blender-framed"  # pictograms in a frame: unlike any art the reader was developed on
DIAGONAL = DEV.parent / "blender-diagonal"  # a low light across the table: long shadows join the dice
NEAR = 20  # px: a reading this close to a true centre is that die


@pytest.fixture(scope="module")
def reader(tmp_path_factory):
    with pytest.MonkeyPatch.context() as mp:  # the module's own models folder, undone after it
        mp.setenv("COMPANION_MODELS", str(tmp_path_factory.mktemp("models")))
        reader = DiceReader.enroll(DEV / "enroll")
        reader.save("dev")
        yield DiceReader.load("dev")


@pytest.fixture(scope="module")
def blender_reader():
    """Enrolled from the physically based renders' own enrollment photos (each at its own camera height)."""
    return DiceReader.enroll(BLENDER / "enroll")


def photo_side(path):
    """The median true top-face side of a photo's dice (px)."""
    dice = json.loads(Path(path).with_suffix(".json").read_text())["dice"]
    return float(np.median([true_side(d) for d in dice]))


def near(reading_list, centre):
    return [d for d in reading_list if abs(d["center"][0] - centre[0]) + abs(d["center"][1] - centre[1]) < NEAR]


def tally(reader, folder):
    """Read every photo of a set: level dice, read right, misread, and every die too many: read off any true
    die, or one true die read a second time (the scorer would count it twice)."""
    level = right = wrong = 0
    off_dice = []
    for path in sorted(folder.glob("scene-*.jpg")):
        truth = json.loads(path.with_suffix(".json").read_text())["dice"]
        reading = reader.read(cv2.imread(str(path)))
        off_dice += [
            (path.name, read)
            for read in reading["dice"]
            if min(np.hypot(*np.subtract(d["center"], read["center"])) for d in truth) >= 0.6 * reader.die_side
        ]
        off_dice += [(path.name, read) for die in truth for read in near(reading["dice"], die["center"])[1:]]
        for die in (d for d in truth if not d["cocked"]):
            level += 1
            found = near(reading["dice"], die["center"])
            right += bool(found) and found[0]["face"] == die["face"]
            wrong += bool(found) and found[0]["face"] != die["face"]
    return level, right, wrong, off_dice


# plain, touching clusters, side light, blur, and a dim photo where dark dice on a dark mat show only their pictograms
@pytest.mark.slow
@pytest.mark.parametrize(
    "scene", ["scene-00200", "scene-00201", "scene-00203", "scene-00205", "scene-00207", "scene-00208"]
)
def test_photos_against_ground_truth(reader, scene):
    image = cv2.imread(str(DEV / f"{scene}.jpg"))
    truth = json.loads((DEV / f"{scene}.json").read_text())["dice"]
    reading = reader.read(image)
    level = [d for d in truth if not d["cocked"]]
    read_right = 0
    for die in truth:
        found = near(reading["dice"], die["center"])
        if die["cocked"]:
            assert not found, f"a cocked {die['face']} was read as {found}"
        elif found:
            assert found[0]["face"] == die["face"], f"misread {die['face']} as {found[0]['face']}"
            assert found[0]["kind"] == die["kind"]
            read_right += 1
    assert read_right >= 0.9 * len(level)  # the rest abstain, never guess
    for read in reading["dice"]:
        assert near(truth, read["center"]), f"a die read where there is none: {read}"
        assert 0 < read["confidence"] <= 1


@pytest.mark.slow
def test_enrollment_finds_the_top_face_in_photos_with_shadows_and_sides(blender_reader):
    """Off the camera's axis a die shows its sides and its shadow joins its blob: the die size learned
    must still be the top face's (checked against the renders' true top-face corners)."""
    sides = [
        np.linalg.norm(np.subtract(d["corners"][1], d["corners"][0]))
        for path in BLENDER.glob("scene-*.json")
        for d in json.loads(path.read_text())["dice"]
        if not d["cocked"]
    ]
    assert 0.9 * np.median(sides) < blender_reader.die_side < 1.1 * np.median(sides)


def top_faces_missed(folder):
    """Enrollment photos whose top face was found off the true one (enroll/<face>/NN.json): turned more than 8
    degrees, centred more than 0.15 of a side away, or sized 12 % off the set's usual ratio to the true side."""
    from companion.games.rolling_bones.dice import FACE_IDS
    from companion.vision.enrollment import enrolled_tops, the_one_die
    from companion.vision.face_patches import grey
    from companion.vision.model_sets import enrollment_photos

    photos = list(enrollment_photos(folder / "enroll", FACE_IDS, "face"))
    _, tops = enrolled_tops([(face, grey(image), the_one_die(image, path)) for face, path, image in photos])
    turns, offsets, ratios = [], [], []
    for (_, path, _), top in zip(photos, tops):
        truth = json.loads(path.with_suffix(".json").read_text())
        corners, side = np.array(truth["corners"]), true_side(truth)
        turns.append(abs((top.angle - true_turn(truth) + 45) % 90 - 45))
        offsets.append(np.hypot(*np.subtract(top.center, corners.mean(axis=0))) / side)
        ratios.append(top.size[0] / side)
    resized = np.abs(np.log(np.array(ratios) / np.median(ratios))) > np.log(1.12)
    return int(((np.array(turns) > 8) | (np.array(offsets) > 0.15) | resized).sum()), len(photos)


@pytest.mark.slow
def test_enrollment_finds_each_photos_top_face_as_it_lies():
    """A die showing two sides (and its shadow) has a blob whose box is turned as its outline lies, and an
    outline of two tiers: the top face, and the die round its sides, often the stronger. Turned by the blob's
    box and sized by the strongest outline, 77 of the 234 enrollment photos of the four physically based
    sets had their top face off (31 of 54 on the table camera's set); turned as the edges agree and sized by
    the smallest outline that fits well, 25 (9) when this was written."""
    missed = [top_faces_missed(folder) for folder in (BLENDER, IVORY, STYLE2, TABLE)]
    assert sum(m for m, _ in missed) <= 0.17 * sum(n for _, n in missed), missed
    assert missed[-1][0] <= 0.25 * missed[-1][1], missed


@pytest.mark.slow
@pytest.mark.parametrize("scene", ["scene-00100", "scene-00104", "scene-00108", "scene-00111"])
def test_the_die_size_is_found_in_each_photo(blender_reader, scene):
    """The camera was 55-75 cm up, a different height for every photo and every enrollment photo: each photo's
    die size comes from its own clearest dice (true sizes here 41-52 px)."""
    from companion.vision.blobs import find_blobs

    image = cv2.imread(str(BLENDER / f"{scene}.jpg"))
    blobs, _ = find_blobs(image, blender_reader.die_side)
    found = blender_reader._crop_side(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), blobs)
    assert 0.85 < found / photo_side(BLENDER / f"{scene}.jpg") < 1.15


def named_right_at_true_top_faces(reader, folder):
    """The share of a set's level dice the classifier names right, clearing its bars, when shown their true
    top faces, and how many it names wrong though clearing them (bench/truth.py)."""
    from bench.truth import at_true_top_faces

    level = right = wrong = 0
    for path in sorted(folder.glob("scene-*.jpg")):
        counts = at_true_top_faces(
            reader, cv2.imread(str(path)), json.loads(path.with_suffix(".json").read_text())["dice"]
        )
        level, right, wrong = level + counts[0], right + counts[1], wrong + counts[2]
    return right / level, wrong


@pytest.mark.slow
def test_physically_based_dice_are_named_right_at_their_true_top_faces(blender_reader):
    """91 % of 180 when this was written (95 % once enrollment found its top faces as they lie). Gravestones
    (0 of 16), hats and left feet were seldom named while the comparison kept each photo's shading (71 %): a
    lamp's highlight on a glossy top, lit differently in every enrollment photo, outweighed the pictogram."""
    right, _ = named_right_at_true_top_faces(blender_reader, BLENDER)
    assert right >= 0.85


@pytest.mark.slow
def test_dice_enrolled_by_the_table_camera_are_named_right_at_their_true_top_faces():
    """The table camera's own set (seed 1500): with enrollment's top faces off (see above) 55 % named right
    and 13 of 58 named wrong though clear; 81 % and 3 when this was written."""
    right, wrong = named_right_at_true_top_faces(DiceReader.enroll(TABLE / "enroll"), TABLE)
    assert right >= 0.72
    assert wrong <= 6


@pytest.mark.slow
def test_physically_based_photos_are_read_and_seldom_misread(blender_reader):
    """Dice showing their sides, shadows, specular tops, blur, each photo at its own camera height: the reader
    reads about four level dice in five (80 % when this was written) and abstains on the rest; a misread stays
    rare (none of 180 when this was written; one hat taken for a gravestone before shading was taken out)."""
    level, right, wrong, _ = tally(blender_reader, BLENDER)
    assert right >= 0.7 * level
    assert wrong <= 0.01 * level


@pytest.mark.slow
def test_a_die_whose_sides_mislead_about_its_turn_is_found(blender_reader):
    """A die showing two sides: its blob's box and edges give a turn ~14 degrees off its top face's, so it scores
    low in the first rough pass over the blob (0.66 where its face, squared up, scores 0.94). The likeliest
    places are looked at closely however rough their first score."""
    path = BLENDER / "scene-00100.jpg"
    die = next(
        d
        for d in json.loads(path.with_suffix(".json").read_text())["dice"]
        if np.hypot(d["center"][0] - 1872, d["center"][1] - 925) < 5
    )
    found = near(blender_reader.read(cv2.imread(str(path)))["dice"], die["center"])
    assert [d["face"] for d in found] == [die["face"]] == ["left-thigh"]


@pytest.mark.slow
def test_light_dice_are_read_and_nothing_else_is():
    """Light dice with dark print, physically based: the dark gaps between touching dice and their shadows look
    like a pictogram on a light face. Enrollment must find each photo's top face (not a square on its shadow or
    sides), and a face's photo that matches none of its others is not learned from: once one was, gaps and
    shadows were read as that face (26 phantom dice and 7 misreads in these four photos)."""
    reader = DiceReader.enroll(IVORY / "enroll")
    level, right, wrong, off_dice = tally(reader, IVORY)
    assert not off_dice
    assert right >= 0.3 * level  # 21 of 59 when this was written (5 before)
    assert wrong <= 1


@pytest.mark.slow
def test_dice_joined_to_the_mats_edge_by_their_shadows_are_found():
    """Light dice cast dark shadows, and the shadows join the dice to each other and to the mat's edge: one
    sprawling blob, far from solid, was dropped whole, and with it 12 level dice of this photo without a word.
    What is left of it once everything thinner than most of a die is opened away is dice."""
    reader = DiceReader.enroll(IVORY / "enroll")
    reading = reader.read(cv2.imread(str(IVORY / "scene-00302.jpg")))
    assert [d["face"] for d in near(reading["dice"], (1374.0, 641.0))] == ["hat"]
    assert [d["face"] for d in near(reading["dice"], (1316.0, 691.0))] == ["gravestone"]
    # the heap beside them, a dozen dice and leaning ones among them, is searched as long as it may hold dice: with
    # a fixed number of looks, all went to its leaning ribcage and the dice clear beside it were never looked at
    assert [d["face"] for d in near(reading["dice"], (1392.0, 482.0))] == ["left-lower-leg"]
    assert [d["face"] for d in near(reading["dice"], (1525.0, 552.0))] == ["right-hand"]
    # the rest of it is rung where its dice were seen and not read (a leaning ribcage, a right foot), not at the
    # heap's centre, bare mat between its arms; and said to be what it is: dice touching, not one cocked die
    rings = [f for f in reading["unreadable"] if f["why"].startswith("dice touching")]
    assert near(rings, (1388.0, 537.0)) and near(rings, (1480.0, 516.0))
    assert not near(reading["unreadable"], (1461.4, 441.3))


def test_a_blob_too_big_or_too_thin_for_dice_is_not_searched(reader):
    """More than a heap across (a hand, the mat itself) or thinner than a die: nothing read and no place seen,
    in the same two lists as any search (a bare list here would fail read()'s unpacking)."""
    from companion.vision.blobs import Blob

    gray = cv2.cvtColor(cv2.imread(str(DEV / "scene-00200.jpg")), cv2.COLOR_BGR2GRAY)
    side = reader.die_side
    for size in ((20 * side, 20 * side), (4 * side, 0.4 * side)):
        assert reader._search(gray, Blob((1152.0, 648.0), size, 0.0, size[0] * size[1], False), side) == ([], [])


@pytest.mark.slow
def test_a_die_whose_face_changes_with_its_size_is_not_read():
    """Each photo's die size is measured, and may be off by a tenth or more (one of these photos: 17 % small),
    and at a wrong size a clearly seen die can match another face best (a left hand as a pelvis). A plain die is
    read only if it reads the same a little smaller and bigger: 4 misreads of 59 level dice before, 2 now."""
    reader = DiceReader.enroll(STYLE2 / "enroll")
    level, right, wrong, off_dice = tally(reader, STYLE2)
    assert not off_dice
    assert wrong <= 2
    assert right >= 0.45 * level  # 31 of 59 when this was written


def rendered_set(folder, first_seed, style, colouring):
    """A reader enrolled from the enrollment photos bench/render writes for the set from ``first_seed``, and the
    set's photo by seed as the set would hold it (its camera, JPEG) with its ground truth."""
    from bench.render.dice_scene import SCENE_QUALITY, render_scene, set_camera_height, write_set

    write_set(folder, 0, first_seed, style, enroll_per_face=3, colouring=colouring)

    def photo(seed):
        image, truth = render_scene(seed, style=style, colouring=colouring, height_cm=set_camera_height(first_seed))
        saved = cv2.imdecode(
            cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, SCENE_QUALITY])[1], cv2.IMREAD_COLOR
        )
        return saved, truth

    return DiceReader.enroll(folder / "enroll"), photo


@pytest.mark.slow
def test_a_face_merely_ahead_at_another_size_does_not_turn_a_die_away(tmp_path):
    """A plain die is not read if a little smaller or bigger it reads as another face. At 7 % bigger its box
    takes in the surroundings and every face scores low: these three skulls (ivory dice, art style 1, rendered
    here as the bench renders them) had another face 0.01-0.03 ahead there, less than a reading's margin, and
    were turned away; another face must clear a lone die's bars there to count."""
    reader, rendered = rendered_set(tmp_path, 31000, 1, "ivory")
    for seed, skulls in ((31004, [(925.0, 671.0), (1741.0, 813.0)]), (31007, [(1754.0, 331.0)])):
        photo, truth = rendered(seed)
        assert all([d["face"] for d in near(truth["dice"], skull)] == ["skull"] for skull in skulls)
        reading = reader.read(photo)
        for skull in skulls:
            assert [d["face"] for d in near(reading["dice"], skull)] == ["skull"]


def test_a_face_matched_about_as_well_by_another_face_nearby_is_rivalled():
    from companion.vision.dice import Pose

    pose = Pose("left-forearm", 10.0, (672.0, 687.0), {"left-forearm": 0.874, "right-forearm": 0.85, "spine": 0.75})
    assert pose.rival("left-forearm", 0.874) == "right-forearm"  # 0.024 behind: less than a reading's margin
    assert pose.rival("left-forearm", 0.95) is None  # a face seen clearly is well ahead of every other
    assert pose.rival("right-forearm", 0.85) == "left-forearm"  # the rival of a face is any other, the best too


@pytest.mark.slow
def test_a_die_read_as_one_face_at_one_turn_and_another_at_another_is_not_read():
    """Art unlike any the reader was developed on (pictograms in a frame): this spine matched a left forearm
    0.87, 0.12 ahead of any other face at that turn, and was misread; 40 degrees round, a right forearm matched
    it 0.85. A face read must be clearly ahead of every other face at any turn nearby, not at its own only."""
    reader = DiceReader.enroll(FRAMED / "enroll")
    photo = FRAMED / "scene-01103.jpg"
    spine = (671.1, 682.7)
    assert [d["face"] for d in near(json.loads(photo.with_suffix(".json").read_text())["dice"], spine)] == ["spine"]
    reading = reader.read(cv2.imread(str(photo)))
    assert [d["face"] for d in near(reading["dice"], spine)] in ([], ["spine"])
    assert near(reading["dice"], spine) or near(reading["unreadable"], spine)  # flagged where not read


@pytest.mark.slow
def test_a_dark_die_showing_only_a_thin_bone_in_a_dim_room_is_read(tmp_path):
    """A black die on a dark mat in a dim room shows only its print, and a thin bone's print is little: two bits,
    0.095 of a face together (black dice, art style 0, rendered as the bench renders them). Taken for noise, the
    die was neither read nor flagged: left out of the score without a word."""
    reader, rendered = rendered_set(tmp_path, 40000, 0, "black")
    photo, truth = rendered(40003)
    assert [d["face"] for d in near(truth["dice"], (1584.0, 675.0))] == ["right-upper-arm"]
    assert [d["face"] for d in near(reader.read(photo)["dice"], (1584.0, 675.0))] == ["right-upper-arm"]


@pytest.mark.slow
def test_a_dark_die_half_seen_on_a_dark_mat_in_a_dim_room_is_read(tmp_path):
    """Of a black die on a dark mat in a dim room, its print and a little of its body stood out: too sprawling
    for a die's outline, too big for bits of print, and the die was neither read nor flagged (black dice, art
    style 4, rendered as the bench renders them). It is searched like a die that shows only its print."""
    reader, rendered = rendered_set(tmp_path, 40400, 4, "black")
    photo, truth = rendered(40405)
    assert [d["face"] for d in near(truth["dice"], (1836.0, 669.0))] == ["right-forearm"]
    assert [d["face"] for d in near(reader.read(photo)["dice"], (1836.0, 669.0))] == ["right-forearm"]


@pytest.mark.slow
def test_a_second_dark_die_beside_one_read_in_a_dim_room_is_flagged(tmp_path):
    """In a dim room two black dice side by side on a dark mat showed only their prints, taken as one die's: the
    skull was read there, and the right lower leg beside it was neither read nor flagged, left out of the score
    without a word (black dice, art style 0, rendered as the bench renders them)."""
    reader, rendered = rendered_set(tmp_path, 40500, 0, "black")
    photo, truth = rendered(40505)
    leg = (1063.9, 339.4)
    assert [d["face"] for d in near(truth["dice"], leg)] == ["right-lower-leg"]
    reading = reader.read(photo)
    assert [d["face"] for d in near(reading["dice"], (1114.0, 323.9))] == ["skull"]
    read = [d["face"] for d in near(reading["dice"], leg)]
    flagged = [f for f in reading["unreadable"] if np.hypot(*np.subtract(f["center"], leg)) < 0.7 * reader.die_side]
    assert read == ["right-lower-leg"] or (not read and flagged)


@pytest.mark.slow
def test_a_plain_die_matched_weakly_is_read_at_the_turn_its_face_fits_best(tmp_path):
    """A plain die is classified around its blob's box; here the box was 5 px and 4 degrees off the face, and
    there a right lower leg (two bones, a foot) matched a right thigh (one bone) best, 0.85, and was misread.
    A die read below 0.9 is looked at every turn nearby: its own face fits 0.93 ten degrees on, and is read."""
    reader, rendered = rendered_set(tmp_path, 35000, 1, "ivory")
    photo, truth = rendered(35007)
    assert [d["face"] for d in near(truth["dice"], (998.9, 811.5))] == ["right-lower-leg"]
    assert [d["face"] for d in near(reader.read(photo)["dice"], (998.9, 811.5))] == ["right-lower-leg"]


def test_a_square_off_the_top_face_looks_unlike_a_face():
    """A die's top face has one body tone all round its rim and its pictogram in the middle; the same square
    half a side off (on the mat, a shadow, a side) does not."""
    from companion.vision.blobs import Blob
    from companion.vision.enrollment import _unlike_a_face, the_one_die
    from companion.vision.face_patches import face_patch

    for folder in sorted((DEV / "enroll").iterdir()):
        path = sorted(folder.glob("*.jpg"))[0]
        image = cv2.imread(str(path))
        die = the_one_die(image, path)
        side = min(die.size)
        on_face = _unlike_a_face(face_patch(image, die, side))
        for shift in ((0.5, 0), (-0.5, 0), (0, 0.5), (0, -0.5)):
            off = Blob(
                (die.center[0] + shift[0] * side, die.center[1] + shift[1] * side), die.size, die.angle, 0, False
            )
            assert _unlike_a_face(face_patch(image, off, side)) > on_face, f"{path}: {shift}"


def test_a_face_cut_from_one_warp_is_the_face_cut_alone():
    """The fast path (many shifted boxes cut from one warped window) sees what cutting each box alone sees, but
    for the shading taken out: judged over the window, it sees a little past each box's edges."""
    from companion.vision.blobs import Blob
    from companion.vision.face_patches import face_patch, normalise_all, shifted_faces

    gray = cv2.cvtColor(cv2.imread(str(BLENDER / "scene-00100.jpg")), cv2.COLOR_BGR2GRAY)
    vectors, centres = shifted_faces(gray, (1171.0, 454.0), 17.0, 50.0, 4, 2)
    assert len(vectors) == 25
    for k in (0, 7, 12, 24):
        alone = normalise_all(face_patch(gray, Blob(tuple(centres[k]), (50, 50), 17.0, 0, False), 50)[None])[0]
        assert float(alone @ vectors[k]) > 0.98


def test_faces_cut_from_many_boxes_at_once_are_each_box_cut_alone():
    """Boxes at several turns, sizes and squashes are cut, filtered and normalised together (speed); each box's
    patches and centres are what cutting it alone gives, to float rounding, and each patch says which box it is of."""
    from companion.vision.face_patches import Box, shifted_faces, shifted_faces_of

    gray = cv2.cvtColor(cv2.imread(str(BLENDER / "scene-00100.jpg")), cv2.COLOR_BGR2GRAY)
    boxes = [
        Box((1171.0, 454.0), 17.0, 50.0),
        Box((1175.5, 450.0), 52.0, 47.0),
        Box((900.0, 300.0), 0.0, 50.0, (0.7, 1.0)),
    ]
    vectors, centres, which = shifted_faces_of(gray, boxes, 4, 2)
    assert list(which) == [0] * 25 + [1] * 25 + [2] * 25
    for k, box in enumerate(boxes):
        alone, where = shifted_faces(gray, box.centre, box.angle, box.side, 4, 2, box.squash)
        assert np.abs(vectors[which == k] - alone).max() < 1e-5
        assert np.abs(centres[which == k] - where).max() < 1e-9


def test_faces_cut_together_are_the_faces_cut_one_by_one():
    """A die is classified at ~40 boxes round its blob's, cut by one remap for all (speed): each is the patch
    `face_patch` cuts alone, but for a few grey levels on a pixel now and then (the two round a sampling place to
    1/32 px differently; OpenCV 4.10, the Pi's, by up to 4 levels on about 1 pixel in 10,000, OpenCV 5 by 1)."""
    from companion.vision.blobs import Blob
    from companion.vision.face_patches import Box, face_patch, face_patches_of

    gray = cv2.cvtColor(cv2.imread(str(BLENDER / "scene-00100.jpg")), cv2.COLOR_BGR2GRAY)
    rng = np.random.default_rng(5)
    boxes = [
        Box(
            (float(rng.uniform(50, 2250)), float(rng.uniform(50, 1250))),
            float(rng.uniform(-45, 45)),
            float(rng.uniform(35, 60)),
        )
        for _ in range(60)
    ]
    together = face_patches_of(gray, boxes).astype(int)
    alone = np.stack([face_patch(gray, Blob(b.centre, (b.side, b.side), b.angle, 0, False), b.side) for b in boxes])
    assert together.shape == alone.shape == (60, 40, 40)
    differ = np.abs(together - alone)
    assert differ.max() <= 4 and (differ > 0).mean() < 0.005 and (differ > 1).mean() < 0.0005


@pytest.mark.slow
def test_a_heaps_strokes_found_once_rule_out_only_places_with_none(blender_reader):
    """Round a heap, the places a flag might go are looked at by the dozen; the strokes over the whole heap, found
    once, rule out a place only where `_has_strokes` finds none either (they are its window's own strokes there),
    and rule out most of the bare places."""
    from companion.vision.blobs import find_blobs
    from companion.vision.dice import _has_strokes, _StrokesOver

    image = cv2.imread(str(BLENDER / "scene-00110.jpg"))
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    side = blender_reader.die_side
    heap = max((b for b in find_blobs(image, side)[0] if b.outline is not None), key=lambda b: b.area)
    strokes = _StrokesOver(gray, heap.outline, side)
    (x0, y0), (x1, y1) = heap.outline.min(axis=0), heap.outline.max(axis=0)
    spots = [np.array([x, y]) for x in np.arange(x0, x1, side / 4) for y in np.arange(y0, y1, side / 4)]
    shows = [_has_strokes(gray, spot, side) for spot in spots]
    may = [strokes.may_show(spot) for spot in spots]
    assert any(shows) and not all(shows)
    assert all(m for m, show in zip(may, shows) if show)
    assert sum(not m for m, show in zip(may, shows) if not show) > 0.5 * shows.count(False)


@pytest.mark.slow
def test_a_heaps_squares_scored_a_tile_at_a_time_are_its_squares_scored_at_once(blender_reader, monkeypatch):
    """A heap is scored in tiles (memory); the tiles cover every square the whole window would, with the same
    rough scores (to the warp's rounding, 1/32 px: each tile's window is placed on its own), and may reach a
    little beyond."""
    from companion.vision.dice import ROUGH_CONTEXT, ROUGH_TILE
    from companion.vision.face_patches import shifted_faces

    monkeypatch.setattr("companion.vision.dice.ROUGH_INK", 0.0)  # every square, none left out for want of ink
    gray = cv2.cvtColor(cv2.imread(str(BLENDER / "scene-00110.jpg")), cv2.COLOR_BGR2GRAY)
    reach = 2 * ROUGH_TILE + 9
    tiled, where, turns = blender_reader._rough_scores(gray, (1200.0, 600.0), [23.0], 47.0, reach)
    assert set(turns) == {23.0}
    vectors, centres = shifted_faces(gray, (1200.0, 600.0), 23.0, 47.0, reach, 3, context=ROUGH_CONTEXT)
    whole = blender_reader._scores(vectors, 32).max(axis=0)
    for score, centre in zip(whole, centres):
        k = int(np.argmin(np.hypot(*(where - centre).T)))
        assert np.hypot(*(where[k] - centre)) < 0.01 and abs(tiled[k] - score) < 0.02


def test_boxes_with_no_pictogram_are_left_out_of_the_rough_pass():
    """A box whose grey levels spread less than a pictogram's cannot be read (`ink`), so the rough pass over a
    heap leaves it out: it costs no work and no look. A dark object that is no die (flat, a little noise) gives
    no box at all; a die's box is kept; each box's spread is what cutting it alone gives."""
    from companion.vision.face_patches import MIN_INK, PATCH, shifted_faces, spreads

    gray = cv2.cvtColor(cv2.imread(str(BLENDER / "scene-00100.jpg")), cv2.COLOR_BGR2GRAY)
    flat = gray.copy()
    flat[200:700, 200:600] = np.clip(40 + np.random.default_rng(0).normal(0, 3, (500, 400)), 0, 255).astype(np.uint8)
    vectors, centres = shifted_faces(flat, (400.0, 450.0), 20.0, 48.0, 60, 3, min_ink=0.8 * MIN_INK)
    assert len(vectors) == len(centres) == 0
    die = json.loads((BLENDER / "scene-00100.json").read_text())["dice"][0]
    vectors, centres = shifted_faces(gray, tuple(die["center"]), 0.0, 48.0, 6, 3, min_ink=0.8 * MIN_INK)
    assert len(vectors) == len(centres) and min(np.hypot(*(centres - die["center"]).T)) < 1.0
    window = np.full((PATCH + 4, PATCH + 4), 50.0, np.float32)
    window[10:20, 5:30] = 250.0
    for (i, j), spread in np.ndenumerate(spreads(window, np.arange(0, 5, 2))):
        assert abs(spread - window[2 * i : 2 * i + PATCH, 2 * j : 2 * j + PATCH].std()) < 1e-3


@pytest.mark.slow
def test_dice_in_a_heap_are_read(blender_reader):
    """Two heaps of 11 and 15 dice (blobs 7-8 dice sides across, shadows and all): many level dice in them are
    read (14 of 18 when this was written; in a heap many lean a little, and a face found by searching must look
    clearly square), and none wrong. Heaps bigger than 4.5 sides were not searched at all (1 of 18 read)."""
    from companion.vision.blobs import find_blobs

    level = right = wrong = 0
    for scene in ("scene-00103", "scene-00110"):
        image = cv2.imread(str(BLENDER / f"{scene}.jpg"))
        truth = json.loads((BLENDER / f"{scene}.json").read_text())["dice"]
        reading = blender_reader.read(image)
        heaps = [
            b for b in find_blobs(image, blender_reader.die_side)[0] if max(b.size) > 4.5 * blender_reader.die_side
        ]
        assert heaps, scene
        for heap in heaps:
            box = cv2.boxPoints((heap.center, heap.size, heap.angle)).astype(np.float32)
            for die in truth:
                if die["cocked"] or cv2.pointPolygonTest(box, tuple(map(float, die["center"])), False) < 0:
                    continue
                level += 1
                found = near(reading["dice"], die["center"])
                right += bool(found) and found[0]["face"] == die["face"]
                wrong += bool(found) and found[0]["face"] != die["face"]
    assert level >= 15
    assert right >= level / 3 and wrong == 0


def test_a_die_touching_others_is_read_where_its_face_is(reader):
    """A read die's centre is its face's centre, not the middle of the blob it touches others in."""
    truth = json.loads((DEV / "scene-00203.json").read_text())["dice"]
    reading = reader.read(cv2.imread(str(DEV / "scene-00203.jpg")))
    for read in reading["dice"]:
        die = min(truth, key=lambda d: np.hypot(*np.subtract(d["center"], read["center"])))
        assert np.hypot(*np.subtract(die["center"], read["center"])) < 8


def test_every_unreadable_die_says_where_and_why(reader):
    reading = reader.read(cv2.imread(str(DEV / "scene-00201.jpg")))
    assert reading["unreadable"]
    for die in reading["unreadable"]:
        assert len(die["center"]) == 2 and die["why"]


def test_an_empty_mat_reads_no_dice(reader):
    from bench.render.dice_scene import render_scene

    photo, truth = render_scene(77, n_dice=0, colouring="black", markers=True)
    reading = reader.read(photo)
    assert reading["dice"] == [] and truth["dice"] == []


def test_a_black_frame_reads_nothing(reader):
    reading = reader.read(np.zeros((1296, 2304, 3), np.uint8))
    assert reading["dice"] == [] and reading["unreadable"] == []


def test_a_grey_or_bgra_photo_reads_as_its_bgr_and_other_arrays_are_one_line_errors(reader):
    image = cv2.imread(str(DEV / "scene-00200.jpg"))
    faces = [d["face"] for d in reader.read(image)["dice"]]
    assert [d["face"] for d in reader.read(cv2.cvtColor(image, cv2.COLOR_BGR2BGRA))["dice"]] == faces
    grey = cv2.cvtColor(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    assert reader.read(grey[:, :, 0])["dice"] == reader.read(grey)["dice"]
    with pytest.raises(BadInput, match="expected an 8-bit photo, not float32"):
        reader.read(image.astype(np.float32))
    with pytest.raises(BadInput, match="expected a grey, BGR or BGRA photo"):
        reader.read(np.zeros((100, 100, 2), np.uint8))


def test_a_blurred_photo_is_not_guessed(reader):
    image = cv2.GaussianBlur(cv2.imread(str(DEV / "scene-00200.jpg")), (0, 0), 6)
    reading = reader.read(image)
    assert reading["dice"] == []


def test_a_set_enrolled_by_an_older_reader_is_a_one_line_error(reader, tmp_path, monkeypatch):
    """A set stored before the shading was taken out compares faces another way: every score would be off."""
    monkeypatch.setenv("COMPANION_MODELS", str(tmp_path))
    reader.save("old")
    path = tmp_path / "dice" / "old" / "set.npz"
    arrays = dict(np.load(path))
    del arrays["shading"]
    np.savez_compressed(path, **arrays)
    with pytest.raises(BadInput, match="enrolled by an older version of the reader: enroll it again"):
        DiceReader.load("old")


@pytest.mark.slow
def test_a_face_learned_from_one_photo_of_several_is_read_only_when_near_certain(tmp_path, monkeypatch):
    """Its other photos looked like other faces or like none of its own: the set does not know that face well
    (on art unlike any the reader was developed on, 4 of 5 misreads were to such faces). The table set's
    ribcage is one; a ribcage read at 0.8 confidence is reported, not read, and the set remembers which faces."""
    reader = DiceReader.enroll(TABLE / "enroll")
    assert "ribcage" in reader.unsure and reader.photos_learned()["ribcage"] == 1
    assert all(reader.photos_learned()[face] == 1 for face in reader.unsure)
    reading = reader.read(cv2.imread(str(TABLE / "scene-01502.jpg")))
    flagged = [u for u in reading["unreadable"] if u["why"] == "ribcage? learned from one enrollment photo only"]
    assert len(flagged) == 1 and near(flagged, [1417.5, 751.2])
    assert all(d["confidence"] >= 0.99 for d in reading["dice"] if d["face"] in reader.unsure)
    monkeypatch.setenv("COMPANION_MODELS", str(tmp_path))
    reader.save("table")
    assert DiceReader.load("table").unsure == reader.unsure


def test_enrollment_with_a_missing_face_folder(tmp_path):
    shutil.copytree(DEV / "enroll", tmp_path / "enroll")
    shutil.rmtree(tmp_path / "enroll" / "left-hand")
    with pytest.raises(BadInput, match="no photos for face 'left-hand'"):
        DiceReader.enroll(tmp_path / "enroll")


def test_enrollment_photo_with_no_die(tmp_path):
    shutil.copytree(DEV / "enroll", tmp_path / "enroll")
    for photo in (tmp_path / "enroll" / "skull").glob("*.jpg"):
        cv2.imwrite(str(photo), np.full((320, 320, 3), 90, np.uint8))
    with pytest.raises(BadInput, match="skull/.*: no die found"):
        DiceReader.enroll(tmp_path / "enroll")


def test_annotated_photo_has_the_photo_size(reader):
    image = cv2.imread(str(DEV / "scene-00201.jpg"))
    out = annotate_reading(image, reader.read(image))
    assert out.shape == image.shape and not np.array_equal(out, image)


def test_a_face_is_read_only_past_what_other_faces_enrolled_photos_reached(reader):
    """Each face's ceiling (the best any other face's enrollment photo scored against it) is kept with the
    set; a die that does not beat it is not read as that face."""
    assert set(reader.ceilings) == set(reader.labels) and all(-1 <= c <= 1 for c in reader.ceilings.values())
    image = cv2.imread(str(DEV / "scene-00200.jpg"))
    truth = json.loads((DEV / "scene-00200.json").read_text())["dice"]
    die = next(d for d in truth if not d["cocked"])
    face = die["face"]
    before = [d for d in reader.read(image)["dice"] if d["face"] == face]
    saved = dict(reader.ceilings)
    try:
        reader.ceilings[face] = 1.01  # nothing can beat it
        after = reader.read(image)
    finally:
        reader.ceilings.clear()
        reader.ceilings.update(saved)
    assert before and not [d for d in after["dice"] if d["face"] == face]
    assert not near(after["dice"], die["center"])  # nor read as anything else
    assert [u for u in after["unreadable"] if np.hypot(*np.subtract(u["center"], die["center"])) < 40]


@pytest.mark.slow
def test_nothing_but_dice_is_read_in_physically_based_photos(blender_reader):
    """The mat's edge against the table, the corner markers, shadows and noise in a dim room are never read
    as dice (whatever the reader abstains on): every die read lies on a true die's top face, and no die is read
    twice (from both halves of a blob split by a shadow)."""
    assert not tally(blender_reader, BLENDER)[3]


def test_an_enrollment_photo_whose_face_was_not_found_is_not_learned_from():
    from companion.vision.enrollment import photos_to_learn_from

    faces = ["skull", "skull", "hat", "hat", "spine", "spine", "pelvis", "pelvis", "pelvis"]
    # photo i's best score against photo j. The fifth (a spine whose face was not found: all edges) matches a
    # skull and a hat photo better than their own face's other photo does; the ninth (a pelvis cut on its
    # shadow) matches neither other pelvis.
    scores = np.array(
        [
            [1.0, 0.9, 0.3, 0.3, 0.95, 0.2, 0.3, 0.3, 0.3],
            [0.9, 1.0, 0.3, 0.3, 0.5, 0.2, 0.3, 0.3, 0.3],
            [0.3, 0.3, 1.0, 0.8, 0.85, 0.2, 0.3, 0.3, 0.3],
            [0.3, 0.3, 0.8, 1.0, 0.5, 0.2, 0.3, 0.3, 0.3],
            [0.6, 0.6, 0.6, 0.6, 1.0, 0.4, 0.3, 0.3, 0.3],
            [0.2, 0.2, 0.2, 0.2, 0.4, 1.0, 0.3, 0.3, 0.3],
            [0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 1.0, 0.95, 0.3],
            [0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.9, 1.0, 0.4],
            [0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.35, 0.3, 1.0],
        ]
    )
    assert photos_to_learn_from(scores, faces).tolist() == [True, True, True, True, False, True, True, True, False]
    # a face never loses its last photo, however troublesome
    two_singles = faces[:4] + ["spine", "gravestone"]
    assert photos_to_learn_from(scores[:6, :6], two_singles).tolist() == [True] * 6


@pytest.mark.slow
@pytest.mark.parametrize("folder", [BLENDER, IVORY, STYLE2, TABLE, FRAMED, DIAGONAL], ids=lambda f: f.name)
def test_every_flag_is_at_a_die(blender_reader, folder):
    """The kiosk rings each unreadable die in amber: none on bare mat, a mat's edge or corner, or what shows of a
    corner marker's white border beyond its outline (17 such rings over the photo sets before markers were taken
    out of the mask first), and one per die (a die split into two blobs, or the rest of a blob a die was read in,
    is not flagged twice).
    (The OpenCV renders are not used here: ArUco never finds their marker 1, and a marker no detector finds
    is flagged like a die; a mat with three markers seen gets its fourth by completing the parallelogram.)"""
    reader = blender_reader if folder == BLENDER else DiceReader.enroll(folder / "enroll")
    for path in sorted(folder.glob("scene-*.jpg")):
        truth = json.loads(path.with_suffix(".json").read_text())["dice"]
        reading = reader.read(cv2.imread(str(path)))
        side = reader.die_side
        for flag in reading["unreadable"]:
            # (a corner marker cut by the frame is flagged "half outside the frame": no detector finds it)
            assert (
                min(np.hypot(*np.subtract(d["center"], flag["center"])) for d in truth) < 2.5 * side
                or flag["why"] == "half outside the frame"
            ), f"{path.name}: {flag} is on no die"
            others = [f for f in reading["unreadable"] + reading["dice"] if f is not flag]
            assert all(np.hypot(*np.subtract(o["center"], flag["center"])) >= 0.6 * side for o in others), (
                f"{path.name}: {flag} flags a die twice"
            )
        # and every die, level or cocked, is read or flagged: one neither would be left out of the score without a
        # word (a heap was flagged where its search saw faces: 31 dice of these sets were not), but for a cocked
        # die leaning on one read, its face within half a side of that one's (one in blender 00108)
        assert not [
            die
            for die in truth
            if not near(reading["dice"], die["center"])
            and all(np.hypot(*np.subtract(f["center"], die["center"])) >= 0.9 * side for f in reading["unreadable"])
            and not (
                die["cocked"]
                and any(np.hypot(*np.subtract(d["center"], die["center"])) < 0.5 * side for d in reading["dice"])
            )
        ], path.name


@pytest.mark.slow
@pytest.mark.parametrize("scene", ["scene-00202", "scene-00208"])
def test_the_mats_corners_in_a_dim_photo_are_not_flagged(reader, scene):
    """In a dim room only a dark die's pictogram may stand out of a dark mat, so bits of contrast are searched as
    dice; the mat's corners against the table are such bits (scene-00202 had three of them ringed amber, "faint:
    a die?", and 4 of 8 dim fresh photos had every corner ringed). A corner is one broad step of light, no strokes."""
    path = DEV / f"{scene}.jpg"
    truth = json.loads(path.with_suffix(".json").read_text())["dice"]
    reading = reader.read(cv2.imread(str(path)))
    for flag in reading["unreadable"]:
        assert min(np.hypot(*np.subtract(d["center"], flag["center"])) for d in truth) < reader.die_side, flag
    assert not any("faint" in flag["why"] for flag in reading["unreadable"])


def test_a_corner_marker_no_detector_finds_is_placed_from_the_other_three():
    from companion.vision.blobs import marker_outlines

    image = cv2.imread(str(DEV / "scene-00201.jpg"))  # marker 1 (top right) is not detected here
    outlines = marker_outlines(image)
    assert len(outlines) == 4
    assert any(cv2.pointPolygonTest(m, (1963.0, 89.0), False) >= 0 for m in outlines)  # where it lies


def test_corner_markers_no_detector_finds_are_placed_where_the_mats_edges_meet(reader):
    """scene-00209: marker 1 is cut by the photo's top edge, a die lies on marker 3's white border, and ArUco finds
    neither: each lies where the mat's edges, through the same corners of its two neighbours, meet (perspective
    and all). Unplaced, the two markers were split into die-sized blobs and rung amber twelve times; the die on the
    white border is still read (a placed outline is not cut out of the mask: it is good to ~10 px only)."""
    from companion.vision.blobs import marker_outlines

    path = DEV / "scene-00209.jpg"
    image = cv2.imread(str(path))
    outlines = marker_outlines(image)
    assert len(outlines) == 4
    for middle in ((1945.0, 50.0), (210.0, 1172.0)):  # where their black squares lie
        assert any(cv2.pointPolygonTest(m, middle, False) >= 0 for m in outlines), middle
    truth = json.loads(path.with_suffix(".json").read_text())["dice"]
    reading = reader.read(image)
    for flag in reading["unreadable"]:
        assert min(np.hypot(*np.subtract(d["center"], flag["center"])) for d in truth) < reader.die_side, flag
    assert [d["face"] for d in near(reading["dice"], (280.0, 1108.0))] == ["left-forearm"]


@pytest.mark.slow
def test_a_marker_not_found_at_half_size_is_looked_for_at_full_size():
    """Marker 0 lies whole beside a die, yet the detector (run at half size, for speed) missed it, and marker 3
    is cut by the frame: the two were rung amber eleven times (black dice, art style 4, as the bench renders
    them). When some of the mat's markers are found and not all, they are looked for at full size too, and
    those still missing are placed from their neighbours."""
    from bench.render.dice_scene import SCENE_QUALITY, render_scene, set_camera_height
    from companion.vision.blobs import marker_outlines

    photo, _ = render_scene(40406, style=4, colouring="black", height_cm=set_camera_height(40400))
    saved = cv2.imdecode(cv2.imencode(".jpg", photo, [cv2.IMWRITE_JPEG_QUALITY, SCENE_QUALITY])[1], cv2.IMREAD_COLOR)
    outlines = marker_outlines(saved)
    assert len(outlines) == 4
    for middle in ((90.0, 284.0), (165.0, 1250.0)):  # marker 0, marker 3
        assert any(cv2.pointPolygonTest(m, middle, False) >= 0 for m in outlines), middle


def test_a_die_pressed_against_a_corner_marker_is_still_read(reader):
    reading = reader.read(cv2.imread(str(DEV / "scene-00208.jpg")))
    assert [d["face"] for d in near(reading["dice"], (295.6, 216.1))] == ["right-foot"]  # 9 px from marker 0's border


@pytest.mark.slow
def test_a_die_over_a_corner_markers_outline_is_read(reader):
    """A die pressed against a marker's white border, a corner of it inside the marker's outline, was one blob
    with the marker, centred on it, and left out without a word (a fresh scene, seed 20033, as the dev set is
    rendered). Markers are taken out of the mask first."""
    import random

    from bench.render.dice_scene import render_scene

    photo, truth = render_scene(
        20033, style=0, colouring="black", markers=True, height_cm=random.Random(200).uniform(55, 75)
    )
    die = next(d for d in truth["dice"] if d["face"] == "left-foot" and abs(d["center"][0] - 257) < 5)
    for quality in (85, 90, 95):  # saved as a camera would (at 90 and 95 its k-means split put it on the marker)
        saved = cv2.imdecode(cv2.imencode(".jpg", photo, [cv2.IMWRITE_JPEG_QUALITY, quality])[1], cv2.IMREAD_COLOR)
        assert [d["face"] for d in near(reader.read(saved)["dice"], die["center"])] == ["left-foot"], quality


def test_a_die_found_twice_is_one_die_or_none():
    from companion.vision.dice import _each_die_once

    def die(face, x, confidence):
        return {"face": face, "kind": "x", "center": [x, 100.0], "confidence": confidence}

    # the same face from both halves of a split blob: one die, the surer reading
    dice, unreadable = _each_die_once([die("skull", 100, 0.9), die("skull", 104, 0.95), die("hat", 300, 0.9)], [], 50)
    assert [(d["face"], d["center"][0]) for d in dice] == [("skull", 104), ("hat", 300)] and not unreadable
    # two faces at one die: one is a misread, and which cannot be told
    dice, unreadable = _each_die_once([die("left-hand", 100, 0.9), die("right-hand", 103, 0.95)], [], 50)
    assert not dice and unreadable == [{"center": [103, 100.0], "why": "right-hand or left-hand: read both ways"}]


def test_labels_on_the_annotated_photo_never_cover_each_other(reader):
    """Touching dice had their names and reasons written over each other on the kiosk's photo. Each label goes
    beside its circle where it covers no other label or circle, else its short form (?N), else none (the page
    lists every die); a die standing apart is always named in full."""
    from companion.vision.annotate import _label_places, _marks

    def places(reading, shape, scale=1.44):
        marks = _marks(reading)
        return marks, _label_places(marks, scale, shape)

    crowded = {
        "dice": [{"face": "left-lower-leg", "center": [500.0 + 30 * k, 400.0]} for k in range(6)],
        "unreadable": [
            {"center": [515.0 + 30 * k, 440.0], "why": "dice touching: could not separate"} for k in range(5)
        ],
    }
    _, placed = places(crowded, (1296, 2304, 3))
    boxes = []
    for text, (left, bottom), _ in placed:
        (w, h), base = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, 0.5 * 1.44, 2)
        boxes.append((left, bottom - h, left + w, bottom + base))
    assert len(placed) >= 3  # of 11 circles 30 px apart: the rest are listed on the page
    assert all(
        not (a[0] < b[2] - 1 and b[0] < a[2] - 1 and a[1] < b[3] - 1 and b[1] < a[3] - 1)
        for i, a in enumerate(boxes)
        for b in boxes[i + 1 :]
    )
    image = cv2.imread(str(DEV / "scene-00200.jpg"))
    marks, placed = places(reader.read(image), image.shape)
    apart = [
        m.texts[0] for m in marks if all(np.hypot(*np.subtract(m.center, o.center)) > 200 for o in marks if o is not m)
    ]
    assert apart and set(apart) <= {text for text, _, _ in placed}
