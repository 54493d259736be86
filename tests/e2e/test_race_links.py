"""Seats by links over real WebRTC (issue 11 items 1–2, 8, O4): the invite and the
reply link with their QR codes, the reply handed over to the hosting tab of the
same browser; refused links say why and change nothing."""

from __future__ import annotations

import time

from gamekit import NO_BOOT_EXTRAS
from racekit import hand_over, host_table, invite_link, open_page, open_reply

from web.race import signal


def test_links_handover_and_refusals(new_context, base_url):
    host = host_table(new_context, base_url, "Anna")
    friend = open_page(new_context, base_url, "Bohdan")
    url = invite_link(host)
    invite_qr = int(host.page.get_attribute("#race .qrbox", "data-qr-version"))
    assert isinstance(signal.parse_link(url), signal.Invite)

    friend.page.goto(url)
    friend.page.wait_for_selector("#race [data-action=join]")
    assert "Anna" in friend.page.text_content("#race h2")
    friend.page.click("#race [data-action=join]")
    reply = friend.page.locator("#race [data-reply-link]").text_content(timeout=20_000)
    reply_qr = int(friend.page.get_attribute("#race .qrbox", "data-qr-version"))

    # a refused paste changes nothing: foreign text, a damaged code, an invite
    for text, code in (("hello there", "link/foreign"),
                       (reply[:-10], "link/corrupt"),
                       (url, "link/kind")):
        host.page.fill("#race [data-field=reply]", text)
        host.page.click("#race [data-action=paste-reply]")
        host.page.wait_for_selector(f"#race [data-linkerror='{code}']")
    assert host.page.locator("#race li[data-pid]").count() == 1

    t0 = time.perf_counter()
    assert hand_over(host, reply) == "ok"
    friend.page.wait_for_function("document.body.dataset.race === 'lobby'")
    host.page.wait_for_selector("#race li[data-pid='1'][data-connected=yes]")
    connected_s = time.perf_counter() - t0
    print(f"\nFIGURE invite link {len(url)} chars, QR version {invite_qr}; reply link "
          f"{len(reply)} chars, QR version {reply_qr}; reply opened → both connected "
          f"{connected_s:.2f} s")
    # the same reply again: its invite is answered (stale), nothing changes
    assert hand_over(host, reply) == "link/stale"
    # a reply opened where no race table is open in the browser
    other = new_context("phone", boot=NO_BOOT_EXTRAS)
    assert open_reply(other, reply) == "none"
    # a damaged invite opened by a friend: a clear message, no Join
    late = open_page(new_context, base_url, "Vira")
    late.page.goto(url[:-12])
    late.page.wait_for_selector("#race [data-linkerror='link/corrupt']")
    assert late.page.locator("#race [data-action=join]").count() == 0
