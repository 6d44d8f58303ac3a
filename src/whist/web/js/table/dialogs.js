// The table's dialogs: resign, leave, the score sheet; and saving a match against computer
// players to finish later.
import { post } from "../api.js";
import { h, replace } from "../dom.js";
import { t } from "../i18n.js";
import { errorText } from "../labels.js";
import { navigate, toast } from "../session.js";
import { scoreSheetTable } from "../sheet.js";
import { contractText, players, seatName, sideName, view } from "./seats.js";

function tablePath(tbl, action) {
  return `/api/tables/${encodeURIComponent(tbl.tableId)}/${action}`;
}

// (Re)builds the resign and leave dialogs in the current language.
export function buildDialogs(tbl) {
  replace(tbl.resignDialog,
    h("form", { method: "dialog", class: "dialog-body" },
      h("h2", { id: "resign-title" }, t("Resign the match?")),
      h("p", null, players(tbl) === 2 ? t("You lose the match at once.") : t("Your team loses the match at once.")),
      h("div", { class: "button-row" },
        h("button", { value: "cancel", class: "btn", autofocus: true }, t("Keep playing")),
        h("button", {
          value: "resign", class: "btn btn-danger", "data-testid": "confirm-resign",
          onclick: (event) => {
            event.preventDefault();
            tbl.resignDialog.close();
            tbl.ctx.error = null;
            tbl.conn.act({ resign: true });
            tbl.render();
          },
        }, t("Resign")))));
  replace(tbl.leaveDialog,
    h("form", { method: "dialog", class: "dialog-body" },
      h("h2", { id: "leave-title" }, t("Leave the table?")),
      h("p", null, t("A computer player takes your seat for the rest of the match.")),
      h("div", { class: "button-row" },
        h("button", { value: "cancel", class: "btn", autofocus: true }, t("Stay")),
        h("button", {
          value: "leave", class: "btn btn-danger", "data-testid": "confirm-leave",
          onclick: async (event) => {
            event.preventDefault();
            tbl.leaveDialog.close();
            try {
              await post(tablePath(tbl, "leave"));
              navigate("#/lobby");
            } catch (err) {
              toast(errorText(err.code, err.message), "error");
            }
          },
        }, t("Leave")))));
}

export async function saveAndLeave(tbl) {
  try {
    await post(tablePath(tbl, "suspend"));
    navigate("#/games");
  } catch (err) {
    toast(errorText(err.code, err.message), "error");
  }
}

// The score sheet's rows: every finished deal, and the current one (its points once it is over).
export function sheetRows(v) {
  const rows = v.history.map((d) => ({ ...d }));
  if (v.deal !== null && !rows.some((r) => r.index === v.deal)) {
    const before = rows.reduce((acc, r) => [acc[0] + r.points[0], acc[1] + r.points[1]], [0, 0]);
    const complete = v.phase === "waiting" || v.phase === "done" || v.over;
    rows.push({
      index: v.deal, dealer: v.dealer, contract: v.contract, trump: v.trump, won: v.won,
      points: complete ? [v.scores[0] - before[0], v.scores[1] - before[1]] : null,
      complete,
    });
  }
  return rows;
}

export function openSheet(tbl) {
  const v = view(tbl);
  if (!v) return;
  const rows = sheetRows(v);
  replace(tbl.sheetDialog,
    h("div", { class: "dialog-body" },
      h("h2", { id: "sheet-title" }, t("Score sheet")),
      scoreSheetTable(rows, {
        sides: [sideName(tbl, 0), sideName(tbl, 1)],
        seatName: (seat) => seatName(tbl, seat),
        contractText: (contract) => contractText(tbl, contract),
        over: v.over,
      }),
      h("form", { method: "dialog", class: "button-row" }, h("button", { class: "btn", autofocus: true }, t("Close")))));
  tbl.sheetDialog.showModal();
}
