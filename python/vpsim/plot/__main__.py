"""python3 -m vpsim.plot: the command line of vpsim.plot.cli."""
import sys

from .cli import main

sys.exit(main(sys.argv[1:]))
