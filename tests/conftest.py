import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def pytest_collection_modifyitems(config, items):
    """The longest modules first, so that two workers (``./run-tests``: xdist, a module
    per worker) finish together instead of one waiting on a late race module: the
    race's browser modules (whole races of 2–4 pages), then the other browser
    modules, then the unit tests (many short modules that fill the gaps).
    Within a module the order stays as written."""
    def weight(item):
        path = str(item.fspath)
        if f"{os.sep}e2e{os.sep}" not in path:
            return 2
        return 0 if "race" in os.path.basename(path) else 1

    items.sort(key=weight)  # stable: modules keep their own order
