"""The contract every game system passes, shipped with the package.

`pbem contract SYSTEM [pytest args]` runs it against an installed system: the grammar round trip,
the one gate in both directions, the log's replay, a result within a bound, the deadline default,
which posts carry an image, and that nothing anyone receives depends on a hidden value he may not see. A system declares
its `Driver` (adjudicator/core/driver.py) in the entry-point group `pbem.contract`; a system
installed without one is reported, not failed (docs/writing-a-game-system.md).

The modules: `drivers` (finding the drivers), `play` (games on the rules alone and through the
service), `table` (games through the chat service, audience by audience), `leaks` (comparing
two of them), `gate` (orders outside the gate), `plugin` (the pytest fixtures and the report),
`test_contract` (the tests), and `cases`, the harness of case files (rule tests as data) that the
project's systems and an outside one run their cases with. It sits above the chat service: it
imports bots, app, storage and the core, never a game system, and nothing but tests imports it.
"""
