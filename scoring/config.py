"""Configuration switches (spec §19) and the rulesets the engine knows."""

from __future__ import annotations

from ..errors import SYNTAX, InputError
from .shown import MAX_WHOLE, shown, whole_number

RULESETS = ("nts", "nts-app")
WIN_TYPES = ("self_drawn", "discard", "robbed_kong")
SPECIALS = ("last_wall_tile", "kong_replacement", "kong_on_kong", "heavenly", "earth")
WIND_NAMES = ("E", "S", "W", "N")

DEFAULTS = {
    "wind_pair_points": True,
    "open_kong_counts_as_concealed_pung": False,
    "twins_allow_duplicate_pairs": True,
    "limit": 2000,
    "min_doublings": 2,
    "settlement": "winner_takes",
}
RULESET_DEFAULTS = {"nts": {}, "nts-app": {"wind_pair_points": False, "settlement": "differences"}}
# Switches whose value is one word from a fixed list (§11 DECISION 28 for ``settlement``).
CHOICES = {"settlement": ("winner_takes", "differences")}


class ConfigError(InputError):
    """An unknown switch or a value of the wrong type (a request error: code ``syntax``)."""

    code = SYNTAX


def resolve(ruleset: str, overrides: dict | None = None) -> dict:
    """Defaults of the ruleset with the caller's switches on top (checked)."""
    cfg = {**DEFAULTS, **RULESET_DEFAULTS.get(ruleset, {})}
    if overrides is not None and not isinstance(overrides, dict):
        raise ConfigError(f"config must be an object of switches, e.g. {{\"limit\": 1000}}, not {shown(overrides)}")
    for key, value in (overrides or {}).items():
        if key not in DEFAULTS:
            raise ConfigError(f"unknown config switch {shown(key)} (known: {', '.join(DEFAULTS)})")
        want = type(DEFAULTS[key])
        if want is int and not whole_number(value):
            raise ConfigError(f"config {key!r} must be a whole number from 0 to {MAX_WHOLE}, not {shown(value)}")
        if want is bool and not isinstance(value, bool):
            raise ConfigError(f"config {key!r} must be true or false, not {shown(value)}")
        if key in CHOICES and value not in CHOICES[key]:
            raise ConfigError(f"config {key!r} must be one of {', '.join(CHOICES[key])}, not {shown(value)}")
        cfg[key] = value
    return cfg
