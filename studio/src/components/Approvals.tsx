/** Tool calls waiting for approval: approve or reject each, then resume the call. */
import { useState } from 'react';
import type { PendingApproval } from '../lib/types';

export function Approvals({
  pending,
  busy,
  onResume,
}: {
  pending: PendingApproval[];
  busy: boolean;
  onResume: (approve: string[], reject: string[]) => void;
}) {
  const [decisions, setDecisions] = useState<Record<string, 'approve' | 'reject'>>({});
  const decided = pending.every((call) => decisions[call.callId]);
  return (
    <section
      className="approvals"
      aria-label="Tool calls waiting for approval"
      data-testid="approvals"
    >
      <h3>Waiting for your approval</h3>
      {pending.map((call) => (
        <fieldset key={call.callId} className="approval">
          <legend>
            <code>{call.toolName}</code> by {call.agent}
          </legend>
          <pre className="pre wrap small">{call.arguments}</pre>
          {(['approve', 'reject'] as const).map((choice) => (
            <label key={choice} className="radio">
              <input
                type="radio"
                name={`decision-${call.callId}`}
                checked={decisions[call.callId] === choice}
                onChange={() => setDecisions({ ...decisions, [call.callId]: choice })}
              />
              {choice === 'approve' ? 'Approve' : 'Reject'}
            </label>
          ))}
        </fieldset>
      ))}
      <div className="row">
        <button
          type="button"
          className="primary"
          disabled={!decided || busy}
          onClick={() =>
            onResume(
              pending.filter((c) => decisions[c.callId] === 'approve').map((c) => c.callId),
              pending.filter((c) => decisions[c.callId] === 'reject').map((c) => c.callId),
            )
          }
        >
          Resume
        </button>
        {!decided ? <span className="muted small">Decide on every call to resume.</span> : null}
      </div>
    </section>
  );
}
