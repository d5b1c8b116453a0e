"""A WebSocket echo-and-push server for Tapedeck's WebSocket tests (PyPI `websockets`).

    ws_server.py

Listens on 127.0.0.1, prints its port on the first line. On a connection to any path it sends
"welcome"; it answers each text message with "echo: MESSAGE", each binary message with the
same bytes reversed, and "push" with "tick 1" and "tick 2" as well.
"""
import asyncio

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
    async with serve(handler, "127.0.0.1", 0) as server:
        port = server.sockets[0].getsockname()[1]
        print(port, flush=True)
        await asyncio.get_running_loop().create_future()


asyncio.run(main())
