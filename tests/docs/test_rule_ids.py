"""Every rule id the code cites is defined in the rule book, docs/rules/ (its README says
how ids are written).

An id is *defined* where it is the bold lead of a line (``- **R-5.2 Stand.** End the
hand.``, ``**T-5 Intermission.**``) or part of a Markdown heading (``## 6. The dealer
(R-6)``); anywhere else it is a citation. The citations checked are those in the
docstrings, comments and text of the code (game/, trivia/, blackjack_site/, tools/, bench/,
templates/, static/js/) and the rule book's own cross-references. A range such as
``D-4…D-7`` or ``F-3 to F-5`` needs both of its ends defined, in the same file, in that
order.

The rule book follows the specification kept beside the repository, ../shared/spec/: every
id defined there must be defined here too. That check is skipped where ../shared is absent,
except under CI=true, where its absence is a failure.
"""

from __future__ import annotations

import os
import re
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RULE_BOOK = ROOT / "docs" / "rules"
SPEC = ROOT.parent / "shared" / "spec"
# UI.md is the pages' design, not rules: the rule book does not copy it.
SPEC_NOT_COPIED = {"UI.md"}

CITING_DIRS = ("game", "trivia", "blackjack_site", "tools", "bench", "templates", "static/js")
CITING_SUFFIXES = {".py", ".html", ".txt", ".js", ".md"}

# R-1.4a, R-PAY-2, R-SB-20, T-13, F-5, D-8, a section, and the two named sections
# (R-SB, R-OPT). Not part of a longer word (UTF-8, X-D-1) nor of a longer number.
ID = r"(?:R-(?:SB-|PAY-)?\d+(?:\.\d+)*[a-z]?|[TFD]-\d+(?:\.\d+)*[a-z]?|R-SB|R-OPT|R-SEC)"
ID_RE = re.compile(rf"(?<![\w-]){ID}(?!\w|\.\d)")
# Both ends of a range: "D-4…D-7", "R-SB-10 … R-SB-13", "F-3 to F-5", "R-5.2–R-5.4",
# and a second end written without its prefix, "F-3…5" (read as F-5).
RANGE_RE = re.compile(
    rf"(?<![\w-])(?P<first>{ID})\s*(?:…|\.\.\.?|–|—|\bto\b|\bthrough\b)\s*"
    rf"(?P<last>{ID}|\d+(?:\.\d+)*[a-z]?)(?!\w|\.\d)"
)
# "§10", "RULES.md §9", "§4–8"; not a section of another file ("UI.md §2").
SECTION_RE = re.compile(
    r"(?<!UI\.md )(?<!TABLES\.md )(?<!FAIRNESS\.md )(?<!REPLAY\.md )"
    r"§\s?(\d+)(?:\s?[–-]\s?(\d+))?"
)
BOLD_LEAD_RE = re.compile(rf"^\s*(?:[-*+]\s+)?\*\*(?P<id>{ID})(?=[\s.:*])")
HEADING_RE = re.compile(r"^#{1,6}\s")


def is_ci() -> bool:
    return os.environ.get("CI", "").lower() in {"1", "true", "yes"}


def definitions(path: Path) -> list[tuple[str, int]]:
    """The ids a Markdown file defines, with their line numbers, in order."""
    found: list[tuple[str, int]] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if HEADING_RE.match(line):
            found.extend((match.group(0), number) for match in ID_RE.finditer(line))
        elif match := BOLD_LEAD_RE.match(line):
            found.append((match.group("id"), number))
    return found


def rule_book_files() -> list[Path]:
    return sorted(RULE_BOOK.glob("*.md"))


def defined_in_rule_book() -> dict[str, list[str]]:
    """Each id defined in docs/rules/ → where (file:line), one place if all is well."""
    where: dict[str, list[str]] = defaultdict(list)
    for path in rule_book_files():
        for rule_id, number in definitions(path):
            where[rule_id].append(f"{path.name}:{number}")
    return dict(where)


def citing_files() -> list[Path]:
    files: list[Path] = []
    for folder in CITING_DIRS:
        files.extend(
            path
            for path in sorted((ROOT / folder).rglob("*"))
            if path.is_file()
            and path.suffix in CITING_SUFFIXES
            and "migrations" not in path.parts
            and "__pycache__" not in path.parts
        )
    return files


def citations(paths: list[Path]) -> dict[str, list[str]]:
    """Each id cited in these files → where (path:line)."""
    where: dict[str, list[str]] = defaultdict(list)
    for path in paths:
        text = path.read_text(encoding="utf-8", errors="replace")
        for number, line in enumerate(text.splitlines(), start=1):
            place = f"{path.relative_to(ROOT)}:{number}"
            for match in ID_RE.finditer(line):
                where[match.group(0)].append(place)
            for first, last in ranges_in(line):
                where[first].append(place)
                where[last].append(place)
    return dict(where)


def ranges_in(line: str) -> list[tuple[str, str]]:
    """The (first, last) ids of each range in a line, a bare last end given its prefix."""
    found = []
    for match in RANGE_RE.finditer(line):
        first, last = match.group("first"), match.group("last")
        if last[0].isdigit():
            prefix = re.match(r"(?:R-(?:SB-|PAY-)?|[TFD]-)", first)
            assert prefix is not None
            last = prefix.group(0) + last
        found.append((first, last))
    return found


def unresolved(cited: dict[str, list[str]], defined: dict[str, list[str]]) -> list[str]:
    return [
        f"{rule_id} (cited at {', '.join(places[:3])}{' …' if len(places) > 3 else ''})"
        for rule_id, places in sorted(cited.items())
        if rule_id not in defined
    ]


# -- The id patterns themselves -------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "ids"),
    [
        ("the hand stands (R-4.13, R-8.9).", ["R-4.13", "R-8.9"]),
        ('"""R-5.2."""', ["R-5.2"]),
        ("R-SB-20: the extra bet; R-PAY-1 rounds down; R-1.4a", ["R-SB-20", "R-PAY-1", "R-1.4a"]),
        ("(R-SB §9 preamble), R-OPT", ["R-SB", "R-OPT"]),
        ("R-4.11/R-6: the dealer", ["R-4.11", "R-6"]),
        ("UTF-8, SHA-256, X-D-1, PR-5, D-day", []),
        # Taken whole, so that a typo is reported rather than read as a shorter id.
        ("R-5.2.1, T-1x", ["R-5.2.1", "T-1x"]),
    ],
)
def test_the_id_pattern(text: str, ids: list[str]) -> None:
    assert ID_RE.findall(text) == ids


@pytest.mark.parametrize(
    ("text", "ends"),
    [
        ("FAIRNESS.md D-4…D-7: the day", [("D-4", "D-7")]),
        ("F-3 to F-5 describe", [("F-3", "F-5")]),
        ("Perfect 11s (R-SB-10 … R-SB-13)", [("R-SB-10", "R-SB-13")]),
        ("R-5.2–R-5.4 and F-3…5", [("R-5.2", "R-5.4"), ("F-3", "F-5")]),
        ("R-4.13 / R-8.9", []),
    ],
)
def test_the_range_pattern(text: str, ends: list[tuple[str, str]]) -> None:
    assert ranges_in(text) == ends


def test_definitions_are_bold_leads_and_headings(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "## 6. The dealer (R-6)\n"
        "- **R-6.1** The dealer never splits (R-3.5).\n"
        "- **R-4.1 Betting.** The player sets the base bet.\n"
        "**T-5 Intermission.** Betting is open.\n"
        "A citation of R-6.2 and a **bold R-6.3** inside a line.\n",
        encoding="utf-8",
    )
    assert definitions(page) == [("R-6", 1), ("R-6.1", 2), ("R-4.1", 3), ("T-5", 4)]


# -- The rule book --------------------------------------------------------------------------


def test_the_scan_finds_the_code_and_the_rule_book() -> None:
    """Not a vacuous pass: the code cites ids in every family, and the book defines them."""
    cited = citations(citing_files())
    assert len(cited) > 80
    for family in ("R-1.", "R-SB-", "R-PAY-", "T-", "F-", "D-"):
        assert any(rule_id.startswith(family) for rule_id in cited), family
    assert len(defined_in_rule_book()) > 100


def test_every_id_cited_in_the_code_is_defined_in_the_rule_book() -> None:
    missing = unresolved(citations(citing_files()), defined_in_rule_book())
    assert not missing, "rule ids cited but not defined in docs/rules/:\n" + "\n".join(missing)


def test_every_id_cited_in_the_rule_book_is_defined_there() -> None:
    missing = unresolved(citations(rule_book_files()), defined_in_rule_book())
    assert not missing, "rule ids docs/rules/ cites but does not define:\n" + "\n".join(missing)


def test_each_id_is_defined_once() -> None:
    twice = {rule_id: where for rule_id, where in defined_in_rule_book().items() if len(where) > 1}
    assert not twice


def test_ranges_run_forward_within_one_file() -> None:
    order = {
        rule_id: (path.name, position)
        for path in rule_book_files()
        for position, (rule_id, _) in enumerate(definitions(path))
    }
    backwards = []
    for path in [*citing_files(), *rule_book_files()]:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            for first, last in ranges_in(line):
                if first in order and last in order:
                    (first_file, first_at), (last_file, last_at) = order[first], order[last]
                    if first_file != last_file or first_at >= last_at:
                        backwards.append(f"{path.relative_to(ROOT)}:{number}: {first}…{last}")
    assert not backwards


def test_every_id_the_specification_defines_is_in_the_rule_book() -> None:
    if not SPEC.is_dir():
        message = f"{SPEC} not available"
        if is_ci():
            pytest.fail(message)
        pytest.skip(message)
    spec_files = [path for path in sorted(SPEC.glob("*.md")) if path.name not in SPEC_NOT_COPIED]
    assert spec_files
    in_spec = {rule_id: path.name for path in spec_files for rule_id, _ in definitions(path)}
    assert len(in_spec) > 90
    defined = defined_in_rule_book()
    missing = [
        f"{rule_id} ({name})" for rule_id, name in sorted(in_spec.items()) if rule_id not in defined
    ]
    assert not missing, "ids of ../shared/spec/ missing from docs/rules/:\n" + "\n".join(missing)


def test_every_section_cited_by_number_is_in_the_rule_book() -> None:
    """Sections cited by number ("RULES.md §10", "§9") keep their numbers in the rule book."""
    sections = {
        match.group(1)
        for path in rule_book_files()
        for line in path.read_text(encoding="utf-8").splitlines()
        if (match := re.match(r"#{1,6}\s+(\d+)\.\s", line))
    }
    assert sections == {str(number) for number in range(1, 11)}
    missing = []
    for path in citing_files():
        text = path.read_text(encoding="utf-8", errors="replace")
        for number, line in enumerate(text.splitlines(), start=1):
            for match in SECTION_RE.finditer(line):
                for section in filter(None, match.groups()):
                    if section not in sections:
                        missing.append(f"{path.relative_to(ROOT)}:{number}: §{section}")
    assert not missing
