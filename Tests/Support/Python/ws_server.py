"""A WebSocket echo-and-push server for Tapedeck's WebSocket tests (PyPI `websockets`).

    ws_server.py [TLSDIR]

Listens on 127.0.0.1, prints its port on the first line. With TLSDIR it speaks wss:// with a
certificate for localhost from a throwaway CA written to TLSDIR/upstream-ca.pem
(tls_upstream.py's). On a connection to any path it sends
"welcome"; it answers each text message with "echo: MESSAGE", each binary message with the
same bytes reversed, and "push" with "tick 1" and "tick 2" as well.
"""
import asyncio
import ssl
import sys

from websockets.asyncio.server import serve


async def handler(connection):
    await connection.send("welcome")
    async for message in connection:
        if isinstance(message, bytes):
            await connection.send(message[::-1])
            continue
        await connection.send("echo: " + message)
        if message == "push":
            await connection.send("tick 1")
            await connection.send("tick 2")


async def main():
    context = None
    if len(sys.argv) > 1:
        from tls_upstream import write_certificates
        cert_path, key_path = write_certificates(sys.argv[1])
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(cert_path, key_path)
    async with serve(handler, "127.0.0.1", 0, ssl=context) as server:
        port = server.sockets[0].getsockname()[1]
        print(port, flush=True)
        await asyncio.get_running_loop().create_future()


asyncio.run(main())
