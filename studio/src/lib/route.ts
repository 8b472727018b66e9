/**
 * The studio's location as React state, following the URL hash (see `hash.ts`).
 * @module
 */
import { useEffect, useState } from 'react';
import { formatHash, parseHash, type Route } from './hash';

export { VIEWS, type Route, type View } from './hash';

/** The current route, following hash changes. */
export function useRoute(): [Route, (route: Route) => void] {
  const [route, setRoute] = useState(() => parseHash(window.location.hash));
  useEffect(() => {
    const onChange = () => setRoute(parseHash(window.location.hash));
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return [route, (next) => (window.location.hash = formatHash(next))];
}
