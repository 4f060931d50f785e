"""The skeleton as bit masks: 16 slots, one bit each, for a search that visits a million states.

A layout becomes two ints (filled slots, wrong bones); neighbours, sections, the
chain's growth and the score are bit operations. Left and right are mirror
images, so a state and its mirror are one (``canonical``).
"""

from __future__ import annotations

from functools import cache, lru_cache

from .dice import KINDS, NEIGHBOURS, SECTIONS, SLOTS, kind_of
from .layout import POINTS_COMPLETE_SECTION, POINTS_CORRECT_BONE, POINTS_WRONG_BONE, Layout

BIT = {slot: 1 << i for i, slot in enumerate(SLOTS)}


ALL = (1 << len(SLOTS)) - 1


SKULL = BIT["skull"]


NEIGHBOUR_MASK = [sum(BIT[n] for n in NEIGHBOURS[slot]) for slot in SLOTS]


SECTION_MASKS = [sum(BIT[s] for s in chain) for chain in SECTIONS.values()]


KIND_SLOTS = {kind: [s for s in SLOTS if kind_of(s) == kind] for kind in KINDS}


KIND_MASK = {kind: sum(BIT[s] for s in slots) for kind, slots in KIND_SLOTS.items()}


# Left and right are mirror images: a state and its mirror have the same value, so the memo
# keeps one of the two (the search remembers half as many states).
_MIRROR_SLOT = [SLOTS.index(s.replace("left-", "@").replace("right-", "left-").replace("@", "right-")) for s in SLOTS]


_MIRROR_LO = [sum(1 << _MIRROR_SLOT[i] for i in range(8) if m >> i & 1) for m in range(256)]


_MIRROR_HI = [sum(1 << _MIRROR_SLOT[i + 8] for i in range(8) if m >> i & 1) for m in range(256)]


def mirror_mask(mask: int) -> int:
    return _MIRROR_LO[mask & 255] | _MIRROR_HI[mask >> 8]


def canonical(filled: int, wrong: int, counts: tuple[int, int, int]) -> tuple[int, int, tuple[int, int, int]]:
    mirrored = (mirror_mask(filled), mirror_mask(wrong), (counts[1], counts[0], counts[2]))
    return min((filled, wrong, counts), mirrored)


@lru_cache(maxsize=1 << 16)
def bits(mask: int) -> tuple[int, ...]:
    return tuple(i for i in range(len(SLOTS)) if mask >> i & 1)


def popcount(mask: int) -> int:
    return mask.bit_count()


@lru_cache(maxsize=1 << 16)
def mask_score(filled: int, wrong: int, hat: bool) -> int:
    correct = filled & ~wrong
    total = 0
    for section in SECTION_MASKS:
        total += (
            POINTS_COMPLETE_SECTION
            if filled & section == section
            else popcount(section & correct) * POINTS_CORRECT_BONE
        )
    total += popcount(wrong) * POINTS_WRONG_BONE
    return total * 2 if hat else total


def next_to(mask: int) -> int:
    """Every slot next to a slot of ``mask`` (``mask`` itself included where its slots touch)."""
    near = 0
    for i in bits(mask):
        near |= NEIGHBOUR_MASK[i]
    return near


def open_mask(filled: int) -> int:
    """Empty slots next to the chain (every slot while the chain is empty)."""
    return next_to(filled) & ~filled if filled else ALL


def _piece_from(start: int, mask: int) -> int:
    """The connected piece of ``mask`` that holds the slot(s) of ``start``."""
    seen, frontier = start, start
    while frontier:
        frontier = next_to(frontier) & mask & ~seen
        seen |= frontier
    return seen


@lru_cache(maxsize=1 << 16)
def is_connected_mask(mask: int) -> bool:
    return not mask or _piece_from(mask & -mask, mask) == mask


def grow(filled: int, shown: int) -> int:
    """Slots of ``shown`` that can join the chain this throw, laid in a suitable order."""
    return _piece_from(filled, filled | shown) & ~filled if filled else 0


def pieces_of(mask: int) -> list[int]:
    pieces, left = [], mask
    while left:
        piece = _piece_from(left & -left, mask)
        pieces.append(piece)
        left &= ~piece
    return pieces


@cache
def dice_used(bones: int) -> tuple[int, int, int]:
    return tuple((bones & KIND_MASK[kind]).bit_count() for kind in KINDS)  # type: ignore[return-value]


def layout_masks(layout: Layout) -> tuple[int, int]:
    filled = wrong = 0
    for slot, face in layout.slots.items():
        filled |= BIT[slot]
        if face != slot:
            wrong |= BIT[slot]
    return filled, wrong


def chain_order(filled: frozenset[str], bones: int) -> list[str]:
    """The slots of ``bones`` in an order that keeps the chain connected as each is laid."""
    order, have, todo = [], {s for s in filled}, [SLOTS[i] for i in bits(bones)]
    while todo:
        nxt = next((s for s in todo if not have or NEIGHBOURS[s] & have), todo[0])
        order.append(nxt)
        have.add(nxt)
        todo.remove(nxt)
    return order
