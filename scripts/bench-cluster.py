"""whilehered workers on NATS JetStream under load (issue #15).

For 1 and 3 workers (or those given) on one machine: a single nats-server
with JetStream, people's logs on it (`nats:` store) and the report queue,
leases and mailbox (`cluster.nats`). Worker 1 starts alone and each
person gets one task through it; the others then join and take their
share (reading those people's logs). wrk posts OwnTracks locations to
every front at once; a fix counts when its front answered it, which is
after JetStream stored it. Printed per run: queued fixes/s with p50/p99,
fixes the workers applied per second in the same window, and how long
after the load the workers took to apply the rest (the backlog), and the
rate at which they applied it ("then/s": their own pace, the fronts quiet),
with the CPU the workers and nats-server spent per fix meanwhile, the
largest worker's resident memory (what Docs/Cluster.md's sizing uses),
each worker's, and how many people each has open (/health).

  python3 scripts/bench-cluster.py BIN [WORKERS...]   PEOPLE=1000 SECONDS_PER_RUN=15 CONNECTIONS=100
"""
import importlib.util
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("bench_daemon", os.path.join(HERE, "bench-daemon.py"))
bd = importlib.util.module_from_spec(spec)
sys.argv = [sys.argv[0], sys.argv[1]] + sys.argv[2:]
spec.loader.exec_module(bd)

WORKERS = [int(s) for s in sys.argv[2:]] or [1, 3]
PEOPLE = int(os.environ.get("PEOPLE", "1000"))


def nats(tmp):
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    log = open(os.path.join(tmp, "nats.log"), "w")
    process = subprocess.Popen(["nats-server", "-js", "-sd", os.path.join(tmp, "js"), "-a", "127.0.0.1", "-p", str(port)], stdout=log, stderr=subprocess.STDOUT)
    time.sleep(1)
    return process, f"nats://127.0.0.1:{port}"


def health(host, port):
    with urllib.request.urlopen(f"http://{host}:{port}/health", timeout=10) as answer:
        return json.load(answer)


def applied(fronts):
    return sum(health(h, p)["cluster"]["applied"] for _, h, p in fronts)


def cpu_seconds(pid):
    """User and system CPU a process used so far."""
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def resident_mib(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def start_cluster(workers, hashed, tmp, server, url, fronts):
    """Starts `workers` whilehered workers on the nats-server at `url` (appended
    to `fronts` as they start, so the caller stops them whatever happens),
    gives each person a task through the first, waits until every worker
    holds a share, and posts each person's first fix. Returns (names, tokens)."""
    names = [f"p{i}" for i in range(PEOPLE)]
    tokens, people = {}, {}
    for name in names:
        token, stored = bd.device_key()
        tokens[name] = token
        people[name] = {"password": hashed, "devices": ["phone"], "deviceKeys": {"phone": stored}}
    for index in range(workers):
        directory = os.path.join(tmp, f"w{index}")
        os.makedirs(directory)
        config = os.path.join(directory, "config.json")
        with open(config, "w") as f:
            json.dump({"store": f"nats:{url};stream=PEOPLE", "notify": [], "server": {"listen": "127.0.0.1:0", "per-address": 0},
                       "cluster": {"nats": f"{url};stream=WORK", "worker": f"w{index}", "partitions": 64}, "people": people}, f)
        os.chmod(config, 0o600)
        process, host, port = bd.start(config, directory, os.path.join(directory, "daemon.log"))
        fronts.append((process, host, port))
        if index == 0:
            task = lambda n: json.dumps({"title": f"Errand {n}", "locations": [{"at": "60.17,24.94", "radius": 150}]})
            bd.each(names, lambda n: bd.until_served(host, port, "/api/v1/tasks", lambda: task(n), bd.basic(n, tokens[n])), 50)
    # The joiners take their share at the holders' next rounds (a third of the 15 s lease).
    for _ in range(600):
        tables = [health(h, p)["cluster"] for _, h, p in fronts]
        if all(len(t["held"]) > 0 for t in tables) and sum(len(t["held"]) for t in tables) == 64:
            break
        time.sleep(0.1)
    host, port = fronts[0][1], fronts[0][2]
    bd.each(names, lambda n: bd.until_served(host, port, "/owntracks", bd.fix_body, bd.basic(n, tokens[n])), 50)
    return names, tokens


def stop_cluster(fronts, server, tmp):
    for process, _, _ in fronts:
        if process.poll() is not None:
            continue
        try:
            bd.stop(process)
        except Exception:
            process.kill()
    server.terminate()
    server.wait()
    shutil.rmtree(tmp, ignore_errors=True)


def run(workers, hashed):
    tmp = tempfile.mkdtemp(prefix=f"wh-cluster-{workers}-")
    server, url = nats(tmp)
    fronts = []
    try:
        names, tokens = start_cluster(workers, hashed, tmp, server, url, fronts)
        people_lua = os.path.join(tmp, "people.lua")
        with open(people_lua, "w") as f:
            f.write("auth = {\n" + "".join(f'  "{bd.basic(n, tokens[n])}",\n' for n in names) + "}\n")
        before = applied(fronts)
        began = time.monotonic()
        results = [None] * workers

        def load(i):
            _, h, p = fronts[i]
            results[i] = bd.wrk(f"http://{h}:{p}", bd.LUA, people_lua)

        bd.CONNECTIONS = max(1, bd.CONNECTIONS // workers)
        threads = [threading.Thread(target=load, args=(i,)) for i in range(workers)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        window = time.monotonic() - began
        during = applied(fronts) - before
        queued = sum(r[0] for r in results) * bd.SECONDS
        drained = time.monotonic()
        workers_cpu = sum(cpu_seconds(p.pid) for p, _, _ in fronts)
        nats_cpu = cpu_seconds(server.pid)
        at_drain = applied(fronts)
        while applied(fronts) - before < queued * 0.999 and time.monotonic() - drained < 300:
            time.sleep(0.2)
        backlog = time.monotonic() - drained
        # CPU per fix applied while nothing else ran: what sizing needs.
        drained_fixes = max(1, applied(fronts) - at_drain)
        worker_us = 1e6 * (sum(cpu_seconds(p.pid) for p, _, _ in fronts) - workers_cpu) / drained_fixes
        nats_us = 1e6 * (cpu_seconds(server.pid) - nats_cpu) / drained_fixes
        memory = max(resident_mib(p.pid) for p, _, _ in fronts)
        # Each worker's memory and how many people it has open (its share, once the others joined).
        each = "/".join(f"{resident_mib(p.pid):.0f}" for p, _, _ in fronts)
        opened = "/".join(str(health(h, port)["cluster"]["open"]) for _, h, port in fronts)
        # What the workers apply once the fronts are quiet: their own pace.
        after = (applied(fronts) - before - during) / backlog if backlog > 0.5 else float("nan")
        rate = sum(r[0] for r in results)
        p99 = max(r[2] for r in results)
        p50 = max(r[1] for r in results)
        errors = sum(r[3] for r in results)
        return dict(workers=workers, rate=rate, p50=p50, p99=p99, errors=errors, applied=during / window, backlog=backlog, after=after,
                    worker_us=worker_us, nats_us=nats_us, memory=memory, each=each, opened=opened)
    finally:
        bd.CONNECTIONS = int(os.environ.get("CONNECTIONS", "100"))
        stop_cluster(fronts, server, tmp)


def main():
    tmp = tempfile.mkdtemp(prefix="wh-cluster-hash-")
    hashed = bd.password_hash(tmp)
    shutil.rmtree(tmp, ignore_errors=True)
    print(f"workload: {PEOPLE} people posting OwnTracks locations with device keys, one task each; one nats-server with JetStream "
          f"(people's logs and the report queue, 1 replica), 64 partitions; wrk {bd.THREADS} threads and {bd.CONNECTIONS} connections "
          f"split over the fronts, {bd.SECONDS} s; {os.cpu_count()} cores shared by everything")
    print(f"{'workers':>7} {'queued fixes/s':>14} {'p50':>8} {'p99':>8} {'non-2xx':>7} {'applied/s':>9} {'backlog s':>9} {'then/s':>7} {'worker us/fix':>13} {'nats us/fix':>11} {'worker MiB':>10}  {'each MiB':>12}  {'people open':>16}")
    for workers in WORKERS:
        r = run(workers, hashed)
        print(f"{r['workers']:>7} {r['rate']:>14.0f} {r['p50']:>8} {r['p99']:>8} {r['errors']:>7} {r['applied']:>9.0f} {r['backlog']:>9.1f} {r['after']:>7.0f} {r['worker_us']:>13.0f} {r['nats_us']:>11.0f} {r['memory']:>10.0f}  {r['each']:>12}  {r['opened']:>16}", flush=True)


if __name__ == "__main__":
    main()
