"""The harness API in one import, for tests/differential/run_differential.py,
tests/sql/run_sql_tests.py and bench/tpch_vs_sqlite.py (Python 3.11 standard library only):

- sqlite_data      a data folder (catalog.json + CSVs) loaded into SQLite; SQLite twins and runs
- hindsight_cli    `hindsight query --format json` runs, checked against the CLI contract
- sql_order_by     the top-level ORDER BY of a query and the output columns of its keys
- result_compare   value equality, multiset and ordered comparison of two results
"""

from hindsight_cli import *  # noqa: F401,F403
from result_compare import *  # noqa: F401,F403
from sql_order_by import *  # noqa: F401,F403
from sqlite_data import *  # noqa: F401,F403
