"""The browser client: its static files, served by tendays.server, and the pages as the server sends
them (:mod:`tendays.web.pages` writes each page's top bar in)."""
