"""Pure rules engines: no I/O, no clock, no global random."""
