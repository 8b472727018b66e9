/**
 * A raw HTTP/1.1 request helper for the web-safety tests: unlike fetch it sends any Host, Origin
 * and Sec-Fetch-* header as given, as a browser (or a DNS-rebinding page) would.
 */
import http from 'node:http';

/** What {@link rawRequest} got back. */
export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  json: () => { error?: { code?: string; message?: string } } & Record<string, unknown>;
}

/** Sends one request to `baseUrl` + `path` with exactly these headers and body. */
export function rawRequest(
  baseUrl: string,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawResponse> {
  const url = new URL(path, baseUrl);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method: options.method ?? 'GET',
        headers: {
          ...(options.body !== undefined
            ? { 'content-length': Buffer.byteLength(options.body) }
            : {}),
          ...options.headers,
        },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body,
            json: () => JSON.parse(body),
          }),
        );
      },
    );
    req.on('error', reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}
