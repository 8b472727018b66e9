/**
 * The chat list's filters: by agent (a talker in the chat), by user (the chat's owner, when the
 * server has users) and by date (the chat was active between two days). They become the query
 * parameters `agent`, `user`, `since` and `until` of `GET /chats`.
 */

/** The chosen filters ('' for none). */
export interface Filters {
  agent: string;
  user: string;
  /** `YYYY-MM-DD`, from the start of that day (local time). */
  from: string;
  /** `YYYY-MM-DD`, to the end of that day (local time). */
  to: string;
}

/** No filter. */
export const NO_FILTERS: Filters = { agent: '', user: '', from: '', to: '' };

/** The filters as query parameters (each starting with `&`), '' with none. */
export function filterParams(filters: Filters): string {
  const params: string[] = [];
  const add = (name: string, value: string) => params.push(`&${name}=${encodeURIComponent(value)}`);
  if (filters.agent) add('agent', filters.agent);
  if (filters.user.trim()) add('user', filters.user.trim());
  if (filters.from) add('since', new Date(`${filters.from}T00:00:00`).toISOString());
  if (filters.to) add('until', new Date(`${filters.to}T23:59:59.999`).toISOString());
  return params.join('');
}

export function ChatFilters({
  agents,
  value,
  onChange,
}: {
  agents: readonly string[];
  value: Filters;
  onChange: (filters: Filters) => void;
}) {
  const set = (field: keyof Filters) => (event: { target: { value: string } }) =>
    onChange({ ...value, [field]: event.target.value });
  const active = Object.values(value).filter((v) => v !== '').length;
  return (
    <details className="chat-filters" data-testid="chat-filters">
      <summary>Filters{active > 0 ? ` (${active})` : ''}</summary>
      <label>
        Agent
        <select value={value.agent} onChange={set('agent')} name="agent">
          <option value="">any</option>
          {agents.map((agent) => (
            <option key={agent} value={agent}>
              {agent}
            </option>
          ))}
        </select>
      </label>
      <label>
        User
        <input
          type="text"
          value={value.user}
          onChange={set('user')}
          name="user"
          placeholder="user id"
        />
      </label>
      <div className="row">
        <label>
          From
          <input type="date" value={value.from} onChange={set('from')} name="from" />
        </label>
        <label>
          To
          <input type="date" value={value.to} onChange={set('to')} name="to" />
        </label>
      </div>
      {active > 0 ? (
        <button type="button" className="linklike small" onClick={() => onChange(NO_FILTERS)}>
          Clear filters
        </button>
      ) : null}
    </details>
  );
}
