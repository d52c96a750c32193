"""Build hook: compile the message catalogs (ascend_doctor/locale/*/*.po) into .mo files in the wheel.

Everything else is declared in setup.cfg; this file only adds the catalog step to `build_py`, the
setuptools convention for generated package data.
"""

import importlib.util
import os

from setuptools import setup
from setuptools.command.build_py import build_py


def _catalog_module():
    # The build-time catalog compiler (tools/, not shipped), loaded by path: importing the ascend_doctor package
    # itself here would need its dependencies.
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tools", "catalogs.py")
    spec = importlib.util.spec_from_file_location("_ascend_doctor_build_catalogs", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class BuildPyWithCatalogs(build_py):
    def run(self):
        # A build directory left by an earlier build keeps modules since moved or deleted (setuptools copies, never
        # prunes): a wheel would ship them beside their new homes. Start the package's build copy afresh.
        stale = os.path.join(self.build_lib, "ascend_doctor")
        if os.path.isdir(stale):
            import shutil

            shutil.rmtree(stale)
        super().run()
        out = os.path.join(self.build_lib, "ascend_doctor", "locale")
        for path in _catalog_module().compile_locale_dir(os.path.join("ascend_doctor", "locale"), out):
            self.announce(f"compiled {path}", level=2)


setup(cmdclass={"build_py": BuildPyWithCatalogs})
