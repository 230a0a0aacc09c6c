"""People: accounts and their sessions, ratings, profiles and quick pairing, on the database."""
