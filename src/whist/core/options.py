"""Host options: their specs, parsing, presets and aliases (RULES.md lists every one)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from whist.core.errors import BAD_OPTION_VALUE, UNKNOWN_OPTION, WhistError

OptionValue = str | bool | int
Options = dict[str, OptionValue]


class OptionError(WhistError):
    """A bad option; ``option`` names it (``preset`` for a bad preset)."""

    def __init__(self, code: str, option: str, message: str) -> None:
        super().__init__(code, message)
        self.option = option


@dataclass(frozen=True)
class OptionSpec:
    """One option. ``kind`` is ``choice`` (one of ``choices``), ``bool``, ``count`` (a whole
    number ≥ 1) or ``match`` (``choices`` are forms such as ``target:N``, ``single``)."""

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
            f"option {self.name}: {raw!r} is not one of {self.describe_values()}",
        )

    def describe_values(self) -> str:
        if self.kind == "bool":
            return "true | false"
        if self.kind == "count":
            return "a whole number >= 1"
        return " | ".join(self.choices)


def _whole(raw: Any) -> int | None:
    if isinstance(raw, bool):
        return None
    if isinstance(raw, int):
        return raw if raw >= 1 else None
    if isinstance(raw, str) and raw.isdigit() and raw.isascii():
        number = int(raw)
        return number if number >= 1 else None
    return None


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
                    f"option preset: {chosen_preset!r} is not one of "
                    + " | ".join(self.presets or ["(none)"]),
                )
            resolved.update(self.presets[chosen_preset])
        for name, raw in given.items():
            if name == "preset":
                continue
            spec = by_name.get(name)
            if spec is None:
                raise OptionError(UNKNOWN_OPTION, name, f"unknown option {name!r}")
            resolved[name] = spec.parse(raw)
        return resolved
