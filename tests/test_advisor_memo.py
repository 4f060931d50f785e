"""The advisor's remembered search: saved, loaded, looked up instead of searched, refused when stale."""

import numpy as np

from companion import advisor_memo
from companion.games.rolling_bones.advice import advise
from companion.games.rolling_bones.advisor import Advisor
from companion.games.rolling_bones.layout import Layout

LAYOUT = Layout({"skull": "skull", "ribcage": "ribcage", "spine": "spine"})
ROLL = ["left-upper-arm", "pelvis", "gravestone", "right-foot", "hat"]


def test_a_loaded_memo_answers_like_the_search_without_searching(tmp_path):
    searched = Advisor()
    plays, exact = advise(searched, LAYOUT, ROLL, 2)
    path = advisor_memo.save(searched, tmp_path / "memo.npz")
    table, why = advisor_memo.load(path)
    assert table is not None, why
    remembered = Advisor(table=table)
    again, exact_again = advise(remembered, LAYOUT, ROLL, 2)
    assert [(p.lay, p.then, p.pay) for p in again] == [(p.lay, p.then, p.pay) for p in plays]
    assert [p.value for p in again] == [p.value for p in plays] and exact_again == exact
    assert not remembered._pre, "every value came from the table, nothing was searched"


def test_a_memo_from_other_code_is_refused(tmp_path):
    path = tmp_path / "memo.npz"
    advisor_memo.save(Advisor(), path)
    data = dict(np.load(path))
    data["fingerprint"] = np.array("0123456789abcdef")
    np.savez_compressed(path, **data)
    table, why = advisor_memo.load(path)
    assert table is None and "other advisor code" in why


def test_a_missing_or_broken_memo_is_a_reason_not_a_crash(tmp_path):
    assert advisor_memo.load(tmp_path / "none.npz")[0] is None
    broken = tmp_path / "broken.npz"
    broken.write_bytes(b"not a zip")
    table, why = advisor_memo.load(broken)
    assert table is None and "cannot read" in why
    truncated = tmp_path / "truncated.npz"
    advisor_memo.save(Advisor(), truncated)
    truncated.write_bytes(truncated.read_bytes()[:200])
    assert advisor_memo.load(truncated)[0] is None


def test_the_shipped_memo_matches_the_advisor_code():
    """Change the advisor and this fails until `python bench/advisor.py --turns 0 --write-memo` rewrites it."""
    table, why = advisor_memo.load()
    assert table is not None, why
    assert len(table.pre_keys) + len(table.post_keys) > 100_000
