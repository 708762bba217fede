"""What scripts/check-apple.sh and scripts/check-android.sh both need: a list of problems to
report at the end, and the app's version from Core. Run from the root of the tree checked."""
import pathlib
import re
import sys

problems: list[str] = []


def check(condition, message: str) -> None:
    if not condition:
        problems.append(message)


def finish(summary: str) -> None:
    """Reports the problems and exits 1, or prints `summary`."""
    if problems:
        print("\n".join(problems), file=sys.stderr)
        sys.exit(1)
    print(summary)


def app_version() -> str:
    """AboutPage.version, which every app's own version must equal."""
    about = pathlib.Path("Sources/IloTokiCore/Screen/AboutPage.swift").read_text()
    return re.search(r'version = "([^"]+)"', about).group(1)
