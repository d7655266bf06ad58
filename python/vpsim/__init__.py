"""vpsim's Python package: the plots and reports (vpsim.plot)."""
