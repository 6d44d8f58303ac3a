// Play aids, pure: why a card cannot be played now, and the one card a player is forced to
// play. No DOM: tested with node --test (tests/js/).
import { t } from "../i18n.js";

// What to play instead, by led suit (whole sentences: each language inflects the suit).
const FOLLOW = {
  S: () => t("You must follow suit: play a spade."),
  H: () => t("You must follow suit: play a heart."),
  D: () => t("You must follow suit: play a diamond."),
  C: () => t("You must follow suit: play a club."),
};

function legalCards(view) {
  return view.legal.filter((a) => a.play !== undefined).map((a) => a.play);
}

// Why `card` may not be played in `view` (the latest state this page has), or null when it may.
export function whyIllegal(view, card) {
  if (!view || !view.legal.length) return t("It is not your turn.");
  if (view.phase !== "play") return t("You cannot play a card now.");
  const legal = legalCards(view);
  if (legal.includes(card)) return null;
  const led = view.trick.length ? view.trick[0][1] : null;
  if (led && card[1] !== led && legal.length && legal.every((c) => c[1] === led)) return FOLLOW[led]();
  return t("You cannot play that card now.");
}

// The card `view` forces this page to play: the only legal one in card play, else null.
export function forcedCard(view) {
  if (!view || view.phase !== "play") return null;
  const legal = legalCards(view);
  return legal.length === 1 && view.legal.length === 1 ? legal[0] : null;
}
