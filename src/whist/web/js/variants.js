// The variant catalogue (GET /api/variants), asked once: each variant's key, title, players,
// facts, options, presets and aliases, the unavailable ones and why.
import { get } from "./api.js";
import { t } from "./i18n.js";

let catalogue = null;

export async function loadVariants() {
  if (!catalogue) catalogue = await get("/api/variants");
  return catalogue;
}

export function variantList() {
  return catalogue ? catalogue.variants : [];
}

export function variantInfo(key) {
  return variantList().find((v) => v.key === key) || null;
}

// The title in the current language (titles are msgids of the server's catalogue).
export function variantName(key) {
  const info = variantInfo(key);
  return info ? t(info.title) : key;
}
