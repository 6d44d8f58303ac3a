// The states as they arrive, drawn one after another with a pause after each (timing.js), so
// that every play can be seen; a snapshot or a long backlog is drawn at once. A move of your
// own never waits for the pauses: fastForward draws the newest state at once.
import { reducedMotion } from "../dom.js";
import { holdFactor } from "../settings.js";
import { announce } from "./announce.js";
import { noteDeadlines } from "./clock.js";
import { playSequence } from "./layout.js";
import { dealEvents } from "./overlays.js";
import { soundCues } from "./sound.js";
import { holdFor } from "./timing.js";

export function receiveState(tbl, message, first) {
  const { ctx } = tbl;
  ctx.latest = message;
  ctx.table = message.table;
  noteDeadlines(ctx, message.table);
  const behind = ctx.queue.length;
  if (first || !ctx.shown || behind > 12 || (message.view.deal !== ctx.shown.view.deal && behind > 4)) {
    // The snapshot after a (re)connect, or far behind: show the newest at once.
    stopTimer(ctx);
    ctx.queue = [];
    show(tbl, message, true);
    return;
  }
  ctx.queue.push(message);
  pump(tbl);
}

// Put the newest state on screen now, the plays still waiting in the queue included (they
// still travel to the trick, only without their pauses): the player acts on what the server
// has. `draw`: false when the caller draws.
export function fastForward(tbl, draw = true) {
  const { ctx } = tbl;
  if (!ctx.queue.length) return;
  stopTimer(ctx);
  const newest = ctx.queue.at(-1);
  ctx.queue = [];
  show(tbl, newest, false, draw);
  ctx.holdUntil = 0;
}

function stopTimer(ctx) {
  clearTimeout(ctx.timer);
  ctx.timer = null;
}

function pump(tbl) {
  const { ctx } = tbl;
  if (ctx.stopped || ctx.timer) return;
  const wait = ctx.holdUntil - Date.now();
  if (wait > 0) {
    ctx.timer = setTimeout(() => {
      ctx.timer = null;
      pump(tbl);
    }, wait);
    return;
  }
  const next = ctx.queue.shift();
  if (!next) return;
  show(tbl, next, false);
  pump(tbl);
}

function show(tbl, message, instant, draw = true) {
  const { ctx } = tbl;
  const prev = ctx.shown;
  ctx.shown = message;
  if (instant) {
    // A snapshot (first state, reconnect, catching up): nothing to replay.
    message.view.revealed.forEach((_, i) => ctx.revealAt.set(`${message.view.deal}:${i}`, 0));
    playSequence(message.view).forEach((p) => ctx.seenAt.set(`${message.view.deal}:${p.card}`, 0));
  }
  const hold = instant ? 0 : holdFor(prev, message);
  const speed = holdFactor() * (reducedMotion() ? 0.5 : 1);
  const crowded = ctx.queue.length > 6 ? 0.3 : 1;
  ctx.holdUntil = Date.now() + hold * speed * crowded;
  announce(tbl, prev, message);
  if (!instant) soundCues(prev, message);
  dealEvents(tbl, prev, message);
  if (draw) tbl.render();
}

// An element is drawn with its entry animation only during the first moments after it
// first appeared, so re-rendering (presence, acks, clocks) never replays an animation.
export function fresh(ctx, key, window = 450) {
  const now = Date.now();
  if (!ctx.seenAt.has(key)) ctx.seenAt.set(key, now);
  return now - ctx.seenAt.get(key) < window;
}
