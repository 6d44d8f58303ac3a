// Names shown to players: options, cards, suits, contracts, error codes (variant titles come
// with the catalogue, variants.js). Every string goes through t() with a stable English msgid.
import { has } from "./facts.js";
import { t } from "./i18n.js";
import { variantInfo } from "./variants.js";

export function presetName(name) {
  switch (name) {
    case "tvamanswhist": return t("Tvåmanswhist");
    case "tomannswhist": return t("Tomannswhist");
    case "south_dakota": return t("South Dakota");
    default: return name;
  }
}

// `facts`: the variant's, for a name that means different things in different variants.
export function optionLabel(name, facts) {
  switch (name) {
    case "target": return t("Points to win");
    case "counted": return t("Tricks that count");
    case "stage1_follow": return t("Follow suit while the stock lasts");
    case "scoring": return t("Scoring");
    case "match": return t("Match length");
    case "talon_discard": return t("Stock cards may be discarded");
    case "trump": return t("Trump");
    case "reveal":
      return has(facts, "bottom_cards") ? t("Revealing bottom cards") : t("Turning up table cards");
    case "tie": return t("A 13–13 tie");
    case "fail_double": return t("Failed granders' opponents score double");
    case "colours": return t("Bid colours");
    case "bid_input": return t("Bidding with");
    case "spel_lead": return t("Who leads in spel");
    default: return name;
  }
}

export function optionValueLabel(name, value) {
  switch (`${name}=${value}`) {
    case "counted=last13": return t("The last 13 tricks");
    case "counted=all26": return t("All 26 tricks");
    case "scoring=over_six": return t("Tricks over six");
    case "scoring=difference": return t("Difference in tricks");
    case "scoring=deals": return t("Deals won");
    case "scoring=standard": return t("Standard");
    case "scoring=south_dakota": return t("South Dakota");
    case "match=target:N": return t("First to N points");
    case "match=single": return t("A single deal");
    case "match=deals:N": return t("A fixed number of deals");
    case "match=rounds:N": return t("Rounds: everyone deals N times");
    case "trump=none": return t("No trump");
    case "trump=upcard": return t("The first upcard's suit");
    case "reveal=after_trick": return t("After the trick");
    case "reveal=immediate": return t("At once");
    case "reveal=sequential": return t("One by one");
    case "reveal=simultaneous": return t("All at once");
    case "tie=none": return t("Nobody scores");
    case "tie=dealer_one": return t("The dealer scores 1");
    case "colours=european": return t("Red is high");
    case "colours=american": return t("Black is high");
    case "bid_input=card": return t("A bottom card");
    case "bid_input=button": return t("Buttons");
    case "spel_lead=right": return t("The declarer's right-hand neighbour");
    case "spel_lead=left": return t("The declarer's left-hand neighbour");
    default: break;
  }
  if (typeof value === "boolean") return value ? t("Yes") : t("No");
  if (name === "match" && typeof value === "string") {
    const [form, number] = value.split(":");
    if (form === "target") return t("First to {n} points", { n: number });
    if (form === "deals") return t("{n} deals", { n: number });
    if (form === "rounds") return t("{n} rounds", { n: number });
  }
  return String(value);
}

export function optionsSummary(variant, options) {
  if (!options) return "";
  const info = variantInfo(variant);
  return Object.entries(options)
    .map(([name, value]) => `${optionLabel(name, info && info.facts)}: ${optionValueLabel(name, value)}`)
    .join(" · ");
}

export function targetText(options) {
  if (!options) return "";
  if (typeof options.target === "number") return t("first to {n}", { n: options.target });
  if (typeof options.match === "string") {
    const [form, number] = options.match.split(":");
    if (form === "target") return t("first to {n}", { n: number });
    if (form === "deals") return t("{n} deals", { n: number });
    if (form === "rounds") return t("{n} rounds", { n: number });
    if (form === "single") return t("one deal");
  }
  return "";
}

// ---------------------------------------------------------------- cards
export const SUITS = ["S", "H", "D", "C"];
export const SUIT_SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };

export function suitName(suit) {
  switch (suit) {
    case "S": return t("spades");
    case "H": return t("hearts");
    case "D": return t("diamonds");
    case "C": return t("clubs");
    default: return suit;
  }
}

export function suitNameCapital(suit) {
  switch (suit) {
    case "S": return t("Spades");
    case "H": return t("Hearts");
    case "D": return t("Diamonds");
    case "C": return t("Clubs");
    default: return suit;
  }
}

export function rankName(rank) {
  switch (rank) {
    case "A": return t("Ace");
    case "K": return t("King");
    case "Q": return t("Queen");
    case "J": return t("Jack");
    case "T": return t("10");
    default: return rank;
  }
}

export function rankShort(rank) {
  return rank === "T" ? "10" : rank;
}

export function cardName(card) {
  if (!card) return "";
  return t("{rank} of {suit}", { rank: rankName(card[0]), suit: suitName(card[1]) });
}

export function cardShort(card) {
  return `${rankShort(card[0])}${SUIT_SYMBOL[card[1]]}`;
}

// ------------------------------------------------------------- bids etc.
export function bidName(word) {
  switch (word) {
    case "high": return t("High");
    case "low": return t("Low");
    case "spel": return t("Spel");
    case "pass": return t("Pass");
    default: return word;
  }
}

// A contract in words: `seatName(seat)` names its player, `me` is your seat (null: none).
export function contractName(contract, seatName, me = null) {
  if (!contract) return null;
  const seat = contract.grander ?? contract.declarer ?? contract.bidder;
  const mine = me !== null && seat === me;
  switch (contract.mode) {
    case "high":
      return mine ? t("High: you grand") : t("High: {name} grands", { name: seatName(seat) });
    case "low": return t("Low (nullo)");
    case "spel":
      if (mine) return contract.bidder !== undefined ? t("Spel: you bid spel") : t("Spel: you declare");
      return contract.bidder !== undefined
        ? t("Spel: {name} bid spel", { name: seatName(seat) })
        : t("Spel: {name} declares", { name: seatName(seat) });
    case "noll": return t("Nollspel");
    case "pass": return t("Pass game");
    default: return contract.mode;
  }
}

export function botLevelName(level) {
  switch (level) {
    case "easy": return t("Easy");
    case "medium": return t("Medium");
    case "hard": return t("Hard");
    case "master": return t("Master");
    default: return level;
  }
}

export function errorText(code, fallback) {
  // The catalogues translate every stable error code as the msgid "error:<code>".
  const key = `error:${code}`;
  const translated = t(key);
  if (translated !== key) return translated;
  switch (code) {
    case "not_your_turn": return t("It is not your turn.");
    case "must_follow_suit": return t("You must follow suit.");
    case "card_not_available": return t("You cannot play that card.");
    case "wrong_phase": return t("That is not possible now.");
    case "already_decided": return t("You have already chosen.");
    case "invalid_bid": return t("That bid is not allowed.");
    case "match_over": return t("The match is over.");
    case "no_deal_in_progress": return t("No deal is in progress.");
    case "bad_action": return t("That action is not allowed now.");
    case "unknown_variant": return t("Unknown variant.");
    case "unknown_option":
    case "bad_option_value": return t("One of the options is not valid.");
    case "unavailable_variant": return t("That variant is not available.");
    case "not_signed_in": return t("Please sign in first.");
    case "not_seated": return t("You have no seat at this table.");
    case "not_alone": return t("Only a match against computer players can be saved and left.");
    case "hints_off": return t("Hints are not allowed at this table.");
    case "hint_pending": return t("MASTER is still thinking about your last hint.");
    case "position_changed": return t("The position changed: ask for a hint again.");
    case "table_full": return t("The table is full.");
    case "seat_taken": return t("That seat is taken.");
    case "rate_limited": return t("Too many messages: slow down.");
    case "login_taken": return t("That login is taken.");
    case "bad_login": return t("Wrong login or password.");
    case "locked": return t("That is still locked.");
    case "no_table": return t("No such table.");
    case "bad_bot": return t("Unknown computer player level.");
    case "bad_seat": return t("That seat does not exist.");
    case "invalid": return t("Please check the form.");
    case "network": return t("The server cannot be reached.");
    case "internal": return t("Something went wrong on the server.");
    default: return fallback || t("Something went wrong ({code}).", { code });
  }
}

// Where a seat sits as seen from another (seat s+1 sits to the left of seat s).
export function relativeName(rel, players) {
  if (rel === 0) return t("You");
  if (players === 2) return t("Opponent");
  if (rel === 1) return t("Left opponent");
  if (rel === 2) return t("Partner");
  return t("Right opponent");
}

export function seatNumber(seat) {
  return t("Seat {n}", { n: seat + 1 });
}
