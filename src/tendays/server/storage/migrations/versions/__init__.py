"""One module per schema revision, oldest first (each names the one it follows)."""
