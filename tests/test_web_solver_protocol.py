"""The page ↔ solver worker protocol (issue 9 item 4): versioned envelopes, the
worker's jobs in slices, cancel between slices, and refusals of bad requests."""
import json

from kosynka import Game, Position, Rules
from kosynka.solver import verified_deal
from web.solver_protocol import PROTOCOL, Jobs, ready


def req(kind, id, **fields):
    return PROTOCOL.dumps(PROTOCOL.build(kind, id, **fields))


def run(jobs, limit=10_000):
    for _ in range(limit):
        out = jobs.step()
        if out:
            return [PROTOCOL.parse(o) for o in out]
    raise AssertionError("no answer")


def test_ready_is_a_v1_envelope():
    assert PROTOCOL.parse(ready("snapshot")) == {"v": 1, "id": 0, "kind": "ready", "boot": "snapshot"}


def test_V1_deal_answers_the_first_verified_deal():
    jobs = Jobs()
    assert jobs.receive(req("deal", 3, start=40, draw=1, redeals=None)) is None
    assert jobs.busy
    [ans] = run(jobs)
    assert ans["kind"] == "dealt" and ans["id"] == 3
    assert ans["number"] == verified_deal(40, Rules(1))[0]
    assert not jobs.busy


def test_F2_solve_answers_a_line_that_wins():
    jobs = Jobs()
    pos = Position.deal(7)
    jobs.receive(req("solve", 5, position=pos.to_json(), draw=1, redeals=None,
                     max_states=100_000, max_seconds=30.0))
    [ans] = run(jobs)
    assert ans["kind"] == "solved" and ans["id"] == 5 and ans["result"] == "won"
    g = Game.new(7)
    for m in ans["moves"]:
        g.play(m)
    assert g.is_won


def test_cancel_stops_the_search_between_slices():
    jobs = Jobs()
    jobs.receive(req("solve", 1, position=Position.deal(340).to_json(), draw=1, redeals=None,
                     max_states=400_000, max_seconds=20.0))
    jobs.receive(req("deal", 2, start=1, draw=3, redeals=2))
    answer = jobs.receive(req("cancel", 3, target=1))
    assert PROTOCOL.parse(answer) == {"v": 1, "id": 1, "kind": "cancelled"}
    assert list(jobs.jobs) == [2]  # the next request runs at once
    assert jobs.receive(req("cancel", 4, target=1)) is None  # answered already: nothing more


def test_bad_requests_are_answered_with_an_error_and_start_nothing():
    jobs = Jobs()
    cases = [
        ("not json", "msg/not_json"),
        (json.dumps({"v": 2, "id": 1, "kind": "deal", "start": 1, "draw": 1, "redeals": None}), "msg/version"),
        (json.dumps({"v": 1, "id": 1, "kind": "deal", "start": 1, "draw": 1}), "msg/field"),
        (json.dumps({"v": 1, "id": 1, "kind": "deal", "start": True, "draw": 1, "redeals": None}), "msg/field"),
    ]
    for text, code in cases:
        ans = PROTOCOL.parse(jobs.receive(text))
        assert ans["kind"] == "error" and ans["error"].startswith(code), (text, ans)
    for kind, fields in (("deal", {"start": -1, "draw": 1, "redeals": None}),
                         ("deal", {"start": 1, "draw": 2, "redeals": None}),
                         ("solve", {"position": {"tableau": 5}, "draw": 1, "redeals": None,
                                    "max_states": 10, "max_seconds": 1.0}),
                         ("dealt", {"number": 1, "states": 1})):
        ans = PROTOCOL.parse(jobs.receive(req(kind, 9, **fields)))
        assert ans["kind"] == "error" and ans["id"] == 9, (kind, ans)
    assert not jobs.busy


def test_a_search_that_fails_answers_an_error_and_the_worker_goes_on():
    class Exhausted:  # as VerifiedDealSearch past the last deal number
        def step(self, n):
            raise ValueError("no verified deal at or after 18446744073709551615")

    jobs = Jobs()
    jobs.jobs[4] = Exhausted()
    jobs.receive(req("deal", 5, start=40, draw=1, redeals=None))
    answers = run(jobs) + run(jobs)
    assert [(a["id"], a["kind"]) for a in answers] == [(4, "error"), (5, "dealt")]
    assert "no verified deal" in answers[0]["error"]
