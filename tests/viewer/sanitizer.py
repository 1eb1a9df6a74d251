# Tells leaks inside unloaded GL drivers apart from real ones in LeakSanitizer reports.
# SPDX-License-Identifier: MIT
#
# Mesa's DRI/gallium driver is dlclose'd by eglTerminate (headless) and by freeglut's
# XCloseDisplay (window). A few hundred bytes it allocated and never freed are then
# reported with every frame past the allocator in "<unknown module>", which a suppression
# file cannot match (it matches by function or module name). Verified: with the driver left
# loaded the same runs report no leak. A leak with any frame in a named module (our binary,
# libc, any other library) is still counted as real; frames in the Mesa driver's own
# libraries (LLVM for llvmpipe's JIT, the DRI/gallium driver, Mesa's EGL/GLX vendor
# libraries), when they happen to be still loaded, count as driver frames.
import re

_DRIVER = ("(<unknown module>)", "/libLLVM", "_dri.so", "/libgallium", "/libEGL_mesa",
           "/libGLX_mesa", "/libglapi")

_REPORT = "ERROR: LeakSanitizer: detected memory leaks"


def only_unloaded_driver_leaks(log):
    """True when log has a LeakSanitizer report whose every stack lies in GL driver code."""
    if _REPORT not in log:
        return False
    stacks = re.split(r"\n(?:Direct|Indirect) leak of", log.split(_REPORT, 1)[1])[1:]
    if not stacks:
        return False
    for st in stacks:
        frames = [ln for ln in st.split("\n\n", 1)[0].splitlines() if re.match(r"\s+#\d+", ln)]
        rest = [f for f in frames if "asan_malloc_linux" not in f and "__interceptor_" not in f]
        if not rest or any(not any(d in f for d in _DRIVER) for f in rest):
            return False
    return True


def effective_returncode(rc, log):
    """rc, except that a run failing only for unloaded-driver leaks counts as 0."""
    if rc != 0 and only_unloaded_driver_leaks(log):
        return 0
    return rc


def strip_report(log):
    """log without the LeakSanitizer report (so 'error' checks look at our messages only)."""
    i = log.find("=================================================================\n==")
    return log[:i] if i >= 0 and _REPORT in log[i:] else log


def _asan_runtime(galaxy):
    """The path of the AddressSanitizer runtime galaxy links, or None."""
    import subprocess
    try:
        out = subprocess.run(["ldd", galaxy], capture_output=True, text=True, timeout=20).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    asan = [ln.split("=>")[1].split()[0] for ln in out.splitlines()
            if "libasan" in ln and "=>" in ln]
    return asan[0] if asan else None


def is_sanitized(galaxy):
    """True for an AddressSanitizer build (several times slower: tests size their runs)."""
    return _asan_runtime(galaxy) is not None


def keep_driver_loaded(env, galaxy):
    """For an AddressSanitizer build of galaxy: preload the ASan runtime and Mesa's software
    driver into galaxy alone, so eglTerminate/XCloseDisplay cannot unload the driver and
    LeakSanitizer sees every stack in a loaded module (with it loaded, the driver's
    leftovers are freed or named, and the report is exact). A plain build is left as it is."""
    import glob
    asan = _asan_runtime(galaxy)
    drivers = sorted(glob.glob("/usr/lib/*/dri/swrast_dri.so"))
    if asan and drivers:
        env = dict(env)
        env["LD_PRELOAD"] = " ".join([asan, drivers[0]] +
                                     ([env["LD_PRELOAD"]] if env.get("LD_PRELOAD") else []))
    return env
