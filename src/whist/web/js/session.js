// Who is signed in, and small page-wide services.
import { get, post } from "./api.js";
import { setAppearance } from "./cards.js";
import { t } from "./i18n.js";
import { h } from "./dom.js";

export const session = {
  me: null, // GET /api/me, or null when signed out
};

const meListeners = new Set();

export function onMeChange(f) {
  meListeners.add(f);
  return () => meListeners.delete(f);
}

export function setMe(me) {
  session.me = me;
  if (me) setAppearance(me.card_back, me.card_face);
  for (const f of meListeners) f(me);
}

export async function loadMe() {
  try {
    setMe(await get("/api/me"));
  } catch {
    setMe(null);
  }
  return session.me;
}

export async function signOut() {
  try {
    await post("/api/logout");
  } finally {
    setMe(null);
  }
}

export function navigate(hash) {
  if (location.hash === hash) window.dispatchEvent(new HashChangeEvent("hashchange"));
  else location.hash = hash;
}

export function toast(message, kind = "info") {
  const area = document.getElementById("toasts");
  if (!area) return;
  const note = h("div", { class: `toast toast-${kind}`, role: kind === "error" ? "alert" : "status" }, message);
  const close = h("button", { class: "toast-close", type: "button", "aria-label": t("Close"), onclick: () => note.remove() }, "×");
  note.appendChild(close);
  area.appendChild(note);
  setTimeout(() => note.remove(), kind === "error" ? 7000 : 4500);
}
