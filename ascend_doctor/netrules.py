"""Network rules shared by the rank-table validator and the HCCL variable checks: is this a usable NIC
address, is this a usable port (ascend_formats.md §7.4 R9, R10)."""

from __future__ import annotations

from typing import Any, Optional, Tuple

from .i18n import N_
from .i18n_text import Text
from .json_values import HugeNumber, NonJsonConstant, as_int, kind, show
from .lazyre import lazy_compile


_IPV4 = lazy_compile(r"^(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$")


def ip_problem(value: Any, v4_only: bool = False) -> Optional[str]:
    """Why `value` is not a usable unicast IP address for a NIC, or None if it is."""
    if not isinstance(value, str) or isinstance(value, (HugeNumber, NonJsonConstant)):
        return Text(N_("is {value}, expected an IP address string"), value=kind(value))
    if _IPV4.match(value):
        first = int(value.split(".", 1)[0])
        if first == 127:
            return Text(N_("is {value}, a loopback address: other nodes cannot reach it"), value=show(value))
        if value == "255.255.255.255":
            return Text(N_("is {value}, the broadcast address"), value=show(value))
        if value == "0.0.0.0":
            return Text(N_("is {value}, the unspecified address"), value=show(value))
        if 224 <= first <= 239:
            return Text(N_("is {value}, a multicast address"), value=show(value))
        if first >= 240:
            return Text(N_("is {value}, a reserved (class E) address"), value=show(value))
        if first == 0:
            return Text(N_("is {value}, in 0.0.0.0/8 (\"this network\"), not usable"), value=show(value))
        return None
    if v4_only:
        return Text(N_("is {value}, expected an IPv4 address such as \"192.168.1.8\""), value=show(value))
    if ":" in value and len(value) <= 45:
        try:
            import ipaddress  # only for IPv6 device addresses

            addr = ipaddress.IPv6Address(value)
        except ValueError:
            return Text(N_("is {value}, not a valid IPv4 or IPv6 address"), value=show(value))
        if addr.is_loopback:
            return Text(N_("is {value}, a loopback address: other nodes cannot reach it"), value=show(value))
        if addr.is_unspecified:
            return Text(N_("is {value}, the unspecified address"), value=show(value))
        if addr.is_multicast:
            return Text(N_("is {value}, a multicast address"), value=show(value))
        return None
    if "*" in value or "x" in value.lower():
        return Text(N_("is {value}, a masked placeholder from a document, not a real address"), value=show(value))
    return Text(N_("is {value}, not a valid IPv4 or IPv6 address"), value=show(value))


def port_problem(value: Any, allow_string: bool = True, allow_number: bool = True) -> Tuple[Optional[int], Optional[str], Optional[str]]:
    """(port, error, warning) for a TCP/UDP port field (R10: [1,65535], avoid <= 1023)."""
    n, why = as_int(value, allow_string, allow_number)
    if why:
        return None, why, None
    if not 1 <= n <= 65535:
        return None, Text(N_("is {value}, outside the port range 1-65535"), value=n), None
    if n <= 1023:
        return n, None, Text(N_("is {value}, a system port (<= 1023); the HCCL docs say to avoid them"), value=n)
    return n, None, None
