// A rules page (served whole by the server): its language menu, the same as the table page's, opens the page
// in the chosen language and keeps the choice for the lobby and the tables.
import { setLanguage } from "./i18n.js";

const menu = document.getElementById("lang");
menu?.addEventListener("change", () => {
  setLanguage(menu.value);
  const address = new URL(location.href);
  address.searchParams.set("lang", menu.value);
  location.assign(address);
});
