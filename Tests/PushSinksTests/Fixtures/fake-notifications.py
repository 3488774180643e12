#!/usr/bin/python3
"""A stand-in freedesktop notification server for tests: records each
Notify call as one JSON line in RECORD, then presses the action named by
PRESS (if any), as a person clicking the button would."""
import json
import os
import sys

import dbus
import dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

RECORD = sys.argv[1]
PRESS = sys.argv[2] if len(sys.argv) > 2 else ""


class Server(dbus.service.Object):
    def __init__(self, bus):
        super().__init__(bus, "/org/freedesktop/Notifications")
        self.next_id = 0

    @dbus.service.method("org.freedesktop.Notifications", in_signature="susssasa{sv}i", out_signature="u")
    def Notify(self, app, replaces, icon, summary, body, actions, hints, timeout):
        self.next_id += 1
        with open(RECORD, "a") as record:
            record.write(json.dumps({"app": str(app), "summary": str(summary), "body": str(body),
                                     "actions": [str(a) for a in actions]}) + "\n")
        if PRESS:
            nid = self.next_id
            GLib.timeout_add(50, lambda: self.press(nid))
        return self.next_id

    def press(self, nid):
        self.ActionInvoked(nid, PRESS)
        self.NotificationClosed(nid, 2)
        return False

    @dbus.service.method("org.freedesktop.Notifications", out_signature="as")
    def GetCapabilities(self):
        return ["actions", "body"]

    @dbus.service.method("org.freedesktop.Notifications", out_signature="ssss")
    def GetServerInformation(self):
        return ("fake", "whilehere", "1", "1.2")

    @dbus.service.method("org.freedesktop.Notifications", in_signature="u")
    def CloseNotification(self, nid):
        self.NotificationClosed(nid, 3)

    @dbus.service.signal("org.freedesktop.Notifications", signature="us")
    def ActionInvoked(self, nid, key):
        pass

    @dbus.service.signal("org.freedesktop.Notifications", signature="uu")
    def NotificationClosed(self, nid, reason):
        pass


DBusGMainLoop(set_as_default=True)
bus = dbus.SessionBus()
name = dbus.service.BusName("org.freedesktop.Notifications", bus)
server = Server(bus)
with open(RECORD + ".ready", "w") as ready:
    ready.write("ready\n")
GLib.MainLoop().run()
