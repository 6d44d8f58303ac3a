// The move clocks: each seat's deadline (server time) counted down on this page's clock.
import { $all, h } from "../dom.js";
import { clockText } from "./layout.js";

const LOW_MS = 15000; // a clock under 15 s is shown as running low

// Estimate how far the server's clock is ahead of ours from the deadlines seen: a new deadline
// is at most `clock` seconds after the server's now.
export function noteDeadlines(ctx, table) {
  if (!table || !table.clock) return;
  for (const [seat, deadline] of Object.entries(table.deadlines || {})) {
    const key = `${seat}:${deadline}`;
    if (ctx.deadlinesSeen.has(key)) continue;
    ctx.deadlinesSeen.add(key);
    const estimate = deadline - table.clock * 1000 - Date.now();
    if (ctx.skew === null || estimate > ctx.skew) ctx.skew = Math.min(estimate, 60 * 60 * 1000);
  }
}

// Milliseconds left to `seat`, or null when it has no clock running.
export function remaining(ctx, seat) {
  const table = ctx.table;
  if (!table || !table.deadlines) return null;
  const deadline = table.deadlines[String(seat)];
  if (deadline === undefined) return null;
  const skew = ctx.skew !== null && Math.abs(ctx.skew) > 1500 ? ctx.skew : 0;
  return deadline - (Date.now() + skew);
}

export function clockSpan(ctx, seat, cls) {
  const left = remaining(ctx, seat);
  return h("span", {
    class: `${cls}${left !== null && left < LOW_MS ? " low" : ""}`,
    "data-clock-seat": seat,
    "data-testid": "clock",
    hidden: left === null,
  }, left === null ? "" : clockText(left));
}

// Ticks every clock on the page four times a second; returns the interval to clear.
export function startClocks(ctx, page) {
  return setInterval(() => {
    for (const el of $all("[data-clock-seat]", page)) {
      const left = remaining(ctx, Number(el.dataset.clockSeat));
      if (left === null) {
        el.hidden = true;
        continue;
      }
      el.hidden = false;
      const text = clockText(left);
      if (el.textContent !== text) el.textContent = text;
      el.classList.toggle("low", left < LOW_MS);
    }
  }, 250);
}
