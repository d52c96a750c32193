"""Network rules shared by the rank-table validator and the HCCL variable checks (netrules.py)."""

import pytest

from ascend_doctor.netrules import ip_problem, port_problem
from tests.helpers.i18n_asserts import assert_is_msg


@pytest.mark.parametrize("value,why", [
    ("192.168.1.8", None), ("fe80::1", None),
    ("127.0.0.1", "loopback"), ("0.0.0.0", "unspecified"), ("255.255.255.255", "broadcast"),
    ("224.0.0.1", "multicast"), ("240.0.0.1", "class E"), ("0.1.2.3", "0.0.0.0/8"),
    ("::1", "loopback"), ("ff02::1", "multicast"), ("192.168.x.x", "placeholder"), ("1.2.3", "not a valid"),
    (8, "a number"), (None, "null")])
def test_ip_problem_names_what_is_wrong(value, why):
    got = ip_problem(value)
    assert (got is None) if why is None else (why in got)


def test_ip_problem_v4_only_refuses_ipv6():
    assert_is_msg(ip_problem("fe80::1", v4_only=True), 'is {value}, expected an IPv4 address such as "192.168.1.8"',
                  value='"fe80::1"')


@pytest.mark.parametrize("value,port,error,warning", [
    ("60000", 60000, None, None), (60000, 60000, None, None), ("80", 80, None, "system port"),
    ("0", None, "outside the port range", None), ("70000", None, "outside the port range", None),
    ("-1", None, ">= 0", None), ("http", None, "whole number", None)])
def test_port_problem(value, port, error, warning):
    n, err, warn = port_problem(value)
    assert n == port
    assert (err is None) if error is None else (error in err)
    assert (warn is None) if warning is None else (warning in warn)


def test_port_problem_can_insist_on_a_json_number():
    assert_is_msg(port_problem("60000", allow_string=False)[1], "is the string {value}, expected a JSON number (no quotes)",
                  value='"60000"')
