# Patterns 1 and 3 of verification.md (pattern1_flexible.py, pattern3_regex.py: verbatim) as the
# per-attribute helpers of a verifier; they use VerificationResult without importing it.
from slop_code.evaluation.verifiers.models import VerificationResult

import pattern1_flexible
import pattern3_regex

pattern1_flexible.VerificationResult = VerificationResult
pattern3_regex.VerificationResult = VerificationResult


class Verifier:
    def __init__(self, checkpoint_config):
        self.config = checkpoint_config

    def __call__(self, group_name, case_name, actual, expected):
        results = {}
        if getattr(expected, "flexible", None) is not None:
            results["output"] = pattern1_flexible.flexible_match(expected.flexible, actual.output)
        if getattr(expected, "pattern", None) is not None:
            results["pattern"] = pattern3_regex.regex_match(expected.pattern, actual.output)
        return results
