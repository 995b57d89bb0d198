"""The contract's own Python definitions (verification.md, "Core Data Structures" and "Score
Calculation"), for checking what assay's Python verifiers give against what the contract gives.

VerificationResult and calculate_score are copied from verification.md. The contract writes them
for pydantic 2; Debian 12 ships pydantic 1.10, so with pydantic 1 the same model is written in
its dialect (class Config instead of model_config, Any for JsonValue): the same fields, the same
constraints (extra keys forbidden, weight > 0). Without pydantic at all this module cannot be the
contract's definitions, and importing it fails.
"""
import json

import deepdiff
import pydantic
from pydantic import BaseModel, Field

if pydantic.VERSION.startswith("2"):
    from pydantic import ConfigDict

    try:
        from pydantic import JsonValue
    except ImportError:  # pydantic < 2.5
        from typing import Any as JsonValue

    class VerificationResult(BaseModel):
        model_config = ConfigDict(extra="forbid")
        diff: JsonValue
        is_correct: bool
        weight: float = Field(default=1.0, gt=0.0)

        @classmethod
        def create(
            cls,
            diff,
            is_correct: bool,
            weight: float = 1.0,
        ):
            """Create a VerificationResult from a diff and a weight."""
            diff_value = diff
            if isinstance(diff, deepdiff.DeepDiff):
                diff_value = json.loads(diff.to_json())
            return cls(diff=diff_value, is_correct=is_correct, weight=weight)

else:
    from typing import Any as JsonValue

    class VerificationResult(BaseModel):
        class Config:
            extra = "forbid"

        diff: JsonValue
        is_correct: bool
        weight: float = Field(default=1.0, gt=0.0)

        @classmethod
        def create(
            cls,
            diff,
            is_correct: bool,
            weight: float = 1.0,
        ):
            """Create a VerificationResult from a diff and a weight."""
            diff_value = diff
            if isinstance(diff, deepdiff.DeepDiff):
                diff_value = json.loads(diff.to_json())
            return cls(diff=diff_value, is_correct=is_correct, weight=weight)


VerifierReturnType = dict  # dict[str, VerificationResult]


def calculate_score(results) -> float:
    """Calculate weighted average score from verification results."""
    total_weight = 0
    weighted_sum = 0
    for result in results.values():
        if result.is_correct is None:
            continue  # Skip unverified attributes
        total_weight += result.weight
        weighted_sum += result.is_correct * result.weight
    return weighted_sum / total_weight if total_weight > 0 else 0.0


def did_pass(results) -> bool:
    """Return True if all verified attributes passed (VerifierReport.did_pass)."""
    return all(v.is_correct for v in results.values() if v.is_correct is not None)
