"""The full-screen terminal game (``tendays play``) and replayer (``tendays replay``), built on Textual.

``table`` holds the seats and the game and knows nothing of Textual; ``render`` turns player views
into Rich text; ``play_app`` and ``replay_app`` are the Textual apps.
"""
