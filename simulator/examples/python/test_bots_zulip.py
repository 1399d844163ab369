"""The same bots tested with pytest and Zulip's official Python packages:

- ``zulip`` (the API client): ``pip install zulip pytest``;
- ``zulip_botserver`` (runs a ``zulip_bots`` bot as an outgoing-webhook service): ``pip install zulip-botserver``.

Run: ``pytest -v``. Each part is skipped when its package is not installed.
"""

import json
import socket
import subprocess
import sys
import time

import pytest

# Without the client there is nothing to run here (and no simulator is started).
zulip = pytest.importorskip("zulip")

from bots import greet_senders  # noqa: E402
from simulator_process import Simulator  # noqa: E402

BOT = "default-bot@zulip.com"
HUMAN = "hamlet@zulip.com"


@pytest.fixture(scope="session")
def simulator():
    sim = Simulator()
    yield sim
    sim.stop()


@pytest.fixture(autouse=True)
def fresh(simulator):
    """Every test starts from the fixture."""
    simulator.reset()


def client_for(simulator, email):
    return zulip.Client(email=email, api_key=simulator.api_key(email), site=simulator.site)


def wait_for(predicate, timeout=20.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError("timed out waiting")


def test_api_bot_with_the_official_client(simulator):
    human = client_for(simulator, HUMAN)
    bot = client_for(simulator, BOT)
    assert human.send_message({"type": "private", "to": [BOT], "content": "Hi bot"})["result"] == "success"
    greet_senders(lambda method, path, params: bot.call_endpoint(url=path.lstrip("/"), method=method, request=params), BOT)
    result = human.get_messages({"anchor": "newest", "num_before": 1, "num_after": 0, "apply_markdown": False, "narrow": [{"operator": "dm", "operand": BOT}]})
    assert result["messages"][0]["content"] == "Hello, King Hamlet!"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_zulip_botserver_runs_helloworld_as_an_outgoing_webhook_bot(simulator, tmp_path):
    pytest.importorskip("zulip_botserver")
    human = client_for(simulator, HUMAN)
    port = free_port()
    created = human.call_endpoint(
        url="bots",
        method="POST",
        request={"full_name": "Hello", "short_name": "hello", "bot_type": 3, "payload_url": json.dumps(f"http://127.0.0.1:{port}/"), "interface_type": 1},
    )
    assert created["result"] == "success", created
    # The owner sees the bot's service token (what Zulip sends with each request) in realm_bots.
    state = human.register(event_types=["realm_bot"])
    [bot] = [b for b in state["realm_bots"] if b["user_id"] == created["user_id"]]
    config = tmp_path / "botserver.conf"
    config.write_text(f"[helloworld]\nemail={bot['email']}\nkey={created['api_key']}\nsite={simulator.site}\ntoken={bot['services'][0]['token']}\n")
    server = subprocess.Popen([sys.executable, "-m", "zulip_botserver.server", "--config-file", str(config), "--hostname", "127.0.0.1", "--port", str(port)])
    try:
        wait_for(lambda: socket.socket().connect_ex(("127.0.0.1", port)) == 0)
        sent = human.send_message({"type": "stream", "to": "Denmark", "topic": "botserver", "content": "@**Hello** hi"})
        narrow = [{"operator": "channel", "operand": "Denmark"}, {"operator": "topic", "operand": "botserver"}]
        reply = wait_for(lambda: [m for m in human.get_messages({"anchor": "newest", "num_before": 5, "num_after": 0, "apply_markdown": False, "narrow": narrow})["messages"] if m["id"] > sent["id"]])[0]
        assert reply["content"] == "beep boop"
    finally:
        server.terminate()
        server.wait(timeout=20)
