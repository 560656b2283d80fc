import os
import sys

# The referee's package (tests/real_redis/realredis) without installing it.
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
