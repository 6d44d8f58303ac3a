// The table: every variant, live over the table's WebSocket. This module builds the page and
// draws it; each concern lives in table/: the connection state (connect.js), the state queue
// and its pauses (queue.js, timing.js), seats (seats.js, seat_panel.js), the felt and trick
// (felt.js), your hand (hand.js), bids and choices (choices.js), the status line, info bar,
// the panel beside the felt (overlays.js: deal summary, match end) and dialogs, and one module
// per mechanic (table/mechanics/). What a variant is made of comes with every view
// (view.facts); nothing here tests a variant's key.
import { onAppearanceChange } from "./cards.js";
import { h, replace } from "./dom.js";
import { t } from "./i18n.js";
import { session } from "./session.js";
import { loadSettings, onSettingsChange } from "./settings.js";
import { variantName } from "./variants.js";
import { renderActions } from "./table/choices.js";
import { startClocks } from "./table/clock.js";
import { connect, showBanner } from "./table/connect.js";
import { buildDialogs } from "./table/dialogs.js";
import { renderFelt } from "./table/felt.js";
import { focusKey, handleCardKeys, renderHand, restoreFocus } from "./table/hand.js";
import { hintLineElement, renderHint } from "./table/hint.js";
import { renderInfo, renderToolbar } from "./table/info.js";
import { displayed } from "./table/moves.js";
import { renderOverlay } from "./table/overlays.js";
import { players } from "./table/seats.js";
import { renderStatus } from "./table/status.js";

export async function mount(main, params) {
  const tableId = params.id;
  const ctx = {
    latest: null, // the newest state message
    shown: null, // the state on screen (behind latest while plays are animated)
    table: null, // table info (presence updates arrive between states)
    queue: [],
    holdUntil: 0,
    timer: null,
    seenAt: new Map(), // animation key -> when it was first drawn (animations never restart)
    revealAt: new Map(), // "deal:i" -> when reveal entry i shows (one by one)
    revealTimer: null,
    overlayKey: null,
    xp: null,
    meBefore: session.me ? { ...session.me, unlocked: { ...session.me.unlocked } } : null,
    unlockedNow: null,
    summary: null, // the last finished deal's summary: {deal, scores, open, folded}
    summarySince: 0, // when it opened
    summaryTimer: null, // draws the page again when it may step aside
    rematchDeclined: null, // the rematch table this player declined
    resultShown: false,
    skew: null, // server clock minus ours (ms), estimated from fresh deadlines
    deadlinesSeen: new Set(),
    error: null,
    hint: null, // the hint asked for or shown: {id, waiting, action, text} (table/hint.js)
    status: "connecting",
    stopped: false,
  };

  // The table's shared state: every table/ module takes it first.
  const tbl = {
    tableId,
    ctx,
    conn: null,
    render: () => render(tbl),
    banner: document.getElementById("connection-banner"),
    announcer: h("div", { class: "sr-only", "aria-live": "polite", "aria-atomic": "true", "data-testid": "announcer" }),
    statusLine: h("p", { class: "status-line", "data-testid": "status", role: "status" }),
    hintLine: hintLineElement(),
    infoBar: h("div", { class: "info-bar", "data-testid": "info-bar" }),
    toolbar: h("div", { class: "table-toolbar" }),
    felt: h("div", { class: "felt", "data-testid": "felt" }),
    actions: h("div", { class: "actions", "data-testid": "actions" }),
    handArea: h("div", { class: "hand-area" }),
    overlay: h("aside", { class: "match-panel", "data-testid": "match-panel" }), // beside the felt, never over it
    resignDialog: h("dialog", { class: "dialog", "data-testid": "resign-dialog", "aria-labelledby": "resign-title" }),
    leaveDialog: h("dialog", { class: "dialog", "data-testid": "leave-dialog", "aria-labelledby": "leave-title" }),
    sheetDialog: h("dialog", { class: "dialog dialog-wide", "data-testid": "score-sheet", "aria-labelledby": "sheet-title" }),
  };
  tbl.page = h("section", { class: "page table-page", "data-testid": "table-page" },
    h("h1", { class: "sr-only", id: "table-title" }, t("Table")),
    h("div", { class: "table-head" }, tbl.infoBar, tbl.toolbar),
    h("div", { class: "table-stage" }, tbl.felt, tbl.overlay),
    tbl.statusLine,
    tbl.hintLine,
    tbl.handArea,
    tbl.announcer,
    tbl.resignDialog, tbl.leaveDialog, tbl.sheetDialog);
  main.append(tbl.page);

  tbl.conn = connect(tbl);
  showBanner(tbl.banner, "connecting");
  buildDialogs(tbl);
  handleCardKeys(tbl.page);
  const clockTimer = startClocks(ctx, tbl.page);
  const offAppearance = onAppearanceChange(() => render(tbl));
  const offSettings = onSettingsChange(() => render(tbl));
  loadSettings();
  tbl.conn.start();

  return {
    unmount: () => {
      ctx.stopped = true;
      tbl.conn.stop();
      clearTimeout(ctx.timer);
      clearTimeout(ctx.summaryTimer);
      clearInterval(clockTimer);
      clearTimeout(ctx.revealTimer);
      offAppearance();
      offSettings();
      tbl.banner.hidden = true;
    },
    relabel: () => {
      buildDialogs(tbl);
      render(tbl);
    },
  };
}

function render(tbl) {
  const { ctx, page } = tbl;
  if (ctx.stopped) return;
  const focus = focusKey(page, document.activeElement);
  if (!ctx.shown) {
    renderWaiting(tbl);
    return;
  }
  const v = displayed(tbl); // your card already in the trick while it is sent
  const table = ctx.table;
  page.dataset.variant = v.variant;
  page.dataset.players = String(players(tbl));
  page.dataset.phase = v.phase;
  page.dataset.status = table.status;
  document.getElementById("table-title").textContent = t("{variant} table", { variant: variantName(v.variant) });
  renderInfo(tbl, v);
  renderToolbar(tbl, v, table);
  renderFelt(tbl, v, table);
  renderStatus(tbl, v, table);
  renderActions(tbl, v, table);
  renderHand(tbl, v);
  renderHint(tbl, v, table); // after the hand and the buttons: it outlines the suggestion
  renderOverlay(tbl, v, table);
  // Keep keyboard focus across renders (the cards and buttons are drawn anew).
  restoreFocus(page, focus);
}

// Before the first state: connecting, or the table is gone (its record may still be there).
function renderWaiting(tbl) {
  const gone = tbl.ctx.status === "gone";
  replace(tbl.statusLine, gone ? t("This table does not exist any more.") : t("Connecting…"));
  if (gone) {
    const id = encodeURIComponent(tbl.tableId);
    replace(tbl.handArea, h("div", { class: "button-row" },
      h("a", { href: `#/games/${id}`, class: "btn" }, t("Score sheet and replay")),
      h("a", { href: "#/lobby", class: "btn btn-primary" }, t("Back to the lobby"))));
  }
}
