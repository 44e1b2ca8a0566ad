// Elements the pages make: found by id, cards face up and down, placed on the felt, list items.
import { cardFace, cardLabel } from "./render.js";

export const $ = (id) => document.getElementById(id);

export function cardElement(text, small) {
  const el = document.createElement("span");
  el.className = `card suit-${text[1]}` + ("dh".includes(text[1]) ? " red" : "") + (small ? " small" : "");
  el.textContent = cardFace(text);
  el.dataset.card = text;
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", cardLabel(text));
  return el;
}

export function backElement() {
  const el = document.createElement("span");
  el.className = "card back";
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", "hidden card");
  return el;
}

/** `el` placed at `point` on the felt, or `towards` of the way there from the middle. */
export function positioned(el, point, towards = 1) {
  el.style.left = `${50 + (point.x - 50) * towards}%`;
  el.style.top = `${50 + (point.y - 50) * towards}%`;
  return el;
}

/** An element of `tag` holding `text` (as text, never markup). */
export function textElement(tag, text) {
  return Object.assign(document.createElement(tag), { textContent: text });
}

export function option(value, text) {
  const el = textElement("option", text);
  el.value = value;
  return el;
}

/** The button `${section}-toggle` opens and closes the section, calling `opened` as it opens. */
export function toggles(section, opened) {
  $(`${section}-toggle`).addEventListener("click", () => {
    $(section).hidden = !$(section).hidden;
    $(`${section}-toggle`).setAttribute("aria-expanded", String(!$(section).hidden));
    if (!$(section).hidden) opened();
  });
}
