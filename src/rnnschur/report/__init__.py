"""What a reader sees, from the tidy tables: the figures (:mod:`.figures`), one model's views
(:mod:`.views`: spectrum, example trials) and the coupling atlas's own page (:mod:`.page`). The
published pages' sentences are written by docs/build_results.py (docs/readings/), not here."""
