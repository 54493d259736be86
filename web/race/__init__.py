"""Race with friends in the browser (issues 11, 19, 28; SPEC N1–N13, O4, O5).

``kosynka.race`` holds the rules, the host and the protocol; this package puts them
on WebRTC data channels and in the page. ``page`` is a thin router over its parts:
``control`` (the race's life, no DOM), ``net`` (the connection: ``rooms``,
``invites``, ``ice``, ``rtc``), ``hosting`` and ``friend`` (the host's and a
friend's ways to a table), and the screens as HTML from the view (``lobby``,
``strip``, ``results``; ``screen`` puts them in the page). ``docs/race.md`` has
the whole map.
"""
