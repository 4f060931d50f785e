"""A Stage as JSON: the map, the characters, the monsters and the d20 rolls to use, validated."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from ...errors import BadInput
from .grid import CHARACTER_WALKS, MONSTER_WALKS, MOST_CELLS_A_SIDE, TERRAIN_NAMES, Cell, Grid

ATTACK_KINDS = ("line", "corner", "pierce")
ALL = "all"
MOST_PIECES = 40  # characters and monsters on one map: more than any box holds (and bounded Stage-turn work)
MOST_STEPS = 2 * MOST_CELLS_A_SIDE  # a move or range longer than the widest map's span reaches nothing more
MOST_NUMBER = 10_000  # hit points, armour, modifiers: no card comes near


@dataclass(frozen=True)
class Attack:
    modifier: int
    min_range: int
    max_range: int
    damage: int
    kind: str = "line"
    targets: int | str = 1  # a count, or "all"

    def cap(self, available: int) -> int:
        return available if self.targets == ALL else min(available, int(self.targets))


@dataclass(frozen=True)
class Character:
    id: str
    pos: Cell
    hp: int
    max_hp: int
    armor: int
    shield: int = 0
    stealth: bool = False

    @property
    def alive(self) -> bool:
        return self.hp >= 1


@dataclass(frozen=True)
class Monster:
    id: str
    pos: Cell
    hp: int
    move: int
    attack: Attack
    armor: int = 0
    revealed: bool = True

    @property
    def alive(self) -> bool:
        return self.hp >= 1


@dataclass(frozen=True)
class Scenario:
    grid: Grid
    characters: tuple[Character, ...]
    monsters: tuple[Monster, ...]
    rolls: tuple[int, ...] = field(default=())

    @classmethod
    def from_json(cls, data: Any) -> Scenario:
        if not isinstance(data, dict):
            raise BadInput("a scenario is a JSON object with map, characters and monsters")
        if "map" not in data:
            raise BadInput("scenario: missing field 'map'")
        grid = Grid.parse(data["map"])
        characters = tuple(_character(c, f"characters[{i}]") for i, c in enumerate(_list(data, "characters")))
        monsters = tuple(_monster(m, f"monsters[{i}]") for i, m in enumerate(_list(data, "monsters")))
        if len(characters) + len(monsters) > MOST_PIECES:
            raise BadInput(
                f"{len(characters)} characters and {len(monsters)} monsters: at most {MOST_PIECES} pieces on a map"
            )
        rolls = data.get("rolls", [])
        if not isinstance(rolls, list):
            raise BadInput("rolls must be a list of d20 results")
        for i, roll in enumerate(rolls):
            if not _is_int(roll) or not 1 <= roll <= 20:
                raise BadInput(f"rolls[{i}]: {roll!r} is not a d20 roll (1-20)")
        scenario = cls(grid, characters, monsters, tuple(rolls))
        scenario.check_board()
        return scenario

    def check_board(self) -> None:
        """Ids unique; every living piece on its own cell of terrain it may stand on."""
        seen_ids: set[str] = set()
        held: dict[Cell, str] = {}
        pieces = [(c, CHARACTER_WALKS) for c in self.characters] + [(m, MONSTER_WALKS) for m in self.monsters]
        for piece, walks in pieces:
            if piece.id in seen_ids:
                raise BadInput(f"two pieces are called {piece.id!r}")
            seen_ids.add(piece.id)
            if not piece.alive:
                continue
            x, y = piece.pos
            terrain = self.grid.terrain(piece.pos)
            if not self.grid.inside(piece.pos):
                raise BadInput(f"{piece.id} at [{x}, {y}] is outside the map")
            if terrain not in walks:
                raise BadInput(f"{piece.id} at [{x}, {y}] stands on {TERRAIN_NAMES[terrain]} (row {y}, column {x})")
            if piece.pos in held:
                raise BadInput(f"{piece.id} and {held[piece.pos]} are both on [{x}, {y}]")
            held[piece.pos] = piece.id

    def to_json(self) -> dict[str, Any]:
        return {
            "map": list(self.grid.rows),
            "characters": [
                {
                    "id": c.id,
                    "pos": list(c.pos),
                    "hp": c.hp,
                    "max_hp": c.max_hp,
                    "armor": c.armor,
                    "shield": c.shield,
                    "stealth": c.stealth,
                }
                for c in self.characters
            ],
            "monsters": [
                {
                    "id": m.id,
                    "pos": list(m.pos),
                    "hp": m.hp,
                    "move": m.move,
                    "armor": m.armor,
                    "revealed": m.revealed,
                    "attack": {
                        "modifier": m.attack.modifier,
                        "range": [m.attack.min_range, m.attack.max_range],
                        "damage": m.attack.damage,
                        "kind": m.attack.kind,
                        "targets": m.attack.targets,
                    },
                }
                for m in self.monsters
            ],
            "rolls": list(self.rolls),
        }

    def with_pieces(
        self, characters: tuple[Character, ...], monsters: tuple[Monster, ...], rolls: tuple[int, ...]
    ) -> Scenario:
        return replace(self, characters=characters, monsters=monsters, rolls=rolls)


# -- field readers: each names the field it refuses -------------------------------------


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _list(data: dict, key: str) -> list:
    if key not in data:
        raise BadInput(f"scenario: missing field {key!r}")
    if not isinstance(data[key], list):
        raise BadInput(f"{key} must be a list")
    return data[key]


def _field(obj: dict, key: str, where: str, default: Any = ...) -> Any:
    if key in obj:
        return obj[key]
    if default is ...:
        raise BadInput(f"{where}: missing field {key!r}")
    return default


def _int(obj: dict, key: str, where: str, default: Any = ..., low: int | None = None, high: int = MOST_NUMBER) -> int:
    value = _field(obj, key, where, default)
    if not _is_int(value):
        raise BadInput(f"{where}.{key} must be a whole number, not {value!r}")
    if low is not None and value < low:
        raise BadInput(f"{where}.{key} must be at least {low}, not {value}")
    if abs(value) > high:
        raise BadInput(f"{where}.{key} must be at most {high}, not {value}")
    return value


def _id(obj: Any, where: str) -> str:
    if not isinstance(obj, dict):
        raise BadInput(f"{where} must be a JSON object")
    value = _field(obj, "id", where)
    if not isinstance(value, str) or not value:
        raise BadInput(f"{where}.id must be a non-empty string")
    return value


def _pos(obj: dict, where: str) -> Cell:
    value = _field(obj, "pos", where)
    if not (isinstance(value, list) and len(value) == 2 and all(_is_int(v) for v in value)):
        raise BadInput(f"{where}.pos must be [x, y] whole numbers, not {value!r}")
    return (value[0], value[1])


def _bool(obj: dict, key: str, where: str, default: bool) -> bool:
    value = obj.get(key, default)
    if not isinstance(value, bool):
        raise BadInput(f"{where}.{key} must be true or false")
    return value


def _character(obj: Any, where: str) -> Character:
    ident = _id(obj, where)
    hp = _int(obj, "hp", where)
    return Character(
        ident,
        _pos(obj, where),
        hp,
        _int(obj, "max_hp", where, hp),
        _int(obj, "armor", where),
        _int(obj, "shield", where, 0, low=0),
        _bool(obj, "stealth", where, False),
    )


def _monster(obj: Any, where: str) -> Monster:
    ident = _id(obj, where)
    return Monster(
        ident,
        _pos(obj, where),
        _int(obj, "hp", where),
        _int(obj, "move", where, low=0, high=MOST_STEPS),
        _attack(_field(obj, "attack", where), f"{where}.attack"),
        _int(obj, "armor", where, 0),
        _bool(obj, "revealed", where, True),
    )


def _attack(obj: Any, where: str) -> Attack:
    if not isinstance(obj, dict):
        raise BadInput(f"{where} must be a JSON object")
    span = _field(obj, "range", where)
    if not (
        isinstance(span, list)
        and len(span) == 2
        and all(_is_int(v) for v in span)
        and 0 <= span[0] <= span[1] <= MOST_STEPS
        and span[1] >= 1
    ):
        raise BadInput(
            f"{where}.range must be [min, max] with 0 <= min <= max <= {MOST_STEPS} and max >= 1, not {span!r}"
        )
    kind = obj.get("kind", "line")
    if kind not in ATTACK_KINDS:
        raise BadInput(f"{where}.kind must be one of {', '.join(ATTACK_KINDS)}, not {kind!r}")
    targets = obj.get("targets", 1)
    if targets != ALL and not (_is_int(targets) and targets >= 1):
        raise BadInput(f'{where}.targets must be a count of at least 1 or "all", not {targets!r}')
    return Attack(_int(obj, "modifier", where), span[0], span[1], _int(obj, "damage", where, low=0), kind, targets)
