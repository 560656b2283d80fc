import os
import sys

# The referee's package and the modules it imports (tests/real_redis's, tests/real_common's), uninstalled.
HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for path in (os.path.join(HERE, "..", "real_common"), os.path.join(HERE, "..", "real_redis"), HERE):
    sys.path.insert(0, os.path.normpath(path))
