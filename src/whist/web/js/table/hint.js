// Hints at a practice table (issue 20): when the host allowed them and you are the only
// person seated, a Hint button asks the server for MASTER's choice for your decision now (a
// hint frame answers this connection alone). The suggestion is outlined on the table (the
// card in your hand, or the bid, trump or stock button) and said in a line under the status,
// which screen readers hear; it stays while it is still one of your legal actions (a refusal,
// until the next state). The server decides whether a hint may be asked (table.hints.open);
// this module only shows it.
import { h, replace } from "../dom.js";
import { t } from "../i18n.js";
import { bidName, cardName, errorText, suitNameCapital } from "../labels.js";
import { toast } from "../session.js";
import { mySeat } from "./seats.js";

// The action's kind and value ({seat, play: "QH"} -> ["play", "QH"]).
function kindOf(action) {
  const kind = Object.keys(action).find((key) => key !== "seat");
  return kind ? [kind, action[kind]] : [null, null];
}

// What MASTER's estimate says, in words. Pure: tested with node --test.
export function estimateText(estimate) {
  if (!estimate) return t("a clear choice: no search was needed");
  const n = Math.abs(estimate.value).toFixed(1);
  if (estimate.unit === "tricks") return t("expects {n} tricks for you in this deal", { n: estimate.value.toFixed(1) });
  if (n === "0.0") return t("expects this deal to come out even");
  return estimate.value > 0
    ? t("expects this deal to give your side {n} points more than the other side", { n })
    : t("expects this deal to give the other side {n} points more than your side", { n });
}

// The whole suggestion: MASTER's action and its estimate. Pure: tested with node --test.
export function hintText(action, estimate) {
  const [kind, value] = kindOf(action);
  const expects = estimateText(estimate);
  switch (kind) {
    case "play": return t("MASTER would play {card} ({estimate}).", { card: cardName(value), estimate: expects });
    case "bottom": return t("MASTER would put down {card} as the bottom card ({estimate}).", { card: cardName(value), estimate: expects });
    case "bid": return t("MASTER would bid {bid} ({estimate}).", { bid: bidName(value), estimate: expects });
    case "trump": return t("MASTER would choose {suit} as trump ({estimate}).", { suit: suitNameCapital(value), estimate: expects });
    case "take":
      return value === "keep"
        ? t("MASTER would keep the stock card ({estimate}).", { estimate: expects })
        : t("MASTER would discard the stock card ({estimate}).", { estimate: expects });
    default: return t("MASTER has no suggestion.");
  }
}

// Whether `action` is still one of the legal actions (the seat dropped from both).
function stillLegal(action, legal) {
  const [kind, value] = kindOf(action);
  return legal.some((item) => Object.prototype.hasOwnProperty.call(item, kind) && item[kind] === value);
}

// The hint to show with `view` on screen when the newest state is `version`: a suggestion
// while it is still one of your legal actions, a refusal ("It is not your turn.") only until
// the table moves past the state it was refused in (it was about that moment, not the next
// decision), a request until it is answered; else none. Pure: tested with node --test.
export function hintToShow(hint, view, version) {
  if (!hint || hint.waiting) return hint || null;
  if (hint.action) return stillLegal(hint.action, view.legal) ? hint : null;
  return version <= hint.version ? hint : null;
}

function newestVersion(tbl) {
  return tbl.ctx.latest ? tbl.ctx.latest.version : null;
}

// The hint on show (one no longer to show is dropped).
function current(tbl, v) {
  const hint = hintToShow(tbl.ctx.hint, v, newestVersion(tbl));
  if (!hint) tbl.ctx.hint = null;
  return hint;
}

export function mayAskHint(tbl, v, table) {
  return !!(table.hints && table.hints.open) && mySeat(tbl) !== null && table.status === "playing"
    && !v.over && v.legal.length > 0;
}

export function hintButton(tbl, v, table) {
  if (!mayAskHint(tbl, v, table)) return null;
  const waiting = !!(tbl.ctx.hint && tbl.ctx.hint.waiting);
  return h("button", {
    type: "button",
    class: "btn btn-small hint-btn",
    "data-testid": "hint",
    "aria-describedby": "hint-line",
    disabled: waiting,
    onclick: () => askHint(tbl),
  }, t("Hint"));
}

// A hint the server never answered (it was lost with a connection, or while the table moved
// to another server) stops waiting after this long: the button can be pressed again.
const HINT_WAIT_MS = 15_000;

function askHint(tbl) {
  const id = tbl.conn.hint();
  if (id === null) {
    toast(t("The server cannot be reached."), "error");
    return;
  }
  tbl.ctx.hint = { id, waiting: true, action: null, text: t("MASTER is thinking…") };
  setTimeout(() => {
    if (tbl.ctx.hint && tbl.ctx.hint.id === id && tbl.ctx.hint.waiting) {
      tbl.ctx.hint = null;
      tbl.render();
    }
  }, HINT_WAIT_MS);
  tbl.render();
}

// A hint frame: the suggestion, or why there is none.
export function receiveHint(tbl, message) {
  const asked = tbl.ctx.hint;
  if (!asked || asked.id !== message.id) return; // an old request's, or another page's
  if (message.code) {
    const text = message.code === "not_alone"
      ? t("Hints are given only while you are the only person at the table.")
      : errorText(message.code, message.message);
    // (the table's version when the server refused: the refusal holds for that state only)
    const version = Number.isInteger(message.version) ? message.version : newestVersion(tbl);
    tbl.ctx.hint = { id: message.id, waiting: false, action: null, text, version };
  } else {
    tbl.ctx.hint = { id: message.id, waiting: false, action: message.action, text: hintText(message.action, message.estimate) };
  }
  tbl.render();
}

// The line under the status, and the suggested card or button outlined.
export function renderHint(tbl, v, table) {
  const hint = mayAskHint(tbl, v, table) ? current(tbl, v) : null;
  replace(tbl.hintLine, hint ? hint.text : "");
  tbl.hintLine.hidden = !hint;
  if (!hint || !hint.action) return;
  const [kind, value] = kindOf(hint.action);
  const attribute = { play: "card", bottom: "card", bid: "bid", trump: "trump", take: "take" }[kind];
  if (!attribute) return;
  for (const el of tbl.page.querySelectorAll(`button[data-${attribute}="${CSS.escape(String(value))}"]`)) {
    el.classList.add("hinted");
    el.dataset.hinted = "true";
    el.setAttribute("aria-describedby", "hint-line");
  }
}

// The hint line's element (made once per table page).
export function hintLineElement() {
  return h("p", { class: "hint-line", id: "hint-line", "data-testid": "hint-line", role: "status", hidden: true });
}

// Tables with hints shown: marked (their matches are not rated).
export function hintsUsedNote(table) {
  return table.hints && table.hints.shown
    ? h("span", { class: "hints-used-note small", "data-testid": "hints-used" }, t("Hints used: this match is not rated"))
    : null;
}
