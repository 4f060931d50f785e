"""A Mausoleum position as JSON (`companion mausoleum check`): read it, check every card is in one place."""

from __future__ import annotations

from typing import Any

from ...errors import BadInput
from .cards import GRAVE, HEIR, INCIDENT, NUMBERS, Card, card_number
from .game import MORGUE_MOST, PARTY_MOST, WIN_AT, Mausoleum, Seat

HOLDS = {"party": HEIR, "morgue": HEIR, "mausoleum": GRAVE, "kept": INCIDENT}
SEAT_KEYS = {"name", "hand", "known", "party", "morgue", "mausoleum", "kept"}
KEYS = {"players", "shop", "discard", "deck", "current", "cards"}


def from_position(data: object, cards: dict[int, Card]) -> Mausoleum:
    """The position, or BadInput naming the first thing wrong with it."""
    if not isinstance(data, dict):
        raise BadInput('a position is a JSON object with "players", "shop", "discard" and "deck"')
    unknown = sorted(set(data) - KEYS)
    if unknown:
        raise BadInput(f"unknown key {unknown[0]!r} (a position has {', '.join(sorted(KEYS))})")
    seen: dict[int, str] = {}

    def numbers(value: object, where: str, kind: str | None = None) -> tuple[int, ...]:
        if not isinstance(value, list):
            raise BadInput(f"{where} is a list of card numbers")
        out = []
        for item in value:
            n = card_number(item)
            if n in seen:
                raise BadInput(f"card #{n} is in {seen[n]} and in {where}: a card is in one place")
            if kind and cards[n].kind != kind:
                raise BadInput(f"{where} holds {kind}s, not {cards[n]} ({cards[n].kind})")
            seen[n] = where
            out.append(n)
        return tuple(out)

    players = data.get("players")
    if not isinstance(players, list) or not 2 <= len(players) <= 5:
        raise BadInput("a position has 2 to 5 players")
    seats = []
    for i, p in enumerate(players):
        if not isinstance(p, dict) or not isinstance(p.get("name"), str) or not p["name"].strip():
            raise BadInput(f"player {i + 1}: an object with a name")
        stray = sorted(set(p) - SEAT_KEYS)
        if stray:
            raise BadInput(f"{p['name']}: unknown key {stray[0]!r}")
        name = p["name"].strip()
        piles = {pile: numbers(p.get(pile, []), f"{name}'s {pile}", kind) for pile, kind in HOLDS.items()}
        known = numbers(p.get("known", []), f"{name}'s hand", None)
        hand = p.get("hand", len(known))
        if isinstance(hand, bool) or not isinstance(hand, int) or not len(known) <= hand <= len(NUMBERS):
            raise BadInput(f"{name}'s hand is a count of cards, at least the {len(known)} known, not {hand!r}")
        if len(piles["party"]) > PARTY_MOST or len(piles["morgue"]) > MORGUE_MOST:
            raise BadInput(f"{name}: a party and a morgue hold at most 4 heirs each")
        if any(cards[n].kind == GRAVE for n in known):
            raise BadInput(f"{name}'s hand holds a grave: graves are in the shop or a mausoleum")
        seats.append(Seat(name, hand, known, piles["party"], piles["morgue"], piles["mausoleum"], piles["kept"]))
    if len({s.name for s in seats}) != len(seats):
        raise BadInput("player names must differ")
    shop = numbers(data.get("shop", []), "the shop", GRAVE)
    discard = numbers(data.get("discard", []), "the discard pile")
    deck = data.get("deck")
    if isinstance(deck, bool) or not isinstance(deck, int) or deck < 0:
        raise BadInput(f'"deck" is the count of cards in the deck, not {deck!r}')
    current = data.get("current", 0)
    if isinstance(current, bool) or not isinstance(current, int) or not 0 <= current < len(seats):
        raise BadInput(f'"current" is the seat whose turn it is, 0-{len(seats) - 1}')
    lost = [n for n in NUMBERS if cards[n].kind == GRAVE and n not in seen]
    if lost:
        raise BadInput(f"grave #{lost[0]} is nowhere: graves are in the shop or a mausoleum")
    unseen = len(NUMBERS) - len(seen)
    held = sum(s.hand - len(s.known) for s in seats)
    if deck + held != unseen:
        raise BadInput(
            f"the cards do not add up: {len(seen)} placed, so {unseen} in the deck and hands, "
            f"but the deck has {deck} and the hands {held} unseen"
        )
    rich = [s.name for s in seats if sum(cards[n].value or 0 for n in s.mausoleum) >= WIN_AT]
    if len(rich) > 1:
        raise BadInput(f"{' and '.join(rich)} both have ${WIN_AT}m or more: the game ended at the first")
    return Mausoleum(cards, tuple(seats), shop, discard, deck, current, winner=None)


def summary(game: Mausoleum) -> str:
    parts = [
        f"{s.name} ${game.worth(s.mausoleum)}m (morgue ${game.worth(s.morgue)}m, party {len(s.party)}, hand {s.hand})"
        for s in game.seats
    ]
    rich = [s.name for s in game.seats if game.worth(s.mausoleum) >= WIN_AT]
    end = f"; {rich[0]} has ${WIN_AT}m or more: wins at the end of their turn" if rich else ""
    return f"ok: {'; '.join(parts)}; shop {len(game.shop)}, deck {game.deck}, discard {len(game.discard)}; {game.seat.name} to play{end}"


def to_position(game: Mausoleum) -> dict[str, Any]:
    return {
        "players": [
            {
                "name": s.name,
                "hand": s.hand,
                "known": list(s.known),
                "party": list(s.party),
                "morgue": list(s.morgue),
                "mausoleum": list(s.mausoleum),
                "kept": list(s.kept),
            }
            for s in game.seats
        ],
        "shop": list(game.shop),
        "discard": list(game.discard),
        "deck": game.deck,
        "current": game.current,
    }
