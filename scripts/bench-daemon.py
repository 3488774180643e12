#!/usr/bin/env python3
"""Load and restart-storm benchmark for whilehered, at several sizes.

For each size (people): a release whilehered on a durable file store, each
person with one task and a device key (their phone proves itself with it, as
`whilehere device add` issues them). Measures, on the same server in the same
run: GET /health with wrk (the baseline), durable OwnTracks fixes with wrk
(p50/p99), their ratio; then a restart storm: the daemon is stopped, started
again, and every person's phone posts at once (as many at a time as the
server admits; refused or 503 answers are retried after their Retry-After),
timing until all are served, GET /health latency throughout (from a
process of its own), and the
daemon's peak memory (VmHWM) after a start plus storm.

Usage: scripts/bench-daemon.py BIN_DIR [SIZES...]   (scripts/bench-daemon.sh builds and calls it)
Environment: SECONDS_PER_RUN (15), CONNECTIONS (100), THREADS (2);
WHILEHERE_BENCH_ACTIVE=N sends the fixes for the first N people only (all
are configured and in the storm): tells the cost of people who report
from that of people who exist.
"""
import base64, hashlib, http.client, json, multiprocessing, os, random, re, secrets, signal, socket, subprocess, sys, tempfile, threading, time

BIN = sys.argv[1]
SIZES = [int(s) for s in sys.argv[2:]] or [10, 100, 1000, 10000]
SECONDS = int(os.environ.get("SECONDS_PER_RUN", "15"))
CONNECTIONS = int(os.environ.get("CONNECTIONS", "100"))
THREADS = int(os.environ.get("THREADS", "2"))
# PERF_OUT=PREFIX records the daemon with perf during each size's fixes run, into PREFIX-SIZE.data.
PERF_OUT = os.environ.get("PERF_OUT")
# PERF_ARGS: perf record's sampling options (default "-F 499 -g"; without -g it slows the daemon far less;
# with -a the whole machine, so threads made after perf starts count too: report with --pid).
PERF_ARGS = os.environ.get("PERF_ARGS", "-F 499 -g").split()
STORM_CLIENTS = 400
HERE = os.path.dirname(os.path.abspath(__file__))
LUA = os.path.join(HERE, "..", "Benchmarks", "DaemonLoad", "owntracks.lua")


def device_key():
    """A token and its stored form, as Modules/Adapters/Sodium/DeviceKey.swift makes them."""
    token = base64.urlsafe_b64encode(secrets.token_bytes(32)).decode().rstrip("=")
    salt = secrets.token_bytes(16)
    digest = hashlib.blake2b(token.encode(), key=salt, digest_size=32).digest()
    return token, "$wh-device-1$" + salt.hex() + "$" + digest.hex()


def password_hash(tmp):
    """One real Argon2id hash (nobody logs in with a password here)."""
    config = os.path.join(tmp, "hash-config.json")
    with open(config, "w") as f:
        json.dump({"store": "memory"}, f)
    pw = os.path.join(tmp, "pw")
    with open(pw, "w") as f:
        f.write("not-used-in-this-benchmark\n")
    subprocess.run([os.path.join(BIN, "whilehere"), "--config", config, "user", "add", "nobody", "--password-file", pw],
                   check=True, stdout=subprocess.DEVNULL, env=env(tmp))
    return json.load(open(config))["people"]["nobody"]["password"]


def env(tmp):
    e = dict(os.environ)
    e.update(HOME=tmp, XDG_DATA_HOME=tmp + "/data", XDG_CONFIG_HOME=tmp + "/config", XDG_STATE_HOME=tmp + "/state")
    return e


def start(config, tmp, log):
    out = open(log, "w")
    process = subprocess.Popen([os.path.join(BIN, "whilehered"), "--config", config], stdout=out, stderr=subprocess.STDOUT, env=env(tmp))
    for _ in range(6000):
        text = open(log).read()
        found = re.search(r"listening http://([0-9.]+):([0-9]+)", text)
        if found:
            return process, found.group(1), int(found.group(2))
        if process.poll() is not None:
            raise SystemExit("whilehered stopped:\n" + text)
        time.sleep(0.01)
    raise SystemExit("whilehered did not get ready:\n" + open(log).read())


def stop(process):
    process.send_signal(signal.SIGTERM)
    process.wait(timeout=120)


def basic(name, token):
    return "Basic " + base64.b64encode(f"{name}:{token}".encode()).decode()


def post(host, port, path, body, auth, timeout=30):
    """One request on its own connection: (status, Retry-After seconds or None)."""
    connection = http.client.HTTPConnection(host, port, timeout=timeout)
    try:
        connection.request("POST", path, body=body, headers={"Authorization": auth, "Content-Type": "application/json", "X-Limit-D": "phone"})
        response = connection.getresponse()
        response.read()
        retry = response.getheader("Retry-After")
        return response.status, float(retry) if retry else None
    except (OSError, http.client.HTTPException):
        return 0, None
    finally:
        connection.close()


def fix_body():
    return json.dumps({"_type": "location", "lat": 60.16 + secrets.randbelow(2000) / 1e5, "lon": 24.92 + secrets.randbelow(4000) / 1e5,
                       "tst": int(time.time()), "acc": 10, "batt": 80})


def each(people, work, clients):
    """Runs work(person) for every person on `clients` threads; returns the seconds it took."""
    queue = list(people)
    lock = threading.Lock()

    def worker():
        while True:
            with lock:
                if not queue:
                    return
                person = queue.pop()
            work(person)

    began = time.monotonic()
    threads = [threading.Thread(target=worker) for _ in range(min(clients, len(people)))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return time.monotonic() - began


def until_served(host, port, path, body, auth):
    """Posts until answered 2xx; waits as Retry-After says (or a little) between tries."""
    for _ in range(600):
        status, retry = post(host, port, path, body(), auth)
        if 200 <= status < 300:
            return True
        time.sleep(min(retry or 0.05, 2))
    return False


def health_pinger(host, port, ready, stop_event, answer):
    """GET /health in a loop until told to stop; sends back every latency.
    Runs in a process of its own: inside the storm's process its requests
    would queue behind 400 client threads for Python's interpreter lock,
    timing the client, not the server."""
    latencies = []
    while not stop_event.is_set():
        began = time.monotonic()
        try:
            connection = http.client.HTTPConnection(host, port, timeout=10)
            connection.request("GET", "/health")
            connection.getresponse().read()
            connection.close()
            latencies.append(time.monotonic() - began)
        except (OSError, http.client.HTTPException):
            latencies.append(float("inf"))
        ready.set()
        time.sleep(0.01)
    answer.send(latencies)


def wrk(base, path_or_script, people_lua):
    args = ["wrk", f"-t{THREADS}", f"-c{CONNECTIONS}", f"-d{SECONDS}s", "--latency"]
    if path_or_script.endswith(".lua"):
        args += ["-s", path_or_script, base]
    else:
        args += [base + path_or_script]
    # A seed of its own for each wrk process (its script gives each thread its own from it).
    seed = str(random.SystemRandom().randrange(1, 2**31))
    text = subprocess.run(args, capture_output=True, text=True, env=dict(os.environ, WHILEHERE_BENCH_PEOPLE=people_lua, WHILEHERE_BENCH_SEED=seed)).stdout
    rate = float(re.search(r"Requests/sec:\s+([0-9.]+)", text).group(1))
    p50 = re.search(r"\n\s+50%\s+(\S+)", text).group(1)
    p99 = re.search(r"\n\s+99%\s+(\S+)", text).group(1)
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
    return rate, p50, p99, int(errors.group(1)) if errors else 0


def cpu_seconds(pid):
    """The process's user and system CPU time so far, seconds."""
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def peak_memory_mib(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def percentile(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def configure(tmp, names, hashed):
    """A config (0600) for `names`, each with a device key, on a file store
    in `tmp`, listening on a free port: (its path, each name's token)."""
    tokens = {}
    people = {}
    for name in names:
        token, stored = device_key()
        tokens[name] = token
        people[name] = {"password": hashed, "devices": ["phone"], "deviceKeys": {"phone": stored}}
    config = os.path.join(tmp, "config.json")
    with open(config, "w") as f:
        json.dump({"store": f"file:{tmp}/store", "notify": [], "server": {"listen": "127.0.0.1:0", "per-address": 0}, "people": people}, f)
    os.chmod(config, 0o600)
    return config, tokens


def run(size, hashed):
    tmp = tempfile.mkdtemp(prefix=f"wh-bench-{size}-")
    names = [f"p{i}" for i in range(size)]
    config, tokens = configure(tmp, names, hashed)
    people_lua = os.path.join(tmp, "people.lua")
    with open(people_lua, "w") as f:
        f.write("auth = {\n" + "".join(f'  "{basic(n, tokens[n])}",\n' for n in names) + "}\n")
    process, host, port = start(config, tmp, os.path.join(tmp, "daemon.log"))
    base = f"http://{host}:{port}"
    task = lambda n: json.dumps({"title": f"Errand {n}", "locations": [{"at": "60.17,24.94", "radius": 150}]})
    each(names, lambda n: until_served(host, port, "/api/v1/tasks", lambda: task(n), basic(n, tokens[n])), 50)
    each(names, lambda n: until_served(host, port, "/owntracks", fix_body, basic(n, tokens[n])), 50)
    health = wrk(base, "/health", people_lua)
    profiler = None
    if PERF_OUT:
        # -p follows only the threads there when perf starts (Dispatch makes
        # more under load); with -a in PERF_ARGS the whole machine is
        # recorded instead (`perf report --pid PID` picks the daemon).
        target = [] if "-a" in PERF_ARGS else ["-p", str(process.pid)]
        print(f"perf: {size} people, daemon pid {process.pid}", file=sys.stderr, flush=True)
        profiler = subprocess.Popen(["perf", "record", "-q", *PERF_ARGS, *target, "-o", f"{PERF_OUT}-{size}.data"],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    cpu_before = cpu_seconds(process.pid)
    fixes = wrk(base, LUA, people_lua)
    # The daemon's own CPU per fix: what flat throughput needs to stay flat
    # (wrk and the kernel's loopback share the cores with it).
    cpu_per_fix = (cpu_seconds(process.pid) - cpu_before) / max(1, fixes[0] * SECONDS) * 1e6
    if profiler:
        profiler.send_signal(signal.SIGINT)
        profiler.wait()
    stop(process)
    # The storm: a fresh start, then every phone at once.
    process, host, port = start(config, tmp, os.path.join(tmp, "daemon-2.log"))
    spawn = multiprocessing.get_context("spawn")
    ready, done = spawn.Event(), spawn.Event()
    receive, send = spawn.Pipe(duplex=False)
    pinger = spawn.Process(target=health_pinger, args=(host, port, ready, done, send))
    pinger.start()
    # A small storm is over in milliseconds: start it once the pinger is pinging.
    ready.wait(30)
    served = [0]
    lock = threading.Lock()

    def phone(n):
        if until_served(host, port, "/owntracks", fix_body, basic(n, tokens[n])):
            with lock:
                served[0] += 1

    storm = each(names, phone, STORM_CLIENTS)
    done.set()
    latencies = receive.recv()
    pinger.join()
    memory = peak_memory_mib(process.pid)
    stop(process)
    subprocess.run(["rm", "-rf", tmp])
    return dict(size=size, health=health, fixes=fixes, cpu=cpu_per_fix, storm=storm, served=served[0],
                health_p99=percentile(latencies, 0.99) * 1000, health_max=max(latencies) * 1000 if latencies else float("nan"), pings=len(latencies), memory=memory)


def main():
    tmp = tempfile.mkdtemp(prefix="wh-bench-hash-")
    hashed = password_hash(tmp)
    subprocess.run(["rm", "-rf", tmp])
    print(f"workload: people posting OwnTracks locations with device keys, durable file store, one task each; wrk {THREADS} threads, "
          f"{CONNECTIONS} connections, {SECONDS} s per run; storm: restart, then every phone posts once, {STORM_CLIENTS} at a time, retried "
          f"after Retry-After; {os.cpu_count()} cores")
    print(f"{'people':>7} {'health req/s':>12} {'fixes/s':>9} {'fix p50':>8} {'fix p99':>8} {'non-2xx':>7} {'ratio':>6} "
          f"{'cpu µs/fix':>10} {'storm s':>8} {'served':>7} {'health p99 ms':>13} {'max ms':>7} {'pings':>6} {'peak MiB':>8}")
    for size in SIZES:
        r = run(size, hashed)
        h, f = r["health"], r["fixes"]
        print(f"{size:>7} {h[0]:>12.0f} {f[0]:>9.0f} {f[1]:>8} {f[2]:>8} {f[3]:>7} {f[0] / h[0]:>6.2f} "
              f"{r['cpu']:>10.1f} {r['storm']:>8.2f} {r['served']:>7} {r['health_p99']:>13.1f} {r['health_max']:>7.1f} {r['pings']:>6} {r['memory']:>8.0f}", flush=True)


if __name__ == "__main__":
    main()
