"""Drives Dialect (the GNOME translator) over AT-SPI, as a person would: types a sentence into
its source field, presses Translate, and prints what its target field shows. Run by
scripts/test-dialect.sh inside Dialect's own D-Bus session, with Debian's python3-pyatspi.

Usage: dialect_probe.py TEXT OUT  (writes the translation to OUT; exits 1 when none appears
within 60 s)"""
import sys
import time

import pyatspi


def nodes(node, found=None):
    found = [] if found is None else found
    try:
        found.append((node, node.getRoleName(), node.name or ""))
        for index in range(node.childCount):
            nodes(node.getChildAtIndex(index), found)
    except Exception:  # a node that went away while the tree was walked
        pass
    return found


def text_of(node):
    text = node.queryText()
    return text.getText(0, text.characterCount)


def main():
    sentence, out = sys.argv[1], sys.argv[2]
    deadline = time.time() + 60
    source = target = button = None
    while time.time() < deadline:
        desktop = pyatspi.Registry.getDesktop(0)
        apps = [desktop.getChildAtIndex(i) for i in range(desktop.childCount)]
        app = next((a for a in apps if a is not None and a.name == "dialect"), None)
        if app is not None:
            everything = nodes(app)
            fields = [node for node, role, _ in everything if role == "text"]
            buttons = [node for node, role, name in everything if role == "push button" and name == "Translate"]
            if len(fields) >= 2 and buttons:
                source, target, button = fields[0], fields[1], buttons[0]
                break
        time.sleep(0.3)
    if source is None:
        print("Dialect's window did not come up with its fields and its Translate button")
        return 1
    source.queryEditableText().setTextContents(sentence)
    button.queryAction().doAction(0)
    while time.time() < deadline:
        shown = text_of(target)
        if shown.strip():
            with open(out, "w", encoding="utf-8") as file:
                file.write(shown)
            return 0
        time.sleep(0.2)
    print("no translation appeared in Dialect's target field")
    return 1


if __name__ == "__main__":
    sys.exit(main())
