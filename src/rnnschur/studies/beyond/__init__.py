"""The analyses the paper names but does not run, one module each, declared once in
:mod:`.registry` (the workflow derives its rules, summaries and figures from it): overlaps with
activity and readout subspaces against matched random controls (:mod:`.subspace`), a refit
readout (:mod:`.refit`), Schur against eigen coordinates (:mod:`.basis`), ablations along
training (:mod:`.along_training`), and their summaries over seeds (:mod:`.summaries`); and the
coupling atlas's table across tasks, network descriptions and sizes (:mod:`.atlas`)."""
