#!/usr/bin/env bash
# A dependent script: stdin is {"agent_name", "input_data", "context", "dependencies"}; INPUT_TEXT
# holds the ensemble input. Plain-text output is kept as the agent's response.
set -euo pipefail
first_sentence="${INPUT_TEXT%%.*}"
echo "HEADLINE: ${first_sentence^^}"
