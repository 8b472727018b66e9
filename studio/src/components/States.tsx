/** Empty, loading and error states that say what to do next. */
import type { ReactNode } from 'react';
import { ApiError } from '../lib/api';

export function Empty({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="empty" role="status">
      <strong>{title}</strong>
      {children ? <div>{children}</div> : null}
    </div>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <div className="loading" role="status" aria-live="polite">
      Loading {what}…
    </div>
  );
}

export function Failure({ error, retry }: { error: unknown; retry?: () => void }) {
  const unauthorized = error instanceof ApiError && error.status === 401;
  return (
    <div className="failure" role="alert">
      <strong>{unauthorized ? 'This server needs an API key.' : 'Something went wrong.'}</strong>
      <div>
        {error instanceof Error ? error.message : String(error)}
        {error instanceof ApiError ? <code className="code-tag">{error.code}</code> : null}
      </div>
      {retry ? (
        <button type="button" onClick={retry}>
          Try again
        </button>
      ) : null}
    </div>
  );
}
