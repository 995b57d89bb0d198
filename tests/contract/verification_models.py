"""The contract's result models, as written in /work/shared/design/verification.md (version 1.3,
"Core Data Structures"), for tests that hold assay's output against them.

Copied field for field: VerificationResult, VerifierReport and AttributeResult with their
model_config, defaults and Field constraints, and calculate_score / did_pass /
get_verified_attributes / format_result with the contract's bodies. What the contract leaves
out is filled in as little as possible and marked "(not in the contract)":
- GroupType: the contract names it without defining it; its values are suite-format.md's group
  types (`Core`, `Functionality`, `Error`, `Regression`).
- The guide's standalone calculate_score(results) function ("Score Calculation"), which
  returns 0.0 when no weight was verified where the class method divides by zero.
- The serialisation methods (to_parquet_row, from_parquet_row, from_verifier_result) are `...`
  in the contract and are left out; see docs/verification.md, "contract -> assay".

Needs pydantic 2 and nothing else (the machine's python3 has it from pip; Debian 12's
python3-pydantic is 1.10). The contract's VerificationResult.create also takes a
deepdiff.DeepDiff, which is accepted here only when deepdiff happens to be installed.
"""

import json
from collections.abc import Generator
from datetime import datetime
from enum import Enum

from pydantic import BaseModel, ConfigDict, Field, JsonValue

try:  # (not in the contract) deepdiff is optional here
    import deepdiff
except ImportError:  # pragma: no cover
    deepdiff = None


class GroupType(str, Enum):
    """(not in the contract) suite-format.md's group types."""

    CORE = "Core"
    FUNCTIONALITY = "Functionality"
    ERROR = "Error"
    REGRESSION = "Regression"


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
        if deepdiff is not None and isinstance(diff, deepdiff.DeepDiff):
            diff_value = json.loads(diff.to_json())
        return cls(diff=diff_value, is_correct=is_correct, weight=weight)


class AttributeResult(BaseModel):
    attribute: str                          # Name of the verified attribute
    actual: JsonValue                       # Actual value from execution
    expected: JsonValue                     # Expected value from test case
    diff: JsonValue = None                  # Difference information
    is_correct: bool | None = None          # Verification result (None = not verified)
    weight: float = Field(default=1.0, ge=0.0)  # Weight for scoring


class VerifierReport(BaseModel):
    model_config = ConfigDict(extra="forbid", use_enum_values=True)
    id: str                                       # Case identifier
    group: str                                    # Group name
    type: GroupType                               # Group type enum
    timestamp: datetime = Field(default_factory=datetime.now)
    duration: float                               # Verification duration
    results: dict[str, AttributeResult]           # Attribute name -> result
    case: dict[str, JsonValue] = {}               # Case metadata for parquet
    original_checkpoint: str | None = None        # For regression cases
    original_group: str | None = None             # For regression cases

    def calculate_score(self) -> float:
        """Return the weighted average of verifier scores."""
        total_weight = 0
        weighted_sum = 0
        for v in self.results.values():
            if v.is_correct is None:
                continue
            total_weight += v.weight
            weighted_sum += v.is_correct * v.weight
        return weighted_sum / total_weight

    def did_pass(self) -> bool:
        """Return True if all verified attributes passed."""
        return all(
            v.is_correct for v in self.results.values() if v.is_correct is not None
        )

    def get_verified_attributes(self) -> Generator[AttributeResult, None, None]:
        """Yield only attributes that were actually verified (non-None)."""
        for result in self.results.values():
            if result.is_correct is not None:
                yield result

    def format_result(self) -> dict[str, str]:
        """Return dict mapping attribute names to 'P' (pass) or 'F' (fail)."""
        return {
            r.attribute: "P" if r.is_correct else "F"
            for r in self.get_verified_attributes()
        }


VerifierReturnType = dict[str, VerificationResult]


def calculate_score(results) -> float:
    """(the guide's "Score Calculation" function) Weighted average score of results."""
    total_weight = 0
    weighted_sum = 0
    for result in results.values():
        if result.is_correct is None:
            continue  # Skip unverified attributes
        total_weight += result.weight
        weighted_sum += result.is_correct * result.weight
    return weighted_sum / total_weight if total_weight > 0 else 0.0
