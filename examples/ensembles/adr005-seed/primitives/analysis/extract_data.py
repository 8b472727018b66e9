"""ADR-005's data extractor, offline: a different slice of the Q3 data on each of its two runs.

It reads the JSON on stdin (Colloquy's conversation_state tells which run this is) and prints a
flat JSON object, as llm-orc scripts do.
"""
import json
import sys

request = json.load(sys.stdin)
counts = request.get("conversation_state", {}).get("agent_execution_count", {})
run = counts.get(request.get("agent", "data_extractor"), 0) + 1
slices = [
    {"region": "EMEA", "q3_sales": 120, "q2_sales": 100},
    {"region": "APAC", "q3_sales": 80, "q2_sales": 80},
]
print(json.dumps({"run": run, **slices[min(run, len(slices)) - 1]}))
