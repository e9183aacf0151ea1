// Any game without a drawing of its own: its public view and its moves as buttons.
import { h } from "./dom.js";

export function render(payload, act, t) {
  const view = { ...payload.view };
  delete view.log;
  return h("section", { class: "generic" },
    h("pre", { class: "view-json" }, JSON.stringify(view, null, 1)),
  );
}
