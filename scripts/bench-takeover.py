"""A worker killed under load (issue #15): how long until the others hold
its partitions, and whether every fix a front acknowledged was applied.

Three whilehered workers on one nats-server (as scripts/bench-cluster.py
starts them). Client threads post OwnTracks fixes for every person to the
first two fronts, each person's longitude counting that person's posts;
after WARM seconds the third worker is killed with SIGKILL and posting
goes on for AFTER seconds. Printed: fixes acknowledged, the seconds from
the kill until the two survivors held all 64 partitions, the seconds until
they had applied everything after the load, and for how many people the
last fix the journal holds is the last one a front acknowledged (each
person's status, read from both survivors, the newer answer counting).
Each person's posts from the CROSS-th on are inside their task's place,
about when the kill comes: printed last is how many people were
reminded once, never, or more than once, from every worker's log.

  python3 scripts/bench-takeover.py BIN     PEOPLE=1000 WARM=5 AFTER=25 CLIENTS=8 CROSS=6 KEEP=DIR
"""
import base64
import http.client
import importlib.util
import json
import os
import shutil
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("bench_cluster", os.path.join(HERE, "bench-cluster.py"))
bc = importlib.util.module_from_spec(spec)
binary = sys.argv[1]
sys.argv = [sys.argv[0], binary]
spec.loader.exec_module(bc)
bd = bc.bd

WARM = float(os.environ.get("WARM", "5"))
# Each person's posts from this one on are inside their task's place (about
# when the kill comes), so each should be reminded exactly once.
CROSS = int(os.environ.get("CROSS", "6"))
PLACE = (60.17, 24.94)
INSIDE_STEP = 1e-7
AFTER = float(os.environ.get("AFTER", "25"))
CLIENTS = int(os.environ.get("CLIENTS", "8"))
BASE_LONGITUDE = 24.90
STEP = 1e-5


def longitude(count):
    """A person's count-th post: far from the place at first, then inside it."""
    return BASE_LONGITUDE + count * STEP if count < CROSS else PLACE[1] + count * INSIDE_STEP


def count_of(longitude):
    return round((longitude - PLACE[1]) / INSIDE_STEP) if longitude > PLACE[1] - 0.001 else round((longitude - BASE_LONGITUDE) / STEP)


def fires(tmp, workers):
    """Reminders fired, by person, in every worker's log (the killed one's too)."""
    counted = {}
    for index in range(workers):
        for line in open(os.path.join(tmp, f"w{index}", "daemon.log"), errors="replace"):
            if " fired " in line or line.startswith("whilehered: fired"):
                for field in line.split():
                    if field.startswith("person="):
                        name = field.split("=", 1)[1]
                        counted[name] = counted.get(name, 0) + 1
    return counted


def status(host, port, auth):
    connection = http.client.HTTPConnection(host, port, timeout=30)
    try:
        connection.request("GET", "/api/v1/status", headers={"Authorization": auth})
        answer = connection.getresponse()
        body = answer.read()
        return json.loads(body) if answer.status == 200 else None
    finally:
        connection.close()


def main():
    tmp = tempfile.mkdtemp(prefix="wh-takeover-")
    hashed = bd.password_hash(tmp)
    server, url = bc.nats(tmp)
    fronts = []
    try:
        names, tokens = bc.start_cluster(3, hashed, tmp, server, url, fronts)
        survivors = fronts[:2]
        acknowledged = {name: 0 for name in names}
        posted = [0, 0]
        stop = threading.Event()
        lock = threading.Lock()

        def client(index):
            mine = names[index::CLIENTS]
            count = {name: 0 for name in mine}
            turn = 0
            while not stop.is_set():
                for name in mine:
                    if stop.is_set():
                        break
                    count[name] += 1
                    body = json.dumps({"_type": "location", "lat": PLACE[0], "lon": longitude(count[name]),
                                       "tst": int(time.time()), "acc": 10, "batt": 80})
                    _, host, port = survivors[turn % 2]
                    turn += 1
                    status_code, _ = bd.post(host, port, "/owntracks", body, bd.basic(name, tokens[name]))
                    with lock:
                        posted[0] += 1
                        if status_code == 200:
                            posted[1] += 1
                            acknowledged[name] = max(acknowledged[name], count[name])

        threads = [threading.Thread(target=client, args=(i,)) for i in range(CLIENTS)]
        for thread in threads:
            thread.start()
        time.sleep(WARM)
        victim = fronts[2][0]
        # KILL=0: the same run without the kill, to tell what the kill did.
        if os.environ.get("KILL", "1") != "0":
            victim.kill()
        killed = time.monotonic()
        takeover = None
        while time.monotonic() - killed < AFTER:
            if takeover is None and victim.poll() is not None:
                held = sum(len(bc.health(h, p)["cluster"]["held"]) for _, h, p in survivors)
                if held == 64:
                    takeover = time.monotonic() - killed
            time.sleep(0.1)
        stop.set()
        for thread in threads:
            thread.join()
        ended = time.monotonic()
        # Applied by the survivors until it stops moving for 3 s.
        last, still = -1, ended
        while time.monotonic() - still < 3 and time.monotonic() - ended < 120:
            now = sum(bc.health(h, p)["cluster"]["applied"] for _, h, p in survivors)
            if now != last:
                last, still = now, time.monotonic()
            time.sleep(0.2)
        drained = still - ended
        lost = []
        for name in names:
            newest = 0
            for _, host, port in survivors:
                answer = status(host, port, bd.basic(name, tokens[name]))
                fix = (answer or {}).get("lastFix") or {}
                if "longitude" in fix:
                    newest = max(newest, count_of(fix["longitude"]))
            if newest != acknowledged[name]:
                lost.append((name, acknowledged[name], newest))
        print(f"workload: {len(names)} people, 3 workers on one nats-server (1 replica, 64 partitions, 15 s leases); {CLIENTS} client "
              f"threads post to the first two fronts; the third killed with SIGKILL after {WARM:.0f} s; posting goes on {AFTER:.0f} s; "
              f"{os.cpu_count()} cores shared by everything")
        print(f"fixes posted {posted[0]}, acknowledged {posted[1]}")
        print(f"partitions held by the survivors {'after %.1f s' % takeover if takeover is not None else 'not within the run'}")
        print(f"applied everything {drained:.1f} s after the load")
        print(f"people whose journalled last fix is the last one acknowledged: {len(names) - len(lost)} of {len(names)}")
        for name, wanted, seen in lost[:10]:
            print(f"  {name}: acknowledged #{wanted}, journalled #{seen}")
        fired = fires(tmp, 3)
        entered = [name for name in names if acknowledged[name] >= CROSS]
        once = [name for name in entered if fired.get(name, 0) == 1]
        never = [name for name in entered if fired.get(name, 0) == 0]
        twice = [name for name in entered if fired.get(name, 0) > 1]
        print(f"people who arrived (an acknowledged fix inside their task's place): {len(entered)}; reminded once {len(once)}, "
              f"never {len(never)}, more than once {len(twice)}" + (f" (e.g. {', '.join(twice[:5])})" if twice else "")
              + (f"; never e.g. {', '.join(never[:5])}" if never else ""))
    finally:
        # KEEP=DIR keeps the workers' logs (and everything else of the run) there, for a run looked into by hand.
        if os.environ.get("KEEP"):
            shutil.copytree(tmp, os.environ["KEEP"], dirs_exist_ok=True, ignore=shutil.ignore_patterns("*.sock"))
        bc.stop_cluster(fronts, server, tmp)


if __name__ == "__main__":
    main()
