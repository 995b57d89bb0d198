import re

def regex_match(pattern, actual):
    """Match output against regex pattern."""
    if re.fullmatch(pattern, actual):
        return VerificationResult.create(f"✓ Matches pattern: {pattern}", True, 1.0)

    return VerificationResult.create(f"✗ Does not match pattern: {pattern}", False, 1.0)
