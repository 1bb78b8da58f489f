"""The options a round's hot path reads (:class:`TableRules`), taken once per change."""

from __future__ import annotations

from game.rules.options import Options


class TableRules:
    """The options the round's hot path reads, as plain typed attributes.

    Taken from :class:`Options` once per options change (the engine's ``set_options``),
    so legality checks and settlement read a slot instead of a dataclass field or
    property; the compiled build reads them as native fields. Options stays the one
    source.
    """

    __slots__ = (
        "min_bet",
        "max_bet",
        "deck_count",
        "trivia_mode",
        "side_bets",
        "dealer_rule",
        "dealer_peek",
        "insurance",
        "even_money",
        "surrender",
        "double_on",
        "double_after_split",
        "double_after_split_aces",
        "one_card_after_split_aces",
        "split_any_ten",
        "max_splits",
        "max_ace_splits",
        "blackjack_profit",
        "blackjack_stake",
        "charlie_limit",
        "reshuffle",
        "simple",
        "inverted",
        "turn_ms",
    )

    def __init__(self, options: Options) -> None:
        # §10 Extensions, simple: Hit and Stand only; the other options are kept in
        # Options but read here as off, so the round never offers them.
        simple = options.simple
        self.simple: bool = simple
        self.inverted: bool = options.inverted
        self.turn_ms: int | None = options.turn_ms  # None: untimed
        self.reshuffle: str = options.reshuffle
        self.min_bet: int = options.min_bet
        self.max_bet: int = options.max_bet
        self.deck_count: int = options.shoe_decks  # 0: an infinite shoe
        self.trivia_mode: bool = options.trivia_mode
        self.side_bets: bool = options.side_bets and not simple
        self.dealer_rule: str = options.dealer_stands_on
        self.dealer_peek: bool = options.dealer_peek
        self.insurance: bool = options.insurance and not simple
        self.even_money: bool = options.even_money and not simple
        self.surrender: str = "off" if simple else options.surrender
        self.double_on: str = options.double_on
        self.double_after_split: bool = options.double_after_split
        self.double_after_split_aces: bool = options.double_after_split_aces
        self.one_card_after_split_aces: bool = options.one_card_after_split_aces
        self.split_any_ten: bool = options.split_any_ten
        # Splits allowed per box (N splits make N + 1 hands), for aces and other pairs.
        self.max_splits: int = 0 if simple else options.max_splits
        self.max_ace_splits: int = 0 if simple else options.max_ace_splits
        # The natural's payout ratio, profit:stake (R-PAY-2), e.g. 3:2.
        profit, stake = options.blackjack_ratio
        self.blackjack_profit: int = profit
        self.blackjack_stake: int = stake
        self.charlie_limit: int | None = options.charlie_limit
