"""The HTTP routers, one module per subject, each with its requests and answers beside it in
``<subject>_models.py``; what they share is :mod:`~tendays.server.face.routing`."""
