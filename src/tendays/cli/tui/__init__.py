"""The full-screen terminal game (``tendays play``) and replayer (``tendays replay``), built on
Textual.

``table`` holds the seats and the game, and ``input_model`` turns keys and clicks into moves;
neither knows Textual. ``render`` turns player views into Rich text and ``widgets`` puts it on
screen; ``game_screen``, ``setup_screen`` and ``end_screen`` are the screens of ``play_app``, and
``replay_app`` steps through a saved game.
"""
