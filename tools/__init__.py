"""The repository's developer tools — no part of the app, never in the browser
bundle, never imported by the engine at import time.

* :mod:`tools.serve` — vendoring of the pinned runtime (npm) and the static
  dev server behind ``python3 -m kosynka serve``;
* :mod:`tools.bundle` — the browser bundle ``web/vendor/app.zip`` with its
  build records;
* :mod:`tools.pyimports` — which modules a Python file imports (ast), for the
  bundle's rule and the no-import-cycle test;
* :mod:`tools.snapshot` — the memory snapshot shipped with the build, made by
  ``tools/make-snapshot.mjs`` (Pyodide under Node.js) when the runtime is vendored.
"""
