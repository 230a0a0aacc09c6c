// The server's closed sets of words, each named once for the browser (docs/protocol.md): a game's
// status, a seat's kind, a game's pace, why a game ended early, the codes the table refuses with, the
// kinds of message the table socket takes and sends, the kinds of chat line, how far a game's analysis
// is, a tournament's kind and status, and a challenge's status. The server names the same members in
// tendays/server/vocabulary.py, its tournament rules and its challenges; tests/web/test_js_protocol.py
// holds the two together.

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

/** How a game with a clock is played: the `kind` of a game's `pace` (a challenge's `clock`). */
export const PaceKind = Object.freeze({
  LIVE: "live",
  CORRESPONDENCE: "correspondence",
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

/** The `kind` of a chat line: what a seat wrote, or the table's own notice. */
export const ChatKind = Object.freeze({
  CHAT: "chat",
  NOTICE: "notice",
});

/** The `status` of a finished game's analysis, asked for again until it is not running. */
export const AnalysisStatus = Object.freeze({
  RUNNING: "running",
  READY: "ready",
  FAILED: "failed",
});

/** A tournament's `kind`: an arena (whoever is free, for a fixed time) or a Swiss (fixed rounds). */
export const TournamentKind = Object.freeze({
  ARENA: "arena",
  SWISS: "swiss",
});

/** A tournament's `status`. */
export const TournamentStatus = Object.freeze({
  UPCOMING: "upcoming",
  RUNNING: "running",
  FINISHED: "finished",
  CANCELLED: "cancelled",
});

/** Where a challenge stands: its `status` (and a `challenge_answered` notice's `answer`). */
export const ChallengeStatus = Object.freeze({
  OPEN: "open",
  ACCEPTED: "accepted",
  DECLINED: "declined",
  CANCELLED: "cancelled",
  EXPIRED: "expired",
});
