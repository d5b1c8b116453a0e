"""N GETs through `requests` inside a peer's cassette, for the benchmarks that time vcrpy and
cassetter from outside, as their users run them:

    python peer_requests.py TOOL MODE URL N CASSETTE

TOOL is `cassetter` or `vcrpy`, MODE the record mode (`all` records, `none` replays), and URL a
template holding `{i}` (0 … N-1) and optionally `{page}` (i % 10). Every answer must be a 200.
"""
import logging
import sys

import requests

tool, mode, url, n, path = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
logging.disable(logging.CRITICAL)
if tool == "cassetter":
    import cassetter
    context = cassetter.use_cassette(path, record_mode=mode)
else:
    import vcr
    context = vcr.use_cassette(path, record_mode=mode)
with context:
    session = requests.Session()
    for i in range(n):
        response = session.get(url.format(i=i, page=i % 10), headers={"Accept": "application/json"})
        assert response.status_code == 200, (i, response.status_code)
