"""Command line: ``python -m rnnschur analyse WEIGHTS HELDOUT --out DIR``.

Runs the paper's Schur-coordinate ablations on an RNN trained elsewhere, without Snakemake,
through :func:`rnnschur.analyse`, which the workflow's ``external`` rules call too. The
command fixes its threads (``--threads``, 1 by default, as the workflow's rules run) and the
numeric kernels (as the workflow's ``numerics: portable``) before NumPy loads, so that both
routes write the same tables byte for byte.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path

from rnnschur.settings.numerics import PORTABLE_KERNELS

KINDS = (
    "discrete",
    "leaky",
    "leaky_current",
)  # rnnschur.network.dynamics.KINDS, without loading NumPy
NONLINEARITIES = ("tanh", "relu", "softplus")
EXIT_MISMATCH = 3
"""The exit status when the rollout does not reproduce the model's own outputs."""
ARGUMENT = re.compile(
    r"\b(dynamics|leak|nonlinearity|readout|timing|split|recurrent|keys|time_first|"
    r"initial_state|tolerance|init_kwargs|fitting|threshold|force)="
    r"(\"[^\"]*\"|'[^']*'|[^\s,;)]+)"
)


def as_flags(message: str) -> str:
    """A message of the library, which names :func:`rnnschur.analyse`'s arguments
    (``dynamics="auto"``, ``time_first=True``), in the command's flags (``--dynamics auto``,
    ``--time-first``)."""

    def flag(match: re.Match) -> str:
        name, value = match.group(1).replace("_", "-"), match.group(2).strip("\"'")
        if value in ("True", "False"):
            return f"--{name}" if value == "True" else f"no --{name}"
        return f"--{name} {value}"

    return ARGUMENT.sub(flag, message)


DESCRIPTION = """\
Ordered real Schur ablations of an RNN trained elsewhere (arXiv 2606.18457).

WEIGHTS is an .npz with W_xh (N_h, N_x), W_hh (N_h, N_h), W_hy (N_y, N_h) and optionally
b_h (N_h,), b_y (N_y,), h0 (N_h,) and the 0-d arrays dynamics, leak, nonlinearity, readout,
timing; or a torch state_dict file (.pt) of a one-layer nn.RNN (Schuessler et al.'s RNN_Net
too) or of the NeuroGym/Neuromatch tutorial CTRNN (input2h, h2h) with an nn.Linear readout
(fc, h2out, readout, output, decoder, linear; biases are used); any other layout with --keys;
or a Keras file (.keras, .weights.h5) of one SimpleRNN and a Dense, or Flax parameters
(.msgpack, flax.serialization.to_bytes) of one SimpleCell and a Dense.

How the network computes is its description: the update (--dynamics, --leak,
--nonlinearity), the readout (--readout rate: phi(state); state: the state itself) and the
output timing (--timing after / before the step's update). A state_dict does not say it:
give it, or --dynamics auto to find it from the model's own outputs. Without a description
the model is rolled out as the paper's discrete tanh RNN.

Proof before verdicts: when HELDOUT holds outputs (n, T, N_y), the model's own outputs on
its inputs with noise off, or the model is a torch module (whose forward computes them), the
full model rolled out as described must reproduce them within --tolerance (relative RMS);
otherwise the command writes nothing, says how far off the rollout is and which descriptions
do reproduce them, and exits with status 3. Without outputs the summary says "not verified".

Any other architecture (a custom cell, noise, a nonlinear readout) runs exactly as it computes:
--torch-module FILE.py:CLASS or package.module:CLASS (imported, which RUNS THAT CODE, before
any weight is checked: give only code you trust; built with --init-kwargs, or the kwargs the
checkpoint stores, and loaded with WEIGHTS) or a TorchScript file WEIGHTS, with --recurrent
naming the parameter that holds W_hh; each ablation swaps it for W~(S) and runs the module's
own forward on the held-out inputs (batch-first, or --time-first). When HELDOUT holds outputs,
that forward with W unchanged must reproduce them (else exit 3, naming the layout flag where
the other layout does). Its split needs naming: a description (or auto), or --split weights
(W_hh's own moduli). Checkpoints nested as other packages save them (nn4n's
{"model_state_dict", "kwargs"}, "state_dict", "model", "net") are read, the nesting named.

HELDOUT is an .npz with inputs (n, T, N_x), targets (n, T, N_y) and optionally mask ((n, T)
or (n, T, N_y); all ones when absent) and outputs. Nothing is loaded with pickle.

Writes into --out (refused if it holds results already, unless --force): schur.npz,
ablation.csv (all 8 subsets of {T_RR, T_C->R, T_CC} at every alpha), spectrum.csv,
verdicts.csv, subspace_control.csv, readout_refit.csv (with --fitting), verification.json,
summary.md, summary.html, profile.pdf and profile.png.
"""


def parser() -> argparse.ArgumentParser:
    """The command line; the analysis options' defaults are the config schema's."""
    from rnnschur.settings.schema import default

    p = argparse.ArgumentParser(
        prog="python -m rnnschur",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = p.add_subparsers(dest="command", required=True)
    a = commands.add_parser(
        "analyse",
        help="analyse one model",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    a.add_argument(
        "weights",
        type=Path,
        help="the model: .npz of arrays, a torch state_dict, a Keras or a Flax file",
    )
    a.add_argument(
        "heldout", type=Path, help="the held-out set: .npz of inputs, targets, mask, outputs"
    )
    a.add_argument("--out", type=Path, required=True, help="folder for the results (created)")
    a.add_argument(
        "--force", action="store_true", help="replace the results of an earlier run in --out"
    )
    a.add_argument(
        "--score",
        choices=("fvu", "accuracy"),
        default="fvu",
        help="fvu: fraction of variance unexplained over the masked entries (eq. 7); "
        "accuracy: sign agreement of outputs and targets over the masked entries (default fvu)",
    )
    a.add_argument(
        "--alpha",
        type=float,
        default=default("alpha"),
        help="threshold of the R/C split: a block is in R where the modulus --split reads is "
        "at least α times its largest, |λ| ≥ α ρ(W) for a discrete network (%(default)s)",
    )
    a.add_argument(
        "--alpha-grid",
        type=float,
        nargs="+",
        default=list(default("alpha_grid")),
        help="every alpha at which all 8 subsets are scored (must include --alpha; %(default)s)",
    )
    a.add_argument(
        "--epsilon",
        type=float,
        default=default("ablation.epsilon"),
        help="ε of the ε-stabilizer test d_D ≤ ε, d_D the mean squared output change (%(default)s)",
    )
    a.add_argument(
        "--mass-floor",
        type=float,
        default=default("ablation.mass_floor"),
        help="an ε-stabilizer is a candidate invariance only above this removed mass (%(default)s)",
    )
    a.add_argument(
        "--threshold",
        type=float,
        default=default("verdicts.threshold"),
        help="θ: a block is a fragile direction when its removal takes more than this share "
        "of the learned performance (1 − FVU, or the chance-corrected accuracy; %(default)s)",
    )
    a.add_argument(
        "--dynamics",
        choices=(*KINDS, "auto"),
        help="the update: discrete h=φ(Wx+Wh+b); leaky h=(1-a)h+aφ(Wx+Wh+b); leaky_current "
        "z=(1-a)z+a(Wφ(z)+Wx+b); auto: the description that reproduces the model's own outputs "
        "(default: as the .npz says, else discrete)",
    )
    a.add_argument(
        "--leak", type=float, help="a = dt/τ in (0, 1] of a leaky update (needs --dynamics)"
    )
    a.add_argument("--nonlinearity", choices=NONLINEARITIES, help="φ (default tanh)")
    a.add_argument(
        "--readout",
        choices=("rate", "state"),
        help="what W_hy reads: rate φ(z) (default), or the current form's state z itself",
    )
    a.add_argument(
        "--timing",
        choices=("after", "before"),
        help="the output of step t is taken after its update (default) or before it",
    )
    a.add_argument(
        "--split",
        choices=("propagator", "weights"),
        help="order and split a leaky network's Schur blocks by |1-a+aλ| of its propagator "
        "(default with a description) or by W_hh's own |λ|",
    )
    a.add_argument(
        "--tolerance",
        type=float,
        default=1e-3,
        help="largest relative RMS error of the rollout against the model's own outputs (1e-3)",
    )
    a.add_argument(
        "--keys",
        help="map any layout: W_xh=KEY,W_hh=KEY,W_hy=KEY[,b_h=KEY+KEY,b_y=KEY,h0=KEY] "
        "(state_dict or .npz keys; '+' sums several)",
    )
    a.add_argument(
        "--recurrent",
        help="run a torch module as it computes: the name of its parameter holding W_hh "
        "(WEIGHTS: a TorchScript file, or a state_dict with --torch-module)",
    )
    a.add_argument(
        "--torch-module",
        help="FILE.py:CLASS or package.module:CLASS of the module whose state_dict WEIGHTS is; "
        "the file is imported, so its code runs",
    )
    a.add_argument("--init-kwargs", help="JSON object of CLASS's keyword arguments")
    a.add_argument(
        "--time-first",
        action="store_true",
        help="the module's forward takes (T, n, N_x) and returns (T, n, N_y) (default n first)",
    )
    a.add_argument("--initial-state", type=Path, help=".npz with h0 (N_h,); default zeros")
    a.add_argument(
        "--fitting",
        type=Path,
        help="a second set like HELDOUT on which to refit a ridge readout (readout_refit.csv)",
    )
    a.add_argument(
        "--name", help="the model's name in the summary (default: the module's class or WEIGHTS')"
    )
    a.add_argument(
        "--fixed-points",
        action="store_true",
        help="also find the fixed points, intact and with each coupling block removed "
        "(fixed_points.csv; not for --module)",
    )
    a.add_argument(
        "--seed",
        type=int,
        default=default("base_seed"),
        help="seed of the random controls of the subspace analysis (%(default)s, the "
        "workflow's base_seed)",
    )
    a.add_argument(
        "--threads",
        type=int,
        default=1,
        help="BLAS threads (1, as every workflow rule runs: the same tables byte for byte)",
    )
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if "numpy" not in sys.modules:  # run as a command: fix threads and kernels before NumPy
        threads = str(max(args.threads, 1))
        os.environ.update(
            {"OMP_NUM_THREADS": threads, "OPENBLAS_NUM_THREADS": threads, **PORTABLE_KERNELS}
        )
    from rnnschur import io
    from rnnschur.external import api, saving, verify
    from rnnschur.external.settings import Settings

    try:  # before any file is read or module imported: the settings alone
        Settings(**settings_of(args))  # α in its grid, once each
        verify.check_tolerance(args.tolerance)
    except (TypeError, ValueError) as error:
        print(f"error: {as_flags(str(error))}", file=sys.stderr)
        return 2

    try:
        saving.refuse_earlier_results(args.out, args.force)
        print(f"reading {args.weights} and {args.heldout}")
        model = args.weights
        if args.torch_module or args.recurrent:
            from rnnschur.external import torch_module

            if not args.recurrent:
                raise io.ArtifactError("--torch-module needs --recurrent PARAMETER (W_hh)")
            model = torch_module.load_module(
                args.weights, args.torch_module, args.init_kwargs, progress=print
            )
        result = api.analyse(
            model,
            args.heldout,
            description_of(args),
            recurrent=args.recurrent,
            keys=args.keys,
            time_first=args.time_first,
            initial_state=args.initial_state,
            fitting=args.fitting,
            name=args.name or (None if args.torch_module else args.weights.stem),
            tolerance=args.tolerance,
            progress=lambda line: print(as_flags(line)),
            **settings_of(args),
        )
        files = result.save(args.out, force=args.force)
    except verify.RolloutMismatch as error:
        print(f"error: {args.weights}: {as_flags(str(error))}", file=sys.stderr)
        return EXIT_MISMATCH
    except (io.ArtifactError, FileExistsError, saving.OutFolderError) as error:
        print(f"error: {as_flags(str(error))}", file=sys.stderr)
        return 2
    except (TypeError, ValueError) as error:
        print(f"error: {args.weights}: {as_flags(str(error))}", file=sys.stderr)
        return 2
    print(f"wrote {len(files)} files to {args.out}; summary: {files['summary_md']}")
    return 0


def description_of(args):
    """The network's description as the flags give it, parsed once
    (:class:`rnnschur.network.dynamics.Description`)."""
    from rnnschur.network.dynamics import DESCRIPTION_TYPES, Description

    return Description(**{field: getattr(args, field) for field in DESCRIPTION_TYPES})


def settings_of(args) -> dict:
    return {
        "score": args.score,
        "alpha": args.alpha,
        "alpha_grid": tuple(args.alpha_grid),
        "epsilon": args.epsilon,
        "mass_floor": args.mass_floor,
        "threshold": args.threshold,
        "seed": args.seed,
        "fixed_points": args.fixed_points,
    }


if __name__ == "__main__":
    sys.exit(main())
