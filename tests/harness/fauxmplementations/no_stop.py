"""Knows no `stop`: it ignores the request and keeps reading."""

import json
import sys

from _faux import Faux

from conformance.adapters.server import _answer

adapter = Faux()
for line in sys.stdin:
    request = json.loads(line)
    if request["cmd"] != "stop":
        print(_answer(adapter, 1, request, None), flush=True)
