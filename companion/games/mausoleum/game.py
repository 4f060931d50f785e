"""A game of Mausoleum as the table keeps it: parties, morgues, mausoleums, the shop, deck and discard.

Hands are hidden: the table knows how many cards each player holds, and which of them it saw
(drawn from the discard pile). A card played from a hand must be one it could hold. Every card
is in exactly one place: a public pile, a known hand card, or unseen (the deck and the hands'
unseen cards), and `deck` + the hands' unseen cards always equals the unseen cards.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ...errors import BadInput, IllegalPlay
from .cards import ACCIDENT, GRAVE, HEIR, INCIDENT, NUMBERS, Card, card_name, card_number, card_value

PARTY_MOST = 4
MORGUE_MOST = 4
WIN_AT = 10  # $m in a mausoleum at the end of one's turn
DEALT = {2: 5, 3: 5, 4: 4, 5: 3}
MOST_NAME = 24
PILES = ("party", "morgue", "mausoleum")


@dataclass(frozen=True)
class Seat:
    name: str
    hand: int  # cards held
    known: tuple[int, ...] = ()  # held cards the table saw (drawn from the discard pile)
    party: tuple[int, ...] = ()
    morgue: tuple[int, ...] = ()  # oldest first
    mausoleum: tuple[int, ...] = ()
    kept: tuple[int, ...] = ()  # incidents left in play (a Doozy)


@dataclass(frozen=True)
class Mausoleum:
    cards: dict[int, Card]
    seats: tuple[Seat, ...]
    shop: tuple[int, ...]
    discard: tuple[int, ...]  # bottom first; the last is the top, the one a player may draw
    deck: int
    current: int = 0
    drew: bool = False
    played: bool = False  # played or discarded a card after drawing
    bought: bool = False
    winner: str | None = None
    last: str = ""  # the last entry, in words

    # -- setup ------------------------------------------------------------------------------

    @classmethod
    def start(cls, names: object, cards: dict[int, Card]) -> Mausoleum:
        if not isinstance(names, list) or not 2 <= len(names) <= 5:
            raise BadInput("Mausoleum is for 2 to 5 players: give a list of names, the dealer first")
        if any(not isinstance(n, str) or not n.strip() or len(n.strip()) > MOST_NAME for n in names):
            raise BadInput(f"a player's name is 1-{MOST_NAME} characters")
        clean = [n.strip() for n in names]
        if len(set(clean)) != len(clean):
            raise BadInput("player names must differ")
        dealt = DEALT[len(clean)]
        shop = tuple(n for n in NUMBERS if cards[n].kind == GRAVE)
        deck = len(NUMBERS) - len(shop) - dealt * len(clean)
        return cls(cards, tuple(Seat(n, dealt) for n in clean), shop, (), deck)

    # -- what is on the table ---------------------------------------------------------------

    @property
    def seat(self) -> Seat:
        return self.seats[self.current]

    @property
    def over(self) -> bool:
        return self.winner is not None

    def worth(self, numbers: tuple[int, ...] | list[int]) -> int:
        return sum(self.cards[n].value or 0 for n in numbers)

    def unseen(self) -> list[int]:
        """Cards in the deck or in a hand unseen: not in any public place nor a known hand card."""
        placed = set(self.shop) | set(self.discard)
        for s in self.seats:
            placed |= set(s.known) | set(s.party) | set(s.morgue) | set(s.mausoleum) | set(s.kept)
        return [n for n in NUMBERS if n not in placed]

    def where(self, number: int) -> str:
        if number in self.shop:
            return "in the shop"
        if number in self.discard:
            return "in the discard pile"
        for s in self.seats:
            for pile in (*PILES, "kept"):
                if number in getattr(s, pile):
                    return f"in {s.name}'s {pile if pile != 'kept' else 'play area'}"
            if number in s.known:
                return f"in {s.name}'s hand"
        return "unseen (the deck or a hand)"

    def playable(self) -> list[int]:
        """Cards the current player could hold: the ones the table saw, and any unseen one while they hold more."""
        me = self.seat
        could = set(me.known)
        if me.hand > len(me.known):
            could |= {n for n in self.unseen() if self.cards[n].kind != GRAVE}
        return sorted(could)

    def player(self, name: object) -> int:
        for i, s in enumerate(self.seats):
            if s.name == name:
                return i
        raise BadInput(f"no player called {name!r}")

    # -- a turn -----------------------------------------------------------------------------

    def draw(self, source: object) -> Mausoleum:
        self._playing()
        if self.bought:
            raise IllegalPlay(f"{self.seat.name} bought a grave this turn: that was the turn (press TURN)")
        if self.drew:
            raise IllegalPlay(f"{self.seat.name} has drawn this turn already")
        if source == "deck":
            if self.deck == 0:
                raise IllegalPlay("the deck is empty: draw from the discard pile")
            game = self._with(self.current, hand=self.seat.hand + 1)
            return replace(game, deck=self.deck - 1, drew=True, last=f"{self.seat.name} drew from the deck")
        if source == "discard":
            if not self.discard:
                raise IllegalPlay("the discard pile is empty: draw from the deck")
            top = self.discard[-1]
            game = self._with(self.current, hand=self.seat.hand + 1, known=self.seat.known + (top,))
            return replace(
                game,
                discard=self.discard[:-1],
                drew=True,
                last=f"{self.seat.name} took {self.cards[top]} from the discard pile",
            )
        raise BadInput(f'draw from "deck" or "discard", not {source!r}')

    def play(
        self, number: object, to: object = None, heir: object = None, moves: object = None, keep: bool = False
    ) -> Mausoleum:
        card = self.cards[card_number(number)]
        game = self._from_hand(card.number)
        me = self.seat.name
        if card.kind == HEIR:
            target = self.current if to is None else self.player(to)
            host = game.seats[target]
            if len(host.party) >= PARTY_MOST:
                raise IllegalPlay(f"{host.name}'s party has {PARTY_MOST} heirs already: no fifth")
            game = game._with(target, party=host.party + (card.number,))
            said = f"{me} invited {card} to {host.name}'s party"
        elif card.kind == ACCIDENT:
            game, said = game._off(card, heir)
        elif card.kind == INCIDENT:
            game = game._moved(moves)
            if keep:
                game = game._with(self.current, kept=game.seat.kept + (card.number,))
            else:
                game = replace(game, discard=game.discard + (card.number,))
            said = f"{me} played {card}" + (" (kept in play)" if keep else "")
        else:
            raise IllegalPlay(f"{card} is a grave: graves are bought from the shop, not played")
        return replace(game, played=True, last=said)

    def throw_away(self, number: object) -> Mausoleum:
        """Discard a card instead of playing one (no legal play, or no wish to)."""
        card = self.cards[card_number(number)]
        game = self._from_hand(card.number)
        return replace(
            game, discard=game.discard + (card.number,), played=True, last=f"{self.seat.name} discarded {card}"
        )

    def buy(self, grave: object, heirs: object) -> Mausoleum:
        self._playing()
        me = self.seat
        if self.bought:
            raise IllegalPlay(f"{me.name} has bought a grave this turn: one a turn")
        if self.drew:
            raise IllegalPlay(f"{me.name} drew this turn: Buy and Bury is instead of Draw and Play")
        number = card_number(grave)
        if number not in self.shop:
            raise IllegalPlay(f"{self.cards[number]} is not in the shop (it is {self.where(number)})")
        if not isinstance(heirs, list) or not heirs:
            raise BadInput("say which heirs in your morgue pay for the grave")
        spent = [card_number(h) for h in heirs]
        if len(set(spent)) != len(spent):
            raise BadInput("each heir pays once")
        for h in spent:
            if h not in me.morgue:
                raise IllegalPlay(f"{self.cards[h]} is not in {me.name}'s morgue (it is {self.where(h)})")
        paid, price = self.worth(spent), self.cards[number].value or 0
        if paid < price:
            raise IllegalPlay(f"too dear: those heirs are worth ${paid}m, {self.cards[number]} costs ${price}m")
        game = self._with(
            self.current,
            morgue=tuple(h for h in me.morgue if h not in spent),
            mausoleum=me.mausoleum + (number,),
        )
        return replace(
            game,
            shop=tuple(g for g in self.shop if g != number),
            discard=self.discard + tuple(spent),
            bought=True,
            last=f"{me.name} bought {self.cards[number]} (${price}m) with ${paid}m of heirs",
        )

    def end_turn(self) -> Mausoleum:
        """TURN: the mausoleum is counted, an empty deck is the discard pile reshuffled, the next player."""
        self._playing()
        me = self.seat
        if not (self.bought or (self.drew and self.played)):
            need = "play or discard a card" if self.drew else "draw and play, or buy and bury"
            raise IllegalPlay(f"{me.name}'s turn is not done: {need}")
        total = self.worth(me.mausoleum)
        if total >= WIN_AT:
            return replace(self, winner=me.name, last=f"{me.name} wins with a ${total}m mausoleum")
        game = self
        said = ""
        if self.deck == 0:
            game = replace(self, deck=self.deck + len(self.discard), discard=())
            said = "the deck ran out: the discard pile is shuffled into a new deck; "
        nxt = (self.current + 1) % len(self.seats)
        return replace(
            game, current=nxt, drew=False, played=False, bought=False, last=f"{said}{self.seats[nxt].name}'s turn"
        )

    def correct(self, number: object, value: object = None, name: object = None) -> Mausoleum:
        """A table's correction of a card from its own deck (kept for its next games too)."""
        card = self.cards[card_number(number)]
        if value is not None and card.kind not in (HEIR, GRAVE):
            raise BadInput(
                f"{card} is {'an' if card.kind[0] in 'aei' else 'a'} {card.kind}: only heirs and graves have values"
            )
        fixed = replace(
            card,
            value=card.value if value is None else card_value(value),
            name=card.name if name is None else card_name(name),
            checked=True,
        )
        return replace(self, cards={**self.cards, card.number: fixed}, last=f"{fixed} corrected")

    # -- helpers ----------------------------------------------------------------------------

    def _playing(self) -> None:
        if self.over:
            raise IllegalPlay(f"the game is over: {self.winner} won")

    def _from_hand(self, number: int) -> Mausoleum:
        """The card leaves the current player's hand: a known card of theirs, or one of their unseen ones."""
        self._playing()
        me = self.seat
        if not self.drew:
            raise IllegalPlay(f"{me.name} draws first (from the deck or the discard pile)")
        if self.played:
            raise IllegalPlay(f"{me.name} has played this turn already: press TURN")
        if number in me.known:
            known = list(me.known)
            known.remove(number)
            return self._with(self.current, hand=me.hand - 1, known=tuple(known))
        if number in self.unseen() and me.hand > len(me.known):
            return self._with(self.current, hand=me.hand - 1)
        raise IllegalPlay(f"{self.cards[number]} is not in {me.name}'s hand (it is {self.where(number)})")

    def _off(self, accident: Card, heir: object) -> tuple[Mausoleum, str]:
        number = card_number(heir)
        owner = next((i for i, s in enumerate(self.seats) if number in s.party), None)
        if owner is None:
            raise IllegalPlay(f"{self.cards[number]} is at no party (it is {self.where(number)}): no one to off")
        host = self.seats[owner]
        game = replace(self, discard=self.discard + (accident.number,))
        morgue = host.morgue + (number,)
        said = f"{self.seat.name} played {accident}: {self.cards[number]} offed into {host.name}'s morgue"
        if len(morgue) > MORGUE_MOST:  # the most recent beyond four is discarded
            morgue = morgue[:MORGUE_MOST]
            game = replace(game, discard=game.discard + (number,))
            said += f" (full: {self.cards[number]} is discarded)"
        game = game._with(owner, party=tuple(h for h in host.party if h != number), morgue=morgue)
        return game, said

    def _moved(self, moves: object) -> Mausoleum:
        """An incident recorded by its effect: public cards moved, each {"card": n, "to": "morgue:Ann"}."""
        if moves is None:
            return self
        if not isinstance(moves, list):
            raise BadInput('an incident\'s effect is a list of moves, e.g. [{"card": 3, "to": "morgue:Ann"}]')
        game = self
        for move in moves:
            if not isinstance(move, dict) or set(move) != {"card", "to"}:
                raise BadInput(f'a move is {{"card": n, "to": "party:NAME"}}, not {move!r}')
            game = game._move(card_number(move["card"]), move["to"])
        return game

    def _move(self, number: int, to: object) -> Mausoleum:
        card = self.cards[number]
        game = self._lift(number)
        if to == "discard":
            return replace(game, discard=game.discard + (number,))
        if to == "shop":
            if card.kind != GRAVE:
                raise IllegalPlay(f"only graves go to the shop, not {card}")
            return replace(game, shop=game.shop + (number,))
        pile, _, name = str(to).partition(":")
        if pile not in (*PILES, "hand"):
            raise BadInput(
                f'a card moves to "discard", "shop", "party:NAME", "morgue:NAME", "mausoleum:NAME" or "hand:NAME", not {to!r}'
            )
        seat = game.player(name)
        s = game.seats[seat]
        if pile == "hand":
            return game._with(seat, hand=s.hand + 1, known=s.known + (number,))
        wanted = GRAVE if pile == "mausoleum" else HEIR
        if card.kind != wanted:
            raise IllegalPlay(f"a {pile} holds {wanted}s, not {card}")
        most = {"party": PARTY_MOST, "morgue": MORGUE_MOST}.get(pile)
        if most is not None and len(getattr(s, pile)) >= most:
            raise IllegalPlay(f"{s.name}'s {pile} holds {most} already")
        return game._with(seat, **{pile: getattr(s, pile) + (number,)})

    def _lift(self, number: int) -> Mausoleum:
        """Take a public card from where it lies (an incident moves only cards the table can see)."""
        if number in self.shop:
            return replace(self, shop=tuple(n for n in self.shop if n != number))
        if number in self.discard:
            return replace(self, discard=tuple(n for n in self.discard if n != number))
        for i, s in enumerate(self.seats):
            for pile in (*PILES, "kept"):
                if number in getattr(s, pile):
                    return self._with(i, **{pile: tuple(n for n in getattr(s, pile) if n != number)})
        raise IllegalPlay(f"{self.cards[number]} is {self.where(number)}: an incident moves only cards on the table")

    def _with(self, seat: int, **change: Any) -> Mausoleum:
        seats = list(self.seats)
        seats[seat] = replace(seats[seat], **change)
        return replace(self, seats=tuple(seats))

    # -- views ------------------------------------------------------------------------------

    def places(self) -> dict[str, list[int]]:
        """Every card's place, for the conservation check: each number 1-54 in exactly one list."""
        out: dict[str, list[int]] = {"shop": list(self.shop), "discard": list(self.discard), "unseen": self.unseen()}
        for s in self.seats:
            for pile in (*PILES, "kept", "known"):
                out[f"{pile}:{s.name}"] = list(getattr(s, pile))
        return out

    def view(self) -> dict[str, Any]:
        def cards(numbers: tuple[int, ...]) -> list[dict[str, Any]]:
            return [self.cards[n].to_json() for n in numbers]

        return {
            "players": [
                {
                    "name": s.name,
                    "hand": s.hand,
                    "known": cards(s.known),
                    "party": cards(s.party),
                    "morgue": cards(s.morgue),
                    "morgue_total": self.worth(s.morgue),
                    "mausoleum": cards(s.mausoleum),
                    "mausoleum_total": self.worth(s.mausoleum),
                    "kept": cards(s.kept),
                }
                for s in self.seats
            ],
            "current": self.current,
            "player": self.seat.name,
            "shop": cards(self.shop),
            "deck": self.deck,
            "discard": len(self.discard),
            "discard_top": self.cards[self.discard[-1]].to_json() if self.discard else None,
            "phase": "bought" if self.bought else "played" if self.played else "drew" if self.drew else "start",
            "winner": self.winner,
            "over": self.over,
            "last": self.last,
            "win_at": WIN_AT,
            "playable": self.playable(),
            "cards": [c.to_json() for c in self.cards.values()],
        }
