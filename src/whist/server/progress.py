"""XP, levels and the two unlock tracks (card backs and card faces)."""

from __future__ import annotations

# Level n is reached at 100·n·(n-1)/2 XP: 0, 100, 300, 600, 1000, ... (a win gives 100).
CARD_BACKS = {"classic": 1, "blue": 2, "green": 3, "lattice": 5, "royal": 8}
CARD_FACES = {"classic": 1, "four_colour": 2, "large_index": 4, "art_deco": 6, "folk": 9}


def level_for(xp: int) -> int:
    level = 1
    while 100 * level * (level + 1) // 2 <= xp:
        level += 1
    return level


def unlocked(track: dict[str, int], xp: int) -> list[str]:
    level = level_for(xp)
    return [name for name, needed in track.items() if needed <= level]
