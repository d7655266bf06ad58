"""vpsim's plots and HTML reports (docs/report.md), run by `vpsim plot`, `vpsim report` and
`vpsim bench correlate --plot`: style (matplotlib set-up, colours), data (results.csv, JSON,
--where, a sweep's panels), drawing (the plots), report (the HTML pages) and cli (the commands)."""
