"""Walks the GTK app's accessibility tree over AT-SPI, the way a screen reader sees it, and
reports every control (a button, a field, a chooser…) with its name and state; exits 1 when a
control has no name, or only its widget class's ("GtkDropDown"). Run by
scripts/test-accessibility.sh with Debian's python3-pyatspi, inside the app's D-Bus session.

Usage: a11y_probe.py PLACE"""
import sys
import time

import pyatspi

CONTROLS = {
    "push button", "toggle button", "check box", "radio button", "combo box", "text", "entry", "password text",
    "spin button", "slider", "switch", "menu item", "link", "toggle",
}


def find_app(timeout):
    deadline = time.time() + timeout
    while time.time() < deadline:
        desktop = pyatspi.Registry.getDesktop(0)
        for index in range(desktop.childCount):
            app = desktop.getChildAtIndex(index)
            if app is not None and app.name == "ilotoki-gtk":
                return app
        time.sleep(0.2)
    return None


def controls(node, path=()):
    found = []
    try:
        role, name, description = node.getRoleName(), node.name or "", node.description or ""
    except Exception:  # a node that went away while the tree was walked
        return found
    here = path + ((name or role),)
    if role in CONTROLS:
        found.append((role, name, description, " / ".join(p for p in here if p)))
    for index in range(node.childCount):
        child = node.getChildAtIndex(index)
        if child is not None:
            found += controls(child, here)
    return found


def main():
    place = sys.argv[1]
    app = find_app(30)
    if app is None:
        print(f"{place}: the app never appeared on the accessibility bus", file=sys.stderr)
        return 1
    # The pages draw after the window appears: walk until two walks a second apart agree.
    seen, stable_since, deadline = None, time.time(), time.time() + 20
    while time.time() < deadline:
        now = controls(app)
        if now != seen:
            seen, stable_since = now, time.time()
        elif time.time() - stable_since > 1.0 and len(now) > 0:
            break
        time.sleep(0.25)
    unnamed = [c for c in seen if not c[1].strip() or c[1].startswith("Gtk")]
    for role, name, description, where in seen:
        mark = "NO NAME" if (role, name, description, where) in unnamed else "ok"
        state = f" [{description}]" if description else ""
        print(f"  {mark:7} {role}: {name!r}{state}")
    print(f"{place}: {len(seen)} controls, {len(seen) - len(unnamed)} named")
    return 1 if unnamed or not seen else 0


sys.exit(main())
