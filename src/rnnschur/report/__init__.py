"""What a reader sees, from the tidy tables: the figures (:mod:`.figures`), one model's views
(:mod:`.views`: spectrum, example trials) and the sentences that say what a table shows
(:mod:`.readings`)."""
