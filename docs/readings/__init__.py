"""What a run's tables say, in sentences generated from them with their numbers (the pages
under docs/results/ and the marked blocks of README and the docs pages): the count behind
every statement, so the words cannot outrun the table. Page-building code of
docs/build_results.py, not the library's: one module per part of the document."""

from .beyond import (
    basis_dependence_reading,
    basis_reading,
    checkpoint_reading,
    dose_reading,
    refit_reading,
    refit_shares,
    subspace_reading,
)
from .claims import (
    claims_reading,
    families_reading,
    paper_reading_comparison,
    profile_reading,
    scale_reading,
    solutions_reading,
    unlearned_sentence,
)
from .fixed_points import fixed_point_groups, fixed_point_reading, fixed_point_table
from .gaps import gap_bottom_line, gap_conclusion, gap_reading
from .reproduction import (
    claim_name,
    confirmation_lead,
    fresh_basis_line,
    lead,
    per_task,
    side_by_side,
)

__all__ = [
    "basis_dependence_reading",
    "basis_reading",
    "checkpoint_reading",
    "claim_name",
    "claims_reading",
    "confirmation_lead",
    "dose_reading",
    "families_reading",
    "fixed_point_groups",
    "fixed_point_reading",
    "fixed_point_table",
    "fresh_basis_line",
    "gap_bottom_line",
    "gap_conclusion",
    "gap_reading",
    "lead",
    "paper_reading_comparison",
    "per_task",
    "profile_reading",
    "refit_reading",
    "refit_shares",
    "scale_reading",
    "side_by_side",
    "solutions_reading",
    "subspace_reading",
    "unlearned_sentence",
]
