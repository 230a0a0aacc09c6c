"""The database: its URL, schema and migrations, the store and its one writing thread (the journal),
and the leases by which several server processes share it (the cluster)."""
