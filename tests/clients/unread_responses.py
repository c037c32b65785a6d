#!/usr/bin/env python3
"""A client that asks over HTTP/2 and never reads (its stream window 0) holds at most the server's budget of built
responses (`maxHeldResponseBytes`): the answers past it are dropped and their requests get 503 SERVER_BUSY with
Retry-After, while those within it are whole once the client reads; a request after that is answered again. Before,
every unread answer was held, up to 64 MiB apiece, for as long as the connection lived (an outside tester's three
connections of eight unread answers grew the server by 835 MB).

    python3 tests/clients/unread_responses.py --port PORT --ca ca.pem --token TOKEN --budget BYTES

Exit status 1 on failure.
"""
from __future__ import annotations

import argparse
import json
import socket
import ssl
import sys

try:
    import h2.config
    import h2.connection
    import h2.events
    import h2.settings
    import httpx
except ImportError as error:  # pragma: no cover - environment problem
    sys.exit(f"unread_responses.py needs httpx[http2] (pip install -r tests/clients/requirements.txt): {error}")

CONTACTS = 40
NOTE = "n" * 30_000
QUERY = json.dumps({"query": "{ contacts(first: %d) { nodes { note } } }" % CONTACTS}).encode()


def seed(args) -> None:
    with httpx.Client(verify=ssl.create_default_context(cafile=args.ca), timeout=120) as client:
        # Ten at a time: a request body is at most 1 MiB.
        for start in range(0, CONTACTS, 10):
            operations = [{"addContact": {"givenName": f"Unread {i}", "note": NOTE}} for i in range(start, start + 10)]
            reply = client.post(
                f"https://localhost:{args.port}/graphql", headers={"Authorization": f"Bearer {args.token}"},
                json={"query": "mutation($r: SaveRequestInput!) { save(request: $r) { revision } }",
                      "variables": {"r": {"transactionAuthor": "seed", "operations": operations}}})
            if reply.status_code != 200 or "errors" in reply.json():
                raise SystemExit(f"FAIL: seeding: {reply.status_code} {reply.text[:300]}")


def request(h2c) -> int:
    stream = h2c.get_next_available_stream_id()
    h2c.send_headers(stream, [(":method", "POST"), (":scheme", "https"), (":authority", "localhost"),
                              (":path", "/graphql"), ("authorization", f"Bearer {ARGS.token}"),
                              ("content-type", "application/json"), ("content-length", str(len(QUERY)))])
    h2c.send_data(stream, QUERY, end_stream=True)
    return stream


def main() -> int:
    seed(ARGS)
    answer = CONTACTS * len(NOTE)
    fit = ARGS.budget // answer
    asked = fit + 3
    if fit < 1 or asked > 8:
        raise SystemExit(f"FAIL: a budget of {ARGS.budget} bytes holds {fit} answers of ~{answer}: pick another")
    context = ssl.create_default_context(cafile=ARGS.ca)
    context.set_alpn_protocols(["h2"])
    failures = 0
    with context.wrap_socket(socket.create_connection(("127.0.0.1", ARGS.port), timeout=120),
                             server_hostname="localhost") as connection:
        h2c = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True))
        h2c.local_settings = h2.settings.Settings(
            client=True, initial_values={h2.settings.SettingCodes.INITIAL_WINDOW_SIZE: 0})
        h2c.initiate_connection()
        streams = [request(h2c) for _ in range(asked)]
        connection.sendall(h2c.data_to_send())
        statuses: dict[int, str] = {}
        headers: dict[int, dict] = {}
        bodies: dict[int, bytearray] = {stream: bytearray() for stream in streams}
        ended: set[int] = set()

        def pump() -> None:
            data = connection.recv(1 << 16)
            if not data:
                raise SystemExit(f"FAIL: the server closed the connection; statuses {statuses}")
            for event in h2c.receive_data(data):
                if isinstance(event, h2.events.ResponseReceived):
                    fields = {k.decode(): v.decode() for k, v in event.headers}
                    statuses[event.stream_id] = fields[":status"]
                    headers[event.stream_id] = fields
                elif isinstance(event, h2.events.DataReceived):
                    bodies[event.stream_id] += event.data
                    h2c.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
                elif isinstance(event, h2.events.StreamEnded):
                    ended.add(event.stream_id)
                elif isinstance(event, (h2.events.StreamReset, h2.events.ConnectionTerminated)):
                    raise SystemExit(f"FAIL: {event!r}")
            connection.sendall(h2c.data_to_send())

        # Response heads are not flow-controlled: every request's status arrives with the window still shut.
        while len(statuses) < asked:
            pump()
        held = sorted(statuses[s] for s in streams)
        # Built at once, answers that would not all fit may each hold part of the budget when another asks to grow,
        # and be cut short: fewer than fit may come whole (one always does), never more.
        answered = held.count("200")
        if not 1 <= answered <= fit or held.count("503") != asked - answered:
            print(f"FAIL: {asked} unread answers of ~{answer} bytes under a budget of {ARGS.budget}: {held}")
            failures += 1
        else:
            print(f"{answered} answers held, {asked - answered} refused with 503 while the client read nothing")
        # Now the client reads: the held answers are whole, the refusals say why.
        h2c.update_settings({h2.settings.SettingCodes.INITIAL_WINDOW_SIZE: 1 << 20})
        h2c.increment_flow_control_window(1 << 30)
        connection.sendall(h2c.data_to_send())
        while not set(streams) <= ended:
            pump()
        for stream in streams:
            body = json.loads(bytes(bodies[stream]))
            if statuses[stream] == "200":
                notes = [node["note"] for node in body["data"]["contacts"]["nodes"]]
                if notes != [NOTE] * CONTACTS:
                    print(f"FAIL: a held answer came back changed: {len(notes)} notes")
                    failures += 1
            else:
                codes = [error["extensions"]["code"] for error in body.get("errors", [])]
                if codes != ["SERVER_BUSY"] or headers[stream].get("retry-after") != "1":
                    print(f"FAIL: a refusal: {headers[stream]} {codes}")
                    failures += 1
        # The answers read, their bytes are given back: the same request is answered again.
        again = request(h2c)
        connection.sendall(h2c.data_to_send())
        bodies[again] = bytearray()
        while again not in ended:
            pump()
        if statuses.get(again) != "200":
            print(f"FAIL: after the client read, a request got {statuses.get(again)}")
            failures += 1
    return 1 if failures else 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--ca", required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--budget", type=int, required=True)
    ARGS = parser.parse_args()
    sys.exit(main())
