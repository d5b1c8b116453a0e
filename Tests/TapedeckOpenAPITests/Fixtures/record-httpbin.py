"""Re-records httpbin.yaml from a local httpbin: .ci/with-httpbin .venv/bin/python .venv/bin/python THIS_FILE"""
import os
import pathlib

import requests
import vcr

base = os.environ["TAPEDECK_HTTPBIN_URL"]
out = pathlib.Path(__file__).with_name("httpbin.yaml")
out.unlink(missing_ok=True)


def origin(request):
    # The port is chosen per run: the cassette speaks of httpbin.local as the project's other cassettes do.
    request.uri = request.uri.replace(base, "http://httpbin.local")
    return request


with vcr.use_cassette(str(out), before_record_request=origin, decode_compressed_response=True):
    requests.get(f"{base}/get", params={"page": 2}, headers={"Accept": "application/json"})
    requests.get(f"{base}/json")
    requests.post(f"{base}/post", json={"name": "Ada", "age": 36, "role": "admin"})
    requests.get(f"{base}/status/204")
    requests.get(f"{base}/uuid")
