"""FLINT's system level (paper sections 3.1, 5, 6.1, 6.2; Figs 3, 4, 10-12, 14).

A small analytic model of the paper's deployments (HBM+SSD, HBM-only min-fit, the
capacity-lifted oracle, H3, FLINT, FLINT+R) that takes its HBF term from the project's own
measurements (docs/results*.json, docs/progq_demand.json, docs/refresh_cost.json) and its model
shapes from sim/workload/models.toml. `python3 -m system` (make system) writes docs/system.md
and the plots. Standard library only, except matplotlib for the plots. docs/system.md says why
no external performance model is used.
"""
