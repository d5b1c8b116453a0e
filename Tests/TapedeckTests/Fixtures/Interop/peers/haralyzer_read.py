"""Reads a HAR file with haralyzer and prints what it sees, one JSON line per entry.

Usage: python haralyzer_read.py FILE.har
"""
import json
import sys

from haralyzer import HarParser

parser = HarParser.from_file(sys.argv[1])
out = {"version": parser.version, "creator": parser.creator, "entries": []}
for page in parser.pages:
    for entry in page.entries:
        out["entries"].append({
            "method": entry.request.method, "url": entry.request.url, "status": entry.response.status,
            "statusText": entry.response.statusText, "mimeType": entry.response.mimeType,
            "text": entry.response.text, "encoding": entry.response.textEncoding,
            "requestText": entry.request.text, "startTime": entry.startTime.isoformat(),
            "time": entry.time, "cookies": entry.raw_entry["response"]["cookies"],
            "headers": [[h["name"], h["value"]] for h in entry.response.headers],
        })
print(json.dumps(out))
