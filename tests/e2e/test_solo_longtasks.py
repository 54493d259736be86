"""A page that never stalls (issue 12 item 6), from the app's start-up
(``performance.mark('kosynka:start')``, once the Python runtime is up) through a
Finish pressed before the solver worker is up and New deal:

* asserted — what the page decides: the Finish does not wait for the worker
  (issue 32 item 6: a first visit's Finish waited 13.7 s for it) but searches on
  the page in slices, and the table stays the player's;
* printed — the Long Tasks API figures (the aim: no task over 50 ms). They are
  wall-clock: on this shared machine (load average above 20 on 2 cores) a short
  task is stretched past 50 ms by the scheduler, so, as with issue 9 item 7, the
  timing is not asserted here (``bench/page.py`` measures it over several runs).
"""

from __future__ import annotations

from gamekit import NO_BOOT_EXTRAS

LONGTASKS = """
window.__longtasks = [];
new PerformanceObserver(list => {
    for (const e of list.getEntries()) window.__longtasks.push([e.startTime, e.duration]);
}).observe({type: 'longtask', buffered: true});
"""


def run(page, base_url, wait_ready, address):
    page.goto(base_url + address)
    wait_ready(page)
    # the table is up: Finish at once, before the solver worker has started
    t_start = page.evaluate("performance.getEntriesByName('kosynka:start')[0].startTime")
    worker_up = page.evaluate("!!(window.kosynkaSolverStats && window.kosynkaSolverStats.worker_boot)")
    deal = page.evaluate("document.body.dataset.deal")
    page.click("[data-action=finish]")
    page.click("[data-action=confirm]")
    page.wait_for_selector("#verdict, #win-moves", timeout=90_000)
    stats = page.evaluate("window.kosynkaSolverStats")
    assert stats["finish_where"] == "page", stats  # it did not wait for the worker
    assert stats["finish_page_slices"] > 0, stats  # but searched in slices on the page
    page.click("#sheet [data-action=again]")  # New deal from the verdict or the win sheet
    page.wait_for_function(f"document.body.dataset.deal !== '{deal}'", timeout=60_000)
    page.click("[data-action=new]")  # and one more, from the panel (no move: no question)
    page.wait_for_function("document.body.dataset.mode === 'ready'")
    t_end = page.evaluate("performance.now()")
    tasks = page.evaluate("window.__longtasks")
    app = [round(d) for s, d in tasks if t_start <= s <= t_end]
    boot = [round(d) for s, d in tasks if s < t_start]
    print(f"\n{address or 'first visit'}: long tasks of the runtime's boot: {boot}; "
          f"from the app's start-up on: {app}; worker up at first Finish: {worker_up}; stats: {stats}")
    assert not worker_up  # the Finish really was pressed before the worker was up
    return stats


def test_first_visit_start_up_first_finish_and_new_deal(new_context, base_url, wait_ready):
    """A first visit: the first verified deal is searched on the page (in slices),
    Finish is pressed as soon as the table is up, then New deal twice."""
    ctx = new_context("phone", boot=NO_BOOT_EXTRAS, reduced_motion="reduce")
    ctx.add_init_script(LONGTASKS)
    stats = run(ctx.new_page(), base_url, wait_ready, "")
    assert stats["finish_result"] == "won"


def test_linked_lost_deal_finish_before_the_worker_is_up(new_context, base_url, wait_ready):
    """Deal 340 (draw 1) is proven lost by F2: the verdict sheet, then New deal."""
    ctx = new_context("phone", boot=NO_BOOT_EXTRAS, reduced_motion="reduce")
    ctx.add_init_script(LONGTASKS)
    stats = run(ctx.new_page(), base_url, wait_ready, "#deal=340&draw=1")
    assert stats["finish_result"] == "lost"
