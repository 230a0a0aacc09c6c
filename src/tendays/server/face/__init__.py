"""The HTTP and WebSocket face: the app and its routers, the pages, the front door's limits, the
lobby's requests and answers, and what is said at a table over its WebSocket."""
