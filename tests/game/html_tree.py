"""A small HTML tree with CSS-like lookups, for asserting on rendered pages.

Standard library only (``html.parser``). Selectors: descendant chains of simple
selectors made of a tag, ``.class``, ``#id``, ``[attr]`` and ``[attr="value"]``,
e.g. ``'.side-bet-results [data-side-bet="21+3"]'`` or ``"table.outcome tbody tr"``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser

VOID_TAGS = frozenset(
    ("area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track")
)
_SIMPLE = re.compile(r'([a-zA-Z][\w-]*)|\.([\w-]+)|#([\w-]+)|\[([\w-]+)(?:="([^"]*)")?\]')


@dataclass(eq=False)  # nodes compare by identity: a parent link makes == recurse
class Node:
    tag: str
    attrs: dict[str, str]
    parent: Node | None = None
    children: list[Node | str] = field(default_factory=list)

    def __getitem__(self, name: str) -> str:
        return self.attrs[name]

    def has(self, name: str) -> bool:
        return name in self.attrs

    @property
    def classes(self) -> list[str]:
        return self.attrs.get("class", "").split()

    def text(self) -> str:
        """The text content with whitespace collapsed (as a reader hears it, roughly)."""
        return " ".join("".join(self._texts()).split())

    def _texts(self) -> Iterator[str]:
        for child in self.children:
            if isinstance(child, str):
                yield child
            else:
                yield " "
                yield from child._texts()
                yield " "

    def descendants(self) -> Iterator[Node]:
        for child in self.children:
            if isinstance(child, Node):
                yield child
                yield from child.descendants()

    def select(self, selector: str) -> list[Node]:
        found = [self]
        for part in selector.split():
            matched: list[Node] = []
            seen: set[int] = set()
            for node in found:
                for candidate in node.descendants():
                    if _matches(candidate, part) and id(candidate) not in seen:
                        seen.add(id(candidate))
                        matched.append(candidate)
            found = matched
        return found

    def select_one(self, selector: str) -> Node | None:
        found = self.select(selector)
        return found[0] if found else None

    def one(self, selector: str) -> Node:
        node = self.select_one(selector)
        assert node is not None, f"nothing matches {selector!r}"
        return node

    def button(self, name: str) -> Node | None:
        return next((b for b in self.select("button") if b.text() == name), None)


def _matches(node: Node, simple: str) -> bool:
    for tag, cls, id_, attr, value in _SIMPLE.findall(simple):
        if tag and node.tag != tag.lower():
            return False
        if cls and cls not in node.classes:
            return False
        if id_ and node.attrs.get("id") != id_:
            return False
        if attr and (attr not in node.attrs or (value and node.attrs[attr] != value)):
            return False
    return True


class _Builder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#document", {})
        self.current = self.root

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, {name: value or "" for name, value in attrs}, self.current)
        self.current.children.append(node)
        if tag not in VOID_TAGS:
            self.current = node

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.current.children.append(
            Node(tag, {name: value or "" for name, value in attrs}, self.current)
        )

    def handle_endtag(self, tag: str) -> None:
        node: Node | None = self.current
        while node is not None and node.tag != tag:
            node = node.parent
        if node is not None and node.parent is not None:
            self.current = node.parent

    def handle_data(self, data: str) -> None:
        self.current.children.append(data)


def parse(html: str) -> Node:
    builder = _Builder()
    builder.feed(html)
    builder.close()
    return builder.root
