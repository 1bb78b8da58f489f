"""The shoe (RULES.md §2): 1–8 decks or infinite, injected randomness, reshuffle and refill,
Jackpot Aces."""

from __future__ import annotations

import secrets
import sys
from collections import Counter
from collections.abc import Iterable, MutableSequence
from typing import Any, Final, Protocol

from game.rules.cards import JACKPOT_MARK, codes, standard_deck

JACKPOT_ACE: Final = "AS" + JACKPOT_MARK
RESHUFFLE_FRACTION: Final = (1, 4)  # rebuild before a round when fewer than 25% remain.
_NUMERATOR: Final = RESHUFFLE_FRACTION[0]
_DENOMINATOR: Final = RESHUFFLE_FRACTION[1]
# Interned, like the deck's codes (cards.standard_deck), so list.index and list.count
# match the aces of spades by identity (a compiled string literal is not interned).
_ACE_OF_SPADES: Final = sys.intern("AS")
_ONE_DECK: Final = standard_deck()
_ACE_OF_SPADES_POSITION: Final = _ONE_DECK.index(_ACE_OF_SPADES)
_DECK_SIZE: Final = len(_ONE_DECK)
# §10 Extensions, deck_count "infinite": a shoe of 0 decks draws every card from a fresh,
# full deck. Its cards are drawn a deck's worth ahead (each independently), so the hot
# path deals from a list as from any shoe.
INFINITE: Final = 0
# §10 Extensions, reshuffle: when a shoe is rebuilt.
CUT_CARD: Final = "cut_card"  # before a round, when fewer than 25% remain
EVERY_ROUND: Final = "every_round"  # a fresh shoe before every round
WHEN_EMPTY: Final = "when_empty"  # deal to the last card, then rebuild (the refill)


class Rng(Protocol):
    """The randomness the engine needs; ``secrets.SystemRandom`` or a seeded generator."""

    def shuffle(self, x: MutableSequence[Any]) -> None: ...
    def random(self) -> float: ...
    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int: ...
    def randint(self, a: int, b: int) -> int: ...


def default_rng() -> Rng:
    """Production randomness: a cryptographically strong generator (R-2.1)."""
    return secrets.SystemRandom()


class ShoeSource(Protocol):
    """Where the engine's shoes and dice come from: the one seam for its randomness.

    :class:`game.rules.fair.CommittedShoes` (every game and table) makes each shoe from the
    committed stream of FAIRNESS.md; :class:`SeededShoes` draws from a generator (the
    simulator, the engine's tests and replays).
    """

    def new_shoe(self, deck_count: int, finished: Shoe | None) -> Shoe:
        """A fresh shoe of ``deck_count`` decks; ``finished`` is the shoe it replaces."""
        ...

    def refill(self, shoe: Shoe, on_table: Iterable[str]) -> tuple[Shoe, bool]:
        """R-2.2 mid-round: the shoe to go on with, and whether that was a reshuffle."""
        ...

    def roll_dice(self, count: int) -> list[int]:
        """``count`` Infinity-dice faces, 1–6."""
        ...


class SeededShoes:
    """Shoes and dice drawn from a generator, in the order the engine always drew them."""

    __slots__ = ("rng",)

    def __init__(self, rng: Rng) -> None:
        self.rng = rng

    def new_shoe(self, deck_count: int, finished: Shoe | None) -> Shoe:
        return Shoe.build(deck_count, self.rng)

    def refill(self, shoe: Shoe, on_table: Iterable[str]) -> tuple[Shoe, bool]:
        return shoe, shoe.refill(on_table, self.rng)

    def roll_dice(self, count: int) -> list[int]:
        rng = self.rng
        return [rng.randint(1, 6) for _ in range(count)]


class ShoeExhausted(Exception):
    """No card left and the shoe may not be refilled (a replay's explicit card list)."""


class Shoe:
    """Undealt cards in deal order; ``position`` points at the next card.

    ``fixed`` shoes (replays) never reshuffle: running out is an error. Random
    shoes are rebuilt per R-2.2 (or the ``reshuffle`` option) and refilled mid-round
    from the cards not on the table. An infinite shoe (``deck_count`` 0) is never
    reshuffled: it draws another deck's worth of independent cards when it runs out.

    A ``duplicate`` shoe (the Daily Shoe, FAIRNESS.md D-2) deals the player's cards from
    the top as any shoe does and the dealer's from the bottom (:meth:`draw_bottom`); the
    cards it holds are always exactly the undealt ones, so everything else reads it alike.
    """

    __slots__ = ("cards", "position", "size", "deck_count", "fixed", "duplicate")

    def __init__(
        self,
        cards: list[str],
        deck_count: int,
        *,
        size: int | None = None,
        fixed: bool = False,
        duplicate: bool = False,
    ) -> None:
        self.cards = cards
        self.position = 0
        self.deck_count = deck_count
        self.size = len(cards) if size is None else size
        self.fixed = fixed
        self.duplicate = duplicate

    @classmethod
    def build(cls, deck_count: int, rng: Rng) -> Shoe:
        """A fresh shoe of ``deck_count`` decks, Jackpot Aces marked, shuffled."""
        if deck_count == INFINITE:
            return cls(_fresh_deck_draws(rng), INFINITE)
        cards = standard_deck() * deck_count
        # mark_jackpot_aces(cards, rng) in place: the same draws in the same order, at the
        # positions where unshuffled decks hold their aces of spades (found, not scanned).
        for position in range(_ACE_OF_SPADES_POSITION, len(cards), len(_ONE_DECK)):
            if rng.randrange(6) == 0:
                cards[position] = JACKPOT_ACE
        rng.shuffle(cards)
        return cls(cards, deck_count)

    @classmethod
    def from_cards(cls, cards: Iterable[str], deck_count: int = 1) -> Shoe:
        """An explicit card list in deal order (replay): no reshuffle, no refill."""
        return cls(codes(cards), deck_count, fixed=True)

    def remaining(self) -> int:
        return len(self.cards) - self.position

    @property
    def infinite(self) -> bool:
        return self.deck_count == INFINITE

    def cards_left(self) -> int | None:
        """What the page shows as cards left; None (∞) for an infinite shoe."""
        return None if self.deck_count == INFINITE else len(self.cards) - self.position

    def needs_reshuffle(self) -> bool:
        """R-2.2: fewer than 25% of the shoe's cards remain."""
        return (
            not self.fixed
            and self.deck_count != INFINITE
            and (len(self.cards) - self.position) * _DENOMINATOR < (self.size * _NUMERATOR)
        )

    def due_for_rebuild(self, reshuffle: str) -> bool:
        """Before a round: whether the ``reshuffle`` option rebuilds the shoe now.

        ``when_empty`` never rebuilds between rounds (the refill does, on the last card);
        ``every_round`` rebuilds any shoe a card was dealt from; an infinite or a replay's
        shoe is never rebuilt.
        """
        if reshuffle == CUT_CARD:
            return self.needs_reshuffle()
        if reshuffle == EVERY_ROUND:
            dealt = len(self.cards) - self.position < self.size
            return dealt and not self.fixed and self.deck_count != INFINITE
        return False

    def draw(self) -> str:
        """Next card; raises ShoeExhausted when empty (the round refills, see ``refill``)."""
        position = self.position
        if position >= len(self.cards):
            raise ShoeExhausted("the shoe ran out of cards")
        self.position = position + 1
        return self.cards[position]

    def draw_bottom(self, hole: bool) -> str:
        """The dealer's next card from the bottom of a duplicate shoe (D-2): the hole card
        (``hole``) from the second-to-last position, any other card from the last.

        The round's first two dealer cards are the hole, then the upcard, so the upcard is
        the shoe's last card, the hole card the one before, and each draw the next one up.
        Taking them out of the list keeps ``cards[position:]`` the undealt cards. Raises
        ShoeExhausted when the card would be one the top has already dealt.
        """
        depth = 2 if hole else 1
        cards = self.cards
        if len(cards) - self.position < depth:
            raise ShoeExhausted("the shoe ran out of cards")
        return cards.pop(-depth)

    def refill(self, on_table: Iterable[str], rng: Rng) -> bool:
        """R-2.2 mid-round: reshuffle every card not on the table into a fresh shoe.

        Returns whether it reshuffled (the player is told); an infinite shoe only draws
        another deck's worth of cards, which is no reshuffle.
        """
        if self.fixed:
            raise ShoeExhausted("the shoe ran out of cards")
        if self.deck_count == INFINITE:
            self.cards = _fresh_deck_draws(rng)
            self.position = 0
            self.size = len(self.cards)
            return False
        table = Counter(card[:2] for card in on_table)
        cards: list[str] = []
        for card in standard_deck() * self.deck_count:
            if table[card]:
                table[card] -= 1
            else:
                cards.append(card)
        if not cards:
            raise ShoeExhausted("every card is on the table")
        cards = mark_jackpot_aces(cards, rng)
        rng.shuffle(cards)
        self.cards = cards
        self.position = 0
        self.size = len(cards)
        return True

    def to_json(self) -> dict[str, Any]:
        # Only the undealt cards matter; the order stays on the server.
        data: dict[str, Any] = {
            "cards": self.cards[self.position :],
            "size": self.size,
            "deck_count": self.deck_count,
            "fixed": self.fixed,
        }
        if self.duplicate:
            # Written only when set: every other shoe's state stays as it always was.
            data["duplicate"] = True
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Shoe:
        return cls(
            list(data["cards"]),
            data["deck_count"],
            size=data["size"],
            fixed=data["fixed"],
            duplicate=data.get("duplicate", False),
        )


def _fresh_deck_draws(rng: Rng) -> list[str]:
    """A deck's worth of cards, each the one card drawn from a fresh, full, shuffled deck
    (deck_count "infinite"): so the same card can come any number of times in a row. Each
    ace of spades drawn is a new shoe's, the Jackpot Ace with probability 1/6 (R-SB-11)."""
    cards = [_ONE_DECK[rng.randrange(_DECK_SIZE)] for _ in range(_DECK_SIZE)]
    return mark_jackpot_aces(cards, rng)


def mark_jackpot_aces(cards: list[str], rng: Rng) -> list[str]:
    """R-SB-11: each ace of spades becomes the Jackpot Ace with probability 1/6.

    The aces are visited in order, one draw each; they are found with ``list.index``
    (a scan in C) rather than by comparing every card in a loop.
    """
    marked = list(cards)
    position = -1
    for _ in range(marked.count(_ACE_OF_SPADES)):
        position = marked.index(_ACE_OF_SPADES, position + 1)
        if rng.randrange(6) == 0:
            marked[position] = JACKPOT_ACE
    return marked
