/**
 * Network helpers of the tests that start a real server of their own (PgBouncer, a PostgreSQL
 * replica, an app listening for a browser).
 */
import net from 'node:net';

/** A port nobody listens on right now on 127.0.0.1 (listen on 0, read it, close). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
