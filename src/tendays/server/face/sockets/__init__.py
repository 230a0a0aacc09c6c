"""The WebSocket rooms: a game's table (``/ws/games/{id}``) and a signed-in person's own line
(``/ws/me``)."""
