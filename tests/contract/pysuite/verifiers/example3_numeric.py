import re
from typing import Union

class NumericVerifier:
    """Verifies numeric outputs with tolerance."""

    def __init__(self, checkpoint_config):
        self.config = checkpoint_config
        self.default_tolerance = checkpoint_config.get("tolerance", 1e-6)

    def __call__(self, group_name, case_name, actual, expected):
        results = {}

        # Extract numbers from output
        actual_numbers = self._extract_numbers(actual.output)
        expected_numbers = getattr(expected, 'numbers', [])

        # Verify count
        results["number_count"] = VerificationResult.create(
            diff=f"Expected {len(expected_numbers)} numbers, got {len(actual_numbers)}",
            is_correct=len(actual_numbers) == len(expected_numbers),
            weight=0.5
        )

        # Verify each number
        tolerance = getattr(expected, 'tolerance', self.default_tolerance)
        for i, (exp, act) in enumerate(zip(expected_numbers, actual_numbers)):
            results[f"number_{i}"] = self._verify_number(
                exp, act, tolerance, i
            )

        return results

    def _extract_numbers(self, text):
        """Extract all numbers from text."""
        pattern = r"[-+]?\d*\.?\d+(?:[eE][-+]?\d+)?"
        return [float(m) for m in re.findall(pattern, text)]

    def _verify_number(self, expected, actual, tolerance, index):
        """Verify a number with tolerance."""
        diff = abs(expected - actual)
        is_correct = diff <= tolerance

        if is_correct:
            return VerificationResult.create(
                diff=f"✓ Number {index}: {actual} (within {tolerance} of {expected})",
                is_correct=True,
                weight=1.0
            )

        return VerificationResult.create(
            diff=f"✗ Number {index}: expected {expected}, got {actual} (diff: {diff}, tolerance: {tolerance})",
            is_correct=False,
            weight=1.0
        )
