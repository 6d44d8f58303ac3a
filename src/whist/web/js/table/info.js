// The bar above the felt: the game, the deal, trump, the contract, the score and tricks; and
// the table's toolbar (hint, score sheet, rules, save and leave or leave, resign, settings).
import { h, replace, replaceIfChanged } from "../dom.js";
import { has, hasContract } from "../facts.js";
import { t } from "../i18n.js";
import { SUIT_SYMBOL, suitNameCapital, targetText } from "../labels.js";
import { settingsButton } from "../settings_dialog.js";
import { variantName } from "../variants.js";
import { openSheet, saveAndLeave } from "./dialogs.js";
import { hintButton, hintsUsedNote } from "./hint.js";
import { stillRevealing } from "./mechanics/reveal.js";
import { hasStock, stageChips } from "./mechanics/stock.js";
import { contractText, mySeat, seatName, sideName, sidesInOrder } from "./seats.js";

export function chip(label, value, testid, extra = "") {
  return h("div", { class: `info-chip ${extra}`, "data-testid": testid },
    h("span", { class: "info-label" }, label), h("span", { class: "info-value" }, value));
}

function trumpNote(v) {
  if (v.trump) return `${SUIT_SYMBOL[v.trump]} ${suitNameCapital(v.trump)}`;
  if (has(v.facts, "trump_choice") && v.phase === "trump") return t("to be chosen");
  return t("No trump");
}

export function renderInfo(tbl, v) {
  const items = [chip(t("Game"), variantName(v.variant), "variant-name")];
  if (v.deal !== null) {
    items.push(chip(t("Deal"), t("{n} · dealer {name}", { n: v.deal + 1, name: seatName(tbl, v.dealer) }), "deal-info"));
  }
  items.push(chip(t("Trump"), trumpNote(v), "trump", v.trump ? `suit-${v.trump}` : ""));
  if (hasContract(v.facts)) {
    const text = stillRevealing(tbl, v) ? t("being revealed…") : contractText(tbl, v.contract) || t("not yet decided");
    items.push(chip(t("Contract"), text, "contract"));
  }
  const sides = sidesInOrder(tbl);
  const score = sides.map((s) => `${sideName(tbl, s)} ${v.scores[s]}`).join(" – ");
  const target = targetText(v.options);
  items.push(chip(t("Score"), `${score}${target ? ` (${target})` : ""}`, "scores"));
  if (hasStock(v)) {
    items.push(...stageChips(tbl, v));
  } else if (v.deal !== null) {
    items.push(chip(t("Tricks"), sides.map((s) => `${sideName(tbl, s)} ${v.won[s]}`).join(" – "), "tricks-won"));
  }
  replace(tbl.infoBar, items);
}

export function renderToolbar(tbl, v, table) {
  const seated = mySeat(tbl) !== null;
  const humans = table.seats.filter((s) => s.kind === "human").length;
  const button = (testid, cls, text, onclick) =>
    h("button", { type: "button", class: `btn btn-small${cls}`, "data-testid": testid, onclick }, text);
  const buttons = [
    button("open-sheet", "", t("Score sheet"), () => openSheet(tbl)),
    h("a", { class: "btn btn-small btn-ghost", href: `#/rules/${v.variant}`, target: "_blank", rel: "noopener" }, t("Rules")),
  ];
  if (seated && table.status === "playing" && !v.over) {
    // Alone with computer players the match can be saved; with people a bot takes the seat.
    buttons.push(humans === 1
      ? button("save-leave", "", t("Save and leave"), () => saveAndLeave(tbl))
      : button("leave", "", t("Leave"), () => tbl.leaveDialog.showModal()));
    if (v.deal !== null) buttons.push(button("resign", " btn-danger", t("Resign"), () => tbl.resignDialog.showModal()));
  }
  // Hints (a practice table): first in the toolbar, the button a player reaches for.
  const hint = hintButton(tbl, v, table);
  if (hint) buttons.unshift(hint);
  // (Every handler here needs only `tbl`: buttons that look the same may stay.)
  replaceIfChanged(tbl.toolbar, buttons, hintsUsedNote(table), settingsButton());
}
