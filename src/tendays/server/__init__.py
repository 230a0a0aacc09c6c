"""The web server: lobby, match master and persistence for browser games."""
