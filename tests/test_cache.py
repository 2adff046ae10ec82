"""Issue 26(4): the disk cache trusts nothing planted.

The reproducers of the issue: the cache fell back to ``$TMPDIR/treaty-logic-<uid>`` and trusted an
existing folder there, so another user could plant a ``rules-*.pl`` that ``treaty ask`` consulted (code
run) or a ``declared`` entry without the 24-month period of br-pt 10(2)(a) (a 10% cap read as 15%).
Now the folder must be a private directory of this user, every entry is sealed with a key only this
user can read, a file handed to SWI-Prolog is compared with the translation, and without a cache the
commands still answer."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from pyhelpers.base import cache
from pyhelpers.engine.declarations import FORMAT, from_json, to_json
from pyhelpers.engine.program import load_logic
from pyhelpers.engine.solve import Checker

from .conftest import ROOT

QUALIFYING = ROOT / "scenarios/br-pt/dividends-qualifying-holding.yaml"  # capped at 10% (br-pt 10(2)(a))
CAP_10 = "Brazil:   may tax, capped at 10% of the gross amount"
GOAL = 'max_rate("div-2024", R)'


@pytest.fixture
def cache_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """A cache of this test's own: ``$XDG_CACHE_HOME`` and the temporary directory under ``tmp_path``."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    cache.notices()
    return tmp_path


def _cli(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "xdg"), "TMPDIR": str(tmp_path / "tmp"),
           "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "pyhelpers.interfaces.cli", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)


def _declared_name() -> str:
    return f"declared-{FORMAT}-{load_logic().cache_key}.json"


def _without_24_months(data: dict[str, object]) -> dict[str, object]:
    """The planted ``periods``: the declared measures without the 24 months of br-pt 10(2)(a)."""
    forged = json.loads(json.dumps(data))
    forged["months"] = [m for m in forged["months"] if m != 24]
    forged["treaty_months"] = {t: [m for m in ms if m != 24] for t, ms in forged["treaty_months"].items()}
    return forged


def _rules_name() -> str:
    from pyhelpers.prolog.engine import translation_for

    return f"rules-{translation_for(load_logic()).digest[:24]}.pl"


PLANTED_CODE = ":- open('{marker}', write, S), write(S, planted), close(S).\n"


def test_a_planted_entry_would_change_the_answer() -> None:
    """The forged entry of these tests is one that matters: trusted, it turns the 10% cap into 15%."""
    from pyhelpers.scenario import load_file

    checker = Checker(load_logic())
    forged = from_json(_without_24_months(to_json(checker.declared)))
    assert forged is not None
    checker.__dict__["declared"] = forged  # what reading it from the cache would do
    item = checker.check(load_file(QUALIFYING), str(QUALIFYING)).item("div-2024")
    assert item.state("br").label == "capped 15%"


def test_a_folder_planted_under_the_temporary_directory_is_not_used(tmp_path: Path) -> None:
    """Another user made ``$TMPDIR/treaty-logic-<uid>`` (as root: owned by another user; else a folder
    of this user's that others may write to) with a rules file that runs code and the forged periods:
    the commands use neither (the folder is refused, or made private and its files rejected), answer
    10%, and warn."""
    planted = tmp_path / "tmp" / f"treaty-logic-{os.geteuid()}"
    planted.mkdir(parents=True)
    (tmp_path / "xdg").write_text("not a folder", encoding="utf-8")  # the first choice cannot be made
    marker = tmp_path / "code-ran"
    (planted / _rules_name()).write_text(PLANTED_CODE.format(marker=marker), encoding="utf-8")
    data = _without_24_months(to_json(Checker(load_logic()).declared))
    (planted / (_declared_name() + ".sealed")).write_text("treaty-logic-cache 1 0\n" + json.dumps(data))
    (planted / _declared_name()).write_text(json.dumps(data), encoding="utf-8")  # the old format
    planted.chmod(0o777)
    if os.geteuid() == 0:
        for path in (planted, *planted.iterdir()):
            os.chown(path, 65534, 65534)
    done = _cli(tmp_path, "check", str(QUALIFYING))
    assert done.returncode == 0, done.stderr
    assert CAP_10 in done.stdout
    if os.geteuid() == 0:
        assert f"warning: not using the cache folder {planted} belongs to another user" in done.stderr
    else:
        assert f"warning: the cache folder {planted} was writable by other users: made private" in done.stderr
        assert "warning: ignored a cache entry this program did not write" in done.stderr
    if shutil.which("swipl") is not None:
        asked = _cli(tmp_path, "ask", str(QUALIFYING), GOAL, "--engine", "prolog")
        assert asked.returncode in (0, 3), asked.stderr  # 3: pyswip is not installed
        assert not marker.exists()
        if asked.returncode == 0:
            assert asked.stdout.splitlines()[0] == 'max_rate("div-2024", 1000)'


def test_forged_entries_in_the_own_folder_are_rejected(tmp_path: Path) -> None:
    """In the user's own folder: an entry re-sealed with a plain hash (all a planter can compute), the
    rules file with code prepended. Each is ignored (deleted, recomputed) or rewritten."""
    (tmp_path / "tmp").mkdir()
    first = _cli(tmp_path, "check", str(QUALIFYING))
    assert first.returncode == 0 and CAP_10 in first.stdout, first.stderr
    folder = tmp_path / "xdg" / "treaty-logic"
    assert folder.stat().st_mode & 0o777 == 0o700
    entry = folder / (_declared_name() + ".sealed")
    payload = json.dumps(_without_24_months(json.loads(entry.read_bytes().split(b"\n", 1)[1]))).encode()
    entry.write_bytes(b"treaty-logic-cache 1 " + hashlib.sha256(payload).hexdigest().encode() + b"\n" + payload)
    second = _cli(tmp_path, "check", str(QUALIFYING))
    assert second.returncode == 0 and CAP_10 in second.stdout, second.stderr
    assert "warning: ignored a cache entry this program did not write" in second.stderr
    third = _cli(tmp_path, "check", str(QUALIFYING))  # recomputed and sealed again: no warning
    assert CAP_10 in third.stdout and "warning" not in third.stderr
    if shutil.which("swipl") is None:
        return
    asked = _cli(tmp_path, "ask", str(QUALIFYING), GOAL, "--engine", "prolog")
    if asked.returncode == 3:
        pytest.skip("pyswip is not installed")
    rules = folder / _rules_name()
    marker = tmp_path / "code-ran"
    rules.write_text(PLANTED_CODE.format(marker=marker) + rules.read_text(encoding="utf-8"), encoding="utf-8")
    again = _cli(tmp_path, "ask", str(QUALIFYING), GOAL, "--engine", "prolog")
    assert again.returncode == 0, again.stderr
    assert again.stdout.splitlines()[0] == 'max_rate("div-2024", 1000)'
    assert not marker.exists()
    assert not rules.read_text(encoding="utf-8").startswith(":- open(")


def test_a_folder_of_another_user_is_refused(cache_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Playing another user (the folders are then someone else's): no cache, a warning, and the
    commands still answer; a file for SWI-Prolog goes to a private folder of the process."""
    monkeypatch.setattr(cache, "_uid", lambda: os.geteuid() + 1000)
    refused = cache_env / "tmp" / f"treaty-logic-{os.geteuid() + 1000}"
    refused.mkdir(mode=0o700)
    assert cache.cache_dir() is None
    assert any("belongs to another user" in n for n in cache.notices())
    assert cache.read_json("x") is None
    cache.write_json("x", 1)
    path = cache.file_holding("rules-x.pl", "a.\n")
    assert path.read_text(encoding="utf-8") == "a.\n"
    assert path.parent != refused and path.parent.stat().st_mode & 0o777 == 0o700
    from pyhelpers.scenario import load_file

    item = Checker(load_logic()).check(load_file(QUALIFYING), str(QUALIFYING)).item("div-2024")
    assert item.state("br").label == "capped 10%"


def test_unsafe_folders_are_refused(cache_env: Path) -> None:
    xdg = cache_env / "xdg"
    xdg.mkdir()
    (cache_env / "elsewhere").mkdir()
    (xdg / "treaty-logic").symlink_to(cache_env / "elsewhere")
    fallback = cache_env / "tmp" / f"treaty-logic-{os.geteuid()}"
    assert cache.cache_dir() == fallback  # the link is refused, the temporary folder made private
    assert fallback.stat().st_mode & 0o777 == 0o700
    assert any("is not a directory" in n for n in cache.notices())


@pytest.mark.parametrize("mode", [0o755, 0o777])
def test_a_folder_of_this_user_others_may_read_or_write_is_made_private(cache_env: Path, mode: int) -> None:
    folder = cache_env / "xdg" / "treaty-logic"
    folder.mkdir(parents=True)
    folder.chmod(mode)
    assert cache.cache_dir() == folder
    assert folder.stat().st_mode & 0o777 == 0o700
    assert bool(cache.notices()) == bool(mode & 0o022)


def test_a_parent_others_may_change_is_refused(cache_env: Path) -> None:
    xdg = cache_env / "xdg"
    xdg.mkdir()
    xdg.chmod(0o777)  # without the sticky bit: another user could rename the folder and plant one
    assert cache.cache_dir() == cache_env / "tmp" / f"treaty-logic-{os.geteuid()}"
    assert any("may be changed by other users" in n for n in cache.notices())


def test_entries_are_sealed_by_name_and_content(cache_env: Path) -> None:
    cache.write_json("a.json", {"x": 1})
    assert cache.read_json("a.json") == {"x": 1}
    folder = cache.cache_dir()
    assert folder is not None
    shutil.copy(folder / "a.json.sealed", folder / "b.json.sealed")  # an entry under another name
    assert cache.read_json("b.json") is None
    assert not (folder / "b.json.sealed").exists()
    (folder / "c.json.sealed").symlink_to(folder / "a.json.sealed")
    assert cache.read_json("c.json") is None
    assert cache.notices()


def test_a_key_others_may_read_is_replaced(cache_env: Path) -> None:
    cache.write_json("a.json", 1)
    folder = cache.cache_dir()
    assert folder is not None
    (folder / "key").chmod(0o644)
    cache._stores.clear()
    assert cache.read_json("a.json") is None  # a new key: the old entries no longer verify
    assert (folder / "key").stat().st_mode & 0o777 == 0o600
    assert any("replaced the cache key" in n for n in cache.notices())


def test_the_folder_is_the_platforms_user_cache_folder(cache_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """$XDG_CACHE_HOME's if absolute, else platformdirs' user cache folder; the temporary directory's after."""
    import platformdirs

    assert cache.cache_dir() == cache_env / "xdg" / "treaty-logic"
    for xdg in ("relative/cache", ""):
        monkeypatch.setenv("XDG_CACHE_HOME", xdg)
        first, tmp = cache._candidates()
        assert first == Path(platformdirs.user_cache_dir("treaty-logic", appauthor=False)) and first.is_absolute()
        assert tmp == cache_env / "tmp" / f"treaty-logic-{os.geteuid()}"


def test_without_user_ids_and_modes_the_cache_still_works(cache_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Windows (no os.geteuid, modes that say nothing of other users): the folder named without a uid, used
    as it is (no owner or mode refused), entries sealed and verified as everywhere."""
    monkeypatch.setattr(cache, "_uid", lambda: None)
    monkeypatch.setattr(cache, "_MODES", False)
    (cache_env / "xdg").write_text("not a folder", encoding="utf-8")  # the first choice cannot be made
    fallback = cache_env / "tmp" / "treaty-logic"
    fallback.mkdir(mode=0o777)
    fallback.chmod(0o777)
    assert cache.cache_dir() == fallback
    assert fallback.stat().st_mode & 0o777 == 0o777  # left as it is
    cache.write_json("a.json", {"x": 1})
    assert cache.read_json("a.json") == {"x": 1}
    shutil.copy(fallback / "a.json.sealed", fallback / "b.json.sealed")
    assert cache.read_json("b.json") is None
    assert cache.notices() == ["ignored a cache entry this program did not write (damaged, or planted by someone "
                               "else); it is recomputed"]
