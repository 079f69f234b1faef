"""A real Matrix user talking to the bot through Synapse's client-server API."""
import json
import os
import sys
import time
import urllib.parse
import urllib.request

HS = sys.argv[1]
BOT = "@ggtracker:localhost"


def call(method, path, token=None, body=None):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(HS + path, data=data, method=method)
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", "Bearer " + token)
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read() or b"{}")


def wait_for(what, check, seconds=60):
    deadline = time.time() + seconds
    while time.time() < deadline:
        result = check()
        if result:
            return result
        time.sleep(0.3)
    raise SystemExit(f"FAILED: timed out waiting for {what}")


token = call("POST", "/_matrix/client/v3/login", body={
    "type": "m.login.password", "identifier": {"type": "m.id.user", "user": "alice"},
    "password": "correct horse battery"})["access_token"]
room = call("POST", "/_matrix/client/v3/createRoom", token, {"name": "game night", "preset": "private_chat"})["room_id"]
quoted = urllib.parse.quote(room, safe="")
call("POST", f"/_matrix/client/v3/rooms/{quoted}/invite", token, {"user_id": BOT})


def bot_joined():
    members = call("GET", f"/_matrix/client/v3/rooms/{quoted}/joined_members", token)["joined"]
    return BOT in members


wait_for("the bot to join", bot_joined)
print("bot joined", room)

txn = 0


def send(content):
    global txn
    txn += 1
    return call("PUT", f"/_matrix/client/v3/rooms/{quoted}/send/m.room.message/t{txn}-{int(time.time()*1000)}", token,
                content)["event_id"]


def answer_to(event_id, expect):
    """The bot's latest answer in reply to the event, once it holds every expected phrase; its id is `answered`."""
    global answered

    def answer():
        global answered
        messages = call("GET", f"/_matrix/client/v3/rooms/{quoted}/messages?dir=b&limit=50", token)["chunk"]
        for event in messages:
            content = event.get("content", {})
            relates = content.get("m.relates_to", {}).get("m.in_reply_to", {}).get("event_id")
            if event.get("sender") == BOT and relates == event_id:
                answered = event["event_id"]
                return content if all(words in content["body"] for words in expect) else None
        return None
    return wait_for(f"an answer to {event_id} with {expect!r}", answer)


def ask(text, expect, thread=None):
    global asked
    content = {"msgtype": "m.text", "body": text}
    if thread:
        content["m.relates_to"] = {"rel_type": "m.thread", "event_id": thread, "is_falling_back": True,
                                   "m.in_reply_to": {"event_id": thread}}
    sent = send(content)
    asked = sent
    content = answer_to(sent, [])
    assert content["msgtype"] == "m.notice", content
    assert content["format"] == "org.matrix.custom.html", content
    assert content.get("m.mentions") == {}, content
    assert "<img" not in content["formatted_body"], content
    for words in expect:
        assert words in content["body"], f"{words!r} not in {content['body']!r}"
    print(f"{text!r} → {content['body'].splitlines()[0]!r}")
    return content


ask("!gg search hollow knight", ["Hollow Knight (2017)"])
ask("!gg add Hollow Knight --status playing", ["alice added Hollow Knight (2017)", "Playing"])
# A number answering the bot's message runs the command its hint of that number offers.
offer = answered
choice = send({"msgtype": "m.text", "body": "1", "m.relates_to": {"m.in_reply_to": {"event_id": offer}}})
print("'1' →", repr(answer_to(choice, ["alice completed Hollow Knight (2017)"])["body"].splitlines()[0]))
ask("!gg rate Celeste --score 9", ["alice rated Celeste (2018)"])
listing = ask("!gg list", ["alice's library", "Hollow Knight (2017)", "Celeste (2018)"])
ask("!gg help", ["GGTracker commands"])
ask("!gg dance", ["Unknown command `dance`", "`!gg help`"])
# A refused command edited into a right one is run, answered under the message it edits.
edit = {"msgtype": "m.text", "body": "* !gg stats", "m.new_content": {"msgtype": "m.text", "body": "!gg stats"},
        "m.relates_to": {"rel_type": "m.replace", "event_id": asked}}
send(edit)
print("edited '!gg dance' →", repr(answer_to(asked, ["alice's stats"])["body"].splitlines()[0]))
# A command in a thread is answered in that thread.
root = send({"msgtype": "m.text", "body": "what do we play tonight?"})
threaded = ask("!gg list", ["alice's library"], thread=root)
assert threaded["m.relates_to"].get("rel_type") == "m.thread", threaded
assert threaded["m.relates_to"].get("event_id") == root, threaded
# A reply from a client that quotes the message it answers is read after the quote.
ask(f"> <{BOT}> alice's library\n> Hollow Knight (2017)\n\n!gg stats", ["alice's stats"])
# A CSV export sent to the room as a file comes in by answering it with `!gg import file`.
export = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "GGTrackerServerTests", "Fixtures",
                      "grouvee.csv")
with open(export, "rb") as handle:
    data = handle.read()
upload = urllib.request.Request(HS + "/_matrix/media/v3/upload?filename=grouvee.csv", data=data, method="POST")
upload.add_header("Content-Type", "text/csv")
upload.add_header("Authorization", "Bearer " + token)
with urllib.request.urlopen(upload, timeout=30) as response:
    media = json.loads(response.read())["content_uri"]
shared = send({"msgtype": "m.file", "body": "grouvee.csv", "filename": "grouvee.csv", "url": media,
               "info": {"mimetype": "text/csv", "size": len(data)}})
command = send({"msgtype": "m.text", "body": "!gg import file", "m.relates_to": {"m.in_reply_to": {"event_id": shared}}})
imported = answer_to(command, ["Import from Grouvee (grouvee.csv)", "4 games read"])
print("'!gg import file' →", repr(imported["body"].splitlines()[0]))
ask("!gg list playing", ["Hades"])
# An export's one-download link goes to alice alone, in a direct message she is invited to; the room hears where.
pointer = ask("!gg export", ["sent to you in a direct message"])
assert "/export/" not in pointer["body"], pointer


def invited():
    rooms = call("GET", "/_matrix/client/v3/sync?timeout=0", token).get("rooms", {}).get("invite", {})
    return next(iter(rooms), None)


direct = urllib.parse.quote(wait_for("an invite to a direct message", invited), safe="")
call("POST", f"/_matrix/client/v3/join/{direct}", token, {})


def link():
    for event in call("GET", f"/_matrix/client/v3/rooms/{direct}/messages?dir=b&limit=10", token)["chunk"]:
        body = event.get("content", {}).get("body", "")
        if event.get("sender") == BOT and "/export/" in body:
            return next(word for word in body.split() if "/export/" in word)
    return None


url = wait_for("the export link in the direct message", link)
with urllib.request.urlopen(url, timeout=30) as response:
    assert b"Hollow Knight" in response.read(), url
print("'!gg export' → the link in a direct message, downloaded")
# Ordinary chat is not a command and gets no answer; the bot's own notices are ignored.
call("PUT", f"/_matrix/client/v3/rooms/{quoted}/send/m.room.message/plain-{int(time.time()*1000)}", token,
     {"msgtype": "m.text", "body": "gg everyone"})
print("OK")
