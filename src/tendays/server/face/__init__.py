"""The HTTP and WebSocket face, in rooms: the app that wires everything (``app``), what every router
shares (``routing``), the front door and who is asking (``door``), the HTTP routers with their
requests and answers (``routers``), and the WebSocket rooms (``sockets``)."""
