"""What scripts/check-apple.sh and scripts/check-android.sh both need: a list of problems to
report at the end, and the facts of Core they check a front end's names against. Run from
the repository's root."""
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


def swift_sources(directory: str) -> str:
    return "\n".join(p.read_text() for p in sorted(pathlib.Path(directory).rglob("*.swift")))


def ui_text_cases(core: str) -> set[str]:
    """The case names of Core's UIText: the keys of every string a front end shows."""
    texts = core[core.index("enum UIText"):core.index("struct UIStrings")]
    return {name.strip() for group in re.findall(r"case ([a-zA-Z, ]+)", texts) for name in group.split(",")}


def app_version() -> str:
    """AboutPage.version, which every app's own version must equal."""
    about = pathlib.Path("Sources/IloTokiCore/Screen/AboutPage.swift").read_text()
    return re.search(r'version = "([^"]+)"', about).group(1)
