"""A desktop notification server for the GTK app's tests: owns org.freedesktop.Notifications
on the session bus it is started on (the test's own), and prints each notification it is
given as one line, "notify<TAB>app<TAB>summary<TAB>body", so the test sees what a desktop
would show. Prints "ready" once the name is owned. Runs until it is stopped."""
import sys

import gi

gi.require_version("Gio", "2.0")
from gi.repository import Gio, GLib  # noqa: E402

INTERFACE = """
<node>
  <interface name="org.freedesktop.Notifications">
    <method name="GetCapabilities"><arg type="as" direction="out"/></method>
    <method name="Notify">
      <arg type="s" direction="in"/><arg type="u" direction="in"/><arg type="s" direction="in"/>
      <arg type="s" direction="in"/><arg type="s" direction="in"/><arg type="as" direction="in"/>
      <arg type="a{sv}" direction="in"/><arg type="i" direction="in"/><arg type="u" direction="out"/>
    </method>
    <method name="CloseNotification"><arg type="u" direction="in"/></method>
    <method name="GetServerInformation">
      <arg type="s" direction="out"/><arg type="s" direction="out"/><arg type="s" direction="out"/><arg type="s" direction="out"/>
    </method>
    <signal name="NotificationClosed"><arg type="u"/><arg type="u"/></signal>
    <signal name="ActionInvoked"><arg type="u"/><arg type="s"/></signal>
  </interface>
</node>
"""

sent = 0


def call(connection, sender, path, interface, method, parameters, invocation):
    global sent
    if method == "GetCapabilities":
        invocation.return_value(GLib.Variant("(as)", (["body", "actions"],)))
    elif method == "GetServerInformation":
        invocation.return_value(GLib.Variant("(ssss)", ("fake", "ilotoki-tests", "1", "1.2")))
    elif method == "Notify":
        app, _, _, summary, body = parameters.unpack()[:5]
        sent += 1
        print(f"notify\t{app}\t{summary}\t{body}", flush=True)
        invocation.return_value(GLib.Variant("(u)", (sent,)))
    else:
        invocation.return_value(None)


def acquired(connection, name):
    print("ready", flush=True)


def bus(connection, name):
    node = Gio.DBusNodeInfo.new_for_xml(INTERFACE)
    connection.register_object("/org/freedesktop/Notifications", node.interfaces[0], call, None, None)


def lost(connection, name):
    print(f"could not own {name}", file=sys.stderr, flush=True)
    sys.exit(1)


Gio.bus_own_name(Gio.BusType.SESSION, "org.freedesktop.Notifications", Gio.BusNameOwnerFlags.NONE, bus, acquired, lost)
GLib.MainLoop().run()
