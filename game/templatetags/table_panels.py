"""The panels of the single-player table, written in Python (issue 14, fourth and fifth
passes): the round's outcome, the trivia reveal (a wrong answer's, and a right answer's on
the felt) and the "Report question" form; then every other panel but the side-bet offers
(the bet panel with its side-bet menu, insurance / even money, early surrender, the trivia
difficulty and question, the dealer's turn, game over), the top bar's End Game and
Options, and the status text. Each was a few dozen template nodes rendered on every htmx
answer; here they are the same HTML (whitespace between tags aside) from the same view
model, values escaped by ``format_html`` as the template escaped them, the template's own
filters used where a value may be odd (None, an empty string).
"""

from __future__ import annotations

from typing import Any

from django import template
from django.template.context import Context
from django.template.defaultfilters import capfirst, pluralize, stringformat
from django.template.defaulttags import CsrfTokenNode
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe

from game.presentation.side_bet_menu import SideBetMenu, side_bet_menu
from game.presentation.table import TableView
from game.question_reports import NOTE_MAX_LENGTH
from game.rules_pages.content import rules_url
from game.templatetags.table_felt import timer_html
from game.templatetags.table_tags import (
    DOUBLED,
    action_form_opening,
    action_url,
    answer_buttons,
    chip_buttons,
    dollars,
    format_html,
    format_html_join,
    hint_button,
    htmx_form_csrf_field,
    join_html,
    plain_dollars,
)
from game.url_cache import cached_reverse, game_url
from trivia.models import QuestionReport

register = template.Library()


def report_question_html(context: Context, attempt: Any) -> SafeString:
    """The reveal's "Report this question" form (or the thanks once it is reported)."""
    if attempt.report_id:
        body = mark_safe(
            '\n  <p class="report-done" data-testid="question-reported">You reported this '
            "question. Thanks — staff will review it.</p>\n"
        )
    else:
        url = game_url("game:report_question", context["view"].game.pk)
        reasons = format_html_join(
            "", '<option value="{}">{}</option>', QuestionReport.Reason.choices
        )
        body = format_html(
            "\n  <details>\n    <summary>Report this question</summary>\n    \n"
            '    <form method="post" action="{}" hx-post="{}">\n'
            '      {}<input type="hidden" name="attempt" value="{}">\n'
            '      <div class="field"><label for="report-reason">Reason</label>\n'
            '        <select id="report-reason" name="reason" required>\n'
            '          <option value="">Choose a reason…</option>\n'
            "          {}\n        </select></div>\n"
            '      <div class="field"><label for="report-note">Note (optional)</label>\n'
            '        <textarea id="report-note" name="note" rows="2" maxlength="{}">'
            "</textarea></div>\n"
            '      <button type="submit" class="secondary">Report question</button>\n'
            "    </form>\n  </details>\n",
            url,
            url,
            htmx_form_csrf_field(context),
            attempt.pk,
            reasons,
            NOTE_MAX_LENGTH,
        )
    return format_html('\n<div class="report-question">{}</div>\n', body)


@register.simple_tag(takes_context=True)
def revealed_on_felt(context: Context) -> SafeString | str:
    """A question answered right: the card is dealt and the question with its answer
    shows on the felt ("Correct! Credits +N" is the status line's)."""
    attempt = context["view"].revealed
    if not attempt:
        return ""
    return format_html(
        '\n  <section class="trivia-revealed" aria-label="Trivia answer">\n    \n'
        '    <p><span class="trivia-revealed__question">{}</span> '
        '<strong class="right-answer">{}</strong></p>\n    {}\n  </section>\n  ',
        attempt.question.text,
        attempt.question.correct_answer,
        report_question_html(context, attempt),
    )


@register.simple_tag(takes_context=True)
def reveal_panel(context: Context) -> SafeString:
    """The answer just given, right or wrong, with the right one marked; Continue."""
    view: TableView = context["view"]
    attempt = view.attempt
    assert attempt is not None
    right, given = attempt.question.correct_answer, attempt.answer_given
    items = []
    for answer in attempt.answers_shown:
        classes = ("right-answer" if answer == right else "") + (
            " given" if answer == given else ""
        )
        items.append(
            format_html(
                '\n      <li class="{}">{}{}{}</li>\n      ',
                classes,
                answer,
                mark_safe(" <strong>(right answer)</strong>") if answer == right else "",
                mark_safe(" <em>(your answer)</em>") if answer == given else "",
            )
        )
    if attempt.correct:
        verdict, heading = "correct", "Correct!"
        if attempt.action == "double":
            after = "Your bet is doubled and you get one card."
        else:
            after = "You get your card."
    else:
        verdict, heading, after = "incorrect", "Incorrect", "Your hand stands."
    return format_html(
        '\n    <h2 class="{}">{}</h2>\n'
        '    <p class="trivia-question">{}</p>\n'
        '    <ul class="answers-revealed">\n      {}\n    </ul>\n'
        "    <p>Credits {}: {} → {}. {}</p>\n"
        "    {}\n"
        '      <button type="submit" class="primary" data-key="n">Continue</button>\n'
        "    </form>\n    {}\n    ",
        verdict,
        heading,
        attempt.question.text,
        join_html(items),
        stringformat(attempt.credits_change, "+d"),
        view.credits_before,
        view.credits,
        after,
        action_form_opening(context, "continue"),
        report_question_html(context, attempt),
    )


@register.simple_tag(takes_context=True)
def outcome_panel(context: Context) -> SafeString:
    """The round's outcome: Next Round (between rounds), then the round's details, open by
    themselves when the badges on the felt do not tell the whole round (side bets,
    insurance, split hands)."""
    view: TableView = context["view"]
    next_round = ""
    if view.panel == "outcome":
        next_round = format_html(
            "\n    {}\n"
            '      <button type="submit" class="primary" data-key="n">Next Round</button>\n'
            "    </form>\n    ",
            action_form_opening(context, "next-round", [("class", "actions round-next")]),
        )
    rows = [
        format_html(
            '\n          <tr data-result="{}"><th scope="row">{}{}</th><td>{}</td><td>{}</td>'
            "<td>{}</td></tr>\n        ",
            hand.result,
            hand.label,
            DOUBLED if hand.doubled else "",
            hand.result_label,
            hand.how_label,
            dollars(hand.winnings),
        )
        for hand in view.hands
    ]
    insurance = view.insurance
    if insurance:
        rows.append(
            format_html(
                '\n          <tr><th scope="row">{}</th><td>{}</td><td></td><td>{}</td></tr>\n'
                "        ",
                "Even money" if insurance["kind"] == "even_money" else "Insurance",
                capfirst(insurance["result"]),
                dollars(insurance["winnings"]),
            )
        )
    for bet in view.side_panels.summary:
        rows.append(
            format_html(
                '\n        <tr data-side-bet="{}" data-result="{}"><th scope="row">{} '
                '<span class="stake">({})</span></th><td>{}</td><td>{}{}{}</td><td>{}</td>'
                "</tr>\n",
                bet.name,
                bet.status,
                bet.title,
                dollars(bet.stake),
                bet.status_label,
                bet.condition_text,
                format_html(" ({})", bet.ratio_text) if bet.ratio_text else "",
                format_html(' <span class="note">{}</span>', bet.note) if bet.note else "",
                dollars(bet.winnings),
            )
        )
    net = view.net
    if net > 0:
        total = format_html("You won {}", dollars(net))
    elif net < 0:
        total = format_html("You lost {}", dollars(-net))
    else:
        total = "Even"
    return format_html(
        '\n    <h2 class="visually-hidden">Round {} outcome</h2>\n    {}\n    \n'
        '    <details class="round-details"{}>\n'
        "      <summary>Round {} details</summary>\n"
        '      <table class="listing outcome">\n'
        '        <thead><tr><th scope="col">Hand</th><th scope="col">Result</th>'
        '<th scope="col">How</th><th scope="col">Winnings</th></tr></thead>\n'
        "        <tbody>\n        {}\n        </tbody>\n"
        '        <tfoot><tr><th scope="row">Total this round</th><td colspan="2">{}</td>'
        "<td>{}</td></tr></tfoot>\n"
        "      </table>\n    </details>\n  ",
        view.round_number,
        next_round,
        mark_safe(" open") if view.side_bets or view.insurance or view.other_hands else "",
        view.round_number,
        join_html(rows),
        total,
        dollars(view.round_paid),
    )


# ------------------------------------------------------------------ the rest of the table
# (issue 14, fifth pass): the top bar's buttons, the status text and every panel the
# template still wrote with nodes — the bet panel with its side-bet menu, the insurance /
# even-money and early-surrender offers, the trivia difficulty and question panels, the
# dealer's turn and the game over. The same HTML as the template text they replace
# (kept in tests/game/templatetags/test_table_partial.py as the reference).


@register.simple_tag(takes_context=True)
def top_bar_buttons(context: Context) -> SafeString:
    """End Game (while the game runs) and Options (between rounds); the Rules link after
    them stays in the template."""
    view: TableView = context["view"]
    game = view.game
    end = (
        ""
        if game.is_over
        else format_html(
            '<a class="button danger" href="{}">End Game</a>', game_url("game:end_game", game.pk)
        )
    )
    options = (
        format_html(
            '<a class="button secondary" href="{}">Options</a>', game_url("game:options", game.pk)
        )
        if view.between_rounds
        else ""
    )
    return format_html("{}\n    {}", end, options)


def _text(value: Any) -> SafeString:
    """A value as ``{{ value }}`` writes it: its text, escaped unless already safe."""
    return conditional_escape(str(value))


@register.simple_tag(takes_context=True)
def status_text(context: Context) -> SafeString:
    """The status line's words (the live region announces them): a refusal's notice, else
    the messages, the coach's note and hint, then the table's own message."""
    notice = context.get("notice")
    if notice:
        return _text(notice)
    parts = [format_html("{} ", _text(message)) for message in context.get("messages") or ()]
    if note := context.get("coach_note"):
        parts.append(format_html("{} ", _text(note)))
    if hint := context.get("coach_hint"):
        parts.append(format_html("{} ", _text(hint.hint_text)))
    parts.append(_text(context["view"].message))
    return join_html(parts)


# Enter in the amount field submits the form with its first submit button; without this
# one that would be the $1 chip. Hidden from sight, Tab and screen readers: the real Deal
# is below.
_DEFAULT_DEAL_BUTTON = mark_safe(
    '\n\n<button type="submit" class="visually-hidden default-submit" tabindex="-1" '
    'aria-hidden="true">Deal</button>\n'
)


def _box_picker(context: Context, view: TableView) -> SafeString | str:
    """§10 seats: a button per box (chips and the amount go to the one pressed)."""
    if not view.boxes:
        return ""
    game_id = view.game.pk
    select = action_url(context, game_id, "select-box")
    buttons = format_html_join(
        "",
        '<button type="submit" class="secondary box-pick" name="box" value="{}" '
        'formaction="{}" aria-pressed="{}">{} {}</button>',
        (
            (
                box.number,
                select,
                "true" if box.selected else "false",
                box.label,
                dollars(box.bet),
            )
            for box in view.boxes
        ),
    )
    return format_html(
        "\n"
        '      <div class="box-picker" role="group" aria-label="Boxes: chips and the amount go '
        'to the one pressed">\n'
        "        {}\n"
        '        <button type="submit" class="secondary" formaction="{}">Same bet on every box'
        "</button>\n"
        "      </div>\n      ",
        buttons,
        action_url(context, game_id, "same-bet"),
    )


def _side_bet_line(line: Any, chips: tuple[int, ...], urls: dict[str, str], game_id: int) -> str:
    chip_buttons = format_html_join(
        "",
        '<button type="submit" id="side-chip-{}-{}" class="chip chip--{}" name="side_chip" '
        'value="{}:{}" formaction="{}">${}</button>',
        ((line.slug, chip, chip, line.name, chip, urls["side-chip"], chip) for chip in chips),
    )
    return format_html(
        "\n"
        '      <fieldset class="side-bet" id="{}" data-bet="{}">\n'
        "        <legend>{}</legend>\n"
        '        <p class="side-bet-stake">Stake <strong data-testid="stake-{}">{}</strong></p>\n'
        '        <p class="side-bet-summary">{} <span class="side-bet-headline">{}.</span></p>\n'
        '        <div class="chips side-chips">\n'
        "          {}\n"
        "        </div>\n"
        '        <div class="side-bet-tools">\n'
        '          <button type="submit" id="side-clear-{}" class="secondary" name="bet" '
        'value="{}" formaction="{}">Clear</button>\n'
        '          <a href="{}">{} rules</a>\n'
        "        </div>\n"
        "      </fieldset>\n    ",
        line.group_id,
        line.name,
        line.label,
        line.slug,
        dollars(line.stake),
        line.summary,
        line.headline,
        chip_buttons,
        line.slug,
        line.name,
        urls["side-clear"],
        rules_url(line.name, game_id),
        line.label,
    )


def _open_side_bet_menu(context: Context, view: TableView, menu: SideBetMenu) -> SafeString:
    game_id = view.game.pk
    urls = {
        action: action_url(context, game_id, action)
        for action in ("side-chip", "side-clear", "extra-bet-activate", "side-clear-all")
    }
    lines = join_html(_side_bet_line(line, menu.chips, urls, game_id) for line in menu.lines)
    if menu.extra_bet_active:
        stake, value, verb = mark_safe("<strong>Active</strong>"), "off", "Deactivate"
    else:
        stake, value, verb = "Not active", "on", "Activate"
    return format_html(
        "\n"
        "    <h3>Side bets</h3>\n"
        '    <p class="side-bets-help">Each side bet is ${} or more (or nothing); all your bets '
        'together must fit in your bank. <a href="{}">How side bets work</a></p>\n'
        '    <div class="side-bet-list">\n'
        "    {}\n"
        '      <fieldset class="side-bet side-bet--extra" id="side-bet-extra-bet-blackjack" '
        'data-bet="extra_bet_blackjack">\n'
        "        <legend>Extra Bet Blackjack</legend>\n"
        '        <p class="side-bet-stake">{}</p>\n'
        '        <p class="side-bet-summary">{}</p>\n'
        '        <div class="side-bet-tools">\n'
        "          \n"
        '          <button type="submit" id="extra-bet-activation" class="secondary" '
        'name="active" value="{}" formaction="{}">{}</button>\n'
        "          \n"
        '          <a href="{}">Extra Bet Blackjack rules</a>\n'
        "        </div>\n"
        "      </fieldset>\n"
        "    </div>\n"
        '    <div class="side-bets-footer">\n'
        '      <p>Side-bet total <strong data-testid="side-bet-menu-total">{}</strong></p>\n'
        '      <button type="submit" id="side-clear-all" class="secondary" formaction="{}">'
        "Clear All</button>\n"
        "    </div>\n  ",
        view.options["min_bet"],
        rules_url("side_bets", game_id),
        lines,
        stake,
        menu.extra_bet_summary,
        value,
        urls["extra-bet-activate"],
        verb,
        rules_url("extra_bet_blackjack", game_id),
        dollars(menu.total),
        urls["side-clear-all"],
    )


def _side_bet_menu(context: Context, view: TableView) -> SafeString:
    """The bet panel's side-bet menu (UI.md "Side bets menu"). It sits inside the bet
    form, so every button is a plain submit button with its own formaction: the typed
    base bet travels along, it works without JavaScript, and htmx swaps the table. Chips
    keep the names "$1" … "$500"; each bet's fieldset is a group named by the bet."""
    menu = side_bet_menu(view.game)
    if not menu.available:
        return mark_safe("\n\n\n\n")
    return format_html(
        "\n\n\n\n"
        '<div class="side-bets">\n'
        '  <div class="side-bets-bar">\n'
        '    <button type="submit" id="side-bets-toggle" class="secondary" name="menu" '
        'value="{}" formaction="{}" aria-expanded="{}" aria-controls="side-bets-menu">'
        "Side Bets</button>\n"
        '    <span class="side-bets-summary" data-testid="side-bet-total">Side bets {}{}</span>\n'
        "  </div>\n"
        '  <div id="side-bets-menu" class="side-bets-menu"{}>\n'
        "  {}\n"
        "  </div>\n"
        "</div>\n\n",
        "close" if menu.open else "open",
        action_url(context, view.game.pk, "side-bets-menu"),
        "true" if menu.open else "false",
        dollars(menu.total),
        mark_safe(" · Extra Bet Blackjack active") if menu.extra_bet_active else "",
        "" if menu.open else mark_safe(" hidden"),
        _open_side_bet_menu(context, view, menu) if menu.open else "",
    )


def _bet_panel(context: Context, view: TableView) -> SafeString:
    min_bet = view.options["min_bet"]
    return format_html(
        '\n    <h2 class="visually-hidden">Place your bet</h2>\n'
        "    {}\n"
        "      {}\n"
        "      {}\n"
        '      <div class="chips" role="group" aria-label="Chips">\n'
        "        {}\n"
        "      </div>\n"
        '      <div class="bet-row">\n'
        '        <div class="field bet-amount">\n'
        '          <label for="bet-amount">Bet amount</label>\n'
        '          <input id="bet-amount" name="amount" inputmode="decimal" autocomplete="off" '
        'value="{}" placeholder="{}" aria-describedby="table-limits">\n'
        "        </div>\n"
        '        <button type="submit" class="secondary" formaction="{}">Clear Bet</button>\n'
        '        <button type="submit" class="primary" data-key="n">Deal</button>\n'
        "      </div>\n"
        '      <p class="help table-limits" id="table-limits">Table limits ${} – ${}</p>\n'
        "      {}\n"
        "    </form>\n\n  ",
        action_form_opening(context, "deal", [("class", "bet-form")]),
        _DEFAULT_DEAL_BUTTON,
        _box_picker(context, view),
        chip_buttons(context),
        plain_dollars(view.bet) if view.bet else "",
        min_bet,
        action_url(context, view.game.pk, "clear-bet"),
        min_bet,
        view.options["max_bet"],
        _side_bet_menu(context, view),
    )


def _offer_panel(context: Context, view: TableView) -> SafeString:
    """Insurance or even money: the question is the status line's on the felt; the
    heading stays for screen readers' heading navigation."""
    name = "Insurance" if view.panel == "insurance" else "Even money"
    reason = view.accept_reason
    return format_html(
        "\n    \n"
        '    <h2 class="visually-hidden">{}?</h2>\n'
        "    <p>The dealer shows an ace. {} costs {} and pays 2 to 1 if the dealer has "
        "blackjack.</p>\n"
        "    {}\n"
        '      <button type="submit" class="primary" name="choice" value="accept"{}>Accept'
        "</button>\n"
        '      <button type="submit" name="choice" value="decline" class="secondary">Decline'
        "</button>\n"
        "    </form>\n"
        "    {}\n\n  ",
        name,
        name,
        dollars(view.insurance_cost),
        action_form_opening(context, "insurance", [("class", "actions")]),
        format_html(' disabled title="{}"', reason) if reason else "",
        hint_button(context),
    )


def _early_surrender_panel(context: Context, view: TableView) -> SafeString:
    return format_html(
        '\n    <h2 class="visually-hidden">Early surrender?</h2>\n'
        "    <p>Give up this hand now and get half your bet ({}) back, before the dealer "
        "checks for blackjack.</p>\n"
        "    {}\n"
        '      <button type="submit" class="primary" name="choice" value="accept">Accept'
        "</button>\n"
        '      <button type="submit" name="choice" value="decline" class="secondary">Decline'
        "</button>\n"
        "    </form>\n"
        "    {}\n\n  ",
        dollars(view.bet),
        action_form_opening(context, "early-surrender", [("class", "actions")]),
        hint_button(context),
    )


def _difficulty_panel(context: Context, view: TableView) -> SafeString:
    """Hit or Double Down needs a right answer: the difficulty to ask at, each with the
    credits a right answer earns (said in full to screen readers)."""
    hints = view.difficulty_hints.items()
    buttons = format_html_join(
        "",
        '\n      <button type="submit" class="primary" name="difficulty" value="{}" '
        'aria-describedby="hint-{}">{}<span aria-hidden="true"> (+{})</span></button>\n      ',
        ((difficulty, difficulty, capfirst(difficulty), credits) for difficulty, credits in hints),
    )
    said = format_html_join(
        " ",
        '<span id="hint-{}">A right answer earns {} credit{}.</span>',
        ((difficulty, credits, pluralize(credits)) for difficulty, credits in hints),
    )
    return format_html(
        "\n    <h2>Trivia: choose a difficulty</h2>\n"
        "    <p>{} needs a right answer. Credits: {}. A wrong answer costs 1 credit.</p>\n"
        "    {}\n      {}\n    </form>\n"
        '    <p class="visually-hidden">{}</p>\n\n  ',
        "Double Down" if view.trivia_choice_for == "double" else "Hit",
        view.credits,
        action_form_opening(context, "difficulty", [("class", "actions")]),
        buttons,
        said,
    )


def _question_panel(context: Context, view: TableView) -> SafeString:
    """The question (untrusted text, escaped), its category and difficulty, the answer's
    timer, and the answers as buttons."""
    attempt = view.attempt
    assert attempt is not None
    question = attempt.question
    return format_html(
        "\n    \n    <h2>Trivia question</h2>\n"
        '    <p class="trivia-meta">Credits: {} · {} · {}</p>\n'
        "    {}\n"
        '    <p class="trivia-question" id="trivia-question">{}</p>\n'
        "    {}{}</form>\n    \n\n  ",
        view.credits,
        question.category.name,
        capfirst(attempt.difficulty),
        timer_html(view, "answer"),
        question.text,
        action_form_opening(
            context, "answer", [("class", "answers"), ("aria-labelledby", "trivia-question")]
        ),
        answer_buttons(attempt.answers_shown),
    )


def _game_over(context: Context, view: TableView) -> SafeString:
    return format_html(
        "\n    <h2>Game over</h2>\n"
        "    <p>{}</p>\n"
        "    <p>Final bank: <strong>{}</strong> · Rounds played: {}</p>\n"
        '    <form method="post" action="{}">\n'
        "      {}\n"
        '      <button type="submit" class="primary" data-key="n">New Game</button>\n'
        "    </form>\n  ",
        view.over_reason_text,
        dollars(view.bank),
        view.game.rounds_played,
        cached_reverse("game:new_game"),
        CsrfTokenNode().render(context),
    )


_PANELS = {
    "bet": _bet_panel,
    "insurance": _offer_panel,
    "even_money": _offer_panel,
    "early_surrender": _early_surrender_panel,
    "trivia_difficulty": _difficulty_panel,
    "trivia_question": _question_panel,
    "trivia_reveal": lambda context, view: format_html("\n    {}\n\n  ", reveal_panel(context)),
    "dealer_turn": lambda context, view: mark_safe(
        "\n    <h2>Dealer's turn</h2>\n    <p>The dealer plays.</p>\n\n  "
    ),
    "outcome": lambda context, view: format_html("\n    {}\n  ", outcome_panel(context)),
}


@register.simple_tag(takes_context=True)
def table_panel(context: Context) -> SafeString | str:
    """The panel under the felt for the table's state (``view.panel``); the side-bet
    offers (Extra Bet, House Money's parlay, the Infinity dice) are the template's
    includes, this writes nothing for them."""
    view: TableView = context["view"]
    panel = view.panel
    if panel == "game_over":
        before = format_html("\n    {}\n  ", outcome_panel(context)) if view.hands else ""
        return format_html("{}\n\n  {}", before, _game_over(context, view))
    write = _PANELS.get(panel)
    return write(context, view) if write else ""
