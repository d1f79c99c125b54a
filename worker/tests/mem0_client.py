"""The official PyPI client (mem0ai's MemoryClient or AsyncMemoryClient), unmodified, against the worker's
mem0 platform API: only `host` changes. Run by worker/tests/mem0-py-client.test.mjs:

    python mem0_client.py sync|async

with MEM0_HOST, MEM0_KEY, MEM0_OTHER_KEY and MEM0_PLAN (JSON: the user id and the scripted inputs) in the
environment, MEM0_TELEMETRY=false. Asserts as it goes; prints one JSON report line and exits 0 when all
held. Every socket the process opens is recorded (an audit hook) and must be the worker's loopback one.
"""

import asyncio
import json
import os
import sys

connections = []


def audit(event, args):
    if event == "socket.connect":
        connections.append(str(args[1]))


sys.addaudithook(audit)

from mem0 import AsyncMemoryClient, MemoryClient  # noqa: E402  (after the hook: imports may connect)
from mem0.exceptions import AuthenticationError, MemoryNotFoundError  # noqa: E402
from mem0.exceptions import MemoryError as Mem0Error  # noqa: E402

HOST, KEY, OTHER = os.environ["MEM0_HOST"], os.environ["MEM0_KEY"], os.environ["MEM0_OTHER_KEY"]
PLAN = json.loads(os.environ["MEM0_PLAN"])
USER = PLAN["user"]


async def done(value):
    """The value of a call: awaited for the async client, as it is for the sync one."""
    return await value if asyncio.iscoroutine(value) else value


async def raises(kind, call):
    try:
        await done(call())
    except kind as error:
        return str(error)
    raise AssertionError(f"expected {kind.__name__}")


async def scenario(client_class):
    report = {}
    client = client_class(api_key=KEY, host=HOST)
    assert client.org_id == "acme" and client.project_id == "acme", (client.org_id, client.project_id)

    added = await done(client.add([{"role": "user", "content": PLAN["tea"]}], user_id=USER, metadata={"source": "py"}))
    assert added["status"] == "SUCCEEDED", added
    assert [r["event"] for r in added["results"]] == ["ADD", "ADD"], added
    tea, work = (r["id"] for r in added["results"])
    report["event_id"] = added["event_id"]

    found = await done(client.search("green tea", filters={"user_id": USER}))
    assert found["results"][0]["id"] == tea, found
    assert 0.1 <= found["results"][0]["score"] <= 1, found
    narrow = await done(client.search("tea", filters={"AND": [{"user_id": USER}, {"metadata": {"source": "py"}}]}, top_k=1))
    assert len(narrow["results"]) == 1, narrow

    got = await done(client.get(tea))
    assert got["memory"] == PLAN["facts"][0] and got["user_id"] == USER and got["metadata"] == {"source": "py"}, got

    updated = await done(client.update(tea, text="User likes black tea", metadata={"mood": "calm"}))
    assert updated["memory"] == "User likes black tea", updated
    assert updated["metadata"] == {"source": "py", "mood": "calm"}, updated
    history = await done(client.history(tea))
    assert [(h["event"], h["old_memory"], h["new_memory"]) for h in history] == [
        ("ADD", None, PLAN["facts"][0]),
        ("UPDATE", PLAN["facts"][0], "User likes black tea"),
    ], history

    page = await done(client.get_all(filters={"AND": [{"user_id": USER}, {"created_at": {"gte": "2000-01-01"}}]}, page=1, page_size=1))
    assert page["count"] == 2 and len(page["results"]) == 1 and page["next"] and page["previous"] is None, page
    second = await done(client.get_all(filters={"user_id": USER}, page=2, page_size=1))
    assert second["results"][0]["id"] == work and second["next"] is None, second
    either = await done(client.get_all(filters={"OR": [{"user_id": USER}, {"user_id": "nobody"}], "NOT": {"keywords": {"icontains": "BLACK"}}}))
    assert [m["id"] for m in either["results"]] == [work], either

    batch = await done(client.batch_update([{"memory_id": work, "text": "User works at Initech"}]))
    assert batch["message"] == "Successfully updated 1 memories", batch
    assert (await done(client.get(work)))["memory"] == "User works at Initech"

    users = await done(client.users())
    mine = [e for e in users["results"] if e["name"] == USER]
    assert mine and mine[0]["type"] == "user" and mine[0]["total_memories"] == 2, users

    feedback = await done(client.feedback(tea, "negative", "outdated"))
    assert feedback["feedback"] == "NEGATIVE", feedback
    export = await done(client.create_memory_export(json.dumps({"type": "object"}), user_id=USER))
    exported = await done(client.get_memory_export(memory_export_id=export["id"]))
    assert sorted(m["id"] for m in exported["memories"]) == sorted([tea, work]), exported

    other = client_class(api_key=OTHER, host=HOST)
    await raises(MemoryNotFoundError, lambda: other.get(tea))
    await raises(MemoryNotFoundError, lambda: other.update(tea, text="stolen"))
    await raises(MemoryNotFoundError, lambda: other.delete(tea))
    assert (await done(other.get_all(filters={"user_id": USER})))["count"] == 0

    message = await raises(ValueError, lambda: client_class(api_key="not-a-key", host=HOST))
    assert "Invalid API key" in message, message
    client_headers = client.async_client.headers if hasattr(client, "async_client") else client.client.headers
    client_headers["Authorization"] = "Token not-a-key"
    await raises(AuthenticationError, lambda: client.get_all(filters={"user_id": USER}))
    client_headers["Authorization"] = f"Token {KEY}"
    report["not_implemented"] = await raises(Mem0Error, lambda: client.get_summary(filters={"user_id": USER}))

    batch = await done(client.batch_delete([{"memory_id": work}]))
    assert batch["message"] == "Successfully deleted 1 memories", batch
    assert (await done(client.delete(tea)))["message"] == "Memory deleted successfully!"
    await raises(MemoryNotFoundError, lambda: client.get(tea))
    await done(client.add([{"role": "user", "content": "Remember the blue door"}], user_id=USER, infer=False))
    await done(client.add([{"role": "user", "content": "Agent note"}], filters={"agent_id": f"{USER}-agent"}, infer=False))
    assert (await done(client.get_all(filters={"user_id": USER})))["count"] == 1
    await done(client.delete_all(user_id=USER))
    assert (await done(client.get_all(filters={"user_id": USER})))["count"] == 0
    assert (await done(client.delete_users(agent_id=f"{USER}-agent")))["message"] == "Entity deleted successfully."
    assert (await done(client.get_all(filters={"agent_id": f"{USER}-agent"})))["count"] == 0

    await done(client.add([{"role": "user", "content": "Run note"}], run_id=f"{USER}-run", infer=False))
    assert (await done(client.reset()))["message"].startswith("Client reset successful")
    assert not [e for e in (await done(client.users()))["results"] if e["name"].startswith(USER)]

    stray = [address for address in connections if not address.startswith("('127.0.0.1'")]
    assert not stray, f"connected beyond the worker: {stray}"
    report["connections"] = len(connections)
    return report


def main():
    client_class = {"sync": MemoryClient, "async": AsyncMemoryClient}[sys.argv[1]]
    report = asyncio.run(scenario(client_class))
    print(json.dumps(report))


if __name__ == "__main__":
    main()
