"""Hatchling build hook: a wheel carries the compiled engine (native_build.py) where it can be built.

Editable installs are left alone: `make setup` builds the compiled modules into the work tree, where
merchantry loads them only while their sources are unchanged. A wheel built on a machine without a C
compiler (or with MERCHANTRY_PURE=1) is a pure-Python wheel; otherwise it holds `merchantry/_native/` and
is tagged for this Python and platform.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


def _native_build() -> Any:
    spec = importlib.util.spec_from_file_location("native_build", Path(__file__).parent / "native_build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class CompiledEngineHook(BuildHookInterface):  # type: ignore[type-arg]
    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or version == "editable" or os.environ.get("MERCHANTRY_PURE") == "1":
            return
        native = _native_build()
        reason = native.why_not_buildable()
        if reason:
            self.app.display_warning(f"pure-Python wheel: {reason}")
            return
        self._folder = Path(tempfile.mkdtemp(prefix="merchantry-native-"))
        native.build(self._folder / "_native")
        build_data["force_include"][str(self._folder / "_native")] = "merchantry/_native"
        build_data["pure_python"] = False
        build_data["infer_tag"] = True

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        folder = getattr(self, "_folder", None)
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)
