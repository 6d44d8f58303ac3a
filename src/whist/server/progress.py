"""XP, levels and the two unlock tracks (card backs and card faces): the one place of these
rules. The actor awards ``XP_FOR_A_WIN``; ``GET /api/config`` serves them to the client."""

from __future__ import annotations

XP_FOR_A_WIN = 100  # to each human of the winning side still seated at the end
LEVELS_SERVED = 20  # the levels whose thresholds /api/config lists

# Per track: each name and the level that unlocks it.
CARD_BACKS = {"classic": 1, "blue": 2, "green": 3, "lattice": 5, "royal": 8}
CARD_FACES = {"classic": 1, "four_colour": 2, "large_index": 4, "art_deco": 6, "folk": 9}


def xp_for_level(level: int) -> int:
    """The XP at which ``level`` is reached: 100·n·(n-1)/2 for level n, so 0, 100, 300, 600,
    1000, ... (each level takes one more win than the one before)."""
    return XP_FOR_A_WIN * level * (level - 1) // 2


def level_for(xp: int) -> int:
    level = 1
    while xp_for_level(level + 1) <= xp:
        level += 1
    return level


def unlocked(track: dict[str, int], xp: int) -> list[str]:
    level = level_for(xp)
    return [name for name, needed in track.items() if needed <= level]


def progress_config() -> dict[str, object]:
    """The rules as ``GET /api/config`` serves them (``xp`` and ``unlocks``)."""
    return {
        "xp": {
            "win": XP_FOR_A_WIN,
            "level_at": [xp_for_level(n) for n in range(1, LEVELS_SERVED + 1)],
        },
        "unlocks": {"card_backs": dict(CARD_BACKS), "card_faces": dict(CARD_FACES)},
    }
