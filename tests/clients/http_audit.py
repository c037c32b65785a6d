#!/usr/bin/env python3
"""GraphQL-over-HTTP audit of a running Carnet server: the graphql-http server audit suite, ported, plus Carnet's own
HTTP contract (auth, 405/406/413/415, error profile, CORS).

Usage:
    python3 tests/clients/http_audit.py --url https://127.0.0.1:PORT/graphql --ca ca.pem --token TOKEN \
        [--read-only-token TOKEN] [--http2 | --http2-only] [--strict] [--max-body 1048576] \
        [--cors-origin https://app.example] [--disallowed-origin https://evil.example] [--concurrency 1]

What it runs:
  * The 61 audits of graphql-http's src/audits/server.ts (graphql/graphql-http @ 08b4ed2; the table in
    shared/docs/graphql-over-http.md section 2), one request each, with the same IDs, names, bodies and pass
    conditions. Every request carries `Authorization: Bearer --token`. Where the reference leaves a header out
    (the "–" Accept column) this port sends no such header at all (fetch would send `accept: */*`); for 9ABE it
    sends `text/plain;charset=UTF-8` exactly as fetch does for a string body, and CARNET-415-NONE checks a POST
    with no Content-Type at all. Response bodies must decode as strict UTF-8.
  * CARNET-* checks of the server contract: 401 with `WWW-Authenticate: Bearer` without or with a bad token,
    405 with `Allow: POST` for a mutation over GET, 406 for an unsupported Accept, 415 for a missing or
    unsupported Content-Type, 413 for a body over --max-body (sent a bit over, with Content-Length and chunked),
    the Accept-driven Content-Type, the 200/400 error profile, 400 for wrong parameter types, 403 FORBIDDEN for
    a mutation with --read-only-token (if given), and CORS (a preflight from --cors-origin is answered 2xx with
    Access-Control-Allow-Origin echoing it; --disallowed-origin gets no Access-Control-Allow-Origin). Preflights
    carry no Authorization header, as browsers send them.

Levels: MUST and SHOULD failures make the exit status 1; MAY failures are reported as notices and only fail the
run with --strict. With --http2 the whole list runs again over HTTP/2 (ALPN h2, which must be negotiated; the
413 check then speaks HTTP/2 itself with the h2 package, since a server may answer before the body is complete
and reset the stream); --http2-only runs it over HTTP/2 alone.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import secrets
import select
import socket
import ssl
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Callable
from urllib.parse import urlsplit

try:
    import httpx
except ImportError as error:  # pragma: no cover - environment problem
    sys.exit(f"http_audit.py needs httpx (pip install -r tests/clients/requirements.txt): {error}")

GR = "application/graphql-response+json"
JSON = "application/json"
TYPENAME = {"query": "{ __typename }"}


class AuditFailure(Exception):
    """An audit's pass condition did not hold."""


@dataclass
class Audit:
    id: str
    name: str  # starts with the level (MUST, SHOULD, MAY), as in graphql-http
    fn: Callable[["Http"], None]

    @property
    def level(self) -> str:
        for level in ("MUST", "SHOULD", "MAY"):
            if self.name.startswith(level):
                return level
        return "MAY"


@dataclass
class Outcome:
    audit: Audit
    ok: bool
    reason: str = ""


def js_json(value: Any) -> bytes:
    """JSON.stringify: compact, raw UTF-8 (no \\u escapes)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def make_ssl_context(ca_path: str) -> ssl.SSLContext:
    context = ssl.create_default_context(ssl.Purpose.SERVER_AUTH, cafile=ca_path)
    context.check_hostname = True
    context.verify_mode = ssl.CERT_REQUIRED
    return context


class Http:
    """Sends one request per call; headers left as None are not sent at all."""

    def __init__(self, args: argparse.Namespace, http2: bool):
        self.args = args
        self.url = args.url
        self.http2 = http2
        self.client = httpx.Client(
            verify=make_ssl_context(args.ca),
            http1=True,
            http2=http2,
            timeout=httpx.Timeout(60.0),
            follow_redirects=False,
        )

    def close(self) -> None:
        self.client.close()

    def request(
        self,
        method: str,
        *,
        body: bytes | None = None,
        params: dict[str, str] | None = None,
        content_type: str | None = JSON,
        accept: str | None = None,
        auth: bool | str = True,
        headers: dict[str, str] | None = None,
    ) -> httpx.Response:
        sent: dict[str, str] = {}
        if content_type is not None:
            sent["Content-Type"] = content_type
        if accept is not None:
            sent["Accept"] = accept
        if auth is True:
            sent["Authorization"] = f"Bearer {self.args.token}"
        elif isinstance(auth, str):
            sent["Authorization"] = auth
        sent.update(headers or {})
        request = self.client.build_request(method, self.url, params=params, content=body, headers=sent)
        if accept is None:
            request.headers.pop("Accept", None)
        if content_type is None:
            request.headers.pop("Content-Type", None)
        response = self.client.send(request)
        response.read()
        if self.http2 and response.http_version != "HTTP/2":
            raise AuditFailure(f"the server answered over {response.http_version}, not HTTP/2 (ALPN h2)")
        return response

    def post(self, payload: Any = None, *, raw: bytes | None = None, **kwargs: Any) -> httpx.Response:
        body = raw if raw is not None else (js_json(payload) if payload is not None else None)
        return self.request("POST", body=body, **kwargs)

    def get(self, params: dict[str, str], **kwargs: Any) -> httpx.Response:
        return self.request("GET", params=params, content_type=None, **kwargs)


# -- assertions (graphql-http's "ressert") ---------------------------------------------------------------------


def describe(response: httpx.Response) -> str:
    text = response.content[:300].decode("utf-8", "replace").replace("\n", " ")
    return f"[{response.status_code} {response.headers.get('content-type', '-')}] {text}"


def status_is(response: httpx.Response, code: int) -> None:
    if response.status_code != code:
        raise AuditFailure(f"Response status code is not {code}: {describe(response)}")


def status_between(response: httpx.Response, low: int, high: int) -> None:
    if not low <= response.status_code <= high:
        raise AuditFailure(f"Response status is not between {low} and {high}: {describe(response)}")


def status_in_ranges(response: httpx.Response, ranges: list[tuple[int, int]]) -> None:
    if not any(low <= response.status_code <= high for low, high in ranges):
        raise AuditFailure(f"Response status is not between any of {ranges}: {describe(response)}")


def content_type_contains(response: httpx.Response, part: str) -> None:
    if part not in response.headers.get("content-type", ""):
        raise AuditFailure(f"Response header content-type does not contain {part}: {describe(response)}")


def body_json(response: httpx.Response) -> Any:
    try:
        text = response.content.decode("utf-8", "strict")
    except UnicodeDecodeError:
        raise AuditFailure(f"Response body is not UTF-8 encoded: {describe(response)}") from None
    try:
        return json.loads(text)
    except ValueError:
        raise AuditFailure(f"Response body is not valid JSON: {describe(response)}") from None


def no_property(response: httpx.Response, key: str) -> None:
    body = body_json(response)
    if isinstance(body, dict) and key in body:
        raise AuditFailure(f'Response body execution result has a property "{key}": {describe(response)}')


def data_undefined(response: httpx.Response) -> None:
    body = body_json(response)
    if not isinstance(body, dict) or "data" in body:
        raise AuditFailure(f'Response body execution result data is not "undefined": {describe(response)}')


def error_codes(response: httpx.Response) -> list[Any]:
    body = body_json(response)
    errors = body.get("errors") if isinstance(body, dict) else None
    return [(e.get("extensions") or {}).get("code") for e in errors or [] if isinstance(e, dict)]


# -- the graphql-http server audits ----------------------------------------------------------------------------


def extended_typeof(value: Any) -> str:
    if isinstance(value, list):
        return "array"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if value is None:
        return "null"
    return "object"


def registrar(audits: list[Audit]) -> Callable[[str, str], Callable[[Callable[[Http], None]], Callable[[Http], None]]]:
    """A decorator factory: `@add(id, name)` appends the decorated check to `audits`."""
    def add(audit_id: str, name: str) -> Callable[[Callable[[Http], None]], Callable[[Http], None]]:
        def register(fn: Callable[[Http], None]) -> Callable[[Http], None]:
            audits.append(Audit(audit_id, name, fn))
            return fn
        return register
    return add


def graphql_http_audits() -> list[Audit]:
    audits: list[Audit] = []
    add = registrar(audits)

    # Media types
    @add("22EB", "SHOULD accept application/graphql-response+json and match the content-type")
    def _(h: Http) -> None:
        r = h.post(TYPENAME, accept=GR)
        status_is(r, 200)
        content_type_contains(r, GR)

    @add("4655", "MUST accept application/json and match the content-type")
    def _(h: Http) -> None:
        r = h.post(TYPENAME, accept=JSON)
        status_is(r, 200)
        content_type_contains(r, JSON)

    @add("47DE", "SHOULD accept */* and use application/json for the content-type")
    def _(h: Http) -> None:
        r = h.post(TYPENAME, accept="*/*")
        status_is(r, 200)
        content_type_contains(r, JSON)

    @add("80D8", "SHOULD assume application/json content-type when accept is missing")
    def _(h: Http) -> None:
        r = h.post(TYPENAME)
        status_is(r, 200)
        content_type_contains(r, JSON)

    @add("82A3", "MUST use utf-8 encoding when responding")
    def _(h: Http) -> None:
        r = h.post(TYPENAME)
        status_is(r, 200)
        try:
            r.content.decode("utf-8", "strict")
        except UnicodeDecodeError:
            raise AuditFailure("Response body is not UTF-8 encoded") from None

    @add("BF61", "MUST accept utf-8 encoded request")
    def _(h: Http) -> None:
        r = h.post({"query": '{ __type(name: "Run🏃Swim🏊") { name } }'}, content_type="application/json; charset=utf-8")
        status_is(r, 200)

    @add("78D5", "MUST assume utf-8 in request if encoding is unspecified")
    def _(h: Http) -> None:
        status_is(h.post(TYPENAME), 200)

    # Request
    @add("2C94", "MUST accept POST requests")
    def _(h: Http) -> None:
        status_is(h.post(TYPENAME), 200)

    @add("5A70", "MAY accept application/x-www-form-urlencoded formatted GET requests")
    def _(h: Http) -> None:
        status_is(h.get({"query": "{ __typename }"}), 200)

    # Request GET
    @add("9C48", "MAY NOT allow executing mutations on GET requests")
    def _(h: Http) -> None:
        status_between(h.get({"query": "mutation { __typename }"}, accept=GR), 400, 499)

    # Request POST
    @add("9ABE", "SHOULD respond with 4xx status code if content-type is not supplied on POST requests")
    def _(h: Http) -> None:
        # fetch() labels a string body text/plain;charset=UTF-8 when no content-type is given.
        status_between(h.post(TYPENAME, content_type="text/plain;charset=UTF-8"), 400, 499)

    @add("03D4", "MUST accept application/json POST requests")
    def _(h: Http) -> None:
        status_is(h.post(TYPENAME), 200)

    @add("A5BF", "MAY use 400 status code when request body is missing on POST")
    def _(h: Http) -> None:
        status_is(h.post(raw=b""), 400)

    # Request parameters
    @add("423L", "MAY use 400 status code on missing {query} parameter")
    def _(h: Http) -> None:
        status_is(h.post({"notquery": "{ __typename }"}, accept=GR), 400)

    invalid_values: list[Any] = [{"obj": "ect"}, 0, False, ["array"]]
    for index, invalid in enumerate(invalid_values):
        @add(f"LKJ{index}", f"MAY use 400 status code on {extended_typeof(invalid)} {{query}} parameter")
        def _(h: Http, invalid: Any = invalid) -> None:
            status_is(h.post({"query": invalid}), 400)

    @add("34A2", "SHOULD allow string {query} parameter when accepting application/graphql-response+json")
    def _(h: Http) -> None:
        status_is(h.post(TYPENAME, accept=GR), 200)

    @add("13EE", "MUST allow string {query} parameter when accepting application/json")
    def _(h: Http) -> None:
        r = h.post(TYPENAME, accept=JSON)
        status_is(r, 200)
        no_property(r, "errors")

    for index, invalid in enumerate(invalid_values):
        @add(f"6C0{index}", f"MAY use 400 status code on {extended_typeof(invalid)} {{operationName}} parameter")
        def _(h: Http, invalid: Any = invalid) -> None:
            status_is(h.post({"operationName": invalid, "query": "{ __typename }"}), 400)

    @add("8161", "SHOULD allow string {operationName} parameter when accepting application/graphql-response+json")
    def _(h: Http) -> None:
        status_is(h.post({"operationName": "Query", "query": "query Query { __typename }"}, accept=GR), 200)

    @add("B8B3", "MUST allow string {operationName} parameter when accepting application/json")
    def _(h: Http) -> None:
        r = h.post({"operationName": "Query", "query": "query Query { __typename }"}, accept=JSON)
        status_is(r, 200)
        no_property(r, "errors")

    for index, parameter in enumerate(["variables", "operationName", "extensions"]):
        @add(f"94B{index}",
             f"SHOULD allow null {{{parameter}}} parameter when accepting application/graphql-response+json")
        def _(h: Http, parameter: str = parameter) -> None:
            r = h.post({"query": "{ __typename }", parameter: None}, accept=GR)
            status_is(r, 200)
            no_property(r, "errors")

        @add(f"022{index}", f"MUST allow null {{{parameter}}} parameter when accepting application/json")
        def _(h: Http, parameter: str = parameter) -> None:
            r = h.post({"query": "{ __typename }", parameter: None}, accept=JSON)
            status_is(r, 200)
            no_property(r, "errors")

    invalid_maps: list[Any] = ["string", 0, False, ["array"]]
    for index, invalid in enumerate(invalid_maps):
        @add(f"476{index}", f"MAY use 400 status code on {extended_typeof(invalid)} {{variables}} parameter")
        def _(h: Http, invalid: Any = invalid) -> None:
            status_is(h.post({"query": "{ __typename }", "variables": invalid}), 400)

    type_query = "query Type($name: String!) { __type(name: $name) { name } }"

    @add("2EA1", "SHOULD allow map {variables} parameter when accepting application/graphql-response+json")
    def _(h: Http) -> None:
        status_is(h.post({"query": type_query, "variables": {"name": "sometype"}}, accept=GR), 200)

    @add("28B9", "MUST allow map {variables} parameter when accepting application/json")
    def _(h: Http) -> None:
        r = h.post({"query": type_query, "variables": {"name": "sometype"}}, accept=JSON)
        status_is(r, 200)
        no_property(r, "errors")

    @add("D6D5", "MAY allow URL-encoded JSON string {variables} parameter in GETs when accepting "
                 "application/graphql-response+json")
    def _(h: Http) -> None:
        r = h.get({"query": type_query, "variables": json.dumps({"name": "sometype"})}, accept=GR)
        status_is(r, 200)
        no_property(r, "errors")

    @add("6A70", "MAY allow URL-encoded JSON string {variables} parameter in GETs when accepting application/json")
    def _(h: Http) -> None:
        r = h.get({"query": type_query, "variables": json.dumps({"name": "sometype"})}, accept=JSON)
        status_is(r, 200)
        no_property(r, "errors")

    for index, invalid in enumerate(invalid_maps):
        @add(f"58B{index}", f"MAY use 400 status code on {extended_typeof(invalid)} {{extensions}} parameter")
        def _(h: Http, invalid: Any = invalid) -> None:
            status_is(h.post({"query": "{ __typename }", "extensions": invalid}), 400)

    @add("428F", "SHOULD allow map {extensions} parameter when accepting application/graphql-response+json")
    def _(h: Http) -> None:
        status_is(h.post({"query": "{ __typename }", "extensions": {"some": "value"}}, accept=GR), 200)

    @add("1B7A", "MUST allow map {extensions} parameter when accepting application/json")
    def _(h: Http) -> None:
        r = h.post({"query": "{ __typename }", "extensions": {"some": "value"}}, accept=JSON)
        status_is(r, 200)
        no_property(r, "errors")

    not_json = b'{ "not a JSON'

    @add("B6DC", "MAY use 2xx, 4xx, or 5xx status codes on JSON parsing failure when accepting application/json")
    def _(h: Http) -> None:
        status_in_ranges(h.post(raw=not_json, accept=JSON), [(200, 299), (400, 499), (500, 599)])

    @add("BCF8", "SHOULD use 400 status code on JSON parsing failure when accepting application/json")
    def _(h: Http) -> None:
        status_is(h.post(raw=not_json, accept=JSON), 400)

    @add("B7N8", "SHOULD use 400 status code on JSON parsing failure when accepting "
                 "application/graphql-response+json")
    def _(h: Http) -> None:
        status_is(h.post(raw=not_json, accept=GR), 400)

    @add("8764", "MAY use 4xx or 5xx status codes if parameters are invalid")
    def _(h: Http) -> None:
        status_between(h.post({"qeury": "{ __typename }"}), 400, 599)

    @add("3E3A", "MAY use 400 status code if parameters are invalid")
    def _(h: Http) -> None:
        status_is(h.post({"qeury": "{ __typename }"}), 400)

    # Response application/json
    unknown_field = "{ 8f31403dfe404bccbb0e835f2629c6a7 }"
    coerce_failure = {"query": "query CoerceFailure($id: ID!){ __typename }", "variables": {"id": None}}

    @add("572B", "SHOULD use 200 status code on document parsing failure when accepting application/json")
    def _(h: Http) -> None:
        status_is(h.post({"query": "{"}, accept=JSON), 200)

    @add("FDE2", "SHOULD use 200 status code on document validation failure when accepting application/json")
    def _(h: Http) -> None:
        status_is(h.post({"query": unknown_field}, accept=JSON), 200)

    @add("7B9B", "SHOULD use a status code of 200 on variable coercion failure when accepting application/json")
    def _(h: Http) -> None:
        status_is(h.post(coerce_failure, accept=JSON), 200)

    # Response application/graphql-response+json
    @add("865D", "SHOULD use 4xx or 5xx status codes on document parsing failure when accepting "
                 "application/graphql-response+json")
    def _(h: Http) -> None:
        status_between(h.post({"query": "{"}, accept=GR), 400, 599)

    @add("556A", "SHOULD use 400 status code on document parsing failure when accepting "
                 "application/graphql-response+json")
    def _(h: Http) -> None:
        status_is(h.post({"query": "{"}, accept=GR), 400)

    @add("D586", "SHOULD not contain the data entry on document parsing failure when accepting "
                 "application/graphql-response+json")
    def _(h: Http) -> None:
        data_undefined(h.post({"query": "{"}, accept=GR))

    @add("51FE", "SHOULD use 4xx or 5xx status codes on document validation failure when accepting "
                 "application/graphql-response+json")
    def _(h: Http) -> None:
        status_between(h.post({"query": unknown_field}, accept=GR), 400, 599)

    @add("74FF", "SHOULD use 400 status code on document validation failure when accepting "
                 "application/graphql-response+json")
    def _(h: Http) -> None:
        status_is(h.post({"query": unknown_field}, accept=GR), 400)

    @add("5E5B", "SHOULD not contain the data entry on document validation failure when accepting "
                 "application/graphql-response+json")
    def _(h: Http) -> None:
        data_undefined(h.post({"query": unknown_field}, accept=GR))

    @add("86EE", "SHOULD use a status code of 400 on variable coercion failure when accepting "
                 "application/graphql-response+json")
    def _(h: Http) -> None:
        status_is(h.post(coerce_failure, accept=GR), 400)

    return audits


# -- raw HTTP/1.1 for the body-size checks ---------------------------------------------------------------------


def raw_http1_post(args: argparse.Namespace, body: bytes, chunked: bool) -> tuple[int, dict[str, str]]:
    """POSTs `body` over a fresh TLS connection like a careful client: stops sending as soon as the server answers
    (a server may send 413 and close before reading everything). Returns the status and the headers."""
    parts = urlsplit(args.url)
    host = parts.hostname or "localhost"
    port = parts.port or 443
    path = parts.path or "/"
    context = make_ssl_context(args.ca)
    context.set_alpn_protocols(["http/1.1"])
    head = [
        f"POST {path} HTTP/1.1",
        f"Host: {parts.netloc}",
        "Content-Type: application/json",
        f"Accept: {JSON}",
        f"Authorization: Bearer {args.token}",
        "Connection: close",
        "Transfer-Encoding: chunked" if chunked else f"Content-Length: {len(body)}",
    ]
    received = b""
    with socket.create_connection((host, port), timeout=20) as raw:
        with context.wrap_socket(raw, server_hostname=host) as tls:

            def poll() -> bytes:
                """Reads what the server already sent, without waiting (TLS session tickets read as nothing)."""
                readable, _, _ = select.select([tls], [], [], 0)
                if not readable and not tls.pending():
                    return b""
                tls.settimeout(0.2)
                try:
                    return tls.recv(65536)
                except (socket.timeout, ssl.SSLWantReadError):
                    return b""
                finally:
                    tls.settimeout(20)

            try:
                tls.sendall(("\r\n".join(head) + "\r\n\r\n").encode("ascii"))
                for offset in range(0, len(body), 16384):
                    received += poll()
                    if received:
                        break
                    piece = body[offset:offset + 16384]
                    tls.sendall(f"{len(piece):x}\r\n".encode() + piece + b"\r\n" if chunked else piece)
                else:
                    if chunked:
                        tls.sendall(b"0\r\n\r\n")
            except (BrokenPipeError, ConnectionResetError, ssl.SSLError) as error:
                if not received:
                    received += poll()
                if not received:
                    raise AuditFailure(f"the server closed the connection without an answer ({error!r})") from None
            deadline = time.monotonic() + 20
            while b"\r\n\r\n" not in received and time.monotonic() < deadline:
                try:
                    chunk = tls.recv(65536)
                except (socket.timeout, ConnectionResetError, ssl.SSLError):
                    break
                if not chunk:
                    break
                received += chunk
    if b"\r\n\r\n" not in received:
        raise AuditFailure(f"no complete HTTP response ({received[:200]!r})")
    lines = received.split(b"\r\n\r\n", 1)[0].decode("latin-1").split("\r\n")
    try:
        status = int(lines[0].split()[1])
    except (IndexError, ValueError):
        raise AuditFailure(f"malformed status line {lines[0]!r}") from None
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return status, headers


def raw_h2_post(args: argparse.Namespace, body: bytes) -> int:
    """POSTs `body` over a fresh HTTP/2 connection with the h2 package, within flow control, and returns the
    status. A server may answer (413) before the body is complete and then reset the stream (RFC 9113 8.1);
    httpx would report that reset as an error, so this reads the response itself."""
    import h2.config
    import h2.connection
    import h2.events
    import h2.exceptions

    parts = urlsplit(args.url)
    host = parts.hostname or "localhost"
    context = make_ssl_context(args.ca)
    context.set_alpn_protocols(["h2"])
    with socket.create_connection((host, parts.port or 443), timeout=20) as raw:
        with context.wrap_socket(raw, server_hostname=host) as tls:
            if tls.selected_alpn_protocol() != "h2":
                raise AuditFailure(f"ALPN chose {tls.selected_alpn_protocol()!r}, not h2")
            connection = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True,
                                                                              header_encoding="utf-8"))
            connection.initiate_connection()
            stream = connection.get_next_available_stream_id()
            connection.send_headers(stream, [
                (":method", "POST"), (":scheme", "https"), (":authority", parts.netloc),
                (":path", parts.path or "/"), ("content-type", JSON), ("accept", JSON),
                ("authorization", f"Bearer {args.token}"), ("content-length", str(len(body))),
            ])
            tls.sendall(connection.data_to_send())
            offset, status = 0, None
            deadline = time.monotonic() + 30
            while status is None:
                try:
                    while offset < len(body):
                        size = min(connection.local_flow_control_window(stream), connection.max_outbound_frame_size,
                                   len(body) - offset)
                        if size <= 0:
                            break
                        connection.send_data(stream, body[offset:offset + size],
                                             end_stream=offset + size == len(body))
                        offset += size
                except h2.exceptions.StreamClosedError:
                    offset = len(body)  # the server reset the stream; read what it answered
                tls.sendall(connection.data_to_send())
                if time.monotonic() > deadline:
                    raise AuditFailure("no HTTP/2 response within 30 s")
                try:
                    data = tls.recv(65536)
                except socket.timeout:
                    raise AuditFailure("no HTTP/2 response within 20 s") from None
                if not data:
                    raise AuditFailure("the server closed the connection without an HTTP/2 response")
                for event in connection.receive_data(data):
                    if isinstance(event, h2.events.ResponseReceived) and event.stream_id == stream:
                        status = int(dict(event.headers)[":status"])
                    elif isinstance(event, h2.events.StreamReset) and event.stream_id == stream and status is None:
                        raise AuditFailure(f"the server reset the stream ({event.error_code!r}) without a response")
                    elif isinstance(event, h2.events.ConnectionTerminated) and status is None:
                        raise AuditFailure(f"the server ended the connection ({event.error_code!r})")
                tls.sendall(connection.data_to_send())
            return status


def padded_body(size: int) -> bytes:
    """A valid request of exactly `size` bytes: `{ __typename }` with a padding variable."""
    prefix = b'{"query":"{ __typename }","variables":{"padding":"'
    suffix = b'"}}'
    return prefix + b"a" * max(0, size - len(prefix) - len(suffix)) + suffix


# -- Carnet's contract -----------------------------------------------------------------------------------------


def carnet_audits(args: argparse.Namespace) -> list[Audit]:
    audits: list[Audit] = []
    add = registrar(audits)

    def unauthorized(r: httpx.Response) -> None:
        status_is(r, 401)
        challenge = r.headers.get("www-authenticate", "")
        if not challenge.lower().startswith("bearer"):
            raise AuditFailure(f"WWW-Authenticate is {challenge!r}, expected a Bearer challenge: {describe(r)}")

    @add("CARNET-AUTH-NONE", "MUST answer 401 with WWW-Authenticate: Bearer to a POST without a token")
    def _(h: Http) -> None:
        unauthorized(h.post(TYPENAME, accept=JSON, auth=False))

    @add("CARNET-AUTH-NONE-GET", "MUST answer 401 with WWW-Authenticate: Bearer to a GET without a token")
    def _(h: Http) -> None:
        unauthorized(h.get({"query": "{ __typename }"}, accept=JSON, auth=False))

    @add("CARNET-AUTH-BAD", "MUST answer 401 with WWW-Authenticate: Bearer to an unknown bearer token")
    def _(h: Http) -> None:
        unauthorized(h.post(TYPENAME, accept=JSON, auth=f"Bearer not-a-token-{secrets.token_hex(8)}"))

    @add("CARNET-AUTH-SCHEME", "SHOULD answer 401 to an Authorization header of another scheme")
    def _(h: Http) -> None:
        status_is(h.post(TYPENAME, accept=JSON, auth=f"Basic {secrets.token_hex(8)}"), 401)

    @add("CARNET-GET-MUTATION", "MUST answer 405 with Allow: POST to a mutation over GET")
    def _(h: Http) -> None:
        r = h.get({"query": "mutation { __typename }"}, accept=JSON)
        status_is(r, 405)
        allow = [m.strip().upper() for m in r.headers.get("allow", "").split(",")]
        if "POST" not in allow:
            raise AuditFailure(f"Allow is {r.headers.get('allow')!r}, expected it to list POST")

    @add("CARNET-GET-QUERY", "MUST execute a query sent over GET")
    def _(h: Http) -> None:
        r = h.get({"query": "query CarnetGet { currentHistoryToken }"}, accept=JSON)
        status_is(r, 200)
        body = body_json(r)
        if not isinstance((body.get("data") or {}).get("currentHistoryToken"), str):
            raise AuditFailure(f"no data.currentHistoryToken: {describe(r)}")

    @add("CARNET-METHOD", "MAY answer 405 to a method other than GET and POST")
    def _(h: Http) -> None:
        status_is(h.request("PUT", body=js_json(TYPENAME)), 405)

    @add("CARNET-406", "MUST answer 406 to an Accept header with no supported type (text/html)")
    def _(h: Http) -> None:
        status_is(h.post(TYPENAME, accept="text/html"), 406)

    @add("CARNET-415-NONE", "MUST answer 415 to a POST without Content-Type")
    def _(h: Http) -> None:
        status_is(h.post(TYPENAME, content_type=None, accept=JSON), 415)

    @add("CARNET-415-TEXT", "MUST answer 415 to a POST with Content-Type text/plain")
    def _(h: Http) -> None:
        status_is(h.post(TYPENAME, content_type="text/plain;charset=UTF-8", accept=JSON), 415)

    @add("CARNET-415-FORM", "SHOULD answer 415 to a form-encoded POST (a CORS simple request)")
    def _(h: Http) -> None:
        r = h.request("POST", body=b"query=%7B+__typename+%7D", content_type="application/x-www-form-urlencoded",
                      accept=JSON)
        status_is(r, 415)

    @add("CARNET-ACCEPT-GR-FIRST", "MUST answer application/graphql-response+json when it comes first in Accept")
    def _(h: Http) -> None:
        r = h.post(TYPENAME, accept=f"{GR}, {JSON};q=0.9")
        status_is(r, 200)
        content_type_contains(r, GR)

    @add("CARNET-ACCEPT-JSON-FIRST", "MUST answer application/json when it comes before graphql-response+json")
    def _(h: Http) -> None:
        r = h.post(TYPENAME, accept=f"{JSON}, {GR}")
        status_is(r, 200)
        if GR in r.headers.get("content-type", ""):
            raise AuditFailure(f"Content-Type is {r.headers.get('content-type')!r}, expected application/json")
        content_type_contains(r, JSON)

    @add("CARNET-CHARSET", "SHOULD name the charset in the response Content-Type")
    def _(h: Http) -> None:
        r = h.post(TYPENAME, accept=JSON)
        if "charset=utf-8" not in r.headers.get("content-type", "").lower().replace(" ", ""):
            raise AuditFailure(f"Content-Type is {r.headers.get('content-type')!r}, without charset=utf-8")

    def request_error(r: httpx.Response, status: int, media: str) -> None:
        status_is(r, status)
        content_type_contains(r, media)
        body = body_json(r)
        if not isinstance(body, dict) or not body.get("errors"):
            raise AuditFailure(f"no errors in the body: {describe(r)}")
        if "data" in body:
            raise AuditFailure(f"a request error carries a data entry: {describe(r)}")

    coercion = {"query": "query CarnetCoerce($id: ID!) { node(id: $id) { id } }", "variables": {"id": None}}
    error_cases = {
        "PARSE": {"query": "{"},
        "VALIDATION": {"query": "{ carnetNoSuchField }"},
        "COERCION": coercion,
        "OPERATION": {"query": "query A { __typename } query B { __typename }", "operationName": "C"},
    }
    for case, payload in error_cases.items():
        @add(f"CARNET-JSON-{case}", f"MUST answer a {case.lower()} error under application/json with 200, errors "
                                    "and no data")
        def _(h: Http, payload: dict[str, Any] = payload) -> None:
            request_error(h.post(payload, accept=JSON), 200, JSON)

        @add(f"CARNET-GR-{case}", f"MUST answer a {case.lower()} error under application/graphql-response+json "
                                  "with 400, errors and no data")
        def _(h: Http, payload: dict[str, Any] = payload) -> None:
            request_error(h.post(payload, accept=GR), 400, GR)

    @add("CARNET-GR-EXECUTION", "MUST answer an executed query with data under graphql-response+json with 200")
    def _(h: Http) -> None:
        r = h.post({"query": "query CarnetMissing { contact(id: \"carnet-audit-missing\") { id } }"}, accept=GR)
        status_is(r, 200)
        content_type_contains(r, GR)
        body = body_json(r)
        if body.get("data") != {"contact": None} or "errors" in body:
            raise AuditFailure(f"expected {{\"data\":{{\"contact\":null}}}}: {describe(r)}")

    @add("CARNET-PARAM-TYPES", "MUST answer 400 to parameters of the wrong type (query, operationName, variables, "
                               "extensions)")
    def _(h: Http) -> None:
        bad: list[dict[str, Any]] = []
        bad += [{"query": v} for v in ({"obj": "ect"}, 0, False, ["array"])]
        bad += [{"query": "{ __typename }", "operationName": v} for v in ({"obj": "ect"}, 0, False, ["array"])]
        for key in ("variables", "extensions"):
            bad += [{"query": "{ __typename }", key: v} for v in ("string", 0, False, ["array"])]
        bad.append({"notquery": "{ __typename }"})
        wrong = []
        for payload in bad:
            r = h.post(payload, accept=JSON)
            if r.status_code != 400:
                wrong.append(f"{js_json(payload).decode()} -> {r.status_code}")
        if wrong:
            raise AuditFailure("; ".join(wrong))

    @add("CARNET-MALFORMED-JSON", "MUST answer 400 to a malformed JSON body, whatever the Accept")
    def _(h: Http) -> None:
        for accept in (JSON, GR, None):
            status_is(h.post(raw=b'{ "not a JSON', accept=accept), 400)

    if args.read_only_token:
        @add("CARNET-READ-ONLY-MUTATION", "MUST answer 403 with a FORBIDDEN error to a mutation with a read-only "
                                          "token")
        def _(h: Http) -> None:
            mutation = {"query": "mutation CarnetAuditReadOnly { save(request: {operations: []}) { historyToken } }"}
            r = h.post(mutation, accept=JSON, auth=f"Bearer {args.read_only_token}")
            status_is(r, 403)
            if "FORBIDDEN" not in error_codes(r):
                raise AuditFailure(f"no error with extensions.code FORBIDDEN: {describe(r)}")

        @add("CARNET-READ-ONLY-QUERY", "MUST execute a query with a read-only token")
        def _(h: Http) -> None:
            r = h.post({"query": "{ currentHistoryToken }"}, accept=JSON, auth=f"Bearer {args.read_only_token}")
            status_is(r, 200)
            no_property(r, "errors")

    # Body size
    over = padded_body(args.max_body + 4096)
    under = padded_body(max(args.max_body - 4096, 64))

    def too_large(h: Http, chunked: bool) -> None:
        if h.http2:
            status = raw_h2_post(args, over)
        else:
            status, _ = raw_http1_post(args, over, chunked)
        if status != 413:
            raise AuditFailure(f"Response status code is not 413 for a {len(over)}-byte body: {status}")

    @add("CARNET-413", f"MUST answer 413 to a body over --max-body ({args.max_body} bytes, sent with Content-Length)")
    def _(h: Http) -> None:
        too_large(h, chunked=False)

    @add("CARNET-413-CHUNKED", "SHOULD answer 413 to a chunked body over --max-body")
    def _(h: Http) -> None:
        if h.http2:
            return  # HTTP/2 has no chunked encoding; CARNET-413 covers it
        too_large(h, chunked=True)

    @add("CARNET-UNDER-LIMIT", "SHOULD execute a body just under --max-body")
    def _(h: Http) -> None:
        r = h.post(raw=under, accept=JSON)
        status_is(r, 200)

    # CORS
    origin, disallowed = args.cors_origin, args.disallowed_origin
    preflight_headers = {"Access-Control-Request-Method": "POST",
                         "Access-Control-Request-Headers": "authorization, content-type"}

    def preflight(h: Http, from_origin: str) -> httpx.Response:
        return h.request("OPTIONS", content_type=None, auth=False,
                         headers={"Origin": from_origin, **preflight_headers})

    @add("CARNET-CORS-PREFLIGHT", f"MUST answer a preflight from {origin} with 2xx and "
                                  "Access-Control-Allow-Origin echoing it")
    def _(h: Http) -> None:
        r = preflight(h, origin)
        status_between(r, 200, 299)
        allowed = r.headers.get("access-control-allow-origin")
        if allowed != origin:
            raise AuditFailure(f"Access-Control-Allow-Origin is {allowed!r}, expected {origin!r}: {describe(r)}")

    @add("CARNET-CORS-PREFLIGHT-HEADERS", "SHOULD allow POST and the authorization and content-type headers in a "
                                          "preflight")
    def _(h: Http) -> None:
        r = preflight(h, origin)
        methods = r.headers.get("access-control-allow-methods", "").upper()
        headers = r.headers.get("access-control-allow-headers", "").lower()
        if "POST" not in methods:
            raise AuditFailure(f"Access-Control-Allow-Methods is {methods!r}")
        # The "*" wildcard never covers Authorization (Fetch standard), so it must be named.
        missing = [name for name in ("authorization", "content-type") if name not in headers]
        if missing:
            raise AuditFailure(f"Access-Control-Allow-Headers {headers!r} lacks {missing}")

    @add("CARNET-CORS-DISALLOWED", f"MUST not send Access-Control-Allow-Origin to a preflight from {disallowed}")
    def _(h: Http) -> None:
        r = preflight(h, disallowed)
        allowed = r.headers.get("access-control-allow-origin")
        if allowed is not None:
            raise AuditFailure(f"Access-Control-Allow-Origin is {allowed!r} for a disallowed origin")

    @add("CARNET-CORS-ACTUAL", f"SHOULD send Access-Control-Allow-Origin: {origin} and Vary: Origin on a POST from it")
    def _(h: Http) -> None:
        r = h.post(TYPENAME, accept=JSON, headers={"Origin": origin})
        status_is(r, 200)
        if r.headers.get("access-control-allow-origin") != origin:
            raise AuditFailure(f"Access-Control-Allow-Origin is {r.headers.get('access-control-allow-origin')!r}")
        if "origin" not in r.headers.get("vary", "").lower():
            raise AuditFailure(f"Vary is {r.headers.get('vary')!r}, expected it to name Origin")

    @add("CARNET-CORS-ACTUAL-DISALLOWED", "MUST not send Access-Control-Allow-Origin on a POST from a disallowed "
                                          "origin")
    def _(h: Http) -> None:
        r = h.post(TYPENAME, accept=JSON, headers={"Origin": disallowed})
        if r.headers.get("access-control-allow-origin") is not None:
            raise AuditFailure(f"Access-Control-Allow-Origin is {r.headers.get('access-control-allow-origin')!r}")

    return audits


# -- running ---------------------------------------------------------------------------------------------------


def run_one(http: Http, audit: Audit) -> Outcome:
    try:
        audit.fn(http)
        return Outcome(audit, True)
    except AuditFailure as failure:
        return Outcome(audit, False, str(failure))
    except httpx.HTTPError as error:
        return Outcome(audit, False, f"{type(error).__name__}: {error}")
    except (OSError, ssl.SSLError) as error:
        return Outcome(audit, False, f"{type(error).__name__}: {error}")


def run_all(args: argparse.Namespace, http2: bool) -> list[Outcome]:
    http = Http(args, http2)
    audits = graphql_http_audits()
    if not args.only_graphql_http:
        audits += carnet_audits(args)
    if args.only:
        wanted = {i.upper() for i in args.only}
        audits = [a for a in audits if a.id.upper() in wanted]
    first: list[Outcome] = []
    if http2:
        audits = [a for a in audits if a.id != "CARNET-413-CHUNKED"]  # HTTP/2 has no chunked encoding
        # Http.request fails any answer that is not HTTP/2, so this probe checks ALPN.
        probe = Audit("CARNET-H2-ALPN", "MUST negotiate HTTP/2 through ALPN h2 (--http2)",
                      lambda h: status_is(h.post(TYPENAME, accept=JSON), 200))
        first.append(run_one(http, probe))
        if not first[0].ok:
            first[0].reason += "; the other HTTP/2 checks were skipped"
            http.close()
            return first
    try:
        with ThreadPoolExecutor(max_workers=max(1, args.concurrency)) as pool:
            return first + list(pool.map(lambda a: run_one(http, a), audits))
    finally:
        http.close()


def report(outcomes: list[Outcome], label: str, strict: bool) -> tuple[int, int, int]:
    passed = blocking = notices = 0
    print(f"== {label}", flush=True)
    for outcome in outcomes:
        audit = outcome.audit
        if outcome.ok:
            passed += 1
            verdict = "pass"
        elif audit.level == "MAY" and not strict:
            notices += 1
            verdict = "NOTE"
        else:
            blocking += 1
            verdict = "FAIL"
        line = f"{verdict:4}  {audit.id:30} {audit.level:6} {audit.name}"
        if not outcome.ok:
            line += f"\n      -> {outcome.reason}"
        print(line, flush=True)
    graphql_http = [o for o in outcomes if not o.audit.id.startswith("CARNET-")]
    print(f"   graphql-http audits: {sum(o.ok for o in graphql_http)}/{len(graphql_http)} pass; "
          f"Carnet checks: {sum(o.ok for o in outcomes if o.audit.id.startswith('CARNET-'))}/"
          f"{len(outcomes) - len(graphql_http)} pass; {notices} MAY notices", flush=True)
    return passed, blocking, notices


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="graphql-http server audits and Carnet's HTTP contract against a running server.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="Exit status 1 when a MUST or SHOULD check fails (any failure with --strict).",
    )
    parser.add_argument("--url", required=True, help="the GraphQL endpoint, https://HOST:PORT/graphql")
    parser.add_argument("--ca", required=True, help="PEM file of the CA that signed the server certificate")
    parser.add_argument("--token", required=True, help="a bearer token with the read scope (sent on every request)")
    parser.add_argument("--read-only-token", help="a read-only token: adds the 403 FORBIDDEN mutation check")
    parser.add_argument("--http2", action="store_true", help="run everything again over HTTP/2 (needs httpx[http2])")
    parser.add_argument("--http2-only", action="store_true", help="run over HTTP/2 only")
    parser.add_argument("--strict", action="store_true", help="fail on MAY audits too")
    parser.add_argument("--max-body", type=int, default=1048576,
                        help="the server's body limit in bytes (default 1048576); 4 KiB more is sent")
    parser.add_argument("--cors-origin", default="https://app.example", help="an allowed CORS origin")
    parser.add_argument("--disallowed-origin", default="https://evil.example", help="an origin that is not allowed")
    parser.add_argument("--concurrency", type=int, default=1,
                        help="audits in flight at once (graphql-http runs them all at once; default 1)")
    parser.add_argument("--only", nargs="+", metavar="ID", help="run only these audit IDs")
    parser.add_argument("--only-graphql-http", action="store_true", help="skip the CARNET-* checks")
    args = parser.parse_args(argv)
    if urlsplit(args.url).scheme != "https":
        parser.error("--url must be https:// (Carnet serves TLS only)")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    args.http2 = args.http2 or args.http2_only
    if args.http2 and importlib.util.find_spec("h2") is None:
        print("--http2 needs httpx[http2] (the h2 package)", file=sys.stderr)
        return 2
    runs = ([] if args.http2_only else [("HTTP/1.1", False)]) + ([("HTTP/2", True)] if args.http2 else [])
    total_passed = total_blocking = total_notices = 0
    for label, http2 in runs:
        passed, blocking, notices = report(run_all(args, http2), label, args.strict)
        total_passed += passed
        total_blocking += blocking
        total_notices += notices
    if total_notices:
        print(f"{total_notices} MAY audits failed (notices; --strict makes them fail the run)")
    print(f"{total_passed} passed, {total_blocking} failed")
    return 1 if total_blocking else 0


if __name__ == "__main__":
    sys.exit(main())
