"""The busiest panels of the single-player table, written in Python (issue 14, fourth
pass): the round's outcome, the trivia reveal (a wrong answer's, and a right answer's on
the felt) and the "Report question" form. Each was a few dozen template nodes rendered on
the actions that end a round or answer a question; here they are the same HTML
(whitespace between tags aside) from the same view model, values escaped by
``format_html`` as the template escaped them, the template's own filters used where a
value may be odd (None, an empty string).
"""

from __future__ import annotations

from typing import Any

from django import template
from django.template.context import Context
from django.template.defaultfilters import capfirst, stringformat
from django.template.defaulttags import CsrfTokenNode
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

from game.presentation.table import TableView
from game.question_reports import NOTE_MAX_LENGTH
from game.templatetags.table_tags import DOUBLED, action_form_opening, dollars, join_html
from game.url_cache import game_url
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
            CsrfTokenNode().render(context),
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
