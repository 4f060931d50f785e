"""The best legal way to lay a roll onto a layout (no voluntary wrong bones).

Why it is exact and fast: every die a roll can add is a correct bone in its own
slot, and a correct bone never lowers the score (it adds 1, or completes a
section). So with a chain already on the table the best play lays every bone of
the roll that can be connected to it: the connected piece of "filled or
rollable" slots that holds the chain. With an empty table the first bone may go
anywhere, so each connected piece of rollable slots is a candidate and the best
one wins. The hat goes on whenever a real skull is there and doubling helps.
"""

from __future__ import annotations

from itertools import combinations

from .dice import GRAVESTONE, HAT, SLOTS, connected_pieces, is_connected
from .layout import Layout


def _with_best_hat(layout: Layout, hat_rolled: bool) -> Layout:
    if layout.hat or not hat_rolled or not layout.has_real_skull():
        return layout
    hatted = layout.with_hat(True)
    return hatted if hatted.score().total > layout.score().total else layout


def best_layout(faces: list[str], layout: Layout) -> Layout:
    """The highest-scoring layout reachable by laying dice of ``faces`` on ``layout``."""
    rollable = {slot for slot in SLOTS if slot in faces and slot not in layout.slots}
    hat_rolled = HAT in faces
    if layout.slots:
        piece = next(p for p in connected_pieces(rollable | layout.filled) if layout.filled <= p)
        grown = Layout({**layout.slots, **{s: s for s in piece - layout.filled}}, layout.hat)
        return _with_best_hat(grown, hat_rolled)
    best = layout
    for piece in connected_pieces(rollable):
        candidate = _with_best_hat(Layout({s: s for s in piece}), hat_rolled)
        if _better(candidate, best):
            best = candidate
    return best


def _better(candidate: Layout, incumbent: Layout) -> bool:
    """Higher score wins; on a tie, more bones laid, then the earlier slots (a fixed order)."""
    a, b = candidate.score().total, incumbent.score().total
    if a != b:
        return a > b
    if len(candidate.slots) != len(incumbent.slots):
        return len(candidate.slots) > len(incumbent.slots)
    return sorted(map(SLOTS.index, candidate.slots)) < sorted(map(SLOTS.index, incumbent.slots))


def can_bury(faces: list[str]) -> bool:
    return GRAVESTONE in faces


def brute_force_best(faces: list[str], layout: Layout) -> Layout:
    """Every subset of the roll's fitting bones, each hat choice: the reference for tests and bench."""
    rollable = [slot for slot in SLOTS if slot in faces and slot not in layout.slots]
    best, best_score = layout, layout.score().total
    for size in range(1, len(rollable) + 1):
        for chosen in combinations(rollable, size):
            if not is_connected(layout.filled | set(chosen)):
                continue
            grown = Layout({**layout.slots, **{s: s for s in chosen}}, layout.hat)
            options = [grown]
            if HAT in faces and grown.has_real_skull() and not grown.hat:
                options.append(grown.with_hat(True))
            for option in options:
                score = option.score().total
                if score > best_score:
                    best, best_score = option, score
    if HAT in faces and layout.has_real_skull() and not layout.hat and layout.with_hat(True).score().total > best_score:
        best = layout.with_hat(True)
    return best
