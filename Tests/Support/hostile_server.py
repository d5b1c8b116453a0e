"""A hostile HTTP server on loopback for Tapedeck's tests.

Prints "HTTP_PORT TRAP_PORT" on its first line. TRAP_PORT is a raw TCP listener that counts
connections (GET /trap-count on the HTTP port reports them), so a test can prove that a redirect
to gopher://, dict://... never reached another local port.

Routes:
  /redirect?to=URL[&status=302]   a redirect to URL (any scheme)
  /loop/N                         302 to /loop/N+1, forever
  /cross?to=URL                   302 to URL (another port or host case) for credential tests
  /echo                           200, the request headers as JSON
  /escape                         control characters in a header value and the body
  /big-header?bytes=N             one header line of N bytes
  /big?bytes=N                    N bytes of body, sent in chunks
  /gzip-bomb?mb=N                 Content-Encoding: gzip, N MiB of zeros when decoded
  /slow                           headers and part of a body, then silence
"""
import gzip, http.server, io, json, socket, socketserver, sys, threading, time, urllib.parse

trap_count = 0
trap_lock = threading.Lock()


def trap(listener):
    global trap_count
    while True:
        connection, _ = listener.accept()
        with trap_lock:
            trap_count += 1
        connection.close()


bombs = {}


def bomb(mb):
    if mb not in bombs:
        buffer = io.BytesIO()
        with gzip.GzipFile(fileobj=buffer, mode="wb", compresslevel=9) as stream:
            chunk = bytes(1024 * 1024)
            for _ in range(mb):
                stream.write(chunk)
        bombs[mb] = buffer.getvalue()
    return bombs[mb]


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def reply(self, status, headers, body=b""):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        self.rfile.read(length)
        self.do_GET()

    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        query = dict(urllib.parse.parse_qsl(url.query))
        path = url.path
        if path == "/redirect" or path == "/cross":
            self.reply(int(query.get("status", "302")), [("Location", query["to"])])
        elif path.startswith("/loop/"):
            self.reply(302, [("Location", "/loop/%d" % (int(path[6:]) + 1))])
        elif path == "/echo":
            body = json.dumps({name: value for name, value in self.headers.items()}).encode()
            self.reply(200, [("Content-Type", "application/json")], body)
        elif path == "/escape":
            body = b"before \x1b[2J\x1b]0;owned\x07 after\n"
            self.reply(200, [("Content-Type", "text/plain"), ("X-Title", "\x1b]0;pwned\x07tail")], body)
        elif path == "/big-header":
            self.reply(200, [("X-Big", "a" * int(query.get("bytes", "10485760")))], b"ok")
        elif path == "/big":
            total = int(query["bytes"])
            self.send_response(200)
            self.send_header("Content-Type", "application/octet-stream")
            self.send_header("Content-Length", str(total))
            self.end_headers()
            chunk = b"x" * 65536
            sent = 0
            try:
                while sent < total:
                    piece = chunk[: min(len(chunk), total - sent)]
                    self.wfile.write(piece)
                    sent += len(piece)
            except (BrokenPipeError, ConnectionResetError):
                pass
        elif path == "/gzip-bomb":
            self.reply(200, [("Content-Type", "text/plain"), ("Content-Encoding", "gzip")], bomb(int(query.get("mb", "64"))))
        elif path == "/slow":
            self.send_response(200)
            self.send_header("Content-Length", "1000")
            self.end_headers()
            self.wfile.write(b"partial")
            self.wfile.flush()
            time.sleep(3600)
        elif path == "/trap-count":
            with trap_lock:
                count = trap_count
            self.reply(200, [("Content-Type", "text/plain")], str(count).encode())
        else:
            self.reply(404, [], b"not found")


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True


listener = socket.socket()
listener.bind(("127.0.0.1", 0))
listener.listen(16)
threading.Thread(target=trap, args=(listener,), daemon=True).start()
server = Server(("127.0.0.1", 0), Handler)
print(server.server_address[1], listener.getsockname()[1], flush=True)
server.serve_forever()
