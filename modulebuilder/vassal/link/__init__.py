"""The referee link: a VASSAL component (Java, ``src/``) that every module this project builds carries.

It sends each act the player makes to a hosted game of the referee service and shows the rulings in VASSAL's
chat (docs/playing-with-the-referee.md).  The classes are compiled for Java 11 (the oldest Java VASSAL 3.6
runs on) and ship compiled in ``classes/``, so that building a module needs no JDK; ``compile_classes``
rebuilds them from the source, byte for byte (no debug tables, files in a fixed order), and a test checks
that the shipped classes are the source's.
"""
from __future__ import annotations

import subprocess
from pathlib import Path

HERE = Path(__file__).parent
SOURCE = HERE / "src"
CLASSES = HERE / "classes"
COMPONENT = "refereelink.RefereeLink"     # the buildFile element: the component's class name
JAVA_RELEASE = "11"


def class_entries() -> list[tuple[str, bytes]]:
    """The compiled classes as module entries (``refereelink/RefereeLink.class`` ...), in name order."""
    return [(p.relative_to(CLASSES).as_posix(), p.read_bytes()) for p in sorted(CLASSES.rglob("*.class"))]


def sources() -> list[Path]:
    return sorted(SOURCE.rglob("*.java"))


def compile_classes(out: Path, engine_jar: Path, javac: str = "javac") -> list[Path]:
    """Compile the link into ``out`` against VASSAL's engine jar (the API it calls); returns the class files.

    ``-g:none`` leaves out the debug tables (source file names, line numbers): nothing that depends on where
    the source lies."""
    out.mkdir(parents=True, exist_ok=True)
    subprocess.run([javac, "--release", JAVA_RELEASE, "-g:none", "-nowarn", "-encoding", "UTF-8",
                    "-cp", str(engine_jar), "-d", str(out), *map(str, sources())],
                   check=True, capture_output=True, text=True)
    return sorted(out.rglob("*.class"))
