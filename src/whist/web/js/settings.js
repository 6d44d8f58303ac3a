// The player's table settings (sound, animation speed, card size, hand order, auto-play of a
// forced card, pre-selection), saved per player on the server: GET and PUT /api/me/settings
// (docs/protocol.md). Until they are loaded the server's defaults apply.
import { get, put } from "./api.js";
import { config } from "./config.js";

export const CHOICES = {
  animation: ["off", "fast", "normal", "slow"],
  card_size: ["small", "normal", "large"],
  hand_order: ["alternate", "suits", "suits_desc"],
};

export const DEFAULTS = Object.freeze({
  sound: true, animation: "normal", card_size: "normal", hand_order: "alternate", auto_play: true, preselect: true,
});

export const settings = { ...DEFAULTS };
const listeners = new Set();

export function onSettingsChange(f) {
  listeners.add(f);
  return () => listeners.delete(f);
}

function apply(saved) {
  for (const key of Object.keys(DEFAULTS)) {
    const value = saved[key];
    const valid = key in CHOICES ? CHOICES[key].includes(value) : typeof value === "boolean";
    if (valid) settings[key] = value;
  }
  const root = document.documentElement;
  root.dataset.cardSize = settings.card_size;
  root.dataset.animation = settings.animation;
  for (const f of listeners) f(settings);
}

// The saved settings of the signed-in player; the defaults stay when they cannot be had.
export async function loadSettings() {
  try {
    apply(await get("/api/me/settings"));
  } catch {
    apply(settings);
  }
  return settings;
}

// Save the whole object; a refusal (400 bad_settings, signed out, offline) throws an ApiError
// and changes nothing here.
export async function saveSettings(next) {
  apply(await put("/api/me/settings", { ...settings, ...next }));
  return settings;
}

// How long movements last, as a factor of their normal length (0: no movement).
export function motionFactor(animation = settings.animation, reduced = false) {
  if (reduced || animation === "off") return 0;
  return { fast: 0.6, normal: 1, slow: 1.6 }[animation] ?? 1;
}

// How long each new state stays on screen before the next is drawn, as a factor: the
// player's animation setting times the server's table pace.
export function holdFactor(animation = settings.animation, pace = config.pace) {
  return ({ off: 0.5, fast: 0.6, normal: 1, slow: 1.5 }[animation] ?? 1) * pace;
}
