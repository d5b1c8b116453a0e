"""Records or replays query strings with vcrpy + requests against httpbin: values with spaces,
'+', '&', '=', non-ASCII and repeated keys, sent as requests sends them (spaces as '+').

Usage: python vcr_queries.py record|replay CASSETTE.yaml   (record needs TAPEDECK_HTTPBIN_URL)
       replay takes the base URL from TAPEDECK_HTTPBIN_URL too, and record mode none.
Prints one JSON line: [{"url": what requests sent, "params": [[name, value], ...],
"status", "body_b64"}, ...]
"""
import base64
import json
import os
import sys

import requests
import vcr

mode, path = sys.argv[1], sys.argv[2]
base = os.environ["TAPEDECK_HTTPBIN_URL"]
QUERIES = [
    [["q", "a b"], ["q", "a+b"], ["q", "x&y=z"]],
    [["name", "José Ünïcode ✓"], ["plus", "1+1=2"], ["empty", ""]],
    [["sp ace", "100% sure"], ["tag", "a"], ["tag", "b"], ["tag", "a"]],
]
seen = []
record_mode = "all" if mode == "record" else "none"
with vcr.use_cassette(path, record_mode=record_mode, allow_playback_repeats=False) as cassette:
    for params in QUERIES:
        response = requests.get(base + "/get", params=[tuple(p) for p in params], timeout=10)
        seen.append({"url": response.request.url, "params": params, "status": response.status_code,
                     "body_b64": base64.b64encode(response.content).decode()})
    if mode == "replay":
        assert cassette.all_played, "not every interaction was played"
print(json.dumps(seen, ensure_ascii=False))
