"""Run the chat simulator for a test, with Python's standard library only.

Starts ``npx team-chat-simulator --port 0`` (or the command in the environment variable
SIMULATOR_COMMAND, a JSON list), waits for the line that says where it listens, and stops it
afterwards. Keys come from ``POST /api/v1/dev_fetch_api_key``, as on Zulip's development server;
``reset()`` puts the organization back as it started (the control API, ``POST /__simulator/reset``).
"""

import base64
import json
import os
import re
import subprocess
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

DEFAULT_COMMAND = ["npx", "team-chat-simulator", "--port", "0", "--seed", "1"]
READY_TIMEOUT_S = float(os.environ.get("SIMULATOR_READY_TIMEOUT", "120"))


class Simulator:
    """One simulator process: ``site`` is what a Zulip client takes, e.g. http://127.0.0.1:40123."""

    def __init__(self, command=None):
        if command is None:
            env_command = os.environ.get("SIMULATOR_COMMAND")
            command = json.loads(env_command) if env_command else DEFAULT_COMMAND
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.banner = []
        self.site = self._wait_until_listening()
        # Keep reading what it prints, so that it never blocks on a full pipe.
        threading.Thread(target=self._drain, daemon=True).start()
        self._keys = {}

    def _wait_until_listening(self):
        deadline = time.monotonic() + READY_TIMEOUT_S
        found = []

        def read():
            for line in self.process.stdout:
                self.banner.append(line)
                match = re.search(r"listening: (http://\S+)/api/v1", line)
                if match:
                    found.append(match.group(1))
                    return

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        reader.join(max(0.0, deadline - time.monotonic()))
        if not found:
            self.stop()
            raise RuntimeError("the simulator did not start:\n" + "".join(self.banner))
        return found[0]

    def _drain(self):
        for _ in self.process.stdout:
            pass

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()

    # ------------------------------------------------------------------ control API

    def control(self, method, path, body=None):
        """A request to the control API (loopback only, no credentials)."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(f"{self.site}/__simulator{path}", data=data, method=method)
        if data is not None:
            request.add_header("Content-Type", "application/json")
        with urllib.request.urlopen(request, timeout=30) as response:
            text = response.read().decode()
        return json.loads(text) if text else None

    def reset(self):
        """Back to the fixture: same users and API keys, everything sent since forgotten."""
        self.control("POST", "/reset")

    def outbox(self):
        return self.control("GET", "/outbox")

    # ------------------------------------------------------------------ Zulip's API

    def api_key(self, email):
        """The account's API key, from the development server's endpoint (no password)."""
        if email not in self._keys:
            self._keys[email] = self.call(None, "POST", "/dev_fetch_api_key", {"username": email})["api_key"]
        return self._keys[email]

    def call(self, email, method, path, params=None):
        """Zulip's REST API as ``email`` (None: no credentials); JSON values are encoded as clients do."""
        fields = {k: v if isinstance(v, str) else json.dumps(v) for k, v in (params or {}).items()}
        url = f"{self.site}/api/v1{path}"
        data = None
        if method == "GET":
            if fields:
                url += "?" + urllib.parse.urlencode(fields)
        else:
            data = urllib.parse.urlencode(fields).encode()
        request = urllib.request.Request(url, data=data, method=method)
        if email is not None:
            token = base64.b64encode(f"{email}:{self.api_key(email)}".encode()).decode()
            request.add_header("Authorization", f"Basic {token}")
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return json.loads(response.read().decode())
        except urllib.error.HTTPError as error:
            return json.loads(error.read().decode())
