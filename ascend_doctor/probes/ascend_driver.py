"""NPU driver and firmware versions, from the files the HDK installer leaves behind.

`/etc/ascend_install.info` says where the driver and firmware were installed
(`Driver_Install_Path_Param`, `Firmware_Install_Path_Param`; default
/usr/local/Ascend). Under that path, `driver/version.info` and
`firmware/version.info` hold the versions and the compatibility lists that
npu-smi's own driver/firmware verdict is built on (reference ascend_formats §1.2-1.4).
"""

from __future__ import annotations

import posixpath
from typing import Optional, Tuple

from .. import phrases
from ..i18n_text import Text, error_text
from ..facts import DriverFacts, FirmwareFacts
from ..host import FileMissing, Host, HostError
from ..lazyre import lazy_compile
from .kv import get_ci, looks_binary, parse_bracket_list, parse_key_values, read_key_value_file

INSTALL_INFO = "/etc/ascend_install.info"
DEFAULT_PREFIX = "/usr/local/Ascend"

# MindCluster faultdiag accepts `Version=([A-Za-z0-9\.]{1,20})`; anything else is not a version.
_VERSION_SHAPE = lazy_compile(r"^[A-Za-z0-9.]{1,20}$")
# Firmware versions are five dotted numbers (7.1.0.11.220); older trains may differ, so only warn.
_FIRMWARE_SHAPE = lazy_compile(r"^\d+(\.\d+){4}$")


def read_install_info(host: Host) -> Tuple[Optional[dict], Optional[str]]:
    """(key/values of /etc/ascend_install.info, error) — (None, None) when the file does not exist."""
    try:
        text = host.read_text(INSTALL_INFO)
    except FileMissing:
        return None, None
    except HostError as exc:
        return None, Text(phrases.UNREADABLE_FILE, error=error_text(exc),
                          expected=Text(phrases.INSTALL_INFO_EXPECTED))
    if looks_binary(text):
        return None, Text(phrases.BINARY_FILE, path=INSTALL_INFO, expected=Text(phrases.KEY_VALUE_LINES))
    return parse_key_values(text), None


def _install_prefix(info: Optional[dict], key: str, errors: list) -> str:
    value = get_ci(info or {}, key)
    if info is not None and not value:
        errors.append(Text(phrases.INSTALL_INFO_NO_KEY, path=INSTALL_INFO, key=key, prefix=DEFAULT_PREFIX))
    if value and not value.startswith("/"):
        errors.append(Text(phrases.INSTALL_INFO_RELATIVE, path=INSTALL_INFO, key=key, value=repr(value),
                                                          prefix=DEFAULT_PREFIX))
        value = None
    return (value or DEFAULT_PREFIX).rstrip("/") or "/"


def _version_value(values: dict, path: str, errors: list) -> Optional[str]:
    version = get_ci(values, "Version")
    if version is None:
        errors.append(Text(phrases.NO_VERSION_LINE, path=path, example="Version=24.1.rc3"))
        return None
    if not _VERSION_SHAPE.match(version):
        errors.append(Text(phrases.VERSION_NOT_A_NUMBER, path=path, value=repr(version), example="24.1.rc3"))
        return None
    return version


def probe_driver(host: Host, options) -> DriverFacts:
    facts = DriverFacts()
    info, err = read_install_info(host)
    if err:
        facts.errors.append(err)
    if info is not None:
        facts.install_info_path = INSTALL_INFO
        facts.install_info = dict(info)
    prefix = _install_prefix(info, "Driver_Install_Path_Param", facts.errors)
    path = posixpath.join(prefix, "driver", "version.info")
    facts.version_file = path
    # The file being there is what "installed" means: an unreadable one is still an install.
    facts.installed = host.is_file(path)
    values = read_key_value_file(host, path, Text(phrases.DRIVER_VERSION_INFO), facts.errors)
    if values is None:
        return facts
    facts.version = _version_value(values, path, facts.errors)
    facts.innerversion = get_ci(values, "Innerversion")
    facts.package_version = get_ci(values, "package_version")
    # compatible_version=[V100R001C13],[V100R001C15] or, in some releases, [lo,hi] ranges: keep every code.
    for group in parse_bracket_list(get_ci(values, "compatible_version") or ""):
        facts.compatible_version.extend(code for code in group if code)
    facts.compatible_version_fw = [g for g in parse_bracket_list(get_ci(values, "compatible_version_fw") or "") if any(g)]
    return facts


def probe_firmware(host: Host, options) -> FirmwareFacts:
    facts = FirmwareFacts()
    info, err = read_install_info(host)
    if err:
        facts.errors.append(err)
    # Old install.info files (the 910 user sample) always carry the firmware key; when it is
    # absent the firmware was installed next to the driver.
    key = "Firmware_Install_Path_Param"
    value = get_ci(info or {}, key)
    if value and value.startswith("/"):
        prefix = value.rstrip("/") or "/"
    else:
        driver_prefix = get_ci(info or {}, "Driver_Install_Path_Param")
        prefix = (driver_prefix if driver_prefix and driver_prefix.startswith("/") else DEFAULT_PREFIX).rstrip("/")
    path = posixpath.join(prefix or "/", "firmware", "version.info")
    facts.version_file = path
    facts.installed = host.is_file(path)
    values = read_key_value_file(host, path, Text(phrases.FIRMWARE_VERSION_INFO), facts.errors)
    if values is None:
        return facts
    facts.version = _version_value(values, path, facts.errors)
    if facts.version and not _FIRMWARE_SHAPE.match(facts.version):
        facts.errors.append(Text(phrases.FIRMWARE_UNUSUAL, path=path, version=facts.version))
    facts.package_version = get_ci(values, "package_version")
    facts.compatible_version_drv = [g for g in parse_bracket_list(get_ci(values, "compatible_version_drv") or "")
                                    if any(g)]
    return facts
