import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def pytest_collection_modifyitems(config, items):
    """The longest modules first, so that two workers (``./run-tests``: xdist, a module
    per worker) finish together instead of one waiting on a late race module: the
    network-namespace race (4 minutes, mostly its cuts' timers), the race's other
    browser modules (whole races of 2–4 pages), then the other browser modules,
    the other engines' short smoke test, then the unit tests (many short modules
    that fill the gaps). Within a module the order stays as written."""
    def weight(item):
        path = str(item.fspath)
        if f"{os.sep}e2e{os.sep}" not in path:
            return 3
        name = os.path.basename(path)
        if name == "test_engines.py":
            return 2.5                # Firefox and WebKit, about 30 s: after Chromium's
        return 0 if name == "test_race_netns.py" else 1 if "race" in name else 2

    items.sort(key=weight)  # stable: modules keep their own order
