#!/usr/bin/env python3
"""The HTTP half of scripts/deploy-test: talks to a deployed Croupier only through its JSON API
(/api/v1), as a bot author and an organiser would, with Python's standard library.

  deploy_drive.py teams BASE STATE            sign up three people, make their teams, upload
                                              every game's starter kits, wait until all are
                                              ready; write the submission ids to STATE (JSON)
  deploy_drive.py round-robins BASE STATE ADMIN_PASSWORD LABEL
                                              as the administrator `admin`, start one
                                              round-robin per game with those submissions;
                                              add their ids and match counts to STATE
  deploy_drive.py wait BASE STATE LABEL SECONDS
                                              wait until those competitions have no queued or
                                              running match; fail unless every match finished
                                              (none failed) and no seat has a fault

Every failure exits non-zero with the server's answer.
"""

import json
import sys
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PASSWORD = "correct horse battery staple"

# Per game: the kit each of the three teams uploads (language, file in kits/<game>/, the name
# it is uploaded under), as the end-to-end tests upload them; and the round-robin's body beyond
# name, game and submissions. The C and C++ kits make the workers compile too. Enough rounds
# that the round-robins outlast a worker's kill.
KITS = {
    "nothanks": [("python3", "python/bot.py", "bot.py"), ("c", "c/bot.c", "bot.c"), ("python3", "python/bot.py", "bot.py")],
    "splendor": [("cpp", "cpp/bot.cpp", "bot.cpp"), ("python3", "python/bot.py", "bot.py"), ("python3", "python/bot.py", "bot.py")],
    "hanabi": [("python3", "python/player.py", "player.py"), ("python3", "python/ws_bot.py", "bot.py"), ("python3", "python/player.py", "player.py")],
    "bridge": [("c", "c/bot.c", "bot.c"), ("python3", "python/bot.py", "bot.py"), ("python3", "python/bot.py", "bot.py")],
    "guandan": [("python3", "python/client.py", "client.py")] * 3,
}
ROUND_ROBINS = {
    "nothanks": {"rounds": 6},
    "splendor": {"rounds": 1},
    "hanabi": {"rules": "rainbow", "rounds": 1},
    "bridge": {"rounds": 1},
    "guandan": {"rounds": 1, "games_per_match": 1},
}
PEOPLE = ["ann", "bob", "cyd"]


def request(base, method, path, token=None, body=None, files=None):
    headers = {"Accept": "application/json"}
    data = None
    if token:
        headers["Authorization"] = f"Bearer {token}"
    if files is not None:
        boundary = uuid.uuid4().hex
        parts = []
        for name, value in body.items():
            parts.append(
                f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode()
            )
        for name, (filename, content) in files.items():
            parts.append(
                f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; filename="{filename}"\r\n'
                f"Content-Type: application/octet-stream\r\n\r\n".encode()
                + content
                + b"\r\n"
            )
        parts.append(f"--{boundary}--\r\n".encode())
        data = b"".join(parts)
        headers["Content-Type"] = f"multipart/form-data; boundary={boundary}"
    elif body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    req = urllib.request.Request(base + path, data=data, headers=headers, method=method)
    try:
        with urllib.request.urlopen(req, timeout=60) as resp:
            return json.load(resp)
    except urllib.error.HTTPError as e:
        sys.exit(f"{method} {path}: {e.code} {e.read().decode(errors='replace')}")


def token(base, username, password):
    return request(base, "POST", "/api/v1/tokens", body={"username": username, "password": password})["token"]


def load(state):
    return json.loads(Path(state).read_text()) if Path(state).exists() else {}


def save(state, doc):
    Path(state).write_text(json.dumps(doc, indent=1))


def teams(base, state):
    doc = load(state)
    people = {}
    for i, name in enumerate(PEOPLE):
        request(base, "POST", "/api/v1/users", body={"username": name, "password": PASSWORD})
        tok = token(base, name, PASSWORD)
        team = request(base, "POST", "/api/v1/teams", tok, {"name": f"Team {name}"})["team"]["team_id"]
        people[name] = {"token": tok, "team": team, "submissions": {}}
        for game, kits in KITS.items():
            lang, file, upload_as = kits[i]
            content = (REPO / "kits" / game / file).read_bytes()
            form = {"game": game, "language": lang, "label": f"{lang} kit", "entry": ""}
            sub = request(
                base, "POST", f"/api/v1/teams/{team}/submissions", tok, form,
                files={"file": (upload_as, content)},
            )["submission"]
            people[name]["submissions"][game] = sub["submission_id"]
            print(f"{name}: uploaded the {game} {lang} kit", flush=True)
    for name, p in people.items():
        for game, sid in p["submissions"].items():
            deadline = time.monotonic() + 600
            while True:
                sub = request(base, "GET", f"/api/v1/submissions/{sid}", p["token"])["submission"]
                if sub["status"] == "ready":
                    break
                if sub["status"] == "failed" or time.monotonic() > deadline:
                    sys.exit(f"{name}'s {game} bot: {sub['status']}: {sub.get('failure_reason')}")
                time.sleep(1)
    print("every kit is built and validated", flush=True)
    doc["people"] = people
    save(state, doc)


def round_robins(base, state, admin_password, label):
    doc = load(state)
    tok = token(base, "admin", admin_password)
    started = {}
    for game, extra in ROUND_ROBINS.items():
        subs = [doc["people"][p]["submissions"][game] for p in PEOPLE]
        body = {"name": f"{game} {label}", "game": game, "submissions": subs, "base_seed": 7, **extra}
        created = request(base, "POST", "/api/v1/admin/competitions", tok, body)
        started[game] = {
            "competition": created["competition"]["competition_id"],
            "matches": created["matches"],
        }
        print(f"{game}: round-robin of {created['matches']} matches", flush=True)
    doc.setdefault("round_robins", {})[label] = started
    doc["admin_token"] = tok
    save(state, doc)


def wait(base, state, label, seconds):
    doc = load(state)
    started = doc["round_robins"][label]
    deadline = time.monotonic() + float(seconds)
    tok = doc["admin_token"]
    boards = {}
    while len(boards) < len(started):
        for game, rr in started.items():
            if game in boards:
                continue
            try:
                board = request(base, "GET", f"/api/v1/competitions/{rr['competition']}/leaderboard", tok)
            except SystemExit as e:  # the server may be restarting with its database
                print(f"(waiting: {e})", flush=True)
                continue
            p = board["competition"]["progress"]
            if p["queued"] == 0 and p["running"] == 0:
                boards[game] = board
                print(f"{game}: {p['finished']} finished, {p['failed']} failed", flush=True)
        if time.monotonic() > deadline:
            sys.exit(f"not finished after {seconds} s: {sorted(set(started) - set(boards))}")
        time.sleep(2)
    bad = []
    for game, board in boards.items():
        p = board["competition"]["progress"]
        if (p["finished"], p["failed"]) != (started[game]["matches"], 0):
            bad.append(f"{game}: {p}")
        for row in board["leaderboard"]["rows"]:
            if row.get("faults", 0) != 0:
                bad.append(f"{game}: {row['team_name']} has {row['faults']} faults")
    if bad:
        sys.exit("; ".join(bad))


def main():
    cmd, *args = sys.argv[1:]
    {"teams": teams, "round-robins": round_robins, "wait": wait}[cmd](*args)


if __name__ == "__main__":
    main()
