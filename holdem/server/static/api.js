// The server's HTTP API as the page calls it, and what this browser keeps between visits.
import { key, page } from "./state.js";

/** Keys kept for every table: the name last played under, and the preferences. */
export const NAME_KEY = "holdem.name";
export const PREFERENCES = { "four-colour": "holdem.fourColour", sounds: "holdem.sounds" };

export const stored = (kind) => page.tableId && localStorage.getItem(key(kind));

export function keep(kind, value) {
  if (value === null) localStorage.removeItem(key(kind));
  else localStorage.setItem(key(kind), value);
}

/** One request, its JSON answer; a refusal throws an Error with the server's words. */
export async function api(method, path, body, token) {
  const headers = { "content-type": "application/json" };
  if (token) headers.authorization = `Bearer ${token}`;
  const answer = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await answer.json();
  if (!answer.ok) throw new Error(data.error || `HTTP ${answer.status}`);
  return data;
}
