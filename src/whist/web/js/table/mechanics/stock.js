// The stock and its upcard (German Whist, Plockwhist): the stock on the felt, the two stages
// in the info bar, and the German talon's keep-or-discard choice.
import { backImg, cardImg } from "../../cards.js";
import { h } from "../../dom.js";
import { has } from "../../facts.js";
import { t } from "../../i18n.js";
import { cardName } from "../../labels.js";
import { chip } from "../info.js";
import { act, canAct } from "../moves.js";
import { sideName } from "../seats.js";

export function hasStock(v) {
  return has(v.facts, "stock") && v.deal !== null;
}

// Tricks won per seat in `stage` (1: playing for the stock, 2: the tricks that count).
export function stageTricks(tricks, stage) {
  const counts = [0, 0];
  for (const trick of tricks) if (trick.stage === stage) counts[trick.winner % 2] += 1;
  return counts;
}

export function stageChips(tbl, v) {
  const stageText = v.stage === 1 ? t("1: playing for the stock") : v.stage === 2 ? t("2: tricks count") : "—";
  return [
    chip(t("Stage"), stageText, "stage"),
    ...[1, 2].map((stage) => {
      const counts = stageTricks(v.tricks, stage);
      return chip(t("Stage {n} tricks", { n: stage }), `${sideName(tbl, 0)} ${counts[0]} – ${sideName(tbl, 1)} ${counts[1]}`, `stage${stage}-tricks`);
    }),
  ];
}

export function stockWidget(v) {
  if (!hasStock(v) || (v.stock_size <= 0 && !v.discards.length)) return null;
  const stack = h("div", { class: "stock-stack", "aria-hidden": "true" },
    Array.from({ length: Math.min(4, Math.max(0, v.stock_size - (v.upcard ? 1 : 0))) }, () => backImg()));
  return h("div", { class: "widget stock", "data-testid": "stock", "data-stock-size": v.stock_size },
    h("span", { class: "widget-label" }, t("Stock: {n} cards", { n: v.stock_size })),
    h("div", { class: "stock-cards" },
      stack,
      v.upcard ? h("span", { class: "widget-card upcard", "data-testid": "upcard", "data-card": v.upcard }, cardImg(v.upcard, { alt: t("Upcard: {card}", { card: cardName(v.upcard) }) })) : null),
    v.discards.length ? h("div", { class: "discards", "data-testid": "discards" },
      h("span", { class: "small" }, t("Discarded:")),
      v.discards.map((c) => h("span", { class: "mini-card" }, cardImg(c, { alt: cardName(c) })))) : null);
}

// Keep or discard the stock card on offer (the talon), when those are the legal actions.
export function takeRow(tbl, v) {
  const takes = v.legal.filter((a) => a.take !== undefined).map((a) => a.take);
  if (!takes.length) return null;
  const card = v.offer || v.upcard;
  return h("div", { class: "take-row", "data-testid": "take" },
    card ? h("span", { class: "widget-card" }, cardImg(card, { alt: cardName(card) })) : null,
    h("span", null, card ? t("Stock card: {card}", { card: cardName(card) }) : ""),
    takes.map((word) => h("button", {
      type: "button", class: `btn ${word === "keep" ? "btn-primary" : ""}`, "data-take": word,
      "data-testid": `take-${word}`, disabled: !canAct(tbl), onclick: () => act(tbl, { take: word }),
    }, word === "keep" ? t("Keep") : t("Discard"))));
}
