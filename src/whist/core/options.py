"""Host options: their specs, parsing, presets and aliases (docs/rules.md lists every one)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from whist.core.errors import BAD_OPTION_VALUE, UNKNOWN_OPTION, WhistError

OptionValue = str | bool | int
Options = dict[str, OptionValue]

# Every number an option takes (a target, a count of deals or rounds) lies in 1..MOST: a
# match of a thousand points is already days of play, and a bound keeps absurd values (2**64,
# a 5,000-digit string) out of the rules, the store and every encoder.
MOST = 1000


class OptionError(WhistError):
    """A bad option; ``option`` names it (``preset`` for a bad preset)."""

    def __init__(self, code: str, option: str, message: str) -> None:
        super().__init__(code, message)
        self.option = option


@dataclass(frozen=True)
class OptionSpec:
    """One option. ``kind`` is ``choice`` (one of ``choices``), ``bool``, ``count`` (a whole
    number from 1 to ``MOST``) or ``match`` (``choices`` are forms such as ``target:N``,
    ``single``; N from 1 to ``MOST``)."""

    name: str
    kind: str
    default: OptionValue
    choices: tuple[str, ...] = ()
    help: str = ""

    def parse(self, raw: Any) -> OptionValue:
        if self.kind == "bool":
            if isinstance(raw, bool):
                return raw
            if raw in ("true", "false"):
                return bool(raw == "true")
        elif self.kind == "count":
            number = _whole(raw)
            if number is not None:
                return number
        elif self.kind == "choice":
            if isinstance(raw, str) and raw in self.choices:
                return str(raw)
        elif self.kind == "match" and isinstance(raw, str):
            if raw in self.choices:
                return str(raw)
            prefix, _, number_text = raw.partition(":")
            number = _whole(number_text)
            if f"{prefix}:N" in self.choices and number is not None:
                return f"{prefix}:{number}"
        raise OptionError(
            BAD_OPTION_VALUE,
            self.name,
            f"option {self.name}: {_shown(raw)} is not one of {self.describe_values()}",
        )

    def describe_values(self) -> str:
        if self.kind == "bool":
            return "true | false"
        if self.kind == "count":
            return f"a whole number 1..{MOST}"
        return " | ".join(c.replace(":N", f":N (N 1..{MOST})") for c in self.choices)


def _whole(raw: Any) -> int | None:
    """``raw`` as a whole number in 1..MOST (an int, or a string of ASCII digits), or None."""
    if isinstance(raw, bool):
        return None
    if isinstance(raw, str) and raw.isascii() and raw.isdigit() and len(raw) <= 4:
        raw = int(raw)  # at most 4 digits: never one of int()'s huge-string conversions
    if isinstance(raw, int) and 1 <= raw <= MOST:
        return raw
    return None


def _shown(raw: Any) -> str:
    """A refused value as an error message shows it: short, and ASCII whatever it held
    (a NUL byte or a lone surrogate must not reach a log line or a JSON encoder)."""
    text = ascii(raw) if isinstance(raw, str | int | bool | float) else type(raw).__name__
    return text if len(text) <= 40 else text[:37] + "..."


@dataclass(frozen=True)
class OptionSet:
    """The options of one variant, with its presets."""

    specs: tuple[OptionSpec, ...]
    presets: Mapping[str, Mapping[str, OptionValue]] = field(default_factory=dict)

    def defaults(self) -> Options:
        return {spec.name: spec.default for spec in self.specs}

    def resolve(self, given: Mapping[str, Any], preset: str | None = None) -> Options:
        """Defaults, then the preset (``given["preset"]`` replaces ``preset``), then the
        explicit options. Unknown names or values raise ``WhistError``."""
        by_name = {spec.name: spec for spec in self.specs}
        chosen_preset = given.get("preset", preset)
        resolved = self.defaults()
        if chosen_preset is not None:
            if not isinstance(chosen_preset, str) or chosen_preset not in self.presets:
                raise OptionError(
                    BAD_OPTION_VALUE,
                    "preset",
                    f"option preset: {_shown(chosen_preset)} is not one of "
                    + " | ".join(self.presets or ["(none)"]),
                )
            resolved.update(self.presets[chosen_preset])
        for name, raw in given.items():
            if name == "preset":
                continue
            spec = by_name.get(name)
            if spec is None:
                raise OptionError(UNKNOWN_OPTION, name, f"unknown option {_shown(name)}")
            resolved[name] = spec.parse(raw)
        return resolved
