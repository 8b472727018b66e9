"""ADR-005's user clarification, offline: it answers the analyzer's question itself.

The analyzer's latest output is in the dependencies llm-orc passes (its response is JSON text).
"""
import json
import sys

request = json.load(sys.stdin)
analyzer = request.get("dependencies", {}).get("llm_analyzer", {})
try:
    question = json.loads(analyzer.get("response") or "{}").get("question", "(no question)")
except ValueError:
    question = "(no question)"
print(json.dumps({
    "clarification_provided": True,
    "question": question,
    "answer": "Compare Q3 with Q2, by region.",
}))
