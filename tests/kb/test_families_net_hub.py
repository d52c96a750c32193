"""data/kb/families_net_hub.json: the network and the model downloads as Python ML scripts meet them (round 14, by fault
injection against local servers). A refused connection, connect and read timeouts, a server that closes without
answering or in the middle of a body, a redirect loop, a TLS connection cut off, HTTP 404 / 429 / 5xx, in the forms of
requests/urllib3, urllib, httpx, aiohttp, curl, wget and git; huggingface_hub's revision, token, disk-space, symlink and
size checks; git-lfs missing, git's repository-not-found and authentication; a URL that does not parse; torch.load
reading a Git LFS pointer. Each entry reads members its examples do not show, says the member in its title, wins over
the class entries that only restate the line, stays quiet on ordinary lines and on every clean excerpt of the corpus,
and one line is one problem of the family."""

import os

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title, family_overlaps, part_ids

IDS = part_ids("families_net_hub")
# the entries of other parts this part's runs extended or leans on (their class entries give way to it)
EXTENDED = ["TLS_CERTIFICATE_NOT_TRUSTED", "NETWORK_HOST_NAME_NOT_RESOLVED", "NETWORK_PROXY_CONNECT_FAILED",
            "HF_REPO_OR_PATH_NOT_FOUND", "HF_REQUIRED_FILE_MISSING", "HF_HUB_HTTP_ERROR"]
CLASSES = ["NETWORK_CONNECTION_FAILED", "PY_HTTP_MAX_RETRIES_EXCEEDED", "HTTP_DOWNLOAD_STATUS_ERROR",
           "SHELL_COMMAND_NOT_FOUND"]
FAMILY = IDS + EXTENDED + CLASSES


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_as_specific_roots_without_peer_ids(kb):
    assert set(IDS) == {"NET_CONNECTION_REFUSED", "NET_CONNECT_TIMED_OUT", "NET_READ_TIMED_OUT",
                        "NET_CLOSED_WITHOUT_RESPONSE", "NET_RESPONSE_CUT_SHORT", "NET_TOO_MANY_REDIRECTS",
                        "TLS_CONNECTION_CUT_OFF", "HTTP_STATUS_429_RATE_LIMITED", "HTTP_STATUS_5XX_SERVER_ERROR",
                        "HTTP_STATUS_404_NOT_FOUND", "HF_REVISION_NOT_FOUND", "HF_TOKEN_MISSING_OR_INVALID",
                        "HF_DOWNLOAD_DISK_SPACE_LOW", "HF_CACHE_SYMLINKS_UNSUPPORTED", "HF_DOWNLOAD_INCOMPLETE_SIZE_CHECK",
                        "GIT_LFS_NOT_INSTALLED", "GIT_REMOTE_REPOSITORY_NOT_FOUND", "GIT_HTTP_CREDENTIALS_NOT_ACCEPTED",
                        "HTTP_CLIENT_URL_INVALID", "WEIGHTS_FILE_IS_TEXT_NOT_PICKLE", "NET_NO_ROUTE_TO_HOST",
                        "CURL_OUTPUT_NOT_WRITABLE", "MODELSCOPE_MODEL_NOT_ACCESSIBLE"}
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_net_hub.json" and not sig.ascend_fd and not sig.fallback, sid
        assert sig.kind == ("benign" if sid == "HF_CACHE_SYMLINKS_UNSUPPORTED" else "root"), sid
    assert kb.signature("HF_CACHE_SYMLINKS_UNSUPPORTED").severity == "info"
    assert kb.signature("HF_DOWNLOAD_DISK_SPACE_LOW").severity == "warn"


@pytest.mark.parametrize("line, sig_id, said", [
    # a refusal in each printer's form, the address said where the line gives it
    ("requests.exceptions.ConnectionError: HTTPConnectionPool(host='127.0.0.1', port=8000): Max retries exceeded with "
     "url: /v1/completions (Caused by NewConnectionError('<urllib3.connection.HTTPConnection object at 0x7f3a2c1d0>: "
     "Failed to establish a new connection: [Errno 111] Connection refused'))", "NET_CONNECTION_REFUSED",
     "`127.0.0.1`, port 8000 was refused"),
    ("aiohttp.client_exceptions.ClientConnectorError: Cannot connect to host localhost:8000 ssl:default "
     "[Connection refused]", "NET_CONNECTION_REFUSED", "`localhost`, port 8000 was refused"),
    ("ConnectionRefusedError: [Errno 111] Connection refused", "NET_CONNECTION_REFUSED", "nothing listens there"),
    # connect timeouts: Python's errno form, curl's and git's, wget's
    ("requests.exceptions.ConnectionError: HTTPSConnectionPool(host='github.com', port=443): Max retries exceeded with "
     "url: /x (Caused by NewConnectionError('<urllib3.connection.HTTPSConnection object at 0x7f>: Failed to establish a "
     "new connection: [Errno 110] Connection timed out'))", "NET_CONNECT_TIMED_OUT", "`github.com`, port 443 timed out"),
    ("fatal: unable to access 'https://github.com/x/y.git/': Failed to connect to github.com port 443 after 130007 ms: "
     "Connection timed out", "NET_CONNECT_TIMED_OUT", "`github.com`, port 443"),
    ("curl: (28) Connection timed out after 10001 milliseconds", "NET_CONNECT_TIMED_OUT", "timed out before it was made"),
    # read timeouts: huggingface_hub's wrapped form, the bare ssl form
    ("requests.exceptions.ReadTimeout: HTTPSConnectionPool(host='cdn-lfs.huggingface.co', port=443): Read timed out.",
     "NET_READ_TIMED_OUT", "`cdn-lfs.huggingface.co` accepted the connection"),
    ("TimeoutError: The read operation timed out", "NET_READ_TIMED_OUT", "sent no data in time"),
    # closed without an answer / mid-body
    ("aiohttp.client_exceptions.ClientOSError: [Errno 104] Connection reset by peer", "NET_CLOSED_WITHOUT_RESPONSE",
     "(`Connection reset by peer`)"),
    ("http.client.IncompleteRead: IncompleteRead(100 bytes read, 99900 more expected)", "NET_RESPONSE_CUT_SHORT",
     "(100 bytes read, 99900 more expected)"),
    ("aiohttp.client_exceptions.ClientPayloadError: Response payload is not completed: <ContentLengthError: 400, "
     "message='Not enough data to satisfy content length header.'>", "NET_RESPONSE_CUT_SHORT", "broke off before its end"),
    ("curl: (18) end of response with 4096 bytes missing", "NET_RESPONSE_CUT_SHORT", "(4096 bytes still to come)"),
    # redirect loops and TLS cut off
    ("20 redirections exceeded.", "NET_TOO_MANY_REDIRECTS", "(more than 20 redirects)"),
    ("curl: (35) OpenSSL/3.0.13: error:0A000126:SSL routines::unexpected eof while reading", "TLS_CONNECTION_CUT_OFF",
     "(unexpected eof while reading)"),
    ("curl: (35) OpenSSL SSL_connect: SSL_ERROR_SYSCALL in connection to huggingface.co:443", "TLS_CONNECTION_CUT_OFF",
     "to `huggingface.co`"),
    # HTTP status: the Hub's quota, 5xx of the Hub and of curl, 404 of aiohttp
    ("aiohttp.client_exceptions.ClientResponseError: 429, message='Too Many Requests', "
     "url='http://10.0.0.8:8000/v1/chat/completions'", "HTTP_STATUS_429_RATE_LIMITED", "rate-limited this client"),
    # the Hub's own 429 stays the Hub's entry, which says its rate limit
    ("huggingface_hub.errors.HfHubHTTPError: 429 Client Error: Too Many Requests for url: "
     "https://huggingface.co/api/models/Qwen/Qwen2.5-7B/revision/main (Request ID: Root=1-abc)",
     "HF_HUB_HTTP_ERROR", "HTTP 429"),
    ("curl: (22) The requested URL returned error: 429", "HTTP_STATUS_429_RATE_LIMITED", "HTTP 429 Too Many Requests"),
    ("huggingface_hub.errors.HfHubHTTPError: 500 Server Error: Internal Server Error for url: "
     "https://huggingface.co/api/models/x (Request ID: Root=1-abc)", "HTTP_STATUS_5XX_SERVER_ERROR",
     "HTTP 500 (Internal Server Error)"),
    ("curl: (22) The requested URL returned error: 502", "HTTP_STATUS_5XX_SERVER_ERROR", "HTTP 502"),
    ("aiohttp.client_exceptions.ClientResponseError: 404, message='Not Found', url='http://127.0.0.1:8000/v2/x'",
     "HTTP_STATUS_404_NOT_FOUND", "HTTP 404 Not Found"),
    # the Hub's own checks
    ("Invalid rev id: v9", "HF_REVISION_NOT_FOUND", "`v9`"),
    ("OSError: v2.0 is not a valid git identifier (branch name, tag name or commit id) that exists for this model name. "
     "Check the model page at 'https://huggingface.co/Qwen/Qwen2.5-0.5B' for available revisions.",
     "HF_REVISION_NOT_FOUND", "`v2.0`"),
    ("huggingface_hub.errors.LocalTokenNotFoundError: Token is required (`token=True`), but no token found. You need to "
     "provide a token or be logged in to Hugging Face with `hf auth login` or `huggingface_hub.login`. See "
     "https://huggingface.co/settings/tokens.", "HF_TOKEN_MISSING_OR_INVALID", "no token is set on this host"),
    ("huggingface_hub.errors.HfHubHTTPError: Invalid user token.", "HF_TOKEN_MISSING_OR_INVALID",
     "the token sent was rejected"),
    ("/usr/lib/python3/site-packages/huggingface_hub/file_download.py:820: UserWarning: Not enough free disk space to "
     "download the file. The expected file size is: 4976.70 MB. The target location /data/hf/hub/models--x/blobs only "
     "has 1024.00 MB free disk space.", "HF_DOWNLOAD_DISK_SPACE_LOW", "4976.70 MB needed, 1024.00 MB free"),
    ("OSError: Consistency check failed: file should be of size 15231 but has size 2048 (config.json).",
     "HF_DOWNLOAD_INCOMPLETE_SIZE_CHECK", "2048 bytes instead of 15231"),
    # git and git-lfs
    ("fatal: could not read Password for 'https://user@huggingface.co': terminal prompts disabled",
     "GIT_HTTP_CREDENTIALS_NOT_ACCEPTED", "none could be given (could not read Password)"),
    ("fatal: Authentication failed for 'https://huggingface.co/meta-llama/Llama-3.1-8B/'",
     "GIT_HTTP_CREDENTIALS_NOT_ACCEPTED", "the server rejected the credentials given"),
    ("fatal: repository 'https://huggingface.co/org/privat-model/' not found", "GIT_REMOTE_REPOSITORY_NOT_FOUND",
     "`https://huggingface.co/org/privat-model/`"),
    ("error: initialization for subprocess 'git-lfs filter-process' failed", "GIT_LFS_NOT_INSTALLED", "`git-lfs`"),
    # no route; curl's write side; ModelScope's access check
    ("urllib.error.URLError: <urlopen error [Errno 113] No route to host>", "NET_NO_ROUTE_TO_HOST", "from this host: No route to host"),
    ("Connecting to hf-mirror.com (hf-mirror.com)|2606:4700::6812:1|:443... failed: Network is unreachable.",
     "NET_NO_ROUTE_TO_HOST", "`hf-mirror.com`, port 443 cannot be reached"),
    ("curl: (23) client returned ERROR on write of 16384 bytes", "CURL_OUTPUT_NOT_WRITABLE", "error 23"),
    ("modelscope.hub.errors.NotLoginException: Token does not exist, please login first.",
     "MODELSCOPE_MODEL_NOT_ACCESSIBLE", "Token does not exist, please login first."),
    # a URL that does not parse; torch.load on an HTML page
    ("requests.exceptions.InvalidSchema: No connection adapters were found for 'hf://datasets/x'",
     "HTTP_CLIENT_URL_INVALID", "`hf://datasets/x`"),
    ("Unsupported operand 60", "WEIGHTS_FILE_IS_TEXT_NOT_PICKLE", "an HTML page"),
    # the entries of other parts extended here: git's and wget's certificate forms, wget's curly quotes, aiohttp's DNS
    ("fatal: unable to access 'https://127.0.0.1:30505/org/model.git/': server certificate verification failed. "
     "CAfile: /etc/ssl/certs/ca-certificates.crt CRLfile: none", "TLS_CERTIFICATE_NOT_TRUSTED",
     "server certificate verification failed"),
    # (wget's `The certificate of '...' has expired.`: TLS_CERTIFICATE_EXPIRED's since round 21,
    # tests/kb/test_families_platform_r21.py)
    ("wget: unable to resolve host address ‘hf-mirror.com’", "NETWORK_HOST_NAME_NOT_RESOLVED", "`hf-mirror.com`"),
    ("aiohttp.client_exceptions.ClientConnectorDNSError: Cannot connect to host huggingface.co:80 ssl:default "
     "[Name or service not known]", "NETWORK_HOST_NAME_NOT_RESOLVED", "`huggingface.co`"),
    ("fatal: unable to access 'https://github.com/x/y.git/': Proxy CONNECT aborted", "NETWORK_PROXY_CONNECT_FAILED",
     "Proxy CONNECT aborted"),
    ("huggingface_hub.errors.RepositoryNotFoundError: 401 Client Error. (Request ID: Root=1-abc)",
     "HF_REPO_OR_PATH_NOT_FOUND", "neither an existing local directory"),
    ("huggingface_hub.errors.EntryNotFoundError: 404 Client Error. (Request ID: Root=1-abc)", "HF_REQUIRED_FILE_MISSING",
     "lacks a file the loader needs"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id, among=FAMILY)
    assert said in title, title


def test_a_missing_revision_is_not_a_missing_repository(kb):
    line = "Revision Not Found for url: https://huggingface.co/Qwen/Qwen2.5-0.5B/resolve/v9/config.json."
    assert [s.id for s in kb.explaining(line)] == ["HF_REVISION_NOT_FOUND"]


def test_the_hubs_server_errors_and_404s_are_the_status_entries(kb):
    line = ("requests.exceptions.HTTPError: 503 Server Error: Service Unavailable for url: "
            "https://hf-mirror.com/api/models/Qwen/Qwen2.5-7B")
    assert [s.id for s in kb.explaining(line)] == ["HTTP_STATUS_5XX_SERVER_ERROR"]
    line = "requests.exceptions.HTTPError: 404 Client Error: Not Found for url: https://hf-mirror.com/api/models/x/y"
    assert [s.id for s in kb.explaining(line)] == ["HTTP_STATUS_404_NOT_FOUND"]


def test_a_proxy_refusal_is_the_proxys_entry(kb):
    line = ("requests.exceptions.ProxyError: HTTPSConnectionPool(host='huggingface.co', port=443): Max retries exceeded "
            "with url: /x (Caused by ProxyError('Unable to connect to proxy', NewConnectionError(\"HTTPSConnection("
            "host='127.0.0.1', port=30501): Failed to establish a new connection: [Errno 111] Connection refused\")))")
    assert [s.id for s in kb.explaining(line)] == ["NETWORK_PROXY_CONNECT_FAILED"]


@pytest.mark.parametrize("line", [
    # clean runs of the same clients and servers (the round's clean outputs), and lines that share the words
    "INFO:     Started server process [4242]",
    "INFO:     127.0.0.1:50312 - \"POST /v1/completions HTTP/1.1\" 200 OK",
    "*   Trying 127.0.0.1:30504...",
    "* Connected to 127.0.0.1 (127.0.0.1) port 30504 (#0)",
    "< HTTP/1.0 404 Not Found",
    "HTTP request sent, awaiting response... 200 OK",
    "Resolving hf-mirror.com (hf-mirror.com)... 104.21.3.4",
    "Connecting to 127.0.0.1:30504... connected.",
    "Cloning into '/tmp/net_hub_cl'...",
    "Fetching 4 files: 100%|██████████| 4/4 [00:10<00:00,  2.50s/it]",
    "config.json: 100%|██████████| 659/659 [00:00<00:00, 3.21MB/s]",
    "HF_HUB_DOWNLOAD_TIMEOUT=60",
    "    timeout=(10, 300), allow_redirects=True, max_redirects=30",
    "retry_on_status=[429, 500, 502, 503]",
    "Downloading 'model.safetensors' to '/root/.cache/huggingface/hub/models--gpt2/blobs/248dfc.incomplete'",
    "Git LFS initialized.",
    "Token is valid (permission: read).",
    "Unsupported operand 149",
])
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in IDS] == []


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, IDS) == []


def test_one_line_is_one_problem_of_the_family(kb):
    assert family_overlaps(kb, IDS) == []
