"""Local fakes of external services, for tests only (not part of the product)."""
