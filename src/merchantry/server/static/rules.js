// A rules page (served whole by the server): its language menu, the same as the table page's, opens the page
// in the chosen language and keeps the choice for the lobby and the tables.
import { addressLanguage, language, setLanguage } from "./i18n.js";

// a page opened in a language ("?lang=de") keeps it for the lobby and the tables, as the menu does; opened
// without one, it comes in the reader's language (the server, not knowing it, sends English)
if (addressLanguage()) setLanguage(addressLanguage());
else if (language() !== document.documentElement.lang) {
  const address = new URL(location.href);
  address.searchParams.set("lang", language());
  location.replace(address);
}
const menu = document.getElementById("lang");
menu?.addEventListener("change", () => {
  setLanguage(menu.value);
  const address = new URL(location.href);
  address.searchParams.set("lang", menu.value);
  location.assign(address);
});
