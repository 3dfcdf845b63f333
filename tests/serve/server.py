"""Starting `layoutx serve` on a free loopback port for a test, and asking it
(standard library only)."""
import json
import os
import subprocess
import urllib.error
import urllib.parse
import urllib.request


class Server:
    """`layoutx BEFORE... serve --port 0 ARGS...` while the `with` block runs; .url is the page."""

    def __init__(self, layoutx, *args, before=()):
        self.command = [layoutx, *before, "serve", "--port", "0", *args]

    def __enter__(self):
        self.process = subprocess.Popen(self.command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()
        if "http://" not in line:
            self.process.kill()
            raise RuntimeError("layoutx serve did not start: %r %s" % (line, self.process.stderr.read()))
        self.url = line.split()[2]
        return self

    def __exit__(self, *exc):
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

    def alive(self):
        return self.process.poll() is None

    def resident_kib(self):
        """The server's resident memory (VmRSS), in KiB."""
        with open("/proc/%d/status" % self.process.pid) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return 0

    def get(self, path, timeout=60):
        """(status, headers, body bytes) of GET path."""
        return self.request(urllib.request.Request(self.url + path.lstrip("/")), timeout)

    def api(self, call, timeout=60, **params):
        """(status, answer) of POST /api/CALL with a form of params."""
        body = urllib.parse.urlencode(params).encode()
        status, _, data = self.request(urllib.request.Request(self.url + "api/" + call, data=body), timeout)
        return status, json.loads(data)

    def request(self, request, timeout):
        try:
            with urllib.request.urlopen(request, timeout=timeout) as r:
                return r.status, r.headers, r.read()
        except urllib.error.HTTPError as e:
            return e.code, e.headers, e.read()


def raw_request(url, data, timeout=30):
    """The status line of a raw HTTP request (bytes) sent to the server of `url`."""
    import socket
    parts = urllib.parse.urlsplit(url)
    with socket.create_connection((parts.hostname, parts.port), timeout=timeout) as s:
        s.sendall(data)
        answer = b""
        while b"\r\n" not in answer:
            chunk = s.recv(4096)
            if not chunk:
                break
            answer += chunk
    return answer.split(b"\r\n")[0].decode(errors="replace")
