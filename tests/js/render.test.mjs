// The browser table's pure module (holdem/server/static/render.js): run by `node --test tests/js`, from
// tests/test_browser_client.py.
import assert from "node:assert/strict";
import test from "node:test";

import { betMade, cardFace, cardLabel, logLine, nameOf, place, replayTable, resultText, roles } from
  "../../holdem/server/static/render.js";

const st = {
  seats: [{ name: "ann", blind: "small blind", bet: 1 }, null, { name: "bob", blind: "big blind", bet: 2, folded: true }],
  button: 0,
};

test("a card shows its face and is named for a screen reader", () => {
  assert.equal(cardFace("Th"), "10♥");
  assert.equal(cardLabel("As"), "ace of spades");
});

test("the player's own seat sits at the bottom of the oval, the others clockwise", () => {
  const me = place(2, 6, 2);
  assert.ok(Math.abs(me.x - 50) < 1e-9 && me.y === 90);
  const next = place(3, 6, 2);
  assert.ok(next.x < 50 && next.y > 50);  // to the left of the bottom: clockwise
});

test("an empty seat is named by its number, from 1", () => {
  assert.equal(nameOf(0, st), "ann");
  assert.equal(nameOf(1, st), "seat 2");
});

test("a bet stands once anyone has put chips in on the street", () => {
  assert.equal(betMade(st), true);
  assert.equal(betMade({ seats: [{ bet: 0 }, null] }), false);
});

test("each kind of log entry reads as a line", () => {
  const entry = (kind, fields) => ({ kind, seat: 0, cards: [], amount: null, action: null, to: null, ...fields });
  assert.equal(logLine(entry("blind", { amount: 1 }), st), "ann posts 1 (small blind)");
  assert.equal(logLine(entry("action", { action: "call", chips: 4, all_in: true }), st), "ann calls 4 (all-in)");
  assert.equal(logLine(entry("action", { action: "raise", to: 10 }), st), "ann raises to 10");
  assert.equal(logLine(entry("board", { seat: null, cards: ["Ah", "Kd", "2c"], phase: "flop" }), st), "flop: Ah Kd 2c");
  assert.equal(logLine(entry("uncalled", { amount: 6 }), st), "6 uncalled, back to ann");
  assert.equal(logLine(entry("win", { amount: 12 }), st), "ann wins 12");
});

test("a hand's result names each pot's winners, with their hands on both boards", () => {
  const last = { seats: [0, 2], won: { 2: 30 }, names: { 2: "a pair of Kings" }, second_names: { 2: "two pair" } };
  assert.equal(resultText(last, st), "bob wins 30 with a pair of Kings / two pair");
  const sides = { ...last, result: { pots: [{ amount: 20 }, { amount: 10 }], winners: [[1], [0]] } };
  assert.equal(resultText(sides, st),
    "Main pot 20: bob with a pair of Kings / two pair wins; Side pot 1 10: ann wins");
});

test("a seat's plate lists its roles", () => {
  assert.equal(roles(st, 0, false), "dealer · small blind");
  assert.equal(roles(st, 2, true), "big blind · away · folded");
});

test("a replay step draws the stacks, bets, pot and board the server sent for it", () => {
  const step = (kind, fields, table) => ({ kind, seat: null, cards: [], amount: null, action: null, to: null,
    ...fields, ...table });
  const hand = {
    players: ["ann", "bob"], seats: [0, 2], seat_count: 3, button: 0, you: 0,
    steps: [
      step("hole", { seat: 0, cards: ["Ah", "Ad"] }, { stacks: [100, 100], bets: [0, 0], pot: 0, board: [] }),
      step("blind", { seat: 0, amount: 1 }, { stacks: [99, 100], bets: [1, 0], pot: 1, board: [] }),
      step("blind", { seat: 2, amount: 2 }, { stacks: [99, 98], bets: [1, 2], pot: 3, board: [] }),
      step("action", { seat: 0, action: "fold" }, { stacks: [99, 98], bets: [1, 2], pot: 3, board: [] }),
      step("uncalled", { seat: 2, amount: 1 }, { stacks: [99, 99], bets: [1, 1], pot: 2, board: [] }),
      step("win", { seat: 2, amount: 2 }, { stacks: [99, 101], bets: [1, 1], pot: 0, board: [] }),
    ],
  };
  const middle = replayTable(hand, 2);
  assert.deepEqual([middle.st.seats[0].stack, middle.st.seats[2].stack, middle.st.pot], [99, 98, 3]);
  assert.deepEqual(middle.st.hole, ["Ah", "Ad"]);
  assert.equal(middle.end, null);
  assert.equal(middle.lines.length, 3);
  const end = replayTable(hand, 5);
  assert.deepEqual(end.end.won, { 2: 2 });
  assert.equal(end.st.seats[0].folded, true);
  assert.equal(end.st.seats[2].stack, 101);
});
