import json
from typing import Any, Dict

class JSONVerifier:
    """Verifies JSON responses with flexible matching."""

    def __init__(self, checkpoint_config):
        self.config = checkpoint_config

    def __call__(self, group_name, case_name, actual, expected):
        results = {}

        # Parse JSON
        try:
            actual_json = json.loads(actual.output)
        except json.JSONDecodeError as e:
            return {
                "json_parse": VerificationResult.create(
                    diff=f"Failed to parse JSON: {e}",
                    is_correct=False,
                    weight=1.0
                )
            }

        expected_json = expected.output if expected.output else {}

        # Verify structure
        results["structure"] = self._verify_structure(expected_json, actual_json)

        # Verify specific fields (if expected contains fields dict)
        expected_fields = getattr(expected, 'fields', {})
        for field, expected_value in expected_fields.items():
            results[f"field_{field}"] = self._verify_field(
                field, expected_value, actual_json
            )

        # Verify status code
        expected_status = expected.status_code
        results["status_code"] = VerificationResult.create(
            diff=f"Expected: {expected_status}, Got: {actual.status_code}",
            is_correct=actual.status_code == expected_status,
            weight=0.5
        )

        return results

    def _verify_structure(self, expected, actual):
        """Verify JSON structure matches."""
        expected_keys = set(expected.keys())
        actual_keys = set(actual.keys()) if isinstance(actual, dict) else set()

        missing = expected_keys - actual_keys
        extra = actual_keys - expected_keys

        if not missing and not extra:
            return VerificationResult.create(
                diff="✓ Structure matches",
                is_correct=True,
                weight=1.0
            )

        diff_parts = []
        if missing:
            diff_parts.append(f"Missing keys: {missing}")
        if extra:
            diff_parts.append(f"Extra keys: {extra}")

        return VerificationResult.create(
            diff="\n".join(diff_parts),
            is_correct=False,
            weight=1.0
        )

    def _verify_field(self, field, expected_value, actual_json):
        """Verify a specific field value."""
        # Navigate nested fields (e.g., "user.name")
        actual_value = self._get_nested(actual_json, field)

        if actual_value == expected_value:
            return VerificationResult.create(
                diff=f"✓ {field} = {expected_value}",
                is_correct=True,
                weight=1.0
            )

        return VerificationResult.create(
            diff=f"{field}: expected {expected_value}, got {actual_value}",
            is_correct=False,
            weight=1.0
        )

    def _get_nested(self, obj, path):
        """Get nested dictionary value by dot-separated path."""
        keys = path.split(".")
        value = obj
        for key in keys:
            if isinstance(value, dict):
                value = value.get(key)
            else:
                return None
        return value
