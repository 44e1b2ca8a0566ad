// The table page: table.js draws the table, home.js adds a home game's parts (and sets the hooks the
// table calls). home.js is loaded on its own, so that a table is drawn even when it never arrives; once it
// has loaded (or failed to), the page connects, or lists the tables.
import { start } from "./table.js";

try {
  await import("./home.js");
} catch (error) {
  console.error(`home.js did not load (${error.message}): the table is drawn without a home game's parts`);
}
start();
