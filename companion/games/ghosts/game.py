"""A game of Ghosts in the Graveyard as the table plays it: the board, the turns, what was said.

The companion never knows a secret: players enter what they say at the table (a guess and
its answer, a light and its answer, the secret a wrong guesser reveals), and the board and
the deduction helper follow from that record.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ...errors import BadInput, IllegalPlay
from .board import DIRECTIONS, LANTERN, Flashlight, Placement, flood, tombstone
from .deduce import Asked, Event, Guessed, Knowledge, Revealed

FLOOD = "flood"
HANDS = 2
MOST_NAME = 24


@dataclass(frozen=True)
class Player:
    name: str
    flashlight: str
    revealed: tuple[int, ...] = ()  # their own secrets shown to the table (decoys), in order
    vanish: bool = False  # abilities used
    raven: bool = False
    hands: int = 0
    out: bool = False  # only the haunt left and guessed wrong (3-4 players): answers, takes no turns

    @property
    def held(self) -> int:
        return 3 - len(self.revealed)

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "flashlight": self.flashlight,
            "revealed": list(self.revealed),
            "held": self.held,
            "vanish": self.vanish,
            "raven": self.raven,
            "hands": self.hands,
            "out": self.out,
        }


@dataclass(frozen=True)
class Ghosts:
    players: tuple[Player, ...]
    flashlights: dict[str, Flashlight]
    played: tuple[int, ...] = ()  # tombstones crossed for cards (first draws, searches, discarded hands)
    current: int = 0
    said: tuple[dict[str, Any], ...] = ()  # every question and answer heard, in order
    winner: str | None = None
    ended: str = ""  # why the game ended, when it did

    # -- setup ------------------------------------------------------------------------------

    @classmethod
    def start(cls, setup: dict[str, Any]) -> Ghosts:
        flashlights = {"lantern": Flashlight("lantern", LANTERN)}
        shapes = setup.get("flashlights", {})
        if not isinstance(shapes, dict):
            raise BadInput('"flashlights" maps a name to its open squares, e.g. {"lantern": [[0, 0], [0, 1]]}')
        for name, cells in shapes.items():
            flashlights[_light_name(name)] = Flashlight.from_json(_light_name(name), cells)
        entries = setup.get("players")
        if not isinstance(entries, list) or not 2 <= len(entries) <= 4:
            raise BadInput("Ghosts in the Graveyard is for 2 to 4 players: give a list of names")
        players = []
        for entry in entries:
            name, light = (
                (entry.get("name"), entry.get("flashlight", "lantern"))
                if isinstance(entry, dict)
                else (entry, "lantern")
            )
            if not isinstance(name, str) or not name.strip() or len(name.strip()) > MOST_NAME:
                raise BadInput(f"a player's name is 1-{MOST_NAME} characters, not {name!r}")
            if light not in flashlights:
                raise BadInput(f"no flashlight called {light!r} (known: {', '.join(sorted(flashlights))})")
            players.append(Player(name.strip(), light))
        if len({p.name for p in players}) != len(players):
            raise BadInput("player names must differ")
        game = cls(tuple(players), flashlights)
        drawn = setup.get("first_cards")
        if drawn is None:
            return game
        if not isinstance(drawn, list) or len(drawn) != len(players):
            raise BadInput("first_cards: one card a player, in seat order (each is crossed; the highest starts)")
        cards = [tombstone(n) for n in drawn]
        if len(set(cards)) != len(cards):
            raise BadInput("first_cards: each card is a different tombstone")
        return replace(game, played=tuple(cards), current=cards.index(max(cards)))

    # -- what is on the table ---------------------------------------------------------------

    @property
    def player(self) -> Player:
        return self.players[self.current]

    @property
    def over(self) -> bool:
        return bool(self.ended)

    def left_of(self, seat: int) -> int:
        """The opponent a player asks: the next seat clockwise, out or not (an out player still answers)."""
        return (seat + 1) % len(self.players)

    @property
    def crossed(self) -> frozenset[int]:
        return frozenset(self.played) | {t for p in self.players for t in p.revealed}

    def seat(self, name: str) -> int:
        for i, p in enumerate(self.players):
            if p.name == name:
                return i
        raise BadInput(f"no player called {name!r}")

    def knowledge(self, seat: int, hand: frozenset[int] = frozenset()) -> Knowledge:
        """What everyone heard about `seat`'s left opponent, in order, plus a hand only its holder knows."""
        target = self.left_of(seat)
        events: list[Event] = []
        for entry in self.said:
            if entry["of"] != target:
                continue
            if entry["kind"] == "asked":
                events.append(Asked(frozenset(entry["asked"]), entry["answer"]))
            elif entry["kind"] == "guess" and entry["answer"] in ("no", "decoy"):
                events.append(Guessed(entry["tombstone"], entry["answer"]))
            elif entry["kind"] == "revealed":
                events.append(Revealed(entry["tombstone"]))
        crossed = self.crossed - set(self.players[target].revealed)
        return Knowledge(crossed, hand - set(self.players[target].revealed), tuple(events))

    def lights_for(self, seat: int) -> list[str]:
        """The flashlights a player may use now: their own, and others' while a Hand is left."""
        own = self.players[seat].flashlight
        if self.players[seat].hands >= HANDS:
            return [own]
        return [own] + sorted({p.flashlight for p in self.players if p.flashlight != own})

    def placements(self, over: int, light: str) -> list[Placement]:
        """Every legal way to lay a light on the tombstone just crossed."""
        if light == FLOOD:
            return [Placement(f"{FLOOD} {d}", 0, (0, 0), flood(over, d)) for d in DIRECTIONS]
        return self.flashlights[light].placements(over)

    # -- a turn -----------------------------------------------------------------------------

    def vanish(self) -> Ghosts:
        self._playing()
        if self.player.vanish:
            raise IllegalPlay(f"{self.player.name} has used Vanish already")
        return self._with(self.current, vanish=True)

    def guess(
        self, number: object, answer: object, raven: bool = False, reveal: object = None, discard: object = ()
    ) -> Ghosts:
        self._playing()
        guesser, target = self.current, self.left_of(self.current)
        them = self.players[target]
        number = self._open(number, "guessed")
        if answer not in ("haunt", "decoy", "no"):
            raise BadInput(f'a guess is answered "haunt", "decoy" or "no", not {answer!r}')
        if raven and self.player.raven:
            raise IllegalPlay(f"{self.player.name} has used the Raven already")
        game = self._with(guesser, raven=True) if raven else self
        game = game._heard({"kind": "guess", "by": guesser, "of": target, "tombstone": number, "answer": answer})
        if answer == "haunt":
            return replace(
                game, winner=self.player.name, ended=f"{self.player.name} found {them.name}'s haunt at {number}"
            )
        if answer == "decoy":
            if them.held == 1:
                raise IllegalPlay(f"{number} cannot be a decoy: {them.name} has only the haunt left")
            return game._with(target, revealed=them.revealed + (number,))  # a free turn: the guesser goes again
        if raven:
            return game._next()
        if self.player.held > 1:
            if reveal is None:
                raise BadInput(f"a wrong guess: {self.player.name} reveals one of their secrets (which tombstone?)")
            shown = game._open(reveal, "revealed")
            game = game._heard({"kind": "revealed", "of": guesser, "tombstone": shown})
            return game._with(guesser, revealed=self.player.revealed + (shown,))._next()
        if len(self.players) == 2:
            return replace(game, winner=them.name, ended=f"{self.player.name} guessed wrong with only the haunt left")
        cards = discard if isinstance(discard, list) else []
        game = replace(game, played=game.played + tuple(game._open(n, "discarded") for n in cards))
        return game._with(guesser, out=True)._next()

    def search(
        self,
        played: object,
        light: object,
        answer: object,
        direction: object = None,
        turn: object = None,
        origin: object = None,
    ) -> Ghosts:
        self._playing()
        over = self._open(played, "played")
        if not isinstance(answer, bool):
            raise BadInput("a light is answered yes (true) or no (false)")
        game = replace(self, played=self.played + (over,))
        if light == FLOOD:
            if direction not in DIRECTIONS:
                raise BadInput(f"the Flood Light points N, E, S or W, not {direction!r}")
            area, how = flood(over, direction), f"Flood Light {direction}"
        else:
            if light not in self.flashlights:
                raise BadInput(f"no flashlight called {light!r}")
            if light not in self.lights_for(self.current):
                raise IllegalPlay(f"{self.player.name} has no Hand left to borrow the {light}")
            laid = [p for p in self.flashlights[light].placements(over) if p.turn == turn and list(p.origin) == origin]
            if not laid:
                raise IllegalPlay(f"the {light} cannot lie that way with an open square on {over}")
            area, how = laid[0].area, f"the {light}"
            if light != self.player.flashlight:
                game = game._with(self.current, hands=self.player.hands + 1)
        target = self.left_of(self.current)
        return game._heard(
            {
                "kind": "asked",
                "by": self.current,
                "of": target,
                "over": over,
                "light": how,
                "asked": sorted(area),
                "answer": answer,
            }
        )._next()

    def define_flashlight(self, name: object, cells: object, player: object = None) -> Ghosts:
        """A table's own flashlight shape (the rules print only the Lantern), given to a player if named."""
        light = _light_name(name)
        game = replace(self, flashlights={**self.flashlights, light: Flashlight.from_json(light, cells)})
        if player is None:
            return game
        if not isinstance(player, str):
            raise BadInput(f"no player called {player!r}")
        return game._with(self.seat(player), flashlight=light)

    # -- helpers ----------------------------------------------------------------------------

    def _playing(self) -> None:
        if self.over:
            raise IllegalPlay(f"the game is over: {self.ended}")

    def _open(self, number: object, what: str) -> int:
        n = tombstone(number)
        if n in self.crossed:
            raise IllegalPlay(f"{n} is crossed out: it cannot be {what}")
        return n

    def _with(self, seat: int, **change: Any) -> Ghosts:
        players = list(self.players)
        players[seat] = replace(players[seat], **change)
        return replace(self, players=tuple(players))

    def _heard(self, entry: dict[str, Any]) -> Ghosts:
        return replace(self, said=self.said + (entry,))

    def _next(self) -> Ghosts:
        for step in range(1, len(self.players) + 1):
            seat = (self.current + step) % len(self.players)
            if not self.players[seat].out:
                return replace(self, current=seat)
        return replace(self, ended="every player has stopped taking turns: no one found a haunt")

    def view(self) -> dict[str, Any]:
        crossed = self.crossed
        revealed = {t: p.name for p in self.players for t in p.revealed}
        return {
            "players": [p.to_json() for p in self.players],
            "current": self.current,
            "player": self.player.name,
            "opponent": self.players[self.left_of(self.current)].name,
            "board": [{"tombstone": t, "crossed": t in crossed, "revealed_by": revealed.get(t)} for t in range(1, 51)],
            "flashlights": {name: f.to_json() for name, f in sorted(self.flashlights.items())},
            "lights": [FLOOD] + self.lights_for(self.current),
            "last": self.said[-1] if self.said else None,
            "said": len(self.said),
            "winner": self.winner,
            "over": self.over,
            "ended": self.ended,
        }


def _light_name(name: object) -> str:
    if not isinstance(name, str) or not name.strip() or len(name.strip()) > MOST_NAME or name.strip() == FLOOD:
        raise BadInput(f"a flashlight's name is 1-{MOST_NAME} characters (not 'flood'), not {name!r}")
    return name.strip().lower()
