"""The ``action_form`` tag: the one place the table's action forms open."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from django.template import RequestContext, Template
from django.test import RequestFactory

TEMPLATES = Path(__file__).resolve().parents[2] / "templates" / "game"


def render(source: str, **context: object) -> str:
    request = RequestFactory().get("/")
    game = SimpleNamespace(pk=7, version=3)
    template = Template("{% load table_tags %}" + source)
    return template.render(RequestContext(request, {"view": SimpleNamespace(game=game), **context}))


def test_it_posts_to_the_action_with_and_without_javascript() -> None:
    html = render('{% action_form "deal" class="bet-form" data-x %}<b>in</b>{% endaction_form %}')
    assert html.startswith(
        '<form method="post" action="/games/7/deal/" hx-post="/games/7/deal/"'
        ' class="bet-form" data-x>'
    )
    assert '<input type="hidden" name="version" value="3">' in html
    assert 'name="csrfmiddlewaretoken"' in html
    assert html.endswith("<b>in</b></form>")


def test_buttons_post_to_other_actions_of_the_same_game() -> None:
    assert render("{% action_url 'chip' %}") == "/games/7/chip/"


def test_attribute_values_are_escaped() -> None:
    html = render('{% action_form "hit" data-label=label %}{% endaction_form %}', label='"><x>')
    assert 'data-label="&quot;&gt;&lt;x&gt;"' in html


def test_no_game_template_opens_an_action_form_by_hand() -> None:
    for path in TEMPLATES.rglob("*.html"):
        assert "'game:action'" not in path.read_text(), path


def test_an_htmx_answer_leaves_the_token_field_to_the_header() -> None:
    request = RequestFactory().post("/", HTTP_HX_REQUEST="true")
    request.htmx = True  # what django-htmx's middleware sets
    game = SimpleNamespace(pk=7, version=3)
    template = Template('{% load table_tags %}{% action_form "deal" %}{% endaction_form %}')
    html = template.render(RequestContext(request, {"view": SimpleNamespace(game=game)}))
    assert "csrfmiddlewaretoken" not in html
    assert '<input type="hidden" name="version" value="3">' in html
