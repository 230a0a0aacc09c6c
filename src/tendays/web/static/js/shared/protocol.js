// The table protocol's closed sets of words, each named once for the browser (docs/protocol.md,
// "WebSocket"): a game's status, a seat's kind, why a game ended early, the codes the table refuses
// with, and the kinds of message the table socket takes and sends. The server names the same
// members in tendays/server/vocabulary.py; tests/web/test_js_protocol.py holds the two together.

/** Where a game stands: the `status` of a table, a listed game and a stored one. */
export const MatchStatus = Object.freeze({
  WAITING: "waiting",
  PLAYING: "playing",
  OVER: "over",
});

/** Who a seat is for (a person's seat stays `human` while a bot stands in for them). */
export const SeatKind = Object.freeze({
  HUMAN: "human",
  BOT: "bot",
});

/** Why a game ended before it was played out: a game's `ended`. */
export const EndReason = Object.freeze({
  ABANDONED: "abandoned",
  CLOSED: "closed",
  FORFEIT: "forfeit",
});

/** The `code` of the table's `error` message: which rule a refused message broke. */
export const RejectionCode = Object.freeze({
  ILLEGAL: "illegal",
  OUT_OF_TURN: "out_of_turn",
  STALE: "stale",
  MALFORMED: "malformed",
  FORBIDDEN: "forbidden",
  RATE_LIMITED: "rate_limited",
  TOO_LARGE: "too_large",
  UNAVAILABLE: "unavailable",
  NOT_FOUND: "not_found",
  SIGNED_OUT: "signed_out",
  LINK_REVOKED: "link_revoked",
});

/** The `type` of a message this client sends to the table socket (`hello` first and once). */
export const ClientKind = Object.freeze({
  HELLO: "hello",
  MOVE: "move",
  HINT: "hint",
  CHAT: "chat",
  LEAVE: "leave",
  BACK: "back",
  END: "end",
  REMATCH: "rematch",
  SYNC: "sync",
  LANGUAGE: "language",
  PING: "ping",
});

/** The `type` of a message the table socket sends. */
export const ServerKind = Object.freeze({
  STATE: "state",
  CHAT: "chat",
  HINT: "hint",
  SEAT: "seat",
  ERROR: "error",
  PONG: "pong",
});
