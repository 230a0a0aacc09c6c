"""The browser client (static files served by tendays.server)."""
