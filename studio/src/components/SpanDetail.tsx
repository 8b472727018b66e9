/** An opened span: its input, output, instructions, tool arguments, model settings and error. */
import type { Span } from '../lib/types';

const SECTIONS: Array<[key: string, label: string]> = [
  ['instructions', 'Instructions'],
  ['input', 'Input'],
  ['arguments', 'Arguments'],
  ['output', 'Output'],
  ['settings', 'Model settings'],
];

function show(value: unknown): string {
  if (typeof value !== 'string') return JSON.stringify(value, null, 2);
  try {
    return JSON.stringify(JSON.parse(value), null, 2);
  } catch {
    return value;
  }
}

export function SpanDetail({ span, onClose }: { span: Span; onClose: () => void }) {
  const attributes = span.attributes ?? {};
  const shown = new Set(SECTIONS.map(([key]) => key));
  const rest = Object.entries(attributes).filter(([key]) => !shown.has(key));
  const sections = SECTIONS.filter(([key]) => attributes[key] !== undefined);
  return (
    <section className="panel span-detail" data-testid="span-detail" aria-label="Span">
      <div className="row spread">
        <h2>
          <span className={`kind kind-${span.kind}`}>{span.kind}</span> {span.name}
        </h2>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
      {span.error ? (
        <div className="error-text" role="alert" data-testid="span-error">
          {span.error.message}
        </div>
      ) : null}
      {sections.map(([key, label]) => (
        <div key={key} data-testid={`span-${key}`}>
          <h3 className="small">{label}</h3>
          <pre className="pre wrap small">{show(attributes[key])}</pre>
        </div>
      ))}
      {sections.length === 0 && !span.error ? (
        <p className="muted small">
          No content was kept for this span (the trace store keeps content unless it is turned off).
        </p>
      ) : null}
      {rest.length > 0 ? (
        <dl className="small span-attrs">
          {rest.map(([key, value]) => (
            <div key={key}>
              <dt>{key}</dt>
              <dd>
                <code>{typeof value === 'string' ? value : JSON.stringify(value)}</code>
              </dd>
            </div>
          ))}
        </dl>
      ) : null}
    </section>
  );
}
