# verifier.py
from slop_code.evaluation.verifiers.models import VerificationResult

class Verifier:
    """Basic verifier comparing output and status code."""

    def __init__(self, checkpoint_config):
        self.config = checkpoint_config

    def __call__(self, group_name, case_name, actual, expected):
        results = {}

        # Verify output
        expected_output = expected.output
        output_match = actual.output == expected_output
        results["output"] = VerificationResult.create(
            diff=self._output_diff(expected_output, actual.output),
            is_correct=output_match,
            weight=1.0
        )

        # Verify status code
        expected_status = expected.status_code
        status_match = actual.status_code == expected_status
        results["status_code"] = VerificationResult.create(
            diff=f"Expected: {expected_status}, Got: {actual.status_code}",
            is_correct=status_match,
            weight=0.5
        )

        return results

    def _output_diff(self, expected, actual):
        """Generate human-readable diff."""
        if expected == actual:
            return "✓ Output matches"

        # Simple line-by-line diff
        expected_lines = str(expected).splitlines()
        actual_lines = str(actual).splitlines()

        diff_lines = []
        for i, (exp, act) in enumerate(zip(expected_lines, actual_lines)):
            if exp != act:
                diff_lines.append(f"Line {i+1}:")
                diff_lines.append(f"  Expected: {exp}")
                diff_lines.append(f"  Actual:   {act}")

        if len(expected_lines) != len(actual_lines):
            diff_lines.append(f"Line count: expected {len(expected_lines)}, got {len(actual_lines)}")

        return "\n".join(diff_lines) if diff_lines else "✓ Output matches"
