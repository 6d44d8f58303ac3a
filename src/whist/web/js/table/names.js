// Telling the players apart, pure (tested with node --test): each seat's compass point, the
// computer players' first names, initials and a colour for each seat's avatar.

// Seat 0 sits South, as in bridge diagrams, and play goes clockwise: South, West, North, East.
// Two players face each other: South and North.
const COMPASS = { 2: ["South", "North"], 4: ["South", "West", "North", "East"] };

export function compassPoint(seat, players) {
  return (COMPASS[players] || COMPASS[4])[seat];
}

// Scandinavian and Czech first names, none longer than seven letters so that they fit on a
// phone. A table's bots take consecutive names from a start its id picks: each table has its
// own cast, and no two bots at one table share a name.
export const BOT_NAMES = [
  "Astrid", "Lukáš", "Ingrid", "Jonas", "Freja", "Tomáš", "Sigrid", "Nils",
  "Hana", "Erik", "Karin", "Ondřej", "Liv", "Jakub", "Maja", "Petr",
];

function hash(text) {
  let sum = 0;
  for (const char of text) sum = (sum * 31 + char.codePointAt(0)) % 1000003;
  return sum;
}

export function botName(tableId, seat) {
  return BOT_NAMES[(hash(tableId) + seat) % BOT_NAMES.length];
}

// "Ann" -> "A", "Ann Berg" -> "AB", "  jiří  novák " -> "JN": at most two letters, upper case.
export function initials(name) {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const letters = words.length > 1 ? [words[0], words[words.length - 1]] : words;
  return letters.map((word) => Array.from(word)[0].toUpperCase()).join("");
}

// A hue per seat, the same on every page, far apart around the colour wheel.
const HUES = [205, 20, 140, 285];

export function seatHue(seat) {
  return HUES[seat % HUES.length];
}
