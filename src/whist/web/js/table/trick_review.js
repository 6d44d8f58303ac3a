// The last trick, reviewed at any time: the trick pile beside the felt is a button that opens
// a dialog with who played what, in playing order, and who won it (keyboard: Tab to the
// pile, Enter; Escape or Close to go back).
import { backImg, cardImg } from "../cards.js";
import { h, replace } from "../dom.js";
import { t } from "../i18n.js";
import { cardName } from "../labels.js";
import { seatName } from "./seats.js";

// The last finished trick of the deal with each card's seat, or null before the first.
export function lastTrick(view) {
  const last = view.tricks.at(-1);
  if (!last) return null;
  const n = view.hand_sizes.length;
  return { winner: last.winner, cards: last.cards.map((card, i) => ({ card, seat: (last.leader + i) % n, led: i === 0 })) };
}

function dialog(tbl) {
  if (!tbl.lastTrickDialog) {
    tbl.lastTrickDialog = h("dialog", { class: "dialog last-trick-dialog", "data-testid": "last-trick", "aria-labelledby": "last-trick-title" });
    // Closed, focus goes back to the trick pile: the browser would return it to the pile that
    // opened the dialog, which a redraw meanwhile (a card played, a trick finished) replaced.
    tbl.lastTrickDialog.addEventListener("close", () => {
      tbl.page.querySelector("[data-testid=last-trick-button]")?.focus();
    });
    tbl.page.append(tbl.lastTrickDialog);
  }
  return tbl.lastTrickDialog;
}

function fill(tbl, v) {
  const box = dialog(tbl);
  box.dataset.trick = `${v.deal}:${v.tricks.length}`;
  const trick = lastTrick(v);
  const close = h("button", { type: "button", class: "btn", "data-testid": "last-trick-close", onclick: () => box.close() }, t("Close"));
  replace(box, h("div", { class: "dialog-body" },
    h("h2", { id: "last-trick-title" }, t("Last trick")),
    trick
      ? h("ol", { class: "last-trick-cards" }, trick.cards.map(({ card, seat, led }) => {
        const won = seat === trick.winner;
        return h("li", { class: `last-trick-card${won ? " won" : ""}`, "data-testid": "last-trick-card", "data-card": card, "data-seat": seat },
          cardImg(card, { alt: "" }),
          h("span", { class: "last-trick-who" }, seatName(tbl, seat)),
          h("span", { class: "last-trick-what" }, cardName(card)),
          led ? h("span", { class: "small" }, t("led")) : null,
          won ? h("span", { class: "last-trick-won" }, "★ ", t("won the trick")) : null);
      }))
      : h("p", null, t("No trick has been played yet in this deal.")),
    h("div", { class: "button-row" }, close)));
}

export function openLastTrick(tbl, v) {
  fill(tbl, v);
  dialog(tbl).showModal();
  dialog(tbl).querySelector("button").focus();
}

// The trick pile: how many tricks were played this deal; opens the last one. An open review
// follows the table (a trick finished meanwhile shows at once).
export function lastTrickButton(tbl, v) {
  if (v.deal === null) return null;
  const open = tbl.lastTrickDialog && tbl.lastTrickDialog.open;
  if (open && tbl.lastTrickDialog.dataset.trick !== `${v.deal}:${v.tricks.length}`) {
    fill(tbl, v);
    tbl.lastTrickDialog.querySelector("button").focus();
  }
  const count = v.tricks.length;
  return h("button", {
    type: "button",
    class: "widget trick-pile",
    "data-testid": "last-trick-button",
    disabled: count === 0,
    "aria-haspopup": "dialog",
    title: count ? t("Show the last trick") : t("No trick has been played yet in this deal."),
    onclick: () => openLastTrick(tbl, v),
  },
  h("span", { class: "pile-stack", "aria-hidden": "true" }, backImg(), count > 1 ? backImg() : null),
  h("span", { class: "widget-label" }, t("Last trick")),
  h("span", { class: "small" }, t("Tricks played: {n}", { n: count })));
}
