"""The README's screenshot, made from the real page: ``python3 tools/screenshot.py``.

Serves the checkout (:func:`tools.serve.make_server`, vendoring if needed),
opens it in Chromium (``/usr/bin/chromium``, or ``$KOSYNKA_CHROMIUM``) as a
360×640 phone, deals Classic draw 3 deal 7, taps the stock twice and picks up
the waste's top card, then writes ``docs/kosynka-360x640.png`` (or the path
given). Needs Playwright for Python (``requirements-dev.txt``).
"""

from __future__ import annotations

import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "kosynka-360x640.png"


def shoot(out: Path = OUT) -> Path:
    from playwright.sync_api import sync_playwright

    sys.path.insert(0, str(ROOT))
    from tools.chromium import CHROMIUM, chromium_args
    from tools.serve import ensure_vendor, make_server

    ensure_vendor(ROOT)
    server = make_server(ROOT, 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/#deal=7&draw=3"
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True,
                                         args=chromium_args())
            ctx = browser.new_context(viewport={"width": 360, "height": 640}, is_mobile=True,
                                      has_touch=True, device_scale_factor=2, locale="en-US",
                                      reduced_motion="reduce")
            ctx.add_init_script("globalThis.KOSYNKA_BOOT = {snapshot: false, sw: false};")
            page = ctx.new_page()
            page.goto(url)
            page.wait_for_function("document.body.dataset.mode === 'ready'", timeout=120_000)
            for n in (1, 2):
                page.locator("[data-pile=stock]").tap()
                page.wait_for_function(f"document.getElementById('moves').textContent === '{n}'")
            page.locator("[data-pile=waste] .card").last.tap()
            page.wait_for_selector(".card.picked")
            page.screenshot(path=str(out))
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    return out


if __name__ == "__main__":
    print(shoot(Path(sys.argv[1]) if len(sys.argv) > 1 else OUT))
