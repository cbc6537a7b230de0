"""Artifacts on disk: written atomically (temporary name, then rename), read with validation.

A reader raises :class:`ArtifactError` naming the file and what is wrong with it, so a corrupt
or stale artifact stops the consuming job with a clear message instead of a traceback deep in
NumPy.

Beside them: what made an artifact (:mod:`.provenance`), the per-seed tables and the model
identity (:mod:`.per_seed`), and a user's words made inert wherever they are written
(:mod:`.text`).
"""

from __future__ import annotations

import csv
import errno
import json
import os
import sys
import tempfile
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from rnnschur.io.provenance import software_versions, weights_sha256
from rnnschur.network import OFFSET_KEYS, WEIGHT_KEYS, Network
from rnnschur.network.dynamics import FIELDS, Dynamics
from rnnschur.schur import OrderedSchur, SchurCheckError, check_schur
from rnnschur.tasks import Batch, Trials

FORMAT_VERSION = 1
"""Version of the Schur file layout; :func:`load_schur` refuses another."""


class ArtifactError(ValueError):
    """An artifact is missing, unreadable or inconsistent."""


def _umask() -> int:
    """The process's umask (read by setting it and setting it back)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


@contextmanager
def atomic_path(path: str | os.PathLike) -> Iterator[Path]:
    """Yield a temporary path beside ``path``; rename it to ``path`` only if the block succeeds."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    try:
        yield Path(tmp)
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp's 0600 would survive the rename
        os.replace(tmp, path)
    except BaseException as error:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(error, OSError) and error.errno == errno.ENOSPC:
            say_no_space(path)
        raise


def say_no_space(path: Path) -> None:
    """One line, before the traceback, in the job's log and on the terminal (the log may sit on
    the full disk too): what happened and that nothing half-written was kept."""
    line = (
        f"rnnschur: no space left on the device while writing {path}; nothing half-written was "
        "kept: free space and run the same command again"
    )
    for stream in dict.fromkeys((sys.stderr, sys.__stderr__)):
        try:
            print(line, file=stream, flush=True)
        except (OSError, ValueError, AttributeError):
            pass


def save_npz(path: str | os.PathLike, **arrays: np.ndarray) -> None:
    """Write arrays to an uncompressed ``.npz`` (no pickle) atomically."""
    with atomic_path(path) as tmp, open(tmp, "wb") as handle:
        np.savez(handle, **arrays)


def save_json(path: str | os.PathLike, data: dict) -> None:
    with atomic_path(path) as tmp:
        tmp.write_text(json.dumps(data, indent=2, sort_keys=True, default=_json_default) + "\n")


def save_text(path: str | os.PathLike, text: str) -> None:
    with atomic_path(path) as tmp:
        tmp.write_text(text)


def save_csv(path: str | os.PathLike, frame) -> None:
    """Write a pandas DataFrame as CSV atomically (full float precision)."""
    with atomic_path(path) as tmp:
        frame.to_csv(tmp, index=False, float_format="%.17g")


def labelled(rows: list[dict], model) -> list[dict]:
    """Rows of one model with its identity first: ``task``, ``construction``, ``n_hidden``,
    ``seed`` (``model`` has those as attributes ``task``, ``construction``, ``size``, ``seed``,
    like a rule's wildcards)."""
    identity = {
        "task": model.task,
        "construction": model.construction,
        "n_hidden": int(model.size),
        "seed": int(model.seed),
    }
    return [identity | row for row in rows]


def _cell(value) -> str:
    """A CSV cell as ``save_csv`` (pandas) writes it: floats with 17 significant digits, NaN
    and None empty."""
    if value is None:
        return ""
    if isinstance(value, bool | np.bool_):
        return str(bool(value))
    if isinstance(value, float | np.floating):
        return "" if np.isnan(value) else f"{value:.17g}"
    return str(value)


def save_rows(path: str | os.PathLike, rows: list[dict]) -> None:
    """Write rows (dicts with the same keys, in order) as CSV atomically, exactly as
    :func:`save_csv` writes them through pandas, without importing pandas (a per-model job is
    spared its ≈ 0.6 s import)."""
    columns = list(rows[0]) if rows else []
    with atomic_path(path) as tmp, open(tmp, "w", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(columns)
        for row in rows:
            writer.writerow([_cell(row[c]) for c in columns])


def _json_default(value):
    if isinstance(value, np.generic):
        return value.item()
    raise TypeError(f"cannot write {type(value).__name__} to JSON")


def load_npz(path: str | os.PathLike, keys: tuple[str, ...]) -> dict[str, np.ndarray]:
    """Read ``keys`` from an ``.npz``; raise :class:`ArtifactError` if the file is missing,
    truncated, not an ``.npz`` or lacks a key."""
    path = Path(path)
    if not path.is_file():
        raise ArtifactError(f"{path}: file not found")
    try:
        with np.load(path, allow_pickle=False) as data:
            missing = [k for k in keys if k not in data.files]
            if missing:
                raise ArtifactError(f"{path}: missing arrays {missing} (has {data.files})")
            return {k: data[k] for k in keys}
    except ArtifactError:
        raise
    except ValueError as error:
        if "allow_pickle" in str(error):
            raise ArtifactError(
                f"{path}: holds pickled Python objects; refused (arrays of numbers only)"
            ) from error
        raise ArtifactError(f"{path}: unreadable or truncated .npz ({error})") from error
    except (OSError, EOFError, zipfile.BadZipFile) as error:
        raise ArtifactError(f"{path}: unreadable or truncated .npz ({error})") from error


def load_json(path: str | os.PathLike) -> dict:
    """A JSON artifact; :class:`ArtifactError` if it is missing or not JSON."""
    path = Path(path)
    if not path.is_file():
        raise ArtifactError(f"{path}: file not found")
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError) as error:
        raise ArtifactError(f"{path}: unreadable or truncated JSON ({error})") from error


def npz_keys(path: str | os.PathLike) -> tuple[str, ...]:
    """The names of the arrays in an ``.npz``; :class:`ArtifactError` if it is missing or not
    an ``.npz``."""
    path = Path(path)
    if not path.is_file():
        raise ArtifactError(f"{path}: file not found")
    try:
        with np.load(path, allow_pickle=False) as data:
            return tuple(data.files)
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as error:
        raise ArtifactError(f"{path}: unreadable or not an .npz ({error})") from error


def require(path: str | os.PathLike, condition: bool, problem: str) -> None:
    """Raise :class:`ArtifactError` naming ``path`` and ``problem`` unless ``condition``."""
    if not condition:
        raise ArtifactError(f"{path}: {problem}")


def load_trials(path: str | os.PathLike, n: int | None = None) -> Trials:
    """A set of unpadded trials (:class:`rnnschur.tasks.Trials`, a task's training trials drawn
    once), with at least ``n`` trials if given; ArtifactError if it has fewer or its arrays do
    not fit together."""
    path = Path(path)
    trials = Trials.of(load_npz(path, Trials.KEYS))
    steps = len(trials.observations)
    require(
        path,
        trials.lengths.sum() == steps == len(trials.actions) == len(trials.mask),
        "its lengths, observations, actions and mask disagree",
    )
    if n is not None:
        require(path, len(trials.lengths) >= n, f"{len(trials.lengths)} trials, {n} needed")
    return trials


def load_batch(path: str | os.PathLike, N_x: int | None = None, N_y: int | None = None) -> Batch:
    """A held-out set: ``inputs`` (n, time, N_x), ``targets`` (n, time, N_y), ``mask`` (n, time)
    or (n, time, N_y)."""
    path = Path(path)
    data = load_npz(path, ("inputs", "targets", "mask"))
    inputs, targets, mask = data["inputs"], data["targets"], data["mask"]
    require(path, inputs.ndim == 3 and targets.ndim == 3, "inputs and targets must be 3-D")
    require(
        path,
        targets.shape[:2] == inputs.shape[:2] and mask.shape in (inputs.shape[:2], targets.shape),
        f"shapes disagree: inputs {inputs.shape}, targets {targets.shape}, mask {mask.shape}",
    )
    if N_x is not None:
        require(
            path, inputs.shape[2] == N_x, f"inputs have {inputs.shape[2]} lines, expected {N_x}"
        )
    if N_y is not None:
        require(
            path, targets.shape[2] == N_y, f"targets have {targets.shape[2]} lines, expected {N_y}"
        )
    require(path, mask.sum() > 0, "the mask selects no step")
    return Batch(inputs, targets, mask)


def check_weights(path, W_xh: np.ndarray, W_hh: np.ndarray, W_hy: np.ndarray) -> None:
    """Consistent shapes, (..., N_h, N_x), (..., N_h, N_h), (..., N_y, N_h) (leading axes: a
    stack, e.g. checkpoints), and finite entries; an :class:`ArtifactError` naming the file and
    the array otherwise. The one weight check, for the workflow's files and a user's model."""
    lead = W_hh.shape[:-2]
    n = W_hh.shape[-1] if W_hh.ndim >= 2 else -1
    square = W_hh.ndim >= 2 and W_hh.shape == (*lead, n, n)
    require(path, square, f"W_hh {W_hh.shape} is not square")
    stack = "…, " if lead else ""
    require(
        path,
        W_xh.ndim == len(lead) + 2 and W_xh.shape[:-2] == lead and W_xh.shape[-2] == n,
        f"W_xh {W_xh.shape} must be ({stack}N_h = {n}, N_x)",
    )
    require(
        path,
        W_hy.ndim == len(lead) + 2 and W_hy.shape[:-2] == lead and W_hy.shape[-1] == n,
        f"W_hy {W_hy.shape} must be ({stack}N_y, N_h = {n})",
    )
    for name, W in zip(WEIGHT_KEYS, (W_xh, W_hh, W_hy), strict=True):
        require(path, bool(np.all(np.isfinite(W))), f"{name} has NaN or inf entries")


def load_weights(path: str | os.PathLike) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(W_xh, W_hh, W_hy) with consistent shapes and finite entries."""
    path = Path(path)
    data = load_npz(path, WEIGHT_KEYS)
    W_xh, W_hh, W_hy = data["W_xh"], data["W_hh"], data["W_hy"]
    require(path, W_hh.ndim == 2, f"W_hh must be a matrix, got shape {W_hh.shape}")
    check_weights(path, W_xh, W_hh, W_hy)
    return W_xh, W_hh, W_hy


def dynamics_arrays(dynamics: Dynamics) -> dict[str, np.ndarray]:
    """The 0-d arrays that say how the network computes, stored beside its weights under
    :data:`rnnschur.network.dynamics.FIELDS` (absent: the paper's discrete tanh network,
    :data:`rnnschur.network.dynamics.DISCRETE`): none for the paper's network, and the readout and
    timing only where they are not the rate read after the update, so that files written
    before those existed keep their layout."""
    stored = dynamics.as_dict()
    keys = []
    if not (dynamics.kind == "discrete" and dynamics.nonlinearity == "tanh"):
        keys = ["dynamics", "leak", "nonlinearity"]
    if dynamics.reads_state or dynamics.reads_before:
        keys += ["dynamics", "readout", "timing"]
    return {key: np.array(stored[key]) for key in dict.fromkeys(keys)}


def load_dynamics(path: str | os.PathLike) -> Dynamics:
    """The network family stored in a weights ``.npz`` (:func:`dynamics_arrays`);
    :class:`ArtifactError` naming the file for a value that is not one."""
    present = [k for k in FIELDS if k in npz_keys(path)]
    stored = {k: v.item() for k, v in load_npz(path, tuple(present)).items()}
    try:
        return Dynamics.from_config(stored)
    except (ValueError, TypeError) as error:
        raise ArtifactError(f"{path}: {error}") from None


def load_network(path: str | os.PathLike) -> Network:
    """The network of a weights ``.npz``, read once: its weights (:func:`load_weights`), the
    offsets it stores and its description (:func:`load_dynamics`)."""
    W_xh, W_hh, W_hy = load_weights(path)
    present = tuple(k for k in OFFSET_KEYS if k in npz_keys(path))
    offsets = load_npz(path, present) if present else {}
    return Network(W_xh, W_hh, W_hy, load_dynamics(path), dict(offsets))


def load_checkpoints(path: str | os.PathLike) -> dict[str, np.ndarray]:
    """The checkpoints of a training run: ``step``, ``validation_score`` and the weight stacks
    ``W_xh``, ``W_hh``, ``W_hy`` (one matrix per checkpoint), checked like :func:`load_weights`."""
    path = Path(path)
    data = load_npz(path, ("step", "validation_score", "W_xh", "W_hh", "W_hy"))
    K = len(data["step"])
    require(path, K > 0 and data["step"].shape == (K,), f"step has shape {data['step'].shape}")
    require(path, data["validation_score"].shape == (K,), "validation_score does not match step")
    require(
        path,
        data["W_hh"].ndim == 3 and len(data["W_hh"]) == K,
        f"W_hh has shape {data['W_hh'].shape}, not a stack of {K} matrices (one per step)",
    )
    check_weights(path, data["W_xh"], data["W_hh"], data["W_hy"])
    return data


def load_model(
    weights: str | os.PathLike, schur: str | os.PathLike, heldout: str | os.PathLike
) -> tuple[Network, OrderedSchur, Batch]:
    """(the network, the ordered Schur form of its W_hh, the held-out set), each checked, the
    held-out set against the network's N_x and N_y."""
    network = load_network(weights)
    if "weights_sha256" in npz_keys(schur):
        recorded = str(load_npz(schur, ("weights_sha256",))["weights_sha256"])
        check_digest(weights, recorded, f"the Schur form {schur} was made from")
    return (
        network,
        load_schur(schur, network.W_hh),
        load_batch(heldout, network.W_xh.shape[1], network.W_hy.shape[0]),
    )


def check_digest(weights: str | os.PathLike, recorded: str, made: str) -> None:
    """Refuse a weights file whose arrays' sha256 (:func:`rnnschur.io.provenance.weights_sha256`)
    is not ``recorded``, the digest of the weights that ``made`` (an artifact's words for what
    it was made from), naming the weights file: it was replaced after that artifact."""
    actual = weights_sha256(weights)
    require(
        weights,
        actual == recorded,
        f"its arrays' sha256 is {actual[:12]}…, not {recorded[:12]}…, the weights {made}: "
        "the file was replaced or changed after them; restore it, or rerun from training "
        "(snakemake --forcerun on its training rule)",
    )


def save_schur(
    path: str | os.PathLike, schur: OrderedSchur, weights_sha256: str | None = None
) -> None:
    """Write an ordered Schur form with the versions of SciPy and its LAPACK that made it
    (``provenance``: a JSON string) and, when given, the sha256 of the weights it was made
    from (checked by :func:`load_model`)."""
    digest = {} if weights_sha256 is None else {"weights_sha256": np.array(weights_sha256)}
    save_npz(
        path,
        **digest,
        Q=schur.Q,
        T=schur.T,
        eigenvalues=schur.eigenvalues,
        block_starts=schur.block_starts,
        leak=np.array(schur.leak),
        format_version=np.array(FORMAT_VERSION),
        provenance=np.array(json.dumps(software_versions())),
    )


def load_schur(path: str | os.PathLike, W: np.ndarray) -> OrderedSchur:
    """The ordered Schur form of ``W`` stored at ``path``, re-checked against ``W``
    (reconstruction, orthogonality, structure, ordering): a stale or corrupt file is refused."""
    path = Path(path)
    data = load_npz(path, ("Q", "T", "eigenvalues", "block_starts", "format_version"))
    require(
        path,
        int(data["format_version"]) == FORMAT_VERSION,
        f"written in format {int(data['format_version'])}, this version reads {FORMAT_VERSION}",
    )
    require(
        path,
        data["T"].shape == W.shape and data["Q"].shape == W.shape,
        f"Q {data['Q'].shape} and T {data['T'].shape} do not match W {W.shape}",
    )
    leak = float(load_npz(path, ("leak",))["leak"]) if "leak" in npz_keys(path) else 1.0
    schur = OrderedSchur(data["Q"], data["T"], data["block_starts"], data["eigenvalues"], leak)
    try:
        check_schur(W, schur)
    except SchurCheckError as error:
        raise ArtifactError(
            f"{path}: not a valid ordered Schur form of the model's W ({error})"
        ) from error
    return schur
