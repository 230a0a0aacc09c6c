"""``keep_freed_memory``: a large result of a compiled function, freed and made again, comes back
without page faults (glibc; without the setting each call faults in
every page of a fresh mapping)."""

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # imports JAX and compiles the batched engine

pytest.importorskip("jax")

# Minor page faults per call of a function whose 45 MB result is freed before the
# next call, in a fresh process.
_SCRIPT = """
import resource, sys
import jax, jax.numpy as jnp
from tendays.batch.memory import keep_freed_memory
if sys.argv[1] == "keep":
    assert keep_freed_memory() and keep_freed_memory()
observe = jax.jit(lambda x: jnp.zeros((4096, 2725), jnp.float32) + x)
observe(1.0).block_until_ready()
observe(1.0).block_until_ready()
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for _ in range(40):
    observe(1.0).block_until_ready()
print((resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before) // 40)
"""
_PAGES = 4096 * 2725 * 4 // 4096
_HUGE_PAGES = Path("/sys/kernel/mm/transparent_hugepage/enabled")


def faults_per_call(mode: str) -> int:
    done = subprocess.run(
        [sys.executable, "-c", _SCRIPT, mode], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return int(done.stdout)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's malloc settings")
def test_a_freed_result_is_reused_without_page_faults() -> None:
    # 2 MB pages fault 512 times less
    if not (_HUGE_PAGES.exists() and "[always]" in _HUGE_PAGES.read_text()):
        assert faults_per_call("fresh") > _PAGES // 2
    # On a quiet machine none; under load XLA now and then makes the result on a thread whose malloc
    # arena has no free block yet, and that call faults a fresh mapping in (seen: 3 calls in 20).
    assert faults_per_call("keep") < _PAGES // 4
