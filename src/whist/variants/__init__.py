"""The registry of variants, their record aliases and presets."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from whist.core.errors import UNAVAILABLE_VARIANT, UNKNOWN_VARIANT, WhistError
from whist.core.match import Match
from whist.core.options import Options
from whist.core.variant import Variant
from whist.variants.classic import Classic
from whist.variants.german import German
from whist.variants.japanese import Japanese
from whist.variants.minnesota import Minnesota
from whist.variants.plockwhist import Plockwhist
from whist.variants.swedish import Swedish

VARIANTS: dict[str, Variant] = {
    v.key: v for v in (Classic(), German(), Plockwhist(), Japanese(), Minnesota(), Swedish())
}


@dataclass(frozen=True)
class Unavailable:
    """A reserved variant key: its title and why it cannot be played."""

    title: str
    reason: str


UNAVAILABLE: dict[str, Unavailable] = {
    "seven_houses": Unavailable(
        "Seven Little Houses",
        "Seven Little Houses: the only source says it is played with seven piles of four "
        "cards on a common table; no rule text is known, so it is not implemented.",
    ),
}


def lookup(name: str) -> tuple[Variant, str | None]:
    """The variant for a key or alias, and the preset the alias selects."""
    if not isinstance(name, str):
        raise WhistError(UNKNOWN_VARIANT, "variant must be a string")
    key = name.lower()
    if key in VARIANTS:
        return VARIANTS[key], None
    for variant in VARIANTS.values():
        if key in variant.aliases:
            return variant, variant.aliases[key]
    if key in UNAVAILABLE:
        raise WhistError(UNAVAILABLE_VARIANT, UNAVAILABLE[key].reason)
    raise WhistError(
        UNKNOWN_VARIANT, f"unknown variant {name!r}; known: " + ", ".join(sorted(VARIANTS))
    )


def resolve(name: str, options: Mapping[str, Any] | None = None) -> tuple[Variant, Options]:
    variant, preset = lookup(name)
    return variant, variant.option_set.resolve(options or {}, preset)


def new_match(name: str, options: Mapping[str, Any] | None = None) -> Match:
    variant, resolved = resolve(name, options)
    return Match(variant, resolved)


def describe_all() -> str:
    """A plain-text list of every variant with its options, presets and aliases."""
    lines: list[str] = []
    for variant in VARIANTS.values():
        lines.append(f"{variant.key} — {variant.title} ({variant.players} players)")
        for spec in variant.option_set.specs:
            note = f"  ({spec.help})" if spec.help else ""
            default = str(spec.default).lower() if isinstance(spec.default, bool) else spec.default
            lines.append(f"  {spec.name}: {spec.describe_values()}  [default {default}]{note}")
        for name, preset in variant.option_set.presets.items():
            body = ", ".join(f"{k}={v}" for k, v in preset.items()) or "the defaults"
            lines.append(f"  preset {name}: {body}")
        for alias, alias_preset in variant.aliases.items():
            lines.append(f"  alias {alias}" + (f" (preset {alias_preset})" if alias_preset else ""))
    for key, unavailable in UNAVAILABLE.items():
        lines.append(f"{key} — unavailable: {unavailable.reason}")
    return "\n".join(lines)
