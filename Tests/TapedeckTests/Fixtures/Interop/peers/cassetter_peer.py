"""Drives the real cassetter (PyPI) with requests against httpbin.

Usage: python cassetter_peer.py record CASSETTE.yaml            (TAPEDECK_HTTPBIN_URL must be set)
       python cassetter_peer.py replay CASSETTE.yaml METHOD URL [METHOD URL ...]
       python cassetter_peer.py resave IN.yaml OUT.yaml          (cassetter's own load and save)
record and replay print one JSON line: [{"method", "url", "status", "body_b64"}, ...]; a
request the cassette cannot answer makes cassetter raise and the script exit non-zero.
"""
import base64
import json
import os
import sys

import requests
from cassetter import use_cassette
from cassetter._core import Cassette

mode, path = sys.argv[1], sys.argv[2]
if mode == "resave":
    Cassette.load(path).save(sys.argv[3])
    sys.exit(0)

if mode == "record":
    base = os.environ["TAPEDECK_HTTPBIN_URL"]
    calls = [
        ("GET", base + "/get?b=2&a=1&q=a b+c", {}),
        ("POST", base + "/post", {"json": {"name": "Ada", "n": 1, "f": 1.5, "ok": True, "none": None, "list": ["é", 2]}}),
        ("PUT", base + "/put", {"data": b"\x00\x01\xfe\xff"}),
        ("POST", base + "/post", {"data": {"a": "1", "b": "two words"}}),
        ("GET", base + "/gzip", {}),
        ("GET", base + "/bytes/32?seed=7", {}),
        ("GET", base + "/status/418", {}),
        ("GET", base + "/encoding/utf8", {}),
        ("GET", base + "/html", {}),
        ("HEAD", base + "/get", {}),
    ]
else:
    calls = [(method, url, {}) for method, url in zip(sys.argv[3::2], sys.argv[4::2])]

seen = []
with use_cassette(path, record_mode="all" if mode == "record" else "none"):
    for method, url, kwargs in calls:
        response = requests.request(method, url, timeout=10, **kwargs)
        seen.append({"method": method, "url": url, "status": response.status_code,
                     "body_b64": base64.b64encode(response.content).decode()})
print(json.dumps(seen))
