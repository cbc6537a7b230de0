"""The studies built on the method: verdicts and statistics, the paper's claims
(:mod:`rnnschur.studies.paper`), the analyses beyond it (:mod:`rnnschur.studies.beyond`), the
block profile, the task restriction, fixed points and attractors."""
