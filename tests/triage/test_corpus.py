"""The corpus of real log excerpts (tests/fixtures/corpus) measured by scripts/measure_corpus.py.

Each held-out set was collected and labelled before the signatures it measures were written (see FLOORS):
its figures are floors at what was reached, so a change that loses a fault, borrows a peer id or raises a
FAIL from an ordinary line shows up here. Raise a floor when a change improves it.
"""

import os
import re

import pytest

from tests.helpers import REPO, script_module
from tests.helpers.corpus import clean_excerpt_hits, measure_module


# Floors: what each held-out set gave when it was measured for the first time after its labels were committed.
# heldout/ (first set): measured once with the field_cases signatures; two signatures were widened afterwards
# (AI CPU 'exception occurred during', GE 'Graph manager build graph failed'), so its figures now include tuning.
# heldout2/ (second set): collected and labelled after that, measured once, never tuned on.
# borrowed_per_10: files with a peer id whose own rule holds on none of the problem's lines, per 10; since peer ids
# are carried only where their rule holds on a matched line (i21a's engine), none (it was 3.75, 1.9 and 2.86).
FLOORS = {
    # Round 4 of this issue (titles that say what the line says; the families_python and families_frameworks parts),
    # written after heldout1-11 had been read: every seen split's floor below is what it reached then (the comments keep
    # each set's one untuned measurement).
    # (90.9% after r21f's GE_ERRORNO_REPORTED named h21's Paddle-Lite GE build failure by GE's own error name)
    "heldout": {"named_pct": 100.0, "borrowed_per_10": 0.0, "ordinary_fails": 0},
    "heldout2": {"named_pct": 93.8, "borrowed_per_10": 0.0, "ordinary_fails": 0},
    # heldout3/ (third set): labelled before the aclnn 561xxx and HCCL root-info backtrace signatures, measured once
    # (100.0% after round 2: k13's 'set ASCEND_RT_VISIBLE_DEVICES:4 error, input data rang[0-2)' joined its class)
    "heldout3": {"named_pct": 100.0, "borrowed_per_10": 0.0, "ordinary_fails": 0},
    # heldout4/ (fourth set): 28 excerpts from issues no other set used, labelled and committed before the one
    # measurement these floors record; no signature, engine code or label was changed after it
    "heldout4": {"named_pct": 100.0, "borrowed_per_10": 0.0, "ordinary_fails": 0},
    # heldout5/ (fifth set): collected with heldout6/, both labelled and committed before triage ran on either;
    # measured once untuned (48.0% named, 1 FAIL from an ordinary line), then its misses studied as classes and
    # the signatures generalised; the floors hold what that tuning reached (no longer a held-out figure)
    # (80.0% after that tuning; 84.0% after round 2's class signatures, written from the misses of every set)
    "heldout5": {"named_pct": 96.0, "borrowed_per_10": 0.0, "ordinary_fails": 0},
    # heldout6/ (sixth set): labelled and committed with heldout5/ before any triage run, measured once after
    # heldout5's tuning, untuned itself: the figure for issue 21's "Done when" (60.0% < 88%); nothing changed after it
    # heldout6 then became "seen": round 2 pooled its misses with every other set's into class signatures
    # (module not installed, driver tool not found, SoC name unreadable, Ascend C CMake, ...): 84.0%, then 88.0%,
    # no longer a held-out figure
    "heldout6": {"named_pct": 100.0, "borrowed_per_10": 0.0, "ordinary_fails": 0},
    # heldout7/ (seventh set): collected after round 2's class signatures, labelled and committed before triage ran
    # on it, measured once: 11/25 = 44.0% named (2 more only by a wrapper), the figure for issue 21's "Done when";
    # its misses then added as classes seen twice or documented (56.0% after, no longer held out); floor stays at 44.0
    # (100.0% after r21o's platform families: r24's kubelet line names the Ascend Docker Runtime's exit)
    "heldout7": {"named_pct": 100.0, "borrowed_per_10": 0.0, "ordinary_fails": 0},
    # heldout8/ (eighth set): collected after round 3 (ACL_RETURN_CODE, values said in the words), labelled and
    # committed before triage ran on it, measured once: 12/25 = 48.0% named, 2 FAILs from an ordinary line (torch_npu's
    # 'NPU warning, error code is ...' read by PT_NPU_SYNCHRONIZE_FAILED), the figure for issue 21's "Done when"
    "heldout8": {"named_pct": 88.0, "borrowed_per_10": 0.0, "ordinary_fails": 0},
    # heldout9/ (ninth set): 52 excerpts collected by an engineer who neither ran the doctor nor read its knowledge base,
    # labelled from the threads alone, kept outside the repository until the class entries (round 4) were merged; the 5
    # whose issue tune2 had already used were dropped; measured once: 18/37 = 48.6% named, 0 peer ids the line does
    # not support, 0 FAIL from an ordinary line, every unexplained error line listed (first occurrences): the figure
    # for issue 21's "Done when"
    # heldout9 then became "seen": round 5's family entries (FAMILY_SIGNATURES below) were written from the frameworks'
    # own message strings, and its misses read to check them: 28/37 = 75.7%, no longer a held-out figure
    # round 6 (this stop's second: compile-time, platform, training and serving families): 32/37 = 86.5%
    # round 26: 31/37 = 83.8%, h9_36 (msrun's post-mortem after a worker failed) was named only by a start-up timeout
    # the log contradicts (the cluster was built; precision_audit_r26 5a-54); its lines are envelopes: the worker's
    # own log, which the excerpt does not hold, has the cause
    "heldout9": {"named_pct": 83.8, "borrowed_per_10": 0.0, "ordinary_fails": 0},
    # heldout10/ (tenth set): 51 excerpts (46 from GitHub issues, 5 vendor troubleshooting pages) collected like
    # heldout9, after the fault families (r21e) were merged, measured once: 26/41 = 63.4% named, 0 peer ids the line
    # does not support, 1 FAIL from an ordinary line (a wrapped 'npuSynchronizeDevice:' read alone by
    # PT_NPU_SYNCHRONIZE_FAILED, whose rule then learned to want an error word beside the name): the figure for issue
    # 21's "Done when"
    # heldout10 then became "seen": round 6's family entries (MEMORY_UNCORRECTABLE_ECC_REPORTED from the kernel's CPER
    # strings, OP_KERNEL_BINARY_NOT_FOUND from aclnn/GE's no-kernel messages, GE_ERRORNO_REPORTED from GE's
    # 'ErrorNo: code(name)' form) were checked against its misses: 30/41 = 73.2%, no longer a held-out figure;
    # ACL_REPEAT_INITIALIZE_100002 (aclInit's documented repeat code in a failure phrase): 31/41 = 75.6%;
    # TRITON_ASCEND_KERNEL_COMPILE_FAILED reading bishengir-compile/hivmc's own messages (BiShengIR/LIR): 32/41 = 78.0%;
    # CANN_EZ9999_AICORE_EXCEPTION reading the runtime's own '[Error]: The aicore/vector core execution is abnormal.'
    # (507015/507035's message, where the code itself is wrapped onto the next line): 33/41 = 80.5%
    # (95.1% after r21o: NNADAPTER_CANN_VERSION_MISMATCH's title says the mismatch and both versions)
    "heldout10": {"named_pct": 95.1, "borrowed_per_10": 0.0, "ordinary_fails": 0},
    # heldout11/ (eleventh set): 47 excerpts collected like heldout9/10 while the second round of families was
    # written, kept outside the repository until then, measured once: 13/36 = 36.1% named, 0 peer ids the line does
    # not support; 2 FAILs the measure first called "from an ordinary line" were error lines its word list missed
    # ('RegisterAscendBinary aiv ret 107000', 'No supported Ops kernel and engine are found'): the list learned
    # 'ret N', 'unsupported' and 'no supported'. The figure for issue 21's "Done when"
    # heldout11 then became "seen": round 3 of the families (r21g) read its misses and wrote, from the vendors' own
    # strings, the aclnn title naming the operator and dtype, SOC_VERSION_NOT_SUPPORTED (torch_npu/vLLM-Ascend/AI CPU
    # SoC tables), GE_SINGLE_OP_ARGS_MISMATCH_145000 (GE SingleOp::ValidateArgs), NPU_DRIVER_TOOL_EXIT_NONZERO
    # (npu-smi/hccn_tool run with check=True) and the older runtime's 'there is an aicore/aivec error' form: 19/36 =
    # 52.8% (every other split unchanged: the whole corpus 288 -> 294 of 350)
    # round 6: 34/36 = 94.4%
    "heldout11": {"named_pct": 94.4, "borrowed_per_10": 0.0, "ordinary_fails": 0},
    # heldout12/ (twelfth set): 82 excerpts from three independent collectors, labels checked thread by thread by an
    # independent checker before any run (tests/fixtures/corpus/heldout12/README.md), kept outside the repository
    # until round 4 (titles that say the line; families_python, families_frameworks) was merged; measured once:
    # 37/69 = 53.6% named (main before round 4: 34/69 = 49.3%), 0 peer ids the line does not support, 1 FAIL from an
    # ordinary line (PT_SET_DEVICE_FAILED on a traceback's source line): the figure for issue 21's "Done when"
    # heldout12 then became "seen": r21l made a traceback's source line no event (the FAIL gone), wrote the process-death
    # family (SIGSEGV in every printer's form, SIGABRT, glibc's heap checks, C++'s terminate, TBE workers without
    # their parent) and the backend-capability entries from the printers' own strings: 43/69 = 62.3%, 0 FAIL;
    # with r21k's codes (AscendCL's 1000xx codes, one code read in all its written forms, the runtime's '[Error]:'
    # sentences named by their code): 48/69 = 69.6%
    # r21o's platform families (families_platform.json: builds that look for CANN, DCMI codes, device plugins,
    # containers, host resources): 49/69 = 71.0%
    # round 6 (the compile-time, training and serving families too): 56/69 = 81.2%
    # round 8 (r22d: the runtime's TsdOpen failure and the device's SDMA/DSA error reports, written from hicann/runtime's
    # source): h12c_10, h12c_20: 61/69 = 88.4%
    "heldout12": {"named_pct": 88.4, "borrowed_per_10": 0.0, "ordinary_fails": 0},
    # heldout13/ (thirteenth set): 40 excerpts from two independent collectors, labels checked by an independent
    # checker before any run (tests/fixtures/corpus/heldout13/README.md), kept outside the repository until round 5
    # (codes as a mechanism, families_process, backend capabilities, traceback source lines) was merged; measured
    # once: 23/34 = 67.6% named (47.1% at this stop's start, 64.7% after round 4), 0 peer ids the line does not
    # support, 0 FAIL from an ordinary line, every unexplained error line listed: the figure for issue 21's "Done when"
    # heldout13 then became "seen": r21o's platform families (DCMI return codes from the DCMI API's table, the Go exec
    # form of a driver tool's exit status, CANN builds, DataLoader shared memory) read four of its misses: 27/34 = 79.4%
    # round 6 (the compile-time and serving families too): 31/34 = 91.2%
    "heldout13": {"named_pct": 91.2, "borrowed_per_10": 0.0, "ordinary_fails": 0},
    # heldout14/ (fourteenth set): 56 excerpts from three independent collectors (two from GitHub threads, one from
    # the FAQ / troubleshooting pages of public repositories' docs), labels checked by two independent checkers before
    # any run (tests/fixtures/corpus/heldout14/README.md), kept outside the repository until round 6 was merged;
    # measured once: 22/47 = 46.8% named (44.7% at this stop's start), 0 peer ids the line does not support, 0 FAIL
    # from an ordinary line, every unexplained error line listed: the figure for issue 21's "Done when"
    # then CANN_ERROR_CODE_MESSAGE became an entry of last resort (its cause says no entry reads the line more
    # specifically, which was not so where OP_KERNEL_BINARY_NOT_FOUND reads it): h14c_11 lost its echo of the line;
    # the two entries left name the fault in words its label (fixed before the measurement) does not match: 21/47
    # round 7 (seen; the documented cases of each area's docs, taken in page by page from the two thirds of the pages
    # scripts/corpus_split.py leaves to the authors, and CANN's error-code catalogue): each branch alone on it: edge
    # inference +10, MindSpore's docs +3, PyTorch-side docs +2, serving/cluster +1, the catalogue +1; merged: 37/47
    # round 8 (seen): the deployment families (families_deploy: docker's layer unpacking): 38/47; all of round 8
    # merged: 39/47
    # round 9: MindIE's HTTP error body names h14c_21 (40/47 = 85.1%)
    "heldout14": {"named_pct": 85.1, "borrowed_per_10": 0.0, "ordinary_fails": 0},
    # heldout15/ (fifteenth set): 42 excerpts from two independent collectors, who took only pages and threads on the
    # held-out side of round 7's page split (scripts/corpus_split.py): docs FAQ / troubleshooting / error-code pages,
    # forum posts and GitHub threads; labels checked by two independent checkers before any run
    # (tests/fixtures/corpus/heldout15/README.md), kept outside the repository until round 7 was merged; measured
    # once: 11/35 = 31.4% named (10/35 = 28.6% at this stop's start), 0 peer ids the line does not support, 0 FAIL
    # from an ordinary line, every unexplained error line listed: the figure for issue 21's "Done when"
    # then (seen) a catalogued CANN sentence without its code is read by its longest fixed piece, not only by a head of
    # 28+ characters: h15a_17 (EE1013) and h15a_18 (E40002): 13/35 = 37.1%
    # round 8 (seen; set once round 8 was merged: the deployment, application, LLM-stack and CANN-docs families):
    # 31/35 = 88.6%
    "heldout15": {"named_pct": 88.6, "borrowed_per_10": 0.0, "ordinary_fails": 0},
    # heldout16/ (sixteenth set): 51 excerpts from three independent collectors, only pages and threads on the held-out
    # side of the same page split (docs FAQ / troubleshooting / error-code pages of 22 repositories, two blog posts,
    # two GitHub threads), labels checked by an independent checker before any run
    # (tests/fixtures/corpus/heldout16/README.md), kept outside the repository until round 8 was merged; measured once:
    # 22/42 = 52.4% named (15/42 = 35.7% at this stop's start), 0 peer ids the line does not support, every
    # unexplained error line listed; 2 FAILs on lines without an error word: the vendor's own catalogued sentences
    # of E13023 ('... exceeds system limit of ...') and E16002 ('No ONNX parser is registered for optype ...'), read
    # without their code by CANN_CATALOGUED_ERROR_CODE, true faults (named), which this measure's word list lacks
    # round 9 (seen; its families were written with heldout16's misses as examples of the tail): the MindStudio tool
    # chain, the media SDKs and simulators, the Python model ecosystem, node operations: 37/42 = 88.1%; the catalogue's
    # bare sentences are warnings (fail_needs_mark): 0 FAIL from an ordinary line
    "heldout16": {"named_pct": 88.1, "borrowed_per_10": 0.0, "ordinary_fails": 0},
    # heldout17/ (seventeenth set): 53 excerpts from two independent collectors, only docs pages on the held-out side of
    # the same page split (CANN's hicann/* docs, TF Adapter, shmem, PyPTO, the Ascend tool and framework repositories),
    # labels checked by two independent checkers before any run (tests/fixtures/corpus/heldout17/README.md), kept
    # outside the repository until round 9 was merged; measured once: 23/47 = 48.9% named (the same 23/47 at this
    # stop's start: round 9 named none of its misses), every unexplained error line listed; 2 FAILs on lines without
    # an error word (a torch_npu attribute error quoted without 'AttributeError:', a FaultDiag report's LINK DOWN
    # record), both true faults; the one peer id counted as borrowed holds by the peer's source rule (the measure now
    # reads SOURCE_RULES)
    # round 10 (seen: its ecosystems were chosen after heldout17's misses, TF Adapter, SHMEM, torch_npu, the CANN
    # catalogue, MindIO and Mooncake among them; each was written from the project's own source, not from the
    # excerpts): 31/47 = 66.0%
    "heldout17": {"named_pct": 66.0, "borrowed_per_10": 0.0, "ordinary_fails": 2},
    # heldout18/ (eighteenth set): 30 excerpts from four independent collectors (docs pages, Huawei Cloud and CSDN
    # write-ups, GitHub issues of the wider ecosystem), only sources on the held-out side of the same split, labels
    # checked by four independent checkers before any run (tests/fixtures/corpus/heldout18/README.md), kept outside the
    # repository until round 10 was merged; measured once: 11/20 = 55.0% named (the same 11/20 at this stop's start:
    # round 10 went through whole ecosystems, and eight of the nine misses are in others), every unexplained error line
    # listed; 1 FAIL on a line without an error word (`net health status: Fault`, the excerpt's true fault)
    # round 11 (seen: its ecosystems were chosen after heldout18's misses — the installers, MindCluster, the runtime's
    # uncoded messages, transformers' compatibility; each written from the project's own source): 14/20 = 70.0%
    "heldout18": {"named_pct": 70.0, "borrowed_per_10": 0.0, "ordinary_fails": 1},
    # heldout19/ (nineteenth set): 40 excerpts — GitHub issues and repository docs on the held-out side (the public pool
    # in the index is used up: 11 of them), and 29 real runs on this machine with one injected fault each (MindSpore 2.10
    # on the CPU, msrun, pip, NumPy, OS limits, transformers; `#% source: generated: <command>`), labels checked by
    # three independent checkers before any run (tests/fixtures/corpus/heldout19/README.md), kept outside the repository
    # until round 11 was merged; measured once: 24/33 = 72.7% named (the same 24/33 at this stop's start), 3 FAILs on
    # lines without an error word, every unexplained error line listed
    # then (seen) two false statements mended (a WARNING retry of every healthy msrun start read as a lost scheduler, the
    # allocator's WARNING read as Ascend device OOM on a CPU run) and the install-group title: 25/33 = 75.8%, 1 FAIL on
    # a line without an error word (h19b_03's installer refusal, the excerpt's true fault)
    "heldout19": {"named_pct": 75.8, "borrowed_per_10": 0.0, "ordinary_fails": 1},
    # heldout20/ (twentieth set): 66 excerpts, all real runs on this machine with one injected fault each (or none: 8
    # clean), made by two independent collectors (MindSpore 2.10 and msrun, torchrun/gloo, PyTorch training,
    # transformers/accelerate/peft/datasets, pip, the OS), labels checked by two independent checkers before any run
    # (tests/fixtures/corpus/heldout20/README.md), kept outside the repository until round 12 was merged; at this stop's
    # start 38/58 = 65.5%; measured once after round 12 (whose six authors wrote their entries by fault injection
    # too, each their own runs): 46/58 = 79.3% named, no peer id the line does not support, every unexplained error
    # line listed, 2 FAILs on lines without an error word (torch's indented 'Missing key(s) in state_dict' and
    # 'size mismatch for' lines under 'Error(s) in loading state_dict', the excerpts' true faults)
    # then (seen) its misses mended: autograd's NaN, OneCycleLR, pandas' CSV, the optimizer state's group size, pyarrow's
    # JSON line, the validator's 'should be in' form, two titles that did not say why: 53/58 = 91.4%; round 13: the next
    # line of an exception's message explains it and is part of an error report (lines.Fold.follows): 0 FAILs on lines
    # without an error word
    "heldout20": {"named_pct": 91.3, "borrowed_per_10": 0.0, "ordinary_fails": 0},
    # heldout21/ (twenty-first set): 61 excerpts, all real runs on this machine with one injected fault each (or none: 8
    # clean), made by two independent collectors while round 13's six authors wrote their parts, labels checked by two
    # independent checkers before any run (tests/fixtures/corpus/heldout21/README.md); at this stop's start 34/53 =
    # 64.2%; measured once after round 13: 36/53 = 67.9% named, no peer id the line does not support, every unexplained
    # error line listed, 1 FAIL on a line without an error word (torchrun's failure table's `exitcode  : 1`, a true
    # report); then (seen) its misses mended from the printers' own strings: 50/53 = 94.3%
    "heldout21": {"named_pct": 94.3, "borrowed_per_10": 0.0, "ordinary_fails": 0},  # (torchrun's table: round 14)
    # heldout22/ (twenty-second set): 60 excerpts, 35 real runs on this machine with one injected fault each (or none: 4
    # clean) and 25 from public issue threads on the held-out side of the page split (4 clean), made by two independent
    # collectors while round 14's six authors wrote their parts, labels checked by two independent checkers before any
    # run (tests/fixtures/corpus/heldout22/README.md); at this stop's start 43/52 = 82.7%; measured once after round 14:
    # 45/52 = 86.5% named, no peer id the line does not support, every unexplained error line listed, 3 FAILs on lines
    # without an error word; then (seen) its misses mended: 51/52 = 98.1%, 2 FAILs on lines without an error word
    # (datasets' message paragraph after a blank line, vLLM's Ray WARNING that the GPUs asked for exceed the cluster's:
    # true reports of the fault)
    "heldout22": {"named_pct": 98.1, "borrowed_per_10": 0.0, "ordinary_fails": 2},
    # heldout23/ (twenty-third set): 60 excerpts, 35 real runs on this machine with one injected fault each (or none: 4
    # clean) and 25 from public issue threads on the held-out side of the page split (3 clean), made by two independent
    # collectors while round 15's six authors wrote their parts, labels checked by two independent checkers before any
    # run (tests/fixtures/corpus/heldout23/README.md); at this stop's start 39/53 = 73.6%; measured once after round 15:
    # 40/53 = 75.5% named, no peer id the line does not support, every unexplained error line listed, 2 FAILs on lines
    # without an error word; then (seen) its misses mended: 52/53 = 98.1%, 3 FAILs on lines without an error word (bash's
    # `Argument list too long`, dash's `Bad substitution`, gzip's `Not a gzipped file`: true reports of the fault); the
    # measure now reads an errno's strerror text and a shell's error form as error words: 1 (gzip's, a true report)
    "heldout23": {"named_pct": 98.1, "borrowed_per_10": 0.0, "ordinary_fails": 1},
    # round 16: collected (35 runs here, 26 public threads) and checked while round 16's five authors worked, never read
    # by them (tests/fixtures/corpus/heldout24/README.md); at this stop's start 44/54 = 81.5%; measured once after round
    # 16: 46/54 = 85.2% named (h24i 80.6%, h24j 91.3%), no peer id the line does not support, every unexplained error line
    # listed, 1 FAIL on a line without an error word (NVIDIA's Xid 79 `GPU has fallen off the bus`, a true report: the
    # measure now reads the NVIDIA kernel driver's fault reports as error words, 0); its misses not mended in round 16
    "heldout24": {"named_pct": 85.2, "borrowed_per_10": 0.0, "ordinary_fails": 0},
    # round 17: collected (36 runs here, 21 public threads) and checked while round 17's five authors worked, never read
    # by them (tests/fixtures/corpus/heldout25/README.md); at this stop's start 46/52 = 88.5% (2 FAILs on lines without
    # an error word: gzip's `unexpected end of file` and git's `is not a git command`, true reports the measure now reads
    # as error words: 0); measured once after round 17: 46/52 = 88.5% named (h25i 84.4%, h25j 95.0%), no peer id the
    # line does not support, every unexplained error line listed; its misses not mended this stop
    "heldout25": {"named_pct": 88.5, "borrowed_per_10": 0.0, "ordinary_fails": 0},
    # round 18: collected (34 runs here, 25 public threads) and checked while round 18's two authors mended earlier sets,
    # never read by them (tests/fixtures/corpus/heldout26/README.md); at this stop's start 39/51 = 76.5% (h26i 83.3%,
    # h26j 66.7%; 1 FAIL on a line without an error word: 'The NVIDIA driver on your system is too old', a true report
    # the measure now reads: 0); measured once after round 18: 39/51 = 76.5%, no peer id the line does not support,
    # every unexplained error line listed; then (seen) five of its misses mended as families: 44/51 = 86.3% (1 FAIL on
    # the NVIDIA driver's probe report, a true report the measure now reads: 0)
    "heldout26": {"named_pct": 86.3, "borrowed_per_10": 0.0, "ordinary_fails": 0},
    # round 19: collected (32 runs here, 23 public threads) and checked while round 19's five authors worked, never read
    # by them (tests/fixtures/corpus/heldout27/README.md); at this stop's start 33/45 = 73.3% (h27i 75.0%, h27j 81.8%,
    # h27k 50.0%; 4 FAILs on lines without an error word); measured once after round 19: 34/45 = 75.6%, no peer id the
    # line does not support, every unexplained error line listed; then (seen) four misses mended as families and the
    # measure reading `rejected` and a traceback's frame: 38/45 = 84.4%, 2 FAILs on lines without an error word, both
    # true reports (ssh's unprotected-key banner, NCCL's duplicate GPU); round 20: subprocess's frame reads the exception
    # under it (the missing program named, no longer also "input file not found"): 39/45 = 86.7%
    "heldout27": {"named_pct": 86.7, "borrowed_per_10": 0.0, "ordinary_fails": 2},
    # round 20: collected (64 runs here, 16 public threads) and checked while round 20's four authors worked, never read
    # by them (tests/fixtures/corpus/heldout28/README.md); at this stop's start 47/70 = 67.1% (h28i 78.6%, h28j 50.0%,
    # h28k 64.3%; 2 FAILs on lines without an error word, one of them on a clean msrun start); measured once after
    # round 20: 48/70 = 68.6%, no peer id the line does not support, every unexplained error line listed; then (seen)
    # the msrun retry lines cleared and long lines shown around their match: 48/70, 2 FAILs on lines without an error
    # word, both true reports (http.client's closed connection, OpenSSH's changed host key banner)
    "heldout28": {"named_pct": 68.6, "borrowed_per_10": 0.0, "ordinary_fails": 2},
    # round 21: collected (59 runs here, 22 public threads) and checked while round 21's three authors worked, never read
    # by them (tests/fixtures/corpus/heldout29/README.md); at this stop's start 48/69 = 69.6% (h29i 71.4%, h29j 61.1%,
    # h29k 73.9%; 1 FAIL on a line without an error word: gzip's 'not in gzip format' called a damaged package);
    # measured once after round 21: 49/69 = 71.0%, no peer id the line does not support, every unexplained error line
    # listed; then (seen) 16 misses mended as families and the measure reading a decompressor's refusal: 65/69 = 94.2%
    "heldout29": {"named_pct": 94.2, "borrowed_per_10": 0.0, "ordinary_fails": 0},
    # round 22: collected (62 runs here, 19 public threads) and checked while round 22's four authors worked, never read
    # by them (tests/fixtures/corpus/heldout30/README.md); at this stop's start 51/70 = 72.9% (h30i 65.6%, h30j 75.0%,
    # h30k 81.8%; no FAIL on a line without an error word); measured once after round 22: 52/70 = 74.3%, no peer id the
    # line does not support, every unexplained error line listed; then (seen) 16 misses mended as families: 68/70 = 97.1%
    "heldout30": {"named_pct": 97.1, "borrowed_per_10": 0.0, "ordinary_fails": 0},
    # round 23: SAMPLED, not curated (tests/fixtures/corpus/heldout31/README.md): public threads taken in a fixed order
    # by a fixed procedure, checked before any run; at this stop's start 7/20 = 35.0% (h31a 0/5, h31c 7/15), 8/20 after
    # the str matchers read ASCII classes as the bytes ones do; then (seen) 10 misses mended as families: 18/20 = 90.0%
    "heldout31": {"named_pct": 90.0, "borrowed_per_10": 0.0, "ordinary_fails": 0},
    # round 25: SAMPLED as heldout31, with new query grids (tests/fixtures/corpus/heldout32/README.md), checked before any
    # run; at this stop's start 13/34 = 38.2% (h32a no fault thread left, h32c 8/22, h32d 5/12); then (seen) 14 misses
    # mended as families (families_mend_r25_a/b): 27/34 = 79.4%
    "heldout32": {"named_pct": 79.4, "borrowed_per_10": 0.0, "ordinary_fails": 0},
    # tune2/ (a tuning set, not held out): 25 faulty + 5 clean excerpts from issues no other set or KB entry cited,
    # labelled and committed before triage ran on it; measured once after the class entries (fallback) were written
    # and before any tuning: 14/25 = 56.0% named (main without the class entries: the same 14), 0 FAIL from an
    # ordinary line; its misses then written as classes (torch_npu's async inner error naming the operator, NCCL
    # asked on an Ascend host, aclnn missing from libopapi.so, triton-ascend compile failures, vLLM's 'Failed to
    # infer device type' and Ray 'no NPU on node', EZ1001's vendor name cut by a wrapper, 'NaN grad norm' word order)
    "tune2": {"named_pct": 100.0, "borrowed_per_10": 0.0, "ordinary_fails": 0},
}


@pytest.fixture(scope="module")
def measure():
    return measure_module()


@pytest.fixture(scope="module")
def heldout(measure):
    return measure.measure("heldout")


def test_every_excerpt_names_its_source_and_expectation(measure):
    for split in measure.SPLITS:
        rows = measure.excerpts(split)
        assert len(rows) >= 14, split
        for ex in rows:
            # a public issue, a vendor's troubleshooting page that shows the log (hiascend.com, gitcode.com), a
            # MindSpore forum thread, a FAQ / troubleshooting page of a public repository's docs (blob/.../*.md or *.rst),
            # or a blog article (Huawei Cloud's community blogs, GitCode's blog, an article or news page, a CSDN post), or
            # a page of Huawei Cloud's support documentation
            assert re.match(r"https?://(github\.com/[^/]+/[^/]+/((issues|pull)/\d+|blob/\S+\.(?:md|rst))|www\.hiascend\.com/document/\S+|"
                            r"(?:blog\.)?gitcode\.com/\S+|discuss\.mindspore\.cn/t/\S+|bbs\.huaweicloud\.com/blogs/\d+|"
                            r"[a-z0-9.-]+\.(?:com|cn|net)/(?:article|news)/[\w./-]+|blog\.csdn\.net/\w+/article/details/\d+|"
                            r"support\.huaweicloud\.com/[\w./-]+\.html)$|generated: \S.* \((?:no )?fault injected(?:: [^)]|\))", ex["source"]), \
                ex["name"]  # or a run made here, its command and the fault injected (heldout19/generated/)
            assert ex["lines"] and any(line.strip() for line in ex["lines"]), ex["name"]
            if ex["fault"]:
                re.compile(ex["fault"])
    faulty = [ex for split in measure.SPLITS for ex in measure.excerpts(split) if ex["expect"] == "fault"]
    clean = [ex for split in measure.SPLITS for ex in measure.excerpts(split) if ex["expect"] == "clean"]
    assert len(faulty) + len(clean) >= 60 and len(clean) >= 10


def test_every_excerpt_comes_from_its_own_issue(measure):
    """One excerpt per public issue, so the held-out half shares no report with the half signatures were
    written against (common messages such as 'TraceBack (most recent call last):' do recur across reports)."""
    sources = [ex["source"] for split in measure.SPLITS for ex in measure.excerpts(split)]
    # a documentation page (or a write-up: a blog post, a vendor's best-practice page) holds several cases (one FAQ
    # entry each): up to 3 excerpts of one page, all different; an issue, pull request or forum thread gives one
    thread = re.compile(r"/(?:issues|pull|discussions)/\d+|discuss\.mindspore\.cn/t/|bbs\.huaweicloud\.com/forum/")
    pages = {s for s in sources if not thread.search(s)}
    assert all(sources.count(s) <= 3 for s in pages), sorted(s for s in pages if sources.count(s) > 3)
    texts = [(ex["source"], tuple(ex["lines"])) for split in measure.SPLITS for ex in measure.excerpts(split)
             if ex["source"] in pages]
    assert len(texts) == len(set(texts))
    threads = [s for s in sources if s not in pages]
    assert len(threads) == len(set(threads)), sorted(s for s in threads if threads.count(s) > 1)


@pytest.mark.parametrize("split", sorted(FLOORS))
def test_heldout_figures_stay_at_or_above_their_floor(measure, split):
    m = measure.measure(split)
    s, floor = m["summary"], FLOORS[split]
    assert s["faulty"] >= 13 and s["clean"] >= 1
    assert s["named_pct"] >= floor["named_pct"], [r["name"] for r in m["excerpts"] if
                                                  r["expect"] == "fault" and not r["named"]]
    assert s["ordinary_fails"] <= floor["ordinary_fails"], [
        (r["name"], r["ordinary_fails"]) for r in m["excerpts"] if r["ordinary_fails"]]
    if m["peer_rules"]:
        assert s["borrowed_per_10"] <= floor["borrowed_per_10"]
    # nothing dropped: every error line no problem explains is listed (a traceback once, by its exception line)
    assert s["unexplained_listed"] == s["unexplained_errors"], [
        (r["name"], u["line"]) for r in m["excerpts"] for u in r["unexplained"] if not u["listed"]]


def test_clean_excerpts_give_no_failure(heldout, measure):
    for m in [heldout] + [measure.measure(split) for split in measure.SPLITS if split != "heldout"]:
        assert [r["name"] for r in m["excerpts"] if r["expect"] == "clean" and r["ordinary_fails"]] == []


def test_field_case_signatures_are_not_borrowing_peer_ids(measure):
    """The new signatures carry no ascend-fd id: none of the fd rules holds on all their example lines."""
    from ascend_doctor.kb.load import load_knowledge_base

    kb = load_knowledge_base()
    mine = [s for s in kb.signatures if os.path.basename(s.origin or "") == "field_cases.json"]
    assert len(mine) >= 20
    facts = measure.facts()
    for sig in mine:
        for fd in sig.ascend_fd:
            assert facts is not None and all(measure.fd_rule_holds(facts.get(fd), [ex]) for ex in sig.examples), \
                (sig.id, fd)


def test_report_names_what_is_missed_and_why(measure, tmp_path, monkeypatch):
    base = tmp_path / "corpus"
    (base / "heldout").mkdir(parents=True)
    (base / "heldout" / "a.log").write_text(
        "#% source: https://github.com/o/r/issues/1\n#% expect: fault\n#% fault: aicore\n"
        "[INFO] HCCL(507014,python):2024-07-12-10:25:01.104.998 [op_base.cc:120] Entry-HcclCommInitRootInfo\n"
        "Traceback (most recent call last):\nRuntimeError: something nobody knows\n", encoding="utf-8")
    (base / "heldout" / "b.log").write_text(
        "#% source: https://github.com/o/r/issues/2\n#% expect: clean\n"
        "{'loss': 1.141, 'grad_norm': 0.58, 'learning_rate': 8e-05, 'epoch': 50.0}\n", encoding="utf-8")
    monkeypatch.setattr(measure, "CORPUS", str(base))
    m = measure.measure("heldout")
    assert m["summary"]["faulty"] == 1 and m["summary"]["named"] == 0 and m["summary"]["clean"] == 1
    a = m["excerpts"][0]
    # the bare Traceback header (line 2) needs no listing: triage lists the tail, line 3
    assert [u["line"] for u in a["unexplained"]] == [3]
    text = measure.text_report(m)
    assert "a.log: nothing reported" in text and "a.log:3: RuntimeError: something nobody knows" in text


def test_the_measure_reads_a_traceback_as_triage_does_and_catches_a_dropped_line(measure, tmp_path, monkeypatch):
    """A traceback printed through vLLM's logger is one error line to the measure, as to triage (its exception line,
    lines.error_units); a real error line between its frames (a driver's `[ERROR]`) is one of its own and must be
    listed: a triage that dropped it would show as not listed."""
    p = "(Worker_TP0 pid=74487) ERROR 03-01 20:55:34 [multiproc_executor.py:671] "
    base = tmp_path / "corpus"
    (base / "heldout").mkdir(parents=True)
    (base / "heldout" / "a.log").write_text(
        "#% source: https://github.com/o/r/issues/1\n#% expect: fault\n#% fault: aicore\n"
        + p + 'Traceback (most recent call last):\n' + p + '  File "/x/worker.py", line 108, in __init__\n'
        + p + "    self.init_device()\n"
        + "[ERROR] DRV(2086,python3):2024-07-12-10:21:01.520.037 dev_query: item 12 of device 0 is out of range\n"
        + p + '  File "/x/npu.py", line 12, in init_device\n' + p + "    raise SystemError(\n"
        + p + "SystemError: the sampler queue of worker 3 was closed\n", encoding="utf-8")
    monkeypatch.setattr(measure, "CORPUS", str(base))
    [row] = measure.measure("heldout")["excerpts"]
    assert [(u["line"], u["listed"]) for u in row["unexplained"]] == [(4, True), (7, True)]
    assert row["folded"] == 5  # header, two frames, two source lines

    from ascend_doctor.triage import lines as lines_mod

    real = lines_mod.Unexplained.listed
    monkeypatch.setattr(lines_mod.Unexplained, "listed",
                        lambda self, show: [e for e in real(self, show) if "dev_query" not in e["text"]])
    [row] = measure.measure("heldout")["excerpts"]
    assert [(u["line"], u["listed"]) for u in row["unexplained"]] == [(4, False), (7, True)]


@pytest.mark.parametrize("line,error", [
    ("bash: /usr/bin/cp: Argument list too long", True),  # E2BIG's strerror text after a colon
    ("OSError: [Errno 36] File name too long: 'x'", True),
    ("cp: cannot create regular file 'bin/app': Text file busy", True),
    ("run.sh: line 4: ${name//-/_}: bad substitution", True),  # bash's error form
    ("prepare.sh: 3: Bad substitution", True),  # dash's
    ("NVRM: GPU 0000:06:00.0: GPU has fallen off the bus.", True),  # the NVIDIA kernel driver's fault reports
    ("NVRM: Xid (PCI:0000:06:00): 79, pid=1234, GPU has fallen off the bus.", True),
    ("NVRM: loading NVIDIA UNIX x86_64 Kernel Module  535.104.05", False),
    ("[188549.976351] NVRM: The NVIDIA probe routine was not called for 3 device(s).", True),  # the driver bound no GPU
    ("[188497.595099] NVRM: No NVIDIA graphics adapter probed!", True),
    ("[    4.203113] nvidia 0000:3b:00.0: enabling device (0000 -> 0003)", False),
    ("gzip: stdin: unexpected end of file", True),  # input cut short
    ("tar: Unexpected EOF in archive", True),
    ("git: 'lfs' is not a git command. See 'git --help'.", True),
    ("The NVIDIA driver on your system is too old (found version 6050).", True),  # a version check's refusal
    (" ! [rejected]        main -> main (fetch first)", True),  # a refusal said as rejected
    ("insmod: ERROR: could not insert module nvidia.ko: Key was rejected by service", True),
    ("Rejection sampling accepted 12 of 40 drafts", False),
    ('  File "/usr/lib/python3.11/subprocess.py", line 1950, in _execute_child', True),  # a traceback's frame
    ("File /data/a.txt, line 3, in the header: 12 columns", False),
    ("Removing checkpoints too old to keep: checkpoint-100", False),
    ("Reached the end of file list, 12 files", False),
    ("epoch: 1 step: 20, loss is 0.532", False),
    ("[INFO] RUNTIME(1234,python):2024-07-12-10:20:00.000.000 stream 3 created", False),
    ("Saving checkpoint to ./output/checkpoint-500", False),
])
def test_the_measure_reads_the_c_librarys_and_the_shells_error_words(measure, line, error):
    # a FAIL on such a line is a true report of a failure, not one from an ordinary line
    assert bool(measure.ERROR_WORD.search(line)) is error


def test_a_fail_read_on_a_traceback_frame_is_not_from_an_ordinary_line(measure, tmp_path, monkeypatch):
    # subprocess's frame says the program never started; the frame is part of the exception's report, not an ordinary
    # line, while the same FAIL in an excerpt labelled clean still counts
    body = ("Traceback (most recent call last):\n  File \"probe.py\", line 3, in <module>\n"
            "    subprocess.run([\"nvidia-smi\"])\n"
            "  File \"/usr/lib/python3.11/subprocess.py\", line 1950, in _execute_child\n"
            "    raise child_exception_type(errno_num, err_msg, err_filename)\n"
            "FileNotFoundError: [Errno 2] No such file or directory: 'nvidia-smi'\n")
    base = tmp_path / "corpus"
    (base / "heldout").mkdir(parents=True)
    (base / "heldout" / "a.log").write_text(
        "#% source: https://github.com/o/r/issues/1\n#% expect: fault\n#% fault: subprocess\n" + body, encoding="utf-8")
    (base / "heldout" / "b.log").write_text(
        "#% source: https://github.com/o/r/issues/2\n#% expect: clean\n" + body, encoding="utf-8")
    monkeypatch.setattr(measure, "CORPUS", str(base))
    rows = {r["name"]: r for r in measure.measure("heldout")["excerpts"]}
    assert "PY_SUBPROCESS_PROGRAM_NOT_STARTED" in [p if isinstance(p, str) else p["id"] for p in rows["a.log"]["problems"]]
    assert rows["a.log"]["ordinary_fails"] == [] and "PY_SUBPROCESS_PROGRAM_NOT_STARTED" in rows["b.log"]["ordinary_fails"]
    # the exception under the frame is the frame entry's line (Signature.exception_under): explained, not listed
    assert rows["a.log"]["unexplained"] == [] and rows["a.log"]["problems"] == ["PY_SUBPROCESS_PROGRAM_NOT_STARTED"]


def test_a_bad_header_is_one_clear_line(measure, tmp_path):
    bad = tmp_path / "x.log"
    bad.write_text("#% source: https://github.com/o/r/issues/1\n#% expect: maybe\nline\n", encoding="utf-8")
    with pytest.raises(SystemExit) as err:
        measure.read_excerpt(str(bad))
    assert "x.log" in str(err.value) and "expect" in str(err.value)


def test_fd_rule_reads_alternatives_and_regex(measure):
    entry = {"all_of": [["aicore timeout"], ["AICORE Kernel task happen error"]]}
    assert measure.fd_rule_holds(entry, ["x [aicore timeout] y"])
    assert not measure.fd_rule_holds(entry, ["error code:507014"])
    assert measure.fd_rule_holds({"all_of": ["EI0002", "notify"]}, ["EI0002: notify wait"])
    assert measure.fd_rule_holds({"regex": r"ret=\d+"}, ["ret=4"])
    assert not measure.fd_rule_holds(None, ["anything"])


def test_an_id_without_a_line_rule_in_the_facts_holds_by_the_peers_source_rule(measure):
    # Comp_Network_Custom_01 (Link Down) has no all_of/regex in kg-config.json: ascend-fd's LinkDownParser reads
    # hccn_tool's link records (scripts/build_fd_rules.py SOURCE_RULES), as the product's peer check does
    entry = {"id": "Comp_Network_Custom_01", "label_en": "Link Down: intermittently disconnected NPU"}
    assert measure.fd_rule_holds(entry, ["[devid 2]    Fri Sep  1 06:34:43 2023    LINK DOWN"])
    assert not measure.fd_rule_holds(entry, ["[devid 2]    Fri Sep  1 06:34:43 2023    LINK UP"])
    assert not measure.fd_rule_holds({"id": "Comp_Network_Custom_04"}, ["LINK DOWN"])  # no rule anywhere


def test_a_code_named_peer_id_holds_only_with_its_own_code(measure):
    """ascend-fd names a generic code entry with the line's code (AISW_CANN_ERRCODE_Custom_EZ9999): the measure
    accepts it where the entry's rule holds and its attr_regex reads that code, not another."""
    fd_facts = measure.facts()
    if fd_facts is None:
        pytest.skip("shared/reference/ascend_fd_kb_facts.json not found")
    line = "[ERROR] RUNTIME(1,python):2024-07-12-10:21:33.512.118 [x.cc:1] EZ9999: Inner Error!"
    assert measure.fd_id_holds(fd_facts, "AISW_CANN_ERRCODE_Custom_EZ9999", [line])
    assert not measure.fd_id_holds(fd_facts, "AISW_CANN_ERRCODE_Custom_EZ0000", [line])
    assert not measure.fd_id_holds(fd_facts, "AISW_CANN_ERRCODE_Custom_EZ9999", ["[INFO] nothing to see"])
    assert not measure.fd_id_holds(fd_facts, "NO_SUCH_ID_EZ9999", [line])


# The class signatures written from the pooled misses of every corpus (issue 21, round 2): one entry per class of
# error line, each with the class's telling words, never one excerpt's unique text.
CLASS_SIGNATURES = ("PY_MODULE_NOT_INSTALLED", "ASCEND_DRIVER_TOOL_NOT_FOUND", "ASCEND_SOC_NAME_UNREADABLE",
                    "VLLM_KV_CACHE_MEMORY_NEGATIVE", "ASCENDC_CMAKE_SOC_OR_TOOLKIT_MISSING",
                    "CMAKE_REQUIRED_PACKAGE_NOT_FOUND", "OP_UNSUPPORTED_ON_SOC", "OPP_KERNELS_NOT_INSTALLED_NO_BINARY",
                    "K8S_NPU_DEVICE_UNHEALTHY", "ORT_CANN_EP_CALL_FAILED", "CANN_LIB_CRASH_BACKTRACE",
                    "SETDEVICE_INVALID_ID_107001",
                    # round 4: the class layer (fallback entries) and tune2's classes
                    "CANN_MODULE_FAILURE_CODE", "ACLNN_OPERATOR_CALL_FAILED", "CANN_RUNTIME_CALL_FAILED",
                    "HCCL_FUNCTION_ERROR_RESULT", "TORCH_NPU_ASYNC_OPERATOR_INNER_ERROR",
                    "TORCH_DIST_NCCL_BACKEND_UNAVAILABLE", "TORCH_NPU_ACLNN_NOT_IN_OPAPI",
                    "TRITON_ASCEND_KERNEL_COMPILE_FAILED", "VLLM_DEVICE_TYPE_NOT_INFERRED", "VLLM_RAY_NODE_HAS_NO_DEVICE",
                    "TORCH_CUDA_CALLED_ON_NPU_HOST", "TORCH_OP_NOT_ON_NPU_BACKEND", "CANN_TYPED_ERROR_CODE",
                    "HCCL_ERRNO_RESULT")


@pytest.mark.parametrize("line, sig_id", [
    ("ModuleNotFoundError: No module named 'mindie_llm'", "PY_MODULE_NOT_INSTALLED"),
    ("ImportError: No module named 'dlinfer.vendor'", "PY_MODULE_NOT_INSTALLED"),
    ("exec: \"/usr/local/bin/npu-smi\": executable file not found in $PATH", "ASCEND_DRIVER_TOOL_NOT_FOUND"),
    ("hccn_tool not found in [/usr/local/Ascend/driver/tools/hccn_tool]", "ASCEND_DRIVER_TOOL_NOT_FOUND"),
    ("[ERROR] DEVICE(1,ffff,python):2024-01-01-00:00:00.000.000 [ge_device_context.cc:557] SetContextSocVersion] "
     "Get soc name failed.", "ASCEND_SOC_NAME_UNREADABLE"),
    ("INFO 01-01 00:00:00 [worker.py:200] Available KV cache memory: -12 GiB", "VLLM_KV_CACHE_MEMORY_NEGATIVE"),
    ("  SOC_VERSION ascend910_9391 does not support, the support list is", "ASCENDC_CMAKE_SOC_OR_TOOLKIT_MISSING"),
    ("  Could NOT find ASCEND (missing: ASCEND_INCLUDE_DIR)", "CMAKE_REQUIRED_PACKAGE_NOT_FOUND"),
    ("RuntimeError: Can not find any available kernel info for: Erfinv. Maybe the operator is not supported on "
     "Ascend platform.", "OP_UNSUPPORTED_ON_SOC"),
    ("[ERROR] Get path and read binary_info_config.json failed, please check if the opp_kernel package is installed!",
     "OPP_KERNELS_NOT_INSTALLED_NO_BINARY"),
    ("E0101 10:00:00.000000 1 main.go:80] failed to get device health: ret code: -8005, health code: 0",
     "K8S_NPU_DEVICE_UNHEALTHY"),
    ("2024-01-01 00:00:00.000 [E:onnxruntime:Default, cann_call.cc:139 CannCall] CANN failure 507011: "
     "ACL_ERROR_RT_MODEL_EXECUTE ; NPU=1 ; hostname=h ; expr=aclmdlExecute(model, input, output);", "ORT_CANN_EP_CALL_FAILED"),
    ("[host:123] [ 2] /usr/local/Ascend/ascend-toolkit/latest/lib64/libascendcl.so(aclrtSynchronizeStream+0x20)"
     "[0xffff552c55b4]", "CANN_LIB_CRASH_BACKTRACE"),
    ("EE1001: [PID: 7] 2025-01-01-00:00:00.000.000 The argument is invalid.Reason: set ASCEND_RT_VISIBLE_DEVICES:9 "
     "error, input data rang[0-8)", "SETDEVICE_INVALID_ID_107001"),
    ("RuntimeError: InnerRun:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:218 OPS function error: MaxPool3D, "
     "error code is 500004", "CANN_MODULE_FAILURE_CODE"),
    ("RuntimeError: aclnnGroupedMatmulV4GetWorkspaceSize failed with aclnnStatus=161002.", "ACLNN_OPERATOR_CALL_FAILED"),
    ("[ERROR] RUNTIME(9,python):2025-01-01-00:00:00.000.000 aclrtCreateStream failed, ret=207001",
     "CANN_RUNTIME_CALL_FAILED"),
    ("RuntimeError: HCCL function error: HcclBroadcast(ptr, count, type, root, comm, stream), error code is 7",
     "HCCL_FUNCTION_ERROR_RESULT"),
    ("RuntimeError: The Inner error is reported as above. The process exits for this inner error, and the current "
     "working operator name is MatMulV2.", "TORCH_NPU_ASYNC_OPERATOR_INNER_ERROR"),
    ("RuntimeError: aclnnMoeGatingTopK or aclnnMoeGatingTopKGetWorkspaceSize not in libopapi.so, or libopapi.so not "
     "found.", "TORCH_NPU_ACLNN_NOT_IN_OPAPI"),
    ("loc(\"/tmp/tmpab12/kernel.ttadapter.mlir\":3:1): error: Failed to run BiShengHIR pipeline",
     "TRITON_ASCEND_KERNEL_COMPILE_FAILED"),
    ("(EngineCore pid=7) RuntimeError: Failed to infer device type", "VLLM_DEVICE_TYPE_NOT_INFERRED"),
    ("ValueError: Current node has no NPU available. current_node_resource={'CPU': 8.0}. vLLM engine cannot start",
     "VLLM_RAY_NODE_HAS_NO_DEVICE"),
    ("NotImplementedError: Could not run 'aten::_fft_r2c' with arguments from the 'PrivateUse1' backend.",
     "TORCH_OP_NOT_ON_NPU_BACKEND"),
    ("[PID: 7] 2026-01-01-00:00:00.000.000 Invalid_Argument(EE1001): The argument is invalid.",
     "CANN_TYPED_ERROR_CODE"),
])
def test_class_signatures_read_other_members_of_their_class(line, sig_id):
    """Each class entry reads forms of its class with another module, tool, chip, package or operator than the
    excerpt it was written from."""
    from ascend_doctor.kb.load import load_knowledge_base

    assert sig_id in [s.id for s in load_knowledge_base().match_line(line)]


@pytest.mark.parametrize("line", [
    "(Worker_TP0 pid=2390) INFO 06-10 16:39:18 [worker.py:401] Available KV cache memory: 25.82 GiB",
    "-- Could NOT find CUDA (missing: CUDA_TOOLKIT_ROOT_DIR CUDA_NVCC_EXECUTABLE CUDA_INCLUDE_DIRS)",
    "-- CANN: SOC_VERSION auto-detected is:Ascend310B1",
    "-- SOC_VERSION ascend910b3 does not support ASC, use KernelLaunch.",
    "[INFO] DEVICE(384,ffffb37b1010,python):2025-10-20-09:54:58.317.320 [ge_device_context.cc:561] "
    "SetContextSocVersion] The soc version :Ascend910B4-1",
    "Failed to import from vllm._C with ModuleNotFoundError(\"No module named 'vllm._C'\")",
    "WARNING 03-04 12:57:08 [__init__.py:28] ModuleNotFoundError: No module named 'flash_attn', using the torch path",
    "npu-smi info -t board -i 0",
    "+ hccn_tool -i 0 -link -g",
    "[INFO] Start get path and read binary_info_config.json.",
    "[INFO] KERNEL(90948,fffdbae749f0,python):2024-03-19-17:40:09.790.450 [kernel_select_ascend.cc:100] "
    "Select kernel info for: HSwish",
    "I0101 10:00:00.000000 1 server.go:120] device health check: 8 healthy devices",
    "2024-05-09 07:05:27 [I:onnxruntime:Default, cann_execution_provider.cc:1200 GetCapability] CANN EP: all nodes placed",
    "[host:123] [ 3] /usr/lib64/libc.so.6(+0x2a1c0)[0xffff552c55b4]",
    "[INFO] HCCL(500002,python):2024-07-12-10:20:00.000.000 [op_base.cc:1] Entry-HcclAllReduce: count[500003]",
    "[INFO] RUNTIME(1234,python):2024-07-12-10:20:00.000.000 [api_c.cc:1] aclrtSetDevice success, deviceId=0",
    "[INFO] OP(1234,python):2024-07-12-10:20:00.000.000 aclnnMatmulGetWorkspaceSize success, workspace 1024",
    "    raise RuntimeError(\"Failed to infer device type\")",
    "INFO 08-08 20:10:18 [__init__.py:230] Platform plugin ascend is activated",
    "[INFO]: The compiled kernel cache is in /root/.triton/cache/rLkuzPEI5g",
    "backend = 'hccl' if is_npu_available() else 'nccl'",
    "NotImplementedError: Could not run 'torchvision::nms' with arguments from the 'CUDA' backend.",
    "[PID: 1] 2026-01-01-00:00:00.000.000 Inner_Error(EZ9999): Inner Error!",
])
def test_class_signatures_stay_quiet_on_ordinary_lines(line):
    from ascend_doctor.kb.load import load_knowledge_base

    assert [s.id for s in load_knowledge_base().match_line(line) if s.id in CLASS_SIGNATURES] == []


def test_class_signatures_stay_quiet_on_every_clean_excerpt(measure):
    from ascend_doctor.kb.load import load_knowledge_base

    assert clean_excerpt_hits(load_knowledge_base(), CLASS_SIGNATURES, measure) == []


@pytest.mark.parametrize("line, sig_id, said", [
    ("ModuleNotFoundError: No module named 'mindie_llm'", "PY_MODULE_NOT_INSTALLED", "(`mindie_llm`)"),
    ("exec: \"/usr/local/bin/npu-smi\": executable file not found in $PATH", "ASCEND_DRIVER_TOOL_NOT_FOUND",
     "(`npu-smi`)"),
    ("  Could NOT find ASCEND (missing: ASCEND_INCLUDE_DIR)", "CMAKE_REQUIRED_PACKAGE_NOT_FOUND", "(`ASCEND`)"),
    ("bishengir-compile: for the --target option: Cannot find option named 'Ascend310P3'!",
     "TRITON_ASCEND_TARGET_UNKNOWN", "(`Ascend310P3`)"),
    ("RuntimeError: Can not find any available kernel info for: Erfinv. Maybe the operator is not supported on "
     "Ascend platform.", "OP_UNSUPPORTED_ON_SOC", "(`Erfinv`)"),
    ("Status Message: CANN Graph error executing ge::aclgrphBuildModel(graph, options, model)",
     "ORT_CANN_EP_CALL_FAILED", "(`ge::aclgrphBuildModel`)"),
    ("INFO 01-01 00:00:00 [worker.py:200] Available KV cache memory: -12 GiB", "VLLM_KV_CACHE_MEMORY_NEGATIVE",
     "(-12 GiB)"),
    # round 3: the aclnn parameter check says the operator and the data type its line names
    ("RuntimeError: call aclnnCast failed, detail:EZ1001: The param dtype not implemented for DT_BFLOAT16, should be "
     "in dtype support list [DT_FLOAT16,DT_FLOAT,].", "ACLNN_PARAM_INVALID_161002",
     "(`aclnnCast`) rejected a parameter (161002, AclNN_Parameter_Error EZ1001): data type DT_BFLOAT16 is not in"),
    ("[PID: 465] 2026-02-09-17:11:34.368.749 AclNN_Parameter_Error(EZ1001): Tensor scale not implemented for "
     "DT_FLOAT16, should be in dtype support list [DT_UINT64,DT_BFLOAT16,DT_INT64,DT_FLOAT,].",
     "ACLNN_PARAM_INVALID_161002", ": data type DT_FLOAT16 is not in its dtype support list"),
    ("RuntimeError: npu_quant_matmul_symint:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:211 NPU function error: "
     "call aclnnQuantMatmulWeightNz failed, error code is 161002", "ACLNN_PARAM_INVALID_161002",
     "(`aclnnQuantMatmulWeightNz`) rejected a parameter (161002, AclNN_Parameter_Error EZ1001): a shape, rank"),
])
def test_class_entries_say_the_member_of_their_class_they_read(line, sig_id, said):
    """The variable part a class entry leaves open is said in its title (issue 21: values said in the words)."""
    from ascend_doctor.kb.load import load_knowledge_base

    sig = load_knowledge_base().signature(sig_id)
    assert sig.search(line) and said in sig.text("en", line=line)[0] and said not in sig.text("en")[0]


# Fault families (issue 21, round 5): one fallback entry per fault written many ways by many frameworks, from the
# frameworks' own message strings (torch c10d/elastic, MindSpore msrun, glibc/ld.so, torch load_library and backend
# autoload, Python's NameError/ImportError, torch_npu/MindSpore/Paddle/MindIE/CANN out-of-memory texts, CANN ops'
# tiling errors, HCCL EI0009/HCCP, the driver's DrvMng/DCMI start-up, PyTorch dispatch and aclnn dtype checks).
FAMILY_SIGNATURES = ("DIST_JOB_RENDEZVOUS_TIMEOUT", "SHARED_LIBRARY_NOT_LOADABLE", "TORCH_DEVICE_BACKEND_NOT_LOADED",
                     "PY_ASCEND_PACKAGE_NAME_MISSING", "MEMORY_EXHAUSTED_REPORTED", "OP_TILING_FAILED",
                     "HCCL_LINK_SETUP_FAILED", "NPU_DRIVER_NOT_ACCESSIBLE", "OP_DTYPE_NOT_SUPPORTED",
                     "ASCEND_KERNEL_SOURCE_COMPILE_ERROR", "MEMORY_UNCORRECTABLE_ECC_REPORTED",
                     "OP_KERNEL_BINARY_NOT_FOUND", "GE_ERRORNO_REPORTED", "FLAG_DEFINED_TWICE",
                     # round 3: SoC-table lookups (torch_npu, vLLM-Ascend's build, AI CPU kernels); GE's single-op
                     # argument checks (SingleOp::ValidateArgs, whichever framework calls aclopExecute)
                     "SOC_VERSION_NOT_SUPPORTED", "GE_SINGLE_OP_ARGS_MISMATCH_145000",
                     # round 3: the driver tools run by a Python caller with check=True (CalledProcessError)
                     "NPU_DRIVER_TOOL_EXIT_NONZERO",
                     # round 3: PyTorch's fake/Meta dispatch during graph capture (torch.compile, vLLM graph mode)
                     "OP_NO_FAKE_IMPL_FOR_GRAPH_CAPTURE")


@pytest.mark.parametrize("line, sig_id, said", [
    ("torch.distributed.DistStoreError: Timed out after 901 seconds waiting for clients. 3/4 clients joined.",
     "DIST_JOB_RENDEZVOUS_TIMEOUT", "3/4 joined"),
    # (msrun's `Time out nodes are [...]` is MS_CLUSTER_NODE_TIMED_OUT's since round 26: tests/kb/test_precision_mend_r26)
    ("OSError: libascend_hal.so: cannot open shared object file: No such file or directory",
     "SHARED_LIBRARY_NOT_LOADABLE", "`libascend_hal.so`"),
    ("/usr/bin/python3: error while loading shared libraries: libssl.so.3: cannot open shared object file",
     "SHARED_LIBRARY_NOT_LOADABLE", "`libssl.so.3`"),
    ("RuntimeError: Failed to load the backend extension: torch_mlu. You can disable extension auto-loading with "
     "TORCH_DEVICE_BACKEND_AUTOLOAD=0.", "TORCH_DEVICE_BACKEND_NOT_LOADED", "`torch_mlu`:"),
    ("NameError: name 'acl' is not defined", "PY_ASCEND_PACKAGE_NAME_MISSING", "`acl`"),
    ("ImportError: cannot import name 'AscendConfig' from 'vllm_ascend.ascend_config'",
     "PY_ASCEND_PACKAGE_NAME_MISSING", "`vllm_ascend.ascend_config`"),
    ("RuntimeError: Allocate device memory failed, size 2147483648", "MEMORY_EXHAUSTED_REPORTED",
     "(Allocate device memory)"),
    ("ERROR 01-01 00:00:00 [core.py:1] EngineCore failed to start: out of memory while capturing graphs",
     "MEMORY_EXHAUSTED_REPORTED", "Out of memory"),
    ("GroupedMatmul do tiling failed, ret is -1.", "OP_TILING_FAILED", "(`GroupedMatmul`)"),
    ("[ERROR] OP(1,python):2025-01-01-00:00:00.000.000 [op_tiling.cc:1] OpTilingFunc of MatMulV3 failed",
     "OP_TILING_FAILED", "tiling failed"),
    ("Device 2 transport init error. Reason: connect timeout.", "HCCL_LINK_SETUP_FAILED", ": connect timeout"),
    ("dcmi module initialize failed. ret is -8020", "DCMI_RETURN_CODE", "-8020 (DCMI_ERR_CODE_RESOURCE_OCCUPIED)"),
    ("RuntimeError: \"index_put_\" not implemented for 'BFloat16'", "OP_DTYPE_NOT_SUPPORTED",
     "BFloat16 (`index_put_`)"),
    ("EZ1001: [PID: 9] 2025-01-01-00:00:00.000.000 self not implemented for DT_INT16, should be in dtype support list "
     "[DT_FLOAT].", "OP_DTYPE_NOT_SUPPORTED", "DT_INT16"),
    ("/opt/tilelang/src/target/codegen_ascend.cc.gen/kernel_main.cpp:88:3: error: use of undeclared identifier 'Mmad'",
     "ASCEND_KERNEL_SOURCE_COMPILE_ERROR", ": use of undeclared identifier 'Mmad'"),
    ("ccec: error: no such file or directory: 'add_custom.cpp'", "ASCEND_KERNEL_SOURCE_COMPILE_ERROR",
     ": no such file or directory"),
    ("[ 1234.567890] {2}[Hardware Error]:   error_type: 5, multi-symbol chipkill ECC",
     "MEMORY_UNCORRECTABLE_ECC_REPORTED", ": multi-symbol chipkill ECC"),
    ("       Cannot find binary for op Range.", "OP_KERNEL_BINARY_NOT_FOUND", "(Range)"),
    ("RuntimeError: Cannot find binary for op MoeInitRoutingV3, errno:561000", "OP_KERNEL_BINARY_NOT_FOUND",
     "(MoeInitRoutingV3)"),
    ("[ERROR] GE(34201,python3):2025-11-06-00:03:33.915.355 [om_file_helper.cc:265]34201 CheckModelCompatibility: "
     "ErrorNo: 1343225859(Failed to call runtime API!) [LOAD][DEFAULT]Call rt api failed, ret: 0x7BC80",
     "GE_ERRORNO_REPORTED", ": Failed to call runtime API!"),
    ("E0101 00:00:00.000000 1 reflection.cc:1] Flag 'v' was defined more than once (in files 'absl/log/flags.cc' and "
     "'third_party/abseil/absl/log/flags.cc').", "FLAG_DEFINED_TWICE", "(`v`)"),
    ("RuntimeError: Unsupported soc version: Ascend950PR 9579", "SOC_VERSION_NOT_SUPPORTED", "chip (Ascend950PR)"),
    ("[ERROR] AICPU(9,aicpu_scheduler):2025-01-01-00:00:00.000.000 [kernel.cc:1] Unsupported soc version: Ascend310P3",
     "SOC_VERSION_NOT_SUPPORTED", "(Ascend310P3)"),
    ("[ERROR] GE(9,python):2024-01-01-00:00:00.000.000 [single_op.cc:1]9 ValidateArgs: ErrorNo: 145000(Parameter "
     "invalid.) [Check][Param:outputs]output num mismatch. model expect 2, but given 1",
     "GE_SINGLE_OP_ARGS_MISMATCH_145000", ": output num mismatch"),
    ("[ERROR] ASCENDCL(9,python):2024-01-01-00:00:00.000.000 [op_executor.cpp:1]9 DoExecuteAsync: Execute op failed. "
     "ge result = 145000", "GE_SINGLE_OP_ARGS_MISMATCH_145000", "count or size differs"),
    ("subprocess.CalledProcessError: Command '['/usr/local/sbin/npu-smi', 'info', '-t', 'memory', '-i', '3']' "
     "returned non-zero exit status 3.", "NPU_DRIVER_TOOL_EXIT_NONZERO", "(`npu-smi`): exit status 3"),
    ("subprocess.CalledProcessError: Command 'hccn_tool -i 7 -link -g' returned non-zero exit status 255.",
     "NPU_DRIVER_TOOL_EXIT_NONZERO", "(`hccn_tool`): exit status 255"),
    ("NotImplementedError: _C::rms_norm: attempted to run this operator with Meta tensors, but there was no fake impl "
     "or Meta kernel registered.", "OP_NO_FAKE_IMPL_FOR_GRAPH_CAPTURE", "(`_C::rms_norm`)"),
    ("torch._subclasses.fake_tensor.UnsupportedOperatorException: npu.npu_rotary_mul.default",
     "OP_NO_FAKE_IMPL_FOR_GRAPH_CAPTURE", "(`npu.npu_rotary_mul.default`)"),
])
def test_family_entries_read_members_of_their_family_and_say_them(line, sig_id, said):
    """Each family entry reads the fault as other frameworks, libraries, operators or nodes print it, and its title
    says the member the line names."""
    from ascend_doctor.i18n import set_lang
    from ascend_doctor.kb.load import load_knowledge_base

    set_lang("en")
    sig = load_knowledge_base().signature(sig_id)
    assert sig.fallback and sig.search(line)
    assert said in sig.text("en", line=line)[0]


@pytest.mark.parametrize("line", [
    "[INFO] HCCL(1,python):2024-07-12-10:20:00.000.000 [transport_manager.cc:1] Transport init success, remote rank 3",
    "INFO 01-01 00:00:00 [worker.py:1] Memory profiling done; to avoid out of memory errors lower --max-num-seqs",
    "[W socket.cpp:1] [c10d] The server socket has started to listen on [::]:29500.",
    "[DEBUG] GE(1,python):2025-01-01-00:00:00.000.000 TilingFunc registered for MatMulV3",
    "dcmi module initialize success",
    "\tlibhccl.so => /usr/local/Ascend/ascend-toolkit/latest/lib64/libhccl.so (0x0000ffff9a0d0000)",
    "    raise OSError(f\"Could not load this library: {path}\") from e",
    "self.dtype = torch.bfloat16  # unsupported dtype on 310P is handled below",
    "    import torch_npu  # noqa: F401",
    "[ERROR] ME(1:1,MainProcess):2025-01-01-00:00:00.000.000 [_api.py:431] Time out nodes are []",
    "{'loss': 1.2, 'grad_norm': 0.5, 'memory_allocated': 30.1, 'out_of_memory_retries': 0}",
    "should be in dtype support list",
    "/home/user/project/src/main.cpp:10:5: error: expected ';' before 'return'",
    "/usr/local/Ascend/ascend-toolkit/latest/include/acl/acl.h:12:5: warning: 'aclrtMalloc' is deprecated",
    "[Hardware Error]: error_type: 2, single-bit ECC",
    "[INFO] OP(1,python):2025-01-01-00:00:00.000.000 [op_binary_resource.cc:1] Find binary for op MatMulV2 success.",
    "[INFO] GE(1,python):2025-01-01-00:00:00.000.000 [graph_prepare.cc:1] ErrorNo: 1343242270(Prepare Graph infershape "
    "failed) recorded",
    "[ERROR] GE(1,a):2025-01-01-00:00:00.000.000 [graph_manager.cc:1]1 AddGraph: ErrorNo: 4294967295(failed) [COMP]",
    "I0101 00:00:00.000000 1 flags.cc:1] flag 'devices' was defined with value npu:0",
    "    echo \"Unsupported SOC version: $SOC_VERSION\"",
    "[INFO] RUNTIME(1,python):2025-01-01-00:00:00.000.000 soc version: Ascend910B2, supported",
    "[INFO] GE(1,python):2025-01-01-00:00:00.000.000 [single_op.cc:1] Input [0], aligned_size:64, inputs.length:60",
    "RuntimeError: size mismatch, model expects 3 channels but given 4",
    "subprocess.CalledProcessError: Command '['nvidia-smi', '-L']' returned non-zero exit status 9.",
    "    out = subprocess.run(['npu-smi', 'info'], check=True)  # returned non-zero exit status is raised",
    "    raise UnsupportedOperatorException(func)",
])
def test_family_entries_stay_quiet_on_ordinary_lines(line):
    from ascend_doctor.kb.load import load_knowledge_base

    assert [s.id for s in load_knowledge_base().match_line(line) if s.id in FAMILY_SIGNATURES] == []


def test_family_entries_stay_quiet_on_every_clean_excerpt(measure):
    from ascend_doctor.kb.load import load_knowledge_base

    assert clean_excerpt_hits(load_knowledge_base(), FAMILY_SIGNATURES, measure) == []


@pytest.mark.parametrize("line, specific, family", [
    ("torch.OutOfMemoryError: NPU out of memory. Tried to allocate 72.00 MiB (NPU 0; 61.27 GiB total capacity)",
     "TORCH_NPU_OOM", "MEMORY_EXHAUSTED_REPORTED"),
    ("ImportError: libatb.so: cannot open shared object file: No such file or directory", "NNAL_ATB_NOT_FOUND",
     "SHARED_LIBRARY_NOT_LOADABLE"),
    ("dcmi module initialize failed. ret is -8005", "DCMI_INIT_FAILED_8005", "DCMI_RETURN_CODE"),
])
def test_a_specific_entry_wins_over_its_family_on_the_same_line(tmp_path, line, specific, family):
    from ascend_doctor.kb.load import load_knowledge_base
    from ascend_doctor.triage.scan import triage_paths

    kb = load_knowledge_base()
    assert {specific, family} <= {s.id for s in kb.match_line(line)}
    log = tmp_path / "x.log"
    log.write_text(line + "\n", encoding="utf-8")
    ids = [p["id"] for p in triage_paths([str(log)], kb).to_json()["problems"]]
    assert specific in ids and family not in ids


@pytest.mark.parametrize("line, said", [
    ("[ERROR] ME(7:1,MainProcess):2025-01-01-00:00:00.000.000 [mindspore/parallel/cluster/process_entity/_api.py:320] "
     "Worker process 4242 exit with exception.", "(Worker 4242)"),
    ("RuntimeError: Worker failed with error 'NPU out of memory', please check the stack trace above for the root cause",
     "one of its processes failed:"),
])
def test_a_launchers_worker_failure_is_a_wrapper_that_points_to_the_workers_log(line, said):
    """msrun, torchrun and vLLM say that a worker died, not why: the entry is a wrapper (any entry with a cause of its
    own on the worker's lines is reported instead) and says which process the line names."""
    from ascend_doctor.i18n import set_lang
    from ascend_doctor.kb.load import load_knowledge_base

    set_lang("en")
    sig = load_knowledge_base().signature("LAUNCHER_WORKER_EXITED_WITH_ERROR")
    assert sig.kind == "wrapper" and sig.search(line) and said in sig.text("en", line=line)[0]
    assert not sig.search("[WARNING] ME(1:1,MainProcess):2025-01-01-00:00:00.000.000 [_api.py:318] There's worker "
                          "exits with exception, kill all other workers.")


# The Python side of NPU jobs (data/kb/families_python.json): family entries written from the frameworks' own message
# strings (PyTorch's device parser and c10d, torch_npu/AscendCL/runtime device count, argparse / ms-swift /
# HfArgumentParser, vLLM-Ascend's quantization lookup and load_state_dict, llama.cpp's CANN printer and GGML_ASSERT,
# Mooncake / vLLM-Ascend connectors / LLMDataDist).
PY_FAMILY_SIGNATURES = ("TORCH_NPU_DEVICE_NOT_REGISTERED", "NPU_DEVICE_COUNT_UNAVAILABLE", "LAUNCH_ARGUMENTS_REJECTED",
                        "MODEL_PARAMETER_KEY_MISSING", "GGML_CANN_BACKEND_ERROR", "GGML_ASSERT_FAILED",
                        "KV_CACHE_TRANSFER_FAILED",
                        # torch.compile (TorchDynamo / Inductor), model registries (vLLM, transformers, llama.cpp), pip
                        "TORCH_COMPILE_GRAPH_CAPTURE_FAILED", "MODEL_ARCHITECTURE_NOT_SUPPORTED",
                        "PIP_REQUIREMENT_NOT_AVAILABLE", "PIP_DEPENDENCY_CONFLICT",
                        # AttributeError on an Ascend package's module (Python's own message)
                        "ASCEND_PACKAGE_ATTRIBUTE_MISSING",
                        # vLLM / vLLM-Ascend worker start-up checks: visible devices, free device memory
                        "VISIBLE_DEVICES_FEWER_THAN_LOCAL_WORLD", "VLLM_STARTUP_FREE_MEMORY_BELOW_REQUEST",
                        # SIGILL: a build for a newer CPU than the host's (Phytium, Kunpeng, old x86)
                        "PROCESS_ILLEGAL_INSTRUCTION_SIGILL",
                        # NumPy's C API not usable from a compiled module (NumPy 2 vs 1, or missing)
                        "NUMPY_C_API_UNAVAILABLE",
                        # transformers / huggingface_hub: remote code not trusted, model hub not reachable
                        "MODEL_REMOTE_CODE_NOT_TRUSTED", "MODEL_HUB_UNREACHABLE",
                        # a framework module (vLLM, transformers, Megatron ...) without the name a plug-in imports
                        "FRAMEWORK_NAME_NOT_IMPORTABLE",
                        # a call whose arguments the installed callee does not take (plug-in vs framework versions)
                        "PY_CALL_SIGNATURE_MISMATCH")


def test_the_python_families_are_fallback_entries_of_their_own_part():
    from ascend_doctor.kb.load import load_knowledge_base

    kb = load_knowledge_base()
    for sig_id in PY_FAMILY_SIGNATURES:
        sig = kb.signature(sig_id)
        assert sig.fallback and sig.kind == "root" and not sig.ascend_fd, sig_id
        assert os.path.basename(sig.origin) == "families_python.json", sig_id


@pytest.mark.parametrize("line, sig_id, said", [
    ("RuntimeError: Expected one of cpu, cuda, xpu, mkldnn, meta, hpu, mtia, privateuseone device type at start of "
     "device string: npu", "TORCH_NPU_DEVICE_NOT_REGISTERED", "(device type at start of device string: npu)"),
    ("  File \"x.py\", line 3, in <module>\nAttributeError: module 'torch' has no attribute 'npu'".split("\n")[1],
     "TORCH_NPU_DEVICE_NOT_REGISTERED", "(module 'torch' has no attribute 'npu')"),
    ("(RayTrainWorker pid=7) RuntimeError: No backend type associated with device type npu",
     "TORCH_NPU_DEVICE_NOT_REGISTERED", "no HCCL backend"),
    ("[ERROR] ASCENDCL(1,python):2025-01-01-00:00:00.000.000 [device.cpp:342]1 aclrtGetDeviceCount: get device count "
     "failed, runtime result = 507899.", "NPU_DEVICE_COUNT_UNAVAILABLE", "(aclrtGetDeviceCount): code 507899"),
    ("[ERROR] RUNTIME(2,python):2025-01-01-00:00:00.000.000 [driver.cc:65]2 GetDeviceCount:Call drvGetDevNum, "
     "drvRetCode=87.", "NPU_DEVICE_COUNT_UNAVAILABLE", "Get device count failed (drvGetDevNum)"),
    ("torchrun: error: unrecognized arguments: --nproc-per-node=8 --use_npu", "LAUNCH_ARGUMENTS_REJECTED",
     ": unrecognized arguments `--nproc-per-node=8 --use_npu`"),
    ("pretrain_llama.py: error: argument --position-embedding-type: invalid choice: 'alibi' (choose from 'rope')",
     "LAUNCH_ARGUMENTS_REJECTED", "invalid choice"),
    ("ValueError: remaining_argv: ['--npu_fused_adamw', 'true']", "LAUNCH_ARGUMENTS_REJECTED",
     ": remaining_argv `['--npu_fused_adamw', 'true']`"),
    ("KeyError: 'model.layers.12.mlp.down_proj.weight_offset'", "MODEL_PARAMETER_KEY_MISSING",
     "(KeyError: `model.layers.12.mlp.down_proj.weight_offset`)"),
    ("\tMissing key(s) in state_dict: \"backbone.conv1.weight\".", "MODEL_PARAMETER_KEY_MISSING",
     "(Missing key(s) in state_dict: `backbone.conv1.weight`)"),
    ("CANN error: EE9999: [PID: 5] 2025-01-01-00:00:00.000.000 Inner Error!", "GGML_CANN_BACKEND_ERROR",
     "(EE9999): Inner Error!"),
    ("llama-box-1  | CANN error: EZ9903: [PID: 5] 2025-01-01-00:00:00.000.000 support for Ascend310B is not implemented",
     "GGML_CANN_BACKEND_ERROR", "(EZ9903): support for Ascend310B is not implemented"),
    ("/llama.cpp/ggml/src/ggml-cann/ggml-cann.cpp:1419: CANN error", "GGML_CANN_BACKEND_ERROR",
     "stopped on a failed CANN call"),
    ("/opt/llama.cpp/ggml/src/ggml-cann/aclnn_ops.cpp:812: GGML_ASSERT(ggml_is_contiguous(src0)) failed",
     "GGML_ASSERT_FAILED", ": `ggml_is_contiguous(src0)` in aclnn_ops.cpp"),
    ("GGML_ASSERT: /src/ggml.c:11236: ne02 == ne12", "GGML_ASSERT_FAILED", ": `ne02 == ne12` in ggml.c"),
    ("RuntimeError: Mooncake transfer failed, ret: -600", "KV_CACHE_TRANSFER_FAILED",
     ": Mooncake transfer failed, status -600"),
    ("E0101 00:00:00.000000 9 ascend_direct_transport.cpp:581] Failed to connect to segment: 10.0.0.7:16381",
     "KV_CACHE_TRANSFER_FAILED", ": Failed to connect to segment `10.0.0.7:16381`"),
    ("llm_datadist.status.LLMException: [pull_cache] failed, error code is LLMStatusCode.LLM_KV_CACHE_NOT_EXIST, x.",
     "KV_CACHE_TRANSFER_FAILED", ": [pull_cache] failed, status LLMStatusCode.LLM_KV_CACHE_NOT_EXIST"),
    ("torch._dynamo.exc.BackendCompilerFailed: backend='npu' raised:", "TORCH_COMPILE_GRAPH_CAPTURE_FAILED",
     "(`BackendCompilerFailed`), backend `npu`"),
    ("[rank0]: torch._dynamo.exc.Unsupported: Attempted to call function marked as skipped",
     "TORCH_COMPILE_GRAPH_CAPTURE_FAILED", "(`Unsupported`): Attempted to call function marked as skipped"),
    ("torch._inductor.exc.InductorError: LoweringException: NotImplementedError: npu_fused_op",
     "TORCH_COMPILE_GRAPH_CAPTURE_FAILED", "(`InductorError`): LoweringException"),
    ("(APIServer pid=1) ValueError: Model architectures ['Qwen3NextForCausalLM'] are not supported for now. Supported "
     "architectures: dict_keys(['LlamaForCausalLM'])", "MODEL_ARCHITECTURE_NOT_SUPPORTED", "(`['Qwen3NextForCausalLM']`)"),
    ("ValueError: The checkpoint you are trying to load has model type `glm4v_moe` but Transformers does not recognize "
     "this architecture.", "MODEL_ARCHITECTURE_NOT_SUPPORTED", "(`glm4v_moe`)"),
    ("llama_model_load: error loading model: error loading model architecture: unknown model architecture: 'qwen3next'",
     "MODEL_ARCHITECTURE_NOT_SUPPORTED", "(`qwen3next`)"),
    ("ERROR: Could not find a version that satisfies the requirement vllm-ascend==0.9.9 (from versions: 0.9.1)",
     "PIP_REQUIREMENT_NOT_AVAILABLE", "(`vllm-ascend==0.9.9`)"),
    ("ERROR: No matching distribution found for mindie-llm", "PIP_REQUIREMENT_NOT_AVAILABLE", "(`mindie-llm`)"),
    ("transformers 4.57.1 requires tokenizers<=0.23.0,>=0.22.0, but you have tokenizers 0.21.4 which is incompatible.",
     "PIP_DEPENDENCY_CONFLICT", ": `transformers 4.57.1` requires `tokenizers<=0.23.0,>=0.22.0`, but `tokenizers 0.21.4`"),
    # `pip check`'s two forms (round 18), on packages the examples do not show
    ("torch-npu 2.1.0.post3 has requirement torch==2.1.0, but you have torch 2.3.1.", "PIP_DEPENDENCY_CONFLICT",
     ": `torch-npu 2.1.0.post3` requires `torch==2.1.0`, but `torch 2.3.1` is installed"),
    ("mindformers 1.3.0 requires tiktoken, which is not installed.", "PIP_DEPENDENCY_CONFLICT",
     ": `mindformers 1.3.0` requires `tiktoken`, which is not installed"),
    ("AttributeError: module 'vllm_ascend.envs' has no attribute 'VLLM_ASCEND_ENABLE_MLAPO'",
     "ASCEND_PACKAGE_ATTRIBUTE_MISSING", "`vllm_ascend.envs` has no attribute `VLLM_ASCEND_ENABLE_MLAPO`"),
    ("AttributeError: module 'mindspeed.megatron_adaptor' has no attribute 'repatch'",
     "ASCEND_PACKAGE_ATTRIBUTE_MISSING", "`mindspeed.megatron_adaptor` has no attribute `repatch`"),
    ("(Worker_TP0 pid=9) AssertionError: local_world_size (16) must be less than or equal to the number of visible "
     "devices (8).", "VISIBLE_DEVICES_FEWER_THAN_LOCAL_WORLD", ": local_world_size 16 > visible devices 8"),
    ("(EngineCore_DP0 pid=7) ValueError: Free memory on device npu:3 (20.5/61.27 GiB) on startup is less than desired "
     "GPU memory utilization (0.9, 55.14 GiB).", "VLLM_STARTUP_FREE_MEMORY_BELOW_REQUEST",
     "(20.5/61.27 GiB free) than --gpu-memory-utilization asks for (0.9, 55.14 GiB)"),
    ("/usr/local/bin/start.sh: line 7:   311 Illegal instruction     (core dumped) python3 -c 'import torch_npu'",
     "PROCESS_ILLEGAL_INSTRUCTION_SIGILL", "illegal instruction (SIGILL)"),
    ("Fatal Python error: Illegal instruction", "PROCESS_ILLEGAL_INSTRUCTION_SIGILL", "(SIGILL)"),
    ("ImportError: numpy._core.multiarray failed to import", "NUMPY_C_API_UNAVAILABLE",
     "(numpy._core.multiarray failed to import)"),
    ("[rank3]: RuntimeError: Numpy is not available", "NUMPY_C_API_UNAVAILABLE", "(Numpy is not available)"),
    ("(APIServer pid=1) ValueError: The repository for /data/models/MiniCPM-V-4 contains custom code which must be "
     "executed to correctly load the model.", "MODEL_REMOTE_CODE_NOT_TRUSTED", "(`/data/models/MiniCPM-V-4`)"),
    ("OSError: We couldn't connect to 'https://hf-mirror.com' to load the files, and couldn't find them in the cached "
     "files.", "MODEL_HUB_UNREACHABLE", "(`https://hf-mirror.com`)"),
    ("requests.exceptions.ConnectionError: HTTPSConnectionPool(host='www.modelscope.cn', port=443): Max retries exceeded "
     "with url: /api/v1/models/Qwen/Qwen3-8B", "MODEL_HUB_UNREACHABLE", "(`www.modelscope.cn`)"),
    ("ImportError: cannot import name 'MoeWNA16Config' from 'vllm.model_executor.layers.quantization.moe_wna16' "
     "(/usr/local/lib/python3.11/site-packages/vllm/model_executor/layers/quantization/moe_wna16.py)",
     "FRAMEWORK_NAME_NOT_IMPORTABLE",
     "`MoeWNA16Config` cannot be imported from `vllm.model_executor.layers.quantization.moe_wna16`"),
    ("ImportError: cannot import name 'PoolingParams' from 'vllm' (unknown location)", "FRAMEWORK_NAME_NOT_IMPORTABLE",
     "only as a directory without the package's code (unknown location)"),
    ("(EngineCore_DP1 pid=241521) ERROR 05-11 15:36:08 [patch_balance_schedule.py:696] TypeError: "
     "BalanceScheduler.__init__() got an unexpected keyword argument 'hash_block_size'", "PY_CALL_SIGNATURE_MISMATCH",
     "`BalanceScheduler.__init__()` got an unexpected keyword argument 'hash_block_size'"),
    ("TypeError: MegatronModule.forward() takes 3 positional arguments but 4 were given", "PY_CALL_SIGNATURE_MISMATCH",
     "`MegatronModule.forward()` takes 3 positional arguments but 4 were given"),
])
def test_python_families_read_members_of_their_family_and_say_them(line, sig_id, said):
    """Each family entry reads its fault as other programs, options, calls or peers print it, and its title says what
    the line names."""
    from ascend_doctor.i18n import set_lang
    from ascend_doctor.kb.load import load_knowledge_base

    set_lang("en")
    sig = load_knowledge_base().signature(sig_id)
    assert sig.search(line)
    assert said in sig.text("en", line=line)[0], sig.text("en", line=line)[0]


@pytest.mark.parametrize("line", [
    "RuntimeError: Expected one of cpu, cuda, ipu, xpu, mkldnn, meta, hpu, mtia, privateuseone device type at start of "
    "device string: gpu",
    "RuntimeError: No backend type associated with device type cpu",
    "    torch.npu.set_device(local_rank)  # AttributeError without torch_npu",
    "[INFO] RUNTIME(1,python):2025-01-01-00:00:00.000.000 [driver.cc:1] GetDeviceCount: drvGetDevNum success, count=8",
    "INFO 01-01 00:00:00 [utils.py:1] get device count: 8",
    "usage: torchrun [-h] [--nnodes NNODES] [--nproc-per-node NPROC_PER_NODE]",
    "[WARNING:swift] remaining_argv: ['--foo', 'bar']",
    "  --use-flash-attn      use FlashAttention implementation of attention. error: unrecognized arguments",
    "KeyError: 'input_ids'",
    "{'model.layers.0.self_attn.q_proj.weight': 'W8A8', 'model.layers.0.self_attn.q_proj.weight_scale': 'W8A8'}",
    "_IncompatibleKeys(missing_keys=[], unexpected_keys=[])",
    "llama_model_loader: loaded meta data with 32 key-value pairs and 291 tensors",
    "load_tensors: CANN0 model buffer size = 4096.00 MiB",
    "ggml_cann_init: found 8 CANN devices",
    "(Worker pid=1) INFO 01-01 00:00:00 [mooncake_connector.py:1] Mooncake transfer engine initialized on 10.0.0.1",
    "I0101 00:00:00.000000 9 ascend_direct_transport.cpp:1] Connected to segment: 10.0.0.7:16381",
    "        raise LLMException(f\"{func_name} failed, error code is {code_2_status(status)}, {other_info}.\",",
    "W0101 00:00:00.000000 1 torch/_dynamo/convert_frame.py:1] torch._dynamo.exc.Unsupported: graph break on x",
    "[WARNING] torch._dynamo.exc.TorchRuntimeError: falling back to eager",
    "from torch._dynamo.exc import BackendCompilerFailed, Unsupported",
    "INFO 01-01 00:00:00 [registry.py:1] Model architectures ['Qwen3ForCausalLM'] resolved to Qwen3ForCausalLM",
    "llm_load_print_meta: general.architecture = qwen3",
    "Collecting torch-npu==2.5.1 (from versions: 2.5.1)",
    "Successfully installed torch-2.5.1 torch-npu-2.5.1",
    "No broken requirements found.",
    "The wheel requires numpy, which is not installed by default on this image; install it first.",
    "AttributeError: module 'numpy' has no attribute 'float'",
    "AttributeError: module 'torch' has no attribute 'compiler'",
    "    if not hasattr(vllm_ascend.envs, 'VLLM_ASCEND_ENABLE_MLAPO'):",
    "INFO 01-01 00:00:00 [worker.py:1] local_world_size=8, visible devices=8",
    "INFO 01-01 00:00:00 [worker.py:1] Free memory on device (60.1/64.0 GiB) on startup; requested (0.9, 57.6 GiB)",
    "EZ9999: 2024-10-31-12:08:42.276.420  The error from device(0), there is an aivec error, errorStr: Illegal "
    "instruction, which is usually caused by unaligned UUB addresses.",
    "        Illegal instruction, which is usually caused by unaligned UUB addresses.",
    "/usr/local/lib/python3.10/site-packages/torch/_subclasses/functional_tensor.py:275: UserWarning: Failed to "
    "initialize NumPy: _ARRAY_API not found (Triggered internally at /pytorch/torch/csrc/utils/tensor_numpy.cpp:84.)",
    "/site-packages/datasets/load.py:1429: FutureWarning: The repository for PolyAI/minds14 contains custom code which "
    "must be executed to correctly load the dataset.",
    "requests.exceptions.ConnectionError: HTTPSConnectionPool(host='127.0.0.1', port=8000): Max retries exceeded with "
    "url: /health",
    "ImportError: cannot import name 'soft_unicode' from 'markupsafe' (/usr/lib/python3/dist-packages/markupsafe/__init__.py)",
    "    from vllm.distributed.parallel_state import get_ep_group",
    "TypeError: 'NoneType' object is not subscriptable",
    "TypeError: unsupported operand type(s) for +: 'int' and 'str'",
])
def test_python_families_stay_quiet_on_ordinary_lines(line):
    from ascend_doctor.kb.load import load_knowledge_base

    assert [s.id for s in load_knowledge_base().match_line(line) if s.id in PY_FAMILY_SIGNATURES] == []


def test_python_families_stay_quiet_on_every_clean_excerpt(measure):
    from ascend_doctor.kb.load import load_knowledge_base

    assert clean_excerpt_hits(load_knowledge_base(), PY_FAMILY_SIGNATURES, measure) == []


@pytest.mark.parametrize("line, specific", [
    ("CANN error: EL0004: [PID: 1] 2025-01-01-00:00:00.000.000 Failed to allocate memory.", "CANN_EL0004_MEMORY_ALLOC"),
    ("CANN error: EI0006: [PID: 1] 2025-01-01-00:00:00.000.000 Getting socket times out. Reason: Remote Rank did not "
     "send the data in time.", "HCCL_EI0006_SOCKET_TIMEOUT"),
])
def test_a_specific_cann_code_wins_over_llamacpps_cann_printer(tmp_path, line, specific):
    from ascend_doctor.kb.load import load_knowledge_base
    from ascend_doctor.triage.scan import triage_paths

    kb = load_knowledge_base()
    assert {specific, "GGML_CANN_BACKEND_ERROR"} <= {s.id for s in kb.match_line(line)}
    log = tmp_path / "x.log"
    log.write_text(line + "\n", encoding="utf-8")
    ids = [p["id"] for p in triage_paths([str(log)], kb).to_json()["problems"]]
    assert specific in ids and "GGML_CANN_BACKEND_ERROR" not in ids


def test_a_keyerror_title_shows_the_missing_weight_name(tmp_path):
    """Python's KeyError names the missing key; the report's line is redacted before the title is filled, and a
    weight name is not a secret: the title says it."""
    from ascend_doctor.i18n import set_lang
    from ascend_doctor.kb.load import load_knowledge_base
    from ascend_doctor.triage.scan import triage_paths

    set_lang("en")
    log = tmp_path / "x.log"
    log.write_text("ERROR 05-15 11:58:24 [engine.py:448] KeyError: 'model.layers.0.self_attn.q_proj.weight'\n",
                   encoding="utf-8")
    titles = [p["title"] for p in triage_paths([str(log)], load_knowledge_base()).to_json()["problems"]]
    assert any("KeyError: `model.layers.0.self_attn.q_proj.weight`" in t for t in titles), titles


def test_the_page_split_keeps_a_page_on_one_side_whatever_its_language_or_branch():
    """scripts/corpus_split.py: a docs page and its Chinese twin, on any branch, and `owner/repo:path` are one key; an
    issue is owner/repo/N; about a third of the keys are held out; a vendor's versioned docs page is flagged; every
    page of heldout15 to heldout32 was on the held-out side (the runs made here, heldout19's to heldout30's, have no side)."""
    corpus_split = script_module("corpus_split")
    en = "https://github.com/mindspore-ai/docs/blob/master/docs/mindspore/source_en/faq/data_processing.md"
    zh = "https://github.com/mindspore-ai/docs/blob/r2.3/docs/mindspore/source_zh_cn/faq/data_processing.md"
    assert corpus_split.key(en) == corpus_split.key(zh) == "mindspore-ai/docs:data_processing"
    assert corpus_split.key("mindspore-ai/docs:docs/lite/faq_zh.md") == "mindspore-ai/docs:faq"
    assert corpus_split.key("https://github.com/Ascend/pytorch/issues/12#issuecomment-1") == "ascend/pytorch/12"
    assert corpus_split.key("https://www.Example.com/a/b?x=1") == "example.com/a/b"
    # a vendor document published per release and language is flagged (its other copies have keys of their own)
    assert corpus_split.versioned("https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/83RC1/a_0005.html")
    assert corpus_split.versioned("https://support.huawei.com/enterprise/zh/doc/EDOC1100289994/6c5c4e4d")
    assert not corpus_split.versioned("https://www.hiascend.com/forum/thread-0228123456789.html")
    assert not corpus_split.versioned(en)
    sides = [corpus_split.side(f"a/b:page{i}.md") for i in range(300)]
    assert 70 < sides.count("heldout") < 130
    for split, n in (("heldout15", 42), ("heldout16", 51), ("heldout17", 53), ("heldout18", 30), ("heldout19", 40),
                     ("heldout20", 66), ("heldout21", 61), ("heldout22", 60),
                     ("heldout23", 60), ("heldout24", 61), ("heldout25", 57), ("heldout26", 59), ("heldout27", 55),
                     ("heldout28", 80), ("heldout29", 81), ("heldout30", 81), ("heldout31", 24),
                     ("heldout32", 39)):
        folder = os.path.join(REPO, "tests", "fixtures", "corpus", split)
        sources = [m.group(1) for name in os.listdir(folder) if name.endswith(".log")
                   for m in [re.search(r"^#% source: (\S+)", open(os.path.join(folder, name), encoding="utf-8").read(),
                                       re.M)]]
        pages = [u for u in sources if u != "generated:"]  # a run made here is no page: no side
        assert len(sources) == n and {corpus_split.side(u) for u in pages} <= {"heldout"}, split
        assert pages or split in ("heldout20", "heldout21"), split  # (runs made here only)
        assert not any(corpus_split.versioned(u) for u in pages if split == "heldout19"), split


def test_a_hidden_set_is_measured_from_its_own_folder_and_shows_figures_only(tmp_path, capsys):
    """`measure_corpus.py --dir DIR --summary`: a set kept outside the repository is measured by the same rules, and
    the lead who measures it before the knowledge base is final sees no excerpt's name or line."""
    measure = measure_module()
    hidden = tmp_path / "h99a"
    hidden.mkdir()
    (hidden / "h99a_01_oom.log").write_text(
        "#% source: https://github.com/example/project/issues/1\n#% expect: fault\n#% fault: memory\n"
        "RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 0; 60.00 GiB total capacity)\n",
        encoding="utf-8")
    (hidden / "h99a_02_clean.log").write_text(
        "#% source: https://github.com/example/project/issues/2\n#% expect: clean\nepoch 1 step 10 loss 0.5\n",
        encoding="utf-8")
    assert measure.main(["--dir", str(hidden), "--summary"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("corpus h99a: 2 excerpts (1 faulty, 1 clean)") and "h99a_01" not in out
    assert measure.main(["--dir", str(hidden), "--summary", "--json"]) == 0
    doc = __import__("json").loads(capsys.readouterr().out)
    assert "excerpts" not in doc and doc["summary"]["faulty"] == 1 and doc["split"] == "h99a"
    with pytest.raises(SystemExit) as e:
        measure.main(["--dir", str(tmp_path / "absent")])
    assert e.value.code == 2


def test_the_page_split_says_which_pages_this_checkout_already_uses():
    corpus_split = script_module("corpus_split")
    used = corpus_split.used_keys()
    folder = os.path.join(REPO, "tests", "fixtures", "corpus", "heldout18")
    for name in os.listdir(folder):
        if name.endswith(".log"):
            source = re.search(r"^#% source: (\S+)", open(os.path.join(folder, name), encoding="utf-8").read(), re.M)
            assert corpus_split.key(source.group(1)) in used, name
    never = "https://github.com/example/" + "never-cited/issues/" + str(2 * 212121)  # not a URL in any file here
    assert corpus_split.key(never) not in used


def test_the_statements_beside_a_labelled_fault_are_written_for_an_audit(tmp_path, capsys):
    """`measure_corpus.py --beside FILE`: every problem reported on a faulty excerpt that is not its labelled fault, with
    its line (round 24's precision audit judged 240 of them: each must be true of its line)."""
    measure = measure_module()
    hidden = tmp_path / "h99b"
    hidden.mkdir()
    (hidden / "h99b_01.log").write_text(
        "#% source: https://github.com/example/project/issues/3\n#% expect: fault\n#% fault: out[ _]of[ _]memory\n"
        "RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 0; 60.00 GiB total capacity)\n"
        "Killed\n", encoding="utf-8")
    out = tmp_path / "beside.jsonl"
    assert measure.main(["--dir", str(hidden), "--summary", "--beside", str(out)]) == 0
    capsys.readouterr()
    rows = [__import__("json").loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert rows and all(r["excerpt"] == "h99b/h99b_01.log" and r["line"] and r["title"] for r in rows)
    assert "Killed" in [r["line"] for r in rows] and not any("memory" in r["title"].lower() for r in rows)
