"""The database's tables, one module per area (games, accounts, people, notices, tournaments), all
declared on one ``Base``; ``storage/schema.py`` gathers them with the migrations."""
