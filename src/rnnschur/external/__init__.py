"""A user's own trained network: its arrays (:mod:`.arrays`), a torch state_dict or module
(:mod:`.convert`, :mod:`.torch_module`), its held-out set (:mod:`.heldout`), the proof that the
rollout reproduces it (:mod:`.verify`) and the analysis (:mod:`.analysis`; for notebooks
:func:`rnnschur.analyse`, :mod:`.api`). Nothing is imported with the package: torch only when a
torch file or module is read."""
