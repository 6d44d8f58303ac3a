// Japanese Whist's table piles: each player's face-down cards with face-up cards on top, laid
// out above and below the felt; your face-up cards are played like the cards in your hand.
import { backImg, cardImg } from "../../cards.js";
import { h } from "../../dom.js";
import { has } from "../../facts.js";
import { t } from "../../i18n.js";
import { cardName } from "../../labels.js";
import { cardButton } from "../hand.js";
import { legalSet } from "../moves.js";
import { seatName } from "../seats.js";

export function hasPiles(v) {
  return has(v.facts, "piles") && v.table.length > 0;
}

export function piles(tbl, v, seat, mine) {
  const playSet = mine ? legalSet(tbl, "play") : new Set();
  const yourTurn = playSet.size > 0;
  const row = h("div", {
    class: `piles ${mine ? "piles-mine" : "piles-theirs"}`,
    "data-testid": mine ? "my-piles" : "their-piles",
    role: "group",
    "aria-label": mine ? t("Your table cards") : t("{name}'s table cards", { name: seatName(tbl, seat) }),
  });
  (v.table[seat] || []).forEach((pile, i) => {
    const cell = h("div", { class: "pile", "data-pile": i });
    if (pile.down) cell.append(h("span", { class: "pile-down" }, backImg("", t("Face-down card"))));
    if (pile.up) {
      cell.append(mine
        ? cardButton(tbl, pile.up, "play", playSet, yourTurn)
        : h("span", { class: "pile-up", "data-card": pile.up }, cardImg(pile.up, { alt: cardName(pile.up) })));
    }
    if (!pile.up && !pile.down) cell.classList.add("pile-empty");
    row.append(cell);
  });
  return row;
}
