// One seat on the felt: its avatar, name, compass point and clock, who plays it and whether
// they are connected, dealer and turn badges, its hidden hand, tricks, revealed choice and the
// cards seen going into its hand.
import { backImg, cardImg } from "../cards.js";
import { h } from "../dom.js";
import { has } from "../facts.js";
import { t } from "../i18n.js";
import { cardName, relativeName } from "../labels.js";
import { clockSpan } from "./clock.js";
import { knownCards, playSequence } from "./layout.js";
import { seatReveal } from "./mechanics/reveal.js";
import { avatar, compassName, mySeat, players, posOf, rel, seatName } from "./seats.js";

function presence(tbl, seat, info) {
  if (info.kind === "empty") return h("span", { class: "presence empty" }, t("Waiting for a player"));
  if (info.kind === "reserved") return h("span", { class: "presence empty" }, t("Kept for a rematch"));
  const line = (cls, ...text) => h("span", { class: `presence ${cls}`, "data-testid": "presence" }, ...text);
  if (info.replaced) return line("replaced", t("Replaced by a computer player"));
  if (info.kind === "bot") return line("bot", t("Computer player"));
  const dot = h("span", { class: "dot", "aria-hidden": "true" });
  const connected = seat === mySeat(tbl) ? tbl.ctx.status === "open" : info.connected;
  return connected ? line("online", dot, t("Connected")) : line("offline", dot, t("Reconnecting…"));
}

function badges(v, seat, toAct) {
  const out = [];
  if (v.dealer === seat) out.push(h("span", { class: "badge badge-dealer", title: t("Dealer") }, t("Dealer")));
  if (toAct) out.push(h("span", { class: "badge badge-turn" }, v.phase === "bid" ? t("Choosing") : t("To play")));
  if (v.decided.includes(seat)) out.push(h("span", { class: "badge badge-decided", "data-testid": "decided" }, "✓ ", t("Has chosen")));
  return out.length ? h("div", { class: "seat-badges" }, out) : null;
}

function hiddenHand(count) {
  return h("div", { class: "seat-hand" },
    h("div", { class: "backs", "aria-hidden": "true" }, Array.from({ length: Math.min(count, 13) }, () => backImg())),
    h("span", { class: "count" }, t("{n} cards", { n: count })));
}

function shownCards(v, seat) {
  const shown = knownCards(v, seat);
  if (!shown.length) return null;
  const played = new Set(playSequence(v).map((p) => p.card));
  return h("div", { class: "seat-shown", "data-testid": "seat-shown" },
    h("span", { class: "small" }, has(v.facts, "stock") ? t("Took upcards:") : t("Known cards:")),
    shown.map((c) => h("span", { class: `mini-card${played.has(c) ? " played" : ""}` }, cardImg(c, { alt: cardName(c) }))));
}

export function seatPanel(tbl, seat, v, table) {
  const info = table.seats[seat];
  const r = rel(tbl, seat);
  const me = seat === mySeat(tbl);
  const toAct = v.to_act.includes(seat) && table.status === "playing";
  const tricks = v.tricks.filter((tr) => tr.winner === seat).length;
  const handCount = v.hand_sizes[seat] || 0;
  const label = relativeName(r, players(tbl));
  return h("div", {
    class: `seat seat-${posOf(tbl, seat)}${toAct ? " to-act" : ""}${me ? " seat-me" : ""}`,
    "data-testid": `seat-${posOf(tbl, seat)}`,
    "data-seat": seat,
    "data-kind": info.kind,
    "data-connected": String(!!info.connected),
    "data-replaced": String(!!info.replaced),
    role: "group",
    "aria-label": `${compassName(tbl, seat)}, ${label}: ${seatName(tbl, seat)}`,
  },
  h("div", { class: "seat-head" },
    avatar(tbl, seat),
    h("span", { class: "seat-name", "data-testid": "seat-name" }, seatName(tbl, seat)),
    h("span", { class: "seat-compass", "data-testid": "seat-compass" }, compassName(tbl, seat)),
    clockSpan(tbl.ctx, seat, "seat-clock")),
  h("div", { class: "seat-line" }, r !== 0 ? h("span", { class: "seat-role" }, label) : null, presence(tbl, seat, info)),
  badges(v, seat, toAct),
  h("div", { class: "seat-line" },
    !me && handCount > 0 ? hiddenHand(handCount) : null,
    v.deal !== null ? h("span", { class: "seat-tricks", "data-testid": "seat-tricks" }, t("Tricks: {n}", { n: tricks })) : null),
  seatReveal(tbl, v, seat),
  shownCards(v, seat));
}
