"""pbem-adjudicator rules engines.

Everything under this package except ``adjudicator.hells_gate.loader`` is pure: state + order + dice in,
new state + events (or a Rejection) out. No I/O, no clock, no global random.
"""
