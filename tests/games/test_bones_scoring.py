"""Scoring positions: a layout in one line, the points the rule book gives it."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.errors import BadInput
from companion.games.rolling_bones import SLOTS, Layout
from companion.games.rolling_bones.dice import BONES, NEIGHBOURS, SECTIONS, is_connected


def L(text: str, hat: bool = False) -> Layout:
    """'skull ribcage spine=left-foot' -> slots; a bare name is the correct bone."""
    slots = {}
    for word in text.split():
        slot, _, face = word.partition("=")
        slots[slot] = face or slot
    return Layout(slots, hat).validate()


FULL = " ".join(SLOTS)


@pytest.mark.parametrize(
    "layout, points",
    [
        (L(""), 0),
        (L("skull"), 1),
        (L("skull ribcage"), 2),
        (L("skull ribcage spine pelvis"), 5),
        (L("skull ribcage spine pelvis", hat=True), 10),
        (L(FULL), 25),  # seed: five complete sections = 25
        (L(FULL, hat=True), 50),  # seed: with the hat, 50
        # seed, diagram 1: left arm complete + 4 correct bones elsewhere + hat = (5 + 4) x 2 = 18
        (L("skull ribcage spine left-upper-arm left-forearm left-hand right-upper-arm", hat=True), 18),
        (L("ribcage spine=left-foot"), 1 - 5),  # a wrong bone costs 5
        (L("skull ribcage spine=left-foot pelvis"), 5 - 5),  # a wrong bone still completes a section
        (L("skull ribcage spine=left-foot", hat=True), (2 - 5) * 2),  # the hat doubles a negative total too
        (L("ribcage left-upper-arm=right-upper-arm left-forearm left-hand"), 1 + 5 - 5),
        (L("pelvis right-thigh right-lower-leg"), 3),
    ],
)
def test_score(layout, points):
    assert layout.score().total == points


def test_score_reports_sections_and_counts():
    score = L("skull ribcage spine=right-foot left-upper-arm left-forearm left-hand", hat=True).score()
    assert score.sections == {"thorax": 2 - 5, "left-arm": 5, "right-arm": 0, "left-leg": 0, "right-leg": 0}
    assert (score.correct, score.wrong, score.hat, score.total) == (5, 1, True, 4)


@pytest.mark.parametrize(
    "data, message",
    [
        ({"slots": {"skull": "skull", "spine": "spine"}, "hat": False}, "gap"),
        ({"slots": {"ribcage": "ribcage"}, "hat": True}, "real skull"),
        ({"slots": {"skull": "ribcage"}, "hat": True}, "real skull"),
        ({"slots": {"tail": "skull"}, "hat": False}, "unknown slot"),
        ({"slots": {"skull": "tentacle"}, "hat": False}, "unknown face"),
        ({"slots": {"skull": "gravestone"}, "hat": False}, "gravestone"),
        ({"slots": {"skull": "hat"}, "hat": False}, "hat"),
        ([], "JSON object"),
        ({"slots": {"skull": 3}}, "face ids"),
        ({"slots": {}, "hat": "yes"}, "true or false"),
    ],
)
def test_bad_layouts_are_refused(data, message):
    with pytest.raises(BadInput, match=message):
        Layout.from_json(data)


# -- properties ---------------------------------------------------------------------------


@st.composite
def legal_layouts(draw):
    """A connected set of slots grown from a random start, each holding a random bone, maybe a hat."""
    size = draw(st.integers(0, len(SLOTS)))
    filled: list[str] = []
    if size:
        filled.append(draw(st.sampled_from(SLOTS)))
    while len(filled) < size:
        frontier = sorted({n for s in filled for n in NEIGHBOURS[s]} - set(filled))
        filled.append(draw(st.sampled_from(frontier)))
    slots = {s: draw(st.sampled_from([s, s, *BONES])) for s in filled}
    hat = slots.get("skull") == "skull" and draw(st.booleans())
    return Layout(slots, hat).validate()


@given(legal_layouts())
def test_any_legal_layout_scores_between_minus_100_and_50(layout):
    assert -100 <= layout.score().total <= 50


@given(legal_layouts())
def test_mirror_image_scores_the_same(layout):
    assert layout.mirrored().score() == layout.score() or layout.mirrored().score().total == layout.score().total


@given(legal_layouts(), st.sampled_from(SLOTS))
def test_adding_a_correct_bone_never_lowers_the_score(layout, slot):
    if slot in layout.slots or not is_connected(layout.filled | {slot}):
        return
    assert layout.with_bone(slot, slot).score().total >= layout.score().total


def test_sections_cover_every_slot_once():
    assert sorted(s for chain in SECTIONS.values() for s in chain) == sorted(SLOTS)
