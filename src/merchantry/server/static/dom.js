import { t } from "./i18n.js";

// A tiny helper to build DOM nodes: h("button", {class: "x", onclick: f}, "text", child, ...)
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "class") node.className = value;
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export function seatLabel(seat) {
  return `P${seat + 1}`;
}

export function seatName(table, seat) {
  return `${seatLabel(seat)} ${seatHolder(table.seats[seat])}`;
}

// who holds a seat, in the reader's language: a person by name, a bot by its level ("Easy bot") or name
export function seatHolder(info) {
  return info.kind === "bot" ? botName(info.bot) : info.name || "…";
}

// a bot at a table: the levels in words ("Medium bot"), any other by its own name ("greedy (bot)")
export function botName(bot) {
  const level = t(`bot_${bot}`);
  return ["easy", "medium", "hard"].includes(bot) && level !== `bot_${bot}` ? level : t("seatBot", { name: bot });
}
