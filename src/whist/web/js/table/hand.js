// Your hand: the cards you may play highlighted, played by click or keyboard (arrow keys move
// among the playable cards, Enter or Space plays one), in the order the player chose, and
// keyboard focus kept across renders. A click is always answered (moves.js clickCard).
import { backImg, cardImg, sortCards } from "../cards.js";
import { $, $all, h, replace } from "../dom.js";
import { t } from "../i18n.js";
import { cardName } from "../labels.js";
import { settings } from "../settings.js";
import { clickCard, legalSet, playAids } from "./moves.js";
import { mySeat } from "./seats.js";

// A card of yours (in hand or on your table piles); `kind`: "play", or "bottom" when it bids.
export function cardButton(tbl, card, kind, playableSet, yourTurn) {
  const playable = playableSet.has(card);
  const preselected = tbl.ctx.preselected === card;
  return h("button", {
    type: "button",
    class: `card-btn${playable ? " playable" : ""}${yourTurn && !playable ? " unplayable" : ""}${preselected ? " preselected" : ""}`,
    "data-card": card,
    "data-testid": "card",
    "data-playable": String(playable),
    "data-preselected": String(preselected),
    "aria-label": preselected ? t("{card}, pre-selected", { card: cardName(card) }) : cardName(card),
    tabindex: "-1",
    onclick: (event) => clickCard(tbl, card, kind, event.currentTarget),
  }, cardImg(card));
}

export function renderHand(tbl, v) {
  const me = mySeat(tbl);
  if (me === null) {
    replace(tbl.handArea);
    return;
  }
  const kind = v.legal.some((a) => a.bottom !== undefined) ? "bottom" : "play";
  const playSet = legalSet(tbl, kind);
  const yourTurn = playSet.size > 0;
  const cards = sortCards(v.hand, settings.hand_order);
  const hand = h("div", {
    class: `hand${yourTurn ? " your-turn" : ""}`,
    "data-testid": "hand",
    role: "group",
    tabindex: "-1",
    "aria-label": kind === "bottom" ? t("Your hand: choose your bottom card") : t("Your hand"),
    "aria-describedby": "hand-help",
    style: { "--count": String(Math.max(cards.length, 1)) },
  });
  for (const card of cards) hand.append(cardButton(tbl, card, kind, playSet, yourTurn));
  if (!cards.length && v.hand_sizes[me] > 0) {
    // A hand held but not seen, even by its owner (Japanese Whist, trick 1).
    hand.append(h("div", { class: "hidden-hand" },
      Array.from({ length: v.hand_sizes[me] }, () => h("span", { class: "card-back-slot" }, backImg())),
      h("p", { class: "small" }, t("Your hand stays face down until the first trick is complete."))));
  }
  replace(tbl.handArea, hand, h("p", { id: "hand-help", class: "sr-only" },
    t("Use the arrow keys to move between the cards you may play, and Enter or Space to play one.")));
  // Roving focus: only the first playable card is in the tab order.
  const playable = $all(".card-btn.playable", tbl.page);
  if (playable.length) playable[0].tabIndex = 0;
  playAids(tbl);
}

// The position in `count` playable cards that `key` moves to from `index` (-1: none focused),
// or null when the key does not move. Pure: tested with node --test.
export function rovingIndex(key, index, count) {
  const steps = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };
  if (key in steps) return index < 0 ? 0 : (index + steps[key] + count) % count;
  if (key === "Home") return 0;
  if (key === "End") return count - 1;
  return null;
}

export function handleCardKeys(page) {
  page.addEventListener("keydown", (event) => {
    const target = event.target;
    if (!(target instanceof HTMLElement) || !target.classList.contains("card-btn")) return;
    if (event.key === "Enter" || event.key === " " || event.key === "Spacebar") {
      event.preventDefault(); // one activation, whatever the browser does with buttons
      if (!event.repeat) target.click();
      return;
    }
    const playable = $all(".card-btn.playable", page);
    if (!playable.length) return;
    const index = rovingIndex(event.key, playable.indexOf(target), playable.length);
    if (index === null) return;
    event.preventDefault();
    for (const b of playable) b.tabIndex = -1;
    playable[index].tabIndex = 0;
    playable[index].focus();
  });
}

// Where keyboard focus is on the table, as a selector that finds it again after a render.
export function focusKey(page, el) {
  if (!(el instanceof HTMLElement) || !page.contains(el) || el.closest("dialog")) return null;
  if (el.classList.contains("card-btn")) return `.card-btn[data-card="${el.dataset.card}"]`;
  if (el.classList.contains("hand")) return ".hand";
  for (const name of ["bid", "trump", "take"]) {
    if (el.dataset[name]) return `[data-${name}="${el.dataset[name]}"]`;
  }
  if (el.dataset.testid) return `[data-testid="${el.dataset.testid}"]`;
  if (el.closest(".hand, .piles-mine, .actions")) return ".hand";
  return null;
}

// Focus back on the same card or button if it is still there, else on the first playable
// card, the first decision button, or the hand.
export function restoreFocus(page, focus) {
  if (!focus || page.contains(document.activeElement)) return;
  const target = (focus !== ".hand" && $(focus, page)) || $(".card-btn.playable", page) ||
    $(".actions button:not([disabled])", page) || $(".hand", page);
  if (target) target.focus({ preventScroll: true });
}
