def flexible_match(expected, actual):
    # Strip whitespace
    exp_clean = expected.strip()
    act_clean = actual.strip()

    # Case-insensitive
    if exp_clean.lower() == act_clean.lower():
        return VerificationResult.create("✓ Match (case-insensitive)", True, 1.0)

    # Partial match
    if exp_clean in act_clean:
        return VerificationResult.create("✓ Contains expected", True, 0.8)

    return VerificationResult.create(f"No match: {exp_clean} vs {act_clean}", False, 1.0)
