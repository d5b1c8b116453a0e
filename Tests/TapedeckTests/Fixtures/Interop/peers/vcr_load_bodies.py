"""Loads a cassette with vcrpy's own deserializer and prints every body as base64.

Usage: python vcr_load_bodies.py CASSETTE.yaml
Prints one JSON line: [{"request": base64 or null, "response": base64, "status", "headers"}, ...]
"""
import base64
import json
import sys

from vcr.serialize import deserialize
from vcr.serializers import yamlserializer

with open(sys.argv[1]) as f:
    requests, responses = deserialize(f.read(), yamlserializer)[:2]


def b64(value):
    if value is None:
        return None
    if isinstance(value, str):
        value = value.encode("utf-8")
    return base64.b64encode(value).decode()


print(json.dumps([
    {"request": b64(request.body), "response": b64(response["body"]["string"]),
     "status": response["status"]["code"], "reason": response["status"]["message"],
     "headers": [[name, value] for name, values in response["headers"].items() for value in values]}
    for request, response in zip(requests, responses)
]))
