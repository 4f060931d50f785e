"""The play with the best chance to win the game, fast enough for the table.

The exact answer is the expectimax of ``advisor.py`` with ``win_utility``; it has no
remembered search (its utility changes with every score), so a big throw takes it
half a minute. When it does not fit in ``EXACT_THROWS`` throws, each play is weighed
instead by its exact value if it ends the turn now (bury, lose), and otherwise by
``ROLLOUTS`` simulated rests of the turn played by the expected-points advisor (its
remembered search makes a whole turn ~1 ms): the chance to win of "this play now,
points play after". The same simulated throws serve every play (common random
numbers), so plays are compared on equal luck.
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Callable

from .advice import Play, SearchTooLong, advise, budget
from .advisor import Advisor
from .layout import Layout
from .turn import LAY, OVER, Turn

EXACT_THROWS = 1_000  # ~0.25 s of exact win search here; past it, rollouts
ROLLOUTS = 100  # simulated rests of the turn per play (the estimate's spread: about +-0.05)
RIVALS = 6  # the plays weighed: the best by expected points, and the best bury and roll again


def follow(turn: Turn, play: Play) -> tuple[Turn, int | None]:
    """Make ``play`` on the state machine: the turn waiting for its next throw, or its points if it ended."""
    for face, slot in play.lay:
        turn = turn.lay(face, slot)
        if turn.phase == OVER:
            return turn, turn.points
    if play.bury:
        return turn, turn.bury().points
    if play.pay is None:
        return turn, 0
    if play.take_hat:
        turn = turn.take_hat()
    return turn.pay(list(play.pay)), None


def throw(turn: Turn, rng: random.Random) -> Turn:
    return turn.throw(turn.random_throw(rng))


def finish_turn(turn: Turn, advisor: Advisor, rng: random.Random) -> int:
    """Throw and play the expected-points advisor's play until the turn ends; its points."""
    while True:
        turn = throw(turn, rng)
        if turn.phase == OVER:
            return turn.points
        plays, _ = advise(advisor, turn.layout, list(turn.loose), turn.next_cost)
        turn, points = follow(turn, plays[0])
        if points is not None:
            return points


def win_plays(
    layout: Layout,
    roll: list[str],
    next_cost: int,
    lay_done: bool,
    utility: Callable[[int], float],
    points: list[Play],
    advisor: Advisor,
    seed: int | None = None,
) -> tuple[list[Play], str]:
    """Plays valued by the chance to win, best first, and how: "exact" or "estimated".

    ``points``: the expected-points plays for the same throw (from ``advisor``)."""
    search = Advisor(utility)
    try:
        with budget(search, EXACT_THROWS):
            plays, _ = advise(search, layout, roll, next_cost, lay_done)
        return plays, "exact"
    except SearchTooLong:
        pass
    start = Turn(
        layout=layout,
        phase=LAY,
        loose=tuple(roll),
        post_ops=next_cost - 1,
        laid_this_roll=("laid",) if lay_done else (),
    )
    if seed is None:
        seed = zlib.crc32(repr((layout.to_json(), sorted(roll), next_cost)).encode())
    rivals = points[:RIVALS]
    for then in ("bury", "roll"):  # the best of each way to go on is always weighed
        best = next((p for p in points if p.then == then), None)
        if best is not None and best not in rivals:
            rivals.append(best)
    valued = []
    for play in rivals:
        turn, ended = follow(start, play)
        if ended is not None:
            valued.append(Play(play.lay, play.bury, play.take_hat, play.pay, utility(ended)))
            continue
        rng = random.Random(seed)  # the same throws for every play
        chance = sum(utility(finish_turn(turn, advisor, rng)) for _ in range(ROLLOUTS)) / ROLLOUTS
        valued.append(Play(play.lay, play.bury, play.take_hat, play.pay, chance))
    valued.sort(key=lambda p: -p.value)
    return valued, "estimated"
