"""A game of Rolling Bones: players in turn order, scores, target, and the current turn."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from ...errors import BadInput, IllegalPlay
from .layout import parse_faces
from .turn import OVER, Turn

DEFAULT_TARGET = 100
MOST_TARGET = 10_000  # a game to more points than this is a slip of the finger


@dataclass(frozen=True)
class Match:
    players: tuple[str, ...]
    target: int = DEFAULT_TARGET
    scores: tuple[int, ...] = ()
    current: int = 0
    turn: Turn = field(default_factory=Turn)
    history: tuple[tuple[str, int], ...] = ()  # (player, points) per finished turn
    winner: str | None = None

    @classmethod
    def start(cls, setup: dict[str, Any]) -> Match:
        players = setup.get("players")
        if not isinstance(players, list) or len(players) < 2:
            raise BadInput("Rolling Bones needs a list of at least 2 players")
        names = [str(p).strip() for p in players]
        if any(not n for n in names) or len(set(names)) != len(names):
            raise BadInput("player names must be non-empty and different")
        target = setup.get("target", DEFAULT_TARGET)
        if not isinstance(target, int) or isinstance(target, bool) or not 1 <= target <= MOST_TARGET:
            raise BadInput(f"target must be a whole number of points from 1 to {MOST_TARGET}")
        return cls(tuple(names), target, tuple(0 for _ in names))

    @property
    def player(self) -> str:
        return self.players[self.current]

    def apply(self, command: dict[str, Any]) -> Match:
        """Apply one table command; IllegalPlay or BadInput when the rules or format refuse it."""
        if self.winner is not None:
            raise IllegalPlay(f"the game is over: {self.winner} won")
        kind = command.get("type")
        if kind == "roll":
            return self._after(self.turn.throw(parse_faces(command.get("faces"))))
        if kind == "lay":
            face = command.get("face")
            slot = command.get("slot")
            parse_faces([face], "face")  # a face id, or a one-line error
            assert isinstance(face, str)
            return self._after(self.turn.lay(face, slot if isinstance(slot, str) else None))
        if kind == "take_hat":
            return self._after(self.turn.take_hat())
        if kind == "pay":
            return self._after(self.turn.pay(parse_faces(command.get("dice"), "dice")))
        if kind == "bury":
            return self._after(self.turn.bury())
        if kind == "next_turn":
            if self.turn.phase != OVER:
                raise IllegalPlay(f"{self.player}'s turn is not over: bury, roll again, or lose the skeleton first")
            return replace(self, current=(self.current + 1) % len(self.players), turn=Turn())
        raise BadInput(f"unknown Rolling Bones command {kind!r}")

    def _after(self, turn: Turn) -> Match:
        match = replace(self, turn=turn)
        if turn.phase != OVER or self.turn.phase == OVER:
            return match
        scores = list(match.scores)
        scores[self.current] += turn.points
        winner = self.player if scores[self.current] >= self.target else None
        return replace(match, scores=tuple(scores), history=self.history + ((self.player, turn.points),), winner=winner)

    def view(self) -> dict[str, Any]:
        turn = self.turn
        return {
            "players": list(self.players),
            "scores": list(self.scores),
            "target": self.target,
            "current": self.current,
            "player": self.player,
            "winner": self.winner,
            "history": [list(h) for h in self.history],
            "turn": {
                "phase": turn.phase,
                "layout": turn.layout.to_json(),
                "score": turn.layout.score().total,
                "loose": list(turn.loose),
                "laid_this_roll": list(turn.laid_this_roll),
                "to_throw": [list(kv) for kv in turn.to_throw],
                "post_ops": turn.post_ops,
                "next_cost": turn.next_cost,
                "can_bury": turn.can_bury(),
                "can_pay": turn.can_pay(),
                "outcome": turn.outcome,
                "points": turn.points,
                "why": turn.why,
                "legal": [{"face": m.face, "slot": m.slot} for m in turn.legal_lays()],
            },
        }
