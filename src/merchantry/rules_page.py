"""HTML pieces for the games' rules pages, made from data: a game's `rules_numbers` module builds its tables
with these, so a rules page shows exactly the numbers the game plays with (package.GamePackage)."""

from __future__ import annotations

import html
from collections.abc import Sequence


def table(caption: str, header: Sequence[str], rows: Sequence[Sequence[object]], kind: str = "") -> str:
    """A captioned table; every cell's text is escaped."""
    head = "".join(f"<th>{html.escape(str(cell))}</th>" for cell in header)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(str(cell))}</td>" for cell in row) + "</tr>" for row in rows
    )
    css = f' class="numbers {html.escape(kind)}"' if kind else ' class="numbers"'
    # tabindex: a table wider than a phone scrolls inside its own box, which the keyboard must reach too
    return (
        f'<table{css} tabindex="0"><caption>{html.escape(caption)}</caption>'
        f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
    )


def in_columns(rows: Sequence[Sequence[object]], columns: int) -> list[list[object]]:
    """A long two-cell list (serial, card) laid out as `columns` side-by-side pairs, read down each column."""
    height = -(-len(rows) // columns)
    laid: list[list[object]] = []
    for r in range(height):
        line: list[object] = []
        for c in range(columns):
            i = c * height + r
            line.extend(rows[i] if i < len(rows) else ["", ""])
        laid.append(line)
    return laid
