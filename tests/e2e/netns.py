"""Network shapes for the race's tests (issue 19 item 6): Linux network namespaces,
each player's page behind its own router, a STUN/TURN server and the relay in an
"internet" namespace — nothing routed off the machine (no namespace here has a
link to the machine's own network, and the addresses are the documentation
ranges RFC 5737 and 10.19.x inside them).

::

    k19-c1 (player 1)            k19-r1 (router 1)                k19-inet
    eth0 10.19.1.2/24 ── lan0 10.19.1.1   wan0 203.0.113.11 ──┐
                                                               br0 203.0.113.1/24: coturn
    k19-c2 (player 2)            k19-r2 (router 2)             │  (STUN/TURN :3478, also
    eth0 10.19.2.2/24 ── lan0 10.19.2.1   wan0 203.0.113.12 ──┘  :19302), the Nostr relay,
                                                                  the app's static server

Routers (:meth:`Net.shape`): ``routed`` (plain routing, no NAT), ``nat`` (a home
router: masquerade, unsolicited inbound packets dropped), ``symmetric``
(``MASQUERADE --random-fully``: a new port per destination, as many mobile
carriers). :meth:`Net.cut` drops everything a router forwards for a while, or
takes its line down (its mappings forgotten).

Players' browsers run in their namespace (``ip netns exec``) with their own
``resolv.conf`` (``/etc/netns/k19-cN/``) naming the internet's DNS (Debian's
``dnsmasq``), which answers the page's default STUN host names with the coturn
server's address, and the default Nostr relays' names with the internet's address
(a relay with TLS on port 443 there, :meth:`Net.relay_cert`), and nothing else —
so "the defaults" are tested as a player's
browser has them, without asking a server off the machine. (Chromium's WebRTC
does not read ``/etc/hosts`` nor ``--host-resolver-rules`` for STUN names:
measured.)

Everything made here is removed by :meth:`Net.close` (also after a failure, and
first of all any ``k19-`` leftovers of an earlier run that was killed).
:func:`available` says in one line why namespaces cannot be made, or None.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from web.race.ice import DEFAULT_RELAYS

PREFIX = "k19-"
INET = PREFIX + "inet"
INET_IP = "203.0.113.1"
TURN_USER = TURN_PASS = "kosynka"
STUN_NAMES = ("stun.l.google.com", "stun.cloudflare.com")   # web/race/ice.py's defaults
STUN_PORTS = (19302, 3478)
# web/race/ice.py's default relays (wss://, port 443): answered by the DNS with the
# internet's address, where a relay with a self-signed certificate for them listens
RELAY_NAMES = tuple(u.split("//", 1)[1] for u in DEFAULT_RELAYS)


def _run(*cmd: str, check: bool = True) -> subprocess.CompletedProcess:
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=30)
    if check and p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}: {p.stderr.strip() or p.stdout.strip()}")
    return p


def _ns(name: str, *cmd: str, check: bool = True) -> subprocess.CompletedProcess:
    return _run("ip", "netns", "exec", name, *cmd, check=check)


def available() -> str | None:
    """None if this machine can make the namespaces, else why not (one line)."""
    if os.geteuid() != 0:
        return "network namespaces need root"
    for tool in ("ip", "iptables", "turnserver", "dnsmasq", "openssl"):
        if shutil.which(tool) is None:
            return f"{tool} is not installed (./run-tests installs it)"
    probe = PREFIX + "probe"
    try:
        _run("ip", "netns", "add", probe)
        _ns(probe, "iptables", "-t", "nat", "-L")
    except (RuntimeError, OSError, subprocess.TimeoutExpired) as e:
        return f"cannot make a network namespace with NAT here: {str(e).splitlines()[0]}"
    finally:
        _run("ip", "netns", "del", probe, check=False)
    return None


def leftovers() -> list[str]:
    out = _run("ip", "netns", "list", check=False).stdout
    return [line.split()[0] for line in out.splitlines() if line.startswith(PREFIX)]


class Net:
    """The namespaces of one test module; ``players`` clients, each behind a router."""

    def __init__(self, players: int = 2) -> None:
        self.players = players
        self.procs: list[subprocess.Popen] = []
        self.tmp = Path(tempfile.mkdtemp(prefix="k19-"))
        self.shapes: dict[int, str] = {}
        self.cleanup_stale()
        try:
            self._build()
        except Exception:
            self.close()
            raise

    # ------------------------------------------------------------ names
    @staticmethod
    def client(i: int) -> str:
        return f"{PREFIX}c{i}"

    @staticmethod
    def router(i: int) -> str:
        return f"{PREFIX}r{i}"

    def names(self) -> list[str]:
        return [INET] + [n for i in range(1, self.players + 1) for n in (self.router(i), self.client(i))]

    # ------------------------------------------------------------ build
    def _build(self) -> None:
        for name in self.names():
            _run("ip", "netns", "add", name)
            _ns(name, "ip", "link", "set", "lo", "up")
        _ns(INET, "ip", "link", "add", "br0", "type", "bridge")
        _ns(INET, "ip", "addr", "add", f"{INET_IP}/24", "dev", "br0")
        _ns(INET, "ip", "link", "set", "br0", "up")
        _ns(INET, "sysctl", "-qw", "net.ipv4.ip_forward=1")
        for i in range(1, self.players + 1):
            c, r = self.client(i), self.router(i)
            # client ↔ router (the home network)
            _run("ip", "link", "add", "eth0", "netns", c, "type", "veth", "peer", "lan0", "netns", r)
            _ns(c, "ip", "addr", "add", f"10.19.{i}.2/24", "dev", "eth0")
            _ns(c, "ip", "link", "set", "eth0", "up")
            _ns(c, "ip", "route", "add", "default", "via", f"10.19.{i}.1")
            _ns(r, "ip", "addr", "add", f"10.19.{i}.1/24", "dev", "lan0")
            _ns(r, "ip", "link", "set", "lan0", "up")
            # router ↔ the internet's bridge
            _run("ip", "link", "add", "wan0", "netns", r, "type", "veth", "peer", f"r{i}", "netns", INET)
            _ns(INET, "ip", "link", "set", f"r{i}", "master", "br0")
            _ns(INET, "ip", "link", "set", f"r{i}", "up")
            _ns(r, "ip", "addr", "add", f"{self.wan(i)}/24", "dev", "wan0")
            _ns(r, "ip", "link", "set", "wan0", "up")
            _ns(r, "ip", "route", "add", "default", "via", INET_IP)
            _ns(r, "sysctl", "-qw", "net.ipv4.ip_forward=1")
            # the way back to a home network when its router does not translate
            _ns(INET, "ip", "route", "add", f"10.19.{i}.0/24", "via", self.wan(i))
            # the player's browser finds the default STUN names at coturn
            etc = Path("/etc/netns") / c
            etc.mkdir(parents=True, exist_ok=True)
            (etc / "resolv.conf").write_text(f"nameserver {INET_IP}\n")
            self.shape(i, "nat")
        # coturn: STUN and TURN (long-term credentials) on the internet's address;
        # the defaults' other port (19302) is redirected to it
        for port in STUN_PORTS[:-1]:
            for proto in ("udp", "tcp"):
                _ns(INET, "iptables", "-t", "nat", "-A", "PREROUTING", "-p", proto, "--dport",
                    str(port), "-j", "REDIRECT", "--to-ports", "3478")
        self.procs.append(subprocess.Popen(
            ["ip", "netns", "exec", INET, "turnserver", "-n", "--listening-ip", INET_IP,
             "--relay-ip", INET_IP, "--listening-port", "3478", "--min-port", "49152",
             "--max-port", "49999", "--lt-cred-mech", "--realm", "kosynka",
             "--user", f"{TURN_USER}:{TURN_PASS}", "--no-tls", "--no-dtls", "--no-cli",
             "--pidfile", str(self.tmp / "turnserver.pid"), "--log-file", "stdout",
             "--simple-log"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        # DNS of the "internet": the default STUN names are coturn's address, every
        # other name is unknown (answered at once, never forwarded)
        self.procs.append(subprocess.Popen(
            ["ip", "netns", "exec", INET, "dnsmasq", "--no-daemon", "--no-resolv", "--no-hosts",
             f"--listen-address={INET_IP}", "--bind-interfaces", "--port=53",
             f"--pid-file={self.tmp / 'dnsmasq.pid'}",
             *(f"--address=/{n}/{INET_IP}" for n in STUN_NAMES + RELAY_NAMES), "--address=/#/"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        self._wait_udp_listener(":3478 ")
        self._wait_udp_listener(":53 ")

    def _wait_udp_listener(self, port: str, timeout: float = 20) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if port in _ns(INET, "ss", "-lun", check=False).stdout:
                return
            time.sleep(0.1)
        raise RuntimeError(f"nothing listens on UDP {port.strip()} in {INET}")

    def relay_cert(self) -> tuple[str, str]:
        """A self-signed certificate (and its key) for the default relays' names: the
        players' browsers run with ``--ignore-certificate-errors`` (test only)."""
        cert, key = self.tmp / "relay.pem", self.tmp / "relay.key"
        _run("openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256",
             "-nodes", "-days", "2", "-subj", "/CN=" + RELAY_NAMES[0], "-keyout", str(key),
             "-out", str(cert), "-addext", "subjectAltName=" + ",".join(f"DNS:{n}" for n in RELAY_NAMES))
        return str(cert), str(key)

    @staticmethod
    def wan(i: int) -> str:
        return f"203.0.113.{10 + i}"

    # ------------------------------------------------------------ shapes and cuts
    def shape(self, i: int, kind: str) -> None:
        """Router ``i`` becomes ``routed``, ``nat`` or ``symmetric`` (its rules anew;
        the connection tracking table emptied, as a router that restarts)."""
        r = self.router(i)
        for table in ("filter", "nat"):
            _ns(r, "iptables", "-t", table, "-F")
        if kind in ("nat", "symmetric"):
            _ns(r, "iptables", "-t", "nat", "-A", "POSTROUTING", "-o", "wan0", "-j", "MASQUERADE",
                *(["--random-fully"] if kind == "symmetric" else []))
            for chain in ("INPUT", "FORWARD"):   # unsolicited packets vanish, no ICMP
                _ns(r, "iptables", "-A", chain, "-i", "wan0", "-m", "conntrack", "--ctstate",
                    "ESTABLISHED,RELATED", "-j", "ACCEPT")
                _ns(r, "iptables", "-A", chain, "-i", "wan0", "-j", "DROP")
        elif kind != "routed":
            raise ValueError(kind)
        _ns(r, "conntrack", "-F", check=False)   # conntrack-tools may be absent: fine
        self.shapes[i] = kind

    def cut(self, i: int, on: bool, link: bool = False) -> None:
        """Router ``i`` forwards nothing (``on``) or again: its mappings kept — or,
        ``link``, its line down (``wan0``): the kernel forgets every mapping made
        through it (masquerade's table is wiped when its interface goes down), so
        the player's connections come back through new ports, as after a home
        router's line dropped or a phone's carrier let it go."""
        r = self.router(i)
        if link:
            _ns(r, "ip", "link", "set", "wan0", "down" if on else "up")
            if not on:
                _ns(r, "ip", "route", "replace", "default", "via", INET_IP)
        elif on:
            _ns(r, "iptables", "-I", "FORWARD", "1", "-j", "DROP", "-m", "comment", "--comment", "k19-cut")
        else:
            _ns(r, "iptables", "-D", "FORWARD", "-j", "DROP", "-m", "comment", "--comment", "k19-cut",
                check=False)

    def block_udp(self, i: int, on: bool) -> None:
        """Router ``i`` forwards no UDP (``on``) or again: the direct path goes, the
        relays (TCP) stay — as a network that lets only the web through."""
        r = self.router(i)
        rule = ["FORWARD", "-p", "udp", "-j", "DROP", "-m", "comment", "--comment", "k19-udp"]
        if on:
            _ns(r, "iptables", "-I", *rule[:1], "1", *rule[1:])
        else:
            _ns(r, "iptables", "-D", *rule, check=False)

    def unplug(self, i: int, on: bool) -> None:
        """Player ``i``'s device with no network at all (its only route gone: the
        browser then finds no address of its own, as a phone in flight mode)."""
        c = self.client(i)
        if on:
            _ns(c, "ip", "route", "flush", "dev", "eth0")
            _ns(c, "ip", "link", "set", "eth0", "down")
        else:
            _ns(c, "ip", "link", "set", "eth0", "up")
            _ns(c, "ip", "route", "replace", "default", "via", f"10.19.{i}.1")

    # ------------------------------------------------------------ programs
    def spawn(self, ns: str, *cmd: str, **kw) -> subprocess.Popen:
        proc = subprocess.Popen(["ip", "netns", "exec", ns, *cmd], **kw)
        self.procs.append(proc)
        return proc

    def chromium(self, i: int, real: str = "/usr/bin/chromium") -> str:
        """An executable that runs Chromium in player ``i``'s namespace (for
        Playwright's ``executable_path``)."""
        path = self.tmp / f"chromium-c{i}"
        path.write_text(f'#!/bin/sh\nexec ip netns exec {self.client(i)} {real} "$@"\n')
        path.chmod(0o755)
        return str(path)

    # ------------------------------------------------------------ cleanup
    @staticmethod
    def cleanup_stale() -> None:
        for name in leftovers():
            _run("ip", "netns", "pids", name, check=False)
            for pid in _run("ip", "netns", "pids", name, check=False).stdout.split():
                try:
                    os.kill(int(pid), 9)
                except (ProcessLookupError, ValueError):
                    pass
            _run("ip", "netns", "del", name, check=False)
        netns_etc = Path("/etc/netns")
        for d in netns_etc.glob(PREFIX + "*") if netns_etc.is_dir() else ():
            shutil.rmtree(d, ignore_errors=True)

    def close(self) -> None:
        for proc in reversed(self.procs):
            if proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(10)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait(5)
        self.procs.clear()
        # what still runs in our namespaces (a browser's helpers) goes with them
        for name in self.names():
            for pid in _run("ip", "netns", "pids", name, check=False).stdout.split():
                try:
                    os.kill(int(pid), 15)
                except (ProcessLookupError, ValueError):
                    pass
        for name in self.names():
            _run("ip", "netns", "del", name, check=False)
            shutil.rmtree(Path("/etc/netns") / name, ignore_errors=True)
        shutil.rmtree(self.tmp, ignore_errors=True)
