// The trick on the felt, alive: each card travels from the seat that played it (from the very
// card you clicked, for yours), the finished trick gathers to its winner, and a redraw never
// re-creates a card (one element per card, kept across renders: no flicker).
import { cardImg } from "../cards.js";
import { h, reducedMotion } from "../dom.js";
import { t } from "../i18n.js";
import { cardName } from "../labels.js";
import { holdFactor, motionFactor } from "../settings.js";
import { trickOnFelt } from "./layout.js";
import { revealStrip } from "./mechanics/reveal.js";
import { fresh } from "./queue.js";
import { posOf, seatName } from "./seats.js";

const TRAVEL_MS = 320; // a card from its seat to the trick, at normal speed
const GATHER_MS = 380; // a finished trick to its winner
const GATHER_AFTER_MS = 900; // a finished trick is seen this long first (scaled like the pauses)

// Where each card still to be drawn flies from: "deal:card" -> a screen rectangle.
export function flights(ctx) {
  ctx.flights = ctx.flights || new Map();
  return ctx.flights;
}

// The trick's element and its cards, kept for the whole table (tbl.trick).
function parts(tbl) {
  if (!tbl.trick) {
    tbl.trick = {
      area: h("div", { class: "trick", "data-testid": "trick", role: "region" }),
      cards: new Map(), // "deal:card" -> element
      label: null, // "… won the trick", with its trick's key
      labelKey: null,
      extra: null, // the revealed choices (before the first card)
      gathered: new Set(), // keys of the tricks gathered to their winner
      gatherTimer: null,
      gatherKey: null,
    };
  }
  return tbl.trick;
}

// The trick's element, to place in the felt.
export function trickElement(tbl) {
  return parts(tbl).area;
}

function center(rect) {
  return { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 };
}

// The seat's place on screen (its panel), where its cards come from and its tricks go.
function seatRect(tbl, seat) {
  const panel = tbl.felt.querySelector(`[data-testid="seat-${posOf(tbl, seat)}"]`);
  return panel ? panel.getBoundingClientRect() : null;
}

function travel(el, from, factor) {
  if (!from || !factor) return;
  const a = center(from);
  const b = center(el.getBoundingClientRect());
  el.animate([
    { translate: `${a.x - b.x}px ${a.y - b.y}px`, scale: "0.85" },
    { translate: "0px 0px", scale: "1" },
  ], { duration: TRAVEL_MS * factor, easing: "cubic-bezier(0.2, 0.7, 0.3, 1)" });
}

// Send the finished trick's cards to the winner's seat, then take them off the felt.
function gather(tbl, key, winner) {
  const parts_ = parts(tbl);
  if (parts_.gathered.has(key)) return;
  parts_.gathered.add(key);
  if (parts_.gatherKey === key) {
    clearTimeout(parts_.gatherTimer);
    parts_.gatherTimer = null;
  }
  const factor = motionFactor(undefined, reducedMotion());
  const to = winner === null ? null : seatRect(tbl, winner);
  for (const [cardKey, el] of Array.from(parts_.cards)) {
    if (el.dataset.trick !== key) continue;
    parts_.cards.delete(cardKey);
    if (!to || !factor || !el.isConnected) {
      el.remove();
      continue;
    }
    el.classList.add("gathering");
    const a = center(to);
    const b = center(el.getBoundingClientRect());
    el.animate([
      { translate: "0px 0px", scale: "1", opacity: 1 },
      { translate: `${a.x - b.x}px ${a.y - b.y}px`, scale: "0.4", opacity: 0 },
    ], { duration: GATHER_MS * factor, easing: "ease-in", fill: "forwards" }).finished.then(() => el.remove(), () => el.remove());
  }
}

// A trick finished in states that were never drawn (a click fast-forwards the table): the
// cards it still lacks on the felt land there, and it is marked finished, so that it gathers
// to its winner like any other.
function completeSkipped(tbl, v, p) {
  const index = v.tricks.length - 1;
  const key = `${v.deal}:${index}`;
  if (index < 0 || p.gathered.has(key)) return;
  const onFelt = Array.from(p.cards.values()).filter((el) => el.dataset.trick === key);
  if (!onFelt.length || onFelt.every((el) => el.dataset.done === "true")) return;
  const { leader, cards, winner } = v.tricks[index];
  const n = v.hand_sizes.length;
  cards.forEach((card, i) => {
    const cardKey = `${v.deal}:${card}`;
    if (p.cards.has(cardKey)) return;
    const seat = (leader + i) % n;
    const el = cardElement(tbl, v, card, seat, key);
    el.className = `trick-card at-${posOf(tbl, seat)}`;
    p.cards.set(cardKey, el);
    p.area.append(el);
  });
  for (const el of p.cards.values()) {
    if (el.dataset.trick !== key) continue;
    el.dataset.done = "true";
    el.dataset.winner = String(winner);
  }
}

function cardElement(tbl, v, card, seat, trickKey) {
  return h("div", {
    class: "trick-card",
    "data-card": card,
    "data-seat": seat,
    "data-trick": trickKey,
    "data-testid": "trick-card",
  }, cardImg(card, { alt: t("{name}: {card}", { name: seatName(tbl, seat), card: cardName(card) }) }));
}

export function renderTrick(tbl, v) {
  const { ctx } = tbl;
  const p = parts(tbl);
  p.area.setAttribute("aria-label", t("The trick"));
  const { cards, winner, done } = trickOnFelt(v);
  const index = done ? v.tricks.length - 1 : v.tricks.length;
  const trickKey = `${v.deal}:${index}`;
  const shown = done && p.gathered.has(trickKey) ? [] : cards;
  const wanted = new Set(shown.map((c) => `${v.deal}:${c.card}`));
  if (!done) completeSkipped(tbl, v, p);
  // Cards of another trick: a finished one gathers to its winner, any other just goes.
  for (const [key, el] of Array.from(p.cards)) {
    if (wanted.has(key)) continue;
    if (el.dataset.done === "true") gather(tbl, el.dataset.trick, Number(el.dataset.winner));
    else {
      el.remove();
      p.cards.delete(key);
    }
  }
  const factor = motionFactor(undefined, reducedMotion());
  const arrived = [];
  for (const { card, seat } of shown) {
    const key = `${v.deal}:${card}`;
    let el = p.cards.get(key);
    if (!el) {
      el = cardElement(tbl, v, card, seat, trickKey);
      p.cards.set(key, el);
      arrived.push({ el, key, seat, card });
    }
    el.className = `trick-card at-${posOf(tbl, seat)}${winner === seat ? " winner" : ""}${done ? " done" : ""}`;
    el.dataset.done = String(done);
    el.dataset.winner = String(winner);
    // Cards only ever join a trick at its end; one on the felt is never moved (moving an
    // element restarts its animations).
    if (el.parentNode !== p.area) p.area.append(el);
  }
  renderExtras(tbl, v, p, cards.length, done ? trickKey : null, winner);
  for (const { el, key, seat, card } of arrived) {
    const from = flights(ctx).get(key) || (fresh(ctx, key) ? seatRect(tbl, seat) : null);
    flights(ctx).delete(key);
    travel(el, from, factor);
    if (ctx.move && ctx.move.card === card && ctx.move.clicked) {
      requestAnimationFrame(() => {
        performance.mark("card-drawn");
        performance.measure("own-move", "card-click", "card-drawn");
      });
    }
  }
  // A finished trick is seen for a moment, then gathers to its winner.
  if (done && !p.gathered.has(trickKey) && p.gatherKey !== trickKey) {
    clearTimeout(p.gatherTimer);
    p.gatherKey = trickKey;
    const pause = GATHER_AFTER_MS * holdFactor() * (reducedMotion() ? 0.5 : 1);
    p.gatherTimer = setTimeout(() => gather(tbl, trickKey, winner), pause);
  }
  return p.area;
}

// "… won the trick" under a finished trick (kept while it is the last one), or the revealed
// choices before the first card of a deal.
function renderExtras(tbl, v, p, count, doneKey, winner) {
  if (p.label && p.labelKey !== doneKey) {
    p.label.remove();
    p.label = null;
  }
  if (doneKey && winner !== null) {
    const text = t("{name} won the trick", { name: seatName(tbl, winner) });
    if (!p.label) {
      p.label = h("div", { class: "trick-winner pop", "data-testid": "trick-winner" });
      p.labelKey = doneKey;
      p.area.append(p.label);
    }
    p.label.textContent = `★ ${text}`;
  }
  if (p.extra) p.extra.remove();
  p.extra = count ? null : revealStrip(tbl, v);
  if (p.extra) p.area.append(p.extra);
}
