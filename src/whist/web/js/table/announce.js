// The live region: what changed on the table, said once in words (screen readers).
import { has } from "../facts.js";
import { t } from "../i18n.js";
import { bidName, cardName, suitName } from "../labels.js";
import { playSequence } from "./layout.js";
import { contractText, seatName } from "./seats.js";

export function say(announcer, messages) {
  if (!messages.length) return;
  announcer.textContent = "";
  const text = messages.join(" ");
  setTimeout(() => {
    announcer.textContent = text;
  }, 30);
}

// A revealed secret choice: a bottom card (two characters) or a bid word.
function revealSentence(tbl, entry) {
  const name = seatName(tbl, entry.seat);
  if (entry.choice.length === 2) return t("{name} shows {card}.", { name, card: cardName(entry.choice) });
  return t("{name} chose {bid}.", { name, bid: bidName(entry.choice) });
}

export function announce(tbl, prev, next) {
  const messages = [];
  const a = prev && prev.view;
  const b = next.view;
  if (a && a.deal === b.deal) {
    const before = playSequence(a).length;
    for (const item of playSequence(b).slice(before)) {
      messages.push(t("{name} played {card}.", { name: seatName(tbl, item.seat), card: cardName(item.card) }));
    }
    for (const trick of b.tricks.slice(a.tricks.length)) {
      messages.push(t("{name} won the trick.", { name: seatName(tbl, trick.winner) }));
    }
    for (const entry of b.revealed.slice(a.revealed.length)) messages.push(revealSentence(tbl, entry));
    if (!a.contract && b.contract) messages.push(contractText(tbl, b.contract) + ".");
    if (!a.trump && b.trump && has(b.facts, "trump_choice")) {
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
    messages.push(t("{name} to play.", { name: seatName(tbl, b.to_act[0]) }));
  }
  if (b.over && !(a && a.over)) messages.push(t("The match is over."));
  say(tbl.announcer, messages);
}
