#!/usr/bin/env python3
"""Writes the committed fuzz corpus (Tests/Fuzz/corpus/<target>/): ordinary inputs and the
hostile ones of the hardening pass (deep nesting, many placeholders, long heredocs and items,
non-http redirects, secrets in form bodies, terminal escapes). Run from the repository root;
the output is deterministic."""
import base64, gzip, os, shutil

ROOT = "Tests/Fuzz/corpus"
FIX = "Tests/TapedeckTests/Fixtures/Interop"

def put(target, name, content):
    path = os.path.join(ROOT, target, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(content.encode() if isinstance(content, str) else content)

# parser
put("parser", "tour.tape", open("Sessions/httpbin-tour.tape", "rb").read())
put("parser", "basic.tape", "base http://127.0.0.1:8000\nheader Accept: application/json\nget /get q==1 X-A:b name=Ada n:=1\n"
    "expect 200\nexpect json $.a[?(@.b == \"c\")].d count == 2\ncapture id = json $..id\nset a = 'b c'\n"
    "post /post <<EOF\n{\"a\": {{id}}}\nEOF\nput /x < file.json\ncd ../a\nrecord a.cassette.json --mode new\n")
put("parser", "placeholders-10000.tape", "print " + "{{a}}" * 10000 + "\n")
put("parser", "heredoc-2000-lines.tape", "post /post <<END\n" + "".join('{"line": %d, "v": "{{x}}"}\n' % i for i in range(2000)) + "END\n")
put("parser", "item-60000.tape", "get http://127.0.0.1:9/ " + "x" * 60000 + "\n")
put("parser", "unclosed.tape", "print {{a\nprint {{1bad}}\nget /x 'unclosed\npost /p <<EOF\nno end\n")
put("parser", "jsonpath-empty-value.tape", "expect json $.a[?(@.a == ] == 1\n")
put("parser", "timeout-negative.tape", "get /x --timeout -5\nget /x --timeout=nan\nget /x --timeout 1e400\n")
put("parser", "terminal-escapes.tape", "header X-T: \x1b]0;owned\x07\nprint \x1b[2J\x1b[31mred\nget /x X:\x1b[1m\n")
put("parser", "form-secrets.tape", "post /login --form password=hunter2 client_secret=s3cr3t grant_type=password\n")
put("parser", "gopher.tape", "get gopher://127.0.0.1:70/_HELO --follow\nget dict://127.0.0.1:11211/stat\n")
put("parser", "crlf-bom.tape", "\ufeffget /a\r\nexpect 200\rprint done\r\n")

# jsonpath
paths = ["$.a", "$..id", "$.a[?(@.b == 'c')].d", "$.items[-1]", "$.a[?(@.a == ]", "$['a']['b']", "$.a[*]",
         "$[?(@.id >= 1)]", "$.a[", "$.items[?(@.name != null)].id", "$.a[0:2]", "$..*",
         "$" + "[0]" * 2000, "$" + "..a" * 1000, "$" + "[?(@" * 500, "$.a[?(@.b == \"\\\"\")]"]
for index, path in enumerate(paths):
    put("jsonpath", "path-%02d.txt" % index, path)

# template
templates = ["{{a}}", "{{b.c}} and {{env.HOME}}", "{{" * 5000, "{{a}}" * 10000, "{{1bad}}", "{{ a }}",
             "{{a}" + "}" * 10, "é{{{a}}", "{{undefined}}", "{{env.NOPE_NOT_SET}}", "{ {a} }", "}}{{"]
for index, text in enumerate(templates):
    put("template", "template-%02d.txt" % index, text)

# json
documents = ['{"a": [1, 2.50, -0.0, 1e400, 12345678901234567890123], "b": {"c": null, "d": true}}',
             '"\\ud83d\\ude00 \\u00e9 \\n"', '"\\ud800"', '\ufeff{"bom": 1}', '[1, 2,]', '{"a": 1 "b": 2}',
             "[" * 600 + "]" * 600, "[" * 511 + "]" * 511, '{"a":' * 600 + "1" + "}" * 600,
             '{"z": 1, "a": 2, "z": 3}', "1.0", "-", '"\x01"', "[" * 5000]
for index, text in enumerate(documents):
    put("json", "doc-%02d.json" % index, text)
put("json", "tour.cassette.json", open("Sessions/tour.cassette.json", "rb").read())

# yaml
for name in ["vcrpy-httpbin.yaml", "vcrpy-legacy.yaml", "vcrpy-compressed.yaml", "vcrpy-httpbin.json"]:
    put("yaml", name, open(os.path.join(FIX, name), "rb").read())
def cassette(uri="http://127.0.0.1/x", request_body="null", response_body="{string: hi}", headers="{}"):
    return ("interactions:\n- request:\n    method: GET\n    uri: '%s'\n    body: %s\n    headers: {}\n"
            "  response:\n    status: {code: 200, message: OK}\n    headers: %s\n    body: %s\nversion: 1\n"
            % (uri, request_body, headers, response_body))
put("yaml", "nested-flow-4700.yaml", "[" * 4700 + "]" * 4700)
put("yaml", "nested-flow-mappings-4700.yaml", "{a: " * 4700 + "1" + "}" * 4700)
put("yaml", "nested-block-sequence-4700.yaml", "- " * 4700 + "x\n")
put("yaml", "nested-block-mapping-600.yaml", "".join(" " * i + "a:\n" for i in range(600)) + " " * 600 + "x\n")
put("yaml", "nested-under-limit-500.yaml", cassette(response_body="{string: " + "[" * 500 + "]" * 500 + "}"))
put("yaml", "gopher-redirect.yaml", cassette(uri="gopher://127.0.0.1:70/_x", headers="{Location: ['gopher://127.0.0.1:70/_y']}"))
put("yaml", "form-secrets.yaml", cassette(request_body="'password=hunter2&client_secret=s3cr3t'"))
put("yaml", "terminal-escapes.yaml", cassette(response_body='{string: "\\e]0;owned\\a\\e[2J"}', headers="{X-T: ['\x1b[31m']}"))
bomb = base64.b64encode(gzip.compress(b"\0" * 1_000_000, mtime=0)).decode()
put("yaml", "gzip-1mb.yaml", cassette(response_body="!!binary '%s'" % bomb, headers="{Content-Encoding: [gzip]}"))
put("yaml", "binary-invalid.yaml", cassette(response_body="!!binary '%%%'"))
put("yaml", "tab-indent.yaml", "interactions:\n\t- request: {}\n")
put("yaml", "aliases.yaml", "a: &a [x, x, x]\nb: &b [*a, *a, *a]\nc: &c [*b, *b, *b]\nd: [*c, *c, *c]\n")

# har
for name in ["browser.har", "mitmproxy.har"]:
    put("har", name, open(os.path.join(FIX, name), "rb").read())
def har(url="http://127.0.0.1/x", text="hi", extra=""):
    return ('{"log": {"version": "1.2", "creator": {"name": "t", "version": "1"}, "entries": [{"startedDateTime": '
            '"2024-01-01T00:00:00.000Z", "time": 1, "request": {"method": "GET", "url": "%s", "httpVersion": "HTTP/1.1", '
            '"headers": [], "queryString": [], "cookies": [], "headersSize": -1, "bodySize": 0}, "response": {"status": 200, '
            '"statusText": "OK", "httpVersion": "HTTP/1.1", "headers": [], "cookies": [], "content": {"size": 2, '
            '"mimeType": "text/plain", "text": "%s"%s}, "redirectURL": "", "headersSize": -1, "bodySize": 2}, '
            '"cache": {}, "timings": {"send": 0, "wait": 1, "receive": 0}}]}}' % (url, text, extra))
put("har", "minimal.har", har())
put("har", "gopher.har", har(url="gopher://127.0.0.1:70/_x"))
put("har", "base64-invalid.har", har(text="%%%", extra=', "encoding": "base64"'))
put("har", "nested-600.har", '{"log": ' + "[" * 600 + "]" * 600 + "}")
put("har", "escapes.har", har(text="\\u001b]0;owned\\u0007\\u001b[2J"))
put("har", "tour.cassette.json", open("Sessions/tour.cassette.json", "rb").read())
