"""Plausible bugs planted one at a time in the science modules: do the unit tests catch them?

Each entry changes one thing in a copy of the source (a flipped sign, an off-by-one, a wrong
normaliser, a wrong block, a boundary) and runs ``pytest tests/unit -x`` against the copy; a bug
is caught when a test fails. Complements mutation testing (``bench/mutation.sh``), whose random
mutants include many that change nothing observable. About 5 minutes for all on 2 cores.

Usage: python bench/planted_bugs.py [--jobs 2] [--only N ...]
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
S = "src/rnnschur/"

# (file, text, replacement, what it breaks)
BUGS = [
    (
        S + "schur.py",
        "in_R = schur.block_moduli >= alpha * rho",
        "in_R = schur.block_moduli > alpha * rho",
        "R excludes |λ| = αρ (α = 1 leaves R empty)",
    ),
    (
        S + "schur.py",
        '"T_CR": in_R[:, None] & ~in_R[None, :]',
        '"T_CR": ~in_R[:, None] & in_R[None, :]',
        "T_C→R read as rows C, columns R",
    ),
    (
        S + "schur.py",
        '"T_CC": strictly_block_upper & ~in_R[:, None] & ~in_R[None, :]',
        '"T_CC": ~in_R[:, None] & ~in_R[None, :]',
        "T_CC includes the diagonal blocks of C",
    ),
    (
        S + "schur.py",
        "best = remaining[int(np.argmax(moduli))]",
        "best = remaining[int(np.argmin(moduli))]",
        "blocks ordered by increasing modulus",
    ),
    (
        S + "schur.py",
        "imag = np.sqrt(max(det - mean**2, 0.0))",
        "imag = np.sqrt(max(mean**2 - det, 0.0))",
        "wrong imaginary part of a 2×2 block",
    ),
    (
        S + "schur.py",
        "return int(np.sum(schur.block_sizes[in_R]))",
        "return int(np.sum(in_R))",
        "n_R counts blocks, not dimensions",
    ),
    (
        S + "ablation.py",
        "return W - schur.Q @ dT @ schur.Q.T",
        "return W + schur.Q @ dT @ schur.Q.T",
        "ΔT added instead of removed",
    ),
    (
        S + "ablation.py",
        "return np.where(chosen, T, 0.0)",
        "return np.where(chosen, 0.0, T)",
        "ΔT is the complement of the chosen blocks",
    ),
    (
        S + "ablation.py",
        '"delta_fvu": fvu[k] - fvu[full],',
        '"delta_fvu": fvu[full] - fvu[k],',
        "ΔFVU with the sign flipped",
    ),
    (
        S + "ablation.py",
        "s_delta_t = metrics.effect_per_mass(fvu - fvu[full], mass)",
        "s_delta_t = metrics.effect_per_mass(fvu, mass)",
        "S_ΔT from FVU instead of ΔFVU",
    ),
    (
        S + "ablation.py",
        '"candidate_invariance": eps_stabilizer and bool(mass[k] > scoring.mass_floor),',
        '"candidate_invariance": eps_stabilizer and bool(mass[k] < scoring.mass_floor),',
        "candidate invariance below the mass floor",
    ),
    (
        S + "tasks/metrics.py",
        'axes = (0, 1) if mean == "pooled" else (0,)',
        "axes = (0, 1)",
        "the FVU's per-step mean pooled over the steps",
    ),
    (
        S + "studies/paper/gap_study.py",
        "return min(abs(float(np.log10(value / target))), LOG_CAP)",
        "return min(float(np.log10(value / target)), LOG_CAP)",
        "the gap ranking's distance signed (below the paper counts as near)",
    ),
    (
        S + "tasks/metrics.py",
        "total = (((targets - y_bar) ** 2) * weight).sum()",
        "total = ((targets**2) * weight).sum()",
        "FVU normalised by E‖y‖², not the variance",
    ),
    (
        S + "tasks/metrics.py",
        "return (values.mean(axis=-1) * mask).sum(axis=(-2, -1)) / mask.sum()",
        "return (values.mean(axis=-1) * mask).sum(axis=(-2, -1)) / mask.size",
        "masked mean divided by every step",
    ),
    (
        S + "tasks/metrics.py",
        "return np.linalg.norm(delta_T, axis=(-2, -1)) / np.linalg.norm(T)",
        "return (np.linalg.norm(delta_T, axis=(-2, -1)) / np.linalg.norm(T)) ** 2",
        "removed mass squared",
    ),
    (
        S + "tasks/metrics.py",
        "return masked_mean((outputs - reference) ** 2, mask)",
        "return masked_mean(np.abs(outputs - reference), mask)",
        "d_D as mean absolute difference",
    ),
    (
        S + "network/rnn.py",
        "W_T = np.ascontiguousarray(np.swapaxes(W_hh, -1, -2), dtype=dtype)",
        "W_T = np.ascontiguousarray(W_hh, dtype=dtype)",
        "h W instead of h Wᵀ (W_hh transposed)",
    ),
    (
        S + "network/rnn.py",
        "            h = s if a == 1 else (1 - a) * h + a * s\n"
        "            if not before:\n"
        "                emit(t, h)\n",
        "            if not before:\n"
        "                emit(t, h)\n"
        "            h = s if a == 1 else (1 - a) * h + a * s\n",
        "output read from h_{t−1} (off by one step)",
    ),
    (
        S + "tasks/copy.py",
        "replay = np.arange(n_lags) % n_symbols",
        "replay = (np.arange(n_lags) + 1) % n_symbols",
        "replay starts at the second symbol",
    ),
    (
        S + "tasks/flip_flop.py",
        "first = np.full((n, n_bits - 1), 1 + grace)",
        "first = np.full((n, n_bits - 1), grace)",
        "first pulses one step closer than the source's",
    ),
    (
        S + "tasks/context_integration.py",
        "targets[:, decision_start:, 0] = np.sign(coherence[np.arange(n), context])[:, None]",
        "targets[:, decision_start:, 0] = np.sign(coherence[np.arange(n), 1 - context])[:, None]",
        "reports the uncued stream",
    ),
    (
        S + "tasks/sine.py",
        "targets = np.sin(2 * np.pi * frequency(x, freq_min, freq_range)[:, None] * t)[..., None]",
        "targets = np.sin(np.pi * frequency(x, freq_min, freq_range)[:, None] * t)[..., None]",
        "sine at half the cued frequency",
    ),
    (
        S + "tasks/romo.py",
        "choice = np.where(f[:, 0] > f[:, 1], 1.0, -1.0)[:, None]",
        "choice = np.where(f[:, 0] < f[:, 1], 1.0, -1.0)[:, None]",
        "Romo reports the smaller stimulus",
    ),
    (
        S + "tasks/ready_set_go.py",
        "start = set_end + interval - pulse_width // 2  # the bump g",
        "start = set_end + interval - pulse_width // 2 + 1  # the bump g",
        "bump one step late",
    ),
    # Added with 0.4.0: the claims' statistics, offsets of a model trained elsewhere, the
    # state_dict conversion, per-trial FVU, the network families, training and NeuroGym.
    (
        S + "studies/stats.py",
        "stats.ttest_1samp(values, 0.0).confidence_interval(1 - level)",
        "stats.ttest_1samp(values, 0.0).confidence_interval(1 - 2 * level)",
        "the two-sided t interval at twice its error level",
    ),
    (
        S + "studies/stats.py",
        "    return float(max(above, below))",
        "    return float(min(above, below))",
        "equivalence shown by one of its two one-sided tests",
    ),
    (
        S + "studies/paper/claim_tests.py",
        "        if low > claim.bound:\n            return Verdict.HOLDS",
        "        if high > claim.bound:\n            return Verdict.HOLDS",
        "a 'greater' claim holds when the interval merely reaches past the bound",
    ),
    (
        S + "studies/paper/claim_tests.py",
        "        if low > claim.bound or high < -claim.bound:",
        "        if low > claim.bound and high < -claim.bound:",
        "a 'within' claim never fails",
    ),
    # Added with the one scale: the harm share, the mass floor, the bound, the power.
    (
        S + "studies/verdicts.py",
        "share = np.where(p_full > 0, (p_full - p_ablated) / p_full, np.nan)",
        "share = np.where(p_full > 0, p_full - p_ablated, np.nan)",
        "harm share not divided by the learned performance (the raw Δ)",
    ),
    (
        S + "studies/verdicts.py",
        'CHANCE = {"accuracy": 0.5, "choice": 0.0}',
        'CHANCE = {"accuracy": 0.0, "choice": 0.0}',
        "sign accuracy's chance taken as 0",
    ),
    (
        S + "studies/verdicts.py",
        "    elif float(np.mean(mass_removed)) < thresholds.mass_floor:",
        "    elif float(np.mean(mass_removed)) == 0:",
        "a block below the mass floor called harmless, not empty",
    ),
    (
        S + "studies/verdicts.py",
        "    elif low > theta:",
        "    elif low > theta + 1e-3:",
        "the fragile bound moved by 1e-3",
    ),
    (
        S + "studies/stats.py",
        "    quantiles = stdtrit(n - 1, 1 - level / 2) + stdtrit(n - 1, power)",
        "    quantiles = stdtrit(n - 1, 1 - level / 2)",
        "minimum detectable effect without the power term",
    ),
    (
        S + "studies/verdicts.py",
        "    return Verdict.UNDERPOWERED if not minimum_effect <= margin else Verdict.ON_THRESHOLD",
        "    return Verdict.ON_THRESHOLD if not minimum_effect <= margin else Verdict.UNDERPOWERED",
        "underpowered and on the threshold swapped",
    ),
    (
        S + "studies/verdicts.py",
        "    meets = low <= paper_value + precision and paper_value - precision <= high",
        "    meets = low <= paper_value + precision",
        "a paper value above the interval agrees",
    ),
    (
        S + "studies/paper/gap_study.py",
        'EFFECTS = ("delta_fvu",)',
        'EFFECTS = ("delta_fvu", "s_delta_t")',
        "the ranking counts each ablation twice (ΔFVU and S_ΔT)",
    ),
    (
        S + "studies/paper/claim_tests.py",
        "return sum(math.comb(n, k) for k in range(n_agree, n + 1)) / 2**n if n else np.nan",
        "return sum(math.comb(n, k) for k in range(n_agree + 1, n + 1)) / 2**n if n else np.nan",
        "sign test P(more than n_agree) instead of P(at least n_agree)",
    ),
    (
        S + "network/rnn.py",
        "drive = inputs @ W_xh.T if b_h is None else inputs @ W_xh.T + b_h",
        "drive = inputs @ W_xh.T",
        "hidden bias ignored",
    ),
    (
        S + "network/rnn.py",
        "        h += np.asarray(h0, dtype=dtype)",
        "        h += 0 * np.asarray(h0, dtype=dtype)",
        "initial state ignored",
    ),
    (
        S + "network/rnn.py",
        "        outputs += np.asarray(b_y, dtype=dtype)",
        "        outputs -= np.asarray(b_y, dtype=dtype)",
        "output bias subtracted",
    ),
    (
        S + "external/convert.py",
        "present = [prefix + b for b in biases if prefix + b in state]",
        "present = [prefix + b for b in biases[:1] if prefix + b in state]",
        "state_dict conversion keeps one of the two hidden biases",
    ),
    (
        S + "external/convert.py",
        '        if key.endswith(("weight_hh_l0", "weight_hh")):',
        '        if key.endswith("weight_hh"):',
        "an nn.GRU or nn.LSTM state_dict not refused as gated",
    ),
    (
        S + "external/convert.py",
        'layers = sorted(k for k in state if re.search(r"weight_hh_l[1-9]\\d*$", k))',
        'layers = sorted(k for k in state if re.search(r"weight_hh_l[2-9]\\d*$", k))',
        "a two-layer RNN read as its first layer",
    ),
    (
        S + "external/arrays.py",
        "        not gates or keys is not None,",
        "        True,",
        "PsychRNN's LSTM file read as a Basic RNN (its unused W_rec)",
    ),
    (
        S + "external/reading.py",
        '    convert.refuse_unreadable(f"torch module {name}", state)',
        "    pass",
        "a live GRU module run as it computes (recurrent=) with its stacked gates",
    ),
    (
        S + "external/keras_file.py",
        '    model = {"W_xh": cell[0].T, "W_hh": cell[1].T, "W_hy": readout[0].T}',
        '    model = {"W_xh": cell[0].T, "W_hh": cell[1], "W_hy": readout[0].T}',
        "a Keras recurrent_kernel read untransposed (x·W taken as W x)",
    ),
    (
        S + "external/flax_file.py",
        '        "W_hh": recurrent.T,',
        '        "W_hh": recurrent,',
        "a Flax SimpleCell's recurrent kernel read untransposed",
    ),
    (
        S + "tasks/metrics.py",
        "    count = weight.sum(axis=1, keepdims=True)",
        "    count = weight.sum(axis=1, keepdims=True) + 1",
        "per-trial FVU: the trial mean over one step too many",
    ),
    (
        S + "network/rnn.py",
        "            h = s if a == 1 else (1 - a) * h + a * s",
        "            h = s if a == 1 else a * h + (1 - a) * s",
        "leaky rollout with the leak swapped",
    ),
    (
        S + "network/rnn.py",
        "            z = (1 - a) * z + a * (drive[t] + rate @ W_T)",
        "            z = (1 - a) * z + a * (drive[t] + z @ W_T)",
        "current form recurs on z, not φ(z)",
    ),
    (
        S + "training/bptt.py",
        "                leak_carry = (1.0 - a) * e\n            e *= slope[:, t]",
        "                leak_carry = a * e\n            e *= slope[:, t]",
        "BPTT of the rate form: wrong leak term",
    ),
    (
        S + "network/dynamics.py",
        "        return (s > 0) * 1.0",
        "        return (s >= 0) * 1.0",
        "relu' = 1 at zero rate",
    ),
    (
        S + "network/dynamics.py",
        "    return (1.0 - leak) + leak * eigenvalues",
        "    return leak + (1.0 - leak) * eigenvalues",
        "propagator eigenvalues with the leak swapped",
    ),
    (
        S + "training/optimiser.py",
        "            v += (1 - b2) * (g * g)",
        "            v += (1 - b2) * g",
        "Adam's second moment of g, not g²",
    ),
    (
        S + "training/optimiser.py",
        "    factor = max_norm / (norm + 1e-6)",
        "    factor = max_norm / (norm * norm + 1e-6)",
        "clipping by the squared norm",
    ),
    (
        S + "training/bptt.py",
        "            d_out[k] *= weight[k] / counts[k]",
        "            d_out[k] *= 1.0 / counts[k]",
        "cross-entropy gradient on the padding too",
    ),
    (
        S + "tasks/_neurogym.py",
        "    truth = np.argmax(targets, axis=-1)",
        "    truth = np.argmin(targets, axis=-1)",
        "choice score against the wrong action",
    ),
    (
        S + "tasks/_neurogym.py",
        "                mask[trials.start_ind[period] : trials.end_ind[period]] = 1",
        "                mask[trials.start_ind[period] : trials.end_ind[period] + 1] = 1",
        "response mask one step too long",
    ),
    (
        S + "external/result.py",
        "value >= MISUSE_FVU if",
        "value >= 10 * MISUSE_FVU if",
        "misuse warning only at FVU 5",
    ),
    (
        S + "tasks/flip_flop.py",
        "    ready = (last >= 0) & (steps - (last >> 1) >= grace)",
        "    ready = (last >= 0) & (steps - last >= grace)",
        "flip-flop grace counted from the packed code, not the last pulse's step",
    ),
    (
        S + "tasks/flip_flop.py",
        "np.where(pulses != 0, 2 * steps + (pulses > 0), -1)",
        "np.where(pulses != 0, 2 * steps + (pulses < 0), -1)",
        "flip-flop targets hold the opposite sign",
    ),
    # Added with 0.5.0: the Cayley map's gradients written out.
    (
        S + "training/cayley.py",
        "    grad_K = -(M.T @ grad_O @ (O.T + _identity(O)))",
        "    grad_K = M.T @ grad_O @ (O.T + _identity(O))",
        "Cayley gradient of K with the wrong sign",
    ),
    (
        S + "training/cayley.py",
        "    grad_O = grad_W @ O @ D.T + grad_W.T @ O @ D",
        "    grad_O = grad_W @ O @ D.T",
        "Cayley gradient of O without the term of Oᵀ",
    ),
    (
        S + "training/cayley.py",
        "    grad_b = grad_D[first + 1, first] - grad_D[first, first + 1]",
        "    grad_b = grad_D[first, first + 1] - grad_D[first + 1, first]",
        "Cayley gradient of a pair's imaginary part with the wrong sign",
    ),
    (
        S + "training/cayley.py",
        "    D[first, first + 1] = -d_pair[:, 1]",
        "    D[first, first + 1] = d_pair[:, 1]",
        "Cayley pair block symmetric (real eigenvalues a ± b)",
    ),
    (
        S + "tasks/__init__.py",
        "n, T, N_x = len(picked), int(lengths.max()), self.observations.shape[1]",
        "n, T, N_x = len(picked), int(lengths.max()) + 1, self.observations.shape[1]",
        "a batch cut from trials drawn once padded one step longer than draw pads it",
    ),
    (
        S + "training/train.py",
        "batch = run.trials.batch((step - 1) * settings.batch_size, step * settings.batch_size)",
        "batch = run.trials.batch(step * settings.batch_size, (step + 1) * settings.batch_size)",
        "the training trials drawn once read from batch 1 (batch 0 skipped)",
    ),
    (
        S + "studies/verdicts.py",
        "pi_half = stdtrit(k - 2, 1 - thresholds.level / 2)",
        "pi_half = stdtrit(k - 1, 1 - thresholds.level / 2)",
        "the across-task prediction interval with k - 1 degrees of freedom",
    ),
    (
        S + "studies/verdicts.py",
        "v = np.maximum(s2, pooled) / n",
        "v = s2 / n",
        "a task whose seeds agree exactly outweighs every other task",
    ),
    (
        S + "studies/verdicts.py",
        "and any(high < theta for _, high in own)",
        "",
        "task-restricted without a task below θ",
    ),
    (
        S + "studies/verdicts.py",
        "if p_heterogeneity < thresholds.level and spread > abs(abs(mean) - theta):",
        "if spread > abs(abs(mean) - theta):",
        "'varies across tasks' without Cochran's Q rejecting equal tasks",
    ),
    (
        S + "studies/verdicts.py",
        "spread = ndtri(1 - thresholds.level / 2) * tau",
        "spread = ndtri(1 - thresholds.level / 2) * tau + 1e-3",
        "the 'varies across tasks' bound moved by 1e-3",
    ),
    (
        S + "studies/verdicts.py",
        "return float(pi_half + stdtrit(k - 1, power) * se)",
        "return float(pi_half)",
        "the across-task MDE without its power term",
    ),
    (
        S + "studies/paper/claim_tests.py",
        "DATA if b.startswith(IMPLIED) and verdict.get(b[len(IMPLIED) :]) != Verdict.HOLDS else b",
        "b",
        "a consequence counted apart where its premise fails",
    ),
    (
        S + "studies/solutions.py",
        "    if low > threshold:",
        "    if low > threshold + 1e-3:",
        "a solution is fragile only 1e-3 above θ",
    ),
    (
        S + "studies/solutions.py",
        "    if not mass_removed >= mass_floor:",
        "    if not mass_removed > mass_floor:",
        "a block at the mass floor read as absent",
    ),
    (
        S + "studies/stats.py",
        "[100 * level / 2, 100 * (1 - level / 2)]",
        "[100 * level, 100 * (1 - level)]",
        "the bootstrap interval at twice its error level",
    ),
    (
        S + "studies/solutions.py",
        "    residual = (((outputs - targets) ** 2) * w).sum(axis=(-2, -1))  # (K, n)",
        "    residual = (((outputs - targets[::-1]) ** 2) * w).sum(axis=(-2, -1))  # (K, n)",
        "the networks scored on other trials than the targets of the resample",
    ),
    (
        S + "studies/solutions.py",
        "(C @ first) ** 2 / np.maximum(C @ weight, 1)",
        "(C @ first) ** 2 / np.maximum(C @ weight, 1) * 0",
        "a resample's FVU normalised around the whole set's mean, not its own",
    ),
    (
        S + "external/saving.py",
        "signal.signal(s, lambda signum, frame: arrived.append(signum)) for s in DEFERRED}",
        "signal.signal(s, lambda signum, frame: arrived.append(signum)) for s in ()}",
        "a save's swap not shielded from SIGINT and SIGTERM",
    ),
    (
        S + "external/saving.py",
        "        _roll_back(out, previous)\n        shutil.rmtree(previous)\n",
        "        shutil.rmtree(previous)\n",
        "the swap a SIGKILL cut left half done by the next save",
    ),
    (
        S + "studies/solutions.py",
        "            fvu[(C @ where.T) > 0] = value",
        "            fvu[(C @ where.T) > 1] = value",
        "a resample that picks a diverged trial once read as finite",
    ),
    (
        S + "studies/paper/reproduction.py",
        "    if k / n >= reproduces:",
        "    if k / n > reproduces:",
        "a claim at exactly the rule's share does not reproduce",
    ),
    (
        S + "studies/paper/reproduction.py",
        "    if n < max(min_models, 1):",
        "    if n == 0:",
        "a word from fewer tested solutions than min_models",
    ),
    (
        "workflow/lib/config_checks.py",
        "HELDOUT_BYTES = 10\n",
        "HELDOUT_BYTES = 1\n",
        "a held-out set too large for any job accepted",
    ),
    (
        S + "studies/paper/reproduction.py",
        "reading(low, high, mass, threshold, mass_floor)",
        "reading(low, high, mass, threshold, threshold)",
        "the sensitivity's re-reading ignores the changed mass floor",
    ),
    (
        S + "studies/stats.py",
        "    low = beta.ppf(level / 2, k, n - k + 1) if k > 0 else 0.0",
        "    low = beta.ppf(level / 2, k, n - k) if k > 0 else 0.0",
        "the Clopper–Pearson lower bound from the wrong beta",
    ),
    (
        S + "studies/paper/reproduction.py",
        "statistic > claim.bound + (claim.margin or 0.0)",
        "statistic > claim.bound",
        "a tie within the margin counted as the paper's ordering",
    ),
    (
        S + "studies/paper/reproduction.py",
        "        n = len(said) - n_absent",
        "        n = len(said)",
        "solutions without the block counted as tested",
    ),
    (
        S + "tasks/functional.py",
        "    return weight * (targets != 0)",
        "    return weight * 1.0",
        "steps of no bit or no decision scored as bits",
    ),
    (
        S + "tasks/functional.py",
        "(np.abs(dominant_frequency(outputs) - wanted) / wanted)",
        "(np.abs(dominant_frequency(outputs) - wanted) / dominant_frequency(outputs))",
        "the frequency error relative to the output's frequency",
    ),
    # Networks as their packages save them: PsychRNN's file, nn4n's kwargs, the likely causes.
    (
        S + "external/arrays.py",
        '        out["h0"] = out["h0"][0]',
        '        out["h0"] = out["h0"][0] * 0.0',
        "PsychRNN's (1, N) initial state read as zeros",
    ),
    (
        S + "external/arrays.py",
        '    "b_h": "b_rec",',
        '    "b_h": "b_out",',
        "PsychRNN's recurrent bias read from its output bias",
    ),
    (
        S + "external/arrays.py",
        '    objects = [k for k in wanted if kinds[k] == "O"]',
        "    objects = []",
        "an entry of Python objects the model needs is not refused",
    ),
    (
        S + "external/torch_module.py",
        '        leak=float(settings["dt"]) / float(settings["tau"]),',
        '        leak=float(settings["tau"]) / 1000.0,',
        "nn4n's leak not dt/τ",
    ),
    (
        S + "external/verify.py",
        '    if "h0" not in network.offsets:',
        '    if "h0" in network.offsets:',
        "the initial state named as a cause where the model has one",
    ),
    (
        S + "external/heldout.py",
        "            spread > CONSTANT * max(scale, np.finfo(float).tiny),",
        "            spread > 0.0,",
        "constant targets scored when rounding leaves them a variance",
    ),
    (
        S + "external/heldout.py",
        "            bool(np.all(np.abs(values) == 1.0)),",
        "            bool(np.all(np.abs(values) <= 1.0)),",
        "0/1 targets scored by sign accuracy",
    ),
    # Added with the boundaries a hostile reader named: the across-task estimate's variance
    # floor and its Hartung–Knapp factor, and a zero output read as a sign.
    (
        S + "studies/verdicts.py",
        "v = np.maximum(s2, pooled) / n",
        "v = s2 / n",
        "the across-task estimate without its variance floor",
    ),
    (
        S + "studies/verdicts.py",
        "hk = np.sqrt(max(np.sum(w * (y - mu) ** 2) / (k - 1), 1.0) / np.sum(w))",
        "hk = np.sqrt(1.0 / np.sum(w))",
        "the across-task interval without its Hartung–Knapp factor",
    ),
    (
        S + "tasks/metrics.py",
        "return masked_mean(np.sign(outputs) == targets, mask)",
        "return masked_mean(np.where(outputs == 0, targets, np.sign(outputs)) == targets, mask)",
        "an output of exactly 0 counted as the right sign",
    ),
    # The fixed points: the Jacobian and the map they are found on.
    (
        S + "studies/fixed_points.py",
        "    J = slopes[:, :, None] * W\n",
        "    J = np.ones_like(slopes)[:, :, None] * W\n",
        "the φ′ factor dropped from the Jacobian",
    ),
    (
        S + "studies/fixed_points.py",
        "        new = (1 - a) * S + a * phi(dynamics, z, out=z)",
        "        new = phi(dynamics, z, out=z)",
        "the leak ignored by the map (a leaky network run as a discrete one)",
    ),
    (
        S + "studies/fixed_points.py",
        "a * W * slopes[:, None, :]",
        "a * W * slopes[:, :, None]",
        "the current form's Jacobian with φ′ on the wrong side of W",
    ),
    (
        S + "studies/fixed_points.py",
        "        if distance <= match or same_signs:",
        "        if distance <= match:",
        "a moved attractor counted as lost",
    ),
    # The attractors that are not points, and what an ablation breaks in them.
    (
        S + "studies/attractors.py",
        "np.sqrt(squared.min(axis=i) / N).mean(axis=1) for i in (2, 1)",
        "np.sqrt(np.diagonal(squared, 0, 1, 2) / N).mean(axis=1) for i in (2, 1)",
        "a cycle found at another phase counted as another cycle",
    ),
    (
        S + "studies/attractors.py",
        "(p + shift) / T, np.nan)",
        "p / T, np.nan)",
        "an oscillation's frequency read at its spectrum's bin, not interpolated",
    ),
    (
        S + "studies/breaks.py",
        "expected[bit] = int(np.sign(x[bit]))",
        "expected[bit] = -int(np.sign(x[bit]))",
        "a flip-flop pulse expected to set its bit to the opposite sign",
    ),
    (
        S + "studies/breaks.py",
        "            p.signs == r.signs,",
        "            True,",
        "an attractor with other readout signs counted as moved, not lost",
    ),
    (
        S + "studies/breaks.py",
        'return "kept" if 0 in shifts else "drift" if shifts else "changed"',
        'return "kept" if shifts else "changed"',
        "a replay shifted in phase counted as kept",
    ),
    (
        S + "studies/attractors.py",
        "    return np.abs(a - b) <= 2 / WINDOW",
        "    return np.abs(a - b) <= 4 / WINDOW",
        "an orbit at another frequency taken for a known oscillation",
    ),
    (
        S + "studies/attractors.py",
        'out[i] = LimitSet("oscillation", 0, limit.frequency, limit.states, end)',
        'out[i] = LimitSet("oscillation", 0, limit.frequency, orbit[-64:], end)',
        "an orbit on a known oscillation keeps its own states (an attractor of its own)",
    ),
    (
        S + "studies/attractors.py",
        "closing = (end[near] < middle) | (end[near] <= TOLERANCE)",
        "closing = np.ones(len(near), bool)",
        "an orbit leaving a proven point taken to close on it",
    ),
    (
        S + "studies/attractors.py",
        "out[i] = LimitSet(limit.kind, limit.period, limit.frequency, limit.states, end)",
        "out[i] = LimitSet(limit.kind, limit.period, limit.frequency, orbit[-1:], end)",
        "an orbit closing on a proven point keeps its own states",
    ),
    (
        S + "studies/attractors.py",
        "                if limit.period < entry[0].period:  # the cycle's own period",
        "                if False:",
        "a cycle read at period 4 first keeps that period when read at 2 after",
    ),
    (
        S + "studies/attractors.py",
        "        if len(hits) and attracts(index):  # no orbit joins a saddle",
        "        if len(hits):",
        "an orbit passing a proven saddle joins it",
    ),
    (
        S + "studies/attractors.py",
        "same, within = same and long % short == 0, SAME_CYCLE",
        "same, within = same and long % short == 0, tolerance",
        "a period-doubled cycle merged into the cycle of half its period",
    ),
    (
        S + "studies/paper/confirmation.py",
        'if r["word"] == Verdict.UNTESTABLE:  # fewer tested than a word needs',
        'if r["k"] == 0:',
        "a confirmation with no fresh solution showing the claim read as untestable",
    ),
    (
        S + "studies/paper/confirmation.py",
        'inside = bool(r["cp_low"] <= share <= r["cp_high"])',
        'inside = bool(r["cp_low"] <= share < r["cp_high"])',
        "a predicted fraction at the fresh interval's upper end (1) read as outside it",
    ),
    # The dose-response's spectrum-keeping controls.
    (
        S + "studies/beyond/dose_summary.py",
        '            "control_harm": judged.groupby(keys)["harm"].mean(),',
        '            "control_harm": controls.groupby(keys)["harm"].mean(),',
        "the verdicts' control taken over every kind, not the removal alone",
    ),
    (
        S + "studies/beyond/dose_response.py",
        "    R = np.where(mask, R, 0.0)\n",
        "",
        "the rotated block left outside its positions (it fills T's lower triangle)",
    ),
    (
        S + "ablation.py",
        "        R[order[last]] = np.sign(values[last]) * np.sqrt(max(norm**2 - before, 0.0))",
        "        R[order[last]] = np.sqrt(max(norm**2 - before, 0.0))",
        "the last removed coupling shrunk with the wrong sign",
    ),
    # Task restriction, solution by solution.
    (
        S + "studies/restriction.py",
        "    elif stabilizer / n >= mostly:",
        "    elif stabilizer / n > mostly:",
        "a task with exactly the 'mostly' share of stabilizers read undecided",
    ),
    (
        S + "studies/restriction.py",
        "        if len(tested) < 2:",
        "        if len(tested) < 1:",
        "one task tested read as a word across tasks",
    ),
    (
        S + "studies/paper/reproduction.py",
        '    return float((rows["reading"] == Verdict.BASIS_DEPENDENT).any())',
        '    return float((rows["reading"] == Verdict.BASIS_DEPENDENT).all())',
        "a solution basis-dependent only if every block it reads is",
    ),
    (
        S + "studies/paper/claim_tests.py",
        'return {b for subset in subsets for b in subset.split("+") if b in BASIS_BLOCKS}',
        'return {b for subset in subsets for b in subset.split("+") if b != "none"}',
        "removing T_C→R counted as hanging on an order inside R or C",
    ),
    (
        S + "studies/paper/reproduction.py",
        "        words = next((c.words for c in claims if c.claim_id == other), other)",
        "        words = other",
        "an implied claim named by the other claim's internal id",
    ),
    (
        S + "studies/beyond/dose_response.py",
        "    return R * (norm / np.linalg.norm(R, 2))",
        "    return R * (norm / np.linalg.norm(R))",
        "the operator-norm control matched in Frobenius norm",
    ),
    (
        S + "studies/beyond/dose_response.py",
        "                    stream = operator_rng if operator else rng",
        "                    stream = rng",
        "the operator-norm control draws from the other kinds' stream",
    ),
    (
        "docs/readings/beyond.py",
        "    lost = ahead[ahead[column] <= 0]",
        "    lost = ahead[ahead[column] < 0]",
        "a block that does as much as its operator-norm control counted as ahead",
    ),
    (
        S + "external/analysis.py",
        '    out = rows[["subset", "reading"]].rename(columns={"reading": "verdict"})',
        '    out = rows[["subset", "reading"]].replace("undecided", "fragile")'
        '.rename(columns={"reading": "verdict"})',
        "a user's network: an undecided reading called fragile",
    ),
    (
        S + "studies/beyond/summaries.py",
        '        at_alpha = np.isclose(ablation["alpha"], alpha) & ablation["subset"].isin(',
        '        at_alpha = (ablation["alpha"] > 0) & ablation["subset"].isin(',
        "a model's basis-dependent reading at α flagged on its rows at every other α",
    ),
    (
        S + "studies/beyond/summaries.py",
        '"block"])["reading"] == Verdict.BASIS_DEPENDENT',
        '"block"])["reading"] != Verdict.ABSENT',
        "every present block's removal flagged basis-dependent in the ablation table",
    ),
    (
        S + "studies/restriction.py",
        "    if len(readings) < min_models:",
        "    if len(readings) < min_models - 1:",
        "a group of too few learned models worded by the solutions it has",
    ),
    (
        S + "studies/restriction.py",
        '        tested = group[~group["word"].isin(list(APART))]',
        '        tested = group[group["word"] != Verdict.ABSENT]',
        "a task of too few learned solutions counted in the word across tasks",
    ),
    (
        S + "studies/paper/claim_tests.py",
        "    return float(flags.astype(bool).any()) if len(flags) else np.nan",
        "    return float(flags.astype(bool).all()) if len(flags) else np.nan",
        "a claim's seed counted basis-dependent only where every block it reads is",
    ),
    (
        S + "external/analysis.py",
        "settings.n_boot, settings.seed, EXTERNAL, 0)",
        "settings.n_boot, settings.seed, name, 0)",
        "an external model's bootstrap drawn from its name (the workflow's stream is external)",
    ),
    (
        S + "external/settings.py",
        '    ablation = {**config["ablation"], "fvu_steps": "masked"}',
        '    ablation = {**config["ablation"], "fvu_steps": "all"}',
        "an external model scored on every step, not on its held-out set's own mask",
    ),
    (
        S + "studies/restriction.py",
        "    elif n < min_models:",
        "    elif n == 0:",
        "a block held by one or two solutions read as if enough held it",
    ),
    (
        S + "studies/paper/claim_tests.py",
        '    if "basis_dependent" not in model:  # the run did not check it\n        return np.nan',
        '    if "basis_dependent" not in model:  # the run did not check it\n        return 0.0',
        "a run that never checked the basis dependence counted as checked, none dependent",
    ),
    (
        "docs/readings/reproduction.py",
        '        full = rows[rows["word"] == Verdict.REPRODUCES]',
        '        full = rows[rows["word"] != Verdict.DOES_NOT]',
        "a claim that reproduces partly counted among those that reproduce, per task",
    ),
    (
        "docs/readings/reproduction.py",
        "    nearer = CLAIM_WORDS.index(fresh) < CLAIM_WORDS.index(predicted)",
        "    nearer = CLAIM_WORDS.index(fresh) > CLAIM_WORDS.index(predicted)",
        "a fresh word that moved away from the paper called nearer it",
    ),
    (
        S + "studies/beyond/atlas.py",
        'tested = group.loc[group["reading"] != Verdict.ABSENT, "harm_share"]',
        'tested = group["harm_share"]',
        "an atlas row's median harm taken over solutions where the block is absent too",
    ),
    (
        S + "external/settings.py",
        'epsilon: float = schema_field("ablation.epsilon")',
        'epsilon: float = schema_field("ablation.mass_floor")',
        "analyse()'s ε read from the mass floor's key (both 0.01 in the schema)",
    ),
    (
        S + "__main__.py",
        'default=default("ablation.mass_floor"),',
        'default=default("ablation.epsilon"),',
        "the command's --mass-floor defaulting to ε's key (both 0.01 in the schema)",
    ),
    (
        S + "settings/schema.py",
        "return tuple(value) if isinstance(value, list) else value",
        "return value",
        "a schema default that is a list given as a list (a Settings grid that is not a tuple)",
    ),
    (
        S + "ablation.py",
        "check_finite(outputs[full], network)",
        "None",
        "an overflowed float32 rollout (W_hy of 1e39) scored: verdicts read from NaN scores",
    ),
    (
        S + "studies/solutions.py",
        "diverged = np.isnan(ablated) & ~np.isnan(full)",
        "diverged = np.isnan(ablated)",
        "an intact network's NaN score read as every ablation diverged (fragile)",
    ),
    (
        S + "external/heldout.py",
        "math.isfinite(spread) and math.isfinite(scale),",
        "True,",
        "targets whose variance overflows told they do not vary",
    ),
    (
        S + "studies/paper/gap_study.py",
        '"description": text.csv_cell(description),',
        '"description": description,',
        "a variation's description written raw into the gap CSVs (=HYPERLINK runs)",
    ),
    (
        S + "studies/paper/gap_study.py",
        "if gaps.empty:",
        "if False:",
        "a gap study with no learned model crashes its ranking (KeyError 'task')",
    ),
    (
        S + "external/convert.py",
        "return from_state_dict(path, keys), stored_description(path)",
        "return from_state_dict(path, keys), None",
        "an nn4n checkpoint's stored kwargs ignored (rolled out as discrete tanh)",
    ),
    (
        S + "settings/schema.py",
        "if need <= ceiling:",
        "if need <= 3 * ceiling:",
        "N_h = 2000 analysed by the command without a memory warning",
    ),
    (
        "workflow/lib/instances.py",
        'if need > config["max_job_mem_mb"]:',
        'if need > 3 * config["max_job_mem_mb"]:',
        "an external model above max_job_mem_mb accepted",
    ),
    (
        "workflow/lib/instances.py",
        "if changed and not set(changed) & set(numbered):",
        "if False:",
        "a gap study with no number of the paper accepted (its table empty)",
    ),
]


def run(k: int | None) -> tuple[int, bool, str]:
    """(index, caught, first failing test) of bug ``k``; None: the source as it is."""
    path, old, new, _ = BUGS[k] if k is not None else (BUGS[0][0], "", "", "")
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        # the tracked tree as it is (the tests read the README, examples, bench, docs, ...)
        tracked = subprocess.run(
            ["git", "ls-files", "-z"], cwd=REPO, capture_output=True, text=True, check=True
        ).stdout.split("\0")
        for name in filter(None, tracked):
            if (REPO / name).is_file():
                (root / name).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(REPO / name, root / name)
        text = (root / path).read_text()
        if k is not None and text.count(old) != 1:
            raise ValueError(f"bug {k}: the text to change occurs {text.count(old)} times")
        (root / path).write_text(text.replace(old, new))
        result = subprocess.run(
            [
                *(
                    sys.executable,
                    "-m",
                    "pytest",
                    "tests/unit",
                    "-x",
                    "-q",
                    "-p",
                    "no:cacheprovider",
                ),
                # the test that each bug's text is there fails on every planted bug: not a catch
                "--deselect",
                "tests/unit/test_planted_bugs.py",
            ],
            cwd=root,
            env={"PYTHONPATH": str(root / "src"), "PATH": "/usr/bin:/bin", "OMP_NUM_THREADS": "1"},
            capture_output=True,
            text=True,
        )
    failed = [line for line in result.stdout.splitlines() if line.startswith("FAILED")]
    return k, result.returncode != 0, failed[0] if failed else ""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", type=int, nargs="*")
    args = parser.parse_args()
    chosen = args.only if args.only else range(len(BUGS))
    _, failed, test = run(None)
    if failed:
        raise SystemExit(f"the unit tests fail without a planted bug ({test}): fix that first")
    with ThreadPoolExecutor(args.jobs) as pool:
        results = sorted(pool.map(run, chosen))
    for k, caught, test in results:
        print(f"{k:2d} {'caught' if caught else 'MISSED'}  {BUGS[k][3]}  {test}")
    caught = sum(c for _, c, _ in results)
    print(f"caught {caught} of {len(results)}")


if __name__ == "__main__":
    main()
