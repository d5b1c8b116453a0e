"""Records a vcrpy cassette with requests against httpbin and prints what requests saw.

Usage: python vcr_record.py CASSETTE.yaml   (TAPEDECK_HTTPBIN_URL must be set)
Prints one JSON line: [{"method", "url", "status", "body_b64"}, ...]
"""
import base64
import json
import os
import sys

import requests
import vcr

base = os.environ["TAPEDECK_HTTPBIN_URL"]
calls = [
    ("GET", "/get?b=2&a=1", {}),
    ("POST", "/post", {"json": {"name": "Ada", "n": 1}}),
    ("PUT", "/put", {"data": b"\x00\x01\xfe\xff"}),
    ("GET", "/gzip", {}),
    ("GET", "/bytes/32?seed=7", {}),
    ("GET", "/status/418", {}),
    ("GET", "/response-headers?Set-Cookie=a%3D1&Set-Cookie=b%3D2", {}),
    ("GET", "/encoding/utf8", {}),
]
seen = []
with vcr.use_cassette(sys.argv[1], record_mode="all"):
    for method, path, kwargs in calls:
        response = requests.request(method, base + path, timeout=10, **kwargs)
        seen.append({"method": method, "url": base + path, "status": response.status_code,
                     "body_b64": base64.b64encode(response.content).decode()})
print(json.dumps(seen))
