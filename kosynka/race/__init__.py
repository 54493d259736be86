"""Race with friends (SPEC N1–N13): the table's rules, the host, the protocol and
the transport interface — pure Python, no ``js``/``pyodide`` import.

Modules: :mod:`.table` (the rules, a pure state machine), :mod:`.protocol`
(every message kind: builder and check), :mod:`.host` (owns the truth),
:mod:`.player` (a friend's side), :mod:`.transport` (the ``Link`` interface),
:mod:`.memory` (in-memory links with faults, fake clock), :mod:`.simulate`
(bots and ``python -m kosynka race simulate``).

Nothing here blocks, sleeps or starts a thread: time comes from an injected
``clock()`` (seconds, monotonic), timers fire when the host's :meth:`Host.tick`
is called, and everything sent is JSON text.

Using it from a page (the browser helper)
=========================================

Every seat is a :class:`Player`, the host's own too; the host's page also runs
the :class:`Host` (the truth of the race) and hands its own seat an in-memory
link to it, so a page has one path whoever it is.

The host's page::

    host = Host("Anna", clock=lambda: js.performance.now() / 1000)
    host.attach(link)                       # each new channel (a Link), newcomer or comeback
    host.tick()                             # every 250 ms: timers, and each friend's ping (PING_S)
    host.close()                            # N13: the page closes (pagehide): "closed" to everyone
    host.rejected; host.log                 # refused messages: count by code; who, when, why
    player = host.own_player()              # the host's own seat, pid 0 — then as a friend's page:

A friend's page::

    player = Player("Boris", clock=...)
    player.connect(link)                    # joins; after a drop, connect(new_link) comes back (N9)

Then, on every page::

    player.on_change = repaint
    player.set_ready(True)                  # N3 (a friend)
    player.play("Th>4")                     # local game at once; raises IllegalMoveError etc.
    player.offer_draw(); player.answer_draw(False); player.resign()
    player.set_settings(draw=3, minutes=5)  # the host's seat, lobby only; None = to the last card (N4)
    player.start()                          # the host's seat: the host picks a verified deal (V1)
    player.again(); player.change_settings()   # the host's seat, once the race is over (N11)
    player.tick()                           # every 250 ms: an unanswered join again; the table gone?
    player.leave()                          # N12: Leave, said (the host's seat: closes the table, N13)
    player.lost, player.grace_left          # our way to the host gone; our N9 grace as the host counts it
    player.ended                            # None, "left", "closed" (by the host) or "gone" (N13)
    player.game                             # our own Game (None while watching); paint it,
                                            # but no hints (Game.targets) in a race (N10)
    player.view                             # the host's view: phase, players' counters, offer …
    player.standings                        # the host's standings once the race is over
    player.error                            # why we were not seated ("update Kosynka" …)

The host's Start and Again run the verified-deal search at once (tens of ms);
``Host(deals=fn)`` gives another source (``fn(rules) -> deal number``). Actions
the rules refuse are refused by the host (a ``reject``; :attr:`Player.rejects`)
and change nothing; those a player can see are refused at once with
:class:`RaceError` (``.code``, ``.detail``).

A view (``Table.view``) is a dict: ``you``, ``phase`` (``lobby``, ``racing``,
``over``), ``can`` (what ``you`` may do now: ``move``, ``resign``, ``offer``,
``answer``, ``ready``, ``settings``, ``start``, ``again``, ``change_settings``,
``remove``), ``outcome`` (how it went for ``you``: ``result`` won / lost / draw /
resigned / counted_out, ``why``, ``place``, ``of``, counters — None while
racing), ``end`` (``reason`` all_up / time_up / agreed / last_left,
``decided_by``, ``winners``, ``drawn``), ``race`` (number), ``deal``, ``draw``,
``minutes``, ``clock`` (s since Start), ``ends_in`` (s left, timed), ``players``
(``pid``, ``name``, ``seat``, ``host``, ``ready``, ``connected``, ``away`` (s
of grace left, N9), ``status``, ``out``, ``score``, ``foundation``,
``face_up``, ``moves``), ``offer`` (``id``, ``by``, ``agreed``), ``standings``
(``pid``, ``name``, ``place``, ``result`` won/lost/draw, ``why``,
``foundation``, ``face_up``, ``moves``, ``out``), ``tables`` (every racer's
position JSON, once the race is over, N2), ``events`` (what happened since this
member's last view; see :mod:`.table`) and ``event`` (the last event's number).

The whole round trip, on in-memory links (:mod:`.memory`) and a fake clock:

>>> from kosynka.race.memory import Network
>>> net = Network()
>>> host = Host("Anna", net.clock, seed=1)
>>> anna = host.own_player()
>>> host_end, boris_end = net.pair("seat1")
>>> host.attach(host_end)
>>> boris = Player("Boris", net.clock)
>>> boris.connect(boris_end)
>>> net.run()
>>> boris.pid, [p["name"] for p in boris.view["players"]]
(1, ['Anna', 'Boris'])
>>> boris.set_ready(True); net.run()
>>> anna.start(); net.run()
>>> boris.game.number == anna.game.number == boris.view["deal"]
True
>>> boris.play("D"); net.run()
>>> [(p["name"], p["moves"]) for p in anna.view["players"]]
[('Anna', 0), ('Boris', 1)]
>>> boris.resign(); net.run()
>>> [(s["name"], s["result"]) for s in boris.standings]
[('Anna', 'won'), ('Boris', 'lost')]
"""

from .host import Host
from .player import Player
from .table import RaceError, Table

__all__ = ["Host", "Player", "Table", "RaceError"]
