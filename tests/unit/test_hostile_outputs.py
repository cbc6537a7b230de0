"""A user's name held inert in every file ``analyse`` writes, and ``save`` writing its files as
one set: whole or not at all, and never interleaved with a second analysis of the same folder."""

import csv
import os
import signal
import threading
from pathlib import Path

import numpy as np
import pytest

import rnnschur
from rnnschur.external import OUTPUT_NAMES, saving
from rnnschur.external.result import Result
from rnnschur.network.rnn import rollout
from rnnschur.report import figures
from rnnschur.tasks import flip_flop

SCRIPT = "<script>alert(1)</script>"
PAYLOADS = {
    "script": SCRIPT,
    "image": '<img src=x onerror="alert(1)">',
    "newline": "net\n# a heading of its own\n| a | fake | row |",
    "math": r"$\frac$",
    "dollars": "cost $5 and $10",
    "formula": '=HYPERLINK("http://x","y")',
    "plus": "+1+2",
    "at": "@SUM(A1)",
}


@pytest.fixture(scope="module")
def model():
    """A small discrete tanh network and a held-out set with its own outputs (verifiable)."""
    rng = np.random.default_rng(3)
    N, batch = 12, flip_flop.generate(np.random.default_rng(4), 16)
    arrays = {
        "W_xh": rng.normal(0, 0.5, (N, 3)),
        "W_hh": rng.normal(0, 1.3 / np.sqrt(N), (N, N)),
        "W_hy": rng.normal(0, 0.5, (3, N)),
    }
    outputs = rollout(arrays["W_xh"], arrays["W_hh"], arrays["W_hy"], batch.inputs)
    heldout = {"inputs": batch.inputs, "targets": batch.targets, "mask": batch.mask}
    return arrays, heldout | {"outputs": outputs}


def analyse(model, name):
    arrays, heldout = model
    return rnnschur.analyse(arrays, heldout, "discrete", name=name, progress=lambda _: None)


@pytest.mark.parametrize("kind", sorted(PAYLOADS))
def test_a_hostile_name_is_inert_in_every_file(model, kind, tmp_path):
    """The name reaches summary.md as one escaped line (no heading, table row or tag of its
    own), summary.html escaped, the plot as written (no mathtext: '$\\frac$' would fail, '$5
    and $10' would lose its dollars), ablation.csv as text (no formula)."""
    name = PAYLOADS[kind]
    result = analyse(model, name)
    files = result.save(tmp_path / "out")
    summary = files["summary_md"].read_text()
    lines = summary.splitlines()
    assert lines[0].startswith("# ") and lines[0].endswith(": Schur-coordinate ablations")
    assert sum(line.startswith("#") for line in lines) == 1  # no heading of the name's own
    assert "<" not in lines[0] and "| a | fake" not in summary
    table_rows = [line for line in lines if line.startswith("|")]
    assert len(table_rows) == 2 + 3  # header, rule, the three coupling blocks
    page = files["summary_html"].read_text()
    for dangerous in ("<script>alert", "<img src=x"):  # as text (&lt;), never a tag
        assert dangerous not in page
    with open(files["ablation_csv"], newline="") as handle:
        cells = [row["model"] for row in csv.DictReader(handle)]
    assert not any(cell.startswith(("=", "+", "-", "@")) for cell in cells)
    assert {cell.lstrip("'") for cell in cells} == {name}  # the name itself, marked as text
    title = result.plot().axes[0].get_title()
    if "$" in name:  # drawn as written: the escaped dollars render as dollars
        assert title.startswith(name.replace("$", r"\$"))
        figures.png(result.plot())  # renders (a '$\frac$' parsed as math raises here)
    assert Result.load(tmp_path / "out", _weights(model, tmp_path)).ablation["model"].eq(name).all()


def _weights(model, tmp_path):
    path = tmp_path / "weights.npz"
    np.savez(path, **model[0])
    return path


def _snapshot(folder):
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_an_interrupted_save_leaves_the_earlier_results_whole(model, tmp_path, monkeypatch):
    """Interrupted while drawing (the profile, after the tables), and interrupted while the new
    files move into place (after three of them): the folder holds the earlier model's files, byte
    for byte, and nothing else (no staging folder, no lock)."""
    out = tmp_path / "out"
    analyse(model, "first").save(out)
    before = _snapshot(out)
    second = analyse(model, "second")

    def interrupted(*_):
        raise KeyboardInterrupt

    with monkeypatch.context() as patch:
        patch.setattr(figures, "save", interrupted)
        with pytest.raises(KeyboardInterrupt):
            second.save(out, force=True)
    assert _snapshot(out) == before
    moves = {"n": 0}
    replace = os.replace

    def fails_on_the_third_new_file(source, target):
        if ".rnnschur-new-" in str(source) and Path(target).parent == out:  # into place
            moves["n"] += 1
            if moves["n"] == 3:
                raise KeyboardInterrupt
        replace(source, target)

    with monkeypatch.context() as patch:
        patch.setattr(saving.os, "replace", fails_on_the_third_new_file)
        with pytest.raises(KeyboardInterrupt):
            second.save(out, force=True)
    assert moves["n"] == 3 and _snapshot(out) == before
    second.save(out, force=True)  # uninterrupted: the second model's files, whole
    assert "# second:" in (out / "summary.md").read_text()
    assert set(_snapshot(out)) == set(before)


def test_a_failed_first_save_writes_nothing(model, tmp_path, monkeypatch):
    """Drawing fails on a fresh folder: the folder is left empty."""
    out = tmp_path / "out"

    def broken(*_):
        raise RuntimeError("no backend")

    monkeypatch.setattr(figures, "save", broken)
    with pytest.raises(RuntimeError, match="no backend"):
        analyse(model, "m").save(out)
    assert list(out.iterdir()) == []


def test_two_analyses_writing_one_folder_do_not_mix(model, tmp_path, monkeypatch):
    """A second save into a folder that another is moving its files into is refused, naming
    the lock; the folder then holds one model's files only."""
    out = tmp_path / "out"
    first, second = analyse(model, "first"), analyse(model, "second")
    inside, release = threading.Event(), threading.Event()
    replace = os.replace

    def slow(source, target):  # the first save pauses after moving one file in
        replace(source, target)
        if Path(target).parent == out and ".rnnschur-new-" in str(source) and not inside.is_set():
            inside.set()
            release.wait(10)

    monkeypatch.setattr(saving.os, "replace", slow)
    worker = threading.Thread(target=first.save, args=(out,))
    worker.start()
    assert inside.wait(30)
    with pytest.raises(FileExistsError, match="another analysis is writing"):
        second.save(out, force=True)
    release.set()
    worker.join()
    summary = (out / "summary.md").read_text()
    assert "# first:" in summary
    names = {row["model"] for row in csv.DictReader(open(out / "ablation.csv", newline=""))}
    assert names == {"first"} and not (out / saving.LOCK).exists()


@pytest.mark.parametrize("out", ["/", "/usr", "/etc/rnnschur", "{file}/inside"])
def test_a_folder_that_must_not_hold_results_is_refused_before_the_analysis(
    model, out, tmp_path, capsys
):
    """--out / (or a system folder, or a path through a file) is refused in one line naming it,
    before any file is read: the command's weights do not even exist."""
    from rnnschur import __main__ as cli

    (tmp_path / "file").write_text("")
    out = out.format(file=tmp_path / "file")
    code = cli.main(
        ["analyse", str(tmp_path / "none.npz"), str(tmp_path / "none.npz"), "--out", out]
    )
    error = capsys.readouterr().err
    assert code == 2 and out in error and "reading" not in error and len(error.splitlines()) == 1
    with pytest.raises(saving.OutFolderError, match="not for results|is a file"):
        analyse(model, "net").save(out)


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into a read-only folder")
def test_a_read_only_out_is_refused_before_the_analysis(tmp_path, capsys):
    from rnnschur import __main__ as cli

    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o555)
    try:
        args = ["analyse", str(tmp_path / "w.npz"), str(tmp_path / "h.npz")]
        assert cli.main([*args, "--out", str(locked / "out")]) == 2
        assert "cannot be written" in capsys.readouterr().err
    finally:
        locked.chmod(0o755)


def test_the_commands_bounds_are_the_configs(tmp_path, capsys):
    """--mass-floor 2 and --threshold 0, refused by the config's schema, are refused by the
    command too, naming the option and the config key."""
    from rnnschur import __main__ as cli

    args = ["analyse", str(tmp_path / "w.npz"), str(tmp_path / "h.npz"), "--out", str(tmp_path)]
    assert cli.main([*args, "--mass-floor", "2"]) == 2
    assert "ablation.mass_floor" in capsys.readouterr().err
    assert cli.main([*args, "--threshold", "0"]) == 2
    assert "verdicts.threshold" in capsys.readouterr().err


def _write_set(folder: Path, tag: str) -> dict[str, Path]:
    """Every output file of an analysis, each holding ``tag``."""
    folder.mkdir(parents=True, exist_ok=True)
    for name in OUTPUT_NAMES:
        (folder / name).write_text(tag)
    return {name.replace(".", "_"): folder / name for name in OUTPUT_NAMES}


def _visible(out: Path) -> dict[str, str]:
    return {p.name: p.read_text() for p in out.iterdir() if not p.name.startswith(".")}


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM, signal.SIGKILL])
def test_a_swap_survives_a_signal_at_every_rename(tmp_path, signum):
    """Planted: an earlier set of every output file in a folder, a new set in a writer's staging
    folder; the writer (a forked process) gets ``signum`` right after each rename of the swap in
    turn. SIGINT and SIGTERM wait for the swap: the new set, whole, nothing hidden left. SIGKILL
    may cut it: the next save's recovery leaves exactly one set whole (the earlier one, or the
    new one where the swap had finished), never fewer files, and no hidden folder or lock."""
    renames = 2 * len(OUTPUT_NAMES)  # each earlier file aside, each new one into place
    for n in range(1, renames + 1):
        out = tmp_path / f"after_{n}"
        _write_set(out, "earlier")
        pid = os.fork()
        if pid == 0:  # the writer
            try:
                staging = saving.staging_folder(out)
                files = _write_set(staging, "new")
                replace, calls = os.replace, [0]

                def signalled(source, target, n=n, replace=replace, calls=calls):
                    replace(source, target)
                    calls[0] += 1
                    if calls[0] == n:
                        os.kill(os.getpid(), signum)

                os.replace = signalled
                saving.replace_outputs(out, files, force=True)
            finally:
                os._exit(0)
        os.waitpid(pid, 0)
        if signum == signal.SIGKILL:
            with saving.folder_lock(out):  # a rerun: the dead writer's lock is free
                saving.recover(out)
            assert set(_visible(out).values()) in ({"earlier"}, {"new"}), n
        else:
            assert set(_visible(out).values()) == {"new"}, n
        assert set(_visible(out)) == set(OUTPUT_NAMES), n
        hidden = {p.name for p in out.iterdir() if p.name.startswith(".")}
        assert not {h for h in hidden if not h.startswith(saving.NEW)}, (n, hidden)


def test_sigterm_while_drawing_leaves_the_earlier_results_and_nothing_hidden(model, tmp_path):
    """A save killed by SIGTERM (``kill``, a scheduler) while it draws, before any file moves:
    the earlier set, byte for byte, and no staging folder or lock left behind."""
    out = tmp_path / "out"
    analyse(model, "first").save(out)
    before = _snapshot(out)
    second = analyse(model, "second")
    pid = os.fork()
    if pid == 0:
        try:
            figures.save = lambda *_: os.kill(os.getpid(), signal.SIGTERM)
            second.save(out, force=True)
        finally:
            os._exit(0)
    _, status = os.waitpid(pid, 0)
    assert _snapshot(out) == before
    assert not [p for p in out.iterdir() if p.name.startswith(".")]


def test_a_swap_killed_after_its_commit_keeps_the_new_set(tmp_path):
    """Planted: the new set in place and the earlier set's hidden folder half removed, its
    journal gone (a SIGKILL while the committed swap cleaned up): recovery leaves the new set
    whole and removes the hidden folder; a file the folder lacks comes back from it."""
    out = tmp_path / "out"
    _write_set(out, "new")
    previous = out / f"{saving.PREVIOUS}999999999-x"
    _write_set(previous, "earlier")
    (out / OUTPUT_NAMES[0]).unlink()  # one the folder lacks
    with saving.folder_lock(out):
        saving.recover(out)
    assert _visible(out) == {n: "earlier" if n == OUTPUT_NAMES[0] else "new" for n in OUTPUT_NAMES}
    assert not previous.exists()
