// The table's connection state: the socket's messages into the table's state, the banner
// over the page while it is not connected, and the player's XP and unlocks after a match.
import { TableConnection, secondsLeft } from "../connection.js";
import { h, replace } from "../dom.js";
import { t } from "../i18n.js";
import { errorText } from "../labels.js";
import { loadMe, toast } from "../session.js";
import { noteDeadlines } from "./clock.js";
import { receiveHint } from "./hint.js";
import { receiveState } from "./queue.js";

const BANNERS = {
  reconnecting: { text: () => t("Reconnecting…"), cls: "warn" },
  connecting: { text: () => t("Connecting…"), cls: "" },
  gone: { text: () => t("This table does not exist any more."), cls: "error" },
  forbidden: { text: () => t("The server refused the connection."), cls: "error" },
};

let countdown = null; // the banner's ticking countdown (there is one banner per page)
// The banner's text and "Retry now" button while reconnecting: kept from one try to the
// next, so that the button stays put under a finger and keeps the keyboard focus.
let retryParts = null;

// The banner for ``status``. While reconnecting with ``retry`` (a function): the seconds
// until the next try (``at``, ms since the epoch) and a "Retry now" button.
export function showBanner(banner, status, retry = null, at = 0) {
  clearInterval(countdown);
  const shown = BANNERS[status];
  banner.hidden = !shown;
  banner.className = `connection-banner${shown && shown.cls ? ` ${shown.cls}` : ""}`;
  if (!shown || status !== "reconnecting" || !retry) {
    retryParts = null;
    replace(banner, shown ? shown.text() : "");
    return;
  }
  if (!retryParts || retryParts.retry !== retry) {
    retryParts = {
      retry,
      // The banner is a live region: a screen reader hears "Reconnecting…" once, not every
      // second of the countdown, which is for the eyes only.
      spoken: h("span", { class: "sr-only" }),
      text: h("span", { "aria-hidden": "true", "data-testid": "reconnect-text" }),
      button: h("button", { type: "button", class: "btn btn-small", "data-testid": "retry-now", onclick: retry }),
    };
    replace(banner, retryParts.spoken, retryParts.text, " ", retryParts.button);
  }
  const { spoken, text, button } = retryParts;
  if (spoken.textContent !== shown.text()) spoken.textContent = shown.text();
  button.textContent = t("Retry now");
  const tick = () => {
    if (banner.hidden) {
      clearInterval(countdown); // the table was left
      return;
    }
    const seconds = secondsLeft(at, Date.now());
    const now = seconds ? t("Reconnecting in {n} s…", { n: seconds }) : shown.text();
    if (text.textContent !== now) text.textContent = now;
  };
  tick();
  countdown = setInterval(tick, 250);
}

export function connect(tbl) {
  const { ctx } = tbl;
  const conn = new TableConnection(tbl.tableId, {
    onState: (message, first) => receiveState(tbl, message, first),
    onTable: (table) => {
      ctx.table = table;
      noteDeadlines(ctx, table);
      if (ctx.latest) ctx.latest.table = table;
      if (ctx.shown) {
        ctx.shown.table = table;
        tbl.render();
      }
    },
    onAck: () => tbl.render(),
    onError: (code, message, mine) => {
      ctx.error = errorText(code, message);
      if (mine) toast(ctx.error, "error");
      tbl.render();
    },
    onHint: (message) => receiveHint(tbl, message),
    onXp: async (gained) => {
      ctx.xp = (ctx.xp || 0) + gained;
      await refreshMe(tbl);
      tbl.render();
    },
    onStatus: (status, _attempt, delay) => {
      ctx.status = status;
      showBanner(tbl.banner, status, retry, Date.now() + (delay || 0));
      tbl.render();
    },
  });
  // "Retry now": the banner says it is trying, and the socket tries at once.
  const retry = () => {
    showBanner(tbl.banner, "reconnecting", retry);
    conn.reconnectNow();
  };
  return conn;
}

// What the match brought: card backs and faces unlocked, and a new level.
export async function refreshMe(tbl) {
  const before = tbl.ctx.meBefore;
  const me = await loadMe();
  if (me && before) {
    const backs = me.unlocked.card_backs.filter((b) => !before.unlocked.card_backs.includes(b));
    const faces = me.unlocked.card_faces.filter((f) => !before.unlocked.card_faces.includes(f));
    tbl.ctx.unlockedNow = { backs, faces, level: me.level > before.level ? me.level : null };
  }
}
