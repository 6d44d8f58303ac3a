"""`whist variants` tells players which games and house rules exist."""

from __future__ import annotations

import pytest

from whist.cli import main
from whist.core.errors import WhistError
from whist.variants import new_match


def test_variants_lists_every_variant_option_and_the_unavailable_one(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["variants"]) == 0
    out = capsys.readouterr().out
    for key in ("classic", "german", "plockwhist", "japanese", "minnesota", "swedish"):
        assert f"{key} — " in out
    for option in ("talon_discard", "stage1_follow", "fail_double", "bid_input", "spel_lead"):
        assert option in out
    assert "preset tomannswhist: scoring=difference, match=deals:4" in out
    assert "seven_houses — unavailable: " in out


def test_seven_houses_cannot_be_played_and_says_why() -> None:
    with pytest.raises(WhistError) as caught:
        new_match("seven_houses")
    assert caught.value.code == "unavailable_variant"
    assert "no rule text is known" in caught.value.message
