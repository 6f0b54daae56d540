import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The ceiling every scenario is compared to: a plain node:http server answering a constant body (the same
 * size as the GET space answer) on 127.0.0.1, in the same process and the same run as the application, so that
 * the ratio says how much of the machine's HTTP capacity a request's own work leaves.
 */
export async function startBaseline(body: string): Promise<{ url: string; close(): Promise<void> }> {
  const payload = Buffer.from(body);
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': payload.length });
    response.end(payload);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
