"""Kosynka's browser layer: the solo table on PyScript + Pyodide.

The modules here never decide a rule of the game; they ask ``kosynka``.
Pure modules (``i18n``, ``store``, ``links``, ``layout``, ``sheets``, ``modes``,
``solver_protocol``) import nothing from the browser and are tested on CPython
(``tests/test_web_*.py``); ``dom``, ``view`` (renders a position), ``input``
(taps, drags, keys → moves), ``dialogs``, ``solo`` (the game's life), ``app``
(the root: one mode, the panel), ``solve`` (the solver client: the
``solver-worker.mjs`` Web Worker, or sliced on the page) and ``main`` (the
PyScript entry point) touch the DOM and are tested end to end (``tests/e2e/``).
"""
