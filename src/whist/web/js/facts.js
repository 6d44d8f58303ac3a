// What a variant is made of, as data (view.facts and each variant of /api/variants):
// {players, components, bid_words, contracts, bid_hand}. The page asks these, never a key.

export function has(facts, component) {
  return !!facts && facts.components.includes(component);
}

// Minnesota, Swedish and Plockwhist: each deal is played in a contract chosen by the bids.
export function hasContract(facts) {
  return !!facts && facts.contracts.length > 0;
}

// Secret choices shown all at once (Swedish Whist's "simultaneous" option), not one by one.
export function revealsAtOnce(facts, options) {
  return has(facts, "secret_choices") && !!options && options.reveal === "simultaneous";
}
