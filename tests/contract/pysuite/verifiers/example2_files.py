import difflib
from pathlib import Path

class FileVerifier:
    """Verifies file outputs."""

    def __init__(self, checkpoint_config):
        self.config = checkpoint_config

    def __call__(self, group_name, case_name, actual, expected):
        results = {}

        # Check status code first
        expected_status = expected.status_code
        results["status_code"] = VerificationResult.create(
            diff=f"Exit code: {actual.status_code}",
            is_correct=actual.status_code == expected_status,
            weight=0.3
        )

        # Verify each expected file
        expected_files = getattr(expected, 'files', [])
        for file_spec in expected_files:
            file_path = file_spec["path"]
            results[f"files-{file_path}"] = self._verify_file(
                file_path,
                file_spec,
                actual.files
            )

        return results

    def _verify_file(self, path, spec, actual_files):
        """Verify a single file."""
        # Check file exists
        if path not in actual_files:
            return VerificationResult.create(
                diff=f"File not found: {path}",
                is_correct=False,
                weight=1.0
            )

        actual_content = actual_files[path]

        # Exact match
        if "content" in spec:
            expected_content = spec["content"]
            if actual_content == expected_content:
                return VerificationResult.create(
                    diff="✓ Content matches",
                    is_correct=True,
                    weight=1.0
                )

            # Generate diff
            diff = self._unified_diff(expected_content, actual_content, path)
            return VerificationResult.create(
                diff=diff,
                is_correct=False,
                weight=1.0
            )

        # Pattern match
        if "contains" in spec:
            pattern = spec["contains"]
            if pattern in actual_content:
                return VerificationResult.create(
                    diff=f"✓ Contains '{pattern}'",
                    is_correct=True,
                    weight=0.5
                )
            return VerificationResult.create(
                diff=f"✗ Missing pattern '{pattern}'",
                is_correct=False,
                weight=0.5
            )

        # File exists is enough
        return VerificationResult.create(
            diff="✓ File exists",
            is_correct=True,
            weight=0.3
        )

    def _unified_diff(self, expected, actual, filename):
        """Generate unified diff."""
        expected_lines = expected.splitlines(keepends=True)
        actual_lines = actual.splitlines(keepends=True)

        diff = difflib.unified_diff(
            expected_lines,
            actual_lines,
            fromfile=f"{filename} (expected)",
            tofile=f"{filename} (actual)",
            lineterm=""
        )

        return "".join(diff)
