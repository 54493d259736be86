"""Kosynka's browser layer: the solo table on PyScript + Pyodide.

The modules here never decide a rule of the game; they ask ``kosynka``.
Pure modules (``i18n``, ``store``, ``links``, ``layout``) import nothing from the
browser and are tested on CPython; ``ui`` and ``main`` touch the DOM.
"""
