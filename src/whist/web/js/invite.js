// #/invite/CODE: join a private table through its invitation.
import { post } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { errorText } from "./labels.js";

export async function mount(main, params) {
  const status = h("p", { role: "status" }, t("Joining the table…"));
  main.append(h("section", { class: "page" }, h("h1", null, t("Invitation")), status));
  try {
    const result = await post(`/api/invite/${encodeURIComponent(params.code || "")}/join`, { seat: null });
    location.replace(`#/table/${encodeURIComponent(result.id)}`);
  } catch (err) {
    status.textContent = errorText(err.code, err.message);
    status.after(h("p", null, h("a", { href: "#/lobby", class: "btn" }, t("Back to the lobby"))));
  }
}
