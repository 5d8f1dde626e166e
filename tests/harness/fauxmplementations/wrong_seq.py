"""Answers `legal` with the seq of the request before it."""

import json
import sys

from _faux import Faux

from conformance.adapters.server import _answer

adapter = Faux()
for line in sys.stdin:
    request = json.loads(line)
    if request["cmd"] == "legal":
        request["seq"] -= 1
    print(_answer(adapter, 1, request, None), flush=True)
    if request["cmd"] == "stop":
        break
