/**
 * Asks for the API key when the server answers 401, once per tab: the key is kept in
 * sessionStorage and sent as a bearer token with every request.
 */
import { useEffect, useRef, useState } from 'react';
import { apiKey, setApiKey } from '../lib/api';

export function AuthDialog() {
  const [open, setOpen] = useState(false);
  const [value, setValue] = useState('');
  const [rejected, setRejected] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const onRequired = () => {
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
        <h2 id="auth-title">API key needed</h2>
        <p>
          This server was started with an API key (<code>--api-key</code> or{' '}
          <code>COLLOQUY_API_KEY</code>). Enter it to use the studio; it is kept for this tab only.
        </p>
        {rejected ? <p className="error-text">The key you entered was refused: check it.</p> : null}
        <label>
          API key
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
            Use this key
          </button>
        </div>
      </form>
    </div>
  );
}
