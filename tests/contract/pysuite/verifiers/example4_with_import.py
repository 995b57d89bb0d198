import json  # the only line added: Example 4 uses json without importing it
class WeightedVerifier:
    """Verifier with custom attribute weights."""

    def __init__(self, checkpoint_config):
        self.config = checkpoint_config
        # Define weights for different attributes
        self.weights = {
            "correctness": 1.0,      # Most important
            "efficiency": 0.5,       # Moderately important
            "format": 0.3,           # Least important
        }

    def __call__(self, group_name, case_name, actual, expected):
        results = {}

        # Verify correctness (high weight)
        expected_output = expected.output
        results["correctness"] = VerificationResult.create(
            diff=self._diff(expected_output, actual.output),
            is_correct=actual.output == expected_output,
            weight=self.weights["correctness"]
        )

        # Verify efficiency (medium weight)
        max_time = getattr(expected, 'max_execution_time', 10.0)
        is_efficient = actual.execution_time <= max_time
        results["efficiency"] = VerificationResult.create(
            diff=f"Execution time: {actual.execution_time:.3f}s (max: {max_time}s)",
            is_correct=is_efficient,
            weight=self.weights["efficiency"]
        )

        # Verify format (low weight)
        is_valid_format = self._check_format(actual.output)
        results["format"] = VerificationResult.create(
            diff="Output format is valid" if is_valid_format else "Invalid format",
            is_correct=is_valid_format,
            weight=self.weights["format"]
        )

        return results

    def _check_format(self, output):
        """Check if output follows expected format."""
        # Example: must be valid JSON
        try:
            json.loads(output)
            return True
        except:
            return False

    def _diff(self, expected, actual):
        return "Match" if expected == actual else f"Expected: {expected}, Got: {actual}"
