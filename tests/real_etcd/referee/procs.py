"""The referee's processes: started, signalled and stopped by process group
(tests/real_common/process_groups.py, shared with the real-Redis referee)."""
from process_groups import Interrupted, forget, install_signal_handlers, now_ns, signal_group, start, stop, \
    stop_all, wait_stopped  # noqa: F401
