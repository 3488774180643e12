#!/usr/bin/env python3
"""whilehered's fix path under a simulated cache: where flatness goes.

Runs a release whilehered under valgrind's callgrind with its cache
simulation (L1d 32 KiB, the last level set to 2 MiB, this machine's L2 per
core), with N people each holding a task and a device key, as
scripts/bench-daemon.py configures them. Instrumentation is off while the
tasks are added and two rounds of fixes warm every person; then FIXES
reports go out, the people in turn (8 at once), and only those are counted,
and only inside the HTTP handler and the journal's flush (which runs the
engine's step for each fix), so the ticker's rounds are left out. Cache
misses are counted, not timed: the same build gives the same counts to a
few per cent, which wall-clock runs on this machine cannot.

Needs valgrind (Debian: apt-get install valgrind; not in scripts/setup.sh, CI does not run it).

Usage: scripts/cachesim-daemon.py BIN_DIR PEOPLE FIXES OUT
  then: callgrind_annotate OUT.1 | grep TOTALS    (Ir ... DLmr DLmw: misses of the simulated 2 MiB cache)
        callgrind_annotate --sort=DLmr --show=Ir,DLmr,DLmw OUT.1   (by function)
valgrind 3.19 cannot read the DWARF 5 lld writes, so the daemon is run from
a copy without debug information (function names stay).
"""
import importlib.util, json, os, re, shutil, signal, subprocess, sys, tempfile, time

if len(sys.argv) != 5:
    raise SystemExit(__doc__)
BIN, PEOPLE, FIXES, OUT = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
for tool, package in (("valgrind", "valgrind"), ("callgrind_control", "valgrind"), ("objcopy", "binutils")):
    if not shutil.which(tool):
        raise SystemExit(f"cachesim-daemon: {tool} is missing: apt-get install {package}")
for program in ("whilehere", "whilehered"):
    if not os.access(os.path.join(BIN, program), os.X_OK):
        raise SystemExit(f"cachesim-daemon: no {program} in {BIN}: swift build -c release --product {program}")
here = os.path.dirname(os.path.abspath(__file__))
sys.argv = ["bench-daemon.py", BIN]
spec = importlib.util.spec_from_file_location("bench_daemon", os.path.join(here, "bench-daemon.py"))
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)

tmp = tempfile.mkdtemp(prefix=f"wh-cachesim-{PEOPLE}-")
daemon = os.path.join(tmp, "whilehered")
shutil.copy(os.path.join(BIN, "whilehered"), daemon)
subprocess.run(["objcopy", "--strip-debug", daemon], check=True)
hashed = bench.password_hash(tmp)
names = [f"p{i}" for i in range(PEOPLE)]
config, tokens = bench.configure(tmp, names, hashed)
log = os.path.join(tmp, "daemon.log")
command = ["valgrind", "--tool=callgrind", "--cache-sim=yes", "--D1=32768,8,64", "--LL=2097152,16,64", "--instr-atstart=no",
           "--toggle-collect=*HTTPServerC6access*", "--toggle-collect=*flushPendings*", f"--callgrind-out-file={OUT}", daemon, "--config", config]
process = subprocess.Popen(command, stdout=open(log, "w"), stderr=subprocess.STDOUT, env=bench.env(tmp))
for _ in range(30000):
    found = re.search(r"listening http://([0-9.]+):([0-9]+)", open(log).read())
    if found:
        break
    if process.poll() is not None:
        raise SystemExit(open(log).read())
    time.sleep(0.02)
else:
    raise SystemExit("whilehered did not get ready under valgrind:\n" + open(log).read())
host, port = found.group(1), int(found.group(2))
task = lambda n: json.dumps({"title": f"Errand {n}", "locations": [{"at": "60.17,24.94", "radius": 150}]})
send = lambda n: bench.until_served(host, port, "/owntracks", bench.fix_body, bench.basic(n, tokens[n]))
bench.each(names, lambda n: bench.until_served(host, port, "/api/v1/tasks", lambda: task(n), bench.basic(n, tokens[n])), 8)
for _ in range(2):
    bench.each(names, send, 8)
subprocess.run(["callgrind_control", "-i", "on", str(process.pid)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
began = time.monotonic()
bench.each([names[i % PEOPLE] for i in range(FIXES)], send, 8)
subprocess.run(["callgrind_control", "-i", "off", str(process.pid)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
print(f"{PEOPLE} people, {FIXES} fixes counted ({time.monotonic() - began:.1f} s under valgrind); profile {OUT}.1", flush=True)
subprocess.run(["callgrind_control", "-d", str(process.pid)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
process.send_signal(signal.SIGTERM)
process.wait(timeout=300)
shutil.rmtree(tmp)
