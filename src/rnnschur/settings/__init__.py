"""The settings every job reads: the config schema's keys and defaults
(:mod:`rnnschur.settings.schema`), one seed per job (:mod:`rnnschur.settings.seeds`) and the
numeric kernels (:mod:`rnnschur.settings.numerics`)."""
