/**
 * Asks for the API key (`--api-key`) or the user token (`--auth jwt`) when the server answers
 * 401, once per tab: it is kept in sessionStorage and sent as a bearer token with every request.
 * With a user token the server shows only that user's chats, runs and traces.
 */
import { useEffect, useRef, useState } from 'react';
import { apiKey, setApiKey } from '../lib/api';

export function AuthDialog() {
  const [open, setOpen] = useState(false);
  const [value, setValue] = useState('');
  const [rejected, setRejected] = useState(false);
  const [token, setToken] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const onRequired = (event: Event) => {
      // The server's message says which: "needs a user token" or "needs an API key".
      const message = String((event as CustomEvent<unknown>).detail ?? '');
      setToken(/user token|token was refused|token has no|signed by/i.test(message));
      setRejected(apiKey() !== null);
      setOpen(true);
    };
    window.addEventListener('colloquy:auth-required', onRequired);
    return () => window.removeEventListener('colloquy:auth-required', onRequired);
  }, []);
  useEffect(() => {
    if (open) input.current?.focus();
  }, [open]);
  if (!open) return null;
  return (
    <div className="modal-backdrop">
      <form
        className="modal"
        role="dialog"
        aria-modal="true"
        aria-labelledby="auth-title"
        onSubmit={(event) => {
          event.preventDefault();
          if (value.trim() === '') return;
          setApiKey(value.trim());
          setOpen(false);
          setValue('');
          window.dispatchEvent(new CustomEvent('colloquy:auth-changed'));
        }}
      >
        <h2 id="auth-title">{token ? 'Sign-in token needed' : 'API key needed'}</h2>
        {token ? (
          <p>
            This server has users (<code>--auth jwt</code>). Paste your token (a JWT from your
            identity provider); the studio then shows only the chats, runs and traces it may see. It
            is kept for this tab only.
          </p>
        ) : (
          <p>
            This server was started with an API key (<code>--api-key</code> or{' '}
            <code>COLLOQUY_API_KEY</code>). Enter it to use the studio; it is kept for this tab
            only.
          </p>
        )}
        {rejected ? (
          <p className="error-text">
            The {token ? 'token' : 'key'} you entered was refused: check it.
          </p>
        ) : null}
        <label>
          {token ? 'Token' : 'API key'}
          <input
            ref={input}
            type="password"
            autoComplete="off"
            value={value}
            onChange={(event) => setValue(event.target.value)}
            name="apiKey"
          />
        </label>
        <div className="row">
          <button type="submit" className="primary">
            {token ? 'Use this token' : 'Use this key'}
          </button>
        </div>
      </form>
    </div>
  );
}
