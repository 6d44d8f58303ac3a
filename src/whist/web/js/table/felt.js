// The felt: a seat panel at each side, the trick (or the revealed choices) in the middle
// with the mechanics' widgets and the last trick beside it, the decisions below, and the
// table piles. The felt's frame and the trick are built once and kept: a redraw fills the
// seats and widgets again but never re-creates the trick's cards (trick.js).
import { h, replace } from "../dom.js";
import { hasPiles, piles } from "./mechanics/piles.js";
import { stockWidget } from "./mechanics/stock.js";
import { turnedCardWidget } from "./mechanics/turned_card.js";
import { seatPanel } from "./seat_panel.js";
import { anchor, mySeat, players, posOf } from "./seats.js";
import { renderTrick, trickElement } from "./trick.js";
import { lastTrickButton } from "./trick_review.js";

// The felt's frame for `n` players: its cells by position and the widgets' column.
function frame(tbl, n) {
  if (tbl.feltFrame && tbl.feltFrame.n === n) return tbl.feltFrame;
  const cell = (pos) => h("div", { class: `felt-${pos}` });
  const f = { n, top: cell("top"), bottom: cell("bottom"), left: cell("left"), right: cell("right"), widgets: h("div", { class: "side-widgets" }) };
  replace(tbl.felt,
    f.top,
    n === 4 ? f.left : null,
    h("div", { class: "felt-center" },
      h("div", { class: "center-row" }, trickElement(tbl), f.widgets),
      tbl.actions),
    n === 4 ? f.right : null,
    f.bottom);
  tbl.feltFrame = f;
  return f;
}

export function renderFelt(tbl, v, table) {
  const n = players(tbl);
  tbl.felt.dataset.players = String(n);
  const f = frame(tbl, n);
  for (let seat = 0; seat < n; seat += 1) replace(f[posOf(tbl, seat)], seatPanel(tbl, seat, v, table));
  if (hasPiles(v)) {
    f.top.append(piles(tbl, v, (anchor(tbl) + 1) % 2, false));
    f.bottom.prepend(piles(tbl, v, anchor(tbl), mySeat(tbl) !== null));
  }
  replace(f.widgets, turnedCardWidget(tbl, v), stockWidget(v), lastTrickButton(tbl, v));
  renderTrick(tbl, v);
}
