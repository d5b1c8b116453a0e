"""Streams that test what a recording keeps of them, for Tapedeck's stream tests.

    stream_cases.py

Listens on 127.0.0.1, prints its port on the first line, and answers with chunked bodies
written piece by piece, 100 ms apart:

    /ndjson-secret  two JSON lines, the second with a "password"
    /crlf-secret    two events ended by CRLF, the first with a "password" in its JSON data
    /cr-secret      two events whose lines end in a bare CR, the first with an id line and a
                    "password" in its JSON data
    /jwt            two events, the second a bearer JWT no redaction rule names
    /gzip-ndjson    two JSON lines, gzip-compressed when the request accepts gzip
    /gzip-events-secret  two events, the second with an "access_token", gzip-compressed when
                    the request accepts gzip
    /gzip-flushed   three events, gzip-compressed and flushed one by one, 100 ms apart
    /gzip-held-secret  a gzip-compressed event with a "password", flushed, then nothing for 5 s
    /gzip-cut-secret   two gzip-compressed events flushed, the second with a "password", then
                    nothing for 5 s (a client that leaves cuts it short)
    /br-events      an event stream under Content-Encoding: br (bytes no one can read as text)
"""
import gzip
import http.server
import socketserver
import time
import zlib

JWT = b"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.abcdefghijklmnopqrstu"
BODIES = {
    "/ndjson-secret": ("application/x-ndjson", [b'{"n":1}\n', b'{"n":2,"password":"nd-secret-2"}\n']),
    "/crlf-secret": ("text/event-stream", [b'data: {"password":"crlf-secret-3"}\r\n\r\n', b'data: next\r\n\r\n']),
    "/cr-secret": ("text/event-stream", [b'id: 1\rdata: {"password":"cr-secret-5"}\r\r', b'data: next\r\r']),
    "/jwt": ("text/event-stream", [b'data: hello\n\n', b'data: Bearer ' + JWT + b'\n\n']),
    "/gzip-ndjson": ("application/x-ndjson", [b'{"n":1}\n', b'{"n":2}\n']),
    "/gzip-events-secret": ("text/event-stream", [b'data: {"n":1}\n\n', b'data: {"access_token":"gz-secret-4"}\n\n']),
}


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        if self.path == "/br-events":
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Content-Encoding", "br")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            for piece in (b"\x8b\x05\x80\xff\xfe", b"\x03\xff\x80\x81"):
                self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
                self.wfile.flush()
                time.sleep(0.1)
            self.wfile.write(b"0\r\n\r\n")
            return
        if self.path in FLUSHED:
            return self.flushed(*FLUSHED[self.path])
        if self.path not in BODIES:
            self.send_error(404)
            return
        content_type, pieces = BODIES[self.path]
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Transfer-Encoding", "chunked")
        if self.path.startswith("/gzip-") and "gzip" in (self.headers.get("Accept-Encoding") or ""):
            self.send_header("Content-Encoding", "gzip")
            pieces = [gzip.compress(b"".join(pieces))]
        self.end_headers()
        for piece in pieces:
            self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
            self.wfile.flush()
            time.sleep(0.1)
        self.wfile.write(b"0\r\n\r\n")


    def flushed(self, events, pause):
        """A gzip stream whose compressor is flushed after each event, so each reaches the
        client as it is written; `pause` seconds of silence before the end."""
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Transfer-Encoding", "chunked")
        self.send_header("Content-Encoding", "gzip")
        self.end_headers()
        compressor = zlib.compressobj(6, zlib.DEFLATED, 31)
        try:
            for event in events:
                piece = compressor.compress(event) + compressor.flush(zlib.Z_SYNC_FLUSH)
                self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
                self.wfile.flush()
                time.sleep(0.1)
            time.sleep(pause)
            piece = compressor.flush()
            self.wfile.write(b"%x\r\n%s\r\n0\r\n\r\n" % (len(piece), piece))
        except (BrokenPipeError, ConnectionResetError):
            pass


FLUSHED = {
    "/gzip-flushed": ([b'data: {"n":1}\n\n', b'data: {"n":2}\n\n', b'data: {"n":3}\n\n'], 0),
    "/gzip-held-secret": ([b'data: {"password":"held-secret-6"}\n\n'], 5),
    "/gzip-cut-secret": ([b'data: {"n":1}\n\n', b'data: {"password":"cut-secret-7"}\n\n'], 5),
}


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True


server = Server(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
