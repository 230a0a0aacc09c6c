"""The front door and who is asking: size limits and per-client limits before any request is
handled (guard, limits, addresses), connections, security headers, logs, and the session or API
token a request carries."""
