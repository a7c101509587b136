"""The studio's HTTP server: the page, its view as JSON, a stream of change events, pictures and the build's files.

Standard library only (ThreadingHTTPServer), bound to 127.0.0.1. It serves nothing from the disk but the
files the last build wrote (looked up by their exact relative path, so `..` and absolute paths name nothing),
and answers only requests addressed to the loopback host, so a web page elsewhere cannot reach it by a
DNS name that points here. Pictures are named by their content: sent once, cached for good.

It answers only its own page. A request a browser marks as coming from another site (its Origin, or its
Sec-Fetch-Site) is refused, whatever it asks for. A GET changes nothing; what draws or writes (a proof) is a
POST of JSON that carries the token the server put into its page, which another site's page cannot read
(the browser keeps a cross-origin answer from it), and whose JSON body and token header a browser sends
cross-origin only after a preflight this server never allows.
"""
from __future__ import annotations

import hmac
import json
import mimetypes
import secrets
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import unquote, urlsplit

LOOPBACK = "127.0.0.1"
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "[::1]")
KEEP_ALIVE_S = 15.0   # an idle event stream sends a comment this often, so a closed tab is noticed
IMMUTABLE = "public, max-age=31536000, immutable"
TOKEN_HEADER = "X-Pnpgen-Token"
TOKEN_MARK = b"{{studio_token}}"
MAX_BODY = 4096             # a proof's request is a few names
OWN_SITE = ("same-origin", "none")   # Sec-Fetch-Site of the page's own requests, and of one the user typed


def page_html(token: str) -> bytes:
    from pnpgen.resources import studio_page
    return studio_page().read_bytes().replace(TOKEN_MARK, token.encode())


class StudioServer(ThreadingHTTPServer):
    daemon_threads = True          # an open event stream never keeps the process alive
    allow_reuse_address = True

    def __init__(self, state, proof, port: int = 0):
        """`proof(ref, variant, colour)` -> a JSON-ready dict (or raises ValueError/KitError/BuildError)."""
        self.state, self.proof = state, proof
        self.token = secrets.token_urlsafe(32)   # for this run only: the page it serves carries it
        super().__init__((LOOPBACK, port), StudioHandler)

    def handle_error(self, request, client_address) -> None:
        """A request that failed: a closed tab is nothing; anything else is one line, never a traceback."""
        import sys
        error = sys.exc_info()[1]
        if not isinstance(error, (ConnectionError, TimeoutError)):
            print(f"studio: a request failed: {type(error).__name__}: {error}", file=sys.stderr, flush=True)

    @property
    def url(self) -> str:
        return f"http://{LOOPBACK}:{self.server_address[1]}/"


class StudioHandler(BaseHTTPRequestHandler):
    server: StudioServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args) -> None:  # the terminal shows builds, not requests
        pass

    def do_HEAD(self) -> None:
        self.do_GET()

    def do_GET(self) -> None:
        if not self._own_page_asks():
            return
        url = urlsplit(self.path)
        path = url.path
        if path == "/":
            return self._send(HTTPStatus.OK, page_html(self.server.token), "text/html; charset=utf-8", "no-store")
        if path == "/view.json":
            return self._send_json(self.server.state.snapshot())
        if path == "/events":
            return self._events()
        if path.startswith("/pic/"):
            return self._picture(path.removeprefix("/pic/"))
        if path.startswith("/file/"):
            return self._file(unquote(path.removeprefix("/file/")))
        if path == "/proof":
            return self._send_text(HTTPStatus.METHOD_NOT_ALLOWED, "a proof is drawn by the studio's page "
                                   "(a POST), never by a link", allow="POST")
        self._send_text(HTTPStatus.NOT_FOUND, "not found")

    def do_POST(self) -> None:
        self.close_connection = True  # a refused request's body is never read: the connection ends with it
        if not self._own_page_asks():
            return
        if urlsplit(self.path).path != "/proof":
            return self._send_text(HTTPStatus.NOT_FOUND, "not found")
        if not hmac.compare_digest(self.headers.get(TOKEN_HEADER, ""), self.server.token):
            return self._send_text(HTTPStatus.FORBIDDEN, "only the studio's own page may ask for a proof: reload it")
        query = self._json_body()
        if query is not None:
            self._proof(query)

    def _own_page_asks(self) -> bool:
        """Refuse (403) a request not addressed to the loopback host or sent by another site's page."""
        if not self._host_is_loopback():
            self._send_text(HTTPStatus.FORBIDDEN, "the studio answers only http://127.0.0.1 or localhost")
            return False
        origin = self.headers.get("Origin")
        site = (self.headers.get("Sec-Fetch-Site") or "none").strip().lower()
        if (origin is not None and not self._is_own_origin(origin)) or site not in OWN_SITE:
            self._send_text(HTTPStatus.FORBIDDEN, "the studio answers only its own page")
            return False
        return True

    def _host_is_loopback(self) -> bool:
        host = (self.headers.get("Host") or "").strip().lower()
        name = host.rsplit(":", 1)[0] if not host.startswith("[") else host.split("]")[0] + "]"
        return name in LOOPBACK_HOSTS

    def _is_own_origin(self, origin: str) -> bool:
        port = self.server.server_address[1]
        return origin.strip().lower() in {f"http://{host}:{port}" for host in LOOPBACK_HOSTS}

    def _json_body(self) -> dict | None:
        """The request's JSON object, or None after answering 400/413/415."""
        if (self.headers.get("Content-Type") or "").split(";")[0].strip().lower() != "application/json":
            self._send_text(HTTPStatus.UNSUPPORTED_MEDIA_TYPE, "send JSON")
            return None
        try:
            size = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            size = -1
        if not 0 <= size <= MAX_BODY:
            self._send_text(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, f"a request of at most {MAX_BODY} bytes")
            return None
        try:
            data = json.loads(self.rfile.read(size) or b"{}")
        except ValueError:
            data = None
        if not isinstance(data, dict) or not all(isinstance(v, str) for v in data.values()):
            self._send_text(HTTPStatus.BAD_REQUEST, "send a JSON object of names")
            return None
        return data

    def _picture(self, name: str) -> None:
        data = self.server.state.pictures.get(name)
        if data is None:
            return self._send_text(HTTPStatus.NOT_FOUND, "no such picture (the build moved on: reload the view)")
        if self.headers.get("If-None-Match") == f'"{name}"':
            self._send(HTTPStatus.NOT_MODIFIED, b"", "image/png", IMMUTABLE, etag=name)
        else:
            self._send(HTTPStatus.OK, data, "image/png", IMMUTABLE, etag=name)
        self.server.state.picture_sent(name)

    def _file(self, rel: str) -> None:
        path = self.server.state.file(rel)
        if path is None:
            return self._send_text(HTTPStatus.NOT_FOUND, "not a file of this build")
        try:
            data = path.read_bytes()
        except OSError:
            return self._send_text(HTTPStatus.NOT_FOUND, "that file is gone; the next build writes it again")
        kind = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        self._send(HTTPStatus.OK, data, kind, "no-cache")

    def _proof(self, first: dict) -> None:
        from pnpgen.problems import BuildError, KitError
        if not first.get("ref"):
            return self._send_text(HTTPStatus.BAD_REQUEST, "a proof needs a ref")
        try:
            answer = self.server.proof(first["ref"], first.get("variant") or None, first.get("colour") or None)
        except (ValueError, OSError, KitError, BuildError) as exc:
            return self._send_json({"error": str(exc)}, HTTPStatus.UNPROCESSABLE_ENTITY)
        self._send_json(answer)

    def _events(self) -> None:
        """Server-sent events: `view` with the news (state.news: the versions and the status line) whenever the
        view changes; comments keep it alive."""
        state = self.server.state
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.close_connection = True
        if self.command == "HEAD":
            return
        version = -1
        state.follow(1)
        try:
            while not state.stopping:
                if version >= 0:
                    state.wait_past(version, KEEP_ALIVE_S)
                if state.stopping:
                    break
                news = state.news()   # of the view as it is now, however many changes it passed
                now = news["version"]
                message = f"event: view\ndata: {json.dumps(news)}\n\n" if now != version else ": still here\n\n"
                self.wfile.write(message.encode())
                self.wfile.flush()
                version = now
        except (BrokenPipeError, ConnectionResetError):
            pass  # the tab was closed
        finally:
            state.follow(-1)

    def _send_json(self, data: dict, status: HTTPStatus = HTTPStatus.OK) -> None:
        body = json.dumps(data, ensure_ascii=False).encode()
        self._send(status, body, "application/json; charset=utf-8", "no-store")

    def _send_text(self, status: HTTPStatus, text: str, allow: str | None = None) -> None:
        self._send(status, (text + "\n").encode(), "text/plain; charset=utf-8", "no-store", allow=allow)

    def _send(self, status: HTTPStatus, body: bytes, kind: str, cache: str, etag: str | None = None,
              allow: str | None = None) -> None:
        self.send_response(status)
        if allow:
            self.send_header("Allow", allow)
        self.send_header("Content-Type", kind)
        self.send_header("Cache-Control", cache)
        self.send_header("X-Content-Type-Options", "nosniff")
        if etag:
            self.send_header("ETag", f'"{etag}"')
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD" and status != HTTPStatus.NOT_MODIFIED:
            self.wfile.write(body)


def start(server: StudioServer) -> threading.Thread:
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.2},
                              name="studio-server", daemon=True)
    thread.start()
    return thread
