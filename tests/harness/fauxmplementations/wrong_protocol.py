"""Answers the handshake with another protocol version."""

import json
import sys

for line in sys.stdin:
    request = json.loads(line)
    result = {"name": "wrong-protocol", "version": "1.0", "protocol": 99,
              "variants": [], "capabilities": []}
    print(json.dumps({"seq": request["seq"], "ok": True, "result": result}), flush=True)
