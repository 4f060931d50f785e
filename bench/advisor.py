"""Rolling Bones advisor: self-play against simple policies, decision times, approximation error.

Every policy plays the same number of turns on the turn state machine (turn.py) with
its own seeded dice. Prints average points per turn with a 95 % confidence interval,
the advisor's median and worst decision time (one core), and the error of the
advisor's approximations against the exact search on states where both run.
Targets (issue 7): the advisor beats every simple policy clearly; median decision
<= 300 ms. ``--write-spread`` stores the advisor's points-per-turn spread in
companion/games/rolling_bones/turn_points.py (used by the win-chance objective).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
import zlib
from collections import Counter
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import pin_one_core  # noqa: E402
from companion.games.rolling_bones import Layout, best_layout  # noqa: E402
from companion.games.rolling_bones.advice import Play, advise  # noqa: E402
from companion.games.rolling_bones.advisor import Advisor  # noqa: E402
from companion.games.rolling_bones.dice import FACES, GRAVESTONE, HAT  # noqa: E402
from companion.games.rolling_bones.turn import OVER, Turn  # noqa: E402
from companion.games.rolling_bones.win_play import follow, throw  # noqa: E402

SPREAD_FILE = Path(__file__).resolve().parents[1] / "companion/games/rolling_bones/turn_points.py"

# A policy looks at a turn in the LAY phase and returns the play to make.
Policy = Callable[[Turn], Play]


def play_turn(policy: Policy, rng: random.Random, times: list[float] | None = None) -> int:
    turn = throw(Turn(), rng)
    while turn.phase != OVER:
        started = time.perf_counter()
        play = policy(turn)
        if times is not None:
            times.append(time.perf_counter() - started)
        turn, points = follow(turn, play)
        if points is not None:
            return points
        turn = throw(turn, rng)
    return turn.points


def advisor_policy(advisor: Advisor, exactness: Counter | None = None) -> Policy:
    def policy(turn: Turn) -> Play:
        plays, exact = advise(advisor, turn.layout, list(turn.loose), turn.next_cost)
        if exactness is not None:
            exactness[exact] += 1
        return plays[0]

    return policy


def simple_policy(bury_from: int | None) -> Policy:
    """Lay the best layout of each roll; bury on a gravestone once the score reaches
    ``bury_from`` (None: at the first gravestone); pay with the least useful dice."""

    def policy(turn: Turn) -> Play:
        loose = list(turn.loose)
        layout = best_layout(loose, turn.layout)
        lay = [(slot, slot) for slot in _in_chain_order(turn.layout, layout)]
        if layout.hat and not turn.layout.hat:
            lay.append((HAT, "skull"))
        if not lay and turn.post_ops and GRAVESTONE in loose:
            return Play((), True, False, None, layout.score().total)  # the gravestone is the only die to lay
        if not lay and turn.post_ops:
            forced = turn.legal_lays()
            if not forced:
                return Play((), False, False, None, 0)
            move = forced[0]
            lay = [(move.face, move.slot)]
            layout = turn.layout.with_bone(move.slot, move.face)
        for face, _ in lay:
            loose.remove(face)
        score = layout.score().total
        if GRAVESTONE in turn.loose and (bury_from is None or score >= bury_from or len(loose) - turn.next_cost < 1):
            return Play(tuple(lay), True, False, None, score)
        if len(loose) - turn.next_cost < 1:
            return Play(tuple(lay), False, False, None, 0)
        order = sorted(loose, key=lambda f: (f != GRAVESTONE and f not in layout.slots, FACES[f][0] == "center", f))
        return Play(tuple(lay), False, False, tuple(order[: turn.next_cost]), 0)

    return policy


def _in_chain_order(before: Layout, after: Layout) -> list[str]:
    from companion.games.rolling_bones.skeleton_masks import BIT, chain_order

    return chain_order(before.filled, sum(BIT[s] for s in after.slots if s not in before.slots))


def mean_ci(points: list[int]) -> tuple[float, float]:
    mean = statistics.fmean(points)
    return mean, 1.96 * statistics.stdev(points) / len(points) ** 0.5


def exact_value_of(advisor: Advisor, turn: Turn, play: Play) -> float:
    """What ``play`` is worth under the exact search: follow it on the state machine, then ask."""
    from companion.games.rolling_bones.skeleton_masks import layout_masks

    turn, points = follow(turn, play)
    if points is not None:
        return float(points)
    filled, wrong = layout_masks(turn.layout)
    counts = dict(turn.to_throw)
    value, _ = advisor.before_throw(
        filled, wrong, turn.layout.hat, (counts["left"], counts["right"], counts["center"]), turn.post_ops
    )
    return value


def approximation_error(states: list[Turn]) -> None:
    """The default advisor against the exact search, on decisions where the default approximates
    and the exact search still finishes (post-op throws of 7 to 12 dice)."""
    exact_advisor = Advisor(max_outcomes=10**9, max_full_lays=16, big_throw=99)
    fast = Advisor()
    errors, same, compared, started = [], 0, 0, time.perf_counter()
    for turn in states:
        plays_fast, fast_exact = advise(fast, turn.layout, list(turn.loose), turn.next_cost)
        if fast_exact:
            continue
        plays_exact, is_exact = advise(exact_advisor, turn.layout, list(turn.loose), turn.next_cost)
        if not is_exact:
            continue
        errors.append(abs(plays_fast[0].value - plays_exact[0].value))
        compared += 1
        same += exact_value_of(exact_advisor, turn, plays_fast[0]) >= plays_exact[0].value - 1e-9
    print(f"  (exact search: {time.perf_counter() - started:.0f} s)")
    if compared:
        print(
            f"approximation vs exact on {compared} decisions: |error| of the best value mean {statistics.fmean(errors):.4f}, "
            f"max {max(errors):.4f} points; the approximate choice is an exact best play in {same / compared:.1%}"
        )


def remembered(turns: int) -> None:
    """Decision times of a fresh process's advisor that starts from the stored memo (as the Pi does)."""
    from companion import advisor_memo

    started = time.perf_counter()
    advisor = advisor_memo.points_advisor()
    load_ms = (time.perf_counter() - started) * 1000
    times: list[float] = []
    rng = random.Random(99)
    for _ in range(turns):
        play_turn(advisor_policy(advisor), rng, times)
    print(
        f"from the stored memo (load {load_ms:.0f} ms): decisions over {turns} new turns median "
        f"{statistics.median(times) * 1000:.2f} ms, worst {max(times) * 1000:.0f} ms, "
        f"{sum(t > 1 for t in times)} of {len(times)} over 1 s"
    )


def write_spread(points: list[int]) -> None:
    body = ",\n    ".join(f"{p}: {n}" for p, n in sorted(Counter(points).items()))
    SPREAD_FILE.write_text(
        '"""Points per turn of the expected-points advisor in self-play: how often each total came up.\n\n'
        f'Measured by bench/advisor.py --write-spread over {len(points)} turns; used by win.py."""\n\n'
        f"TURN_POINTS: dict[int, int] = {{\n    {body},\n}}\n"
    )


def page_speed(states: int) -> None:
    """What the page waits for: the points play alone (asked first), then the play with the chance
    to win, from a fresh process's advisor (the shipped memo), on decisions of advisor self-play
    with random scores, for targets 100 and 300 and 2 or 6 players. Baseline: the exact win search
    (what the page ran before win_play.py) on the first few of them."""
    from companion.advisor_memo import points_advisor
    from companion.games.rolling_bones.advice import TurnState, advice_for
    from companion.games.rolling_bones.win import win_table, win_utility
    from companion.web.bones import PAGE_BUDGET

    advisor = points_advisor()
    rng = random.Random(21)
    decisions: list[Turn] = []
    while len(decisions) < states:
        turn = throw(Turn(), rng)
        while turn.phase != OVER and len(decisions) < states:
            decisions.append(turn)
            plays, _ = advise(advisor, turn.layout, list(turn.loose), turn.next_cost)
            turn, points = follow(turn, plays[0])
            if points is not None:
                break
            turn = throw(turn, rng)
    for target in (100, 300):
        started = time.perf_counter()
        win_table(target)
        print(f"  win table for target {target}: {(time.perf_counter() - started) * 1000:.0f} ms (once per process)")
        for players in (2, 6):
            points_ms, win_ms, methods = [], [], Counter()
            for turn in decisions:
                scores = [rng.randrange(0, target) for _ in range(players)]
                state = TurnState(turn.layout, turn.loose, turn.next_cost, scores[0], tuple(scores[1:]), target)
                started = time.perf_counter()
                advice_for(state, advisor, throws=PAGE_BUDGET, win=False)
                points_ms.append((time.perf_counter() - started) * 1000)
                started = time.perf_counter()
                answer = advice_for(state, advisor, throws=PAGE_BUDGET)
                win_ms.append((time.perf_counter() - started) * 1000)
                methods[answer.get("win", {}).get("method", "skipped")] += 1
            print(
                f"  target {target}, {players} players, {len(decisions)} decisions: points play median "
                f"{statistics.median(points_ms):.1f} ms, worst {max(points_ms):.0f} ms "
                f"({sum(t <= 300 for t in points_ms)} within 300 ms); with the win play median "
                f"{statistics.median(win_ms):.0f} ms, worst {max(win_ms):.0f} ms "
                f"({sum(t <= 1000 for t in win_ms)} within 1 s); win {dict(methods)}"
            )
    baseline = decisions[:3]
    exact_ms = []
    for turn in baseline:
        started = time.perf_counter()
        advise(Advisor(win_utility(60, 70, 100)), turn.layout, list(turn.loose), turn.next_cost)
        exact_ms.append((time.perf_counter() - started) * 1000)
    print(
        f"  baseline, the exact win search on the first {len(baseline)} decisions: median "
        f"{statistics.median(exact_ms):.0f} ms, worst {max(exact_ms):.0f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--turns", type=int, default=20000, help="turns per simple policy")
    parser.add_argument("--advisor-turns", type=int, default=20000)
    parser.add_argument(
        "--advisor-minutes", type=float, default=240, help="stop the advisor's self-play after this long"
    )
    parser.add_argument("--error-states", type=int, default=200, help="decisions to check against the exact search")
    parser.add_argument("--write-spread", action="store_true")
    parser.add_argument(
        "--write-memo", action="store_true", help="store the filled memo in the package (companion/data/)"
    )
    parser.add_argument("--remembered-turns", type=int, default=2000, help="turns played from the stored memo")
    parser.add_argument("--page-states", type=int, default=60, help="decisions timed as the page asks them (0: skip)")
    args = parser.parse_args()
    pin_one_core()
    if args.page_states:
        print("page advice (one core):", flush=True)
        page_speed(args.page_states)

    results: dict[str, tuple[float, float]] = {}
    simple = [("bury at the first gravestone", None)] + [(f"roll until {n} points", n) for n in (5, 10, 15, 20, 25)]
    for name, bury_from in simple if args.turns else []:
        rng = random.Random(zlib.crc32(name.encode()))
        points = [play_turn(simple_policy(bury_from), rng) for _ in range(args.turns)]
        results[name] = mean_ci(points)
        print(
            f"{name:32s} {results[name][0]:6.2f} ± {results[name][1]:.2f} points per turn ({args.turns} turns)",
            flush=True,
        )

    advisor, times, points, exactness = (
        Advisor(max_states=4_000_000),
        [],
        [],
        Counter(),
    )  # a bench machine has the memory
    rng, started = random.Random(7), time.perf_counter()
    for i in range(args.advisor_turns):
        points.append(play_turn(advisor_policy(advisor, exactness), rng, times))
        if (i + 1) % 250 == 0:
            m, ci = mean_ci(points)
            print(
                f"  advisor after {i + 1} turns: {m:.2f} ± {ci:.2f}; {time.perf_counter() - started:.0f} s; "
                f"{len(advisor._pre) + len(advisor._post)} states remembered; decisions median "
                f"{statistics.median(times) * 1000:.2f} ms",
                flush=True,
            )
            if args.write_spread:
                write_spread(points)
        if time.perf_counter() - started > args.advisor_minutes * 60:
            print(f"  advisor stopped after {i + 1} turns: the --advisor-minutes budget ran out", flush=True)
            break
    if not points:
        return approximation_check(args)
    results["advisor"] = mean_ci(points)
    best_simple = max(((v[0], k) for k, v in results.items() if k != "advisor"), default=(float("nan"), "none run"))
    print(
        f"{'advisor (expected points)':32s} {results['advisor'][0]:6.2f} ± {results['advisor'][1]:.2f} points per turn "
        f"({len(points)} turns); best simple policy: {best_simple[1]} {best_simple[0]:.2f}"
    )
    print(
        f"advisor decision time: median {statistics.median(times) * 1000:.2f} ms, worst {max(times) * 1000:.0f} ms "
        f"over {len(times)} decisions (one core; the first decisions fill the memo); "
        f"{exactness[True] / max(1, len(times)):.1%} of decisions exact"
    )

    if args.write_spread:
        write_spread(points)
        print(f"wrote {SPREAD_FILE}")
    if args.write_memo:
        from companion import advisor_memo

        path = advisor_memo.save(advisor)
        print(f"wrote {path} ({path.stat().st_size / 1e6:.1f} MB, {len(advisor._pre) + len(advisor._post)} states)")
        remembered(args.remembered_turns)

    approximation_check(args)


def approximation_check(args: argparse.Namespace) -> None:
    small: list[Turn] = []
    first_gravestone = simple_policy(None)

    def recording(turn: Turn) -> Play:
        if turn.post_ops and 7 <= len(turn.loose) <= 12 and len(small) < args.error_states:
            small.append(turn)
        return first_gravestone(turn)

    sample_rng = random.Random(11)
    while len(small) < args.error_states:
        play_turn(recording, sample_rng)
    approximation_error(small)


if __name__ == "__main__":
    main()
