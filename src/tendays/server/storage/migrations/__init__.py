"""The database's migrations (Alembic): run at every start of the server, so any
tendays upgrades its database."""
