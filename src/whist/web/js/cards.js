// Playing cards: names of the designs, the player's preferences, sorting, and the card
// images (drawn by card_art.js).
//
// Cards are written as in the protocol: rank then suit, "QH", "TS" (ten), "2C".
// Every image is an <img> holding an SVG data URI (cached), so ids inside one card
// never clash with another and the browser decodes each design once.

import { backSVG, cardSVG } from "./card_art.js";
import { config } from "./config.js";
import { t } from "./i18n.js";

// The designs' names; which of them exist, and at which level each unlocks, is the server's
// (GET /api/config: unlocks).

export function backName(name) {
  switch (name) {
    case "classic": return t("Classic red");
    case "blue": return t("Blue");
    case "green": return t("Green");
    case "lattice": return t("Lattice");
    case "royal": return t("Royal");
    default: return name;
  }
}

export function faceName(name) {
  switch (name) {
    case "classic": return t("Classic");
    case "four_colour": return t("Four colours");
    case "large_index": return t("Large index");
    case "art_deco": return t("Art deco");
    case "folk": return t("Folk");
    default: return name;
  }
}

// ------------------------------------------------------------ preferences
const FOUR_KEY = "whist.fourColour";
const appearance = { back: "classic", face: "classic" };
const listeners = new Set();

export function fourColour() {
  try {
    return localStorage.getItem(FOUR_KEY) === "1";
  } catch {
    return false;
  }
}

export function setFourColour(on) {
  try {
    localStorage.setItem(FOUR_KEY, on ? "1" : "0");
  } catch {
    /* ignore */
  }
  for (const f of listeners) f();
}

export function setAppearance(back, face) {
  appearance.back = back in config.unlocks.card_backs ? back : "classic";
  appearance.face = face in config.unlocks.card_faces ? face : "classic";
  for (const f of listeners) f();
}

export function currentAppearance() {
  return { ...appearance };
}

export function onAppearanceChange(f) {
  listeners.add(f);
  return () => listeners.delete(f);
}

// ----------------------------------------------------------------- sorting
const RANKS = "23456789TJQKA";
// Each hand order the player may choose (settings): the suits from left to right, and
// whether ranks rise to the right.
export const HAND_ORDERS = {
  alternate: { suits: "SHCD", rising: false }, // colours alternate: ♠ ♥ ♣ ♦, high to low
  suits: { suits: "CDHS", rising: true }, // ♣ ♦ ♥ ♠, low to high
  suits_desc: { suits: "SHDC", rising: false }, // ♠ ♥ ♦ ♣, high to low
};

export function rankValue(card) {
  return RANKS.indexOf(card[0]) + 2;
}

export function sortCards(cards, order = "alternate") {
  const { suits, rising } = HAND_ORDERS[order] || HAND_ORDERS.alternate;
  const rank = (card) => (rising ? rankValue(card) : -rankValue(card));
  return [...cards].sort((a, b) => suits.indexOf(a[1]) - suits.indexOf(b[1]) || rank(a) - rank(b));
}

export function isRed(card) {
  return card[1] === "H" || card[1] === "D";
}

// ------------------------------------------------------------ elements
const cache = new Map();

function uri(key, make) {
  let value = cache.get(key);
  if (!value) {
    value = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(make());
    cache.set(key, value);
  }
  return value;
}

export function cardSrc(card, face = appearance.face, four = fourColour()) {
  return uri(`f:${face}:${four ? 4 : 2}:${card}`, () => cardSVG(card, face, four));
}

export function backSrc(name = appearance.back) {
  return uri(`b:${name}`, () => backSVG(name));
}

export function cardImg(card, options = {}) {
  const img = document.createElement("img");
  img.className = "card-img";
  img.alt = options.alt === undefined ? "" : options.alt;
  img.draggable = false;
  img.src = cardSrc(card, options.face, options.four);
  return img;
}

export function backImg(name, alt = "") {
  const img = document.createElement("img");
  img.className = "card-img back";
  img.alt = alt;
  img.draggable = false;
  img.src = backSrc(name || appearance.back);
  return img;
}
