"""Replays a cassette with vcrpy + requests in record mode none and prints what requests saw.

Usage: python vcr_replay.py CASSETTE.yaml METHOD URL [METHOD URL ...]
Prints one JSON line: [{"status", "reason", "body_b64", "headers"}, ...]; any request the
cassette cannot answer makes vcrpy raise, and the script exits non-zero.
"""
import base64
import json
import sys

import requests
import vcr

path, pairs = sys.argv[1], sys.argv[2:]
seen = []
with vcr.use_cassette(path, record_mode="none", allow_playback_repeats=False) as cassette:
    for method, url in zip(pairs[::2], pairs[1::2]):
        response = requests.request(method, url, timeout=10)
        seen.append({"status": response.status_code, "reason": response.reason,
                     "body_b64": base64.b64encode(response.content).decode(),
                     "headers": {k: v for k, v in response.headers.items()}})
    assert cassette.all_played, "not every interaction was played"
print(json.dumps(seen))
