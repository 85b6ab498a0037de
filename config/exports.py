"""CSV exports that a spreadsheet opens safely."""

import csv

# A spreadsheet reads a cell starting with one of these as a formula (CSV injection): such text
# is written with a leading apostrophe, which spreadsheets show as plain text.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value):
    """A value for an exported CSV: text a spreadsheet would run as a formula is neutralised.
    Numbers are left alone (a negative change is a number, not a formula)."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


class SafeCsvWriter:
    """csv.writer whose text cells go through `csv_cell`."""

    def __init__(self, out):
        self._writer = csv.writer(out, lineterminator="\r\n")

    def writerow(self, row):
        self._writer.writerow([csv_cell(value) for value in row])
