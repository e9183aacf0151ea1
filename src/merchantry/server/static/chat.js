// Table chat (server/chat.py) beside the table: messages arrive over the table's websocket, each shown as
// text (a text node, never HTML); seated people write and mute other seats; spectators only read.
import { h, seatLabel } from "./dom.js";
import { t } from "./i18n.js";

const MAX_CHARS = 300;

export function chatPanel() {
  const messages = new Map();  // id -> message: a message heard live and again in the history shows once
  const muted = new Set();
  let seat = null;
  let socket = null;
  const list = h("ol", { class: "chat-messages", "aria-live": "polite" });
  const input = h("input", { id: "chat-text", maxlength: MAX_CHARS, autocomplete: "off", "aria-label": t("chatMessage"), placeholder: t("chatMessage") });
  const note = h("p", { class: "chat-note" });
  const form = h("form", { id: "chat-form", onsubmit: (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text || !socket || socket.readyState !== WebSocket.OPEN) return;
    socket.send(JSON.stringify({ type: "chat", text }));
    input.value = "";
  } }, input, h("button", { type: "submit" }, t("send")));

  function mute(other, on) {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "mute", seat: other, muted: on }));
  }

  function draw() {
    const shown = [...messages.values()].sort((a, b) => a.id - b.id).filter((m) => !muted.has(m.seat));
    list.replaceChildren(...shown.map((m) => h("li", { "data-seat": m.seat },
      h("strong", {}, `${seatLabel(m.seat)} ${m.name}${t("colon")}`),
      h("span", { class: "chat-text" }, m.text),  // text, never markup
      seat !== null && m.seat !== seat ? h("button", { type: "button", class: "mute", title: t("mute"), onclick: () => mute(m.seat, true) }, t("mute")) : null)));
    const mutedList = [...muted].sort().map((s) => h("button", { type: "button", class: "unmute", onclick: () => mute(s, false) }, `${t("unmute")} ${seatLabel(s)}`));
    note.replaceChildren(seat === null ? t("chatSpectator") : "", ...mutedList);
    input.disabled = seat === null;
    list.scrollTop = list.scrollHeight;
  }

  return {
    node: h("section", { id: "chat", class: "chat panel", "aria-label": t("chat") }, h("h2", {}, t("chat")), list, note, form),
    // the state of a (new) connection: who this page speaks for, on which socket
    connected(newSocket, mySeat) {
      if (socket !== newSocket || seat !== mySeat) { socket = newSocket; seat = mySeat; draw(); }
    },
    receive(message) {
      if (message.type === "mute") {
        if (message.muted) muted.add(message.seat); else muted.delete(message.seat);
      } else {
        for (const m of message.messages) messages.set(m.id, m);
      }
      draw();
    },
  };
}
