"""A streaming upstream for Tapedeck's stream tests.

    stream_server.py

Listens on 127.0.0.1, prints its port on the first line, and answers with chunked bodies
written piece by piece, each flushed:

    /events?count=N&gap=MS   N server-sent events, MS apart (count=0: endless)
    /ndjson?count=N&gap=MS   N JSON lines, MS apart
    /binary?count=N&gap=MS   N chunks of 256 bytes each (every byte value), MS apart (&size=BYTES: that many each)
    /broken?count=N&gap=MS   N server-sent events, then the connection closes without the last chunk

Every event and line carries "sent", the server's time.time() when it was written, so a
client on the same machine can measure how late it arrived.
"""
import http.server
import json
import socketserver
import sys
import time
import urllib.parse


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def chunk(self, data):
        self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
        self.wfile.flush()

    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        query = dict(urllib.parse.parse_qsl(url.query))
        count = int(query.get("count", "5"))
        gap = float(query.get("gap", "100")) / 1000
        types = {"/events": "text/event-stream", "/broken": "text/event-stream", "/ndjson": "application/x-ndjson",
                 "/binary": "application/octet-stream"}
        if url.path not in types:
            body = b"not found\n"
            self.send_response(404)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        self.send_response(200)
        self.send_header("Content-Type", types[url.path])
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        self.wfile.flush()
        i = 0
        try:
            while count == 0 or i < count:
                if i > 0:
                    time.sleep(gap)
                sent = round(time.time(), 4)
                if url.path in ("/events", "/broken"):
                    piece = ("id: %d\nevent: tick\ndata: %s\n\n" % (i, json.dumps({"i": i, "sent": sent}, separators=(",", ":")))).encode()
                elif url.path == "/ndjson":
                    piece = (json.dumps({"i": i, "sent": sent}, separators=(",", ":")) + "\n").encode()
                else:
                    size = int(query.get("size", "256"))
                    piece = (bytes((i + b) % 256 for b in range(256)) * (size // 256 + 1))[:size]
                self.chunk(piece)
                i += 1
            if url.path == "/broken":
                self.close_connection = True
                return
            self.wfile.write(b"0\r\n\r\n")
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            pass


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


if __name__ == "__main__":
    server = Server(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    server.serve_forever()
