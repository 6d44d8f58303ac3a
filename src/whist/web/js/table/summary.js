// A finished deal, in words: its contract, trump, tricks and points per side and why; and the
// deal summary panel beside the table (below it on a phone), which folds to one line when the
// next deal needs you.
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { suitName } from "../labels.js";
import { reviewButton } from "../review.js";
import { contractText, mySeat, seatName, sideName, sidesInOrder } from "./seats.js";

function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}

// Why the points went where they did, as far as the deal shows it: the tricks each scoring
// side took (and, where that is the count, how many over the book of six).
function reasons(tbl, deal, sides) {
  const scoring = sides.filter((side) => deal.points[side] !== 0);
  if (!scoring.length) return t("No points this deal.");
  return scoring.map((side) => {
    const args = { side: sideName(tbl, side), points: signed(deal.points[side]), n: deal.won[side] };
    if (deal.points[side] === deal.won[side] - 6) {
      return t("{side}: {points} for {n} tricks, {over} over the book of six.", { ...args, over: deal.won[side] - 6 });
    }
    return t("{side}: {points} (tricks taken: {n}).", args);
  }).join(" ");
}

// The deal's contract, trump, and a table of tricks, points and the score after it per side.
export function dealBreakdown(tbl, deal, scores) {
  const sides = sidesInOrder(tbl);
  const contract = contractText(tbl, deal.contract);
  return h("div", { class: "breakdown", "data-testid": "deal-breakdown" },
    h("p", { class: "breakdown-terms" },
      contract ? `${contract} · ` : "",
      deal.trump ? t("Trump: {suit}", { suit: suitName(deal.trump) }) : t("No trump")),
    h("table", { class: "mini-table" },
      h("thead", null, h("tr", null,
        h("td", null, ""),
        h("th", { scope: "col" }, t("Tricks")),
        h("th", { scope: "col" }, t("Points")),
        h("th", { scope: "col" }, t("Score")))),
      h("tbody", null, sides.map((side) => h("tr", null,
        h("th", { scope: "row" }, sideName(tbl, side)),
        h("td", null, String(deal.won[side])),
        h("td", null, signed(deal.points[side])),
        h("td", null, String(scores[side])))))),
    h("p", { class: "breakdown-why small" }, reasons(tbl, deal, sides)),
    // Every card with its value: for the players of the table (spectators see no hands).
    mySeat(tbl) === null ? null : reviewButton({
      tableId: tbl.tableId, deal: deal.index, me: mySeat(tbl), seatName: (seat) => seatName(tbl, seat),
    }));
}

// One line: "Deal 2: Us +3 · Them 0".
function oneLine(tbl, deal) {
  const points = sidesInOrder(tbl).map((side) => `${sideName(tbl, side)} ${signed(deal.points[side])}`).join(" · ");
  return t("Deal {n}: {points}", { n: deal.index + 1, points });
}

// The panel: open, or folded to one line that opens it again.
export function summaryPanel(tbl, summary, onToggle) {
  const { deal, scores, open } = summary;
  if (!open) {
    return h("div", { class: "summary-line", "data-testid": "deal-summary-line" },
      h("button", { type: "button", class: "btn btn-small btn-ghost", "aria-expanded": "false", onclick: onToggle },
        "▸ ", oneLine(tbl, deal)));
  }
  return h("section", { class: "summary card-panel", "data-testid": "deal-summary", "aria-labelledby": "summary-title" },
    h("div", { class: "panel-head" },
      h("h2", { id: "summary-title" }, t("Deal {n} is over", { n: deal.index + 1 })),
      h("button", { type: "button", class: "btn btn-small btn-ghost", "aria-expanded": "true", "data-testid": "fold-summary", onclick: onToggle },
        t("Hide"))),
    dealBreakdown(tbl, deal, scores));
}
