// The decisions under the trick: bids, the trump suit, the stock card; before the match the
// waiting room with its invitation link, and a seat to take for a visitor.
import { post } from "../api.js";
import { h, replace } from "../dom.js";
import { t } from "../i18n.js";
import { SUIT_SYMBOL, bidName, errorText, optionsSummary, suitNameCapital } from "../labels.js";
import { inviteUrl } from "../lobby.js";
import { navigate, session, toast } from "../session.js";
import { takeRow } from "./mechanics/stock.js";
import { act, canAct } from "./moves.js";
import { mySeat } from "./seats.js";

// A bid's card colour and what it aims at: high and spel take tricks, low and pass avoid
// them; the "colours" option swaps high and low.
export function bidLook(word, options) {
  const american = !!options && options.colours === "american";
  const takes = word === "high" || word === "spel";
  let colour = takes ? "red" : "black";
  if (american && (word === "high" || word === "low")) colour = takes ? "black" : "red";
  return { colour, takes };
}

function bidButton(tbl, word, v) {
  const { colour, takes } = bidLook(word, v.options);
  const colourText = colour === "red" ? t("red") : t("black");
  const sub = takes ? t("take tricks") : t("avoid tricks");
  return h("button", {
    type: "button",
    class: `btn bid-btn bid-${colour}`,
    "data-bid": word,
    "data-testid": `bid-${word}`,
    disabled: !canAct(tbl),
    onclick: () => act(tbl, { bid: word }),
  },
  h("span", { class: "bid-symbols", "aria-hidden": "true" }, colour === "red" ? "♥♦" : "♠♣"),
  h("span", { class: "bid-word" }, bidName(word)),
  h("span", { class: "bid-sub" }, `${colourText} · ${sub}`));
}

function trumpButton(tbl, suit) {
  return h("button", {
    type: "button", class: `btn trump-btn suit-${suit}`, "data-trump": suit, "data-testid": "trump-choice",
    disabled: !canAct(tbl), onclick: () => act(tbl, { trump: suit }),
  }, h("span", { class: "trump-symbol", "aria-hidden": "true" }, SUIT_SYMBOL[suit]), suitNameCapital(suit));
}

export function renderActions(tbl, v, table) {
  const items = [];
  const me = mySeat(tbl);
  if (table.status === "open") items.push(waitingRoom(tbl, table));
  if (me !== null && v.legal.length && table.status === "playing") {
    const bids = v.legal.filter((a) => a.bid !== undefined).map((a) => a.bid);
    if (bids.length) {
      items.push(h("div", { class: "bid-row", role: "group", "aria-label": t("Your bid") }, bids.map((w) => bidButton(tbl, w, v))));
    }
    const trumps = v.legal.filter((a) => a.trump !== undefined).map((a) => a.trump);
    if (trumps.length) {
      items.push(h("div", { class: "bid-row", role: "group", "aria-label": t("Choose the trump suit") }, trumps.map((s) => trumpButton(tbl, s))));
    }
    items.push(takeRow(tbl, v));
  }
  if (me === null && table.status === "open" && session.me && table.seats.some((s) => s.kind === "empty")) {
    items.push(takeSeatButton(tbl));
  }
  if (me === null && table.status !== "open") items.push(h("p", { class: "muted small" }, t("You are watching this table.")));
  replace(tbl.actions, items);
}

function takeSeatButton(tbl) {
  const id = encodeURIComponent(tbl.tableId);
  return h("button", {
    type: "button", class: "btn btn-primary", "data-testid": "take-seat",
    onclick: async () => {
      try {
        await post(`/api/tables/${id}/join`, { seat: null });
        tbl.conn.stop();
        navigate(`#/table/${id}`);
      } catch (err) {
        toast(errorText(err.code, err.message), "error");
      }
    },
  }, t("Take a seat"));
}

function waitingRoom(tbl, table) {
  let code = null;
  try {
    code = sessionStorage.getItem(`whist.invite.${tbl.tableId}`);
  } catch {
    code = null;
  }
  const link = code ? inviteUrl(code) : `${location.origin}/#/table/${encodeURIComponent(tbl.tableId)}`;
  const input = h("input", { class: "invite-input", readonly: true, value: link, "data-testid": "invite-link", "aria-label": t("Invitation link"), onfocus: (e) => e.target.select() });
  return h("div", { class: "waiting-room card-panel" },
    h("h2", null, t("Waiting for players")),
    h("p", null, optionsSummary(table.variant, table.options)),
    h("p", null, code ? t("Send this invitation link to the people you want to play with:") : t("Others can join from the lobby, or with this link:")),
    h("div", { class: "invite-row" }, input,
      h("button", {
        type: "button", class: "btn",
        onclick: async () => {
          try {
            await navigator.clipboard.writeText(link);
            toast(t("Link copied."));
          } catch {
            input.select();
          }
        },
      }, t("Copy"))));
}
