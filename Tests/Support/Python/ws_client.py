"""A WebSocket client for Tapedeck's WebSocket tests (PyPI `websockets`).

    ws_client.py URL MESSAGE...

With WS_PROXY set, connects through that HTTP proxy (CONNECT); with WS_CA set, trusts that CA
file for wss://; with WS_SUBPROTOCOLS set (comma-separated), offers those subprotocols; with
WS_WAIT set, waits that many seconds of silence after the last message, not 0.5.

Connects, sends each MESSAGE in turn (one starting "b:" is sent as binary bytes of the hex
after it), reads what arrives until the server has nothing more for 0.5 s after the last
message, closes, and prints JSON: {"received": [...], "close": [code, reason] or null,
"subprotocol": the one the server chose or null, "refused": "STATUS BODY" when the upgrade
was answered with another status}.
Binary frames received are shown as "b:HEX".
"""
import asyncio
import json
import os
import ssl
import sys

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus


async def main(url, messages):
    received = []
    close = None
    subprotocol = None
    refused = None

    async def drain(connection, seconds):
        while True:
            message = await asyncio.wait_for(connection.recv(), seconds)
            received.append("b:" + message.hex() if isinstance(message, bytes) else message)

    try:
        options = {}
        if os.environ.get("WS_PROXY"):
            options["proxy"] = os.environ["WS_PROXY"]
        if url.startswith("wss:"):
            options["ssl"] = ssl.create_default_context(cafile=os.environ.get("WS_CA"))
        if os.environ.get("WS_SUBPROTOCOLS"):
            options["subprotocols"] = os.environ["WS_SUBPROTOCOLS"].split(",")
        async with connect(url, open_timeout=5, close_timeout=2, **options) as connection:
            subprotocol = connection.subprotocol
            try:
                try:
                    await drain(connection, 0.5)
                except asyncio.TimeoutError:
                    pass
                for number, message in enumerate(messages):
                    await connection.send(bytes.fromhex(message[2:]) if message.startswith("b:") else message)
                    try:
                        await drain(connection, float(os.environ.get("WS_WAIT", "0.5")) if number == len(messages) - 1 else 0.5)
                    except asyncio.TimeoutError:
                        pass
            except ConnectionClosed as closed:
                if closed.rcvd is not None:
                    close = [closed.rcvd.code, closed.rcvd.reason]
    except ConnectionClosed as closed:
        if closed.rcvd is not None:
            close = [closed.rcvd.code, closed.rcvd.reason]
    except InvalidStatus as invalid:
        refused = "%d %s" % (invalid.response.status_code, invalid.response.body.decode("utf-8", "replace").strip())
    print(json.dumps({"received": received, "close": close, "subprotocol": subprotocol, "refused": refused}))


asyncio.run(main(sys.argv[1], sys.argv[2:]))
