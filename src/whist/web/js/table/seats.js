// Who sits where, as seen from this page: the seat at the bottom (yours, or seat 0 for a
// spectator), each seat's screen position, compass point and name, the sides, and the
// contract in words. `tbl` is the table's shared state (table.js). Every message that names a
// seat takes its name from seatName here.
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { botLevelName, contractName } from "../labels.js";
import { positions, relativeSeat } from "./layout.js";
import { botName, compassPoint, initials, seatHue } from "./names.js";

export function view(tbl) {
  return tbl.ctx.shown && tbl.ctx.shown.view;
}

export function players(tbl) {
  const v = view(tbl);
  if (v) return v.hand_sizes.length;
  return tbl.ctx.table ? tbl.ctx.table.seats.length : 4;
}

export function mySeat(tbl) {
  const v = view(tbl);
  if (v && v.seat !== null && v.seat !== undefined) return v.seat;
  const table = tbl.ctx.table;
  return table && table.you !== null && table.you !== undefined ? table.you : null;
}

export function anchor(tbl) {
  const me = mySeat(tbl);
  return me === null ? 0 : me;
}

export function rel(tbl, seat) {
  return relativeSeat(seat, anchor(tbl), players(tbl));
}

export function posOf(tbl, seat) {
  return positions(players(tbl))[rel(tbl, seat)];
}

const COMPASS_TEXT = {
  South: () => t("South"),
  West: () => t("West"),
  North: () => t("North"),
  East: () => t("East"),
};

// The seat's compass point, in the page's language.
export function compassName(tbl, seat) {
  return COMPASS_TEXT[compassPoint(seat, players(tbl))]();
}

function seatInfo(tbl, seat) {
  return tbl.ctx.table && tbl.ctx.table.seats[seat];
}

// Who plays the seat, without "You": a person's nickname, a computer player's first name
// (`short`) or name and level ("Astrid (Hard)"), else the compass point.
export function playerName(tbl, seat, short = false) {
  const info = seatInfo(tbl, seat);
  if (info && info.nickname) return info.nickname;
  if (info && info.kind === "bot") {
    const name = botName(tbl.tableId, seat);
    return short ? name : t("{name} ({level})", { name, level: botLevelName(info.bot) });
  }
  return compassName(tbl, seat);
}

// The seat as every message names it: "You" for your own.
export function seatName(tbl, seat) {
  return seat === mySeat(tbl) ? t("You") : playerName(tbl, seat);
}

// For tight rows (the reveal row on a phone): a bot's first name without its level.
export function seatShortName(tbl, seat) {
  return seat === mySeat(tbl) ? t("You") : playerName(tbl, seat, true);
}

// The seat's avatar: the player's initials in a circle of the seat's colour.
export function avatar(tbl, seat, size = "") {
  return h("span", {
    class: `avatar${size ? ` avatar-${size}` : ""}`,
    style: { "--hue": String(seatHue(seat)) },
    "aria-hidden": "true",
  }, initials(playerName(tbl, seat, true)));
}

// A side: a seat in two-player games, a partnership in four-player ones.
export function sideName(tbl, side) {
  const me = mySeat(tbl);
  if (players(tbl) === 2) return seatName(tbl, side);
  if (me !== null) return side === me % 2 ? t("Us") : t("Them");
  return t("{a} & {b}", { a: seatName(tbl, side), b: seatName(tbl, side + 2) });
}

// "Mine – theirs" in four-player games (us first), seat 0 first in two-player ones.
export function sidesInOrder(tbl) {
  if (players(tbl) === 2) return [0, 1];
  const mine = anchor(tbl) % 2;
  return [mine, 1 - mine];
}

export function contractText(tbl, contract) {
  return contractName(contract, (seat) => seatName(tbl, seat), mySeat(tbl));
}
