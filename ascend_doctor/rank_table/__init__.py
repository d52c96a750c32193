"""Rank tables (the HCCL cluster description): parse, tell the format apart, validate.

Formats (reference ascend_formats.md §4): "1.0" (910A, A2, 300I Duo, A3 in AI-Server
mode), "1.2" (A3 super-pod), "2.0" (950 series, numbers instead of strings) and the
legacy `group_list` template with no version. Rule ids R1..R15 and L2 follow §7.4/§7.5.

Every problem in the file is reported, each with the JSON path that holds it
(`server_list[3].device[5].device_ip`), a severity, a rule id and a message in
plain words. Syntax errors carry the line and column. Nothing here raises on bad
input: a file that cannot be read as a rank table gives problems, not exceptions.
The validator is one pass over the ranks with dict/set bookkeeping, so a
32k-rank table validates in well under a second.
"""


from .model import (DEVICES_PER_SERVER, FORMAT_GROUP_LIST, FORMAT_V10, FORMAT_V12, FORMAT_V20,  # noqa: F401
                    KNOWN_VERSIONS, MAX_DEVICES_PER_SERVER, MAX_FILE_BYTES, MAX_SERVER_ID, Problem, RankTable,
                    ServerEntry, problem_counts, problem_severity)
from ..findings import FAIL, INFO, WARN  # noqa: F401  (older imports name the severities here)
from ..netrules import ip_problem, port_problem  # noqa: F401  (re-exported: older imports name them here)
from .parse import parse_rank_table_text  # noqa: F401
from .summary import FULL_TABLE_MAX_SERVERS, summarise_rank_table  # noqa: F401
from .validate import topology_problems, validate_rank_table_text  # noqa: F401
