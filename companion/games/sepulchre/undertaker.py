"""The Undertaker: keeps the Ossuary and checks every change of the graves (rules/sepulchre.md).

A change is the difference between the graves the Undertaker last recorded and
the graves it sees now. It is split into transfers of single pieces (Ossuary to
grave, grave to Ossuary, and grave to grave for skulls and arms) and each is
checked. A change that breaks a rule is refused with the rule named; the table
fixes the pieces or records it anyway as an override.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ...errors import BadInput, IllegalPlay
from .pieces import NEED, PIECES, WIN_SKELETONS, Counts, add, box, complete, counts, describe, in_progress

OSSUARY = "ossuary"


@dataclass(frozen=True)
class Transfer:
    piece: str
    source: str  # a grave's name, or "ossuary"
    dest: str

    def __str__(self) -> str:
        src = "the Ossuary" if self.source == OSSUARY else f"grave {self.source}"
        dst = "the Ossuary" if self.dest == OSSUARY else f"grave {self.dest}"
        return f"1 {self.piece} from {src} to {dst}"


# Only these types move from one grave to another (Mad Scientist: skull; Wild Animal: arm).
# Any other type lost by one grave and gained by another is a Decay plus a skeleton card.
GRAVE_TO_GRAVE = ("skull", "arm")


@dataclass(frozen=True)
class Flag:
    rule: str
    message: str


@dataclass(frozen=True)
class Sepulchre:
    players: tuple[str, ...]
    box: dict[str, int]
    graves: dict[str, dict[str, int]]
    long_play: bool = False
    current: int = 0
    against: frozenset[str] = frozenset()  # opponents a card was played against this turn
    completed: frozenset[str] = frozenset()  # graves that completed a skeleton this turn
    finished: tuple[str, ...] = ()  # players with three skeletons, in order
    last_change: tuple[str, ...] = ()
    overrides: tuple[str, ...] = ()

    # -- setup --------------------------------------------------------------------------------

    @classmethod
    def start(cls, setup: dict[str, Any]) -> Sepulchre:
        players = setup.get("players")
        if not isinstance(players, list) or not 2 <= len(players) <= 4:
            raise BadInput("Sepulchre is for 2 to 4 players: give a list of names")
        names = [str(p).strip() for p in players]
        if any(not n or n == OSSUARY for n in names) or len(set(names)) != len(names):
            raise BadInput("player names must be non-empty, different, and not 'ossuary'")
        sets = setup.get("sets", 12)
        if not isinstance(sets, int) or isinstance(sets, bool) or not len(names) <= sets <= 12:
            raise BadInput(f"sets in the box must be a whole number from {len(names)} to 12")
        start = counts({"skull": 1} if setup.get("alternate") else {})
        return cls(tuple(names), box(sets), {n: dict(start) for n in names}, bool(setup.get("long_play", False)))

    # -- what is on the table -------------------------------------------------------------------

    @property
    def ossuary(self) -> Counts:
        return add(self.box, _sum(self.graves.values()), -1)

    @property
    def player(self) -> str:
        return self.players[self.current]

    @property
    def winner(self) -> str | None:
        return self.finished[0] if self.finished else None

    @property
    def over(self) -> bool:
        active = [p for p in self.players if p not in self.finished]
        return bool(self.finished) and (not self.long_play or len(active) <= 1)

    @property
    def card_limit(self) -> int:
        """Decay and Cemetery cards against opponents this turn: one per opponent still in the game."""
        return len([p for p in self.players if p not in self.finished and p != self.player])

    # -- a change of the graves -------------------------------------------------------------

    def transfers(self, seen: dict[str, Counts]) -> list[Transfer]:
        """Split the difference into single-piece moves; a grave's lost skull or arm feeds another's gain first."""
        moves: list[Transfer] = []
        for piece in PIECES:
            gains, losses = [], []
            for name in self.players:
                delta = seen[name][piece] - self.graves[name][piece]
                gains += [name] * max(delta, 0)
                losses += [name] * max(-delta, 0)
            while gains and losses and piece in GRAVE_TO_GRAVE:
                moves.append(Transfer(piece, losses.pop(0), gains.pop(0)))
            moves += [Transfer(piece, OSSUARY, g) for g in gains]
            moves += [Transfer(piece, g, OSSUARY) for g in losses]
        return moves

    def check(self, seen: dict[str, Counts]) -> tuple[list[Transfer], list[Flag]]:
        left = add(self.box, _sum(seen.values()), -1)
        for piece in PIECES:
            if left[piece] < 0:  # a miscount, not a play: nothing to override
                raise BadInput(
                    f"{self.box[piece] - left[piece]} {piece} pieces in the graves, more than "
                    f"the box holds ({self.box[piece]}): count again"
                )
        moves = self.transfers(seen)
        flags: list[Flag] = []
        taken_from: list[str] = []
        for move in moves:
            if move.source != OSSUARY:
                flags += self._check_taking(move, seen)
                if move.source != self.player:
                    taken_from.append(move.source)
        for name in {m.dest for m in moves if m.dest != OSSUARY}:
            flags += self._check_grave(name, seen[name])
        for name in sorted(set(taken_from)):
            if name in self.against or taken_from.count(name) > 1:
                flags.append(
                    Flag("one card per opponent", f"at most one Decay or Cemetery card against {name} per turn")
                )
            if name in self.finished:
                flags.append(Flag("long play", f"{name} has finished: no more cards against them"))
        if len(self.against | set(taken_from)) > self.card_limit:
            flags.append(Flag("cards per turn", f"at most {self.card_limit} Decay or Cemetery cards this turn"))
        return moves, flags

    def _check_taking(self, move: Transfer, seen: dict[str, Counts]) -> list[Flag]:
        old = self.graves[move.source]
        if move.dest == OSSUARY and move.source == self.player:
            return [
                Flag(
                    "Decay",
                    f"no card returns your own pieces to the Ossuary: Decay is played "
                    f"against an opponent (grave {move.source}, {move.piece})",
                )
            ]
        if move.dest == OSSUARY:  # Decay
            if move.piece == "skull":
                return [Flag("Decay", f"Decay never takes a skull (grave {move.source})")]
            if in_progress(old)[move.piece] < 1:
                return [
                    Flag(
                        "Decay", f"Decay never takes a piece of a complete skeleton (grave {move.source}, {move.piece})"
                    )
                ]
            return []
        if move.piece == "skull":  # Mad Scientist
            if complete(old) < 1:
                return [
                    Flag(
                        "Mad Scientist",
                        f"Mad Scientist takes a skull only from a complete skeleton (grave {move.source} has none)",
                    )
                ]
            return []
        # Wild Animal: the only other type that transfers() pairs grave to grave is an arm.
        if in_progress(old)["arm"] < 1:
            return [
                Flag("Wild Animal", f"Wild Animal takes an arm only from a skeleton in progress (grave {move.source})")
            ]
        return []

    def _check_grave(self, name: str, grave: Counts) -> list[Flag]:
        flags = []
        building = in_progress(grave)
        if building["skull"] > 1:
            flags.append(
                Flag(
                    "one skeleton in progress",
                    f"grave {name}: a second skeleton may not be started before the first is complete",
                )
            )
        if building["skull"] == 0 and any(building[p] for p in PIECES):
            flags.append(
                Flag(
                    "skull first",
                    f"grave {name}: a skeleton starts with its skull ({describe(building)} without a skull)",
                )
            )
        for piece in PIECES:
            if building[piece] > NEED[piece] and piece != "skull":
                flags.append(
                    Flag(
                        "one skeleton's worth",
                        f"grave {name}: {building[piece]} {piece} pieces, a skeleton needs {NEED[piece]}",
                    )
                )
        done_before = complete(self.graves[name])
        finishing = complete(grave) > done_before or name in self.completed
        if finishing and building["skull"] >= 1 and complete(grave) >= done_before:
            flags.append(Flag("new skeleton", f"grave {name}: no new skeleton on the turn one is completed"))
        return flags

    # -- commands -----------------------------------------------------------------------------

    def observe(self, data: Any, override: str | None = None) -> Sepulchre:
        """Record the graves as seen; refused (IllegalPlay naming the rule) unless legal or overridden."""
        if self.over:
            raise IllegalPlay(f"the game is over: {self.winner} won")
        seen = self._parse(data)
        moves, flags = self.check(seen)
        if flags and not override:
            raise IllegalPlay(f"{flags[0].rule}: {flags[0].message}")
        against = self.against | {m.source for m in moves if m.source not in (OSSUARY, self.player)}
        completed = self.completed | {n for n in self.players if complete(seen[n]) > complete(self.graves[n])}
        finished = self.finished + tuple(
            n for n in self.players if complete(seen[n]) >= WIN_SKELETONS and n not in self.finished
        )
        notes = tuple(self._note(m) for m in moves)
        overrides = self.overrides + ((f"{override}: " + "; ".join(f.message for f in flags),) if flags else ())
        return replace(
            self,
            graves=seen,
            against=frozenset(against),
            completed=frozenset(completed),
            finished=finished,
            last_change=notes,
            overrides=overrides,
        )

    def _note(self, move: Transfer) -> str:
        if move.source == self.player and move.dest != OSSUARY:
            return f"{move} (Haunt: {move.dest} turned a Cemetery card on this turn)"
        return str(move)

    def next_turn(self) -> Sepulchre:
        """TURN: the per-turn limits reset; finished players are skipped in the long play."""
        if self.over:
            raise IllegalPlay(f"the game is over: {self.winner} won")
        nxt = self.current
        for _ in self.players:
            nxt = (nxt + 1) % len(self.players)
            if self.players[nxt] not in self.finished:
                break
        return replace(self, current=nxt, against=frozenset(), completed=frozenset(), last_change=())

    def _parse(self, data: Any) -> dict[str, Counts]:
        if not isinstance(data, dict):
            raise BadInput("graves must be a JSON object: grave name -> piece counts")
        unknown = set(data) - set(self.players)
        if unknown:
            raise BadInput(f"no grave called {sorted(unknown)[0]!r} (graves: {', '.join(self.players)})")
        return {n: counts(data.get(n, self.graves[n]), f"grave {n}") for n in self.players}

    def view(self) -> dict[str, Any]:
        return {
            "players": list(self.players),
            "player": self.player,
            "current": self.current,
            "graves": {
                n: {"pieces": g, "complete": complete(g), "in_progress": in_progress(g)} for n, g in self.graves.items()
            },
            "ossuary": self.ossuary,
            "winner": self.winner,
            "finished": list(self.finished),
            "over": self.over,
            "long_play": self.long_play,
            "cards_left": self.card_limit - len(self.against),
            "last_change": list(self.last_change),
            "overrides": list(self.overrides),
        }


def _sum(graves) -> Counts:
    total = counts()
    for grave in graves:
        total = add(total, grave)
    return total
