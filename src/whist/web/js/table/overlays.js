// The panel beside the table (below it on a phone), which never covers a seat or your hand:
// a finished deal's summary until the next deal needs you (then it folds to one line that
// opens again), and the match end.
import { replace } from "../dom.js";
import { currentLanguage } from "../i18n.js";
import { refreshMe } from "./connect.js";
import { matchEndPanel } from "./match_end.js";
import { mySeat } from "./seats.js";
import { summaryPanel } from "./summary.js";

const RESULT_DELAY_MS = 1200; // the XP and unlocks are asked for after the match ends
const SUMMARY_MIN_MS = 6000; // a deal's summary stays open at least this long (time to read it)

export function dealEvents(tbl, prev, next) {
  const { ctx } = tbl;
  const a = prev && prev.view;
  const b = next.view;
  if (a && b.history.length > a.history.length && b.history.length > 0) {
    // A deal ended: its summary, open (the previous one goes).
    ctx.summary = { deal: b.history[b.history.length - 1], scores: b.scores.slice(), open: true, folded: false };
    clearTimeout(ctx.summaryTimer);
    ctx.summaryTimer = setTimeout(() => tbl.render(), SUMMARY_MIN_MS); // then it may step aside
    ctx.summarySince = Date.now();
  }
  if (b.over && !ctx.resultShown) {
    ctx.resultShown = true;
    setTimeout(async () => {
      if (ctx.stopped) return;
      await refreshMe(tbl);
      tbl.render();
    }, RESULT_DELAY_MS);
  }
}

// The summary steps aside: it was read (open long enough) and the next deal needs you.
function stepsAside(ctx, v, me) {
  const summary = ctx.summary;
  if (!summary.open || summary.folded || Date.now() - ctx.summarySince < SUMMARY_MIN_MS) return false;
  return me !== null && v.deal !== null && v.deal > summary.deal.index && v.to_act.includes(me) && v.legal.length > 0;
}

export function renderOverlay(tbl, v, table) {
  const { ctx } = tbl;
  const summary = ctx.summary;
  // A finished match ends on screen with the state that ends it, not while the last plays are
  // still drawn (the table's status comes with the newest state, `v` is the one on screen).
  const ended = v.over || table.status === "abandoned" || (table.status === "finished" && ctx.shown === ctx.latest);
  if (summary && stepsAside(ctx, v, mySeat(tbl))) {
    summary.open = false; // steps aside once; the player may open it again
    summary.folded = true;
  }
  const key = JSON.stringify([currentLanguage(), summary && [summary.deal.index, summary.open], ended, table.status,
    table.rematch, ctx.rematchDeclined, ctx.xp, ctx.unlockedNow, v.scores, mySeat(tbl),
    table.seats.map((s) => [s.kind, s.nickname, s.bot])]);
  if (key === ctx.overlayKey) return; // unchanged: keep the panel (and its focus)
  ctx.overlayKey = key;
  tbl.overlay.classList.toggle("ended", ended);
  if (ended) {
    replace(tbl.overlay, matchEndPanel(tbl, v, table));
  } else if (summary) {
    replace(tbl.overlay, summaryPanel(tbl, summary, () => {
      summary.open = !summary.open;
      tbl.render();
      tbl.overlay.querySelector("button").focus(); // the toggle, drawn anew
    }));
  } else {
    replace(tbl.overlay);
  }
}
