"""The learned bot's training, in one place: masked PPO on the batched engine
(:mod:`tendays.training.ppo`).

The bot itself (:mod:`tendays.bots.learned`, numpy only) and its inputs
(:mod:`tendays.bots.policy_inputs`) stay with the bots; the steps that make its weights are the
scripts beside this package's users, in order: ``tools/clone_policy.py`` (imitate the greedy bot),
``tools/train_policy.py`` (PPO, from here) and ``tools/screen_policy.py`` (choose a snapshot on
tuning deals); docs/rl.md tells the whole run. Needs the ``batch`` extra (jax, optax).
"""
