"""Small modules with one job: a file of tensorjit over ``LIMIT`` lines must say at its top
(in its first 20 lines) why it is longer, in a line containing ``longer than``."""
import os

import tensorjit

LIMIT = 500
PACKAGE_DIR = os.path.dirname(tensorjit.__file__)


def long_files_without_reason(root=PACKAGE_DIR, limit=LIMIT):
    found = []
    for directory, _, files in os.walk(root):
        for name in files:
            if not name.endswith(".py"):
                continue
            path = os.path.join(directory, name)
            with open(path, encoding="utf-8") as f:
                lines = f.readlines()
            if len(lines) > limit and not any("longer than" in l.lower() for l in lines[:20]):
                found.append(f"{os.path.relpath(path, root)}: {len(lines)} lines")
    return found


def test_no_file_over_the_limit_without_a_reason():
    found = long_files_without_reason()
    assert not found, (f"split these files by job, or say at the top why they are longer "
                       f"than {LIMIT} lines: {found}")


def test_the_check_sees_a_long_file(tmp_path):
    (tmp_path / "long.py").write_text("x = 1\n" * 600)
    (tmp_path / "reasoned.py").write_text('"""Longer than 500 lines because ..."""\n' + "x = 1\n" * 600)
    assert long_files_without_reason(str(tmp_path)) == ["long.py: 600 lines"]
