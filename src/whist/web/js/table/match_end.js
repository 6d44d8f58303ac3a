// The match end, beside the table (below it on a phone), never over a seat: who won, the final
// score sheet, the last deal's breakdown, the XP it brought (or that a loss brings none), what
// it unlocked, and Rematch (the same seats and options; the other people are asked) or back to
// the lobby.
import { post } from "../api.js";
import { backImg, cardImg } from "../cards.js";
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { errorText } from "../labels.js";
import { scoreSheetTable } from "../sheet.js";
import { navigate, toast } from "../session.js";
import { sheetRows } from "./dialogs.js";
import { contractText, mySeat, players, seatName, sideName, sidesInOrder } from "./seats.js";
import { dealBreakdown } from "./summary.js";

function headline(tbl, v, table) {
  const me = mySeat(tbl);
  const alone = players(tbl) === 2;
  if (table.status === "abandoned") return t("The match was abandoned.");
  if (v.winner === null || v.winner === undefined) return t("The match is a draw.");
  if (me === null) return t("{side} won the match.", { side: sideName(tbl, v.winner) });
  if (v.winner === me % 2) return alone ? t("You won the match!") : t("Your team won the match!");
  return alone ? t("You lost the match.") : t("Your team lost the match.");
}

// The XP line: what a win brought (the server's xp frame), or that a loss or a draw brings none.
function xpLine(tbl, v, table) {
  const { ctx } = tbl;
  const me = mySeat(tbl);
  if (ctx.xp) return h("p", { class: "xp-gain", "data-testid": "xp-gained" }, t("+{n} XP", { n: ctx.xp }));
  if (me === null || table.status !== "finished") return null;
  if (v.winner === null || v.winner === undefined) return h("p", { class: "xp-none", "data-testid": "xp-none" }, t("No XP for a draw"));
  if (v.winner !== me % 2) return h("p", { class: "xp-none", "data-testid": "xp-none" }, t("No XP for a loss"));
  return null; // a win: its XP is on its way
}

function unlocks(tbl) {
  const unlocked = tbl.ctx.unlockedNow;
  if (!unlocked) return null;
  return [
    unlocked.level ? h("p", { class: "unlock" }, t("You reached level {n}!", { n: unlocked.level })) : null,
    unlocked.backs.length || unlocked.faces.length
      ? h("div", { class: "unlock", "data-testid": "unlocked" },
        h("p", null, t("Unlocked:")),
        h("div", { class: "unlock-cards" },
          unlocked.backs.map((b) => h("figure", null, backImg(b), h("figcaption", null, t("Card back")))),
          unlocked.faces.map((f) => h("figure", null, cardImg("KH", { face: f }), h("figcaption", null, t("Card face"))))),
        h("a", { href: "#/profile" }, t("Choose your cards in your profile")))
      : null,
  ];
}

async function goTo(path, tbl) {
  try {
    const table = await post(path);
    navigate(`#/table/${encodeURIComponent(table.id)}`);
  } catch (err) {
    toast(errorText(err.code, err.message), "error");
    tbl.render();
  }
}

const tablePath = (id, action) => `/api/tables/${encodeURIComponent(id)}/${action}`;

// Rematch, or the answer to someone else's: accept (your seat is kept) or decline.
function rematchRow(tbl, table) {
  const { ctx } = tbl;
  const me = mySeat(tbl);
  const lobby = h("a", { class: "btn", href: "#/lobby", "data-testid": "back-to-lobby" }, t("Back to the lobby"));
  const offer = table.rematch;
  if (me === null || table.status !== "finished") return h("div", { class: "button-row" }, lobby);
  if (!offer) {
    return h("div", { class: "button-row" },
      h("button", { type: "button", class: "btn btn-primary", "data-testid": "rematch", onclick: () => goTo(tablePath(tbl.tableId, "rematch"), tbl) }, t("Rematch")),
      lobby);
  }
  if (offer.by === me) {
    return h("div", { class: "button-row" },
      h("a", { class: "btn btn-primary", href: `#/table/${encodeURIComponent(offer.table)}`, "data-testid": "rematch" }, t("Go to the rematch")),
      lobby);
  }
  if (ctx.rematchDeclined === offer.table) {
    return h("div", null, h("p", { class: "small" }, t("You declined the rematch.")), h("div", { class: "button-row" }, lobby));
  }
  const decline = async () => {
    try {
      await post(tablePath(offer.table, "decline"));
      ctx.rematchDeclined = offer.table;
    } catch (err) {
      toast(errorText(err.code, err.message), "error");
    }
    tbl.render();
  };
  return h("div", { class: "rematch-offer", "data-testid": "rematch-offer", role: "group", "aria-labelledby": "rematch-ask" },
    h("p", { id: "rematch-ask" }, t("{name} asks for a rematch: your seat is kept for you.", { name: seatName(tbl, offer.by) })),
    h("div", { class: "button-row" },
      h("button", { type: "button", class: "btn btn-primary", "data-testid": "accept-rematch", onclick: () => goTo(tablePath(offer.table, "accept"), tbl) }, t("Accept")),
      h("button", { type: "button", class: "btn", "data-testid": "decline-rematch", onclick: decline }, t("Decline")),
      lobby));
}

// Each side's score once `row` was scored.
function scoreAfter(rows, row) {
  const upTo = rows.slice(0, rows.indexOf(row) + 1).filter((r) => r.points);
  return [0, 1].map((side) => upTo.reduce((sum, r) => sum + r.points[side], 0));
}

export function matchEndPanel(tbl, v, table) {
  const rows = sheetRows(v);
  const last = [...rows].reverse().find((row) => row.complete);
  const sides = sidesInOrder(tbl);
  return h("section", { class: "result card-panel", "data-testid": "match-result", "aria-labelledby": "result-title" },
    h("h2", { id: "result-title" }, headline(tbl, v, table)),
    v.resigned !== null && v.resigned !== undefined ? h("p", null, t("{name} resigned.", { name: seatName(tbl, v.resigned) })) : null,
    h("p", { class: "final-score" }, sides.map((s) => `${sideName(tbl, s)}: ${v.scores[s]}`).join(" · ")),
    xpLine(tbl, v, table),
    unlocks(tbl),
    rematchRow(tbl, table),
    last ? h("h3", null, t("The last deal")) : null,
    last ? dealBreakdown(tbl, last, scoreAfter(rows, last)) : null,
    h("h3", null, t("Score sheet")),
    scoreSheetTable(rows, {
      sides: [sideName(tbl, 0), sideName(tbl, 1)],
      seatName: (seat) => seatName(tbl, seat),
      contractText: (contract) => contractText(tbl, contract),
      showDealer: false,
      showTrump: false,
      over: true,
    }));
}
