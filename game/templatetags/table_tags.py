"""Template helpers for the table: money in dollars, cards drawn in HTML with accessible names."""

from __future__ import annotations

import html
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from django import template
from django.template.base import FilterExpression, NodeList, Parser, Token
from django.template.context import Context
from django.template.defaulttags import CsrfTokenNode
from django.utils.functional import Promise
from django.utils.safestring import SafeString, mark_safe
from django.utils.text import capfirst

from game.rules.cards import RANK_NAMES, SUIT_SYMBOLS, card_name, is_jackpot_ace, is_red
from game.rules.money import display_cents, format_cents
from game.url_cache import game_url, urls_in_use

register = template.Library()


def _escaped(value: Any) -> str:
    """``conditional_escape(value)``: a lazy string made text first; a value with
    ``__html__`` (a SafeString, the output of these functions) as it says it is; anything
    else as text with ``& < > " '`` escaped (``html.escape``, as Django's ``escape``)."""
    if isinstance(value, Promise):
        value = str(value)
    as_html = getattr(value, "__html__", None)
    return as_html() if as_html is not None else html.escape(str(value))


def format_html(format_string: str, *args: Any) -> SafeString:
    """``django.utils.html.format_html`` for the table's tags: the same result, every value
    escaped as ``conditional_escape`` escapes it (:func:`_escaped`), without the
    lazy-string checks Django's ``escape`` makes around each value (a quarter to a third
    of the table tags' time, issue 14: ~7 µs a call of five values against ~2)."""
    return SafeString(format_string.format(*map(_escaped, args)))


def format_html_join(
    sep: str, format_string: str, args_generator: Iterable[Iterable[Any]]
) -> SafeString:
    """``django.utils.html.format_html_join`` with :func:`format_html` (positional
    arguments only)."""
    return SafeString(
        _escaped(sep).join(format_html(format_string, *args) for args in args_generator)
    )


# The face shows "10", not the code's "0".
_RANK_FACES = {**{rank: rank for rank in RANK_NAMES}, "0": "10"}

# Where a number card's pips stand, as (column 1-3, row 1-13) on the card's pip grid: the
# classic layouts, so a 7 reads as a 7 at a glance. Rows below the middle are drawn
# upside down, as on a real card. CSS classes, not inline styles (the CSP forbids them).
_SIDES = ((1, 1), (3, 1), (1, 13), (3, 13))
_PIP_LAYOUTS: dict[str, tuple[tuple[int, int], ...]] = {
    "2": ((2, 1), (2, 13)),
    "3": ((2, 1), (2, 7), (2, 13)),
    "4": _SIDES,
    "5": (*_SIDES, (2, 7)),
    "6": (*_SIDES, (1, 7), (3, 7)),
    "7": (*_SIDES, (1, 7), (3, 7), (2, 4)),
    "8": (*_SIDES, (1, 7), (3, 7), (2, 4), (2, 10)),
    "9": (*_SIDES, (1, 5), (3, 5), (1, 9), (3, 9), (2, 7)),
    "0": (*_SIDES, (1, 5), (3, 5), (1, 9), (3, 9), (2, 3), (2, 11)),
}


def _card_centre(rank: str, suit: str, face: str, size: str) -> str:
    """The middle of a card: framed letter for a court card, pips for 2-10, one large suit
    for an ace (and for every card in the small split-strip size, where pips would blur)."""
    if rank in "JQK":
        return format_html('<span class="pc-court">{}</span>', face)
    layout = _PIP_LAYOUTS.get(rank)
    if layout is None or size == "small":
        return suit
    return format_html(
        '<span class="pc-pips">{}</span>',
        format_html_join(
            "", '<span class="pip pc{} pr{}">{}</span>', ((c, r, suit) for c, r in layout)
        ),
    )


@register.filter
def dollars(cents: int | None) -> str:
    """Cents as the page shows them: ``$1,234.50``."""
    return display_cents(int(cents or 0))


@register.filter
def signed_dollars(cents: int | None) -> str:
    """A win or loss: ``+$10.00``, ``−$10.00`` (a true minus sign), ``$0.00``."""
    cents = int(cents or 0)
    if cents > 0:
        return f"+{display_cents(cents)}"
    return f"−{display_cents(-cents)}" if cents < 0 else display_cents(0)


@register.filter
def plain_dollars(cents: int | None) -> str:
    """Cents as a plain amount for fields and data attributes: ``1234.50``."""
    return format_cents(int(cents or 0))


@register.simple_tag
def playing_card(code: str | None, size: str = "") -> str:
    """One card; ``None`` is the face-down hole card."""
    return _playing_card(code or None, size)


@lru_cache(maxsize=1024)
def _playing_card(code: str | None, size: str) -> str:
    # The same few hundred (card, size) pairs are drawn on every render: made once each.
    size_class = f" playing-card--{size}" if size else ""
    if not code:
        return format_html(
            '<span class="playing-card playing-card--back{}" role="img" '
            'aria-label="Face-down card"></span>',
            size_class,
        )
    colour = "red" if is_red(code) else "black"
    jackpot = is_jackpot_ace(code)
    face, suit = _RANK_FACES[code[0]], SUIT_SYMBOLS[code[1]]
    corner = format_html(
        '<span class="pc-rank">{}</span><span class="pc-suit">{}</span>', face, suit
    )
    centre = _card_centre(code[0], suit, face, size)
    return format_html(
        '<span class="playing-card playing-card--{}{}{}" role="img" aria-label="{}" '
        'data-card="{}"><span class="pc-corner" aria-hidden="true">{}</span>'
        '<span class="pc-centre" aria-hidden="true">{}</span>'
        '<span class="pc-corner pc-corner--end" aria-hidden="true">{}</span>{}</span>',
        colour,
        " playing-card--jackpot" if jackpot else "",
        size_class,
        card_name(code),
        code,
        corner,
        centre,
        corner,
        format_html('<span class="playing-card__jackpot" aria-hidden="true">JACKPOT</span>')
        if jackpot
        else "",
    )


@register.filter
def card_short(code: str) -> str:
    """Compact text for the split-hands strip: ``10♥``."""
    return f"{_RANK_FACES[code[0]]}{SUIT_SYMBOLS[code[1]]}{'*' if is_jackpot_ace(code) else ''}"


@register.filter(name="card_name")
def card_name_filter(code: str) -> str:
    """The accessible name of a card, e.g. "Queen of Hearts"."""
    return card_name(code)


@register.filter
def negate(value: int) -> int:
    return -int(value)


class ActionFormNode(template.Node):
    """``{% action_form "deal" class="bet-form" %}…{% endaction_form %}``: one action's form.

    The one place the table's forms open: a plain post to the action (so it works without
    JavaScript), the same URL as ``hx-post`` (where the answer goes is inherited from
    ``#table``), the CSRF token and the version the page was rendered from (a stale post
    is refused). Extra ``name=value`` pairs (and bare names) become attributes of the form.
    """

    def __init__(
        self,
        action: FilterExpression,
        attrs: list[tuple[str, FilterExpression | None]],
        nodelist: NodeList,
    ) -> None:
        self.action = action
        self.attrs = attrs
        self.nodelist = nodelist

    def render(self, context: Context) -> str:
        attrs = [
            (name, None if value is None else value.resolve(context)) for name, value in self.attrs
        ]
        opening = action_form_opening(context, str(self.action.resolve(context)), attrs)
        return f"{opening}{self.nodelist.render(context)}</form>"


def htmx_form_csrf_field(context: Context) -> str:
    """The CSRF token's hidden field of a form that htmx posts (``hx-post``): on the full
    page only. In an htmx answer the field is left out: htmx posts the form with the
    page's token in the ``X-CSRFToken`` header (base.html's ``hx-headers``), and without
    JavaScript no htmx answer is ever shown. Masking a new token for the field cost ~50 µs
    of every action's answer (issue 14). A form posted without htmx keeps its field."""
    request = context.get("request")
    if request is not None and getattr(request, "htmx", False):
        return ""
    return CsrfTokenNode().render(context)


def action_form_opening(
    context: Context, action: str, attrs: Iterable[tuple[str, Any]] = ()
) -> SafeString:
    """The opening of an action's form (see :class:`ActionFormNode`), up to and with the
    hidden version field; ``attrs`` as (name, value), a value of None for a bare name."""
    game = context["view"].game
    url = action_url(context, game.pk, action)
    extra = format_html_join(
        "",
        "{}",
        (
            (format_html(" {}", name) if value is None else format_html(' {}="{}"', name, value),)
            for name, value in attrs
        ),
    )
    return format_html(
        '<form method="post" action="{}" hx-post="{}"{}>{}'
        '<input type="hidden" name="version" value="{}">',
        url,
        url,
        extra,
        htmx_form_csrf_field(context),
        game.version,
    )


def action_url(context: Context, game_id: int, action: str) -> str:
    """The action's URL (reversed once per process, game/url_cache.py)."""
    return game_url("game:action", game_id, action)


@register.simple_tag(name="action_url", takes_context=True)
def action_url_tag(context: Context, action: str) -> str:
    """``formaction="{% action_url 'chip' %}"``: another action of the same form's game."""
    return action_url(context, context["view"].game.pk, action)


@register.simple_tag(takes_context=True)
def chip_buttons(context: Context) -> str:
    """The bet panel's chip buttons, the same for every render of a game's bet panel:
    made once per (URL, chips) instead of a dozen template nodes per render (issue 14)."""
    view = context["view"]
    return chip_buttons_html(action_url(context, view.game.pk, "chip"), tuple(view.chips))


@lru_cache(maxsize=4096)
def chip_buttons_html(
    url: str, chips: tuple[int, ...], name: str = "chip", value_prefix: str = ""
) -> str:
    """A row of chip buttons posting ``<name>=<value_prefix><dollars>`` to ``url``: a
    game's bet panel and a shared table's bet form (``chip=25``), a shared table's side
    bet (``side_chip=21+3:25``)."""
    return format_html_join(
        "",
        '<button type="submit" class="chip chip--{}" name="{}" value="{}{}" formaction="{}">'
        "${}</button>",
        ((chip, name, value_prefix, chip, url, chip) for chip in chips),
    )


def join_html(parts: Iterable[str]) -> SafeString:
    """Parts that are each safe already (made by format_html, or fixed markup), as one."""
    return mark_safe("".join(parts))  # noqa: S308 - every caller passes format_html's parts


# A doubled hand's marker beside its total.
DOUBLED = mark_safe(' <span class="doubled">x2</span>')


def play_buttons(context: Context) -> str:
    """The turn's buttons (Hit, Stand, …), each posting to its own action: a disabled one
    says why in its title and, on the player's turn, points at its line in the list of
    unavailable actions. Written here rather than as template nodes: a tenth of the
    table's render (issue 14); made once per game and set of buttons (a round shows the
    same few sets over and over)."""
    view = context["view"]
    return _play_buttons(
        urls_in_use(),
        view.game.pk,
        view.panel == "player_turn",
        tuple(
            (action.name, action.label, action.key, action.allowed, action.reason, action.primary)
            for action in view.actions
        ),
    )


@lru_cache(maxsize=4096)
def _play_buttons(
    urls: Any, game_id: int, describe_why: bool, actions: tuple[tuple[Any, ...], ...]
) -> SafeString:
    """``urls``: the URLconf and script prefix the action URLs are reversed in (a key
    only)."""
    buttons = []
    for name, label, key, allowed, reason, primary in actions:
        attributes = ' class="primary"' if primary else ""
        if not allowed:
            attributes += format_html(' disabled title="{}"', reason)
            if describe_why and reason:
                attributes += format_html(' aria-describedby="why-not-{}"', name)
        buttons.append(
            format_html(
                '\n      <button type="submit" data-key="{}" formaction="{}"{}>{}</button>\n      ',
                key,
                game_url("game:action", game_id, name),
                mark_safe(attributes),  # noqa: S308 - made of format_html's escaped parts
                label,
            )
        )
    return join_html(buttons)


# Four answers or more: keys A-D (and 1-4) by position; two (True/False): the first letter.
_ANSWER_KEYS = (("a", "A 1", "A"), ("b", "B 2", "B"), ("c", "C 3", "C"), ("d", "D 4", "D"))


@register.simple_tag
def answer_buttons(answers: list[str]) -> str:
    """The trivia question's answer buttons, each posting ``answer=<its text>``, with its
    keyboard shortcut. Written here rather than as a loop of template nodes (the question
    panel is the busiest render of a trivia hit, issue 14)."""
    lettered = len(answers) > 2
    buttons = []
    for position, answer in enumerate(answers):
        if lettered:
            key, shortcut, letter = _ANSWER_KEYS[position % len(_ANSWER_KEYS)]
            letter_html = format_html(
                '<span class="answer-letter" aria-hidden="true">{}</span>', letter
            )
        else:
            key, shortcut, letter_html = answer[:1].lower(), answer[:1].upper(), ""
        buttons.append(
            format_html(
                '\n      <button type="submit" name="answer" value="{}" class="answer" '
                'data-key="{}" aria-keyshortcuts="{}">{}<span>{}</span></button>\n      ',
                answer,
                key,
                shortcut,
                letter_html,
                answer,
            )
        )
    return mark_safe("\n      " + "".join(buttons) + "\n    ")  # noqa: S308 - format_html's parts


@register.simple_tag(takes_context=True)
def hint_button(context: Context) -> SafeString | str:
    """The coach's Hint (issue 7): a GET of the table with ?hint=1, so it changes nothing
    and works without JavaScript."""
    if not context.get("hint_available"):
        return ""
    url = game_url("game:table", context["view"].game.pk)
    return format_html(
        '\n    <form method="get" action="{}" hx-get="{}" class="hint-form">\n'
        '      <input type="hidden" name="hint" value="1">\n'
        '      <button type="submit" class="secondary" data-key="?" aria-keyshortcuts="?">'
        "Hint</button>\n    </form>\n",
        url,
        url,
    )


def _unavailable_actions(view: Any) -> SafeString | str:
    """A disabled button cannot take keyboard focus, so its title (the reason) is out of
    reach for keyboard and touch users. The reasons are listed here too, behind a
    disclosure that Tab reaches; each disabled button points at its line with
    aria-describedby."""
    unavailable = view.unavailable_actions
    if not unavailable:
        return ""
    lines = format_html_join(
        "",
        '<li><strong>{}:</strong> <span id="why-not-{}">{}</span></li>\n    ',
        ((action.label, action.name, action.reason) for action in unavailable),
    )
    return format_html(
        '\n<details class="unavailable-actions">\n  <summary>Why are some actions unavailable?'
        "</summary>\n  <ul>\n    {}\n  </ul>\n</details>\n",
        lines,
    )


@register.simple_tag(takes_context=True)
def play_actions(context: Context) -> SafeString | str:
    """While a round is in progress: the turn's buttons in one form, each posting to its
    own action. Once a difficulty has been chosen in this game, Hit and Double Down ask at
    it directly; the select beside them changes it (works without JavaScript: it is posted
    with the button). Then the Hint and the list of unavailable actions."""
    view = context["view"]
    if not view.round_in_progress:
        return ""
    pick = ""
    if view.trivia_mode and view.game.trivia_difficulty and view.panel == "player_turn":
        options = format_html_join(
            "",
            '<option value="{}"{}>{} (+{})</option>',
            (
                (
                    difficulty,
                    mark_safe(" selected") if difficulty == view.trivia_difficulty else "",
                    capfirst(difficulty),
                    credits,
                )
                for difficulty, credits in view.difficulty_hints.items()
            ),
        )
        pick = format_html(
            '\n      <label class="difficulty-pick">Questions\n'
            '        <select name="difficulty">{}</select>\n      </label>\n      ',
            options,
        )
    return format_html(
        '\n  <div class="actions play-actions" role="group" aria-label="Actions">\n'
        "    {}\n      {}\n      {}\n    </form>\n    {}\n  </div>\n  {}\n  ",
        action_form_opening(context, "stand", [("class", "play-form")]),
        play_buttons(context),
        pick,
        hint_button(context),
        _unavailable_actions(view),
    )


@register.simple_tag(name="game_url")
def game_url_tag(viewname: str, game_id: int) -> str:
    """``{% game_url 'game:options' game.pk %}``: ``{% url %}`` for a game's page, its
    pattern reversed once per process."""
    return game_url(viewname, game_id)


@register.tag("action_form")
def action_form(parser: Parser, token: Token) -> ActionFormNode:
    action, *pairs = token.split_contents()[1:]
    attrs: list[tuple[str, FilterExpression | None]] = []
    for pair in pairs:
        name, separator, value = pair.partition("=")
        attrs.append((name, parser.compile_filter(value) if separator else None))
    nodelist = parser.parse(("endaction_form",))
    parser.delete_first_token()
    return ActionFormNode(parser.compile_filter(action), attrs, nodelist)
