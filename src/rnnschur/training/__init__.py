"""Training the paper's networks: the training loop (:mod:`.train`), its loss and gradients by
backpropagation through time written out (:mod:`.bptt`), what a step updates and how
(:mod:`.optimiser`: the trained parameters, Adam, the clipping), the Cayley map
(:mod:`.cayley`), the initial recurrent matrices of each construction (:mod:`.constructions`:
the registry). The portable kernel settings every job runs with are
:mod:`rnnschur.settings.numerics`."""
