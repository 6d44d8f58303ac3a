// The score sheet: one row per deal, points and running totals per side.
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { SUIT_SYMBOL, suitNameCapital } from "./labels.js";

// rows: {index, dealer, contract, trump (optional), won: [a, b], points: [a, b] | null, complete}
// showDealer and showTrump false: the narrow sheet of the match end.
export function scoreSheetTable(rows, { sides, seatName, contractText, showDealer = true, showTrump = true, over = false }) {
  const running = [0, 0];
  const body = rows.map((row) => {
    if (row.points) {
      running[0] += row.points[0];
      running[1] += row.points[1];
    }
    const one = (n) => (n > 0 ? `+${n}` : String(n));
    const points = row.points ? `${one(row.points[0])} – ${one(row.points[1])}` : "—";
    return h("tr", { "data-deal": row.index },
      h("th", { scope: "row" }, String(row.index + 1)),
      showDealer ? h("td", null, seatName(row.dealer)) : null,
      h("td", null, contractText(row.contract) || "—"),
      showTrump ? h("td", null, row.trump ? h("span", { class: `suit-${row.trump}` }, `${SUIT_SYMBOL[row.trump]} ${suitNameCapital(row.trump)}`) : t("No trump")) : null,
      h("td", null, `${row.won[0]} – ${row.won[1]}`),
      h("td", null, points),
      h("td", null, row.points ? `${running[0]} – ${running[1]}` : over ? t("not finished") : t("in play")));
  });
  return h("div", { class: "sheet-scroll" },
    h("p", { class: "small muted sheet-legend" }, t("Tricks, points and score: {a} – {b}", { a: sides[0], b: sides[1] })),
    h("table", { class: "sheet", "data-testid": "sheet-table" },
      h("caption", { class: "sr-only" }, t("Score sheet")),
      h("thead", null, h("tr", null,
        h("th", { scope: "col" }, t("Deal")),
        showDealer ? h("th", { scope: "col" }, t("Dealer")) : null,
        h("th", { scope: "col" }, t("Contract")),
        showTrump ? h("th", { scope: "col" }, t("Trump")) : null,
        h("th", { scope: "col" }, t("Tricks")),
        h("th", { scope: "col" }, t("Points")),
        h("th", { scope: "col" }, t("Score")))),
      h("tbody", null, body.length ? body : h("tr", null, h("td", { colspan: 7, class: "muted" }, t("No deals yet."))))));
}
