"""Everything a person reads, in Brazilian Portuguese: the one place for texts (and the chart)."""
