"""A Nostr relay for the race's tests (issue 19 item 7): ``python3 -m tools.relay``.

The race finds friends through public Nostr relays (Trystero's Nostr strategy,
``web/race/room.mjs``); tests must not leave the machine, so they start this
relay — the real ``nostr-relay`` package from PyPI (pinned in
``requirements-dev.txt``), not a stand-in — and point the page at it with
``localStorage["kosynka.race.relays"]``.

``python3 -m tools.relay [--host 127.0.0.1] [--port 0] [--cert PEM --key PEM]``
prints the relay's WebSocket URL (``ws://127.0.0.1:PORT``; ``wss://`` with a TLS
certificate, as public relays are reached) as the first line of its output, once it
accepts connections, and runs until stopped (SIGINT or SIGTERM); its database
lives in a temporary folder removed at exit. Port 0 picks a free port. Wrong
arguments, a port in use or the package missing: one line on stderr, exit 2.

:func:`start` runs the same relay as a child process for a test and returns it
with its URL (``Relay.url``, ``Relay.stop()``).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import NoReturn

__all__ = ["main", "start", "Relay"]

_QUIET = {
    "version": 1,
    "disable_existing_loggers": False,
    "root": {"level": "ERROR", "handlers": []},
}


def _config(folder: Path, host: str, port: int) -> Path:
    """The package's own default config, with our database, address and quiet logs."""
    import nostr_relay
    import yaml  # nostr-relay's own dependency

    with open(Path(nostr_relay.__file__).with_name("config.yaml"), encoding="utf-8") as fp:
        conf = yaml.safe_load(fp)
    conf["storage"]["sqlalchemy.url"] = f"sqlite+aiosqlite:///{folder / 'relay.sqlite3'}"
    conf["gunicorn"] = {"bind": f"{host}:{port}", "workers": 1, "loglevel": "error"}
    conf["authentication"] = {"enabled": False}
    conf["logging"] = _QUIET
    conf["DEBUG"] = False
    path = folder / "config.yaml"
    path.write_text(yaml.safe_dump(conf), encoding="utf-8")
    return path


def _schema(folder: Path) -> None:
    """The relay's tables (its own CLI runs alembic for this; the metadata is the same)."""
    import sqlalchemy
    from nostr_relay.storage import get_metadata

    engine = sqlalchemy.create_engine(f"sqlite:///{folder / 'relay.sqlite3'}")
    get_metadata().create_all(engine)
    engine.dispose()


def _free_port(host: str) -> int:
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as s:
        s.bind((host, 0))
        port: int = s.getsockname()[1]
        return port


def _wait_listening(host: str, port: int, timeout: float) -> bool:
    """True once ``host:port`` accepts TCP connections (polled, bounded)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection((host, port), timeout=0.5):
                return True
        except OSError:
            time.sleep(0.05)
    return False


def _parse(argv: list[str]) -> argparse.Namespace:
    class Parser(argparse.ArgumentParser):
        def error(self, message: str) -> NoReturn:
            raise SystemExit(f"tools.relay: {message}")

    p = Parser(prog="python3 -m tools.relay", description="A Nostr relay on this machine, for tests.")
    p.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=0, help="TCP port (default 0 = any free)")
    p.add_argument("--cert", help="TLS certificate (PEM): serve wss:// (with --key)")
    p.add_argument("--key", help="the certificate's private key (PEM)")
    args = p.parse_args(argv)
    if not 0 <= args.port <= 65535:
        raise SystemExit(f"tools.relay: port out of range: {args.port}")
    if bool(args.cert) != bool(args.key):
        raise SystemExit("tools.relay: --cert and --key go together")
    return args


def main(argv: list[str] | None = None) -> int:
    try:
        args = _parse(list(sys.argv[1:] if argv is None else argv))
    except SystemExit as exc:
        if exc.code in (0, None):
            return 0
        print(exc.code, file=sys.stderr)
        return 2
    try:
        import uvicorn
        from nostr_relay import monkeypatch
        from nostr_relay.web import create_app
    except ImportError:
        print("tools.relay: the nostr-relay package is missing "
              "(python3 -m pip install -r requirements-dev.txt)", file=sys.stderr)
        return 2
    try:
        port = args.port or _free_port(args.host)
        with socket.socket(socket.AF_INET6 if ":" in args.host else socket.AF_INET) as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind((args.host, port))  # in use or not ours: said now, in one line
    except OSError as exc:
        print(f"tools.relay: cannot listen on {args.host}:{args.port}: {exc.strerror or exc}",
              file=sys.stderr)
        return 2
    warnings.filterwarnings("ignore", message="The `websockets` implementation")  # uvicorn's notice
    folder = Path(tempfile.mkdtemp(prefix="kosynka-relay-"))
    try:
        with contextlib.redirect_stdout(io.StringIO()):  # the first line is our URL
            monkeypatch.monkey()
        conf = _config(folder, args.host, port)
        _schema(folder)
        app = create_app(str(conf))
        tls = {"ssl_certfile": args.cert, "ssl_keyfile": args.key} if args.cert else {}
        server = uvicorn.Server(uvicorn.Config(app, host=args.host, port=port, log_level="error", **tls))
        shown = f"[{args.host}]" if ":" in args.host else args.host

        def announce() -> None:
            if _wait_listening(args.host, port, 30):
                print(f"{'wss' if tls else 'ws'}://{shown}:{port}", flush=True)
            else:
                print(f"tools.relay: the relay did not start on {args.host}:{port}", file=sys.stderr)
                server.should_exit = True

        threading.Thread(target=announce, daemon=True).start()
        server.run()  # the main thread: the relay's own signal handlers; SIGINT/SIGTERM stop it
        return 0
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@dataclass
class Relay:
    """A relay started by :func:`start` (a child process)."""

    url: str
    proc: subprocess.Popen[str]

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)


def start(host: str = "127.0.0.1", port: int = 0, prefix: list[str] | None = None,
          timeout: float = 60, tls: tuple[str, str] | None = None) -> Relay:
    """Run ``python3 -m tools.relay`` (under ``prefix``, e.g. ``ip netns exec NAME``;
    ``tls``: certificate and key files, for ``wss://``) and wait for its URL line.
    ``RuntimeError`` with its error output if it fails."""
    root = Path(__file__).resolve().parent.parent
    cmd = [*(prefix or []), sys.executable, "-m", "tools.relay", "--host", host, "--port", str(port),
           *(["--cert", tls[0], "--key", tls[1]] if tls else [])]
    proc = subprocess.Popen(cmd, cwd=root, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    deadline = time.monotonic() + timeout
    line = ""
    import selectors

    out = proc.stdout
    assert out is not None   # (stdout=PIPE)
    with selectors.DefaultSelector() as sel:
        sel.register(out, selectors.EVENT_READ)
        while time.monotonic() < deadline and proc.poll() is None:
            if sel.select(0.5):
                line = out.readline().strip()
                break
    if not line.startswith(("ws://", "wss://")):
        relay = Relay("", proc)
        relay.stop()
        err = proc.stderr.read() if proc.stderr else ""
        raise RuntimeError(f"tools.relay did not start: {line or err.strip()[-500:]}")
    return Relay(line, proc)


if __name__ == "__main__":
    sys.exit(main())
