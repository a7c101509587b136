"""A real headless Chromium driven over the Chrome DevTools Protocol, with the standard library only.

Used by the studio's tests and by `make bench`: the page is loaded and read as a browser shows it (its DOM
after its own scripts ran, its pictures decoded), not as an HTTP client sees it. The websocket client below
is the small part of RFC 6455 DevTools needs (text frames, masked from us, unmasked from it); every wait has
a deadline, and the browser (its own process group) is stopped when the `with` block ends.
"""
from __future__ import annotations

import base64
import json
import os
import shutil
import signal
import socket
import struct
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

def _parent_death_signal():
    """A preexec_fn that has the kernel send the child SIGTERM when this process dies, however it dies (even
    SIGKILL), so no browser or server outlives a killed test run (Linux; elsewhere nothing). libc is loaded
    here, in the parent: the child only makes one C call between fork and exec."""
    try:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        prctl = libc.prctl
    except (OSError, AttributeError):
        return None
    PR_SET_PDEATHSIG = 1
    return lambda: prctl(PR_SET_PDEATHSIG, int(signal.SIGTERM))


DIE_WITH_PARENT = _parent_death_signal()


def chromium_path() -> str | None:
    """The system's Chromium (Debian's package `chromium`), or None."""
    return shutil.which("chromium")


class WebSocket:
    """A blocking websocket client: just enough for DevTools."""

    def __init__(self, url: str, timeout: float):
        rest = url.removeprefix("ws://")
        host_port, _, path = rest.partition("/")
        host, _, port = host_port.partition(":")
        self.sock = socket.create_connection((host, int(port)), timeout=timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET /{path} HTTP/1.1\r\nHost: {host_port}\r\nUpgrade: websocket\r\n"
                           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
                           ).encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(1)
            if not chunk:
                raise ConnectionError("DevTools closed the websocket during the handshake")
            head += chunk
        if b" 101 " not in head.split(b"\r\n", 1)[0]:
            raise ConnectionError(f"DevTools refused the websocket: {head[:200]!r}")

    def send(self, text: str) -> None:
        payload, mask = text.encode(), os.urandom(4)
        size = len(payload)
        header = bytes([0x81])
        if size < 126:
            header += bytes([0x80 | size])
        elif size < 65536:
            header += bytes([0x80 | 126]) + struct.pack("!H", size)
        else:
            header += bytes([0x80 | 127]) + struct.pack("!Q", size)
        self.sock.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))

    def recv(self) -> str:
        """The next whole text message (continuation frames joined; pings and binary frames skipped)."""
        parts = []
        while True:
            first, second = self._read(2)
            size = second & 0x7F
            if size == 126:
                size = struct.unpack("!H", self._read(2))[0]
            elif size == 127:
                size = struct.unpack("!Q", self._read(8))[0]
            payload = self._read(size)
            opcode = first & 0x0F
            if opcode == 0x8:
                raise ConnectionError("DevTools closed the websocket")
            if opcode in (0x0, 0x1):
                parts.append(payload)
                if first & 0x80:
                    return b"".join(parts).decode()

    def _read(self, count: int) -> bytes:
        data = b""
        while len(data) < count:
            chunk = self.sock.recv(count - len(data))
            if not chunk:
                raise ConnectionError("DevTools closed the websocket")
            data += chunk
        return data

    def close(self) -> None:
        self.sock.close()


class Browser:
    """`with Browser() as b: b.open(url); b.evaluate('document.title')`: one headless page."""

    def __init__(self, timeout: float = 30.0, size: tuple[int, int] = (1280, 8000)):
        """`size`: the window in CSS pixels; tall, so that lazily loaded pictures load without scrolling."""
        self.timeout, self.size = timeout, size
        self.proc = None
        self.ws = None
        self.next_id = 0

    def __enter__(self) -> "Browser":
        if chromium_path() is None:
            raise RuntimeError("no Chromium on this machine (apt-get install -y chromium)")
        self.profile = tempfile.mkdtemp(prefix="pnpgen-chromium-")
        self.proc = subprocess.Popen(
            ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--disable-extensions", "--disable-background-networking", "--disable-dev-shm-usage",
             "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0",
             f"--user-data-dir={self.profile}", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
            preexec_fn=DIE_WITH_PARENT)
        try:
            self.ws = WebSocket(self._page_socket(self._devtools_port()), self.timeout)
            self.call("Emulation.setDeviceMetricsOverride", width=self.size[0], height=self.size[1],
                      deviceScaleFactor=1, mobile=False)
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def _devtools_port(self) -> int:
        port_file, deadline = Path(self.profile) / "DevToolsActivePort", time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"Chromium exited at start (code {self.proc.returncode})")
            lines = port_file.read_text().split() if port_file.exists() else []
            if lines and lines[0].isdigit():
                return int(lines[0])
            time.sleep(0.05)
        raise TimeoutError(f"Chromium opened no DevTools port within {self.timeout} s")

    def _page_socket(self, port: int) -> str:
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=self.timeout) as answer:
                pages = [t for t in json.load(answer) if t.get("type") == "page"]
            if pages:
                return pages[0]["webSocketDebuggerUrl"]
            time.sleep(0.05)
        raise TimeoutError("Chromium has no page to drive")

    def call(self, method: str, **params) -> dict:
        """Send one DevTools command and return its result (events in between are skipped)."""
        self.next_id += 1
        ident = self.next_id
        self.ws.send(json.dumps({"id": ident, "method": method, "params": params}))
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            message = json.loads(self.ws.recv())
            if message.get("id") == ident:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})
        raise TimeoutError(f"{method}: no answer within {self.timeout} s")

    def open(self, url: str) -> None:
        self.call("Page.navigate", url=url)

    def evaluate(self, expression: str):
        """The value of a JavaScript expression in the page (promises awaited)."""
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression[:80]}: {result['exceptionDetails'].get('text')}")
        return result.get("result", {}).get("value")

    def wait_for(self, expression: str, seconds: float = 20.0, step: float = 0.02):
        """Poll until `expression` is truthy in the page; its value, or AssertionError with the last one."""
        deadline, value = time.monotonic() + seconds, None
        while time.monotonic() < deadline:
            try:
                value = self.evaluate(expression)
            except RuntimeError:  # the page is still loading: its script's names are not there yet
                value = None
            if value:
                return value
            time.sleep(step)
        raise AssertionError(f"the page never showed {expression!r} within {seconds} s (last: {value!r})")

    def __exit__(self, *exc) -> None:
        if self.ws is not None:
            self.ws.close()
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)  # the browser's own group: its renderer and GPU helpers
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=10)
        shutil.rmtree(getattr(self, "profile", ""), ignore_errors=True)
