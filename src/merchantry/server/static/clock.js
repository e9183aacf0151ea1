// Time left on a clock, readable at any length: "2 d 3 h", "5 h 12 min", "4:05" (server/tables.py, the
// turn clock and each seat's time bank for the game). `t` is the platform's translator (i18n.js).
import { h, seatName } from "./dom.js";

export function duration(seconds, t) {
  const s = Math.max(0, Math.floor(seconds));
  if (s >= 86400) return t("durationDays", { days: Math.floor(s / 86400), hours: Math.floor((s % 86400) / 3600) });
  if (s >= 3600) return t("durationHours", { hours: Math.floor(s / 3600), minutes: Math.floor((s % 3600) / 60) });
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

// The line of every person's time bank, the seats whose clock runs counting down from `since` (Date.now()
// when the payload came); null at a table without a total
export function banksLine(table, t, since) {
  if (!table.total_seconds || table.status !== "playing") return null;
  const running = new Set((table.banks_running || []).map(String));
  const out = new Set(table.out_of_time || []);
  const parts = Object.entries(table.time_banks || {}).map(([seat, left]) => {
    const shown = out.has(Number(seat)) ? t("outOfTimeShort")
      : duration(running.has(seat) ? left - (Date.now() - since) / 1000 : left, t);
    return h("span", { class: running.has(seat) ? "bank running" : "bank", "data-seat": seat }, `${seatName(table, Number(seat))} ${shown}`);
  });
  return h("p", { id: "time-banks", class: "muted" }, `${t("timeBanks")}${t("colon")}`, parts.flatMap((part, i) => [i ? " · " : "", part]));
}
