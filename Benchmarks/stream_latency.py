"""How late each server-sent event arrives, as Python requests reads a stream.

Usage: stream_latency.py URL
URL answers with server-sent events whose data is JSON carrying "sent", the server's
time.time() when it wrote the event (Tests/Support/Python/stream_server.py's /events). The
response is read with stream=True and iter_content(chunk_size=None), which yields each chunk
as it arrives; every event is stamped with time.time() on arrival and its "sent" subtracted
(same machine, same clock; "sent" is rounded to 0.1 ms). Prints one JSON line:
{"status", "events", "p50_ms", "p99_ms", "max_ms"}.
"""
import json
import math
import sys
import time

import requests

url = sys.argv[1]
late = []
status = 0
with requests.get(url, stream=True, timeout=60, headers={"Accept": "text/event-stream"}) as response:
    status = response.status_code
    pending = b""
    for chunk in response.iter_content(chunk_size=None):
        arrived = time.time()
        pending += chunk
        *events, pending = pending.split(b"\n\n")
        for event in events:
            for line in event.split(b"\n"):
                if line.startswith(b"data:"):
                    late.append((arrived - json.loads(line[5:])["sent"]) * 1e3)


def percentile(values, p):
    """Nearest rank: the smallest value with at least p of the values at or below it."""
    return values[max(0, math.ceil(p * len(values)) - 1)]


late.sort()
if status != 200 or not late:
    sys.exit("stream_latency: status %d, %d events from %s" % (status, len(late), url))
print(json.dumps({"status": status, "events": len(late), "p50_ms": round(percentile(late, 0.5), 2),
                  "p99_ms": round(percentile(late, 0.99), 2), "max_ms": round(late[-1], 2)}))
