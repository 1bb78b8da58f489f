"""A kept fragment never goes stale: everything it shows is in its key.

Rendered pieces of the table are kept per process (``{% cache None name key %}``, the
"template_fragments" cache) and served again whenever their key comes back, with no
expiry. A value shown inside a kept block but missing from its key would be served stale
the next time the key matched. So each kept block reads only one frozen model
(game/presentation/fragments.py) and is keyed by that model's ``fragment_key``. Two halves
are checked here: every field of a model is in its key (change any one and the key
changes), and every variable a kept block reads is reached through the model it is keyed
by (a scan of the templates).
"""

from __future__ import annotations

import dataclasses
import re
import types
import typing
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from game.presentation import fragments
from game.presentation.bet_spots import BetFocus, SideSpots
from game.presentation.table import BoxView, HandView, SideCircle
from game.tables.presentation import seats

# ------------------------------------------------------------------ every field in the key

MODELS = [
    model
    for module in (fragments, seats)
    for model in vars(module).values()
    if isinstance(model, type)
    and issubclass(model, fragments.FragmentModel)
    and model is not fragments.FragmentModel
    and model.__module__ == module.__name__
]


def _hints(cls: Any) -> dict[str, Any]:
    module = __import__(cls.__module__, fromlist=["_"])
    return typing.get_type_hints(cls, vars(module))


def _sample(kind: Any) -> Any:
    """A value of ``kind`` (a field's type), made of non-default, non-empty parts."""
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if origin in (typing.Union, types.UnionType):
        return _sample(next(arg for arg in args if arg is not type(None)))
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return (_sample(args[0]),)
        return tuple(_sample(arg) for arg in args)
    if origin is list:
        return [_sample(args[0])]
    if kind is bool:
        return True
    if kind is int:
        return 7
    if kind is str:
        return "seven"
    if isinstance(kind, type) and dataclasses.is_dataclass(kind):
        hints = _hints(kind)
        return kind(
            **{
                field.name: _sample(hints[field.name])
                for field in dataclasses.fields(kind)
                if field.default is dataclasses.MISSING
                and field.default_factory is dataclasses.MISSING
            }
        )
    raise AssertionError(f"no sample for {kind!r}: teach _sample this type")


def _other(kind: Any, value: Any) -> Any:
    """A value of ``kind`` different from ``value``."""
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if origin in (typing.Union, types.UnionType):
        return None if value is not None else _sample(kind)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return (*value, _sample(args[0]))
        return (_other(args[0], value[0]), *value[1:])
    if origin is list:
        return [*value, _sample(args[0])]
    if kind is bool:
        return not value
    if kind is int:
        return value + 1
    if kind is str:
        return value + "-other"
    if isinstance(kind, type) and dataclasses.is_dataclass(kind):
        field = dataclasses.fields(kind)[0]
        changed = _other(_hints(kind)[field.name], getattr(value, field.name))
        return dataclasses.replace(value, **{field.name: changed})
    raise AssertionError(f"no other value for {kind!r}: teach _other this type")


def _model_fields() -> Iterator[Any]:
    for model in MODELS:
        for field in dataclasses.fields(model):  # type: ignore[arg-type]
            yield pytest.param(model, field.name, id=f"{model.__name__}.{field.name}")


def test_the_models_are_found() -> None:
    assert {model.__name__ for model in MODELS} >= {
        "TopBar",
        "DealerArea",
        "BoxRow",
        "BettingCircle",
        "SideSpotsFragment",
        "BetPanel",
        "PlayActions",
        "DifficultyChoices",
        "SeatView",
        "HandView",
        "RevealView",
    }


@pytest.mark.parametrize("model", MODELS, ids=lambda model: model.__name__)
def test_a_model_is_frozen(model: type) -> None:
    assert dataclasses.is_dataclass(model)
    assert model.__dataclass_params__.frozen  # type: ignore[attr-defined]


@pytest.mark.parametrize(("model", "name"), list(_model_fields()))
def test_changing_any_field_changes_the_key(model: type, name: str) -> None:
    hints = _hints(model)
    shown = _sample(model)
    changed = dataclasses.replace(shown, **{name: _other(hints[name], getattr(shown, name))})
    assert changed != shown
    assert changed.fragment_key != shown.fragment_key


def test_a_nested_model_changes_the_key_through_its_own() -> None:
    """A field that is a model of its own (the side-bet spots) is in the key by its key."""
    spots = _sample(SideSpots)
    spot = spots.spots[0]
    row = fragments.SideSpotsFragment(spots, 5, "/c/", "/x/", "/a/")
    line = dataclasses.replace(spot.line, stake=spot.line.stake + 500)
    staked = dataclasses.replace(
        row, spots=dataclasses.replace(spots, spots=(dataclasses.replace(spot, line=line),))
    )
    assert staked.fragment_key != row.fragment_key


def test_a_box_changing_deep_inside_changes_the_key() -> None:
    """The boxes hold hands and circles: what changes in them is in the key too."""
    hand = HandView(1, "Hand 1", ["AS"], 500, False, "11", "", True, None, "", "", 0)
    box = BoxView(number=1, bet=500, hands=[hand], side_circles=[SideCircle("pp", "PP", 100)])
    row = fragments.BoxRow(boxes=(box,), betting=False, select_box_url="/b/")
    drawn = BoxView(
        number=1,
        bet=500,
        hands=[dataclasses.replace(hand, cards=["AS", "9D"], total_text="Soft 20")],
        side_circles=[SideCircle("pp", "PP", 100)],
    )
    lost = BoxView(
        number=1, bet=500, hands=[hand], side_circles=[SideCircle("pp", "PP", 100, "lost")]
    )
    keys = {row.fragment_key}
    for other in (drawn, lost):
        keys.add(dataclasses.replace(row, boxes=(other,)).fragment_key)
    assert len(keys) == 3


def test_the_focus_is_a_frozen_model_too() -> None:
    # The bet panel's and the circles' keys hold the focus's chip and spot as plain values.
    assert BetFocus.__dataclass_params__.frozen  # type: ignore[attr-defined]


# ------------------------------------------- every variable read inside is in the key

TEMPLATES = Path(__file__).resolve().parents[3] / "templates"

# Kept blocks keyed otherwise, and why that is safe.
OTHER_KEYS = {
    # A row of chips shared with the tables' templates (templates/tables/, which include it
    # with its four parameters): keyed by exactly those parameters.
    "chip_row": ["url", "chips", "name", "prefix"],
    # The leaderboard's rows come from the database only when rendered: keyed by the day's
    # board version, which grows whenever a row would change (game/presentation/daily.py).
    "leaderboard_rows": ["board.cache_key"],
}
# Names a kept block may read that are constants of the template language.
CONSTANTS = {"forloop", "True", "False", "None"}
# Tags whose words are not variables (the rest of their tokens are read as expressions).
IF_WORDS = {"and", "or", "not", "in", "is", "==", "!=", "<", ">", "<=", ">="}

CACHE_BLOCK = re.compile(
    r"{%\s*cache\s+None\s+(\w+)((?:\s+[^%]+?)?)\s*%}(.*?){%\s*endcache\s*%}", re.S
)
PARTIALDEF = re.compile(
    r"{%\s*partialdef\s+(\w+)(?:\s+inline)?\s*%}(.*?){%\s*endpartialdef\s*%}", re.S
)
TAG = re.compile(r"{%\s*(.*?)\s*%}|{{\s*(.*?)\s*}}", re.S)
COMMENTS = re.compile(r"{#.*?#}|{%\s*comment\s*%}.*?{%\s*endcomment\s*%}", re.S)
LITERAL = re.compile(r"""^(?:".*"|'.*'|-?\d+(?:\.\d+)?)$""")


def _templates() -> Iterator[Path]:
    yield from sorted(TEMPLATES.rglob("*.html"))


def _partials(text: str) -> dict[str, str]:
    return dict(PARTIALDEF.findall(COMMENTS.sub("", text)))


def _included(reference: str) -> str:
    """The text of an included template, or of one of its partials ("path#name")."""
    path, _, partial = reference.strip("\"'").partition("#")
    text = (TEMPLATES / path).read_text()
    return _partials(text)[partial] if partial else text


def _expressions(expression: str) -> Iterator[str]:
    """A variable and its filters' arguments: ``a.b|default:c.d`` -> a.b, c.d."""
    variable, *filters = expression.split("|")
    yield variable
    for applied in filters:
        _, _, argument = applied.partition(":")
        if argument:
            yield argument


def _root(expression: str) -> str | None:
    expression = expression.strip()
    if not expression or LITERAL.match(expression):
        return None
    root = expression.split(".")[0]
    return None if root in CONSTANTS else root


def _reads(text: str, partials: dict[str, str], depth: int = 0) -> tuple[set[str], set[str]]:
    """The roots of the variables ``text`` reads, and the names it binds itself (loop
    variables, ``with``, ``as``, an include's ``with``): partials of the same template and
    included templates are read as part of it."""
    assert depth < 8, "partials and includes nest too deep"
    used: set[str] = set()
    bound: set[str] = set()

    def read(expression: str) -> None:
        for part in _expressions(expression):
            root = _root(part)
            if root:
                used.add(root)

    for tag, variable in TAG.findall(COMMENTS.sub("", text)):
        if variable:
            read(variable)
            continue
        word, *tokens = tag.split()
        if word.startswith("end") or word in {"else", "empty", "load", "csrf_token", "localize"}:
            continue
        if word == "for":
            names, _, source = " ".join(tokens).partition(" in ")
            bound.update(name.strip() for name in names.split(","))
            read(source.removesuffix(" reversed"))
        elif word in {"if", "elif"}:
            for token in tokens:
                if token not in IF_WORDS:
                    read(token)
        elif word == "with":
            for token in tokens:
                name, _, expression = token.partition("=")
                bound.add(name)
                read(expression)
        elif word == "partial":
            inner_used, inner_bound = _reads(partials[tokens[0]], partials, depth + 1)
            used |= inner_used
            bound |= inner_bound
        elif word == "include":
            reference, *rest = tokens
            given = {token.partition("=")[0] for token in rest if "=" in token}
            for token in rest:
                if "=" in token:
                    read(token.partition("=")[2])
            included = _included(reference)
            inner_used, inner_bound = _reads(
                included,
                _partials((TEMPLATES / reference.strip("\"'").partition("#")[0]).read_text()),
                depth + 1,
            )
            used |= inner_used - given
            bound |= inner_bound
        else:  # a tag of a library: its arguments, and the name it binds with "as"
            if "as" in tokens:
                bound.add(tokens[tokens.index("as") + 1])
                tokens = tokens[: tokens.index("as")]
            for token in tokens:
                read(token)
    return used, bound


def _kept_blocks() -> Iterator[tuple[str, str, list[str], str, dict[str, str]]]:
    for path in _templates():
        text = path.read_text()
        for name, key, body in CACHE_BLOCK.findall(text):
            yield str(path.relative_to(TEMPLATES)), name, key.split(), body, _partials(text)


def _problems(name: str, key: list[str], body: str, partials: dict[str, str]) -> list[str]:
    """What is wrong with a kept block: a key that is not one model's, or a variable read
    inside that the key does not cover."""
    used, bound = _reads(body, partials)
    read = used - bound
    if name in OTHER_KEYS:
        if key != OTHER_KEYS[name]:
            return [f"{name}: keyed by {key}, expected {OTHER_KEYS[name]}"]
        covered = {expression.split(".")[0] for expression in key}
    elif not key:  # kept once: it may show nothing that varies
        covered = set()
    elif len(key) == 1 and key[0].endswith(".fragment_key") and key[0].count(".") == 1:
        covered = {key[0].split(".")[0]}
    else:
        return [f"{name}: keyed by {key}: key it by one model's fragment_key"]
    return [f"{name}: reads {root!r}, which is not in its key" for root in sorted(read - covered)]


def test_the_kept_blocks_are_found() -> None:
    names = {name for _, name, _, _, _ in _kept_blocks()}
    assert names >= {
        "site_head",
        "table_head",
        "top_bar",
        "dealer_area",
        "boxes",
        "betting_circle",
        "side_spots",
        "bet_panel",
        "play_actions",
        "difficulty_choices",
        "report_question_fields",
        "chip_row",
        "leaderboard_rows",
        "shared_seat",
    }


@pytest.mark.parametrize(
    ("path", "name", "key", "body", "partials"),
    [pytest.param(*block, id=f"{block[0]}:{block[1]}") for block in _kept_blocks()],
)
def test_a_kept_block_reads_only_what_its_key_covers(
    path: str, name: str, key: list[str], body: str, partials: dict[str, str]
) -> None:
    assert _problems(name, key, body, partials) == []


def test_the_scan_finds_a_value_shown_but_not_keyed() -> None:
    """The scan itself: a value read beside the model, directly, through a filter's
    argument, a condition, a loop or a partial, is reported."""
    partials = {"shows_bank": "{{ view.bank }}"}
    for body in (
        "{{ bet_panel.deal_url }}{{ view.bet }}",
        "{{ bet_panel.amount|default:view.bet }}",
        "{% if bet_panel.boxes and focus.on_side_bet %}x{% endif %}",
        "{% for chip in view.chips %}{{ chip }}{% endfor %}",
        "{% partial shows_bank %}",
        "{% rules_link line.name %}",
    ):
        assert _problems("bet_panel", ["bet_panel.fragment_key"], body, partials), body
    assert _problems("bet_panel", ["bet_panel.chips", "view.bet"], "{{ view.bet }}", {})
    assert _problems("site_head", [], "{{ view.bet }}", {})
    assert not _problems(
        "bet_panel",
        ["bet_panel.fragment_key"],
        "{% for chip in bet_panel.chips %}{{ chip|dollars }}{% endfor %}"
        "{% with a=bet_panel.amount %}{{ a }}{% endwith %}",
        {},
    )
