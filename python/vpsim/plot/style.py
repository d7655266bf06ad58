"""The plots' look: matplotlib set up for files (Agg, SVG text as text, reproducible ids) and the
colours: Okabe and Ito's colour-blind-safe palette, busy (blue) told apart from stalled (warm
colours, hatched by class) (docs/report.md)."""
import re
import sys

try:
    import matplotlib

    matplotlib.use("Agg")
    matplotlib.rcParams["svg.fonttype"] = "none"  # SVG text stays text (searchable, smaller)
    matplotlib.rcParams["svg.hashsalt"] = "vpsim"  # reproducible SVG ids
    import matplotlib.pyplot as plt
    import matplotlib.ticker
    from cycler import cycler
except ImportError as missing:
    sys.stderr.write(f"vpsim: the plots need matplotlib ({missing}); install Debian's python3-matplotlib "
                     "(scripts/deps.sh python3-matplotlib) and run with /usr/bin/python3\n")
    sys.exit(2)

PROG = "vpsim"
UNIT_CYCLES = re.compile(r"^([A-Za-z0-9_]+)\.(busy|idle|stalled\.[A-Za-z0-9_]+)$")
# Okabe & Ito's palette (colour-blind safe) for lines and bars, each with its own marker too.
PALETTE = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#000000", "#F0E442"]
MARKERS = ["o", "s", "^", "D", "v", "P", "X", "*"]
# Cycle breakdowns: busy is blue, idle light grey, every stall reason a warm colour, hatched by
# its class, so busy and stalled differ in hue, lightness and texture.
BUSY, IDLE = "#0072B2", "#DDDDDD"
STALL_COLOURS = ["#D55E00", "#E69F00", "#CC79A7", "#F0E442", "#882255", "#DDCC77", "#AA4499", "#661100",
                 "#EE7733", "#999933", "#CC6677", "#EE3377"]
CLASS_HATCH = {"local": "", "back_pressure": "///", "starvation": "...", "": "xx"}
CLASS_WORD = {"local": "local", "back_pressure": "back-pressure", "starvation": "starvation", "": "class unknown"}
FORMATS = ("png", "svg", "pdf")
# Any other line plot (the time series) cycles through the palette, then the same with dashes.
matplotlib.rcParams["axes.prop_cycle"] = cycler(linestyle=["-", "--"]) * cycler(color=PALETTE)
