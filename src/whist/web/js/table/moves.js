// Whether this page may act now, and sending an action. A card you click goes to the trick at
// once (an optimistic move, drawn over the state on screen until the server's state has it,
// rolled back if the server refuses it); a click while the table is still animating plays on
// the newest state; a click that cannot be played is answered (why not, or a pre-selection).
import { t } from "../i18n.js";
import { cardName } from "../labels.js";
import { settings } from "../settings.js";
import { forcedCard, whyIllegal } from "./aids.js";
import { say } from "./announce.js";
import { isPlayed, withMove } from "./layout.js";
import { fastForward } from "./queue.js";
import { mySeat, view } from "./seats.js";
import { cardSound } from "./sound.js";
import { flights, renderTrick } from "./trick.js";

const NOTE_MS = 5000; // how long a play aid's sentence stays in the status line
const PRESELECTED_PAUSE_MS = 150; // your turn came: the pre-selected card goes after this
const FORCED_PAUSE_MS = 600; // the only legal card is played after this

export function canAct(tbl) {
  const { ctx, conn } = tbl;
  const v = view(tbl);
  // While reconnecting a click still counts: the action waits, and goes out (once) after
  // the reconnect if it is still legal in the fresh state.
  return !!v && ctx.shown === ctx.latest && ctx.queue.length === 0 && !conn.busy &&
    ctx.status !== "gone" && v.legal.length > 0 && ctx.table && ctx.table.status === "playing";
}

export function act(tbl, action) {
  if (!canAct(tbl)) return;
  tbl.ctx.error = null;
  if (tbl.conn.act(action)) tbl.render();
}

// The values of one kind of legal action (play, bottom, bid, trump, take) while it may act.
export function legalSet(tbl, kind) {
  const v = view(tbl);
  const out = new Set();
  if (!v || !canAct(tbl)) return out;
  for (const item of v.legal) if (item[kind] !== undefined) out.add(item[kind]);
  return out;
}

function latestView(tbl) {
  return tbl.ctx.latest && tbl.ctx.latest.view;
}

// A sentence from the play aids: in the status line for a few seconds, and said aloud.
export function note(tbl, text) {
  const { ctx } = tbl;
  clearTimeout(ctx.noteTimer);
  ctx.note = text;
  ctx.noteTimer = setTimeout(() => {
    ctx.note = null;
    tbl.render();
  }, NOTE_MS);
  say(tbl.announcer, [text]);
  queueMicrotask(() => tbl.render()); // also asked for while drawing
}

// A click (or Enter) on one of your cards, at any moment. `kind`: "play", or "bottom" while
// choosing a bottom card; `button`: the card's element, where the card flies from.
export function clickCard(tbl, card, kind, button) {
  performance.mark("card-click"); // to the card drawn in the trick: the "own-move" measure (trick.js)
  const { ctx, conn } = tbl;
  const latest = latestView(tbl);
  if (!latest || mySeat(tbl) === null || !ctx.table || ctx.table.status !== "playing" || latest.over) return;
  if (conn.busy) {
    note(tbl, t("Your move is on its way."));
    return;
  }
  const legal = latest.legal.some((a) => a[kind] === card);
  if (legal) {
    ctx.preselected = null;
    if (kind === "play") playNow(tbl, card, button, true);
    else {
      fastForward(tbl);
      act(tbl, { [kind]: card });
    }
  } else if (!latest.legal.length && latest.phase === "play" && settings.preselect) {
    ctx.preselected = ctx.preselected === card ? null : card;
    note(tbl, ctx.preselected
      ? t("{card} will be played when it is your turn.", { card: cardName(card) })
      : t("Pre-selection cancelled."));
  } else {
    note(tbl, whyIllegal(latest, card));
  }
}

// Play `card` now, drawn in the trick before the server answers; `clicked`: by the player's
// click (not a play aid), measured. The trick and the hand are drawn at once, the rest of the
// table right after that frame.
function playNow(tbl, card, button, clicked = false) {
  const { ctx } = tbl;
  fastForward(tbl, false);
  const v = view(tbl);
  const id = canAct(tbl) ? tbl.conn.act({ play: card }) : null;
  if (!id) {
    tbl.render();
    return;
  }
  ctx.error = null;
  ctx.note = null;
  ctx.move = { card, id, deal: v.deal, clicked };
  if (button && button.isConnected) {
    flights(ctx).set(`${v.deal}:${card}`, button.getBoundingClientRect());
    // Keyboard focus stays in the hand (the next render puts it on a card again).
    if (button === document.activeElement) tbl.page.querySelector(".hand")?.focus({ preventScroll: true });
    button.remove();
  }
  // Nothing else is on offer until the server answers (the full drawing comes a frame later).
  for (const other of tbl.page.querySelectorAll('.card-btn[data-playable="true"]')) {
    other.dataset.playable = "false";
    other.classList.remove("playable");
  }
  renderTrick(tbl, displayed(tbl));
  cardSound(v.deal, card);
  requestAnimationFrame(() => setTimeout(() => tbl.render(), 0));
}

// The view to draw: the state on screen with your card in the trick while the server has not
// answered. A refused card goes back to your hand, with a sentence saying so.
export function displayed(tbl) {
  const { ctx, conn } = tbl;
  const v = view(tbl);
  const move = ctx.move;
  if (!move || !v) return v;
  if (v.deal !== move.deal || isPlayed(v, move.card)) {
    ctx.move = null; // the server's state has it
    return v;
  }
  const latest = latestView(tbl);
  // Answered (ack or error), and the newest state of the same deal has not got it: refused.
  // (A newer deal means it was played: the ack may come after the next deal's first state.)
  if (!conn.pending.has(move.id) && latest.deal === move.deal && !isPlayed(latest, move.card)) {
    ctx.move = null;
    flights(ctx).delete(`${move.deal}:${move.card}`);
    note(tbl, t("{card} could not be played and is back in your hand.", { card: cardName(move.card) }));
    return v;
  }
  return withMove(v, mySeat(tbl), move.card);
}

// After each drawing: when it is your turn, play the pre-selected card (if it is legal; else
// say why not) or, with auto-play on, the only legal card, after a short pause.
export function playAids(tbl) {
  const { ctx } = tbl;
  const v = view(tbl);
  if (ctx.aidTimer || !canAct(tbl) || v.phase !== "play") return;
  let card = null;
  let pause = FORCED_PAUSE_MS;
  if (ctx.preselected) {
    const why = whyIllegal(v, ctx.preselected);
    if (why) {
      const name = cardName(ctx.preselected);
      ctx.preselected = null;
      note(tbl, t("Your pre-selected {card} cannot be played: {reason}", { card: name, reason: why }));
    } else {
      card = ctx.preselected;
      pause = PRESELECTED_PAUSE_MS;
    }
  }
  if (!card && settings.auto_play) card = forcedCard(v);
  if (!card) return;
  ctx.aidTimer = setTimeout(() => {
    ctx.aidTimer = null;
    if (ctx.stopped) return;
    const now = view(tbl);
    const still = card === ctx.preselected || (settings.auto_play && forcedCard(now) === card);
    if (still && canAct(tbl) && now.legal.some((a) => a.play === card)) {
      ctx.preselected = null;
      const button = tbl.page.querySelector(`.card-btn[data-card="${card}"]`);
      playNow(tbl, card, button);
    }
  }, pause);
}
