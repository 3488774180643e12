#!/usr/bin/env python3
"""The map page in a real browser: headless Chromium driven over WebDriver
(Debian's chromium-driver), against a real whilehered with a file store.
What a person does, checked through the API afterwards:
sign in with the keyboard; add "Buy milk" with two suggested places; drag a
pin and a radius handle; reorder; a phone report inside a place fires the
reminder, which is answered with Mark Done on the page; no errors in the
browser's console; sign out ends the session on the server; another person
signing in on the same page sees none of it, and adds a task with the keyboard
alone (Tab, Enter, Space). Also: the page at 375 px wide,
and refusals (no CSRF token, a signed-out cookie).
  Tests/Browser/webapp_test.py [BUILD_DIR]   (default .build/debug)"""
import base64
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

BUILD = sys.argv[1] if len(sys.argv) > 1 else ".build/debug"
PASSWORD = "alice-secret-pass"
BOB_PASSWORD = "bob-secret-pass"
failures = []


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def http(method, url, body=None, headers=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method, headers=headers or {})
    if data is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            text = response.read().decode()
            return response.status, (json.loads(text) if text else None)
    except urllib.error.HTTPError as error:
        text = error.read().decode()
        return error.code, (json.loads(text) if text.startswith("{") or text.startswith("[") else text)


def check(condition, what):
    print(("ok   " if condition else "FAIL ") + what)
    if not condition:
        failures.append(what)
    return condition


def wait_for(predicate, what, seconds=15):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            value = predicate()
            if value:
                return value
        except Exception:  # the page is still changing
            pass
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


class Browser:
    """The few W3C WebDriver commands the test needs, over plain HTTP."""

    def __init__(self, driver_url, width, height, phone=False):
        self.url = driver_url
        options = {
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", f"--window-size={width},{height}"],
        }
        if phone:
            # A window cannot be narrower than 500 px; a phone's screen is emulated instead.
            options["mobileEmulation"] = {"deviceMetrics": {"width": width, "height": height, "pixelRatio": 2, "touch": True}}
        chromium = shutil.which("chromium")
        if chromium:
            options["binary"] = chromium
        # The browser's console is kept, so errors the page logs can be read back.
        capabilities = {"goog:chromeOptions": options, "goog:loggingPrefs": {"browser": "ALL"}}
        _, made = http("POST", f"{self.url}/session", {"capabilities": {"alwaysMatch": capabilities}})
        self.session = made["value"]["sessionId"]

    def command(self, method, path, body=None):
        status, answer = http(method, f"{self.url}/session/{self.session}{path}", body)
        if status != 200:
            raise AssertionError(f"WebDriver {method} {path}: {answer}")
        return answer["value"]

    def go(self, url):
        self.command("POST", "/url", {"url": url})

    def find(self, css):
        found = self.command("POST", "/element", {"using": "css selector", "value": css})
        return next(iter(found.values()))

    def find_all(self, css):
        return [next(iter(e.values())) for e in self.command("POST", "/elements", {"using": "css selector", "value": css})]

    def visible(self, css):
        elements = self.find_all(css)
        return bool(elements) and self.command("GET", f"/element/{elements[0]}/displayed")

    def click(self, css):
        self.settle()
        # The card redraws after each answer; an element found just before may be replaced.
        wait_for(lambda: self.try_click(css), f"a clickable {css}")

    def try_click(self, css):
        try:
            self.command("POST", f"/element/{self.find(css)}/click", {})
            return True
        except AssertionError as error:
            if "stale element" in str(error) or "no such element" in str(error):
                return False
            raise

    def type(self, css, text):
        self.command("POST", f"/element/{self.find(css)}/value", {"text": text})

    def text(self, css):
        return self.command("GET", f"/element/{self.find(css)}/text")

    def script(self, source, *args):
        return self.command("POST", "/execute/sync", {"script": source, "args": list(args)})

    def settle(self):
        """Until no request is in flight (the page marks itself aria-busy)."""
        try:
            wait_for(lambda: self.script("return document.body.getAttribute('aria-busy') !== 'true'"), "the page to settle")
        except AssertionError:
            raise AssertionError(f"timed out waiting for the page to settle (in flight: {self.script('return document.body.dataset.pending')})")

    def still(self, css):
        """Until the element stays where it is for a moment: a map still
        zooming or panning moves its pins, and a drag that starts off the
        pin is a click on the map, which adds a place."""
        where = "const r = document.querySelector(arguments[0]).getBoundingClientRect(); return [Math.round(r.x), Math.round(r.y)];"
        def steady():
            first = self.script(where, css)
            time.sleep(0.3)
            return first == self.script(where, css)
        wait_for(steady, f"{css} to stop moving")

    def drag(self, css, dx, dy):
        self.settle()
        self.still(css)
        element = {"element-6066-11e4-a52e-4f735466cecf": self.find(css)}
        steps = [{"type": "pointerMove", "duration": 50, "origin": "pointer", "x": round(dx * (i + 1) / 10) - round(dx * i / 10), "y": round(dy * (i + 1) / 10) - round(dy * i / 10)} for i in range(10)]
        self.command("POST", "/actions", {"actions": [{
            "type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"},
            "actions": [{"type": "pointerMove", "duration": 0, "origin": element, "x": 0, "y": 0}, {"type": "pointerDown", "button": 0}]
            + steps + [{"type": "pointerUp", "button": 0}],
        }]})
        self.command("DELETE", "/actions")

    def console_errors(self):
        """Errors in the page's console since the last call, but refused requests:
        the test makes the server refuse on purpose (a wrong password, a place a task uses)."""
        entries = self.command("POST", "/se/log", {"type": "browser"})
        return [e["message"] for e in entries if e["level"] == "SEVERE" and e.get("source") != "network"]

    def screenshot(self, path):
        with open(path, "wb") as file:
            file.write(base64.b64decode(self.command("GET", "/screenshot")))

    def cookies(self):
        return self.command("GET", "/cookie")

    def quit(self):
        http("DELETE", f"{self.url}/session/{self.session}")


def main():
    for tool in ("chromium", "chromedriver"):
        if not shutil.which(tool):
            print(f"browser test: {tool} is missing; run scripts/setup.sh (it installs chromium and chromium-driver)", file=sys.stderr)
            return 1
    work = tempfile.mkdtemp(prefix="whilehere-web-")
    port, driver_port = free_port(), free_port()
    base = f"http://127.0.0.1:{port}"
    config = os.path.join(work, "config.json")
    with open(config, "w") as file:
        json.dump({"store": f"file:{work}/store", "ids": "sequential", "server": {"listen": f"127.0.0.1:{port}"},
                   "analytics": {"daemon": "on", "sink": [f"jsonl:{work}/usage.jsonl"]}, "people": {}}, file)
    for name, password in (("alice", PASSWORD), ("bob", BOB_PASSWORD)):
        subprocess.run([f"{BUILD}/whilehere", "--config", config, "user", "add", name, "--password-file", "-"], input=password.encode(), check=True, capture_output=True)
    # alice's saved places and lists, as the CLI makes them (her store while the daemon is down).
    own = [f"{BUILD}/whilehere", "--store", f"file:{work}/store/people/alice"]
    for command in (["list", "create", "Favourites"], ["list", "create", "Coffee"],
                    ["place", "add", "Oodi", "--at", "60.1739,24.9382", "--tag", "library", "--list", "Favourites"],
                    ["place", "add", "Cafe Regatta", "--at", "60.1837,24.9117", "--tag", "cafe", "--list", "Coffee"],
                    ["place", "add", "Ateneum", "--at", "60.1700,24.9441", "--tag", "museum"]):
        subprocess.run(own + command, check=True, capture_output=True)
    daemon = subprocess.Popen([f"{BUILD}/whilehered", "--config", config], stdout=open(os.path.join(work, "daemon.log"), "w"), stderr=subprocess.STDOUT)
    driver = subprocess.Popen(["chromedriver", f"--port={driver_port}"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    basic = {"Authorization": "Basic " + base64.b64encode(f"alice:{PASSWORD}".encode()).decode()}
    browser = None
    try:
        wait_for(lambda: http("GET", f"{base}/health")[0] == 200, "whilehered")
        wait_for(lambda: http("GET", f"http://127.0.0.1:{driver_port}/status")[0] == 200, "chromedriver")
        browser = Browser(f"http://127.0.0.1:{driver_port}", 1280, 800)
        run(browser, base, basic, work)
        narrow(base, driver_port, work)
        live_demo(driver_port, work)
    except AssertionError as error:
        failures.append(str(error))
        print(f"FAIL {error}")
        if browser:
            browser.screenshot(os.path.join(work, "failure.png"))
            print(f"     screenshot: {work}/failure.png; daemon log: {work}/daemon.log")
    finally:
        if browser:
            browser.quit()
        driver.terminate()
        daemon.terminate()
        daemon.wait(timeout=30)
    print(f"browser test: {'FAILED' if failures else 'passed'} ({len(failures)} failures)")
    if failures or os.environ.get("WHILEHERE_KEEP_BROWSER_FILES"):
        print(f"browser test: screenshots and the daemon's log are in {work}")
    else:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if failures else 0


def run(browser, base, basic, work):
    browser.go(f"{base}/app/")
    wait_for(lambda: browser.visible("#sign-in"), "the sign-in form")
    # The keyboard alone: type, then Enter submits.
    browser.type("#sign-in-name", "alice")
    browser.type("#sign-in-password", "wrong-password")
    browser.type("#sign-in-password", "\ue007")
    wait_for(lambda: "wrong" in browser.text("#sign-in-error"), "the refusal of a wrong password")
    check(True, "a wrong password is refused on the page")
    browser.script("document.getElementById('sign-in-password').value = ''")
    browser.type("#sign-in-password", PASSWORD + "\ue007")
    # First use: the welcome, with the analytics choice's two answers equal.
    wait_for(lambda: browser.visible("#view-welcome"), "the welcome at first sign-in")
    sizes = browser.script("return ['analytics-allow', 'analytics-decline'].map(id => { const r = document.getElementById(id).getBoundingClientRect(); const s = getComputedStyle(document.getElementById(id)); return [Math.round(r.width), Math.round(r.height), s.backgroundColor, s.fontSize]; })")
    check(sizes[0] == sizes[1], f"Allow and Continue without analytics carry equal weight ({sizes[0]} vs {sizes[1]})")
    browser.click("#analytics-decline")
    wait_for(lambda: browser.visible("#view-tasks"), "the task list after the welcome")
    check(http("GET", f"{base}/api/v1/preferences", headers=basic)[1] == {"welcomed": True, "analytics": "declined", "analyticsOffered": True},
          "the choice is stored, and the welcome is not shown again")
    check("alice" in browser.text("#who"), "signed in as alice")
    cookie = next(c for c in browser.cookies() if c["name"] == "wh_session")
    check(cookie["httpOnly"] and cookie.get("sameSite") == "Strict", "the session cookie is HttpOnly and SameSite=Strict")
    session = {"Cookie": f"wh_session={cookie['value']}"}
    status, _ = http("POST", f"{base}/api/v1/tasks", {"title": "x", "locations": [{"at": "60.17,24.94"}]}, session)
    check(status == 403, f"a change with the cookie but without the CSRF token is refused (got {status})")

    # Add "Buy milk" with two suggested places.
    browser.type("#new-title", "Buy milk")
    browser.click("#suggest")
    wait_for(lambda: len(browser.find_all("#suggestion-list input[type=checkbox]")) >= 2, "two suggestions for 'Buy milk'")
    boxes = browser.find_all("#suggestion-list input[type=checkbox]")
    for box in boxes[:2]:
        browser.command("POST", f"/element/{box}/click", {})
    browser.click("#create-task")
    wait_for(lambda: browser.visible("#view-task"), "the new task's card")
    _, tasks = http("GET", f"{base}/api/v1/tasks", headers=basic)
    check(len(tasks) == 1 and tasks[0]["title"] == "Buy milk", "the task is stored")
    task = tasks[0]
    check(len(task["locations"]) == 2 and all(l["place"] and l["place"]["name"] for l in task["locations"]), "with two named places from the suggestions")
    first = task["locations"][0]

    # Drag the first pin 80 px right: the stored coordinate moves east, the radius stays.
    wait_for(lambda: browser.find_all(f".leaflet-marker-icon[data-location='{first['id']}']:not(.radius-handle)"), "the first pin")
    browser.drag(f".leaflet-marker-icon[data-location='{first['id']}']:not(.radius-handle)", 80, 0)
    moved = wait_for(lambda: (lambda l: l if abs(l["lon"] - first["lon"]) > 1e-4 else None)(api_location(base, basic, task["id"], first["id"])), "the moved pin to be stored")
    check(moved["lon"] > first["lon"] and abs(moved["lat"] - first["lat"]) < 2e-4 and moved["radius"] == first["radius"], f"dragging the pin moved the place east ({first['lon']:.5f} → {moved['lon']:.5f}), radius kept")

    # Drag its radius handle 40 px further out: the stored radius grows.
    browser.drag(f".radius-handle[data-location='{first['id']}']", 40, 0)
    resized = wait_for(lambda: (lambda l: l if l["radius"] != first["radius"] else None)(api_location(base, basic, task["id"], first["id"])), "the new radius to be stored")
    check(resized["radius"] > first["radius"], f"dragging the handle resized the circle ({first['radius']:.0f} → {resized['radius']:.0f} m)")

    # Reorder: the first place down.
    browser.click(f"li[data-location='{first['id']}'] button[aria-label^='Move'][aria-label$='down']")
    wait_for(lambda: api_task(base, basic, task["id"])["locations"][1]["id"] == first["id"], "the reorder to be stored")
    check(True, "the first place moved down to second")

    # A phone report inside the second place fires the reminder.
    target = api_task(base, basic, task["id"])["locations"][0]
    report = {"_type": "location", "lat": target["lat"], "lon": target["lon"], "acc": 5, "tst": int(time.time()), "t": "u"}
    for _ in range(3):
        http("POST", f"{base}/owntracks", report, {**basic, "X-Limit-U": "alice", "X-Limit-D": "phone"})
        report["tst"] += 1
    watched = lambda: {r["id"] for r in http("GET", f"{base}/api/v1/plan", headers=basic)[1]["regions"] if task["id"] in r["tasks"]}
    check(len(watched()) >= 2, "the phone watches both of the task's places before the answer")
    browser.click(".tab[data-view=reminders]")
    wait_for(lambda: browser.find_all("#event-list li.reminder button"), "the reminder with its buttons")
    check("Buy milk" in browser.text("#event-list li.reminder"), "the fired reminder is listed with its task")
    browser.click("#event-list li.reminder button[aria-label^='Mark']")
    wait_for(lambda: api_task(base, basic, task["id"])["state"] == "completed", "Mark Done to be stored")
    check(True, "Mark Done on the page completed the task")
    wait_for(lambda: not watched(), "the task's places to leave the phone's plan")
    check(True, "after Mark Done the phone watches none of the task's places: the other place went quiet too")
    answered = wait_for(lambda: (lambda t: t if "Marked done" in t else None)(browser.text("#event-list li.reminder")), "the reminder to show its answer")
    check("from this page" in answered, f"the reminder shows how it was answered ({answered!r})")
    browser.screenshot(os.path.join(work, "reminders.png"))

    places(browser, base, basic, work)
    edit_delete_undo(browser, base, basic, work)
    edit_place(browser, base, basic)
    delete_place_and_list(browser, base, basic)
    import_list(browser, base, basic, work)

    errors = browser.console_errors()
    check(not errors, f"no errors in the browser's console through all of alice's session ({errors[:3]})")

    # Sign out while alice's places are on their way: the server has
    # answered, the page gets the answer two seconds later, after she left,
    # and must not draw it.
    browser.script(
        "window.__fetch = window.fetch; window.__held = 0; window.fetch = (url, options) => window.__fetch(url, options).then((answer) =>"
        " String(url).includes('/api/v1/places') ? (window.__held += 1, new Promise((done) => setTimeout(() => done(answer), 2000))) : answer)")
    browser.script("document.querySelector('.tab[data-view=places]').click()")
    wait_for(lambda: browser.script("return window.__held") > 0, "alice's places answered by the server")
    browser.script("document.getElementById('sign-out').click()")
    # Sign out: the server forgets the session, so the old cookie stops working.
    wait_for(lambda: browser.visible("#sign-in"), "the sign-in form after signing out")
    status, _ = http("GET", f"{base}/api/v1/tasks", headers=session)
    check(status == 401, f"the signed-out cookie no longer reaches the API (got {status})")
    another_person(browser, base)


def press(browser, key):
    """One key pressed and released where the focus is, as a keyboard does."""
    browser.command("POST", "/actions", {"actions": [{"type": "key", "id": "keyboard", "actions": [
        {"type": "keyDown", "value": key}, {"type": "keyUp", "value": key}]}]})
    browser.command("DELETE", "/actions")


def tab_to(browser, matches, what, most=60):
    """Presses Tab until the focused element satisfies `matches` (a JS expression on `e`)."""
    for _ in range(most):
        if browser.script(f"const e = document.activeElement; return !!(e && ({matches}));"):
            return True
        press(browser, "\ue004")
    check(False, f"Tab reaches {what}")
    return False


def keyboard_add_task(browser, base, basic):
    """Adding a task with the keyboard alone: Tab to the field, type, Enter
    for suggestions, Tab to one, Space to choose it, Tab to Add, Enter."""
    browser.script("document.querySelector('.tab[data-view=tasks]').focus()")
    press(browser, "\ue007")
    wait_for(lambda: browser.visible("#view-tasks"), "the task list, opened with Enter on its tab")
    tab_to(browser, "e.id === 'new-title'", "the new task's title")
    for key in "Buy bread":
        press(browser, key)
    press(browser, "\ue007")
    wait_for(lambda: browser.find_all("#suggestion-list input[type=checkbox]"), "suggestions for 'Buy bread' after Enter")
    tab_to(browser, "e.type === 'checkbox' && e.closest('#suggestion-list')", "the first suggestion")
    press(browser, "\ue00d")
    check(browser.script("return document.activeElement.checked === true"), "Space chooses the focused suggestion")
    tab_to(browser, "e.id === 'create-task'", "Add task")
    press(browser, "\ue007")
    wait_for(lambda: browser.visible("#view-task"), "the new task's card after Enter on Add task")
    _, tasks = http("GET", f"{base}/api/v1/tasks", headers=basic)
    bread = [t for t in tasks if t["title"] == "Buy bread"]
    check(len(bread) == 1 and len(bread[0]["locations"]) == 1 and bread[0]["locations"][0]["place"],
          "a task added with the keyboard alone is stored with the one place chosen")


def another_person(browser, base):
    """bob signs in on the same page after alice: none of her tasks or places;
    then he adds a task with the keyboard alone."""
    browser.settle()
    # Signed out, the page holds nothing of alice's for the next person: no
    # hidden list of her places, no reminders, no position of her phone.
    left = browser.script(
        "return {places: document.querySelectorAll('#place-list li').length, lists: document.querySelectorAll('#list-library li').length,"
        " events: document.querySelectorAll('#event-list li').length, fix: window.__whilehere.lastFix, placesHeld: window.__whilehere.places.length}")
    check(left == {"places": 0, "lists": 0, "events": 0, "fix": None, "placesHeld": 0}, f"after alice signs out the page keeps nothing of hers ({left})")
    browser.script("window.fetch = window.__fetch")
    browser.script("document.getElementById('sign-in-name').value = ''; document.getElementById('sign-in-password').value = ''")
    browser.type("#sign-in-name", "bob")
    browser.type("#sign-in-password", BOB_PASSWORD + "\ue007")
    wait_for(lambda: browser.visible("#view-welcome"), "bob's own welcome")
    browser.click("#analytics-decline")
    wait_for(lambda: browser.visible("#view-tasks"), "bob's task list")
    check("bob" in browser.text("#who") and "Buy milk" not in browser.text("#task-list"), "bob signs in and sees none of alice's tasks")
    browser.click(".tab[data-view=places]")
    wait_for(lambda: browser.visible("#view-places"), "bob's places")
    check(place_names(browser) == [], f"bob sees none of alice's places ({place_names(browser)})")
    bob = {"Authorization": "Basic " + base64.b64encode(f"bob:{BOB_PASSWORD}".encode()).decode()}
    keyboard_add_task(browser, base, bob)
    browser.settle()
    browser.click("#sign-out")
    wait_for(lambda: browser.visible("#sign-in"), "the sign-in form after bob signs out")


def place_names(browser):
    # Read in one step once no request is in flight: a list rendered again
    # between finding its items and reading them left stale references.
    browser.settle()
    return browser.script("return [...document.querySelectorAll('#place-list li button .name')].map(e => e.innerText.trim())")


def choose_scope(browser, value_js):
    """Sets the places' list scope (a JS expression over the select `s`) as a person's choice would."""
    browser.script(f"const s = document.getElementById('place-scope'); s.value = {value_js}; s.dispatchEvent(new Event('change'))")


def open_place(browser, prefix):
    """Clicks the listed place whose text starts with `prefix`."""
    button = next(b for b in browser.find_all("#place-list li button") if browser.command("GET", f"/element/{b}/text").startswith(prefix))
    browser.command("POST", f"/element/{button}/click", {})


def places(browser, base, basic, work):
    """Saved places: search, one list, Combined, Nearest, and back to the same card."""
    browser.click(".tab[data-view=places]")
    wait_for(lambda: len(browser.find_all("#place-list li button")) == 5, "alice's five saved places")
    browser.type("#place-query", "libr")
    wait_for(lambda: place_names(browser) == ["Oodi"], "the search by tag")
    check(True, "searching 'libr' finds Oodi by its tag")
    browser.script("const q = document.getElementById('place-query'); q.value = ''; q.dispatchEvent(new Event('input'))")
    # The list library: every list with its count; choosing one focuses it.
    library = lambda: browser.script("return [...document.querySelectorAll('#list-library button')].map(b => b.textContent)")
    wait_for(lambda: any(text.startswith("Coffee") for text in library()), "the list library")
    coffee = next(text for text in library() if text.startswith("Coffee"))
    check("1 place" in coffee, f"the list library shows each list with its count ({library()})")
    coffee_id = next(l["id"] for l in http("GET", f"{base}/api/v1/lists", headers=basic)[1] if l["name"] == "Coffee")
    browser.click(f"#list-library button[data-list='{coffee_id}']")
    wait_for(lambda: place_names(browser) == ["Cafe Regatta"], "the list chosen in the library in focus")
    check(browser.script("return document.getElementById('place-scope').selectedOptions[0].text") == "List: Coffee",
          "choosing a list in the library puts it in focus, as picking it under Lists does")
    browser.script("document.getElementById('list-library').scrollIntoView()")
    browser.screenshot(os.path.join(work, "places.png"))
    choose_scope(browser, "'all'")
    choose_scope(browser, "[...s.options].find(o => o.text === 'List: Coffee').value")
    wait_for(lambda: place_names(browser) == ["Cafe Regatta"], "one list's places")
    check(True, "one list in focus shows its places only")
    choose_scope(browser, "'combined'")
    for box in browser.find_all("#combined-lists input"):
        browser.command("POST", f"/element/{box}/click", {})
    wait_for(lambda: sorted(place_names(browser)) == ["Cafe Regatta", "Oodi"], "two lists combined")
    check(True, "Combined shows the places of both lists")
    browser.script("const s = document.getElementById('place-order'); s.value = 'nearest'; s.dispatchEvent(new Event('change'))")
    wait_for(lambda: "last report" in browser.text("#place-order-note"), "the note on where Nearest is measured from")
    check(place_names(browser)[0] == "Oodi", "Nearest to the phone's last report puts Oodi first (the browser gave no location, and the card says so)")
    browser.click("#place-list li button")
    wait_for(lambda: browser.visible("#view-place") and browser.text("#place-name") == "Oodi", "Oodi's card")
    browser.click("#place-back")
    wait_for(lambda: browser.visible("#view-places"), "the list again")
    check(sorted(place_names(browser)) == ["Cafe Regatta", "Oodi"] and browser.script("return document.getElementById('place-scope').value") == "combined",
          "returning keeps the lists and order chosen")
    choose_scope(browser, "'all'")
    wait_for(lambda: "Ateneum" in place_names(browser), "all places again")
    open_place(browser, "Ateneum")
    wait_for(lambda: browser.visible("#view-place"), "Ateneum's card")
    browser.click("#place-remind")
    wait_for(lambda: browser.visible("#new-title"), "the new task form")
    browser.type("#new-title", "See the exhibition")
    browser.click("#create-task")
    wait_for(lambda: browser.visible("#view-task"), "the new task")
    made = next(t for t in http("GET", f"{base}/api/v1/tasks", headers=basic)[1] if t["title"] == "See the exhibition")
    check([l["place"]["name"] for l in made["locations"]] == ["Ateneum"], "'Remind me of something here' ties a new task to that saved place")


def edit_delete_undo(browser, base, basic, work):
    """The open task (from 'Remind me of something here'): rename it, delete it, and Undo."""
    wait_for(lambda: browser.visible("#view-task"), "the task's card")
    browser.click("#edit")
    browser.script("document.getElementById('edit-title').value = ''")
    browser.type("#edit-title", "See the Ateneum exhibition")
    browser.click("#edit-save")
    titles = lambda: [t["title"] for t in http("GET", f"{base}/api/v1/tasks", headers=basic)[1]]
    wait_for(lambda: "See the Ateneum exhibition" in titles(), "the new title to be stored")
    check(True, "the title edited on the page is stored")
    flag = lambda: next(t for t in http("GET", f"{base}/api/v1/tasks", headers=basic)[1] if t["title"] == "See the Ateneum exhibition")["onlyWhileOpen"]
    browser.click("#only-while-open")
    wait_for(lambda: flag() is True, "'only while open' to be stored")
    check(True, "'Remind only while the place is open' ticked on the page is stored")
    browser.screenshot(os.path.join(work, "task.png"))
    browser.script("document.getElementById('later-choice').value = 'visit'")
    browser.click("#later")
    wait_for(lambda: "next arrive" in browser.text("#message"), "the answer to 'next time I'm at one of its places'")
    state = next(t for t in http("GET", f"{base}/api/v1/tasks", headers=basic)[1] if t["title"] == "See the Ateneum exhibition")["state"]
    check(state == "active", f"'Remind later: next time I'm at one of its places' keeps the task active, to fire at the next arrival (got {state})")
    browser.click("#delete")
    wait_for(lambda: browser.visible("#toast"), "the undo toast after a delete")
    check("See the Ateneum exhibition" not in titles(), "Delete removes the task at once (no confirmation dialog)")
    browser.click("#toast-undo")
    wait_for(lambda: "See the Ateneum exhibition" in titles(), "Undo to bring the task back")
    check(True, "Undo in the toast brings the deleted task back")


def edit_place(browser, base, basic):
    """A place's card: rename it, tag it, put it in another list and a new one."""
    browser.click(".tab[data-view=places]")
    wait_for(lambda: "Cafe Regatta" in place_names(browser), "Cafe Regatta in the list")
    open_place(browser, "Cafe Regatta")
    wait_for(lambda: browser.visible("#place-form") and browser.script("return document.getElementById('place-edit-name').value") == "Cafe Regatta", "its editor")
    browser.script("document.getElementById('place-edit-name').value = ''; document.getElementById('place-edit-tags').value = ''")
    browser.type("#place-edit-name", "Café Regatta")
    browser.type("#place-edit-tags", "coffee, cinnamon buns")
    favourites = next(b for b in browser.find_all("#place-edit-lists label") if "Favourites" in browser.command("GET", f"/element/{b}/text"))
    browser.command("POST", f"/element/{favourites}/click", {})
    browser.type("#place-edit-new-list", "Waterfront")
    browser.click("#place-save")
    def stored():
        place = next((p for p in http("GET", f"{base}/api/v1/places?form=summary", headers=basic)[1] if p["name"] == "Café Regatta"), None)
        return place if place and "Waterfront" in (place.get("lists") or []) else None
    place = wait_for(stored, "the edited place to be stored")
    check(sorted(place["tags"]) == ["cinnamon buns", "coffee"] and sorted(place["lists"]) == ["Coffee", "Favourites", "Waterfront"],
          f"renamed, retagged and put in two more lists from its card ({place['tags']}, {place['lists']})")


def delete_place_and_list(browser, base, basic):
    """Delete a list and a place from the page, each undone from the toast; a place a task uses is refused."""
    lists = lambda: sorted(l["name"] for l in http("GET", f"{base}/api/v1/lists", headers=basic)[1])
    names = lambda: [p["name"] for p in http("GET", f"{base}/api/v1/places?form=summary", headers=basic)[1]]
    browser.click(".tab[data-view=places]")
    if browser.visible("#view-place"):
        browser.click("#place-back")
    wait_for(lambda: "Café Regatta" in place_names(browser), "the places")
    choose_scope(browser, "[...s.options].find(o => o.text === 'List: Waterfront').value")
    wait_for(lambda: browser.visible("#list-delete"), "'Delete this list' with one list in focus")
    browser.click("#list-delete")
    wait_for(lambda: "Waterfront" not in lists(), "the list to be deleted")
    check("Café Regatta" in names(), "deleting a list keeps a place that is in other lists")
    wait_for(lambda: browser.visible("#toast"), "the undo toast")
    browser.click("#toast-undo")
    wait_for(lambda: "Waterfront" in lists(), "Undo to bring the list back")
    check(True, "a list deleted on the page comes back with Undo")
    open_place(browser, "Café Regatta")
    wait_for(lambda: browser.visible("#place-delete"), "the place's card")
    browser.click("#place-delete")
    wait_for(lambda: "Café Regatta" not in names(), "the place to be deleted")
    wait_for(lambda: browser.visible("#toast"), "the undo toast")
    browser.click("#toast-undo")
    wait_for(lambda: "Café Regatta" in names(), "Undo to bring the place back")
    regatta = next(p for p in http("GET", f"{base}/api/v1/places?form=summary", headers=basic)[1] if p["name"] == "Café Regatta")
    check(sorted(regatta["lists"]) == ["Coffee", "Favourites", "Waterfront"], f"a place deleted on the page comes back with Undo, in its lists ({regatta['lists']})")
    wait_for(lambda: browser.visible("#view-places"), "the places after the delete")
    choose_scope(browser, "'all'")
    wait_for(lambda: "Ateneum" in place_names(browser), "all places")
    open_place(browser, "Ateneum")
    wait_for(lambda: browser.visible("#place-delete"), "Ateneum's card")
    browser.click("#place-delete")
    wait_for(lambda: "used by" in browser.text("#message"), "the refusal to delete a place a task uses")
    check("Ateneum" in names(), "a place a task uses is not deleted, and the page says which task")
    browser.click("#place-back")


def import_list(browser, base, basic, work):
    """Upload a Takeout list, watch it finish, settle rows on the map."""
    path = os.path.join(work, "saved.csv")
    with open(path, "w") as file:
        file.write("Title,Note,URL,Tags,Comment\n,,,,\nHesburger,,u1,,\nAlepa,,u2,,\nQwerty Zxcv,,u3,,\nK-Market,,u4,,\n")
    browser.click(".tab[data-view=import]")
    wait_for(lambda: browser.visible("#import-form"), "the import form")
    browser.type("#import-file", path)
    browser.type("#import-list", "Errands")
    browser.click("#import-start")
    wait_for(lambda: "Imported 4 rows" in browser.text("#import-summary"), "the import's summary")
    check(True, f"the upload was imported: {browser.text('#import-summary')}")
    wait_for(lambda: browser.find_all("#review-list li.review-row"), "rows to review")
    rows = browser.script("return [...document.querySelectorAll('#review-list li.review-row')].map(li => li.querySelector('strong').textContent)")
    check("Hesburger" in rows and "Qwerty Zxcv" in rows, f"the rows needing a decision are listed ({rows})")
    browser.click("li.review-row:first-child button[aria-label^='Show the candidates']")
    pins = wait_for(lambda: len(browser.find_all(".candidate-pin")) >= 2 and len(browser.find_all(".candidate-pin")), "the candidates on the map")
    check(pins >= 2, f"the first row's candidates are drawn on the map ({pins} pins)")
    browser.screenshot(os.path.join(work, "import.png"))
    first = rows[0]
    browser.click("li.review-row:first-child button[aria-label^='Accept']")
    wait_for(lambda: first not in browser.script("return [...document.querySelectorAll('#review-list li.review-row strong')].map(s => s.textContent)"), "the accepted row to leave the review")
    check(True, f"accepting a candidate settles '{first}'")
    browser.click("li.review-row[data-row] button[aria-label='Enter Qwerty Zxcv by clicking the map']")
    browser.settle()
    size = browser.script("const r = document.getElementById('map').getBoundingClientRect(); return [r.width, r.height]")
    browser.command("POST", "/actions", {"actions": [{
        "type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"},
        "actions": [{"type": "pointerMove", "duration": 0, "origin": "viewport", "x": int(size[0] * 0.75), "y": int(size[1] * 0.5)},
                    {"type": "pointerDown", "button": 0}, {"type": "pointerUp", "button": 0}]}]})
    wait_for(lambda: browser.command("GET", "/alert/text") is not None, "the name prompt")
    browser.command("POST", "/alert/text", {"text": "Qwerty's place"})
    browser.command("POST", "/alert/accept", {})
    wait_for(lambda: "Qwerty Zxcv" not in browser.script("return [...document.querySelectorAll('#review-list li.review-row strong')].map(s => s.textContent)"), "the entered row to leave the review")
    lists = http("GET", f"{base}/api/v1/lists", headers=basic)[1]
    errands = next(l for l in lists if l["name"] == "Errands")
    places = {p["id"]: p["name"] for p in http("GET", f"{base}/api/v1/places?form=summary", headers=basic)[1]}
    check("Qwerty's place" in [places.get(p) for p in errands["places"]] and len(errands["places"]) == 2,
          f"the accepted and the hand-entered place are in the list ({[places.get(p) for p in errands['places']]})")


def api_task(base, basic, task):
    return http("GET", f"{base}/api/v1/tasks/{task}", headers=basic)[1]


def api_location(base, basic, task, location):
    return next(l for l in api_task(base, basic, task)["locations"] if l["id"] == location)


def live_demo(driver_port, work):
    """whilehered --demo: sign in with what the page fills in, watch the
    phone walk (its dot moves, a reminder fires), answer it from the page."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    demo = subprocess.Popen([f"{BUILD}/whilehered", "--demo", "--listen", f"127.0.0.1:{port}", "--speed", "40"],
                            stdout=open(os.path.join(work, "demo.log"), "w"), stderr=subprocess.STDOUT)
    browser = None
    try:
        wait_for(lambda: http("GET", f"{base}/health")[0] == 200, "whilehered --demo")
        browser = Browser(f"http://127.0.0.1:{driver_port}", 1280, 800)
        browser.go(f"{base}/app/")
        wait_for(lambda: browser.visible("#sign-in") and browser.script("return document.getElementById('sign-in-password').value") == "demo", "the demo's filled-in sign-in")
        browser.click("#sign-in-submit")
        wait_for(lambda: browser.visible("#view-welcome"), "the demo's welcome")
        browser.click("#welcome-skip")
        wait_for(lambda: browser.visible("#view-tasks"), "the demo's tasks")
        check(len(browser.find_all("#task-list li")) == 4, "the demo person has the walk's four tasks")
        first = wait_for(lambda: browser.script("return window.__whilehere && window.__whilehere.lastFix"), "the phone's first position on the page")
        browser.click(".tab[data-view=reminders]")
        wait_for(lambda: browser.find_all("#event-list li.reminder button"), "a reminder firing while the phone walks", seconds=60)
        later = browser.script("return window.__whilehere.lastFix")
        check((later["latitude"], later["longitude"]) != (first["latitude"], first["longitude"]), "the phone's dot moved on the map")
        title = browser.text("#event-list li.reminder")
        browser.click("#event-list li.reminder button[aria-label^='Mark']")
        wait_for(lambda: "Marked done" in browser.text("#event-list li.reminder"), "the answered reminder to show its answer")
        check(True, f"a live reminder was answered from the page ({title.splitlines()[0]})")
        browser.screenshot(os.path.join(work, "demo.png"))
    finally:
        if browser:
            browser.quit()
        demo.terminate()
        demo.wait(timeout=30)


def narrow(base, driver_port, work):
    """A phone's width, then a desktop's: every main screen (sign-in, tasks,
    a task's card, places, import, reminders, phone) fits at 375 px with
    nothing scrolling sideways, and each is saved as a screenshot at 375
    and 1280 px (kept with WHILEHERE_KEEP_BROWSER_FILES=1)."""
    for width, height, phone in ((375, 740, True), (1280, 800, False)):
        browser = Browser(f"http://127.0.0.1:{driver_port}", width, height, phone=phone)
        try:
            browser.go(f"{base}/app/")
            wait_for(lambda: browser.visible("#sign-in"), f"the sign-in form at {width} px")
            fits(browser, width, "the sign-in form")
            browser.screenshot(os.path.join(work, f"{width}-sign-in.png"))
            browser.type("#sign-in-name", "alice")
            browser.type("#sign-in-password", PASSWORD + "\ue007")
            wait_for(lambda: browser.visible("#view-tasks"), f"alice's tasks at {width} px")
            for view in ("tasks", "places", "import", "reminders", "phone"):
                browser.click(f".tab[data-view={view}]")
                wait_for(lambda: browser.visible(f"#view-{view}"), f"the {view} view at {width} px")
                browser.settle()
                fits(browser, width, f"the {view} view")
                browser.screenshot(os.path.join(work, f"{width}-{view}.png"))
            browser.click(".tab[data-view=tasks]")
            wait_for(lambda: browser.find_all("#task-list li button, #task-list li a"), f"a task to open at {width} px")
            browser.click("#task-list li button, #task-list li a")
            wait_for(lambda: browser.visible("#view-task"), f"a task's card at {width} px")
            browser.settle()
            fits(browser, width, "a task's card")
            # The task's pins are shown beside or above the card, not under it.
            hidden = browser.script("""
                const card = document.getElementById('card').getBoundingClientRect();
                const pins = [...document.querySelectorAll('.leaflet-marker-icon:not(.radius-handle)')].map(p => p.getBoundingClientRect());
                const under = r => r.bottom > card.top && r.top < card.bottom && r.right > card.left && r.left < card.right;
                return [pins.length, pins.filter(under).length];""")
            check(hidden[0] > 0 and hidden[1] == 0, f"at {width} px the task's {hidden[0]} pins are clear of the card ({hidden[1]} under it)")
            # What is on top where the map shows is the map itself: nothing veils it or takes its taps.
            top = browser.script("""
                const card = document.getElementById('card').getBoundingClientRect();
                const x = card.top > innerHeight / 3 ? innerWidth / 2 : (card.right + innerWidth) / 2;
                const y = card.top > innerHeight / 3 ? card.top / 2 : innerHeight / 2;
                const e = document.elementFromPoint(x, y);
                return document.getElementById('map').contains(e) ? 'map' : (e.id || e.className || e.tagName);""")
            check(top == "map", f"at {width} px the map takes input where it shows (on top: {top})")
            browser.screenshot(os.path.join(work, f"{width}-task.png"))
        finally:
            browser.quit()


def fits(browser, width, what):
    """The card is no wider than the window and the page does not scroll sideways."""
    if width > 400:
        return
    card = browser.script("return document.getElementById('card').getBoundingClientRect().width")
    scroll = browser.script("return document.documentElement.scrollWidth")
    check(card <= width and scroll <= width, f"at {width} px {what} fits ({card:.0f} px) and nothing scrolls sideways ({scroll} px)")


if __name__ == "__main__":
    sys.exit(main())
