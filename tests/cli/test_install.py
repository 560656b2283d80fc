"""An installed locksim works without the source tree: `cmake --install` into a temporary prefix, then the
binary finds its catalogue by name from any directory, the console commands draw and report from the installed
package, and replay lines name `locksim` as typed. The Debian package CPack builds holds the same files and
declares what they need.

The tree is the one the binary under test was built in (LOCKSIM_BUILD_DIR, which CTest sets)."""
import os
import pathlib
import shutil
import subprocess

import pytest

BUILD = pathlib.Path(os.environ.get("LOCKSIM_BUILD_DIR", pathlib.Path(__file__).resolve().parents[2] / "build"))
COMMANDS = ["locksim-timeline", "locksim-timeline-html", "locksim-timelines-of-runs", "locksim-sweep-plots",
            "locksim-compare-plot", "locksim-efficiency-plot", "locksim-report"]


@pytest.fixture(scope="module")
def prefix(tmp_path_factory):
    if not (BUILD / "cmake_install.cmake").is_file():
        pytest.fail(f"no configured tree at {BUILD} (LOCKSIM_BUILD_DIR)")
    root = tmp_path_factory.mktemp("prefix")
    done = subprocess.run(["cmake", "--install", BUILD, "--prefix", root], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    return root


def run_installed(prefix, cwd, *args):
    """A command as a user with the prefix's bin/ first on PATH runs it: no LOCKSIM_BIN, nothing of the checkout."""
    env = {k: v for k, v in os.environ.items() if k != "LOCKSIM_BIN"}
    env["PATH"] = f"{prefix / 'bin'}:{env.get('PATH', '/usr/bin:/bin')}"
    env["MPLBACKEND"] = "Agg"
    return subprocess.run(list(map(str, args)), cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


def test_layout(prefix):
    assert os.access(prefix / "bin" / "locksim", os.X_OK)
    for command in COMMANDS:
        assert os.access(prefix / "bin" / command, os.X_OK), command
    assert (prefix / "share" / "locksim" / "scenarios" / "single-node-gc-pause.toml").is_file()
    assert (prefix / "share" / "locksim" / "scenarios" / "FORMAT.md").is_file()
    assert (prefix / "share" / "locksim" / "python" / "analysis" / "timeline.py").is_file()
    assert (prefix / "share" / "locksim" / "python" / "analysis" / "trace_schema.json").is_file()
    assert (prefix / "share" / "doc" / "locksim" / "docs" / "tutorial.md").is_file()


def test_catalogue_by_name_from_any_directory(prefix, tmp_path):
    r = run_installed(prefix, tmp_path, "locksim", "run", "single-node-gc-pause")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "2 of 2 variants match their expectations" in r.stdout
    listing = run_installed(prefix, tmp_path, "locksim", "list")
    assert str(prefix / "share" / "locksim" / "scenarios") in listing.stdout


def test_console_commands_draw_and_report_without_the_checkout(prefix, tmp_path):
    assert run_installed(prefix, tmp_path, "locksim", "run", "single-node-gc-pause", "--variant", "base",
                         "--trace", "gc.jsonl").returncode == 0
    run_json = run_installed(prefix, tmp_path, "locksim", "run", "single-node-gc-pause", "--variant", "base", "--json")
    (tmp_path / "gc.json").write_text(run_json.stdout)
    for args in (["locksim-timeline", "gc.jsonl", "--out", "gc.png"],
                 ["locksim-timeline-html", "gc.jsonl", "--out", "gc.html"],
                 ["locksim-timelines-of-runs", "gc.json", "--jobs", "1"],
                 ["locksim-report", "single-node-gc-pause", "--variant", "base", "--out", "report.html"]):
        r = run_installed(prefix, tmp_path, *args)
        assert r.returncode == 0, f"{args}: {r.stdout}{r.stderr}"
    for name in ("gc.png", "gc.html", "gc.base.png", "gc.base.svg", "gc.base.html", "report.html"):
        assert (tmp_path / name).stat().st_size > 0, name
    assert "vis-timeline" in (tmp_path / "gc.html").read_text()


def test_replay_lines_name_the_installed_command(prefix, tmp_path):
    r = run_installed(prefix, tmp_path, "locksim", "compare", "single-node-gc-pause", "--seeds", "20")
    replays = [line.strip() for line in r.stdout.splitlines() if line.strip().startswith("replay ")]
    assert replays, r.stdout + r.stderr
    assert all(": locksim run " in line for line in replays), replays


@pytest.mark.skipif(shutil.which("cpack") is None or shutil.which("dpkg-deb") is None, reason="no cpack or dpkg-deb")
def test_debian_package(tmp_path):
    r = subprocess.run(["cpack", "--config", BUILD / "CPackConfig.cmake", "-G", "DEB", "-B", tmp_path],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    [deb] = tmp_path.glob("locksim_*.deb")
    info = subprocess.run(["dpkg-deb", "--field", deb, "Package", "Depends"], capture_output=True, text=True).stdout
    assert "Package: locksim" in info
    for needed in ("libboost-program-options1.74.0", "libtomlplusplus3", "python3-matplotlib", "python3-pandas"):
        assert needed in info, info
    contents = subprocess.run(["dpkg-deb", "--contents", deb], capture_output=True, text=True).stdout
    for path in ("./usr/bin/locksim", "./usr/bin/locksim-report", "./usr/share/locksim/scenarios/single-node-gc-pause.toml",
                 "./usr/share/locksim/python/analysis/report.py"):
        assert path in contents, path
