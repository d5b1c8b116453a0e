"""Runs mitmdump as an HTTP proxy on a free loopback port with a HAR export, drives curl
through it against httpbin, stops it and leaves the HAR at the given path.

Usage: python mitm_capture.py OUT.har   (TAPEDECK_HTTPBIN_URL must be set)
Prints one JSON line: [{"url", "status", "body_file"}, ...] of what curl received.
"""
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time

out, base = sys.argv[1], os.environ["TAPEDECK_HTTPBIN_URL"]
bin_dir = os.path.dirname(sys.executable)
with socket.socket() as s:
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
# Beside the HAR, in the folder the test owns and removes (not a new one in $TMPDIR).
workdir = tempfile.mkdtemp(prefix="tapedeck-mitm-", dir=os.path.dirname(os.path.abspath(out)))
proxy = subprocess.Popen(
    [os.path.join(bin_dir, "mitmdump"), "-q", "--listen-host", "127.0.0.1", "-p", str(port),
     "--set", f"hardump={out}", "--set", f"confdir={workdir}"],
    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    # The test runner may start us with signals blocked; mitmdump writes the HAR on SIGINT.
    preexec_fn=lambda: signal.pthread_sigmask(signal.SIG_UNBLOCK, range(1, signal.NSIG)))
try:
    deadline = time.time() + 20
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            time.sleep(0.05)
    else:
        sys.exit("mitmdump did not start listening")
    requests = [
        ([], "/get?x=1"),
        (["-d", "a=1&b=two"], "/post"),
        (["--compressed"], "/gzip"),
        ([], "/bytes/16?seed=3"),
        ([], "/status/404"),
    ]
    seen = []
    for index, (args, path) in enumerate(requests):
        body_file = os.path.join(workdir, f"body{index}")
        status = subprocess.run(
            ["curl", "-sS", "--max-time", "10", "-x", f"http://127.0.0.1:{port}", "-o", body_file,
             "-w", "%{http_code}", *args, base + path],
            capture_output=True, text=True, timeout=20, check=True).stdout
        seen.append({"url": base + path, "status": int(status), "body_file": body_file})
finally:
    proxy.send_signal(signal.SIGINT)
    try:
        proxy.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proxy.kill()
        proxy.wait()
print(json.dumps(seen))
