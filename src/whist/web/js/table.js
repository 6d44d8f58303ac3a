// The table: every variant, live over the table's WebSocket.
import { get, post } from "./api.js";
import { backImg, cardImg, onAppearanceChange, sortCards } from "./cards.js";
import { TableConnection } from "./connection.js";
import { $, $all, h, reducedMotion, replace } from "./dom.js";
import { currentLanguage, t } from "./i18n.js";
import {
  SUIT_SYMBOL, bidName, botLevelName, cardName, errorText, optionsSummary, relativeName,
  seatNumber, suitName, suitNameCapital, targetText, variantName,
} from "./labels.js";
import { inviteUrl } from "./lobby.js";
import { loadMe, navigate, session, toast } from "./session.js";
import { scoreSheetTable } from "./sheet.js";

const REVEAL_STEP = 800; // ms between two revealed bids or bottom cards
const CONTRACT_VARIANTS = new Set(["minnesota", "swedish", "plockwhist"]);
const STOCK_VARIANTS = new Set(["german", "plockwhist"]);

function positions(players) {
  return players === 2 ? ["bottom", "top"] : ["bottom", "left", "top", "right"];
}

function clockText(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const m = Math.floor(total / 60);
  const s = total % 60;
  return `${m}:${String(s).padStart(2, "0")}`;
}

function played(view) {
  let n = view.trick.length;
  for (const trick of view.tricks) n += trick.cards.length;
  return n;
}

// Every card of the deal in playing order with its seat.
function playSequence(view) {
  const n = view.hand_sizes.length;
  const out = [];
  view.tricks.forEach((trick, index) => {
    trick.cards.forEach((card, i) => out.push({ card, seat: (trick.leader + i) % n, trick: index }));
  });
  if (view.leader !== null) {
    view.trick.forEach((card, i) => out.push({ card, seat: (view.leader + i) % n, trick: view.tricks.length }));
  }
  return out;
}

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
    summary: null, // deal summary shown
    summaryTimer: null,
    resultShown: false,
    skew: null, // server clock minus ours (ms), estimated from fresh deadlines
    deadlinesSeen: new Set(),
    focusCard: null,
    error: null,
    status: "connecting",
    stopped: false,
  };

  // ------------------------------------------------------------------ skeleton
  const banner = document.getElementById("connection-banner");
  const announcer = h("div", { class: "sr-only", "aria-live": "polite", "aria-atomic": "true", "data-testid": "announcer" });
  const statusLine = h("p", { class: "status-line", "data-testid": "status", role: "status" });
  const infoBar = h("div", { class: "info-bar", "data-testid": "info-bar" });
  const toolbar = h("div", { class: "table-toolbar" });
  const felt = h("div", { class: "felt", "data-testid": "felt" });
  const actions = h("div", { class: "actions", "data-testid": "actions" });
  const handArea = h("div", { class: "hand-area" });
  const overlay = h("div", { class: "overlay-area" });
  const resignDialog = h("dialog", { class: "dialog", "data-testid": "resign-dialog", "aria-labelledby": "resign-title" });
  const leaveDialog = h("dialog", { class: "dialog", "data-testid": "leave-dialog", "aria-labelledby": "leave-title" });
  const sheetDialog = h("dialog", { class: "dialog dialog-wide", "data-testid": "score-sheet", "aria-labelledby": "sheet-title" });
  const page = h("section", { class: "page table-page", "data-testid": "table-page" },
    h("h1", { class: "sr-only", id: "table-title" }, t("Table")),
    h("div", { class: "table-head" }, infoBar, toolbar),
    felt,
    statusLine,
    handArea,
    overlay,
    announcer,
    resignDialog, leaveDialog, sheetDialog);
  main.append(page);

  const conn = new TableConnection(tableId, {
    onState: (message, first) => receiveState(message, first),
    onTable: (table) => {
      ctx.table = table;
      noteDeadlines(table);
      if (ctx.latest) ctx.latest.table = table;
      if (ctx.shown) {
        ctx.shown.table = table;
        render();
      }
    },
    onAck: () => render(),
    onError: (code, message, mine) => {
      ctx.error = errorText(code, message);
      if (mine) toast(ctx.error, "error");
      render();
    },
    onXp: async (gained) => {
      ctx.xp = (ctx.xp || 0) + gained;
      await refreshMe();
      render();
    },
    onStatus: (status, attempt, delay) => {
      ctx.status = status;
      showBanner(status, attempt, delay);
      render();
    },
  });

  function showBanner(status) {
    if (status === "open") {
      banner.hidden = true;
      banner.textContent = "";
      banner.className = "connection-banner";
      return;
    }
    banner.hidden = false;
    if (status === "reconnecting") {
      banner.textContent = t("Reconnecting…");
      banner.className = "connection-banner warn";
    } else if (status === "connecting") {
      banner.textContent = t("Connecting…");
      banner.className = "connection-banner";
    } else if (status === "gone") {
      banner.textContent = t("This table does not exist any more.");
      banner.className = "connection-banner error";
    } else if (status === "forbidden") {
      banner.textContent = t("The server refused the connection.");
      banner.className = "connection-banner error";
    }
  }
  showBanner("connecting");

  async function refreshMe() {
    const before = ctx.meBefore;
    const me = await loadMe();
    if (me && before) {
      const backs = me.unlocked.card_backs.filter((b) => !before.unlocked.card_backs.includes(b));
      const faces = me.unlocked.card_faces.filter((f) => !before.unlocked.card_faces.includes(f));
      ctx.unlockedNow = { backs, faces, level: me.level > before.level ? me.level : null };
    }
  }

  // ------------------------------------------------------------ state queue
  function receiveState(message, first) {
    ctx.latest = message;
    ctx.table = message.table;
    noteDeadlines(message.table);
    const behind = ctx.queue.length;
    if (first || !ctx.shown || behind > 12 || (message.view.deal !== ctx.shown.view.deal && behind > 4)) {
      // The snapshot after a (re)connect, or far behind: show the newest at once.
      clearTimeout(ctx.timer);
      ctx.timer = null;
      ctx.queue = [];
      show(message, true);
      return;
    }
    ctx.queue.push(message);
    pump();
  }

  function pump() {
    if (ctx.stopped || ctx.timer) return;
    const wait = ctx.holdUntil - Date.now();
    if (wait > 0) {
      ctx.timer = setTimeout(() => {
        ctx.timer = null;
        pump();
      }, wait);
      return;
    }
    const next = ctx.queue.shift();
    if (!next) return;
    show(next, false);
    pump();
  }

  function show(message, instant) {
    const prev = ctx.shown;
    ctx.shown = message;
    if (instant) {
      // A snapshot (first state, reconnect, catching up): nothing to replay.
      message.view.revealed.forEach((_, i) => ctx.revealAt.set(`${message.view.deal}:${i}`, 0));
      playSequence(message.view).forEach((p) => ctx.seenAt.set(`${message.view.deal}:${p.card}`, 0));
    }
    const hold = instant ? 0 : holdFor(prev, message);
    const speed = reducedMotion() ? 0.5 : 1;
    const crowded = ctx.queue.length > 6 ? 0.3 : 1;
    ctx.holdUntil = Date.now() + hold * speed * crowded;
    announce(prev, message);
    dealEvents(prev, message);
    render(prev);
  }

  function holdFor(prev, next) {
    if (!prev) return 0;
    const a = prev.view;
    const b = next.view;
    const me = b.seat;
    let hold = 0;
    if (a.deal === b.deal) {
      if (b.tricks.length > a.tricks.length) hold = 1500;
      else if (played(b) > played(a)) {
        const last = playSequence(b).at(-1);
        hold = last && last.seat === me ? 250 : 650;
      }
      const newReveals = b.revealed.length - a.revealed.length;
      if (newReveals > 0) hold = Math.max(hold, revealStep(b) * newReveals + 900);
    } else if (b.history.length > a.history.length) {
      hold = 700;
    }
    return hold;
  }

  // ------------------------------------------------------------- animation
  // An element is drawn with its entry animation only during the first moments after it
  // first appeared, so re-rendering (presence, acks, clocks) never replays an animation.
  function fresh(key, window = 450) {
    const now = Date.now();
    if (!ctx.seenAt.has(key)) ctx.seenAt.set(key, now);
    return now - ctx.seenAt.get(key) < window;
  }

  // Reveal entries (bids, bottom cards) show one by one, REVEAL_STEP apart.
  function revealStep(v) {
    return v.variant === "swedish" && v.options && v.options.reveal === "simultaneous" ? 0 : REVEAL_STEP;
  }

  function revealState(v) {
    const now = Date.now();
    const step = revealStep(v);
    let previous = 0;
    let next = null;
    const out = v.revealed.map((entry, i) => {
      const key = `${v.deal}:${i}`;
      if (!ctx.revealAt.has(key)) ctx.revealAt.set(key, Math.max(now, previous + step));
      const at = ctx.revealAt.get(key);
      previous = at;
      if (at > now && (next === null || at < next)) next = at;
      return { ...entry, index: i, visible: at <= now, pop: at <= now && now - at < 600 };
    });
    if (next !== null && !ctx.revealTimer) {
      ctx.revealTimer = setTimeout(() => {
        ctx.revealTimer = null;
        render();
      }, next - now + 10);
    }
    return out;
  }

  // ---------------------------------------------------------------- helpers
  const view = () => ctx.shown && ctx.shown.view;
  const players = () => (view() ? view().hand_sizes.length : ctx.table ? ctx.table.seats.length : 4);
  const mySeat = () => {
    const v = view();
    if (v && v.seat !== null && v.seat !== undefined) return v.seat;
    return ctx.table && ctx.table.you !== null && ctx.table.you !== undefined ? ctx.table.you : null;
  };
  const anchor = () => (mySeat() === null ? 0 : mySeat());
  const rel = (seat) => (seat - anchor() + players()) % players();
  const posOf = (seat) => positions(players())[rel(seat)];

  function seatName(seat) {
    if (seat === mySeat()) return t("You");
    const info = ctx.table && ctx.table.seats[seat];
    if (!info) return seatNumber(seat);
    if (info.nickname) return info.nickname;
    if (info.kind === "bot") return t("Bot ({level})", { level: botLevelName(info.bot) });
    return seatNumber(seat);
  }

  function sideName(side) {
    const n = players();
    const me = mySeat();
    if (n === 2) return seatName(side);
    if (me !== null) return side === me % 2 ? t("Us") : t("Them");
    return t("{a} & {b}", { a: seatName(side), b: seatName(side + 2) });
  }

  function contractText(contract) {
    if (!contract) return null;
    const seat = contract.grander ?? contract.declarer ?? contract.bidder;
    switch (contract.mode) {
      case "high":
        return seat === mySeat() ? t("High: you grand") : t("High: {name} grands", { name: seatName(seat) });
      case "low": return t("Low (nullo)");
      case "spel":
        if (seat === mySeat()) return contract.bidder !== undefined ? t("Spel: you bid spel") : t("Spel: you declare");
        return contract.bidder !== undefined
          ? t("Spel: {name} bid spel", { name: seatName(seat) })
          : t("Spel: {name} declares", { name: seatName(seat) });
      case "noll": return t("Nollspel");
      case "pass": return t("Pass game");
      default: return contract.mode;
    }
  }

  function canAct() {
    const v = view();
    // While reconnecting a click still counts: the action waits, and goes out (once) after
    // the reconnect if it is still legal in the fresh state.
    return !!v && ctx.shown === ctx.latest && ctx.queue.length === 0 && !conn.busy &&
      ctx.status !== "gone" && v.legal.length > 0 && ctx.table && ctx.table.status === "playing";
  }

  function act(action) {
    if (!canAct()) return;
    ctx.error = null;
    const id = conn.act(action);
    if (id) render();
  }

  function trumpNote() {
    const v = view();
    if (!v) return "";
    if (v.trump) return `${SUIT_SYMBOL[v.trump]} ${suitNameCapital(v.trump)}`;
    if (v.variant === "japanese" && v.phase === "trump") return t("to be chosen");
    return t("No trump");
  }

  // ------------------------------------------------------------ announcing
  function say(messages) {
    if (!messages.length) return;
    announcer.textContent = "";
    const text = messages.join(" ");
    setTimeout(() => {
      announcer.textContent = text;
    }, 30);
  }

  function announce(prev, next) {
    const messages = [];
    const a = prev && prev.view;
    const b = next.view;
    if (a && a.deal === b.deal) {
      const before = playSequence(a).length;
      const seq = playSequence(b);
      for (const item of seq.slice(before)) {
        messages.push(t("{name} played {card}.", { name: seatName(item.seat), card: cardName(item.card) }));
      }
      for (const trick of b.tricks.slice(a.tricks.length)) {
        messages.push(t("{name} won the trick.", { name: seatName(trick.winner) }));
      }
      for (const entry of b.revealed.slice(a.revealed.length)) {
        messages.push(revealSentence(entry));
      }
      if (!a.contract && b.contract) messages.push(contractText(b.contract) + ".");
      if (!a.trump && b.trump && b.variant === "japanese") {
        messages.push(t("Trump is {suit}.", { suit: suitName(b.trump) }));
      }
    } else if (b.deal !== null && (!a || a.deal !== b.deal)) {
      messages.push(t("Deal {n}.", { n: b.deal + 1 }));
    }
    const me = b.seat;
    const wasMine = a && me !== null && a.to_act.includes(me) && a.legal.length > 0;
    const isMine = me !== null && b.to_act.includes(me) && b.legal.length > 0;
    if (isMine && !wasMine) messages.push(t("Your turn."));
    else if (!isMine && b.to_act.length === 1 && (!a || a.to_act[0] !== b.to_act[0]) && b.phase === "play") {
      messages.push(t("{name} to play.", { name: seatName(b.to_act[0]) }));
    }
    if (b.over && !(a && a.over)) messages.push(t("The match is over."));
    say(messages);
  }

  function revealSentence(entry) {
    if (entry.choice.length === 2) {
      return t("{name} shows {card}.", { name: seatName(entry.seat), card: cardName(entry.choice) });
    }
    return t("{name} chose {bid}.", { name: seatName(entry.seat), bid: bidName(entry.choice) });
  }

  // ----------------------------------------------------- deal summary, result
  function dealEvents(prev, next) {
    const a = prev && prev.view;
    const b = next.view;
    if (a && b.history.length > a.history.length && b.history.length > 0) {
      showSummary(b.history[b.history.length - 1], b);
    }
    if (b.over && !ctx.resultShown) {
      ctx.resultShown = true;
      setTimeout(async () => {
        if (ctx.stopped) return;
        await refreshMe();
        render();
      }, 1200);
    }
  }

  function showSummary(deal, v) {
    ctx.summary = { deal, scores: v.scores.slice() };
    clearTimeout(ctx.summaryTimer);
    ctx.summaryTimer = setTimeout(() => {
      ctx.summary = null;
      render();
    }, 9000);
  }

  // ---------------------------------------------------------------- clocks
  function noteDeadlines(table) {
    if (!table || !table.clock) return;
    for (const [seat, deadline] of Object.entries(table.deadlines || {})) {
      const key = `${seat}:${deadline}`;
      if (ctx.deadlinesSeen.has(key)) continue;
      ctx.deadlinesSeen.add(key);
      // A new deadline is at most `clock` seconds after the server's now.
      const estimate = deadline - table.clock * 1000 - Date.now();
      if (ctx.skew === null || estimate > ctx.skew) ctx.skew = Math.min(estimate, 60 * 60 * 1000);
    }
  }

  function remaining(seat) {
    const table = ctx.table;
    if (!table || !table.deadlines) return null;
    const deadline = table.deadlines[String(seat)];
    if (deadline === undefined) return null;
    const skew = ctx.skew !== null && Math.abs(ctx.skew) > 1500 ? ctx.skew : 0;
    return deadline - (Date.now() + skew);
  }

  function clockSpan(seat, cls) {
    const left = remaining(seat);
    return h("span", {
      class: `${cls}${left !== null && left < 15000 ? " low" : ""}`,
      "data-clock-seat": seat,
      "data-testid": "clock",
      hidden: left === null,
    }, left === null ? "" : clockText(left));
  }

  const clockTimer = setInterval(() => {
    for (const el of $all("[data-clock-seat]", page)) {
      const left = remaining(Number(el.dataset.clockSeat));
      if (left === null) {
        el.hidden = true;
        continue;
      }
      el.hidden = false;
      const text = clockText(left);
      if (el.textContent !== text) el.textContent = text;
      el.classList.toggle("low", left < 15000);
    }
  }, 250);

  // --------------------------------------------------------------- render
  function render(prev) {
    if (ctx.stopped) return;
    const focus = focusKey(document.activeElement);
    if (!ctx.shown) {
      replace(statusLine, ctx.status === "gone" ? t("This table does not exist any more.") : t("Connecting…"));
      if (ctx.status === "gone") {
        replace(handArea, h("div", { class: "button-row" },
          h("a", { href: `#/games/${encodeURIComponent(tableId)}`, class: "btn" }, t("Score sheet and replay")),
          h("a", { href: "#/lobby", class: "btn btn-primary" }, t("Back to the lobby"))));
      }
      return;
    }
    const v = view();
    const table = ctx.table;
    page.dataset.variant = v.variant;
    page.dataset.players = String(players());
    page.dataset.phase = v.phase;
    page.dataset.status = table.status;
    document.getElementById("table-title").textContent = t("{variant} table", { variant: variantName(v.variant) });
    renderInfo(v, table);
    renderToolbar(v, table);
    renderFelt(v, table, prev && prev.view);
    renderStatus(v, table);
    renderActions(v, table);
    renderHand(v);
    renderOverlay(v, table);
    // Keep keyboard focus across renders: on the same card or button if it is still there,
    // else on the first playable card, the first decision button, or the hand.
    if (focus && !page.contains(document.activeElement)) {
      const target = (focus !== ".hand" && $(focus, page)) || $(".card-btn.playable", page) ||
        $(".actions button:not([disabled])", page) || $(".hand", page);
      if (target) target.focus({ preventScroll: true });
    }
  }

  function focusKey(el) {
    if (!(el instanceof HTMLElement) || !page.contains(el) || el.closest("dialog")) return null;
    if (el.classList.contains("card-btn")) return `.card-btn[data-card="${el.dataset.card}"]`;
    if (el.classList.contains("hand")) return ".hand";
    for (const name of ["bid", "trump", "take"]) {
      if (el.dataset[name]) return `[data-${name}="${el.dataset[name]}"]`;
    }
    if (el.dataset.testid) return `[data-testid="${el.dataset.testid}"]`;
    if (el.closest(".hand, .piles-mine, .actions")) return ".hand";
    return null;
  }

  function chip(label, value, testid, extra = "") {
    return h("div", { class: `info-chip ${extra}`, "data-testid": testid },
      h("span", { class: "info-label" }, label), h("span", { class: "info-value" }, value));
  }

  function renderInfo(v, table) {
    const n = players();
    const items = [chip(t("Game"), variantName(v.variant), "variant-name")];
    if (v.deal !== null) {
      items.push(chip(t("Deal"), t("{n} · dealer {name}", { n: v.deal + 1, name: seatName(v.dealer) }), "deal-info"));
    }
    items.push(chip(t("Trump"), trumpNote(), "trump", v.trump ? `suit-${v.trump}` : ""));
    if (CONTRACT_VARIANTS.has(v.variant)) {
      const revealing = revealState(v).some((e) => !e.visible);
      items.push(chip(t("Contract"), revealing ? t("being revealed…") : contractText(v.contract) || t("not yet decided"), "contract"));
    }
    const score = n === 2
      ? [0, 1].map((s) => `${sideName(s)} ${v.scores[s]}`).join(" – ")
      : (() => {
        const mine = mySeat() === null ? 0 : mySeat() % 2;
        return `${sideName(mine)} ${v.scores[mine]} – ${sideName(1 - mine)} ${v.scores[1 - mine]}`;
      })();
    items.push(chip(t("Score"), `${score}${targetText(v.options) ? ` (${targetText(v.options)})` : ""}`, "scores"));
    if (STOCK_VARIANTS.has(v.variant) && v.deal !== null) {
      const stageText = v.stage === 1 ? t("1: playing for the stock") : v.stage === 2 ? t("2: tricks count") : "—";
      items.push(chip(t("Stage"), stageText, "stage"));
      for (const stage of [1, 2]) {
        const counts = [0, 0];
        for (const trick of v.tricks) if (trick.stage === stage) counts[trick.winner % 2] += 1;
        items.push(chip(t("Stage {n} tricks", { n: stage }), `${sideName(0)} ${counts[0]} – ${sideName(1)} ${counts[1]}`, `stage${stage}-tricks`));
      }
    } else if (v.deal !== null) {
      const mine = mySeat() === null ? 0 : mySeat() % 2;
      items.push(chip(t("Tricks"), n === 2
        ? `${sideName(0)} ${v.won[0]} – ${sideName(1)} ${v.won[1]}`
        : `${sideName(mine)} ${v.won[mine]} – ${sideName(1 - mine)} ${v.won[1 - mine]}`, "tricks-won"));
    }
    replace(infoBar, items);
  }

  function renderToolbar(v, table) {
    const me = mySeat();
    const seated = me !== null;
    const humans = table.seats.filter((s) => s.kind === "human").length;
    const buttons = [
      h("button", { type: "button", class: "btn btn-small", "data-testid": "open-sheet", onclick: openSheet }, t("Score sheet")),
      h("a", { class: "btn btn-small btn-ghost", href: `#/rules/${v.variant}`, target: "_blank", rel: "noopener" }, t("Rules")),
    ];
    if (seated && table.status === "playing" && !v.over) {
      if (humans === 1) {
        buttons.push(h("button", { type: "button", class: "btn btn-small", "data-testid": "save-leave", onclick: saveAndLeave }, t("Save and leave")));
      } else {
        buttons.push(h("button", { type: "button", class: "btn btn-small", "data-testid": "leave", onclick: () => leaveDialog.showModal() }, t("Leave")));
      }
      if (v.deal !== null) {
        buttons.push(h("button", { type: "button", class: "btn btn-small btn-danger", "data-testid": "resign", onclick: () => resignDialog.showModal() }, t("Resign")));
      }
    }
    replace(toolbar, buttons);
  }

  // ---------------------------------------------------------------- felt
  function renderFelt(v, table, before) {
    const n = players();
    const cells = {};
    for (let seat = 0; seat < n; seat += 1) cells[posOf(seat)] = seatPanel(seat, v, table);
    const center = h("div", { class: "felt-center" },
      h("div", { class: "center-row" }, trickArea(v, before), sideWidgets(v)),
      actions);
    felt.dataset.players = String(n);
    const top = h("div", { class: "felt-top" }, cells.top);
    const bottom = h("div", { class: "felt-bottom" }, cells.bottom);
    if (v.variant === "japanese" && v.table.length) {
      const opp = (anchor() + 1) % 2;
      top.append(piles(v, opp, false));
      bottom.prepend(piles(v, anchor(), mySeat() !== null));
    }
    replace(felt,
      top,
      n === 4 ? h("div", { class: "felt-left" }, cells.left) : null,
      center,
      n === 4 ? h("div", { class: "felt-right" }, cells.right) : null,
      bottom);
  }

  function seatPanel(seat, v, table) {
    const info = table.seats[seat];
    const r = rel(seat);
    const n = players();
    const toAct = v.to_act.includes(seat) && table.status === "playing";
    const tricks = v.tricks.filter((tr) => tr.winner === seat).length;
    const presence = (() => {
      if (info.kind === "empty") return h("span", { class: "presence empty" }, t("Waiting for a player"));
      if (info.replaced) return h("span", { class: "presence replaced", "data-testid": "presence" }, t("Replaced by a computer player"));
      if (info.kind === "bot") return h("span", { class: "presence bot", "data-testid": "presence" }, t("Computer player"));
      const connected = seat === mySeat() ? ctx.status === "open" : info.connected;
      if (connected) return h("span", { class: "presence online", "data-testid": "presence" }, h("span", { class: "dot", "aria-hidden": "true" }), t("Connected"));
      return h("span", { class: "presence offline", "data-testid": "presence" }, h("span", { class: "dot", "aria-hidden": "true" }), t("Reconnecting…"));
    })();
    const badges = [];
    if (v.dealer === seat) badges.push(h("span", { class: "badge badge-dealer", title: t("Dealer") }, t("Dealer")));
    if (toAct) badges.push(h("span", { class: "badge badge-turn" }, v.phase === "bid" ? t("Choosing") : t("To play")));
    if (v.decided.includes(seat)) badges.push(h("span", { class: "badge badge-decided", "data-testid": "decided" }, "✓ ", t("Has chosen")));
    const entry = revealState(v).find((e) => e.seat === seat && e.visible);
    let reveal = null;
    if (entry) {
      reveal = h("div", { class: `seat-reveal${entry.pop ? " reveal-enter" : ""}`, "data-testid": "seat-reveal" },
        entry.choice.length === 2
          ? [h("span", { class: "mini-card" }, cardImg(entry.choice, { alt: cardName(entry.choice) })), h("span", null, isRedCard(entry.choice) ? t("Spel") : t("Pass"))]
          : h("span", { class: `bid-badge bid-${entry.choice}` }, bidName(entry.choice)));
    }
    // Cards seen going into this hand: German upcards taken (all of them), elsewhere only
    // those not shown already (a revealed bottom card) and not yet played.
    const playedCards = new Set(playSequence(v).map((p) => p.card));
    const revealedCards = new Set(v.revealed.map((e) => e.choice));
    const shown = (v.shown[seat] || []).filter((c) =>
      STOCK_VARIANTS.has(v.variant) || (!playedCards.has(c) && !revealedCards.has(c)));
    const handCount = v.hand_sizes[seat] || 0;
    const showBacks = seat !== mySeat() && handCount > 0;
    const label = relativeName(r, n);
    return h("div", {
      class: `seat seat-${posOf(seat)}${toAct ? " to-act" : ""}${seat === mySeat() ? " seat-me" : ""}`,
      "data-testid": `seat-${posOf(seat)}`,
      "data-seat": seat,
      "data-kind": info.kind,
      "data-connected": String(!!info.connected),
      "data-replaced": String(!!info.replaced),
      role: "group",
      "aria-label": `${label}: ${seatName(seat)}`,
    },
    h("div", { class: "seat-head" },
      h("span", { class: "seat-name" }, seatName(seat)),
      clockSpan(seat, "seat-clock")),
    h("div", { class: "seat-line" }, r !== 0 ? h("span", { class: "seat-role" }, label) : null, presence),
    badges.length ? h("div", { class: "seat-badges" }, badges) : null,
    h("div", { class: "seat-line" },
      showBacks ? h("div", { class: "seat-hand" },
        h("div", { class: "backs", "aria-hidden": "true" }, Array.from({ length: Math.min(handCount, 13) }, () => backImg())),
        h("span", { class: "count" }, t("{n} cards", { n: handCount }))) : null,
      v.deal !== null ? h("span", { class: "seat-tricks", "data-testid": "seat-tricks" }, t("Tricks: {n}", { n: tricks })) : null),
    reveal,
    shown.length ? h("div", { class: "seat-shown", "data-testid": "seat-shown" },
      h("span", { class: "small" }, STOCK_VARIANTS.has(v.variant) ? t("Took upcards:") : t("Known cards:")),
      shown.map((c) => h("span", { class: `mini-card${playedCards.has(c) ? " played" : ""}` }, cardImg(c, { alt: cardName(c) })))) : null);
  }

  function isRedCard(card) {
    return card[1] === "H" || card[1] === "D";
  }

  function trickArea(v, before) {
    const area = h("div", { class: "trick", "data-testid": "trick", role: "region", "aria-label": t("The trick") });
    const n = players();
    let cards = [];
    let winner = null;
    let done = false;
    if (v.trick.length && v.leader !== null) {
      cards = v.trick.map((card, i) => ({ card, seat: (v.leader + i) % n }));
    } else if (v.tricks.length) {
      const last = v.tricks[v.tricks.length - 1];
      cards = last.cards.map((card, i) => ({ card, seat: (last.leader + i) % n }));
      winner = last.winner;
      done = true;
    }
    void before;
    for (const { card, seat } of cards) {
      const entering = fresh(`${v.deal}:${card}`);
      area.append(h("div", {
        class: `trick-card at-${posOf(seat)}${entering ? " enter" : ""}${winner === seat ? " winner" : ""}${done ? " done" : ""}`,
        "data-card": card,
        "data-seat": seat,
        "data-testid": "trick-card",
      }, cardImg(card, { alt: t("{name}: {card}", { name: seatName(seat), card: cardName(card) }) })));
    }
    if (done && winner !== null) {
      const pop = fresh(`${v.deal}:won:${v.tricks.length}`, 300);
      area.append(h("div", { class: `trick-winner${pop ? " pop" : ""}`, "data-testid": "trick-winner" }, "★ ", t("{name} won the trick", { name: seatName(winner) })));
    }
    if (!cards.length) {
      const reveal = revealStrip(v);
      if (reveal) area.append(reveal);
    }
    return area;
  }

  function revealStrip(v) {
    const entries = revealState(v);
    if (!entries.length) return null;
    return h("ol", { class: "reveal-strip", "data-testid": "reveal", "aria-hidden": "true" },
      entries.map((entry) => h("li", {
        class: `reveal-item${entry.pop ? " reveal-enter" : ""}${entry.visible ? "" : " reveal-pending"}`,
        "data-seat": entry.seat,
        "data-visible": String(entry.visible),
      },
      h("span", { class: "reveal-name" }, seatName(entry.seat)),
      !entry.visible
        ? h("span", { class: "bid-badge bid-hidden" }, "?")
        : entry.choice.length === 2
          ? h("span", { class: "mini-card" }, cardImg(entry.choice, { alt: cardName(entry.choice) }))
          : h("span", { class: `bid-badge bid-${entry.choice}` }, bidName(entry.choice)))));
  }

  function sideWidgets(v) {
    const out = h("div", { class: "side-widgets" });
    if (v.trump_card) {
      out.append(h("div", { class: "widget trump-card", "data-testid": "trump-card" },
        h("span", { class: "widget-label" }, t("Turned trump card")),
        h("span", { class: "widget-card" }, cardImg(v.trump_card, { alt: cardName(v.trump_card) })),
        h("span", { class: "small" }, t("held by {name}", { name: seatName(v.dealer) }))));
    }
    if (STOCK_VARIANTS.has(v.variant) && v.deal !== null && (v.stock_size > 0 || v.discards.length)) {
      const stack = h("div", { class: "stock-stack", "aria-hidden": "true" },
        Array.from({ length: Math.min(4, Math.max(0, v.stock_size - (v.upcard ? 1 : 0))) }, () => backImg()));
      out.append(h("div", { class: "widget stock", "data-testid": "stock", "data-stock-size": v.stock_size },
        h("span", { class: "widget-label" }, t("Stock: {n} cards", { n: v.stock_size })),
        h("div", { class: "stock-cards" },
          stack,
          v.upcard ? h("span", { class: "widget-card upcard", "data-testid": "upcard", "data-card": v.upcard }, cardImg(v.upcard, { alt: t("Upcard: {card}", { card: cardName(v.upcard) }) })) : null),
        v.discards.length ? h("div", { class: "discards", "data-testid": "discards" },
          h("span", { class: "small" }, t("Discarded:")),
          v.discards.map((c) => h("span", { class: "mini-card" }, cardImg(c, { alt: cardName(c) })))) : null));
    }
    return out;
  }

  function legalSet(kind) {
    const v = view();
    const out = new Set();
    if (!v || !canAct()) return out;
    for (const item of v.legal) if (item[kind] !== undefined) out.add(item[kind]);
    return out;
  }

  function cardButton(card, kind, playableSet, yourTurn) {
    const playable = playableSet.has(card);
    const btn = h("button", {
      type: "button",
      class: `card-btn${playable ? " playable" : ""}${yourTurn && !playable ? " unplayable" : ""}`,
      "data-card": card,
      "data-testid": "card",
      "data-playable": String(playable),
      "aria-disabled": String(!playable),
      "aria-label": cardName(card),
      tabindex: "-1",
      onclick: () => {
        if (!playable) return;
        act({ [kind]: card });
      },
    }, cardImg(card));
    return btn;
  }

  function piles(v, seat, mine) {
    const playSet = mine ? legalSet("play") : new Set();
    const yourTurn = playSet.size > 0;
    const row = h("div", {
      class: `piles ${mine ? "piles-mine" : "piles-theirs"}`,
      "data-testid": mine ? "my-piles" : "their-piles",
      role: "group",
      "aria-label": mine ? t("Your table cards") : t("{name}'s table cards", { name: seatName(seat) }),
    });
    (v.table[seat] || []).forEach((pile, i) => {
      const cell = h("div", { class: "pile", "data-pile": i });
      if (pile.down) cell.append(h("span", { class: "pile-down" }, backImg("", t("Face-down card"))));
      if (pile.up) {
        cell.append(mine
          ? cardButton(pile.up, "play", playSet, yourTurn)
          : h("span", { class: "pile-up", "data-card": pile.up }, cardImg(pile.up, { alt: cardName(pile.up) })));
      }
      if (!pile.up && !pile.down) cell.classList.add("pile-empty");
      row.append(cell);
    });
    return row;
  }

  function renderHand(v) {
    const me = mySeat();
    if (me === null) {
      replace(handArea);
      return;
    }
    const kind = v.legal.some((a) => a.bottom !== undefined) ? "bottom" : "play";
    const playSet = legalSet(kind);
    const yourTurn = playSet.size > 0;
    const cards = sortCards(v.hand);
    const hand = h("div", {
      class: `hand${yourTurn ? " your-turn" : ""}`,
      "data-testid": "hand",
      role: "group",
      tabindex: "-1",
      "aria-label": kind === "bottom" ? t("Your hand: choose your bottom card") : t("Your hand"),
      "aria-describedby": "hand-help",
      style: { "--count": String(Math.max(cards.length, 1)) },
    });
    for (const card of cards) hand.append(cardButton(card, kind, playSet, yourTurn));
    if (!cards.length && v.hand_sizes[me] > 0) {
      // Japanese Whist, trick 1: the hand lies face down, unseen even by its owner.
      hand.append(h("div", { class: "hidden-hand" },
        Array.from({ length: v.hand_sizes[me] }, () => h("span", { class: "card-back-slot" }, backImg())),
        h("p", { class: "small" }, t("Your hand stays face down until the first trick is complete."))));
    }
    replace(handArea, hand, h("p", { id: "hand-help", class: "sr-only" },
      t("Use the arrow keys to move between the cards you may play, and Enter or Space to play one.")));
    setupRoving();
  }

  // Arrow keys move among the playable cards (hand and own table piles); Enter/Space plays.
  function setupRoving() {
    const playable = $all(".card-btn.playable", page);
    if (!playable.length) return;
    playable[0].tabIndex = 0;
  }

  page.addEventListener("keydown", (event) => {
    const target = event.target;
    if (!(target instanceof HTMLElement) || !target.classList.contains("card-btn")) return;
    if (event.key === "Enter" || event.key === " " || event.key === "Spacebar") {
      event.preventDefault(); // one activation, whatever the browser does with buttons
      if (!event.repeat) target.click();
      return;
    }
    const playable = $all(".card-btn.playable", page);
    if (!playable.length) return;
    let index = playable.indexOf(target);
    const keys = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };
    if (event.key in keys) {
      index = index < 0 ? 0 : (index + keys[event.key] + playable.length) % playable.length;
    } else if (event.key === "Home") index = 0;
    else if (event.key === "End") index = playable.length - 1;
    else return;
    event.preventDefault();
    for (const b of playable) b.tabIndex = -1;
    playable[index].tabIndex = 0;
    playable[index].focus();
  });

  // ---------------------------------------------------------- status line
  function renderStatus(v, table) {
    const me = mySeat();
    let text;
    if (ctx.status === "gone") text = t("This table does not exist any more.");
    else if (table.status === "open") {
      const free = table.seats.filter((s) => s.kind === "empty").length;
      text = t("Waiting for players: {n} free seats.", { n: free });
    } else if (table.status === "suspended") text = t("The match is saved. Open it again from My games.");
    else if (table.status === "abandoned") text = t("The match was abandoned.");
    else if (v.over || table.status === "finished") text = t("The match is over.");
    else if (conn.busy) text = ctx.status === "open" ? t("Sending…") : t("Your move will be sent when the connection is back.");
    else if (v.phase === "waiting") text = t("Dealing…");
    else {
      const mine = me !== null && v.to_act.includes(me) && v.legal.length > 0;
      const others = v.to_act.filter((s) => s !== me);
      if (mine) {
        if (v.phase === "bid") {
          if (v.legal.some((a) => a.bottom !== undefined)) text = t("Choose your bottom card: a red card bids spel, a black card bids pass.");
          else if (v.variant === "minnesota") text = t("Bid high or low.");
          else text = t("Bid spel or pass.");
        } else if (v.phase === "trump") text = t("Choose the trump suit.");
        else if (v.phase === "take") text = t("Keep or discard the stock card.");
        else text = v.trick.length ? t("Your turn: play a card.") : t("Your turn: lead a card.");
      } else if (v.phase === "bid" && me !== null && v.decided.includes(me)) {
        text = t("You have chosen. Waiting for the others…");
      } else if (others.length === 1) {
        const name = seatName(others[0]);
        if (v.phase === "bid") text = t("Waiting for {name} to bid.", { name });
        else if (v.phase === "trump") text = t("Waiting for {name} to choose trump.", { name });
        else if (v.phase === "take") text = t("Waiting for {name} to take from the stock.", { name });
        else text = t("Waiting for {name} to play.", { name });
      } else if (others.length > 1) text = t("Waiting for the others to choose…");
      else text = "";
    }
    if (ctx.error) text = `${ctx.error} ${text}`;
    const myClock = me !== null && remaining(me) !== null && v.to_act.includes(me)
      ? h("span", { class: "status-clock" }, t("Time left:"), " ", clockSpan(me, "")) : null;
    replace(statusLine, h("span", { class: "status-text" }, text), myClock);
  }

  // ------------------------------------------------------------- actions
  function bidButton(word, v) {
    const american = v.options && v.options.colours === "american";
    let colour;
    let sub;
    if (word === "high") {
      colour = american ? "black" : "red";
      sub = t("take tricks");
    } else if (word === "low") {
      colour = american ? "red" : "black";
      sub = t("avoid tricks");
    } else if (word === "spel") {
      colour = "red";
      sub = t("take tricks");
    } else {
      colour = "black";
      sub = t("avoid tricks");
    }
    const colourText = colour === "red" ? t("red") : t("black");
    const symbols = colour === "red" ? "♥♦" : "♠♣";
    return h("button", {
      type: "button",
      class: `btn bid-btn bid-${colour}`,
      "data-bid": word,
      "data-testid": `bid-${word}`,
      disabled: !canAct(),
      onclick: () => act({ bid: word }),
    },
    h("span", { class: "bid-symbols", "aria-hidden": "true" }, symbols),
    h("span", { class: "bid-word" }, bidName(word)),
    h("span", { class: "bid-sub" }, `${colourText} · ${sub}`));
  }

  function renderActions(v, table) {
    const items = [];
    const me = mySeat();
    if (table.status === "open") {
      items.push(waitingRoom(table));
    }
    if (me !== null && v.legal.length && table.status === "playing") {
      const bids = v.legal.filter((a) => a.bid !== undefined).map((a) => a.bid);
      if (bids.length) items.push(h("div", { class: "bid-row", role: "group", "aria-label": t("Your bid") }, bids.map((w) => bidButton(w, v))));
      const trumps = v.legal.filter((a) => a.trump !== undefined).map((a) => a.trump);
      if (trumps.length) {
        items.push(h("div", { class: "bid-row", role: "group", "aria-label": t("Choose the trump suit") },
          trumps.map((s) => h("button", {
            type: "button", class: `btn trump-btn suit-${s}`, "data-trump": s, "data-testid": "trump-choice",
            disabled: !canAct(), onclick: () => act({ trump: s }),
          }, h("span", { class: "trump-symbol", "aria-hidden": "true" }, SUIT_SYMBOL[s]), suitNameCapital(s)))));
      }
      const takes = v.legal.filter((a) => a.take !== undefined).map((a) => a.take);
      if (takes.length) {
        const card = v.offer || v.upcard;
        items.push(h("div", { class: "take-row", "data-testid": "take" },
          card ? h("span", { class: "widget-card" }, cardImg(card, { alt: cardName(card) })) : null,
          h("span", null, card ? t("Stock card: {card}", { card: cardName(card) }) : ""),
          takes.map((word) => h("button", {
            type: "button", class: `btn ${word === "keep" ? "btn-primary" : ""}`, "data-take": word,
            "data-testid": `take-${word}`, disabled: !canAct(), onclick: () => act({ take: word }),
          }, word === "keep" ? t("Keep") : t("Discard")))));
      }
    }
    if (me === null && table.status === "open" && session.me && table.seats.some((s) => s.kind === "empty")) {
      items.push(h("button", {
        type: "button", class: "btn btn-primary", "data-testid": "take-seat",
        onclick: async () => {
          try {
            await post(`/api/tables/${encodeURIComponent(tableId)}/join`, { seat: null });
            conn.stop();
            navigate(`#/table/${encodeURIComponent(tableId)}`);
          } catch (err) {
            toast(errorText(err.code, err.message), "error");
          }
        },
      }, t("Take a seat")));
    }
    if (me === null && table.status !== "open") items.push(h("p", { class: "muted small" }, t("You are watching this table.")));
    replace(actions, items);
  }

  function waitingRoom(table) {
    let code = null;
    try {
      code = sessionStorage.getItem(`whist.invite.${tableId}`);
    } catch {
      code = null;
    }
    const link = code ? inviteUrl(code) : `${location.origin}/#/table/${encodeURIComponent(tableId)}`;
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

  // ------------------------------------------------------------ overlays
  function renderOverlay(v, table) {
    const key = JSON.stringify([currentLanguage(), ctx.summary && ctx.summary.deal.index, v.over, table.status,
      ctx.xp, ctx.unlockedNow, v.scores, mySeat()]);
    if (key === ctx.overlayKey) return; // unchanged: keep the panels (and their animation)
    ctx.overlayKey = key;
    const items = [];
    if (ctx.summary && !v.over) {
      const d = ctx.summary.deal;
      const contract = contractText(d.contract);
      items.push(h("div", { class: "summary card-panel", "data-testid": "deal-summary", role: "status" },
        h("h2", null, t("Deal {n} is over", { n: d.index + 1 })),
        contract ? h("p", null, contract) : null,
        h("p", null, d.trump ? t("Trump: {suit}", { suit: suitName(d.trump) }) : t("No trump")),
        h("table", { class: "mini-table" },
          h("thead", null, h("tr", null, h("th", null, ""), h("th", null, t("Tricks")), h("th", null, t("Points")), h("th", null, t("Score")))),
          h("tbody", null, [0, 1].map((side) => h("tr", null,
            h("th", { scope: "row" }, sideName(side)),
            h("td", null, d.won[side]),
            h("td", null, d.points[side] > 0 ? `+${d.points[side]}` : d.points[side]),
            h("td", null, ctx.summary.scores[side]))))),
        h("button", { type: "button", class: "btn btn-small", onclick: () => { ctx.summary = null; render(); } }, t("Continue"))));
    }
    if (v.over || table.status === "finished" || table.status === "abandoned") {
      items.push(resultPanel(v, table));
    }
    replace(overlay, items);
  }

  function resultPanel(v, table) {
    const me = mySeat();
    let headline;
    if (table.status === "abandoned") headline = t("The match was abandoned.");
    else if (v.winner === null || v.winner === undefined) headline = t("The match is a draw.");
    else if (me !== null) headline = v.winner === me % 2 ? (players() === 2 ? t("You won the match!") : t("Your team won the match!")) : (players() === 2 ? t("You lost the match.") : t("Your team lost the match."));
    else headline = t("{side} won the match.", { side: sideName(v.winner) });
    const unlocked = ctx.unlockedNow;
    return h("div", { class: "result card-panel", "data-testid": "match-result", role: "dialog", "aria-labelledby": "result-title" },
      h("h2", { id: "result-title" }, headline),
      v.resigned !== null && v.resigned !== undefined ? h("p", null, t("{name} resigned.", { name: seatName(v.resigned) })) : null,
      h("p", { class: "final-score" }, [0, 1].map((s) => `${sideName(s)}: ${v.scores[s]}`).join(" · ")),
      ctx.xp ? h("p", { class: "xp-gain", "data-testid": "xp-gained" }, t("+{n} XP", { n: ctx.xp })) : null,
      unlocked && unlocked.level ? h("p", { class: "unlock" }, t("You reached level {n}!", { n: unlocked.level })) : null,
      unlocked && (unlocked.backs.length || unlocked.faces.length)
        ? h("div", { class: "unlock", "data-testid": "unlocked" },
          h("p", null, t("Unlocked:")),
          h("div", { class: "unlock-cards" },
            unlocked.backs.map((b) => h("figure", null, backImg(b), h("figcaption", null, t("Card back")))),
            unlocked.faces.map((f) => h("figure", null, cardImg("KH", { face: f }), h("figcaption", null, t("Card face"))))),
          h("a", { href: "#/profile" }, t("Choose your cards in your profile")))
        : null,
      h("div", { class: "button-row" },
        h("button", { type: "button", class: "btn", onclick: openSheet }, t("Score sheet")),
        h("a", { class: "btn", href: "#/games" }, t("My games")),
        h("a", { class: "btn btn-primary", href: "#/lobby" }, t("Back to the lobby"))));
  }

  // ------------------------------------------------------------- dialogs
  function buildDialogs() {
    replace(resignDialog,
      h("form", { method: "dialog", class: "dialog-body" },
        h("h2", { id: "resign-title" }, t("Resign the match?")),
        h("p", null, players() === 2 ? t("You lose the match at once.") : t("Your team loses the match at once.")),
        h("div", { class: "button-row" },
          h("button", { value: "cancel", class: "btn", autofocus: true }, t("Keep playing")),
          h("button", {
            value: "resign", class: "btn btn-danger", "data-testid": "confirm-resign",
            onclick: (event) => {
              event.preventDefault();
              resignDialog.close();
              ctx.error = null;
              conn.act({ resign: true });
              render();
            },
          }, t("Resign")))));
    replace(leaveDialog,
      h("form", { method: "dialog", class: "dialog-body" },
        h("h2", { id: "leave-title" }, t("Leave the table?")),
        h("p", null, t("A computer player takes your seat for the rest of the match.")),
        h("div", { class: "button-row" },
          h("button", { value: "cancel", class: "btn", autofocus: true }, t("Stay")),
          h("button", {
            value: "leave", class: "btn btn-danger", "data-testid": "confirm-leave",
            onclick: async (event) => {
              event.preventDefault();
              leaveDialog.close();
              try {
                await post(`/api/tables/${encodeURIComponent(tableId)}/leave`);
                navigate("#/lobby");
              } catch (err) {
                toast(errorText(err.code, err.message), "error");
              }
            },
          }, t("Leave")))));
  }
  buildDialogs();

  async function saveAndLeave() {
    try {
      await post(`/api/tables/${encodeURIComponent(tableId)}/suspend`);
      navigate("#/games");
    } catch (err) {
      toast(errorText(err.code, err.message), "error");
    }
  }

  function openSheet() {
    const v = view();
    if (!v) return;
    const sides = [sideName(0), sideName(1)];
    const rows = v.history.map((d) => ({ ...d }));
    if (v.deal !== null && !rows.some((r) => r.index === v.deal)) {
      const before = rows.reduce((acc, r) => [acc[0] + r.points[0], acc[1] + r.points[1]], [0, 0]);
      const complete = v.phase === "waiting" || v.phase === "done" || v.over;
      rows.push({
        index: v.deal, dealer: v.dealer, contract: v.contract, trump: v.trump, won: v.won,
        points: complete ? [v.scores[0] - before[0], v.scores[1] - before[1]] : null,
        complete,
      });
    }
    replace(sheetDialog,
      h("div", { class: "dialog-body" },
        h("h2", { id: "sheet-title" }, t("Score sheet")),
        scoreSheetTable(rows, { sides, seatName, contractText, over: v.over }),
        h("form", { method: "dialog", class: "button-row" }, h("button", { class: "btn", autofocus: true }, t("Close")))));
    sheetDialog.showModal();
  }

  const offAppearance = onAppearanceChange(() => render());

  conn.start();

  return {
    unmount: () => {
      ctx.stopped = true;
      conn.stop();
      clearTimeout(ctx.timer);
      clearTimeout(ctx.summaryTimer);
      clearInterval(clockTimer);
      clearTimeout(ctx.revealTimer);
      offAppearance();
      banner.hidden = true;
    },
    relabel: () => {
      buildDialogs();
      render();
    },
  };
}
