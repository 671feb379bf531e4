"""CTest's JUnit report (ctest --output-junit), read for ctest_skips.py and
ctest_failures.py."""
import xml.etree.ElementTree as ET


def testcases(path):
    """The report's testcase elements, or None after one message saying why
    the report could not be read."""
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError) as e:
        print("ctest: cannot read the JUnit report %s (%s)" % (path, e))
        return None
    return list(root.iter("testcase"))
