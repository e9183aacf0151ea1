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
  const info = table.seats[seat];
  const who = info.kind === "bot" ? `${info.bot} (bot)` : info.name || "…";
  return `${seatLabel(seat)} ${who}`;
}
