// Classic Whist's turned trump card: the dealer's last card, face up until the dealer plays
// or picks it up.
import { cardImg } from "../../cards.js";
import { h } from "../../dom.js";
import { has } from "../../facts.js";
import { t } from "../../i18n.js";
import { cardName } from "../../labels.js";
import { seatName } from "../seats.js";

export function turnedCardWidget(tbl, v) {
  if (!has(v.facts, "turned_card") || !v.trump_card) return null;
  return h("div", { class: "widget trump-card", "data-testid": "trump-card" },
    h("span", { class: "widget-label" }, t("Turned trump card")),
    h("span", { class: "widget-card" }, cardImg(v.trump_card, { alt: cardName(v.trump_card) })),
    h("span", { class: "small" }, t("held by {name}", { name: seatName(tbl, v.dealer) })));
}
