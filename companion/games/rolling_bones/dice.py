"""The 18 bone dice: kinds, face ids, printed numbers, and the skeleton's slots."""

from __future__ import annotations

LEFT, RIGHT, CENTER = "left", "right", "center"
KINDS = (LEFT, RIGHT, CENTER)
DICE_PER_KIND = 6
DICE_TOTAL = DICE_PER_KIND * len(KINDS)

HAT = "hat"
GRAVESTONE = "gravestone"

# face id -> (kind, printed number), per rules/rolling-bones.md
FACES: dict[str, tuple[str, int]] = {
    "left-upper-arm": (LEFT, 1),
    "left-forearm": (LEFT, 2),
    "left-hand": (LEFT, 3),
    "left-thigh": (LEFT, 3),
    "left-lower-leg": (LEFT, 4),
    "left-foot": (LEFT, 5),
    "right-upper-arm": (RIGHT, 1),
    "right-forearm": (RIGHT, 2),
    "right-hand": (RIGHT, 3),
    "right-thigh": (RIGHT, 3),
    "right-lower-leg": (RIGHT, 4),
    "right-foot": (RIGHT, 5),
    HAT: (CENTER, 0),
    "skull": (CENTER, 1),
    "ribcage": (CENTER, 2),
    "spine": (CENTER, 3),
    "pelvis": (CENTER, 4),
    GRAVESTONE: (CENTER, 5),
}
FACE_IDS = tuple(FACES)
BONES = tuple(f for f in FACE_IDS if f not in (HAT, GRAVESTONE))

# Sections in chain order; a section's first slot hangs from its parent (the tree).
SECTIONS: dict[str, tuple[str, ...]] = {
    "thorax": ("skull", "ribcage", "spine", "pelvis"),
    "left-arm": ("left-upper-arm", "left-forearm", "left-hand"),
    "right-arm": ("right-upper-arm", "right-forearm", "right-hand"),
    "left-leg": ("left-thigh", "left-lower-leg", "left-foot"),
    "right-leg": ("right-thigh", "right-lower-leg", "right-foot"),
}
SECTION_PARENT = {"left-arm": "ribcage", "right-arm": "ribcage", "left-leg": "pelvis", "right-leg": "pelvis"}
SLOTS: tuple[str, ...] = tuple(slot for chain in SECTIONS.values() for slot in chain)
SECTION_OF = {slot: name for name, chain in SECTIONS.items() for slot in chain}


def _neighbours() -> dict[str, frozenset[str]]:
    edges: list[tuple[str, str]] = []
    for name, chain in SECTIONS.items():
        edges += list(zip(chain, chain[1:]))
        if name in SECTION_PARENT:
            edges.append((SECTION_PARENT[name], chain[0]))
    links: dict[str, set[str]] = {slot: set() for slot in SLOTS}
    for a, b in edges:
        links[a].add(b)
        links[b].add(a)
    return {slot: frozenset(n) for slot, n in links.items()}


NEIGHBOURS = _neighbours()

# Mirror images: the skeleton's left and right swap, the thorax stays.
MIRROR = {f: f.replace("left-", "@").replace("right-", "left-").replace("@", "right-") for f in FACE_IDS}


def kind_of(face: str) -> str:
    return FACES[face][0]


def connected_pieces(slots: set[str] | frozenset[str]) -> list[frozenset[str]]:
    """The connected pieces of the skeleton tree restricted to ``slots``, in slot order."""
    pieces, seen = [], set()
    for start in SLOTS:
        if start not in slots or start in seen:
            continue
        piece, frontier = {start}, [start]
        while frontier:
            for nxt in NEIGHBOURS[frontier.pop()]:
                if nxt in slots and nxt not in piece:
                    piece.add(nxt)
                    frontier.append(nxt)
        seen |= piece
        pieces.append(frozenset(piece))
    return pieces


def is_connected(slots: set[str] | frozenset[str]) -> bool:
    """True when the slots form one piece of the skeleton tree (the empty set counts)."""
    return len(connected_pieces(slots)) <= 1


def open_slots(filled: set[str] | frozenset[str]) -> set[str]:
    """Empty slots a bone may go in now: next to the chain, or anywhere if it is empty."""
    if not filled:
        return set(SLOTS)
    return {n for slot in filled for n in NEIGHBOURS[slot] if n not in filled}
