"""One version parser for every Ascend / MindSpore spelling, and Huawei's driver<->firmware string rule."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ascend_doctor.versions import (
    compare_versions, dotted_major_minor, dotted_numbers, innerversion_code, innerversion_listed, major_minor,
    major_minor_numbers, parse_innerversion_list, parse_range_list, parse_version, pep440_version, python_major_minor,
    python_spec_allows, release_matches, vendor_firmware_too_old, vendor_in_any_range, vendor_in_range, version_key,
)

# Every form named in compat_facts.md / ascend_formats.md, in the order they must sort.
ORDERED = [
    ("1.78.T20.0.B200", "1.84.15.1.310"),
    ("2.0.0-alpha", "2.0.0-rc1"),
    ("2.0.0-rc1", "2.0.0"),
    ("2.3.0-rc2", "2.3.0-rc6"),
    ("2.3.0-rc6", "2.3.0"),
    ("2.7.0rc1", "2.7.0"),
    ("2.7.1", "2.7.1.post1"),
    ("2.7.1.post1", "2.7.2"),
    ("2.9.0", "2.10.0"),
    ("7.0.RC1", "7.0.RC1.3.beta1"),
    ("7.0.RC1.3.beta1", "7.0.RC1.3"),
    ("7.0.RC1.3", "7.0.0"),
    ("8.0.RC1", "8.0.RC2.alpha001"),
    ("8.0.RC2.alpha001", "8.0.RC2"),
    ("8.0.RC2", "8.0.RC3"),
    ("8.0.RC3", "8.0.0"),
    ("8.2.RC1.alpha003", "8.2.RC1"),
    ("8.2.T11.0.B070", "8.2.RC1"),  # internal T-builds before RCs, as torch_npu orders them
    ("8.2.RC1", "8.2.RC2"),
    ("8.2.RC2", "8.2.0"),
    ("7.3.0.1.231", "7.5.0.1.129"),
    ("7.1.0.6.220", "7.1.0.11.220"),  # numeric fields, not string compare
    ("24.1.rc1", "24.1.rc2"),
    ("24.1.rc2", "24.1.rc2.2"),
    ("24.1.rc3", "24.1.0"),
    ("25.0.rc1", "25.0.rc1.1"),
    ("25.3.rc1", "25.3.0"),
    ("23.0.7", "24.1.rc1"),
    ("9.0.0-beta.1", "9.0.0"),
]


@pytest.mark.parametrize("lower,higher", ORDERED)
def test_ordering_of_real_version_forms(lower, higher):
    assert parse_version(lower) < parse_version(higher)
    assert compare_versions(lower, higher) == -1 and compare_versions(higher, lower) == 1


@pytest.mark.parametrize("a,b", [("25.3", "25.3.0"), ("2.7.0rc1", "2.7.0-rc1"), ("8.0.RC2", "8.0.rc2"),
                                 ("v2.6.0", "2.6.0"), ("2.3.0-rc2", "2.3.0rc2")])
def test_equal_spellings(a, b):
    assert parse_version(a) == parse_version(b) and hash(parse_version(a)) == hash(parse_version(b))


def test_sorting_a_mixed_list():
    got = sorted(["8.0.0", "8.0.RC2", "7.0.RC1.3.beta1", "8.0.RC1", "8.2.RC1.alpha003", "8.2.RC1"], key=version_key)
    assert got == ["7.0.RC1.3.beta1", "8.0.RC1", "8.0.RC2", "8.0.0", "8.2.RC1.alpha003", "8.2.RC1"]


@pytest.mark.parametrize("text,mm", [("7.3.0.1.231", "7.3"), ("8.2.T11.0.B070", "8.2"), ("9.1.0", "9.1"),
                                     ("1.84.15.1.310", "1.84"), ("8.2.0.0.201", "8.2"), ("7", None), ("", None),
                                     (None, None)])
def test_major_minor_is_what_mindspore_keeps(text, mm):
    assert major_minor(text) == mm


def test_python_major_minor():
    assert python_major_minor("3.9.18") == "3.9" and python_major_minor("cp311") == "3.11"
    assert python_major_minor("three") is None


@pytest.mark.parametrize("text,numbers,mm", [("12.4.127", (12, 4, 127), "12.4"), ("12", (12,), "12"),
                                             ("8.0.RC2", (8, 0), "8.0"), ("12.4a", (12,), "12"), ("v12.4", (), None),
                                             ("", (), None), (None, (), None)])
def test_dotted_numbers_stop_at_the_first_field_that_is_not_all_digits(text, numbers, mm):
    assert dotted_numbers(text) == numbers
    assert dotted_major_minor(text) == mm


def test_major_minor_numbers():
    assert major_minor_numbers("2.3.0rc1") == (2, 3) and major_minor_numbers("2.10") == (2, 10)
    assert major_minor_numbers("v2.3") is None and major_minor_numbers(None) is None


@pytest.mark.parametrize("spec,version,allowed", [
    (">=3.9,<3.13", "3.12.1", True), (">=3.9,<3.13", "3.13.0", False), (">=3.9,<3.13", "3.8.18", False),
    (">=3.9,<3.13", "3.12.0rc1", True),  # judged by its release numbers, like pip for the running Python
    (">=3.9,", "3.10.12+", True), ("~=3.9", "3.10", True), ("~=3.9.2", "3.10.0", False),
    ("==3.9.*", "3.9.2", True), ("!=3.9.*", "3.9.2", False), (">3.9", "3.9.1", True), ("==3.9", "3.9.0", True),
    ("", "3.9", True), ("not a spec", "3.9", None), (">=3.7", "", None), (">=3.7", "unknown", None)])
def test_python_spec_allows_reads_requires_python(spec, version, allowed):
    assert python_spec_allows(spec, version) is allowed


def test_pep440_version_is_none_for_what_pep440_refuses():
    assert pep440_version("2.7.1.post1") > pep440_version("2.7.1")
    assert pep440_version("24.1.rc2.2-x") is None and pep440_version(None) is None


@pytest.mark.parametrize("bad", ["", "garbage", "...", "RC", None, "\x00\xff", "9" * 6000])
def test_bad_input_never_raises(bad):
    v = parse_version(bad)
    assert isinstance(v.valid, bool)
    assert not parse_version("garbage").valid and parse_version("9" * 6000).valid


# --- Huawei's DCMI rule, with the real version.info samples (compat_facts.md §3.1, §3.2, §4.2) ---

@pytest.mark.parametrize("firmware,ranges,ok", [
    ("7.5.0.1.129", "[7.0.0,7.5.99]", True),        # HDK 24.1.rc3 driver + its firmware
    ("7.7.0.1.231", "[7.0.0,7.5.99]", False),       # 25.0.rc1.1 firmware is newer than 24.1.rc3 accepts
    ("7.7.0.1.231", "[6.4.0,6.4.99],[7.0.0,7.7.99]", True),
    ("6.4.12.1.241", "[6.4.0,6.4.99],[7.0.0,7.7.99]", True),
    ("7.3.0.1.231", "[7.0.0,7.2.99]", False),       # 24.1.rc1 driver vs 24.1.rc2 firmware
    ("7.1.0.11.220", "[7.0.0,7.1.99]", True),       # HDK 23.0.7
    ("8.5.0.1.100", "[7.0.0,8.9.9]", True),
    ("10.0.0.1.100", "[7.0.0,8.9.9]", False),       # the documented consequence of string comparison
])
def test_driver_accepts_firmware(firmware, ranges, ok):
    assert (vendor_in_any_range(firmware, ranges) is not None) is ok


@pytest.mark.parametrize("driver,ranges,ok", [
    ("24.1.rc3", "[23.0.0,23.0.0.],[24.0,24.0.],[24.1,24.1.]", True),  # [24.1,24.1.] = any 24.1.*
    ("24.1.0", "[23.0.0,23.0.0.],[24.0,24.0.],[24.1,24.1.]", True),
    ("24.1.rc2.2", "[24.1,24.1.]", True),
    ("25.0.rc1.1", "[23.0.0,23.0.0.],[24.0,24.0.],[24.1,24.1.]", False),
    ("25.0.rc1.1", "[23.0.0,23.0.0.],[24.0,24.0.],[24.1,24.1.],[25.0,25.0.]", True),
    ("23.0.rc3", "[23.0.rc3,23.0.rc3.],[23.0.0,23.0.0.]", True),
    ("23.0.7", "[23.0.rc3,23.0.rc3.],[23.0.0,23.0.0.]", False),
    ("24.10.1", "[24.1,24.1.]", False),  # prefix means "24.1." not "24.1..."
    ("24.1", "[24.1,24.1.]", True),
])
def test_firmware_accepts_driver_prefix_ranges(driver, ranges, ok):
    assert (vendor_in_any_range(driver, ranges) is not None) is ok


def test_vendor_range_cuts_candidate_to_bound_length():
    assert vendor_in_range("7.5.0.1.129", "7.0.0", "7.5.99")  # cut to "7.5.0." (6 chars)
    assert not vendor_in_range("7.6.0.1.220", "7.0.0", "7.5.99")


@pytest.mark.parametrize("fw,old", [("6.3.0.1.241", True), ("6.0.rc1.2", True), ("6.4.12.1.241", False),
                                    ("6.4.0.4.220", False), ("7.1.0.6.220", False)])
def test_firmware_min_is_string_compare_with_6_4(fw, old):
    assert vendor_firmware_too_old(fw) is old


def test_range_list_parsing_like_strtok():
    assert parse_range_list("[7.0.0,7.5.99]") == [["7.0.0", "7.5.99"]]
    assert parse_range_list("[23.0.0,23.0.0.],[24.0,24.0.]") == [["23.0.0", "23.0.0."], ["24.0", "24.0."]]
    assert parse_range_list("[7.0.0]") == []  # an odd token is dropped, as the C loop does
    assert parse_range_list("") == [] and parse_range_list(None) == []
    assert parse_range_list([["1", "2"], ["bad"]]) == [["1", "2"]]


def test_innerversion_codes_and_lists():
    assert innerversion_code("V100R001C22SPC001B231") == "V100R001C22"
    assert innerversion_code("nonsense") is None
    listing = "[V100R001C15,V100R001C18],[V100R001C30],[V100R001C13]"  # 8.0.RC1 toolkit: first item is a range
    assert parse_innerversion_list(listing)[0] == ["V100R001C15", "V100R001C18"]
    assert innerversion_listed("V100R001C17SPC001B240", listing)
    assert not innerversion_listed("V100R001C19", listing)
    assert innerversion_listed("V100R001C13", ["V100R001C13", "V100R001C15"])


def test_release_family_matching():
    assert release_matches("24.1.rc3", "24.1.RC3") and release_matches("25.0.rc1.1", "25.0.RC1")
    assert release_matches("25.5.1", "25.5.X") and not release_matches("25.4.1", "25.5.X")
    assert release_matches("8.0.RC2.beta1", "8.0.RC2") and not release_matches("8.0.RC2", "8.0.RC2.beta1")


# --- properties ---------------------------------------------------------------------------

version_like = st.lists(
    st.one_of(st.integers(0, 300).map(str), st.sampled_from(["RC1", "rc2", "T11", "B070", "alpha003", "beta1", "post1",
                                                              "SPC001", "x", "dev", "0"])),
    min_size=1, max_size=7).flatmap(lambda parts: st.sampled_from([".", "-", ""]).map(lambda sep: sep.join(parts)))
any_text = st.one_of(st.text(max_size=40), version_like)


@settings(max_examples=300, deadline=None)
@given(any_text)
def test_property_parse_never_raises(text):
    v = parse_version(text)
    assert v == v and not (v < v)
    major_minor(text)
    python_major_minor(text)
    dotted_major_minor(text), major_minor_numbers(text), python_spec_allows(text, text)
    vendor_firmware_too_old(text)
    parse_range_list(text)
    innerversion_listed(text, text)


@settings(max_examples=300, deadline=None)
@given(any_text, any_text)
def test_property_comparison_is_antisymmetric_and_hash_consistent(a, b):
    assert compare_versions(a, b) == -compare_versions(b, a)
    if parse_version(a) == parse_version(b):
        assert hash(parse_version(a)) == hash(parse_version(b))


@settings(max_examples=150, deadline=None)
@given(st.lists(any_text, min_size=2, max_size=8))
def test_property_sorting_is_a_total_order(items):
    ordered = sorted(items, key=version_key)
    for i in range(len(ordered)):
        for j in range(i + 1, len(ordered)):
            assert compare_versions(ordered[i], ordered[j]) <= 0


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 99), st.integers(0, 99), st.integers(1, 9), st.integers(0, 20))
def test_property_rc_before_release_and_post_after(major, minor, rc, patch):
    base = f"{major}.{minor}"
    assert parse_version(f"{base}.rc{rc}") < parse_version(f"{base}.0")
    assert parse_version(f"{base}.RC{rc}.alpha001") < parse_version(f"{base}.RC{rc}")
    assert parse_version(f"{base}.{patch}") < parse_version(f"{base}.{patch}.post1") < parse_version(f"{base}.{patch + 1}")


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=20), st.text(max_size=12), st.text(max_size=12))
def test_property_vendor_range_never_raises(cand, lo, hi):
    assert vendor_in_range(cand, lo, hi) in (True, False)


def test_unicode_digits_are_not_version_numbers():
    """'¹'.isdigit() is true but int('¹') raises: found by the property test's own database."""
    from ascend_doctor.versions import dotted_major_minor, dotted_numbers, parse_version

    assert dotted_numbers("¹") == ()
    assert dotted_numbers("8.¹") == (8,)
    assert dotted_major_minor("¹.2") is None
    parse_version("2.¹.0")  # never raises
