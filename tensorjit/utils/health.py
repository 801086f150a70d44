"""Device health checks: Ascend-only in MindSpore; these are its CPU build's answers.

``stress_detect`` rejects an unknown type with code 1 (MindSpore logs and returns 1) and
raises MindSpore's RuntimeError for a real test, which needs AiCore / HCCS hardware. Silent
data corruption (SDC) detection checks Ascend's on-chip checksums: on CPU start / stop do
nothing and the result is False (no corruption found), as MindSpore's CPU build answers.
"""
import warnings

_sdc = {"running": False}


def stress_detect(detect_type="aic"):
    """AiCore ('aic') or HCCS link ('hccs') stress test: 0 ok, 1 not started, 2 hardware."""
    if detect_type not in ("aic", "hccs"):
        warnings.warn(f"For stress detect, detection type must be 'aic' or 'hccs'.But got "
                      f"{detect_type}. Exiting stress detect.")
        return 1
    raise RuntimeError("Stress detection is not supported.")


def sdc_detect_start():
    """Start silent data corruption detection (nothing to check on CPU)."""
    _sdc["running"] = True


def sdc_detect_stop():
    """Stop silent data corruption detection."""
    _sdc["running"] = False


def get_sdc_detect_result():
    """Whether silent data corruption was found: never on CPU."""
    return False
