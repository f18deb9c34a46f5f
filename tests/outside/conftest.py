"""The outside example is a project of its own: its tests run where it is installed (as
tests/test_outside_system.py runs them), not in this project's suite, which does not install it."""

collect_ignore = ["hexduel"]
