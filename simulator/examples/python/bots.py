"""The bots under test: plain Python, nothing from the simulator.

- ``greet_senders``: an API bot, the kind that reads and sends through Zulip's REST API.
- ``EchoHandler``: an outgoing-webhook bot, the kind Zulip POSTs each message that mentions it
  (or is sent to it directly) to; what it answers is posted as its reply.
"""

import json
import re
from http.server import BaseHTTPRequestHandler


def greet_senders(call, bot_email):
    """Answer every direct message the bot has received with a greeting.

    ``call(method, path, params)`` is any way to reach Zulip's API as the bot: the official
    client's ``client.call_endpoint``, or the small urllib helper of the tests.
    """
    result = call("GET", "/messages", {"anchor": "newest", "num_before": 100, "num_after": 0, "narrow": [{"operator": "is", "operand": "dm"}]})
    for message in result["messages"]:
        if message["sender_email"] == bot_email:
            continue
        # By user id: where users hide their email addresses, `to` refuses the login email.
        call("POST", "/messages", {"type": "private", "to": [message["sender_id"]], "content": f"Hello, {message['sender_full_name']}!"})


class EchoHandler(BaseHTTPRequestHandler):
    """An outgoing-webhook bot: Zulip's JSON in, `{"content": ...}` out (or nothing to say)."""

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        event = json.loads(self.rfile.read(length))
        text = re.sub(r"@_?\*\*[^*]+\*\*", "", event["data"]).strip()
        answer = {"response_not_required": True} if not text else {"content": f"{event['message']['sender_full_name']} said: {text}"}
        body = json.dumps(answer).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass
