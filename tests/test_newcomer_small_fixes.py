"""Small findings of a newcomer's pass (issue 32), each checked where it can regress."""

from __future__ import annotations

import re

import pytest

from merchantry.i18n import Translator

SAMARKAND_FAMILIES = (
    "Byzantium",
    "Caucasus",
    "Khwarezm",
    "Sogdiana",
    "China",
    "Egypt",
    "Levant",
    "Arabia",
    "Persia",
    "India",
)


@pytest.mark.parametrize("family", SAMARKAND_FAMILIES)
def test_samarkand_expand_move_reads_as_english_for_every_family(family):
    # "a India camel on I4" read wrong: the words must not need an article chosen by the name
    text = Translator("samarkand", "en").move(f"expand {family.lower()} E5")
    assert family in text and "E5" in text, text
    assert not re.search(r"\ba [AEIOUaeiou]", text), text
