"""One monster's activation: focus, move, attack, flee; and the reason for each choice.

Follows rules/dark-tomb.md, "One monster's activation". Ties everywhere fall
to reading order (smaller y, then smaller x).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from .grid import Cell, reading_order
from .paths import distances
from .reach import Reach
from .scenario import Character, Monster

FLEE_STEPS = 4
FLEE_ROLL_MAX = 5


@dataclass(frozen=True)
class AttackRoll:
    target: str
    roll: int
    total: int
    hit: bool
    damage: int

    def to_json(self) -> dict:
        return {"target": self.target, "roll": self.roll, "total": self.total, "hit": self.hit, "damage": self.damage}


@dataclass
class Activation:
    monster: str
    start: Cell
    end: Cell
    focus: str | None = None
    modifier: int = 0
    attacks: list[AttackRoll] = field(default_factory=list)
    fled_to: Cell | None = None
    why: str = ""

    def to_json(self) -> dict:
        return {
            "monster": self.monster,
            "from": list(self.start),
            "to": list(self.end),
            "focus": self.focus,
            "modifier": self.modifier,
            "attacks": [a.to_json() for a in self.attacks],
            "fled_to": list(self.fled_to) if self.fled_to else None,
            "why": self.why,
        }


class Board:
    """The living pieces during a Stage turn; the activation reads and updates it."""

    def __init__(self, reach: Reach, characters: list[Character], monsters: list[Monster]):
        self.reach = reach
        self.characters = {c.id: c for c in characters}
        self.monsters = {m.id: m for m in monsters}

    def living_characters(self) -> list[Character]:
        return sorted((c for c in self.characters.values() if c.alive), key=lambda c: reading_order(c.pos))

    def crossable_for_monsters(self) -> frozenset[Cell]:
        """Monsters walk through monsters, never through characters."""
        return self.reach.grid.monster_floor - {c.pos for c in self.characters.values() if c.alive}

    def endable_for(self, monster: Monster) -> Callable[[Cell], bool]:
        floor = self.reach.grid.monster_floor
        held = {c.pos for c in self.characters.values() if c.alive}
        held |= {m.pos for m in self.monsters.values() if m.alive and m.id != monster.id}
        return lambda cell: cell in floor and cell not in held


def activate(board: Board, monster_id: str, d20: Callable[[], int]) -> Activation:
    me = board.monsters[monster_id]
    act = Activation(me.id, me.pos, me.pos, modifier=me.attack.modifier)
    attack, reach = me.attack, board.reach
    targets = [c for c in board.living_characters() if not c.stealth]
    if not targets:
        act.why = "no character it can see to attack (all hidden or defeated)"
        return act

    endable = board.endable_for(me)
    attack_cells = {t.id: {c for c in reach.attack_cells(attack, t.pos) if endable(c)} for t in targets}
    crossable = board.crossable_for_monsters()
    # Search as far as the farther of: every cell within move, every attack cell.
    within_move = distances([me.pos], crossable, limit=me.move)
    steps = distances([me.pos], crossable, until=set(within_move).union(*attack_cells.values()))
    reachable = {c: s for c, s in within_move.items() if endable(c)}
    need = {t.id: min((steps[c] for c in attack_cells[t.id] if c in steps), default=math.inf) for t in targets}

    def others_in_range(cell: Cell, focus: Character) -> list[Character]:
        return [t for t in targets if t.id != focus.id and reach.in_range(attack, cell, t.pos)]

    def pick(cells: list[Cell], *keys: Callable[[Cell], float]) -> Cell:
        return min(cells, key=lambda c: (*(k(c) for k in keys), reading_order(c)))

    focus = min(targets, key=lambda t: (need[t.id], reading_order(t.pos)))
    too_close = False
    if need[focus.id] < math.inf:
        act.focus = focus.id
        in_reach = [c for c in reachable if c in attack_cells[focus.id]]
        if in_reach:
            # Targets it would attack from there: the focus plus others, never more than its cap.
            end = pick(in_reach, lambda c: -attack.cap(1 + len(others_in_range(c, focus))), lambda c: steps[c])
            act.why = f"{focus.id} is {need[focus.id]} steps from an attack spot (nearest)"
        else:
            left = distances(attack_cells[focus.id], crossable, until=reachable)
            end = pick(list(reachable), lambda c: left.get(c, math.inf), lambda c: steps[c])
            too_close = reach.within_max(attack, end, focus.pos) and not reach.in_range(attack, end, focus.pos)
            act.why = f"{focus.id} is {need[focus.id]} steps from an attack spot (nearest), out of reach this turn"
    else:
        # Blocked, too close: no attack spot can ever be reached, yet a target is closer than min.
        close = [t for t in targets if any(reach.within_max(attack, c, t.pos) for c in reachable)]
        if not close:
            act.why = "no path leads to a spot it could attack from: it stays"
            return act
        focus = min(close, key=lambda t: (reach.range(attack, me.pos, t.pos), reading_order(t.pos)))
        act.focus = focus.id
        spots = [c for c in reachable if reach.within_max(attack, c, focus.pos)]
        end = pick(spots, lambda c: -reach.range(attack, c, focus.pos), lambda c: steps[c])
        too_close = True
        act.why = f"{focus.id} is too close and characters block the way back"

    act.end = end
    me = board.monsters[me.id] = replace(me, pos=end)
    moved = steps[end]
    act.why += f"; moved {moved}" + (" to get as far back as it can" if too_close else "")

    if too_close:
        act.modifier = attack.modifier - 1
        act.why += (
            f"; attacks at range {reach.range(attack, end, focus.pos):g} (under its minimum {attack.min_range}) at -1"
        )
        victims = [focus] + others_in_range(end, focus)
    elif reach.in_range(attack, end, focus.pos):
        act.why += f" to reach range {reach.range(attack, end, focus.pos):g}"
        victims = [focus] + others_in_range(end, focus)
    else:
        act.why += " toward it; cannot attack yet"
        victims = []
    victims = victims[: attack.cap(len(victims))]

    fled = _attack(board, me.id, victims, act, d20)
    if fled and board.monsters[me.id].alive:
        act.fled_to = _flee(board, me.id)
        act.why += f"; rolled {FLEE_ROLL_MAX} or less, fled to {list(act.fled_to)}"
    return act


def _attack(board: Board, monster_id: str, victims: list[Character], act: Activation, d20: Callable[[], int]) -> bool:
    """Roll one d20 per target in order; True when any natural roll was 1-5 (the monster flees)."""
    flee = False
    for victim in victims:
        me = board.monsters[monster_id]
        if not me.alive:
            break  # killed by its own natural 1: no further rolls
        target = board.characters[victim.id]
        roll = d20()
        flee |= roll <= FLEE_ROLL_MAX
        total = roll + act.modifier
        if roll == 1:
            board.monsters[monster_id] = replace(me, hp=me.hp - 1)
            act.attacks.append(AttackRoll(target.id, roll, total, False, 0))
            act.why += f"; natural 1 against {target.id}: it takes 1 damage"
            continue
        hit = total >= target.armor + target.shield
        damage = me.attack.damage + (1 if roll == 20 else 0) if hit else 0
        board.characters[target.id] = replace(target, hp=target.hp - damage)
        act.attacks.append(AttackRoll(target.id, roll, total, hit, damage))
        act.why += (
            f"; rolled {roll}{act.modifier:+d}={total} vs {target.id} {'hit for ' + str(damage) if hit else 'miss'}"
        )
    if not board.monsters[monster_id].alive:
        act.why += "; it is defeated"
    return flee


def _flee(board: Board, monster_id: str) -> Cell:
    """Up to 4 steps to the cell whose nearest living character is farthest (in steps)."""
    me = board.monsters[monster_id]
    crossable = board.crossable_for_monsters()
    endable = board.endable_for(me)
    options = {c: s for c, s in distances([me.pos], crossable, FLEE_STEPS).items() if endable(c)}
    away = [distances([c.pos], crossable, until=options) for c in board.living_characters()]

    def nearest(cell: Cell) -> float:
        return min((d.get(cell, math.inf) for d in away), default=math.inf)

    end = min(options, key=lambda c: (-nearest(c), options[c], reading_order(c)))
    board.monsters[monster_id] = replace(me, pos=end)
    return end
