"""Command line: ``python -m rnnschur analyse WEIGHTS HELDOUT --out DIR``.

Runs the paper's Schur-coordinate ablations on a tanh RNN trained elsewhere, without Snakemake;
the workflow's ``external`` rules call the same functions and write the same files.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rnnschur import convert, external, io
from rnnschur.dynamics import DISCRETE, KINDS, NONLINEARITIES, SPLITS
from rnnschur.dynamics import resolve as resolve_dynamics

DESCRIPTION = """\
Ordered real Schur ablations of an RNN trained elsewhere (arXiv 2606.18457).

WEIGHTS is an .npz with W_xh (N_h, N_x), W_hh (N_h, N_h), W_hy (N_y, N_h) and optionally
b_h (N_h,), b_y (N_y,), h0 (N_h,) and the 0-d arrays dynamics, leak, nonlinearity; or a torch
state_dict file (.pt) of a one-layer nn.RNN or of the NeuroGym/Neuromatch tutorial CTRNN
(input2h, h2h) with an nn.Linear readout (fc, h2out, readout, output, linear; biases are used);
any other layout with --keys. The network family (--dynamics, --leak, --nonlinearity) is not
stored in a state_dict: give it, or the model is rolled out as the paper's discrete tanh RNN
(and a full-model score far from a working network is reported first).

Any other architecture (a custom cell, noise, a nonlinear readout) runs exactly as it computes:
--torch-module FILE.py:CLASS (built with --init-kwargs, loaded with the state_dict WEIGHTS) or
a TorchScript file WEIGHTS, with --recurrent naming the parameter that holds W_hh; each
ablation swaps it for W~(S) and runs the module's own forward on the held-out inputs
(batch-first, or --time-first; its outputs, or a tuple whose first item they are).

HELDOUT is an .npz with inputs (n, T, N_x), targets (n, T, N_y) and optionally mask ((n, T)
or (n, T, N_y); all ones when absent). Nothing is loaded with pickle.

Writes into --out: schur.npz, ablation.csv (all 8 subsets of {T_RR, T_C->R, T_CC} at every
alpha), spectrum.csv, verdicts.csv, subspace_control.csv, readout_refit.csv (with --fitting),
summary.md, summary.html, profile.pdf and profile.png.
"""


def parser() -> argparse.ArgumentParser:
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
    a.add_argument("weights", type=Path, help="the model: .npz of arrays, or a torch state_dict")
    a.add_argument("heldout", type=Path, help="the held-out set: .npz of inputs, targets, mask")
    a.add_argument("--out", type=Path, required=True, help="folder for the results (created)")
    a.add_argument(
        "--score",
        choices=external.SCORES,
        default="fvu",
        help="fvu: fraction of variance unexplained over the masked entries (eq. 7); "
        "accuracy: sign agreement of outputs and targets over the masked entries (default fvu)",
    )
    a.add_argument(
        "--alpha", type=float, default=0.9, help="threshold of the R/C split, |λ| ≥ α ρ(W) (0.9)"
    )
    a.add_argument(
        "--alpha-grid",
        type=float,
        nargs="+",
        default=[0.85, 0.9, 0.95],
        help="every alpha at which all 8 subsets are scored (must include --alpha)",
    )
    a.add_argument(
        "--epsilon",
        type=float,
        default=0.01,
        help="ε of the stabiliser test d_D ≤ ε, d_D the mean squared output change (0.01)",
    )
    a.add_argument(
        "--mass-floor",
        type=float,
        default=0.01,
        help="a stabiliser is a candidate invariance only above this removed mass (0.01)",
    )
    a.add_argument(
        "--fragile",
        type=float,
        default=0.1,
        help="a block is a fragile direction when its removal moves the score by this (0.1)",
    )
    a.add_argument(
        "--dynamics",
        choices=KINDS,
        help="the network family: discrete h=φ(Wx+Wh+b); leaky h=(1-a)h+aφ(Wx+Wh+b); "
        "leaky_current z=(1-a)z+a(Wφ(z)+Wx+b), read out through φ(z) (default: as the .npz "
        "says, else discrete)",
    )
    a.add_argument("--leak", type=float, help="a = dt/τ in (0, 1] of a leaky family (0.2)")
    a.add_argument("--nonlinearity", choices=NONLINEARITIES, help="φ (default tanh)")
    a.add_argument(
        "--split",
        choices=SPLITS,
        default="propagator",
        help="order and split a leaky network's Schur blocks by |1-a+aλ| of its propagator "
        "(default) or by W_hh's own |λ|",
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
    a.add_argument("--torch-module", help="FILE.py:CLASS of the module whose state_dict WEIGHTS is")
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
    a.add_argument("--name", help="the model's name in the summary (default: WEIGHTS' stem)")
    a.add_argument(
        "--seed",
        type=int,
        default=2606,
        help="seed of the random controls of the subspace analysis (2606, the workflow's)",
    )
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.alpha not in args.alpha_grid:
        print(f"error: --alpha {args.alpha} must be one of --alpha-grid", file=sys.stderr)
        return 2
    try:
        print(f"reading {args.weights} and {args.heldout}")
        route = module_inputs if args.recurrent or args.torch_module else native_inputs
        model, heldout, fitting, dynamics, module = route(args)
    except io.ArtifactError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except ValueError as error:
        print(f"error: {args.weights}: {error}", file=sys.stderr)
        return 2
    print(f"analysing it as {module[0] if module else f'a {dynamics.describe()} network'}")
    files = external.analyse(
        model,
        heldout,
        settings_of(args),
        args.out,
        args.name or args.weights.stem,
        fitting,
        dynamics=dynamics,
        module=module,
    )
    print(f"wrote {len(files)} files to {args.out}; summary: {files['summary_md']}")
    return 0


def native_inputs(args):
    """(model, held-out set, fitting set, family, None) of a model of the families."""
    keys = convert.parse_keys(args.keys) if args.keys else None
    model, heldout, fitting = external.load_inputs(
        convert.load_model_file(args.weights, keys),
        args.heldout,
        args.initial_state,
        args.fitting,
    )
    stored = io.load_dynamics(args.weights) if str(args.weights).endswith(".npz") else DISCRETE
    dynamics = resolve_dynamics(stored, args.dynamics, args.leak, args.nonlinearity, args.split)
    return model, heldout, fitting, dynamics, None


def module_inputs(args):
    """(W_hh, held-out set, None, family, (name, forward)) of a torch module run as it computes:
    the split uses the family's propagator if one is given."""
    from rnnschur import torch_module

    if not args.recurrent:
        raise ValueError("--torch-module needs --recurrent PARAMETER (W_hh)")
    net = torch_module.load_module(args.weights, args.torch_module, args.init_kwargs)
    W_hh = torch_module.recurrent_matrix(net, args.recurrent)
    shapes = {k: v.shape for k, v in io.load_npz(args.heldout, ("inputs", "targets")).items()}
    heldout = external.load_heldout(args.heldout, shapes["inputs"][-1], shapes["targets"][-1])
    forward = torch_module.module_forward(net, args.recurrent, not args.time_first)
    torch_module.check_forward(forward, W_hh, heldout, args.weights)
    dynamics = resolve_dynamics(DISCRETE, args.dynamics, args.leak, args.nonlinearity, args.split)
    name = args.torch_module.split(":")[-1] if args.torch_module else args.weights.name
    return {"W_hh": W_hh}, heldout, None, dynamics, (f"torch module {name}", forward)


def settings_of(args) -> external.Settings:
    return external.Settings(
        score=args.score,
        alpha=args.alpha,
        alpha_grid=tuple(args.alpha_grid),
        epsilon=args.epsilon,
        mass_floor=args.mass_floor,
        fragile_effect=args.fragile,
        seed=args.seed,
    )


if __name__ == "__main__":
    sys.exit(main())
