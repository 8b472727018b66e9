/**
 * A loopback TCP proxy for fault injection: the store under test connects through it; `hold()`
 * stops forwarding (requests stay in flight), `drop()` cuts every connection and refuses new ones
 * until `restore()`.
 * @module
 */
import net from 'node:net';

/** A running proxy from `127.0.0.1:port` to a loopback target. */
export interface TcpProxy {
  port: number;
  /** Stops forwarding client data upstream: requests sent from now on never arrive. */
  hold(): void;
  /** How many bytes clients sent that `hold()` kept back (a request in flight shows here). */
  heldBytes(): number;
  /** Destroys every open connection and stops accepting new ones. */
  drop(): Promise<void>;
  /** Forwards again and accepts connections again, on the same port. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

/** Starts a proxy to `targetHost:targetPort` (loopback) on a free port. */
export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  let held = false;
  let heldBytes = 0;
  const track = (socket: net.Socket): void => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    // Errors here are the faults this proxy injects; the store under test must report them.
    socket.on('error', () => socket.destroy());
  };
  let server = net.createServer();
  const listen = async (port: number): Promise<number> => {
    server = net.createServer((client) => {
      const upstream = net.connect(targetPort, targetHost);
      track(client);
      track(upstream);
      client.on('data', (chunk: Buffer) => {
        if (held) heldBytes += chunk.length;
        else upstream.write(chunk);
      });
      upstream.pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    return (server.address() as net.AddressInfo).port;
  };
  const stop = async (): Promise<void> => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) =>
      server.listening ? server.close(() => resolve()) : resolve(),
    );
  };
  const port = await listen(0);
  return {
    port,
    hold: () => void (held = true),
    heldBytes: () => heldBytes,
    drop: stop,
    restore: async () => {
      held = false;
      await listen(port);
    },
    close: stop,
  };
}
