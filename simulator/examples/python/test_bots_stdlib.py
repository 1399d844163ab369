"""The bots of bots.py tested against the simulator with unittest and urllib: nothing to install
but Node (for the simulator). Run: python3 -m unittest -v test_bots_stdlib
"""

import json
import threading
import time
import unittest
from http.server import ThreadingHTTPServer

from bots import EchoHandler, greet_senders
from simulator_process import Simulator

BOT = "default-bot@zulip.com"
HUMAN = "hamlet@zulip.com"


def wait_for(predicate, timeout=20.0):
    """Poll until predicate() gives something truthy (webhook answers arrive asynchronously)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError("timed out waiting")


class SimulatorTestCase(unittest.TestCase):
    """One simulator for the class, reset before each test."""

    @classmethod
    def setUpClass(cls):
        cls.sim = Simulator()

    @classmethod
    def tearDownClass(cls):
        cls.sim.stop()

    def setUp(self):
        self.sim.reset()

    def latest(self, email, narrow, count=5):
        return self.sim.call(email, "GET", "/messages", {"anchor": "newest", "num_before": count, "num_after": 0, "apply_markdown": False, "narrow": narrow})["messages"]


class ApiBotTest(SimulatorTestCase):
    def test_greets_whoever_wrote_to_it(self):
        sent = self.sim.call(HUMAN, "POST", "/messages", {"type": "private", "to": [BOT], "content": "Hi bot"})
        self.assertEqual(sent["result"], "success", sent)
        greet_senders(lambda method, path, params: self.sim.call(BOT, method, path, params), BOT)
        [reply] = self.latest(HUMAN, [{"operator": "dm", "operand": BOT}], count=1)
        self.assertEqual(reply["sender_email"], BOT)
        self.assertEqual(reply["content"], "Hello, King Hamlet!")

    def test_reset_forgets_what_was_sent(self):
        self.sim.call(HUMAN, "POST", "/messages", {"type": "private", "to": [BOT], "content": "remember me"})
        self.assertEqual(len(self.latest(HUMAN, [{"operator": "dm", "operand": BOT}])), 1)
        self.sim.reset()
        self.assertEqual(self.latest(HUMAN, [{"operator": "dm", "operand": BOT}]), [])


class OutgoingWebhookBotTest(SimulatorTestCase):
    def setUp(self):
        super().setUp()
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), EchoHandler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        url = f"http://127.0.0.1:{self.server.server_address[1]}/"
        created = self.sim.call(HUMAN, "POST", "/bots", {"full_name": "Echo", "short_name": "echo", "bot_type": 3, "payload_url": json.dumps(url), "interface_type": 1})
        self.assertEqual(created["result"], "success", created)

    def tearDown(self):
        self.server.shutdown()
        self.server.server_close()

    def test_its_answer_is_posted_in_the_topic(self):
        sent = self.sim.call(HUMAN, "POST", "/messages", {"type": "stream", "to": "Denmark", "topic": "python", "content": "@**Echo** hello there"})
        self.assertEqual(sent["result"], "success", sent)
        narrow = [{"operator": "channel", "operand": "Denmark"}, {"operator": "topic", "operand": "python"}]
        reply = wait_for(lambda: [m for m in self.latest(HUMAN, narrow) if m["id"] > sent["id"]])[0]
        self.assertEqual(reply["content"], "King Hamlet said: hello there")
        self.assertEqual(reply["sender_full_name"], "Echo")
        [delivery] = [hook["delivery"] for hook in self.sim.outbox()["outgoing_webhooks"]]
        self.assertEqual((delivery["status"], delivery["attempts"], delivery["http_status"]), ("delivered", 1, 200))

    def test_nothing_to_say_posts_nothing(self):
        sent = self.sim.call(HUMAN, "POST", "/messages", {"type": "stream", "to": "Denmark", "topic": "python", "content": "@**Echo**"})
        wait_for(lambda: all(h.get("delivery", {}).get("status") == "delivered" for h in self.sim.outbox()["outgoing_webhooks"]))
        narrow = [{"operator": "channel", "operand": "Denmark"}, {"operator": "topic", "operand": "python"}]
        self.assertEqual([m["id"] for m in self.latest(HUMAN, narrow)], [sent["id"]])


if __name__ == "__main__":
    unittest.main()
