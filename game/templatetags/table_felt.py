"""The felt of the single-player table, written in Python (issue 14, fourth pass).

The dealer's row, the rules printed on the felt, the message line, the turn's timer, the
player's hands (or the boxes of a table of several seats) and the circles were some
hundred template nodes rendered on every htmx answer and every table page: each node
costs a few microseconds of lookups, together a third of the table's render. Written
here they are the same HTML (whitespace between tags aside: the same text, the same
elements, the same accessible names), from the same view model
(game/presentation/table.py). Values are escaped by ``format_html`` as the template
escaped them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django import template
from django.template.context import Context
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe

from game.presentation.table import HandView, TableView, Timer
from game.templatetags.table_tags import (
    DOUBLED,
    _playing_card,
    dollars,
    format_html,
    join_html,
    plain_dollars,
    signed_dollars,
)
from game.url_cache import game_url

register = template.Library()


def _cards(cards: Iterable[str | None], size: str = "") -> SafeString:
    return join_html(_playing_card(card or None, size) for card in cards)


def _badge_or_message(hand: HandView) -> SafeString | str:
    """A settled hand's badge (WIN, BUST …) with its net, else its status message."""
    if hand.badge:
        return format_html(
            '<p class="badge badge--{}">{} <span class="badge__amount">{}</span></p>',
            hand.badge.lower(),
            hand.badge,
            signed_dollars(hand.net),
        )
    if hand.message:
        return format_html('<p class="hand-message">{}</p>', hand.message)
    return ""


def timer_html(view: TableView, kind: str) -> SafeString | str:
    """The timer of ``kind`` ("turn" on the felt, "answer" on the question panel), if it
    is the one running. R-4.13 / R-8.9: the server holds the deadline; timer.js counts
    down from the seconds left when the page was made, says the last five to screen
    readers, and reloads the table at 0 so the server's verdict shows."""
    timer: Timer | None = view.timer
    if timer is None or timer.kind != kind:
        return ""
    return format_html(
        '<p class="timer timer--{}" role="timer" data-seconds-left="{}" data-table-url="{}">'
        '<span class="timer__label">{}</span> <span class="timer__count">{}</span> s'
        '<span class="visually-hidden timer__announce" aria-live="assertive" '
        'aria-atomic="true"></span></p>',
        timer.kind,
        timer.seconds_left,
        game_url("game:table", view.game.pk),
        timer.label,
        timer.seconds_left,
    )


@register.simple_tag(takes_context=True)
def turn_timer(context: Context, kind: str) -> SafeString | str:
    """``timer_html`` of the page's view, for the question panel's template."""
    return timer_html(context["view"], kind)


def _dealer_row(view: TableView) -> SafeString:
    total = (
        format_html(' <span class="total">{}</span>', view.dealer_total_text)
        if view.dealer_cards
        else ""
    )
    message = (
        format_html('\n        <p class="hand-message">{}</p>', view.dealer_message)
        if view.dealer_message
        else ""
    )
    count = (
        mark_safe('<span aria-label="infinite">∞</span>')
        if view.cards_in_shoe is None
        else view.cards_in_shoe
    )
    return format_html(
        '<div class="dealer-row">\n'
        '      <div class="discard-tray" aria-hidden="true"></div>\n'
        '      <section class="dealer-area" aria-label="Dealer">\n'
        "        <h2>Dealer{}</h2>\n"
        '        <div class="cards">{}</div>{}\n'
        "      </section>\n"
        '      <div class="card-shoe"><span class="card-shoe__label">Cards left</span> '
        '<span class="card-shoe__count">{}</span></div>\n'
        "    </div>",
        total,
        _cards(view.dealer_cards),
        message,
        count,
    )


def _split_strip(hands: list[HandView], label: str) -> SafeString:
    """The split hands not in play, beside the one that is: small cards, total, result."""
    items = []
    for hand in hands:
        doubled = DOUBLED if hand.doubled else ""
        if hand.badge:
            result = format_html(
                '<span class="badge badge--{}">{} {}</span>',
                hand.badge.lower(),
                hand.badge,
                signed_dollars(hand.net),
            )
        elif hand.message:
            result = format_html('<span class="strip-message">{}</span>', hand.message)
        else:
            result = ""
        items.append(
            format_html(
                '\n  <li><span class="strip-label">{}</span>\n'
                '    <span class="strip-cards">{}</span>\n'
                '    <span class="strip-total">{}</span>{}\n'
                "    {}</li>\n  ",
                hand.label,
                _cards(hand.cards, "small"),
                hand.total_text,
                doubled,
                result,
            )
        )
    return format_html(
        '\n<ul class="split-strip" aria-label="{}">\n  {}\n</ul>\n', label, join_html(items)
    )


def _hands_row(view: TableView) -> SafeString:
    hand = view.active_hand
    assert hand is not None
    before = _split_strip(view.hands_before, "Earlier hands") if view.hands_before else ""
    after = _split_strip(view.hands_after, "Later hands") if view.hands_after else ""
    return format_html(
        '\n    <div class="hands-row">\n'
        "      {}\n"
        '      <section class="player-area" aria-label="Player" data-hand="{}">\n'
        '        <h2>{} <span class="total">{}</span></h2>\n'
        '        <div class="cards">{}</div>\n'
        "        {}\n"
        "      </section>\n"
        "      {}\n"
        "    </div>\n    ",
        before,
        hand.number,
        hand.label,
        hand.total_text,
        _cards(hand.cards),
        _badge_or_message(hand),
        after,
    )


def _boxes(view: TableView) -> SafeString:
    """§10 seats > 1: the boxes side by side along the arc, left to right; the box in play
    (or, between rounds, the one taking the chips) is lit."""
    sections = []
    for box in view.boxes:
        hands = []
        for position, hand in enumerate(box.hands, start=1):
            hands.append(
                format_html(
                    '\n        <div class="box-hand{}" data-hand="{}">\n'
                    '          <p class="box-hand__total">{}<span class="total">{}</span></p>\n'
                    '          <div class="cards">{}</div>\n'
                    "          {}\n"
                    "        </div>\n        ",
                    " box-hand--active" if hand.active else "",
                    hand.number,
                    f"Hand {position}: " if len(box.hands) > 1 else "",
                    hand.total_text,
                    _cards(hand.cards),
                    _badge_or_message(hand),
                )
            )
        classes = (" box--in-play" if box.in_play else "") + (
            " box--selected" if box.selected else ""
        )
        sections.append(
            format_html(
                '\n      <section class="box{}" aria-label="{}"{} data-box="{}">\n'
                '        <h2 class="box__label">{}{}</h2>\n'
                "        {}\n"
                '        <div class="box-circle"><span class="visually-hidden">Bet </span>'
                "{}</div>\n"
                "      </section>\n      ",
                classes,
                box.label,
                mark_safe(' aria-current="true"') if box.in_play or box.selected else "",
                box.number,
                box.label,
                mark_safe('<span class="visually-hidden">, in play</span>') if box.in_play else "",
                join_html(hands),
                dollars(box.bet),
            )
        )
    return format_html('\n    <div class="boxes">\n      {}\n    </div>\n    ', join_html(sections))


def _chip_stack(chips: list[int]) -> SafeString:
    return join_html(
        format_html('<span class="stack-chip chip--{}"></span>', chip) for chip in chips
    )


def _circles(view: TableView) -> SafeString:
    side = ""
    if view.side_circles:
        # The side bets riding, in their own circles (the drawer and the results panel
        # say the same in words, so these are not read out twice).
        items = []
        for circle in view.side_circles:
            if circle.result == "won":
                result = format_html(
                    '<span class="side-circle__result">+{}</span>', dollars(circle.winnings)
                )
            elif circle.result:
                result = format_html('<span class="side-circle__result">{}</span>', circle.result)
            else:
                result = ""
            items.append(
                format_html(
                    '<li class="side-circle{}" data-side-circle="{}">'
                    '<span class="side-circle__label">{}</span>'
                    '<span class="side-circle__stake">{}</span>{}</li>',
                    f" side-circle--{circle.result}" if circle.result else "",
                    circle.slug,
                    circle.label,
                    dollars(circle.stake),
                    result,
                )
            )
        side = format_html(
            '\n    <ul class="side-circles" aria-hidden="true">\n      {}\n    </ul>\n    ',
            join_html(items),
        )
    betting = ""
    if not view.boxes:
        hand = view.active_hand
        paid = view.paid_chips
        betting = format_html(
            '\n    <div class="betting-circle{}">\n'
            '      <span class="chip-stacks" aria-hidden="true">\n'
            '        <span class="chip-stack chip-stack--stake">{}</span>\n'
            "        {}\n"
            "      </span>\n"
            '      <span class="stake"><span class="visually-hidden">Bet </span>'
            '<span data-testid="bet">{}</span>{}</span>\n'
            "    </div>\n    ",
            " betting-circle--taken" if view.stake_taken else "",
            _chip_stack(view.stake_chips),
            format_html('<span class="chip-stack chip-stack--paid">{}</span>', _chip_stack(paid))
            if paid
            else "",
            dollars(hand.bet if hand else view.bet),
            DOUBLED if hand and hand.doubled else "",
        )
    return format_html('<div class="circles">\n    {}\n    {}\n    </div>', side, betting)


@register.simple_tag(takes_context=True)
def felt(context: Context) -> SafeString:
    """The felt from the dealer's row to the circles (the panels follow in the template)."""
    view: TableView = context["view"]
    messages: Any = context.get("messages") or ()
    message_line = join_html(
        [*(format_html("{} ", message) for message in messages), conditional_escape(view.message)]
    )
    if view.boxes:
        seats = _boxes(view)
    elif view.active_hand:
        seats = _hands_row(view)
    else:
        seats = ""
    return format_html(
        "{}\n"
        '    <p class="felt-rules">{}</p>\n'
        '    <p class="message-line" id="message-line">{}</p>\n'
        "    {}\n\n"
        "    {}\n\n"
        "    {}",
        _dealer_row(view),
        view.felt_rules,
        message_line,
        timer_html(view, "turn"),
        seats,
        _circles(view),
    )


@register.simple_tag(takes_context=True)
def table_top(context: Context) -> SafeString:
    """The table's own element opening (what the scripts read: phase, panel, bank,
    credits, round, version), its heading and a refusal's notice."""
    view: TableView = context["view"]
    notice = context.get("notice")
    return format_html(
        '<div id="table" class="blackjack-table" hx-target="#table" hx-swap="outerHTML" '
        'hx-disabled-elt="#table button" data-phase="{}" data-panel="{}"\n'
        '     data-bank="{}" data-credits="{}"\n'
        '     data-round="{}" data-version="{}">\n'
        '  <h1 class="visually-hidden">Blackjack table</h1>\n'
        "  {}\n",
        view.phase,
        view.panel,
        plain_dollars(view.bank),
        "" if view.credits is None else view.credits,
        view.round_number,
        view.game.version,
        format_html('<p class="table-notice" role="alert">{}</p>', notice) if notice else "",
    )


@register.simple_tag(takes_context=True)
def table_stats(context: Context) -> SafeString:
    """The bank and (trivia mode) the credits under the felt."""
    view: TableView = context["view"]
    credits = (
        format_html('<div><dt>Credits</dt><dd data-testid="credits">{}</dd></div>', view.credits)
        if view.trivia_mode
        else ""
    )
    return format_html(
        '<dl class="stats">\n'
        '    <div><dt>Bank</dt><dd data-testid="bank">{}</dd></div>\n'
        "    {}\n  </dl>",
        dollars(view.bank),
        credits,
    )


@register.simple_tag(takes_context=True)
def coach_lines(context: Context) -> SafeString:
    """The coach's lines on the table (issue 7): the hint asked for, and the note on a
    move that was not basic strategy."""
    hint = ""
    if context.get("hint_requested") and context.get("hint_available"):
        coach_hint = context.get("coach_hint")
        hint = format_html(
            '\n  <p class="coach-line coach-hint" id="coach-hint" data-testid="coach-hint">{}'
            "</p>\n",
            coach_hint.hint_text if coach_hint else "The coach has no hint for this decision.",
        )
    note = context.get("coach_note")
    if note:
        note = format_html(
            '\n  <p class="coach-line coach-note" id="coach-note" data-testid="coach-note">{}'
            "</p>\n",
            note,
        )
    return format_html("\n{}\n{}\n", hint, note or "")
