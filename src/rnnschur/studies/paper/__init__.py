"""What the paper reports and how this reproduction tests it: its reported numbers
(:mod:`.reported`), its claims as statistics over seeds and the block profile (:mod:`.claims`),
Table 1, the paper-vs-reproduced and model tables (:mod:`.tables`) and the gap study, which
attributes each gap to a candidate cause (:mod:`.gap_study`; config key ``gap_study``)."""
