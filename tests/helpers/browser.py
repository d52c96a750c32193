"""Real headless Chromium for the HTML report tests: the DOM as the browser parsed it, the console messages it
logged (a script the CSP blocked, a fetch, a parse error), and a screenshot."""

import os
import shutil
import subprocess
import tempfile

import pytest


def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        path = shutil.which(name)
        if path:
            return path
    return None


needs_chromium = pytest.mark.skipif(chromium() is None,
                                    reason="Chromium not installed (Debian: apt-get install -y chromium)")


def browser(*args, profile=None):
    """Run headless Chromium with `args`; its console messages go to stderr ("INFO:CONSOLE…")."""
    own = profile is None
    profile = profile or tempfile.mkdtemp(prefix="chromium-profile-")
    cmd = [chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
           "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
           "--hide-scrollbars", "--enable-logging=stderr", "--v=0", f"--user-data-dir={profile}", *args]
    try:
        return subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    finally:
        if own:
            shutil.rmtree(profile, ignore_errors=True)


def console_messages(stderr):
    return [line for line in stderr.splitlines() if ":CONSOLE" in line]


def load(path):
    """(dom, console messages) of the file at `path`."""
    proc = browser("--dump-dom", "file://" + os.path.abspath(str(path)))
    return proc.stdout, console_messages(proc.stderr)


def screenshot(path, png, width=1280, height=1800):
    proc = browser(f"--screenshot={png}", f"--window-size={width},{height}", "file://" + os.path.abspath(str(path)))
    assert os.path.exists(png), proc.stderr[-2000:]
    return png


def ink(png):
    """The share of the screenshot's pixels that are not white, and how many colours it has."""
    image = pytest.importorskip("PIL.Image").open(png).convert("RGB")
    small = image.resize((image.width // 4, image.height // 4))
    raw = small.tobytes()
    pixels = [raw[i:i + 3] for i in range(0, len(raw), 3)]
    return sum(1 for p in pixels if sum(p) < 720) / len(pixels), len(set(pixels))


def print_pdf(path, pdf):
    """Print the page to PDF as a reader's browser would (A4-ish default paper, no header/footer)."""
    proc = browser("--no-pdf-header-footer", f"--print-to-pdf={pdf}", "file://" + os.path.abspath(str(path)))
    assert os.path.exists(pdf), proc.stderr[-2000:]
    with open(pdf, "rb") as fh:
        return fh.read()
