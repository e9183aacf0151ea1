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

// "P1 Ann", "P2 Easy bot". `move` (a move's number, 1 on): who played that move, for a person's seat a bot
// finished (bot_from: the moves played before it took over), whose moves up to there stay the person's
export function seatName(table, seat, move) {
  return `${seatLabel(seat)} ${seatHolder(table.seats[seat], move)}`;
}

export function seatHolder(info, move) {
  if (info.kind !== "bot") return info.name || "…";
  const finished = info.name && info.bot_from !== null && info.bot_from !== undefined;
  if (finished && (move === undefined || move <= info.bot_from)) return info.name;
  return botName(info.level || info.bot);  // a lesson's bots by the lobby's level they are (tutorials.py)
}

// A bot as a newcomer reads it at a table: "Easy bot", "Simple bot" (greedy), else "name (bot)"
export function botName(bot) {
  const said = t(`seatBot_${bot}`);
  return said === `seatBot_${bot}` ? t("seatBot", { name: bot }) : said;
}

// The seat's holder with, for a person's seat a bot finished, from which move: "Ann (a bot from move 15)"
export function seatHolderNoted(info) {
  const who = seatHolder(info);
  return info.kind === "bot" && info.name && info.bot_from !== null && info.bot_from !== undefined
    ? `${who} (${t("botFrom", { bot: botName(info.level || info.bot), move: info.bot_from + 1 })})` : who;
}
