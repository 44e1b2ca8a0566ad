// The server's protocol as the page speaks it, under the server's own names (holdem.server): the
// messages each way, the WebSocket close codes and the timeouts. tests/test_browser_client.py checks
// every value here against the server's.

/** The `type` of each message: sent by the server (state, error, moved, finished, waiting, alive,
 * pong), and by the page (state asks for one again, act, sit_out, sit_in, rebuy, chat, show, ping). */
export const Message = Object.freeze({
  STATE: "state", ERROR: "error", MOVED: "moved", FINISHED: "finished", WAITING: "waiting", ALIVE: "alive",
  PONG: "pong", PING: "ping", ACT: "act", SIT_OUT: "sit_out", SIT_IN: "sit_in", REBUY: "rebuy", CHAT: "chat",
  SHOW: "show",
});

/** The codes the server closes a WebSocket with (holdem.server.Close). */
export const Close = Object.freeze({
  DONE: 1000, POLICY: 1008, TOO_BIG: 1009, RESTART: 1012, NOT_FOUND: 4404, TOO_MANY: 4429,
});

/** Seconds of quiet after which the server sends an `alive` message (holdem.server.connection.ALIVE). */
export const ALIVE = 0.5;

/** Seconds without a message after which the page gives its connection up and connects again
 * (holdem.server.BROWSER_SILENCE: twice the bots' SILENCE, for a phone on a slow line). */
export const BROWSER_SILENCE = 4.0;

/** Seconds a finished hand stays on screen before the next one is drawn, and of silence in a hand after
 * which the page asks for the table's state again. */
export const SHOWDOWN = 2.5;
export const RECHECK = 3.0;

/** Seconds before trying again after a `Close.TOO_MANY`, and after any other close. */
export const FULL_RETRY = 30;
export const RETRY = 1;
