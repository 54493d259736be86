"""Race with friends in the browser (issue 11; SPEC N1–N11, O4).

``kosynka.race`` holds the rules, the host and the protocol; this package puts them
on WebRTC data channels and in the page:

- ``signal`` — the invite and reply links: an SDP offer/answer cut to what a data
  channel needs, packed into a URL-fragment code (pure Python, tested on CPython);
- ``qr`` — a link as an SVG QR code (segno, vendored into the app bundle);
- ``rtc`` — :class:`kosynka.race.transport.Link` over ``rtc.mjs`` (one
  ``RTCPeerConnection`` and one reliable ordered data channel per link).
"""
