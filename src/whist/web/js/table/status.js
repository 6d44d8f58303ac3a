// The status line under the felt: whose turn it is and what to do, in words, with your clock.
import { h, replace } from "../dom.js";
import { t } from "../i18n.js";
import { clockSpan, remaining } from "./clock.js";
import { mySeat, seatName } from "./seats.js";

// What you are asked to do now.
function yourTask(v) {
  if (v.phase === "bid") {
    if (v.legal.some((a) => a.bottom !== undefined)) return t("Choose your bottom card: a red card bids spel, a black card bids pass.");
    return v.legal.some((a) => a.bid === "high") ? t("Bid high or low.") : t("Bid spel or pass.");
  }
  if (v.phase === "trump") return t("Choose the trump suit.");
  if (v.phase === "take") return t("Keep or discard the stock card.");
  return v.trick.length ? t("Your turn: play a card.") : t("Your turn: lead a card.");
}

// What the table waits for when it is not you.
function othersTask(tbl, v, me) {
  const others = v.to_act.filter((s) => s !== me);
  if (v.phase === "bid" && me !== null && v.decided.includes(me)) return t("You have chosen. Waiting for the others…");
  if (others.length > 1) return t("Waiting for the others to choose…");
  if (!others.length) return "";
  const name = seatName(tbl, others[0]);
  if (v.phase === "bid") return t("Waiting for {name} to bid.", { name });
  if (v.phase === "trump") return t("Waiting for {name} to choose trump.", { name });
  if (v.phase === "take") return t("Waiting for {name} to take from the stock.", { name });
  return t("Waiting for {name} to play.", { name });
}

function statusText(tbl, v, table) {
  const { ctx, conn } = tbl;
  const me = mySeat(tbl);
  if (ctx.status === "gone") return t("This table does not exist any more.");
  if (table.status === "open") {
    const free = table.seats.filter((s) => s.kind === "empty").length;
    return t("Waiting for players: {n} free seats.", { n: free });
  }
  if (table.status === "suspended") return t("The match is saved. Open it again from My games.");
  if (table.status === "abandoned") return t("The match was abandoned.");
  if (v.over || table.status === "finished") return t("The match is over.");
  // Your card is already in the trick while it is being sent: the status goes on to the next.
  if (conn.busy && !(ctx.move && ctx.status === "open")) {
    return ctx.status === "open" ? t("Sending…") : t("Your move will be sent when the connection is back.");
  }
  if (v.phase === "waiting") return t("Dealing…");
  const mine = me !== null && v.to_act.includes(me) && v.legal.length > 0;
  return mine ? yourTask(v) : othersTask(tbl, v, me);
}

export function renderStatus(tbl, v, table) {
  const { ctx } = tbl;
  const me = mySeat(tbl);
  let text = statusText(tbl, v, table);
  if (ctx.error) text = `${ctx.error} ${text}`;
  const myClock = me !== null && remaining(ctx, me) !== null && v.to_act.includes(me)
    ? h("span", { class: "status-clock" }, t("Time left:"), " ", clockSpan(ctx, me, "")) : null;
  const aid = ctx.note ? h("span", { class: "play-note", "data-testid": "play-note" }, ctx.note) : null;
  replace(tbl.statusLine, h("span", { class: "status-text" }, aid, aid ? " " : null, text), myClock);
}
