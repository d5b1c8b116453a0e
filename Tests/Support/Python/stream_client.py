"""Reads a streamed response the way Tapedeck's stream tests measure it, with this machine's clock.

    stream_client.py requests URL [SECONDS]   chunks as Python requests' iter_content(None) yields them
    stream_client.py curl URL [SECONDS]       lines as `curl --no-buffer` prints them

Prints one JSON object: {"status": N, "pieces": [[arrival time.time(), base64 bytes], ...]}.
SECONDS (default 10) ends the read early, for endless streams. HTTP_PROXY in the environment
sends the request through a proxy.
"""
import base64
import json
import subprocess
import sys
import time

import requests

mode, url = sys.argv[1], sys.argv[2]
limit = float(sys.argv[3]) if len(sys.argv) > 3 else 10.0
pieces = []
status = 0
start = time.time()
if mode == "requests":
    with requests.get(url, stream=True, timeout=limit) as response:
        status = response.status_code
        try:
            for chunk in response.iter_content(chunk_size=None):
                pieces.append([time.time(), base64.b64encode(chunk).decode()])
                if time.time() - start > limit:
                    break
        except requests.exceptions.RequestException:
            pass
else:
    curl = subprocess.Popen(["curl", "-sS", "--no-buffer", "--max-time", str(limit), "-w", "\n%{http_code}", url],
                            stdout=subprocess.PIPE)
    lines = []
    for line in curl.stdout:
        lines.append([time.time(), line])
    curl.wait()
    if lines:
        status = int(lines.pop()[1].strip() or b"0")
        if lines and lines[-1][1].endswith(b"\n") is False:
            pass
    pieces = [[t, base64.b64encode(line).decode()] for t, line in lines]
print(json.dumps({"status": status, "pieces": pieces}))
