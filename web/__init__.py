"""Kosynka's browser layer: the solo table on PyScript + Pyodide.

The modules here never decide a rule of the game; they ask ``kosynka``.
Pure modules (``i18n``, ``store``, ``links``, ``layout``) import nothing from the
browser and are tested on CPython (``tests/test_web_store.py``); ``ui`` (table,
input, panel, dialogs), ``solve`` (solver scheduling: the ``solver-worker.mjs`` Web
Worker, or sliced on the page) and ``main`` (the PyScript entry point) touch the
DOM and are tested end to end (``tests/e2e/test_game_*.py``).
"""
