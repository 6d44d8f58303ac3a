// The club's set-up (GET /api/config), asked once at start-up: the socket addresses, the move
// clock, the table pace, the computer players' levels, the languages, the XP rule and the unlock tracks. The
// server keeps one list of each; the page reads them from here and copies none of them.
import { get } from "./api.js";

export const config = {
  sockets: [],
  clock_seconds: null,
  pace: 1, // the server's table pace: a factor on how long each move is held on screen
  levels: [],
  languages: [],
  xp: { win: 0, level_at: [0] },
  unlocks: { card_backs: {}, card_faces: {} },
};

let loading = null;

export function loadConfig() {
  if (!loading) loading = get("/api/config").then((data) => Object.assign(config, data));
  return loading;
}

// Where a player of `level` with `xp` stands: the XP of this level and of the next (null at
// the last level) and the share of the way between them. Level n needs levelAt[n - 1] XP.
export function levelProgress(xp, level, levelAt) {
  const low = levelAt[level - 1] ?? 0;
  const high = levelAt[level] ?? null;
  const fraction = high === null ? 1 : Math.max(0, Math.min(1, (xp - low) / (high - low)));
  return { low, high, fraction };
}
